"""How the rules' texts call seats and teams.

The engine's own words are "seat 0 (Goliath Gus)" and "team 0" (the command line, replays, logs).
A front end that names seats otherwise - the desktop table says "Red" and "team A" - gives the game
a :class:`SeatNames` (``game.names = SeatNames(("Red", "Blue"), ("team A", "team B"))``), and every
text the game writes from then on (results, refusals, places) uses those words. Names are words
only: they are not saved with the game and no rule depends on them.

    >>> names = SeatNames(("Red", "Blue"))
    >>> names.seat(1), names.seat(3), names.team(0)
    ('Blue', 'seat 3', 'team 0')
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeatNames:
    """Names for seats and teams, by index; a missing one falls back to the engine's words."""

    seats: tuple[str, ...] = ()
    teams: tuple[str, ...] = ()

    def seat(self, index: int) -> str:
        return self.seats[index] if 0 <= index < len(self.seats) else f"seat {index}"

    def team(self, index: int) -> str:
        return self.teams[index] if 0 <= index < len(self.teams) else f"team {index}"


#: The engine's own words.
ENGINE_NAMES = SeatNames()
