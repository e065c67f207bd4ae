"""Search for early forced wins: can a player win on their very first turn? (issue 16, point 3)

A thin command line over :mod:`kabuto.lab.early_wins`, which explains the search, its lines and
its resumable results:

    python tools/early_wins.py                       # the whole search: 56 pairs x 2,000 pushes, 2P
    python tools/early_wins.py --players all --resume runs/early.jsonl   # every board, resumable
    python tools/early_wins.py --players all --resume runs/early.jsonl --so-far   # what it found so far
    python tools/early_wins.py --pushes 50 --pairs mike:hank,bea:gus --seed 3
    python tools/early_wins.py --sweep --players all    # the edge grid and ridge from every board's start
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from pathlib import Path

from kabuto.lab import LabError
from kabuto.lab import early_wins as _search
from kabuto.lab.early_wins import (
    AFTER_EACH,
    EDGE_PAIRS,
    EDGE_SHARE,
    OPENING,
    OPENINGS,
    all_pairs,
    edge_wins,
    report_md,
    robustness,
    run,
    sweep_boards,
)
from kabuto.rules.wrestlers import load_wrestlers
from kabuto.tuning.stopping import sigterm_as_ctrl_c
from kabuto_base.fileio import write_atomic


def lab_doc() -> str:
    """The library's explanation of the search, for --help."""
    return _search.__doc__ or ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=lab_doc(),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pushes", type=int, default=2000, help="first pushes per ordered pair (2000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pairs", default="all", help="first:second,... (default: every ordered pair)")
    ap.add_argument("--players", default="2", choices=("2", "3", "4", "all"),
                    help="the standard board searched (default 2; all: 2, 3 and 4)")
    ap.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    ap.add_argument("--chunk", type=int, default=25, help="pushes per unit of work")
    ap.add_argument("--resume", type=Path, default=None,
                    help="append finished units of work to this file and skip those already in it")
    ap.add_argument("--so-far", action="store_true",
                    help="search nothing: the summary of the units the --resume file holds for "
                         "this search (a search that grows over several runs)")
    ap.add_argument("--write", type=Path, default=None, metavar="FILE.md",
                    help="also write the summary as a Markdown page (results/early-wins.md)")
    ap.add_argument("--blunders", action="store_true",
                    help="search the second player's push i after the first player's plain push "
                         "i (every position a first push leaves: how often one hands the game "
                         "over), instead of every reply after one opening (a forced win)")
    ap.add_argument("--openings", type=int, default=OPENINGS, metavar="N",
                    help=f"a second-turn win is searched again after the first player's next "
                         f"quiet openings, up to N in all ({OPENINGS})")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--edge", type=int, metavar="AIMS", default=0,
                    help="instead of the search: AIMS pushes up the ring's edge at the first "
                         "player's wrestler after each of its first --pushes plain pushes, for "
                         "each pair of EDGE_PAIRS (2P board; see edge_wins)")
    ap.add_argument("--edge-share", type=int, default=EDGE_SHARE, metavar="PER100",
                    help=f"edge pushes (steepest headings along the edge at a wrestler, "
                         f"edge_pushes) per 100 uniform pushes ({EDGE_SHARE}; 0: uniform only)")
    ap.add_argument("--sweep", action="store_true",
                    help="instead of the search: the edge grid (edge_sweep) and the steepest "
                         "ridge (steepest_ridge) from the starting board of --players, each seat "
                         "moving first")
    ap.add_argument("--no-ridge", action="store_true", help="--sweep: the edge grid alone")
    ap.add_argument("--robust", action="store_true",
                    help="instead of the search: the edge grid and ridge (entries from 20 degrees "
                         "round) for the second player after each ROBUST_PAIRS pair's opening, after "
                         "its first pushes 1-3, and on 4 jittered starting boards (robustness)")
    args = ap.parse_args(argv)
    if not 0 <= args.edge_share <= 100:
        ap.error("--edge-share: 0 to 100")
    boards = (2, 3, 4) if args.players == "all" else (int(args.players),)
    if args.robust:
        print(json.dumps({f"{n}P": robustness(n) for n in boards}, indent=1))
        return 0
    if args.sweep:
        print(json.dumps(sweep_boards(boards, ridge=not args.no_ridge), indent=1))
        return 0
    if args.pushes < 1:
        ap.error("--pushes: at least 1")
    if args.openings < 1:
        ap.error("--openings: at least 1")
    if args.edge:
        per = {f"{a}:{b}": edge_wins(a, b, args.pushes, args.edge) for a, b in EDGE_PAIRS}
        print(json.dumps({"positions_per_pair": args.pushes, "aims": args.edge,
                          "wins": sum(w for w, _, _ in per.values()),
                          "tried": sum(t for _, t, _ in per.values()),
                          "from_below": sum(s.count(-1) for _, _, s in per.values()),
                          "pairs": {k: [w, t] for k, (w, t, _) in per.items()}}, indent=1))
        return 0
    pairs = all_pairs() if args.pairs == "all" else [
        (a, b) for a, _, b in (p.partition(":") for p in args.pairs.split(","))]
    known = {w.key for w in load_wrestlers()}
    bad = [f"{a}:{b}" for a, b in pairs if a not in known or b not in known or a == b]
    if bad:
        ap.error(f"--pairs: {', '.join(bad)} (wrestlers: {', '.join(sorted(known))})")
    if args.so_far and args.resume is None:
        ap.error("--so-far: needs --resume FILE (the units searched so far)")
    sigterm_as_ctrl_c()
    try:
        summary = run(pairs, args.pushes, args.seed, args.workers, args.chunk,
                      progress=not args.no_progress and sys.stderr.isatty(), players=boards,
                      resume=args.resume, edge=args.edge_share, so_far=args.so_far,
                      second=AFTER_EACH if args.blunders else OPENING, openings=args.openings)
    except KeyboardInterrupt:
        kept = (f"every finished unit is kept in {args.resume}; run the same command again to go "
                f"on" if args.resume else "nothing was kept (give --resume FILE to keep units)")
        print(f"early_wins: interrupted: {kept}", file=sys.stderr)
        return 130
    except LabError as exc:  # an unreadable resume file: said in one line
        print(f"early_wins: {exc}", file=sys.stderr)
        return 2
    if args.write:
        write_atomic(args.write, report_md(summary))
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
