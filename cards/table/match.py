"""One game at the card table: who sits where, whose view is on screen, bots, refusals, summaries.

The :class:`Match` is the table's referee and has no pyglet in it:

* It owns the engine (any :class:`cards.api.CardGame`) and one bot per bot seat.
* ``viewer`` is the seat whose ``observation`` the screen shows. With one person at the screen it
  is always theirs. With two or more (hot-seat), when a *different* person must act, the match
  raises the pass screen first (``pass_to``): nothing of the table is drawn until that person says
  they have the device, so no player ever sees another's hand. Bots never take the screen.
* :meth:`try_action` plays a person's action; when the engine refuses it (``IllegalMove``) the
  state stays as it was and the engine's own words come back to be shown.
* Round and game summaries are read from the public events as they appear and queued until
  dismissed; bots wait while one is open, so a person can read it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cards import GAMES, IllegalMove
from cards.api import CardGame
from cards.table.config import TableConfig, table_data
from cards.table.describe import Log, Summary, summaries
from kabuto_ui.theme import SEAT_NAMES

if TYPE_CHECKING:
    from cards.api import Bot

#: Makes the bot for a seat from a strength's spec and a seed (tests give scripted bots).
BotFactory = Callable[[str, int], "Bot"]


def _default_bot_factory(spec: str, seed: int) -> Bot:
    from cards.bots import make_bot

    return make_bot(spec, seed)


@dataclass
class Refusal:
    """An action the engine refused, and its reason in the engine's words."""

    action: str
    reason: str


