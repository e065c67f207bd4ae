"""How often a game between equal AIs is over within its first few turns, and who won it (issue 42).

The balance report's quick verdict needs a quarter of an hour for the game's whole shape. The
shape's worst defect shows in its first turns: a starting board where the side that moves first
can set up and finish a knock-out before the other side has answered twice. Openings of three
turns cost a few seconds each, so a board can be judged in a minute or two, and then the quick
verdict judges the few that pass. The share depends on the whole crowd round the wrestlers, not
only their nearest neighbours: boards packed from different seeds with the same rules ranged from
2% to 59% (docs/rules-notes.md, issue 42).

>>> from kabuto.lab.openings import opening_specs
>>> specs = opening_specs(["hank", "mike", "jade"], games=2, level="easy", turns=3)
>>> len(specs), {s.max_turns for s in specs}
(6, {3})
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kabuto.lab.match import GameRecord, GameSpec
from kabuto.lab.stats import wilson
from kabuto.lab.tournament import run_local, schedule

#: The openings' own seed stream, apart from the tournament's and the report's.
SEED = 7


@dataclass(frozen=True)
class Openings:
    """``games`` openings of at most ``turns`` turns; ``over`` of them ended within those turns,
    ``first_won`` by the side that moved first and ``second_won`` by the side that moved second
    (a game with no winner is over but won by neither). ``won_by`` counts the openings each
    wrestler won (its card's key) and ``ended_on`` the openings over on each turn: one strong card
    can hide in a low share (a board where a push from behind reaches the centre circle gives
    Mighty Jaw Mike nearly every game he moves first in, on turn 1, while the share looks modest)."""

    games: int
    turns: int
    over: int
    first_won: int
    second_won: int
    won_by: dict[str, int] = field(default_factory=dict)
    ended_on: dict[int, int] = field(default_factory=dict)

    @property
    def share(self) -> float:
        """The share of openings over within :attr:`turns` turns."""
        return self.over / self.games if self.games else 0.0

    def to_json(self) -> dict[str, object]:
        lo, hi = wilson(self.over, self.games)
        return {"games": self.games, "turns": self.turns, "over": self.over,
                "over_share": round(self.share, 4), "over_ci95": [round(lo, 4), round(hi, 4)],
                "first_won": self.first_won, "second_won": self.second_won,
                "won_by": dict(sorted(self.won_by.items(), key=lambda kv: (-kv[1], kv[0]))),
                "ended_on_turn": {str(t): n for t, n in sorted(self.ended_on.items())}}


def opening_specs(wrestlers: Sequence[str], games: int, level: str = "hard", turns: int = 3,
                  seed: int = SEED) -> list[GameSpec]:
    """``games`` two-player openings for every pair of ``wrestlers`` at ``level``, each stopped
    after ``turns`` turns: the tournament's schedule (each wrestler in each seat and moving first
    equally often)."""
    return schedule(list(wrestlers), games, level, seed, turns)


def tally(records: Sequence[GameRecord], turns: int) -> Openings:
    """What the played openings ``records`` came to."""
    over = [r for r in records if r.reason != "max_turns"]
    first = sum(r.winner is not None and r.winner == r.spec.first_player for r in over)
    second = sum(r.winner is not None and r.winner != r.spec.first_player for r in over)
    won_by = Counter(r.spec.wrestlers[r.winner] for r in over if r.winner is not None)
    return Openings(len(records), turns, len(over), first, second, dict(won_by),
                    dict(Counter(r.turns for r in over)))


def play_openings(specs: list[GameSpec], workers: int,
                  progress: Callable[[], None] | None = None) -> Openings:
    """Play ``specs`` (all with the same ``max_turns``) over ``workers`` processes and tally them."""
    turns = {s.max_turns for s in specs}
    if len(turns) != 1:
        raise ValueError("openings: every game must stop after the same number of turns")
    return tally(run_local(specs, workers, progress), turns.pop())
