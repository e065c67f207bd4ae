"""Exact play of SUMO's tricks when every hand is known (a "double-dummy" solver).

Once the reveals are over, SUMO is a short trick-taking game: at most seven tricks, two hands, a
wrestler with three places. With both hands known the outcome under best play can be found
exactly by searching every line of play: :func:`action_values` gives the value of every legal
action for the seat to play (+1 it wins, -1 it loses, 0 a draw), by negamax over the engine's own
``clone``/``apply`` (so the rules are the engine's, not written twice) with two shortcuts that keep
it exact:

* a win is the best a seat can get, so once one of its actions wins the others are not searched;
* positions met again by another order of play (same hands, card led, seat to play and wrestler
  place) are looked up in a table instead of searched again.

The Equilibrium level (:mod:`cards.equilibrium`) solves many re-dealt copies of a position this way
(perfect-information Monte Carlo) and plays the action that wins in most of them.
"""
from __future__ import annotations

from cards.sumo import PLAY_PHASE, Sumo

Memo = dict[tuple[object, ...], float]


def _key(g: Sumo) -> tuple[object, ...]:
    return (tuple(g.hands[0]), tuple(g.hands[1]), g.lead, g.turn, g.wrestler)


def value(g: Sumo, memo: Memo) -> float:
    """The outcome for the seat to play (the game not over) under best play by both (+1 win, -1
    loss, 0 draw)."""
    key = _key(g)
    got = memo.get(key)
    if got is not None:
        return got
    me = g.turn
    best = -2.0
    for a in g.legal_actions():
        child = g.clone()
        child.apply(a)
        v = _for(child, me, memo)
        if v > best:
            best = v
            if best >= 1.0:
                break
    memo[key] = best
    return best


def _for(g: Sumo, seat: int, memo: Memo) -> float:
    """The outcome under best play for ``seat`` (whoever is to play in ``g``)."""
    if g.is_over:
        if g.winner < 0:
            return 0.0
        return 1.0 if g.winner == seat else -1.0
    v = value(g, memo)
    return v if g.turn == seat else -v


def action_values(g: Sumo, memo: Memo | None = None) -> dict[str, float]:
    """Every legal action of the seat to play, with its exact outcome for that seat."""
    if g.phase != PLAY_PHASE:
        raise ValueError("the solver plays the tricks: the reveals are not over")
    memo = {} if memo is None else memo
    me = g.turn
    out = {}
    for a in g.legal_actions():
        child = g.clone()
        child.apply(a)
        out[a] = _for(child, me, memo)
    return out
