"""Games for the replay tests: the seeded bot's games of :mod:`kabuto.lab.games` (shared with
``tools/bench_replay.py``), the game state a test compares, and a game recorded as on another
platform."""
from __future__ import annotations

import math
from pathlib import Path

from kabuto import Game
from kabuto.lab.games import SAFE_MOVES, bot_push, long_game, new_game, rich_game, tuned, undo


def locations_and_hash(game: Game) -> tuple[dict[str, str], str]:
    from physics import state_hash

    return game.locations(), state_hash(game.world.snapshot())


__all__ = ["ELSEWHERE_PUSHES", "SAFE_MOVES", "bot_push", "locations_and_hash", "long_game", "new_game", "record_elsewhere", "rich_game",
           "tuned", "undo"]


#: Pushes in a game of record_elsewhere.
ELSEWHERE_PUSHES = 4


def _nudged(x: float, ulps: int) -> float:
    for _ in range(ulps):
        x = math.nextafter(x, math.inf)
    return x


def record_elsewhere(monkeypatch, folder: Path, shift: float | None) -> Path:
    """A game recorded as on another platform: every at-rest pose a push or move leaves is moved
    before the game records it, by 3 units in the last place (``shift`` None: rounding, as
    another CPython, processor or build gives) or by ``shift`` metres and radians. Its file."""
    from kabuto.replay.recorder import record
    from physics import World

    real = World._adopt

    def adopt(self, result) -> None:
        for d in result.snapshot["pieces"]:
            if shift is None:
                d["x"], d["y"], d["angle"] = (_nudged(d[k], 3) for k in ("x", "y", "angle"))
            else:
                d["x"], d["y"], d["angle"] = d["x"] + shift, d["y"] - shift, d["angle"] + shift
        real(self, result)

    with monkeypatch.context() as m:
        m.setattr(World, "_adopt", adopt)
        game = new_game(7)
        rec = record(game, folder)
        long_game(ELSEWHERE_PUSHES, 7, rec, move_every=2, game=game)
        path = rec.close(game)
    assert path is not None
    return path
