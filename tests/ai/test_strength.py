"""A bigger search with a steadier hand beats a tiny, shaky one (the pytest-sized version of the
100-game measurement in ``tools/bench_ai.py strength``)."""
from __future__ import annotations

from kabuto.lab.match import GameSpec, play_game
from tests.ai.helpers import STEADY, small_level

#: Three candidates, no refinement, no signature moves, and easy's shaky hand.
SHAKY = small_level("test-shaky", broad=3, refine_top=0, refine_rounds=0, refine_per=0, move_prefixes=0,
                    after_moves=False, wobble_entry_deg=4.0, wobble_heading_deg=6.0,
                    wobble_speed_frac=0.25)
PAIRS = [("mike", "hank"), ("gus", "jade"), ("dora", "bea"), ("annie", "rita"), ("hank", "gus"),
         ("jade", "mike"), ("bea", "annie"), ("rita", "dora"), ("gus", "bea"), ("hank", "rita")]


def test_the_stronger_search_wins_a_clear_majority():
    levels = {"strong": STEADY, "weak": SHAKY}
    strong_wins = 0
    for i, pair in enumerate(PAIRS):
        seats = ("strong", "weak") if i % 2 == 0 else ("weak", "strong")
        first = (i // 2) % 2  # each side moves first in half the games
        r = play_game(GameSpec(i, pair, first, seats, 500 + i, 30), levels=levels)
        strong_wins += r.winner is not None and seats[r.winner] == "strong"
    assert strong_wins >= 7, f"the strong AI won only {strong_wins} of {len(PAIRS)}"
