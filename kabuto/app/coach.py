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
from kabuto.ai.plan import PushChoice
from kabuto.app.aim import Aim
from kabuto.rules.game import Game

COACH_LEVEL = "medium"


@dataclass(frozen=True)
class Advice:
    """A push the coach shows: ``what`` is "hint" or "danger", ``seat`` who would push, ``aim``
    and ``kind`` the push, ``falls`` the pieces it is expected to knock out, ``text`` the sentence."""

    what: str
    seat: int
    kind: str
    aim: Aim
    falls: tuple[str, ...]
    text: str


def _names(game: Game, falls: tuple[str, ...]) -> str:
    """ "Blue's wrestler (Goliath Gus), a medium disc" - what a player calls the pieces."""
    parts = []
    for pid in falls:
        try:
            kind = game.kind_of(pid)
        except (KeyError, ValueError):
            continue
        wrestler = next((s for s in game.seats if s.piece_id == pid), None)
        if wrestler is not None:
            parts.append(f"{game.names.seat(wrestler.index)}'s wrestler")
        else:
            parts.append("a " + game.kind_name(kind) if kind in ("small", "medium", "large")
                         else game.kind_name(kind))
    return ", ".join(parts)


def _advice(what: str, game: Game, seat: int, push: PushChoice, falls: tuple[str, ...]) -> Advice:
    aim = Aim(entry_deg=push.entry_deg, heading_deg=push.heading_deg, speed=push.speed,
              spin_deg=push.spin_deg)
    piece = "a " + game.kind_name(push.kind) if push.kind in ("small", "medium", "large") \
        else game.kind_name(push.kind)
    said = f"expected to knock out {_names(game, falls)}" if falls else "expected to knock out nothing"
    who = game.names.seat(seat)
    if what == "hint":
        text = f"Hint: push {piece} along the green line - {said}"
    else:
        text = f"Danger: {who} could push {piece} along the red line - {said}"
    return Advice(what, seat, push.kind, aim, falls, text)


def hint(game: Game, seed: int = 0) -> Advice | None:
    """A good push for the seat to move (None: it has none to make)."""
    if game.is_over or not game.can_push:
        return None
    plan = choose(game, COACH_LEVEL, seed=seed, workers=1)
    if not plan.aims:
        return None
    return _advice("hint", game, game.current_seat, plan.aims[0], plan.predicted.knocked_out)


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
                             h.aim.spin_deg) if h is not None else None
        after = turn_ended(game, aim) if aim is not None else None
    if after is None or after.is_over or not after.can_push:
        return None
    plan = choose(after, COACH_LEVEL, seed=seed, workers=1)
    if not plan.aims:
        return None
    return _advice("danger", game, after.current_seat, plan.aims[0], plan.predicted.knocked_out)
