"""Seat 0 plays random legal moves at a card table, the bots answer: for screenshots and tests that
need a table part-way through a game."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


def play_randomly(scene: Any, decisions: int, seed: int,
                  stop: Callable[[Any], bool] = lambda summary: summary.final) -> tuple[int, Any]:
    """Play seat 0's random moves on ``scene`` (a card-table scene) until ``decisions`` were made,
    the game is over, or a summary shows for which ``stop(summary)`` is true (other summaries are
    dismissed). Returns how many moves were made and the summary it stopped at, or None."""
    rng = random.Random(seed)
    made = 0
    while True:
        scene.settle()
        m = scene.model.match
        if m.summary is not None:
            if stop(m.summary):
                return made, m.summary
            scene.model.handle("ui:dismiss")
            continue
        if m.over or made >= decisions:
            return made, None
        scene.model.play(rng.choice(m.game.legal_actions()))
        made += 1
