"""Bots for network play: the server's (filling empty seats) and the ``kabuto join`` client's.

Both sides play with the project's own bots and never see more than a seat may:

* **Kabuto Sumo** has no hidden information, so a bot rebuilds the game from the at-rest state it
  was sent (:meth:`kabuto.Game.from_json`) and plans the turn with :func:`kabuto.ai.choose` at a
  level of ``assets/ai.toml`` (``easy``, ``medium``, ``hard``), or ``random``: a few sampled pushes and
  no refinement, the cheapest player there is (load tests use it). :func:`plan_actions` turns the
  plan into the protocol's actions, one per message.
* **Card games**: the server's bots are :func:`cards.bots.make_bot` bots (``random``,
  ``heuristic``, ``mcts``) playing on the server's game; the search bot re-deals what its seat
  cannot see before every look ahead, so it does not cheat. A client holds only its seat's
  observation and its legal actions, so its bots are ``random`` and ``heuristic`` (the engine's
  rule of thumb reads nothing else: :class:`SeatView` gives it exactly that).
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from kabuto.ai.levels import level_names
from kabuto.net.tables import KABUTO

if TYPE_CHECKING:
    from cards.api import CardGame
    from kabuto.ai.levels import Level
    from kabuto.rules.game import Game

#: Kabuto Sumo bot levels, cheapest first.
#: The Kabuto bots a room can seat: a random pusher, and every AI level of assets/ai.toml.
KABUTO_LEVELS = ("random", *level_names())
#: Card-game bots the server runs (fixed budgets: a client cannot ask it for an expensive search).
SERVER_CARD_BOTS = ("random", "heuristic", "mcts")
#: Card-game bots a client can run from its seat's observation alone.
CLIENT_CARD_BOTS = ("random", "heuristic")


def bot_levels(game: str, server: bool) -> tuple[str, ...]:
    """The bot levels of ``game`` on the server (``server``) or in a client."""
    if game == KABUTO:
        return KABUTO_LEVELS
    return SERVER_CARD_BOTS if server else CLIENT_CARD_BOTS


def check_level(game: str, level: str, server: bool) -> str:
    """``level`` if ``game`` has such a bot here, else ValueError naming the ones it has."""
    levels = bot_levels(game, server)
    if level not in levels:
        raise ValueError(f"{level!r} is not a bot level for {game} (levels: {', '.join(levels)})")
    return level


def _kabuto_levels(name: str) -> list[Level | str]:
    """The level to plan with, then cheaper-to-richer fallbacks should it find nothing to do:
    ``random`` samples a handful of pushes, and a sample can miss every legal one."""
    if name != "random":
        return [name]
    from kabuto.ai.levels import level

    cheap = level("easy").with_changes(name="random", broad=4, refine_top=0, refine_rounds=0, refine_per=0,
                                       robust_top=0, robust_samples=0, move_prefixes=0, after_moves=False)
    return [cheap, cheap.with_changes(broad=24), "easy"]


def plan_actions(game: Game, level: str, seed: int) -> list[dict[str, Any]]:
    """The turn of the seat to move, as protocol actions: the plan's moves and pushes in order
    (pushes keep the turn open), then ``end_turn``. The server drops whatever is left once the turn
    has passed (a push that ended the game, a seat put out)."""
    from kabuto.ai import choose
    from kabuto.net.protocol import wire_action
    from kabuto.rules.actions import EndTurn

    if not game.can_push and game.can_end_turn:
        return [wire_action(EndTurn())]  # pushed already (a plan cut short by a reconnect): end the turn
    levels = _kabuto_levels(level)
    for i, lvl in enumerate(levels):
        try:
            plan = choose(game, level=lvl, seed=seed, workers=1)
            break
        except ValueError:
            if i == len(levels) - 1:
                raise
    return [wire_action(a) for a in plan.actions()]


def plan_in_worker(game: Game, level: str, seed: int) -> list[dict[str, Any]]:
    """:func:`plan_actions`, as a worker process of the server runs it for a server bot's turn
    (on its own copy of the game)."""
    return plan_actions(game, level, seed)


class SeatView:
    """The part of a card game one seat holds in a client: its observation and legal actions,
    behind the two :class:`cards.api.CardGame` methods a rule-of-thumb player reads."""

    def __init__(self, game: str, seat: int, view: dict[str, Any], legal: list[str]):
        self.name = game
        self.seat = seat
        self._view = view
        self._legal = list(legal)
        self.num_players = len(view.get("hand_sizes", ())) or int(view.get("players", 2))

    def observation(self, player: int) -> dict[str, Any]:
        if player != self.seat:
            raise ValueError("a client sees only its own seat")
        return self._view

    def legal_actions(self) -> list[str]:
        return list(self._legal)

    @property
    def to_play(self) -> int | None:
        return self.seat


def client_card_action(game: str, level: str, seat: int, view: dict[str, Any], legal: list[str],
                       rng: random.Random) -> str:
    """A client bot's card action from its seat's view and legal actions."""
    if level == "random" or len(legal) == 1:
        return rng.choice(legal)
    import cards
    from cards.bots import engine_heuristic

    fn = engine_heuristic(cards.GAMES[game])
    return fn(SeatView(game, seat, view, legal), seat, rng)  # type: ignore[arg-type]


def server_card_action(game: CardGame, level: str, seed: int) -> str:
    """A server bot's card action, on (a copy of) the server's game."""
    from cards.bots import make_bot

    return make_bot(level, seed).act(game)


__all__ = ["CLIENT_CARD_BOTS", "KABUTO_LEVELS", "SERVER_CARD_BOTS", "SeatView", "bot_levels", "check_level",
           "client_card_action", "plan_actions", "plan_in_worker", "server_card_action"]
