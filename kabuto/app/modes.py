"""What the start menu offers: a registry of *modes*, each a way to fill the window.

The app registers its own modes (Kabuto Sumo, the physics sandbox, the replay viewer). Other parts
plug in by registering theirs - the card table (issue #8) does it like this::

    # cards/table/app_mode.py (listed in PLUGINS: the menu imports it if it exists)
    from kabuto.app.modes import Mode, register_mode

    def _start(app, config):          # -> a kabuto.app.window.Scene
        return CardTableScene(app, ...)

    register_mode(Mode("cards", "Card games", "Sumo Card Game, SUMO, Sumida River", _start,
                       order=20, uses_kabuto_setup=False))

``PLUGINS`` lists the modules the menu imports (if present) so their modes register themselves.
Nothing here imports pyglet.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: Modules imported when the menu opens, if they exist; each registers its modes on import.
#: ``cards.table.app_mode`` is the card table (issue #8).
PLUGINS: tuple[str, ...] = ("cards.table.app_mode", "kabuto.app.card_table")


@dataclass(frozen=True)
class GameConfig:
    """The start menu's choices for a Kabuto Sumo game (also what ``kabuto play`` flags set)."""

    players: int = 2
    seats: tuple[str, ...] = ("human", "ai")       # "human" or "ai", one per seat
    wrestlers: tuple[str, ...] = ()                # wrestler keys, one per seat ("" = the default)
    junior: bool = False
    seed: int = 0
    ai_level: str = "medium"                      # easy, medium or hard
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(f"players: Kabuto Sumo is for 2, 3 or 4 players, got {self.players}")
        if len(self.seats) != self.players:
            raise ValueError(f"seats: {len(self.seats)} given for {self.players} players")
        for s in self.seats:
            if s not in ("human", "ai"):
                raise ValueError(f"seats: {s!r} is neither 'human' nor 'ai'")
        if self.ai_level not in ("easy", "medium", "hard"):
            raise ValueError(f"ai level: {self.ai_level!r} is not easy, medium or hard")
        if self.wrestlers and len(self.wrestlers) != self.players:
            raise ValueError(f"wrestlers: {len(self.wrestlers)} given for {self.players} players")

    def with_players(self, n: int) -> GameConfig:
        seats = tuple((list(self.seats) + ["ai"] * 4)[:n])
        wrestlers = tuple((list(self.wrestlers) + [""] * 4)[:n]) if self.wrestlers else ()
        return GameConfig(n, seats, wrestlers, self.junior, self.seed, self.ai_level, self.extra)


@dataclass(frozen=True)
class Mode:
    """One entry of the start menu.

    ``start(app, config)`` returns the Scene to show; ``uses_kabuto_setup`` says whether the menu's
    players/seats/wrestlers apply (they are passed as ``config`` either way).
    """

    key: str
    title: str
    blurb: str
    start: Callable[[Any, GameConfig], Any]
    order: int = 50
    uses_kabuto_setup: bool = True
    available: Callable[[], str] = lambda: ""  # "" when available, else why not


MODES: dict[str, Mode] = {}


def register_mode(mode: Mode) -> Mode:
    """Add (or replace) a mode in the start menu."""
    MODES[mode.key] = mode
    return mode


def load_plugins() -> list[str]:
    """Import the plugin modules that exist; return the problems of those that failed to load."""
    problems = []
    for name in PLUGINS:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                problems.append(f"{name}: {exc}")
        except Exception as exc:  # a broken plugin must not stop the menu opening
            problems.append(f"{name}: {exc}")
    return problems


def ordered() -> list[Mode]:
    return sorted(MODES.values(), key=lambda m: (m.order, m.title))
