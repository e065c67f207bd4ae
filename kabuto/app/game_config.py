"""The start menu's choices for a Kabuto Sumo game (also what ``kabuto play`` flags set).

Plain data (no pyglet): the menu edits a :class:`GameConfig`, the Kabuto mode starts a game from it.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class GameConfig:
    """The start menu's choices for a Kabuto Sumo game (also what ``kabuto play`` flags set)."""

    players: int = 2
    seats: tuple[str, ...] = ("human", "ai")       # "human" or "ai", one per seat
    wrestlers: tuple[str, ...] = ()                # wrestler keys, one per seat ("" = the default)
    junior: bool = False
    seed: int | None = 0                          # None: a fresh one from ``secrets`` per game
    ai_level: str = "medium"                      # see assets/ai.toml
    first_player: int | None = None               # None: drawn at random, as the rulebook says

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(f"players: Kabuto Sumo is for 2, 3 or 4 players, got {self.players}")
        if len(self.seats) != self.players:
            raise ValueError(f"seats: {len(self.seats)} given for {self.players} players")
        for s in self.seats:
            if s not in ("human", "ai"):
                raise ValueError(f"seats: {s!r} is neither 'human' nor 'ai'")
        from kabuto.ai.levels import level_names

        if self.ai_level not in level_names():
            raise ValueError(f"ai level: {self.ai_level!r} is not one of {', '.join(level_names())}")
        if self.wrestlers and len(self.wrestlers) != self.players:
            raise ValueError(f"wrestlers: {len(self.wrestlers)} given for {self.players} players")
        if self.first_player is not None and not 0 <= self.first_player < self.players:
            raise ValueError(f"first player: seat {self.first_player} is not one of the "
                             f"{self.players} seats")

    def for_one_game(self) -> GameConfig:
        """This setup with its seed fixed: a fresh seed from :mod:`secrets` unless one was given
        (``kabuto play --seed``), so every new game from the menu is a different game while a
        given seed (and every replay, which records it) plays the same game again."""
        if self.seed is not None:
            return self
        return replace(self, seed=secrets.randbits(48))

    def with_players(self, n: int) -> GameConfig:
        seats = tuple((list(self.seats) + ["ai"] * 4)[:n])
        wrestlers = tuple((list(self.wrestlers) + [""] * 4)[:n]) if self.wrestlers else ()
        first = self.first_player if self.first_player is not None and self.first_player < n else None
        return GameConfig(n, seats, wrestlers, self.junior, self.seed, self.ai_level, first)
