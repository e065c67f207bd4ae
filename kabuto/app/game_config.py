"""The start menu's choices for a Kabuto Sumo game (also what ``kabuto play`` flags set).

Plain data (no pyglet): the menu edits a :class:`GameConfig`, the Kabuto mode starts a game from it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameConfig:
    """The start menu's choices for a Kabuto Sumo game (also what ``kabuto play`` flags set)."""

    players: int = 2
    seats: tuple[str, ...] = ("human", "ai")       # "human" or "ai", one per seat
    wrestlers: tuple[str, ...] = ()                # wrestler keys, one per seat ("" = the default)
    junior: bool = False
    seed: int = 0
    ai_level: str = "medium"                      # easy, medium or hard

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

    def with_players(self, n: int) -> GameConfig:
        seats = tuple((list(self.seats) + ["ai"] * 4)[:n])
        wrestlers = tuple((list(self.wrestlers) + [""] * 4)[:n]) if self.wrestlers else ()
        return GameConfig(n, seats, wrestlers, self.junior, self.seed, self.ai_level)
