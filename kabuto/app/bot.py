"""AI seats for the app: the project's Kabuto AI (:mod:`kabuto.ai`) behind one function,
:func:`plan_turn` ``(game, seat, level, seed) -> TurnPlan``.

:mod:`kabuto.ai` plans the whole turn: signature moves before and after, the push as aimed and as
executed after its hand wobble. :class:`TurnPlan` is that plan as the game's actions, with each
push's aim as meant (so the table can show what the AI was going for). Seeded: the same game and
seed give the same turn.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kabuto import ai
from kabuto.rules.actions import Action, Push


@dataclass(frozen=True)
class TurnPlan:
    """A whole AI turn as the game's actions, in order (:meth:`kabuto.ai.Plan.actions`), each push
    with the aim as meant before the hand's wobble (``meant``, one per push, so the table can show
    what the AI was going for); ``text`` says it in words (for logs)."""

    actions: tuple[Action, ...] = ()
    meant: tuple[Push, ...] = ()
    text: str = ""

    @property
    def pushes(self) -> tuple[Push, ...]:
        """The pushes as made (after the wobble)."""
        return tuple(a for a in self.actions if isinstance(a, Push))


def plan_turn(game: Any, seat: int, level: str = "medium", seed: int = 0,
              workers: int | None = None) -> TurnPlan | None:
    """The turn ``seat`` plays now (None when it is not that seat's turn, or the game is over)."""
    if game.is_over or game.current_seat != seat:
        return None
    plan = ai.choose(game, level=level, seed=seed, workers=workers)
    meant = tuple(plan.aims[i].action() if i < len(plan.aims) else p.action()
                  for i, p in enumerate(plan.pushes))
    return TurnPlan(plan.actions(), meant, plan.text())
