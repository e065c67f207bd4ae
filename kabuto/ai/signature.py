"""Signature moves for the AI: every way to use a move now, and the best targets for it.

:meth:`kabuto.Game.available_moves` lists a seat's moves with their target specs. Targets with a list
of choices (a seat, a piece) are tried one by one; an angle (Horn Hook, Roll Up, Roll) every
``move_angle_step_deg``; a distance (Roll) at its maximum and half of it. A move is tried on a
:meth:`~kabuto.Game.clone` and the end-of-turn score (:func:`kabuto.ai.scoring.score_game`) of the
result decides between its targets. Ties go to the first tried, so the choice is deterministic.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kabuto.ai.levels import SearchSettings, Weights
from kabuto.ai.plan import MoveChoice
from kabuto.ai.scoring import move_net_cost, score_game
from kabuto.rules.errors import IllegalMove
from kabuto.rules.outcomes import pieces_added

if TYPE_CHECKING:
    from kabuto.rules.game import Game
    from kabuto.rules.moves import MoveOption, TargetSpec


@dataclass
class Tried:
    """A move with its best targets, the game after it, and that game's score."""

    move: MoveChoice
    game: Game
    score: float
    replaces_turn: bool
    effect: str


def _values(spec: TargetSpec, search: SearchSettings) -> list[Any]:
    if spec.kind in ("seat", "piece"):
        return list(spec.choices)
    if spec.kind == "angle_deg":
        lo = -180.0 if spec.low is None else spec.low
        hi = 180.0 if spec.high is None else spec.high
        step = search.move_angle_step_deg
        n = max(1, int((hi - lo) // step))
        return [round(lo + i * step, 6) for i in range(n) if lo + i * step < hi] or [lo]
    if spec.kind == "distance_mm":
        hi = 0.0 if spec.high is None else float(spec.high)
        return [hi, hi / 2.0] if hi > 0 else []
    return list(spec.choices)


def target_combos(option: MoveOption, search: SearchSettings) -> list[dict[str, Any]]:
    """Target combinations worth trying for ``option`` (at most ``max_target_combos``, spread evenly
    over the full list when there are more)."""
    names = [t.name for t in option.targets]
    values = [_values(t, search) for t in option.targets]
    if any(not v for v in values):
        return []
    combos = [dict(zip(names, vs, strict=True)) for vs in itertools.product(*values)]
    cap = search.max_target_combos
    if len(combos) > cap:
        combos = [combos[(i * len(combos)) // cap] for i in range(cap)]
    return combos


def move_effect(game: Game, seat: int, name: str) -> str:
    return game.seats[seat].wrestler.move(name).effect


def try_moves(game: Game, seat: int, search: SearchSettings, weights: Weights,
              only: set[str] | None = None) -> list[Tried]:
    """Each usable move of ``seat`` with its best targets (in card order)."""
    out = []
    for opt in game.available_moves(seat):
        if not opt.usable or (only is not None and opt.name not in only):
            continue
        best: Tried | None = None
        for targets in target_combos(opt, search) if opt.targets else [{}]:
            g = game.clone()
            try:
                done = g.use_move(seat, opt.name, **targets)
            except IllegalMove:
                continue
            sc = score_game(g, seat, weights)
            if opt.replaces_turn:  # the turn has passed on: score_game no longer sees its price
                added = pieces_added(game.inventory_place(game.side_of(seat)), done.gained,
                                     done.knocked_out)
                sc -= move_net_cost(game, seat, [opt.name], added, weights)
            if best is None or sc > best.score:
                best = Tried(MoveChoice(opt.name, dict(targets)), g, sc, opt.replaces_turn,
                             move_effect(game, seat, opt.name))
        if best is not None:
            out.append(best)
    return out
