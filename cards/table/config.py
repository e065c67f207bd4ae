"""What a card table is set up to play: the start-menu entries, who sits in each seat, the pace.

Everything here is plain data read from ``assets/cards/table.toml`` (no pyglet), so the app's start
menu can list the entries and tests can build tables without a window.

* A :class:`CardMode` is one entry of the set-up screen: a game, its seat count and its options
  (the Sumo Card Game with and without Jokers, SUMO, Sumida River for 3 or 4). Not to be confused
  with a start-menu mode of the app (:class:`kabuto_ui.modes.Mode`): the card table as a whole is
  one of those.
* A :class:`SeatSpec` says whether a seat is a person at this screen (hot-seat) or a bot, and which
  bot: a :class:`Strength` names a spec for :func:`cards.bots.make_bot`.
* A :class:`TableConfig` is a whole set-up: mode, seats, seed. :meth:`TableConfig.validate` names
  the problem with a bad one before any game is dealt.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import kabuto_assets
from cards import GAMES
from kabuto_base.fileio import read_toml
from kabuto_ui.theme import MIN_SIZE

#: The smallest window the card table is laid out for (it scales its 1280 x 720 design down).
MIN_WINDOW = MIN_SIZE  # the window's own minimum: every screen is laid out from 960 x 600 up


def parse_window_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> (1280, 720): the ``--size`` option of ``python -m cards.table`` and of
    ``tools/card_screenshots.py``. ValueError (one line, naming the text) unless it is WxH of at
    least :data:`MIN_WINDOW`.

    >>> parse_window_size("960x600")
    (960, 600)
    >>> parse_window_size("big")
    Traceback (most recent call last):
    ValueError: --size must look like 1280x720 (at least 960x600), not 'big'
    """
    least = f"{MIN_WINDOW[0]}x{MIN_WINDOW[1]}"
    try:
        w, _, h = text.partition("x")
        width, height = int(w), int(h)
        if width < MIN_WINDOW[0] or height < MIN_WINDOW[1]:
            raise ValueError
    except ValueError:
        raise ValueError(f"--size must look like 1280x720 (at least {least}), not {text!r}") from None
    return width, height


@dataclass(frozen=True)
class CardMode:
    """One entry of the set-up screen (see the module docstring)."""

    key: str
    title: str
    game: str
    players: int
    options: dict[str, Any]
    blurb: str = ""


@dataclass(frozen=True)
class Strength:
    """A bot strength a seat may be given: ``spec`` is for :func:`cards.bots.make_bot`."""

    key: str
    label: str
    spec: str
    blurb: str = ""

    @property
    def slow(self) -> bool:
        """Search bots think long enough that they run off the window's thread."""
        return self.spec.startswith(("mcts", "ismcts"))


@dataclass(frozen=True)
class Pacing:
    """Seconds: a bot's pause before acting, a card's slide, the sumo cards' push."""

    bot_delay: float = 0.8
    slide: float = 0.35
    push: float = 0.7
    log_lines: int = 300

    def instant(self) -> Pacing:
        """No pauses and no slides (tests and screenshot tools)."""
        return replace(self, bot_delay=0.0, slide=0.0, push=0.0)


@dataclass(frozen=True)
class MeldSpace:
    """A Sumida River meld space: its engine type name, label, card count and colour."""

    type: str
    label: str
    size: int
    colour: str


@dataclass(frozen=True)
class TableData:
    modes: tuple[CardMode, ...]
    strengths: tuple[Strength, ...]
    pacing: Pacing
    sumida_spaces: tuple[MeldSpace, ...]

    def mode(self, key: str) -> CardMode:
        for m in self.modes:
            if m.key == key:
                return m
        raise ValueError(f"mode: no card-table mode {key!r} (known: {', '.join(m.key for m in self.modes)})")

    def strength(self, key: str) -> Strength:
        for s in self.strengths:
            if s.key == key:
                return s
        raise ValueError(
            f"bot strength: no strength {key!r} (known: {', '.join(s.key for s in self.strengths)})")


def _require(table: dict[str, Any], name: str, kind: type, where: str) -> Any:
    if name not in table:
        raise ValueError(f"{where}: missing {name!r}")
    v = table[name]
    if kind is float and isinstance(v, int) and not isinstance(v, bool):
        v = float(v)
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        raise ValueError(f"{where}: {name!r} must be a {kind.__name__}")
    return v


