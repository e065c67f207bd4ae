"""Equilibrium of a small zero-sum game in which the other side has a hidden type.

SUMO's reveal is such a game: both seats choose a card blind, and what the other seat can choose
depends on its hand, which this seat does not see. Given ``types`` (possible hands of the other seat,
equally likely, e.g. sampled deals) and for each one a payoff matrix ``M[t][r][s]`` (this seat's
payoff when it plays ``r`` and the other seat, holding type ``t``, plays its ``s``-th option), the
row player's equilibrium (maximin) strategy ``x`` maximises

    sum over t of  min over s of  sum over r of  x[r] * M[t][r][s]     (divided by the number of types)

since each type of the other seat answers ``x`` with its own best reply. :func:`solve` finds it by
regret matching+ for the row player against those best replies, with linearly weighted averaging
(Tammelin 2014): the average strategy's guaranteed payoff converges to the game's value. With one
type it is the ordinary matrix game (matching pennies: one half each).

Safe exploitation: a *model* of the other side (``model[t][s]``, the probability that type ``t``
plays its ``s``-th option) trusted with weight ``w`` changes the objective to

    sum over t of  w * (x against the model's mix for t)  +  (1 - w) * (x against t's best reply)

so ``w = 0`` is the equilibrium above and ``w = 1`` the plain best response to the model. The
maximin part matters because the best reply is taken *knowing the row player's type* (in SUMO: as
if the other seat saw this seat's hand), far more than a real opponent knows: a pessimistic
guarantee, which the model's part tempers.
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

#: Regret-matching iterations: enough for a value within about 0.01 on the reveal's 8 x 8 games.
DEFAULT_ITERATIONS = 2000


def guaranteed(x: npt.ArrayLike, payoffs: npt.ArrayLike, model: npt.ArrayLike | None = None,
               weight: float = 0.0) -> float:
    """What the row strategy ``x`` earns on average over the types against each type's best reply
    (or, with a ``model`` of shape (types, columns) trusted with ``weight``, the mixed objective of
    the module docstring).

    ``payoffs`` has shape (types, rows, columns)."""
    m = np.asarray(payoffs, dtype=float)
    per_column = np.einsum("r,trs->ts", np.asarray(x, dtype=float), m)
    per_type = per_column.min(axis=1)
    if model is not None and weight > 0.0:
        expected = (per_column * np.asarray(model, dtype=float)).sum(axis=1)
        per_type = weight * expected + (1.0 - weight) * per_type
    return float(per_type.mean())


def solve(payoffs: npt.ArrayLike, iterations: int = DEFAULT_ITERATIONS, model: npt.ArrayLike | None = None,
          weight: float = 0.0) -> tuple[np.ndarray, float]:
    """The row player's equilibrium strategy and the value it guarantees (see the module docstring).

    ``payoffs`` has shape (types, rows, columns), or (rows, columns) for a single type. ``model``
    (shape (types, columns), or (columns,) for a single type; rows of probabilities) and ``weight``
    (0..1) add the model of the other side; the value returned is then the mixed objective's.
    """
    m = np.asarray(payoffs, dtype=float)
    if m.ndim == 2:
        m = m[None]
    if m.ndim != 3 or 0 in m.shape:
        raise ValueError("payoffs: expected a (types, rows, columns) array with no empty side")
    if not 0.0 <= weight <= 1.0:
        raise ValueError("weight: expected a number between 0 and 1")
    types, rows, columns = m.shape
    # The model's part of every row's payoff is the same in every iteration: worked out once.
    fixed = np.zeros(rows)
    if model is not None and weight > 0.0:
        pi = np.asarray(model, dtype=float).reshape(types, columns)
        if (pi < 0).any() or not np.allclose(pi.sum(axis=1), 1.0):
            raise ValueError("model: expected a probability distribution over the columns of each type")
        fixed = weight * np.einsum("trs,ts->r", m, pi) / types
    else:
        pi, weight = None, 0.0
    if weight == 1.0:  # a plain best response: the best rows against the model, evenly
        best = np.isclose(fixed, fixed.max(), rtol=0.0, atol=1e-12)
        x = best / best.sum()
        return x, guaranteed(x, m, pi, weight)
    regret = np.zeros(rows)
    average = np.zeros(rows)
    x = np.full(rows, 1.0 / rows)
    t_index = np.arange(types)
    for it in range(1, iterations + 1):
        replies = np.einsum("r,trs->ts", x, m).argmin(axis=1)  # each type's best reply to x
        # payoff of every row against those replies (and the model's mix)
        u = fixed + (1.0 - weight) * m[t_index, :, replies].mean(axis=0)
        regret = np.maximum(regret + u - x @ u, 0.0)
        average += it * x
        total = regret.sum()
        x = regret / total if total > 0 else np.full(rows, 1.0 / rows)
    average /= average.sum()
    return average, guaranteed(average, m, pi, weight)
