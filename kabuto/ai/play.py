"""Carry out a :class:`~kabuto.ai.plan.Plan` on the game it was made for."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kabuto.ai.plan import Plan
from kabuto.ai.pool import Base
from kabuto.rules.actions import EndTurn
from kabuto.rules.errors import IllegalMove

if TYPE_CHECKING:
    from kabuto.rules.game import Game


def _execute(game: Game, plan: Plan, on_action: Callable[[Game], None] | None = None) -> list[Any]:
    turn = game.turn.number
    outcomes: list[Any] = []
    for action in plan.actions():
        if game.is_over or game.turn.number != turn:
            break  # a push won (or lost) the game, or a move replaced the turn
        if isinstance(action, EndTurn) and not game.can_end_turn:
            break
        outcome = game.apply(action)
        if outcome is not None:
            outcomes.append(outcome)
        if on_action:
            on_action(game)
    return outcomes


def play_turn(game: Game, plan: Plan, on_action: Callable[[Game], None] | None = None) -> list[Any]:
    """Play ``plan`` on ``game``: its moves before, its push(es), its moves after, then end the turn.

    Returns the :class:`~kabuto.rules.outcomes.MoveOutcome` / :class:`~kabuto.rules.outcomes.PushOutcome` of each
    action in order. The game's history records every action exactly as executed (the pushes after
    the hand wobble), so a replay reproduces the game bit for bit.

    ``on_action(game)`` is called after each action (a replay recorder's ``update``, an animation).

    A plan made for another position (another game, a later turn) is refused with ValueError and
    the game is left as it was; so is a plan the rules refuse (it is tried on a clone first).
    """
    if not isinstance(plan, Plan):
        raise ValueError(f"plan: expected a kabuto.ai.Plan, got {type(plan).__name__}")
    if game.is_over:
        raise ValueError("the game is over")
    if plan.seat != game.current_seat or Base.of(game).key != plan.state_hash:
        raise ValueError("this plan was made for another position: choose again for this one")
    try:
        _execute(game.clone(), plan)
    except IllegalMove as exc:
        raise ValueError(f"the plan cannot be played: {exc}") from None
    return _execute(game, plan, on_action)