def parse_table_data(data: dict[str, Any], source: str = "table.toml") -> TableData:
    """Check and convert the parsed TOML; ValueError names the bad entry."""
    modes = []
    for i, m in enumerate(data.get("modes", [])):
        where = f"{source}: modes[{i}]"
        modes.append(CardMode(
            key=_require(m, "key", str, where), title=_require(m, "title", str, where),
            game=_require(m, "game", str, where), players=_require(m, "players", int, where),
            options=dict(m.get("options", {})), blurb=str(m.get("blurb", "")),
        ))
        if modes[-1].game not in GAMES:
            raise ValueError(f"{where}: no card game {modes[-1].game!r} (known: {', '.join(sorted(GAMES))})")
    if not modes:
        raise ValueError(f"{source}: no [[modes]]")
    strengths = []
    for i, s in enumerate(data.get("strengths", [])):
        where = f"{source}: strengths[{i}]"
        strengths.append(Strength(
            key=_require(s, "key", str, where), label=_require(s, "label", str, where),
            spec=_require(s, "spec", str, where), blurb=str(s.get("blurb", "")),
        ))
    if not strengths:
        raise ValueError(f"{source}: no [[strengths]]")
    p = data.get("pacing", {})
    pacing = Pacing(
        bot_delay=float(p.get("bot_delay", 0.8)), slide=float(p.get("slide", 0.35)),
        push=float(p.get("push", 0.7)), log_lines=int(p.get("log_lines", 300)),
    )
    if min(pacing.bot_delay, pacing.slide, pacing.push) < 0 or pacing.log_lines < 10:
        raise ValueError(f"{source}: [pacing] times must not be negative and log_lines at least 10")
    spaces = []
    for i, s in enumerate(data.get("sumida_spaces", [])):
        where = f"{source}: sumida_spaces[{i}]"
        spaces.append(MeldSpace(
            type=_require(s, "type", str, where), label=_require(s, "label", str, where),
            size=_require(s, "size", int, where), colour=_require(s, "colour", str, where),
        ))
    if len(spaces) != 8:
        raise ValueError(f"{source}: expected the eight Sumida River meld spaces, found {len(spaces)}")
    return TableData(tuple(modes), tuple(strengths), pacing, tuple(spaces))


def read_data(path: Path, what: str) -> dict[str, Any]:
    """Parse one of the card table's TOML data files; ValueError names the file and the fault
    (the base layer's bounded reader, :func:`kabuto_base.fileio.read_toml`)."""
    if not path.exists():
        raise ValueError(f"{path}: the {what} data file is missing")
    return read_toml(path)


@lru_cache(maxsize=4)
def _load(path: str) -> TableData:
    p = Path(path)
    return parse_table_data(read_data(p, "card-table"), p.name)


def table_data() -> TableData:
    """The card-table data from ``assets/cards/table.toml`` (read once)."""
    return _load(str(kabuto_assets.path("cards", "table.toml")))


@dataclass(frozen=True)
class SeatSpec:
    """A seat: ``"human"`` (someone at this screen) or ``"bot"`` with a strength key."""

    kind: str = "human"
    strength: str = "heuristic"

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"


@dataclass(frozen=True)
class TableConfig:
    """A whole table set-up: which mode, who sits where, which deal (seed)."""

    mode: str
    seats: tuple[SeatSpec, ...]
    seed: int = 0
    #: Pacing override (tests use :meth:`Pacing.instant`); None: the data file's.
    pacing: Pacing | None = field(default=None, compare=False)

    @classmethod
    def default(cls, mode_key: str, seed: int = 0, strength: str = "heuristic") -> TableConfig:
        """One person in seat 0 against bots of ``strength`` in every other seat."""
        mode = table_data().mode(mode_key)
        seats = (SeatSpec("human"),) + tuple(SeatSpec("bot", strength) for _ in range(mode.players - 1))
        return cls(mode_key, seats, seed)

    def validate(self) -> CardMode:
        """The mode, after checking every seat; ValueError names what is wrong."""
        data = table_data()
        mode = data.mode(self.mode)
        if len(self.seats) != mode.players:
            raise ValueError(f"seats: {mode.title} needs {mode.players} seats, not {len(self.seats)}")
        for i, s in enumerate(self.seats):
            if s.kind not in ("human", "bot"):
                raise ValueError(f"seats[{i}]: a seat is 'human' or 'bot', not {s.kind!r}")
            if s.is_bot:
                data.strength(s.strength)
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise ValueError("seed: must be an integer")
        return mode

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_bot]

    def with_seed(self, seed: int) -> TableConfig:
        return replace(self, seed=seed)

    def effective_pacing(self) -> Pacing:
        return self.pacing if self.pacing is not None else table_data().pacing
