"""The SUMO trick solver: exact values, checked against a plain search of every line of play."""
from __future__ import annotations

import random

import pytest

from cards.sumo import PLAY_PHASE, Sumo
from cards.sumo_solver import TrickSolver, action_values, cards_of, mask


def full_search(g: Sumo, seat: int) -> float:
    """The outcome for ``seat`` under best play, searching every line (no table, no shortcut)."""
    if g.is_over:
        return 0.0 if g.winner < 0 else (1.0 if g.winner == seat else -1.0)
    values = []
    for a in g.legal_actions():
        child = g.clone()
        child.apply(a)
        values.append(full_search(child, seat))
    return max(values) if g.turn == seat else min(values)


def tricks_position(seed: int, hand_size: int, colours: str = "red-black") -> Sumo:
    g = Sumo.new(seed=seed, hand_size=hand_size, colours=colours)
    rng = random.Random(seed)
    while not g.is_over and g.phase != PLAY_PHASE:
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("colours", ["red-black", "suits"])
def test_solver_values_equal_a_full_search_of_every_line(colours):
    checked = 0
    for seed in range(40):
        g = tricks_position(seed, 4, colours)
        if g.is_over:
            continue
        me = g.turn
        got = action_values(g)
        for a, v in got.items():
            child = g.clone()
            child.apply(a)
            assert v == full_search(child, me), (seed, a)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("colours", ["red-black", "suits"])
def test_answers_to_a_lead_are_valued_like_a_full_search(colours):
    # The follower's side of the solver (a card already led), from a fresh table each time.
    checked = 0
    for seed in range(40):
        g = tricks_position(seed, 4, colours)
        if g.is_over:
            continue
        g.apply(random.Random(seed).choice(g.legal_actions()))
        if g.is_over:
            continue
        me = g.turn
        got = TrickSolver(colours).action_values(g)
        assert set(got) == set(g.legal_actions())
        for a, v in got.items():
            child = g.clone()
            child.apply(a)
            assert v == full_search(child, me), (seed, a)
        checked += 1
    assert checked >= 20


def test_one_table_serves_every_deal_and_a_full_table_starts_afresh():
    # Positions are keyed by both whole hands, so a table filled by other deals gives the same
    # values as a fresh one; a table at its bound is emptied, not grown.
    shared = TrickSolver(max_entries=50)
    for seed in range(30):
        g = tricks_position(seed, 6)
        if g.is_over:
            continue
        assert shared.action_values(g) == TrickSolver().action_values(g), seed
        assert len(shared.table) <= 50


def test_masks_and_cards_are_inverse():
    hand = ["1C", "3H", "5S", "2D"]
    assert cards_of(mask(hand)) == sorted(hand)


def test_an_instant_sumo_move_is_a_sure_win():
    # Seat 0 leads the one of hearts; seat 1 holds the four of hearts (abise-taoshi wins at once).
    g = Sumo.new(seed=1, hands=[["1C", "1D", "1H", "2C", "2S", "3H", "4C", "5D"],
                                ["1S", "2D", "2H", "3C", "3S", "4D", "4H", "5H"]])
    g.apply("reveal 4C")
    g.apply("reveal 3S")
    g.apply("play 1H")
    assert action_values(g)["play 4H"] == 1.0


def test_the_solver_refuses_the_reveals():
    with pytest.raises(ValueError, match="reveals"):
        action_values(Sumo.new(seed=2))
