"""How often two equal AIs' games are over within the first few turns, and who won them (issue 42).

Plays every pair of the wrestler cards on the two-player board, each stopped after ``--turns``
turns (3: the first player's push, the answer and the first player's second push), and prints one
JSON line: how many openings were played, how many were already over, with a 95% (Wilson)
interval, how many of those the first and the second player won, how many each wrestler won
(``won_by``: a share that looks modest can be one card's, Mighty Jaw Mike's Vice Grip on a board
where a push from behind reaches the centre circle) and on which turn they ended. A starting board
where the first player wins many openings decides games before they start; the balance report's quick
verdict then judges the length and the first player's share of whole games
(``kabuto balance --quick``). Point it at a copy of the assets folder to judge a design:

    python tools/openings.py                        # 4 openings a pair: 112, about 2 minutes
    KABUTO_ASSETS=/tmp/my-assets python tools/openings.py --games 8
    python tools/openings.py --games 1 --level beginner --turns 1 --workers 1   # CI's size
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from kabuto.ai.levels import level_names
from kabuto.cli import progress_wanted
from kabuto.lab.openings import SEED, opening_specs, play_openings
from kabuto.rules.wrestlers import load_wrestlers


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4, help="openings a pair of wrestlers (default 4)")
    ap.add_argument("--turns", type=int, default=3, help="turns an opening lasts at most (default 3)")
    ap.add_argument("--level", default="hard", help="the AI level of both sides (default hard)")
    ap.add_argument("--seed", type=int, default=SEED, help=f"the seed of the openings ({SEED})")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    for name in ("games", "turns", "workers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name}: 1 or more")
    if args.level not in level_names():
        ap.error(f"--level: one of {', '.join(level_names())}")
    specs = opening_specs([w.key for w in load_wrestlers()], args.games, args.level, args.turns, args.seed)
    from tqdm import tqdm

    started = time.perf_counter()
    with tqdm(total=len(specs), desc="openings", unit="game", file=sys.stderr,
              disable=not progress_wanted(args.no_progress), leave=False) as bar:
        result = play_openings(specs, args.workers, progress=lambda: bar.update(1))
    line = {"level": args.level, **result.to_json(), "seconds": round(time.perf_counter() - started, 1)}
    print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
