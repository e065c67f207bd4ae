"""The blind-choice game solver: known equilibria, and brute force over a grid of strategies."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.matrix_game import guaranteed, solve


@pytest.mark.parametrize(("payoffs", "x", "value"), [
    ([[1, -1], [-1, 1]], [0.5, 0.5], 0.0),                       # matching pennies
    ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], [1 / 3] * 3, 0.0),    # rock, paper, scissors
    ([[2, -1], [-1, 1]], [0.4, 0.6], 0.2),                       # unequal stakes: 2/5, 3/5
    ([[3, 1], [2, 0]], [1.0, 0.0], 1.0),                         # a dominant row: no mixing
])
def test_known_equilibria(payoffs, x, value):
    got, v = solve(payoffs)
    assert got == pytest.approx(x, abs=0.01)
    assert v == pytest.approx(value, abs=0.01)


def test_with_two_types_each_answers_for_itself():
    # Two equally likely types with one answer each: row 0 loses to type 0 and beats type 1, row 1
    # the other way round (0 on average either way, mixed or not); row 2 earns 0.5 against both.
    payoffs = [[[-1.0], [1.0], [0.5]], [[1.0], [-1.0], [0.5]]]
    x, v = solve(payoffs)
    assert v == pytest.approx(0.5, abs=0.01)
    assert guaranteed([0, 0, 1], payoffs) == pytest.approx(0.5)
    assert guaranteed([1, 0, 0], payoffs) == pytest.approx(0.0)
    assert x[2] > 0.95


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_two_rows_reach_the_best_guarantee_a_grid_search_finds(types, columns, seed):
    m = np.random.default_rng(seed).uniform(-1, 1, (types, 2, columns))
    best = max(guaranteed([p, 1 - p], m) for p in np.linspace(0, 1, 1001))
    x, v = solve(m)
    assert x.sum() == pytest.approx(1.0) and (x >= 0).all()
    assert v == pytest.approx(guaranteed(x, m))
    # (the grid's step is 0.001 and a guarantee moves by at most 2 per unit of p: the true best
    # lies within 0.001 of the grid's)
    assert best - 0.01 <= v <= best + 1e-3


def test_no_rows_is_refused():
    with pytest.raises(ValueError, match="payoffs"):
        solve(np.zeros((1, 0, 3)))


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(2, 4), st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_fully_trusting_the_model_is_the_best_response_to_it(types, rows, columns, seed):
    # With weight 1 the objective is linear in x: the best pure row is the best strategy.
    rng = np.random.default_rng(seed)
    m = rng.uniform(-1, 1, (types, rows, columns))
    model = rng.dirichlet(np.ones(columns), types)
    against_model = np.einsum("trs,ts->r", m, model) / types
    x, v = solve(m, model=model, weight=1.0)
    assert v == pytest.approx(against_model.max(), abs=0.01)
    assert against_model[int(np.argmax(x))] == pytest.approx(against_model.max(), abs=0.01)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.floats(0.0, 1.0), st.integers(0, 2**32 - 1))
def test_a_partly_trusted_model_reaches_the_best_mixed_objective_a_grid_search_finds(types, columns, w, seed):
    rng = np.random.default_rng(seed)
    m = rng.uniform(-1, 1, (types, 2, columns))
    model = rng.dirichlet(np.ones(columns), types)
    best = max(guaranteed([p, 1 - p], m, model, w) for p in np.linspace(0, 1, 1001))
    x, v = solve(m, model=model, weight=w)
    assert v == pytest.approx(guaranteed(x, m, model, w))
    assert best - 0.01 <= v <= best + 1e-3  # (the grid's step, as above)
    # The guarantee against the best reply never beats the plain equilibrium's.
    assert guaranteed(x, m) <= solve(m)[1] + 0.01


def test_a_model_that_exploits_a_predictable_side_and_one_that_does_not_trust_it():
    # Matching pennies against a side that is modelled to play heads: trusting the model plays
    # heads; not trusting it stays at one half each.
    pennies = [[1.0, -1.0], [-1.0, 1.0]]
    heads = [1.0, 0.0]
    x, v = solve(pennies, model=heads, weight=1.0)
    assert x[0] > 0.95 and v == pytest.approx(1.0, abs=0.01)
    x, v = solve(pennies, model=heads, weight=0.0)
    assert x == pytest.approx([0.5, 0.5], abs=0.01) and v == pytest.approx(0.0, abs=0.01)


@pytest.mark.parametrize(("model", "weight"), [([0.5, 0.6], 0.5), ([-0.5, 1.5], 0.5), ([0.5, 0.5], 1.5)])
def test_a_model_that_is_no_distribution_or_a_weight_out_of_range_is_refused(model, weight):
    with pytest.raises(ValueError, match="model|weight"):
        solve([[1.0, -1.0], [-1.0, 1.0]], model=model, weight=weight)
