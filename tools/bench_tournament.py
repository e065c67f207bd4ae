#!/usr/bin/env python3
"""Benchmark: tournament throughput - AI-vs-AI Kabuto Sumo games per minute at one level.

Plays the first ``--games`` games of ``kabuto balance``'s schedule (every ordered pair of wrestlers
in turn, seeded) over ``--workers`` processes, exactly as the tournament and the balance report play
them, and reports games per minute, decisions per minute and the cost of one preview (a simulated
push, the AI's unit of work). The machine is shared and noisy, so it also times, in the same run,
a fixed reference: one bare pymunk push into the 2-player crowd (``tools/bench_push.py``'s bare
loop); ``preview_over_bare_push`` (one preview over one bare push) compares across machines and loads.
It also counts the CPU seconds the games' processes used: ``games_per_minute_on_2_free_cores``
is the throughput the games would have with two cores to themselves (a shared machine's load
changes wall times a lot, CPU seconds little).

    python3 tools/bench_tournament.py                 # 8 hard games on 2 workers
    python3 tools/bench_tournament.py --level medium --games 16 --json

Issue #16 point 6: measured at the hard level on 2 cores; the aim is 3x the throughput of the
session that filed it.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from kabuto.lab import balance
from kabuto.lab.match import GameRecord, play_json


def bare_push_seconds(repeats: int = 7) -> float:
    """The median wall time of one bare pymunk push into the settled 2-player crowd."""
    import random

    from kabuto.lab.bare import bare_loop
    from kabuto.lab.positions import board_2p
    from physics import Materials, Push

    world = board_2p(Materials.load())
    world.settle()
    rng = random.Random(3)
    times: list[float] = []
    while len(times) < repeats:
        push = Push("P", "medium", rng.uniform(0, 360), rng.uniform(-30, 30), 0.4)
        try:  # the crammed ring's rim has pieces hanging over it: their spots are blocked
            steps = world.preview(push).steps
        except ValueError:
            continue
        t0 = time.perf_counter()
        bare_loop(world, push, steps)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run(level: str, games: int, workers: int, seed: int) -> dict:
    from kabuto.rules.wrestlers import load_wrestlers

    keys = [w.key for w in load_wrestlers()]
    specs = balance.schedule(keys, 1, 0, level, seed, 40)[:games]
    bare_before = bare_push_seconds()
    t0 = time.perf_counter()
    records, cpu = _play_timed(specs, workers)
    wall = time.perf_counter() - t0
    bare = statistics.fmean([bare_before, bare_push_seconds()])
    decisions = sum(len(r.plans) for r in records)
    previews = sum(r.previews for r in records)
    preview_s = wall * min(workers, len(specs)) / previews
    return {
        "level": level, "games": len(records), "workers": workers, "wall_s": round(wall, 2),
        "games_per_minute": round(60 * len(records) / wall, 2),
        "decisions_per_minute": round(60 * decisions / wall, 1),
        "mean_turns": round(statistics.fmean(r.turns for r in records), 1),
        "previews_per_decision": round(previews / decisions, 1),
        "ms_per_preview": round(1e3 * preview_s, 2),
        "bare_push_ms": round(1e3 * bare, 2),
        "preview_over_bare_push": round(preview_s / bare, 2),
        "load_average": round(os.getloadavg()[0], 2),
        # CPU seconds the games took (the worker processes'): what the machine's load does not
        # change much, so runs at different loads compare; games a minute on two free cores.
        "cpu_s_per_decision": round(cpu / decisions, 3),
        "games_per_minute_on_2_free_cores": round(60 * min(workers, 2) * len(records) / cpu, 2),
        "decisions_per_minute_on_2_free_cores": round(60 * min(workers, 2) * decisions / cpu, 1),
    }


def _timed_game(spec: dict) -> tuple[dict, float]:
    """One game as the tournament's workers play it (``match.play_json``), and the CPU
    seconds it took."""
    c = time.process_time()
    out = play_json(spec)
    return out, time.process_time() - c


def _play_timed(specs: list, workers: int) -> tuple[list, float]:
    """The games over ``workers`` processes (as ``tournament.run_local``), in spec order, and
    the CPU seconds they took in all."""
    from kabuto_base import processes

    jobs = [s.to_json() for s in specs]
    if workers <= 1 or len(specs) <= 1:
        done = [_timed_game(j) for j in jobs]
    else:
        with processes.context().Pool(min(workers, len(specs))) as pool:
            done = pool.map(_timed_game, jobs, chunksize=1)
    return [GameRecord.from_json(d) for d, _ in done], sum(c for _, c in done)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--level", default="hard")
    ap.add_argument("--games", type=int, default=8, help="games to play (default 8)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2: the project's cores)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    out = run(args.level, args.games, args.workers, args.seed)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
