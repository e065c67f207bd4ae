"""AI seats for the app: the project's Kabuto AI (:mod:`kabuto.ai`) behind one function,
:func:`plan_turn` ``(game, seat, level, seed) -> TurnPlan``.

:mod:`kabuto.ai` plans the whole turn: signature moves before and after, the push as aimed and as
executed after its hand wobble. :class:`TurnPlan` is that plan in the terms the table plays it in
(move names with their targets, pushes with the aim they are made with and the aim as meant, so
the table can show what the AI was going for). Seeded: the same game and seed give the same turn.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kabuto import ai


@dataclass(frozen=True)
class PushPlan:
    """A push: the kind and the aim it is made with, and the aim as meant (before any wobble)."""

    kind: str
    entry_deg: float
    heading_deg: float
    speed: float
    spin_deg: float = 0.0
    meant: tuple[float, float, float, float] | None = None  # entry, heading, speed, spin


@dataclass(frozen=True)
class TurnPlan:
    """A whole AI turn: moves (name, targets) before the pushes, the pushes, moves after; ``text``
    says it in words (for logs)."""

    before: tuple[tuple[str, dict[str, Any]], ...] = ()
    pushes: tuple[PushPlan, ...] = ()
    after: tuple[tuple[str, dict[str, Any]], ...] = ()
    text: str = ""


def plan_turn(game: Any, seat: int, level: str = "medium", seed: int = 0,
              workers: int | None = None) -> TurnPlan | None:
    """The turn ``seat`` plays now (None when it is not that seat's turn, or the game is over)."""
    if game.is_over or game.current_seat != seat:
        return None
    plan = ai.choose(game, level=level, seed=seed, workers=workers)
    pushes = []
    for i, p in enumerate(plan.pushes):
        meant = plan.aims[i] if i < len(plan.aims) else p
        pushes.append(PushPlan(p.kind, p.entry_deg, p.heading_deg, p.speed, p.spin_deg,
                               (meant.entry_deg, meant.heading_deg, meant.speed, meant.spin_deg)))
    return TurnPlan(tuple((m.name, dict(m.targets)) for m in plan.before), tuple(pushes),
                    tuple((m.name, dict(m.targets)) for m in plan.after), plan.text())
