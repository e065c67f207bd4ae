"""Looking one reply ahead: how the next side's most damaging answer would leave the AI (hard, expert).

The search (:mod:`kabuto.ai.search`) scores a push by the position it leaves. A push can score well
and still leave the AI's own wrestler where the next player knocks it out: nudged towards the edge
in front of a crowd, or into the centre circle in front of Mighty Jaw Mike's Vice Grip. A level with
``reply_top`` and ``reply_broad`` (``assets/ai.toml``) checks its best few pushes against the replies:
:func:`after_reply` plays the push as aimed on a copy, ends the turn and lets the next side answer
with

* each usable signature move on its own - one that wins at once (Vice Grip on a wrestler already in
  the circle) is the answer; against a wrestler with Vice Grip, the AI's own wrestler left within
  ``grip_margin_mm`` of the circle counts as lost too (its own push wobbles as it is made);
* ``reply_broad`` sampled pushes, drawn by the AI's own sampler (:func:`kabuto.ai.candidates.broad`:
  most are aimed at the side's opposing wrestlers, here the AI's own), each scored *for the AI*
  (:func:`kabuto.ai.pool.evaluate` with ``view``). A push that leaves one of the AI's wrestlers in
  the circle while the replying wrestler has a move that empties the circle (Vice Grip after the
  push) counts as lost. Against such a wrestler ``grip_replies`` pushes that drive the AI's own
  wrestler in towards the circle are added (:func:`kabuto.ai.candidates.inward`): the sample, aimed
  to drive wrestlers out, hardly ever draws them, and without them the AI could only keep clear of
  the circle by a blanket penalty (``grip_danger``).

The push's value is the worst of these for the AI: the next player is assumed to find the answer
that hurts most (a sample of answers, so a narrow one may be missed; a bigger ``reply_broad`` misses
fewer). This is a two-ply minimax over sampled replies, the same for any number of worker processes.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from kabuto.ai import candidates as cand
from kabuto.ai import scoring
from kabuto.ai.levels import SearchSettings, Weights
from kabuto.ai.plan import PushChoice
from kabuto.ai.pool import Base, Candidate, Sketch, evaluate
from kabuto.ai.scoring import score_game
from kabuto.ai.signature import try_moves
from kabuto.rules.errors import IllegalMove

if TYPE_CHECKING:
    from kabuto.rules.game import Game

def turn_ended(game: Game, aim: PushChoice | None) -> Game | None:
    """A copy of ``game`` after push ``aim`` as aimed (None: no push, a move that replaced the turn
    was made) and the end of the turn, or None if the turn cannot end there (a second push is owed)."""
    g = game.clone()
    seat, turn = g.current_seat, g.turn.number
    if aim is not None:
        try:
            g.apply(aim.action())
        except IllegalMove:
            return None
    if not g.is_over and g.turn.number == turn and g.current_seat == seat:
        if not g.can_end_turn:
            return None
        g.end_turn()
    return g


def after_reply(game: Game, seat: int, n: int, rng: random.Random, search: SearchSettings,
                weights: Weights, workers: int, sketch: Sketch | None = None,
                refine: tuple[int, int, int] = (0, 0, 0)) -> tuple[float, int]:
    """(``seat``'s score after the next side's most damaging reply found, previews spent), in
    ``game`` as ``seat``'s turn left it (:func:`turn_ended`); ``sketch``: the replies are
    sketched previews (:class:`kabuto.ai.pool.Sketch`); ``refine`` = (top, per, rounds): the
    ``top`` most damaging replies found get ``per`` neighbours each, for ``rounds`` rounds of
    halving steps (a level's ``reply_refine_top``, ``reply_refine_per``, ``refine_rounds``)."""
    if game.is_over:
        return score_game(game, seat, weights), 0
    side = game.side_of(seat)
    replier = game.current_seat
    if game.side_of(replier) == side:  # turns alternate between sides: a guard, not a case
        return score_game(game, seat, weights), 0
    own = {s.piece_id for s in game.seats if game.side_of(s.index) == side}
    grips = scoring.grips(game, game.seats[replier])
    if grips and own.intersection(game.world.in_circle(game.world.ring.centre_radius
                                                       + search.grip_margin_mm / 1000.0)):
        return weights.loss, 0  # in (or all but in) the circle, in front of a Vice Grip
    worst = score_game(game, seat, weights)
    if not game.junior:
        for t in try_moves(game, replier, search, weights):
            if t.game.is_over:
                worst = min(worst, score_game(t.game, seat, weights))
    cands = cand.broad(game, 0, n, rng, search)
    if grips:
        cands += cand.inward(game, 0, search.grip_replies, rng, search)
    if not cands:
        return worst, 0
    base = Base.of(game)
    found: list[tuple[float, int, Candidate]] = []  # (value for the AI, order found, reply)

    def score(batch: list[Candidate]) -> None:
        for c, s in zip(batch, evaluate(base, [()], batch, workers, view=seat, sketch=sketch),
                        strict=True):
            if s is None:
                continue
            v = s.score
            if grips and s.winner is None and own.intersection(s.in_circle):
                v = weights.loss  # pushed into the circle, then gripped in the same turn
            found.append((v, len(found), c))

    score(cands)
    spent = len(cands)
    top, per, rounds = refine
    for r in range(rounds if top and per else 0):
        if min(found, default=(worst,))[0] <= weights.loss:
            break  # already lost: no reply can do worse
        new: list[Candidate] = []
        for _, _, c in sorted(found)[:top]:
            new += cand.neighbours(game, c, per, 0.5 ** r, rng, search)
        score(new)
        spent += len(new)
    return min([worst] + [v for v, _, _ in found]), spent


__all__ = ["after_reply", "turn_ended"]
