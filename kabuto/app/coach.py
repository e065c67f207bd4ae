"""The coach: a hint (a good push for the player) and a danger (the opponent's strongest reply),
both from the AI's own search (:func:`kabuto.ai.choose`), so they follow the rules and the board
as those change. No pyglet: the table asks for them in its background worker.

The search runs at :data:`COACH_LEVEL` with one process: a fixed budget of previews (medium's, about
100 simulated pushes), well under a second of CPU on the starting board.
"""
from __future__ import annotations

from dataclasses import dataclass

from kabuto.ai import choose
from kabuto.ai.lookahead import turn_ended
from kabuto.ai.plan import MoveChoice, Plan, PushChoice
from kabuto.app.aim import Aim
from kabuto.app.words import and_list
from kabuto.rules.game import Game

COACH_LEVEL = "medium"


@dataclass(frozen=True)
class Advice:
    """A turn the coach shows: ``what`` is "hint" or "danger", ``seat`` who would play it,
    ``moves`` the signature moves it uses first (their names, in the player's words), ``aim`` and
    ``kind`` its push (None: the moves are the whole turn, or they win before any push), ``falls``
    the pieces it is expected to knock out or take with a move (ringed on the table), ``text`` the
    sentence."""

    what: str
    seat: int
    kind: str | None
    aim: Aim | None
    falls: tuple[str, ...]
    text: str
    moves: tuple[str, ...] = ()


def _names(game: Game, falls: tuple[str, ...]) -> str:
    """ "Blue's wrestler (Goliath Gus), 2 medium discs and a small disc" - what a player calls the
    pieces, wrestlers first, then the rest counted by kind in the order they fall."""
    wrestlers: list[str] = []
    counts: dict[str, int] = {}
    for pid in falls:
        try:
            kind = game.kind_of(pid)
        except (KeyError, ValueError):
            continue
        wrestler = next((s for s in game.seats if s.piece_id == pid), None)
        if wrestler is not None:
            wrestlers.append(f"{game.names.seat(wrestler.index)}'s wrestler")
        else:
            counts[kind] = counts.get(kind, 0) + 1
    parts = wrestlers + [_counted(game, kind, n) for kind, n in counts.items()]
    return and_list(parts)


def _counted(game: Game, kind: str, n: int) -> str:
    """ "a small disc", "3 small discs", "the Boulder" - a kind as many times as it falls."""
    name = game.kind_name(kind)
    if kind not in ("small", "medium", "large"):
        return name if n == 1 else f"{n} x {name}"
    return f"a {name}" if n == 1 else f"{n} {name}s"


def _advice(what: str, game: Game, seat: int, plan: Plan) -> Advice | None:
    """The coach's sentence and line for ``plan``, the turn the search chose for ``seat``."""
    falls = plan.predicted.knocked_out
    moves: list[str] = []
    marked = list(falls)           # ringed on the table: what the push knocks out, what moves take
    for step in plan.steps:        # "Vice Grip on Blue's wrestler": each move and what it aims at
        if not isinstance(step, MoveChoice):
            continue
        on = []
        for v in step.targets.values():
            if isinstance(v, str) and v in game.world:
                on.append(_names(game, (v,)))
                if v not in marked:
                    marked.append(v)
            elif isinstance(v, int) and not isinstance(v, bool) and 0 <= v < game.players:
                on.append(game.names.seat(v))
        moves.append(step.name + (" on " + " and ".join(on) if on else ""))
    push = plan.aims[0] if plan.aims else None
    if push is None and not moves:
        return None
    parts = ["use " + ", then ".join(moves)] if moves else []
    aim = kind = None
    if push is not None:
        kind = push.kind
        aim = Aim(entry_deg=push.entry_deg, heading_deg=push.heading_deg, speed=push.speed,
                  spin_deg=push.spin_deg)
        parts.append(f"push {_counted(game, kind, 1)} along the {'green' if what == 'hint' else 'red'} line")
    said = (f"expected to knock out {_names(game, falls)}" if falls else
            "expected to knock out nothing" if push is not None else "")
    if plan.predicted.winner is not None and plan.predicted.winner == game.side_of(seat):
        said = (said + ", and win" if said else
                "that wins the game" if what == "hint" else "and win the game")
    turn = ", then ".join(parts)
    text = f"Hint: {turn}" if what == "hint" else f"Danger: {game.names.seat(seat)} could {turn}"
    return Advice(what, seat, kind, aim, tuple(marked), text + (f" - {said}" if said else ""),
                  tuple(moves))


def hint(game: Game, seed: int = 0) -> Advice | None:
    """A good push for the seat to move (None: it has none to make)."""
    if game.is_over or not game.can_push:
        return None
    return _advice("hint", game, game.current_seat, choose(game, COACH_LEVEL, seed=seed, workers=1))


def danger(game: Game, aim: PushChoice | None = None, seed: int = 0) -> Advice | None:
    """The next seat's strongest reply after the seat to move makes push ``aim`` (the player's aim
    on the table; None: ends its turn now, or, when it still owes a push, makes the coach's hint)
    and ends its turn: its line and what it would knock out."""
    if game.is_over:
        return None
    if aim is None and (after := turn_ended(game, None)) is not None:
        pass
    else:
        if aim is None:
            h = hint(game, seed)
            aim = PushChoice(h.kind, h.aim.entry_deg, h.aim.heading_deg, h.aim.speed,
                             h.aim.spin_deg) if h is not None and h.aim is not None and h.kind else None
        after = turn_ended(game, aim) if aim is not None else None
    if after is None or after.is_over or not after.can_push:
        return None
    return _advice("danger", after, after.current_seat, choose(after, COACH_LEVEL, seed=seed, workers=1))
