"""Benchmark: verifying a 40-push replay against simulating those 40 pushes.

A seeded 2-player game of 40 pushes (with signature moves and inventory top-ups, see
``tests/replay/games.py``) is recorded to a temporary folder. Then, interleaved in the same run so
machine load hits both alike:

* **simulate**: ``Game.replay(setup, actions, verify=False)`` - the rules engine re-applying the
  same actions, no file, no checks: the least any replay can cost;
* **verify**: ``kabuto.replay.format.load(file)`` + ``kabuto.replay.format.verify(...)`` - reading and validating
  the file, re-simulating, and checking every state hash and every recorded position.

The machine is shared and noisy, so the figure is the ratio of the best rounds (the least
disturbed, as ``timeit`` reports); the ratio of the medians is printed beside it.

    python tools/bench_replay.py              # a readable summary
    python tools/bench_replay.py --json       # one JSON object

Target (issue #5): verify / simulate <= 1.2.
"""
from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from kabuto import Game
from kabuto.lab.games import long_game, new_game
from kabuto.replay import format as rp
from kabuto.replay.recorder import record

TARGET = 1.2


def make_replay(folder: Path, pushes: int, seed: int) -> Path:
    game = new_game(seed)
    rec = record(game, folder)
    long_game(pushes, seed, rec, game=game)
    return rec.close(game)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pushes", type=int, default=40, help="pushes in the replay (default 40)")
    ap.add_argument("--rounds", type=int, default=9, help="timed rounds of each (default 9)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        path = make_replay(Path(tmp), args.pushes, args.seed)
        replay = rp.load(path)
        setup, actions = replay.setup, replay.game_actions
        assert rp.verify(replay).ok, "the benchmark replay does not verify"
        sim_t, ver_t = [], []
        for k in range(args.rounds):
            for which in (("sim", "ver") if k % 2 == 0 else ("ver", "sim")):  # alternate the order
                gc.collect()  # neither pays for the other's garbage
                t0 = time.perf_counter()
                if which == "sim":
                    Game.replay(setup, actions, verify=False)
                else:
                    assert rp.verify(rp.load(path)).ok
                (sim_t if which == "sim" else ver_t).append(time.perf_counter() - t0)
        size = path.stat().st_size
    # The best round is the least disturbed by other processes (as timeit reports); the medians
    # are shown too.
    sim, ver = min(sim_t), min(ver_t)
    sim_med, ver_med = statistics.median(sim_t), statistics.median(ver_t)
    out = {
        "pushes": replay.pushes,
        "actions": len(replay.timeline),
        "file_bytes": size,
        "simulate_s": round(sim, 4),
        "verify_s": round(ver, 4),
        "ratio": round(ver / sim, 3),
        "ratio_of_medians": round(ver_med / sim_med, 3),
        "target": TARGET,
        "rounds": args.rounds,
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"replay: {out['pushes']} pushes, {out['actions']} actions, {size / 1024:.0f} kB")
        print(f"simulate (Game.replay, no checks):              {sim * 1000:8.1f} ms  "
              f"(best of {args.rounds}; median {sim_med * 1000:.1f})")
        print(f"verify (load + validate + re-simulate + check): {ver * 1000:8.1f} ms  "
              f"(best of {args.rounds}; median {ver_med * 1000:.1f})")
        print(f"ratio verify / simulate: {ver / sim:.3f} (medians: {ver_med / sim_med:.3f})   "
              f"target <= {TARGET}")
    return 0 if ver / sim <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
