"""Benchmark: how much a second worker speeds up `kabuto tune sweep` (a developer script).

Runs the same crowd-2p grid with 1 worker and with K workers, checks the two tables are identical,
and prints the speed-up as a ratio measured in this run (absolute times depend on the machine and
on whoever else is using it; the ratio is what to compare).

    python tools/tune_bench.py              # 2 workers, 60 runs
    python tools/tune_bench.py --workers 4 --runs 200
"""
from __future__ import annotations

import argparse
import time

from kabuto.tuning.params import make_grid
from kabuto.tuning.scenario import load_scenario
from kabuto.tuning.sweep import csv_text, run_sweep
from physics import Materials


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runs", type=int, default=60, help="grid size (friction x speed)")
    args = ap.parse_args()
    materials = Materials.load()
    scenario = load_scenario("crowd-2p")
    n = max(2, args.runs // 2)
    grid = make_grid([f"table_friction=0.2:0.5:{n}", "push.speed=0.4,0.9"], materials)
    timings = {}
    tables = {}
    for k in (1, args.workers):
        t0 = time.perf_counter()
        result = run_sweep(scenario, materials, grid, workers=k, progress=False)
        timings[k] = time.perf_counter() - t0
        tables[k] = csv_text(result)
    assert tables[1] == tables[args.workers], "the CSV differs between worker counts"
    print(f"{len(grid)} runs of crowd-2p: 1 worker {timings[1]:.2f} s, {args.workers} workers "
          f"{timings[args.workers]:.2f} s (pool start-up included)")
    print(f"speed-up with {args.workers} workers: {timings[1] / timings[args.workers]:.2f}x; "
          "tables identical")


if __name__ == "__main__":
    main()
