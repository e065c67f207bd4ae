"""Physics fidelity figures (issue 15): order independence and resting overlap, over many pushes.

* **Order independence.** For seeded random pushes into the 2-, 3- and 4-player starting boards
  (at rest), the same push into the same pieces relabelled within each kind and handed over in a
  shuffled order: how often the fallen pieces differ, and the largest distance between a piece's
  two final positions. The target is 0 and at most 0.5 mm.
* **Resting overlap.** Seeded random pushes (up to the game's speed limit) into a crowd with stacks
  (a Tower, the Boulder, a 3-high stack), the crowd rebuilt every ``--rebuild`` pushes: the deepest
  overlap between two pieces on one level after each push came to rest. The target is at most
  ``simulation.rest_overlap`` (0.1 mm).

    python tools/bench_fidelity.py                        # the issue's 400 and 10,000 pushes
    python tools/bench_fidelity.py --order 60 --rest 300  # a quick look
    python tools/bench_fidelity.py --json
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time

from kabuto.lab.positions import allowed, board, random_push, stacked_crowd
from kabuto.lab.positions import compare_relabelled as compare


def order_independence(n: int, seed: int) -> dict:
    rng = random.Random(seed)
    worlds = {}
    for players in (2, 3, 4):
        worlds[players] = board(players)
        worlds[players].settle()
    differ = worst = 0.0
    done = 0
    while done < n:
        world = worlds[(2, 3, 4)[done % 3]]
        push = random_push(world, rng)
        if not allowed(world, push):
            continue
        same, d = compare(world, push, rng)
        differ += not same
        worst = max(worst, d)
        done += 1
    return {"pushes": n, "fall_sets_differ": int(differ), "worst_position_mm": round(worst * 1e3, 4)}


def resting_overlap(n: int, seed: int, rebuild: int) -> dict:
    rng = random.Random(seed)
    worst = 0.0
    over = capped = done = 0
    world = stacked_crowd()
    limit = world.materials.sim.rest_overlap
    while done < n:
        if done % rebuild == 0 and done:
            world = stacked_crowd()
        push = random_push(world, rng, pid=f"P{done}")
        try:
            result = world.push(push)
        except ValueError:
            continue
        done += 1
        if result.capped:
            capped += 1
            continue
        depth = world.max_overlap()
        worst = max(worst, depth)
        over += depth > limit
        if done % 250 == 0:
            print(f"rest: {done} pushes, worst {worst * 1e3:.4f} mm, {over} over the limit, "
                  f"{capped} capped", file=sys.stderr, flush=True)
    return {"pushes": n, "over_limit": over, "capped": capped,
            "worst_overlap_mm": round(worst * 1e3, 4), "limit_mm": limit * 1e3}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--order", type=int, default=400, help="pushes for order independence")
    ap.add_argument("--rest", type=int, default=10000, help="pushes for resting overlap")
    ap.add_argument("--rebuild", type=int, default=20, help="rebuild the stacked crowd this often")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    out = {"order": order_independence(args.order, args.seed) if args.order else None,
           "rest": resting_overlap(args.rest, args.seed, args.rebuild) if args.rest else None,
           "seconds": 0.0}
    out["seconds"] = round(time.perf_counter() - t0, 1)
    if args.json:
        print(json.dumps(out))
    else:
        for section, figures in out.items():
            print(f"{section:>8}: {figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