class Match:
    """A game in progress at the table (see the module docstring)."""

    def __init__(self, config: TableConfig, bot_factory: BotFactory | None = None) -> None:
        mode = config.validate()
        self.config = config
        self.mode = mode
        self.game: CardGame = GAMES[mode.game].new(mode.players, seed=config.seed, **dict(mode.options))
        self._bot_factory = bot_factory
        factory = bot_factory or _default_bot_factory
        data = table_data()
        self.bots: list[Bot | None] = []
        for i, seat in enumerate(config.seats):
            if seat.is_bot:
                # A different, reproducible stream per seat and per deal.
                self.bots.append(factory(data.strength(seat.strength).spec, config.seed * 101 + i))
            else:
                self.bots.append(None)
        self.humans = config.humans
        self.names = list(SEAT_NAMES[: mode.players])
        self.viewer = self.humans[0] if self.humans else 0
        self.pass_to: int | None = None
        self.pending: list[Summary] = []
        self._summarised = 0  # events already scanned for summaries
        self.last_refusal: Refusal | None = None
        self.actions_played = 0
        self._logs: dict[int, Log] = {}
        self._follow_turn()

    # ----- who is who -----------------------------------------------------------------------------
    @property
    def hot_seat(self) -> bool:
        """Two or more people share the screen."""
        return len(self.humans) >= 2

    def is_bot(self, seat: int) -> bool:
        return self.bots[seat] is not None

    def seat_label(self, seat: int) -> str:
        """"Red (you)", "Blue (bot: Rule of thumb)" - for the seat panels."""
        spec = self.config.seats[seat]
        if spec.is_bot:
            return f"{self.names[seat]} (bot: {table_data().strength(spec.strength).label})"
        if self.hot_seat:
            return self.names[seat]
        return f"{self.names[seat]} (you)"

    @property
    def current(self) -> int:
        """The seat to act; -1 once the game is over (the views index seats with it)."""
        p = self.game.to_play
        return -1 if p is None else p

    @property
    def over(self) -> bool:
        return self.game.is_over

    # ----- what the screen may show ---------------------------------------------------------------
    def observation(self) -> dict:
        """The viewer's observation: the only source the table is drawn from."""
        return self.game.observation(self.viewer)

    def log(self) -> list[str]:
        """The move log as the viewer may read it (each seat's log is kept separately, so a
        hot-seat player never reads another's private lines)."""
        log = self._logs.get(self.viewer)
        if log is None:
            log = self._logs[self.viewer] = Log(self.mode.game, self.viewer, self.names)
        log.feed(self.game.events)
        return log.lines[-self.config.effective_pacing().log_lines:]

    def waiting_for_human(self) -> bool:
        """A person at the screen must act now (and may: no pass screen or summary is in the way)."""
        return (not self.over and self.pass_to is None and not self.pending
                and not self.is_bot(self.current) and self.current == self.viewer)

    def bot_to_act(self) -> bool:
        """A bot must act now and nothing (summary, pass screen) holds it back."""
        return (not self.over and self.is_bot(self.current) and not self.pending
                and self.pass_to is None)

    def legal_for_viewer(self) -> list[str]:
        """The viewer's legal actions when it is their turn; [] otherwise (nothing to highlight)."""
        return self.game.legal_actions() if self.waiting_for_human() else []

    # ----- acting ---------------------------------------------------------------------------------
    def try_action(self, action: str) -> str | None:
        """Play the viewer's ``action``; return the engine's reason if it is refused (state unchanged)."""
        if self.over:
            return "the game is over"
        if not self.waiting_for_human():
            return "it is not your turn"
        try:
            self.game.apply(action)
        except IllegalMove as exc:
            self.last_refusal = Refusal(action, str(exc))
            return str(exc)
        self.last_refusal = None
        self._after_action()
        return None

    def bot(self, seat: int) -> Bot:
        b = self.bots[seat]
        if b is None:
            raise ValueError(f"seat {seat} is not a bot")
        return b

    def bot_decide(self) -> str:
        """The current bot's choice (not yet played). Bots see a copy, so a slow bot thinking in a
        background thread never races the screen reading the real game."""
        seat = self.current
        return self.bot(seat).act(self.game.clone())

    def apply_bot(self, action: str) -> None:
        """Play a bot's action (a bot is trusted to pick a legal one; the engine still checks)."""
        self.game.apply(action)
        self._after_action()

    def step_bot(self) -> str:
        action = self.bot_decide()
        self.apply_bot(action)
        return action

    def _after_action(self) -> None:
        self.actions_played += 1
        self._collect_summaries()
        self._follow_turn()

    def _collect_summaries(self) -> None:
        events = self.game.events
        if len(events) > self._summarised:
            new = summaries(self.mode.game, events, self.names, self._summarised)
            self._summarised = len(events)
            self.pending.extend(new)

    def _follow_turn(self) -> None:
        """Hand the screen to the person who must act next (through the pass screen if needed)."""
        cur = self.current
        if self.over or self.is_bot(cur) or cur == self.viewer:
            return
        if self.hot_seat:
            self.pass_to = cur  # nobody sees anything until the next person takes the device
        else:
            self.viewer = cur

    def confirm_pass(self) -> None:
        """The person named on the pass screen has the device: show their view."""
        if self.pass_to is not None:
            self.viewer = self.pass_to
            self.pass_to = None

    def dismiss_summary(self) -> Summary | None:
        s = self.pending.pop(0) if self.pending else None
        return s

    @property
    def summary(self) -> Summary | None:
        return self.pending[0] if self.pending else None

    def final_summary(self) -> Summary | None:
        """The game's summary once it is over (kept for the "results" button)."""
        if not self.over:
            return None
        found = summaries(self.mode.game, self.game.events, self.names, 0)
        finals = [s for s in found if s.final]
        return finals[-1] if finals else None

    def rematch(self) -> Match:
        """The same seats, the next deal (opening on the pass screen in hot-seat)."""
        return new_match(self.config.with_seed(self.config.seed + 1), self._bot_factory)

    @classmethod
    def resume(cls, config: TableConfig, state: dict, bot_factory: BotFactory | None = None) -> Match:
        """A saved game taken up again: the same seats and bots, the engine as it was saved
        (:mod:`cards.table.saves`). Summaries of what was played before are not shown again."""
        m = cls(config, bot_factory)
        m.game = GAMES[m.mode.game].from_json(state)
        m._summarised = len(m.game.events)
        m.viewer = m.humans[0] if m.humans else 0
        m._follow_turn()
        m.start_with_pass()
        return m

    def start_with_pass(self) -> None:
        """In hot-seat, the first person to act also gets a pass screen before any hand shows."""
        if self.hot_seat and not self.over and not self.is_bot(self.current):
            self.pass_to = self.current


def new_match(config: TableConfig, bot_factory: BotFactory | None = None) -> Match:
    """A match ready for the screen: in hot-seat it opens on the pass screen."""
    m = Match(config, bot_factory)
    m.start_with_pass()
    return m
