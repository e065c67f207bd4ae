"""Benchmark: one push into the full 2-player starting crowd, against a bare pymunk loop.

For each of a seeded set of pushes (entries all round the ring, headings within the platform's
range, speeds 0.1 m/s up to the game's limit, simulation.max_speed) it times ``World.preview(push)`` - validation, building a fresh Space,
driving, falls, rest detection, the 60 Hz trajectory - and, interleaved in the same run, a bare
pymunk loop that builds the same bodies, shapes and constraints with pymunk's own classes, with the
same settings (solver iterations, collision slop, sleeping), and steps them the same number of
steps with nothing else. The machine is shared and noisy, so only the ratio is meaningful.

    python tools/bench_push.py            # a readable summary
    python tools/bench_push.py --json     # one JSON object
    python tools/bench_push.py --sketch   # the hard AI's sketched previews instead (its unit of work)

The crowd is settled first (the starting board's stand-in wrestlers overlap their neighbours by
about 1 mm, and a push now ends only once overlaps are pushed out), so every push meets a crowd at
rest, as in a game after its first push.

Targets (issues #2 and #15): ratio_vs_bare <= 1.5 and realtime_factor >= 60 on a 2-core machine.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time

from kabuto.lab.bare import bare_loop
from kabuto.lab.positions import board_2p
from physics import Materials, Push, World


def run(n_pushes: int, repeats: int, seed: int, sketch: bool = False) -> dict:
    rng = random.Random(seed)
    world = board_2p(Materials.load())
    # The starting board's stand-in wrestlers (large discs on spots made for wrestler outlines)
    # overlap their neighbours by about 1 mm: let it come to rest first, as after a game's first
    # push, so every push starts from a crowd at rest.
    world.settle()
    settle_within = None
    if sketch:  # the hard AI's sketched preview (kabuto.ai.pool.Sketch, assets/ai.toml)
        from kabuto.ai.levels import config
        from kabuto.ai.pool import Sketch

        cfg = config()
        hard = cfg.levels["hard"]
        shape = Sketch.of(hard, cfg.search)
        if shape is None:
            raise SystemExit("bench_push --sketch: the hard level of assets/ai.toml has no sketch_rate")
        world = World(shape.materials(world.materials), world.pieces)
        settle_within = shape.settle_within
    top = world.materials.sim.max_speed
    pushes: list[Push] = []
    while len(pushes) < n_pushes:
        push = Push("P", rng.choice(["small", "medium", "large"]), rng.uniform(0, 360),
                    rng.uniform(-45, 45), rng.uniform(0.1, top))
        try:  # the crammed ring's rim has pieces hanging over it: their spots are blocked
            world.check_push(push)
        except ValueError:
            continue
        pushes.append(push)
    ours, bare, ratios, sim_time, steps_all = [], [], [], [], []
    for push in pushes:
        result = world.preview(push, settle_within=settle_within)
        best_ours = best_bare = math.inf
        for _ in range(repeats):   # interleaved so both see the same machine load
            t0 = time.perf_counter()
            world.preview(push, settle_within=settle_within)
            t1 = time.perf_counter()
            bare_loop(world, push, result.steps)
            t2 = time.perf_counter()
            best_ours = min(best_ours, t1 - t0)
            best_bare = min(best_bare, t2 - t1)
        ours.append(best_ours)
        bare.append(best_bare)
        ratios.append(best_ours / best_bare)
        sim_time.append(result.time)
        steps_all.append(result.steps)
    return {
        "sketch": sketch,
        "pieces": len(world.pieces) + 1,
        "pushes": n_pushes,
        "median_push_ms": round(statistics.median(ours) * 1e3, 3),
        "median_bare_ms": round(statistics.median(bare) * 1e3, 3),
        "ratio_vs_bare": round(statistics.median(ratios), 3),
        "realtime_factor": round(sum(sim_time) / sum(ours), 1),
        "median_sim_time_s": round(statistics.median(sim_time), 4),
        "median_steps": statistics.median(steps_all),
        "steps_per_second": world.materials.sim.steps_per_second,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--pushes", type=int, default=40, help="distinct pushes (default 40)")
    ap.add_argument("--repeats", type=int, default=5, help="timed repeats per push; the best counts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sketch", action="store_true",
                    help="time the hard AI's sketched previews (240 steps a second, stopped once "
                         "settled) against the bare loop at the sketch's rate")
    args = ap.parse_args(argv)
    out = run(args.pushes, args.repeats, args.seed, args.sketch)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>20}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
