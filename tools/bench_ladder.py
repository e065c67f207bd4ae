#!/usr/bin/env python3
"""Benchmark: the AI levels as a ladder for people, from seeded 2-player games with 95% intervals.

Each rung plays ``--games`` games between two players and reports how often the upper one wins:

    new player vs beginner   the new player (kabuto.ai.novice: biggest disc, straight at the opposing
                             wrestler, full speed, a little aim error, no moves) wins >= 40%
    beginner vs easy, easy vs medium, medium vs hard   the level above wins >= 65%
    hard vs expert           expert wins >= 60%

Game ``i`` of a rung has seed ``seed * 1000 + i``: wrestlers drawn from it, the upper player first in
even games, second in odd ones. A draw (or a game stopped at ``--max-turns``) counts half. Intervals
are Wilson's. The last line is a JSON verdict; exit 1 when a rung misses its target (at a small
``--games`` that is noise, not a finding).

    python3 tools/bench_ladder.py --games 40            # the figures (hours at hard and expert)
    python3 tools/bench_ladder.py --games 1 --rungs novice:beginner,beginner:easy   # CI's size
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time

NOVICE = "novice"
#: (lower, upper, the upper player's target share of the games).
RUNGS = [("beginner", NOVICE, 0.40), ("beginner", "easy", 0.65), ("easy", "medium", 0.65),
         ("medium", "hard", 0.65), ("hard", "expert", 0.60)]


def play(players: tuple[str, str], seed: int, first: int, max_turns: int) -> int | None:
    """One game; the winning seat (None: a draw or stopped)."""
    from kabuto.ai import choose, play_turn
    from kabuto.ai.novice import play_novice_turn
    from kabuto.rules.game import Game
    from kabuto.rules.wrestlers import load_wrestlers

    rng = random.Random(f"ladder-{seed}")
    wrestlers = rng.sample([w.key for w in load_wrestlers()], 2)
    game = Game.new(players=2, wrestlers=wrestlers, seed=seed, first_player=first)
    while not game.is_over and game.turn.number <= max_turns:
        seat, turn = game.current_seat, game.turn.number
        who = players[seat]
        if who == NOVICE:
            play_novice_turn(game, random.Random(f"novice-{seed}-{turn}"))
        else:
            play_turn(game, choose(game, who, seed=seed * 10 + seat, workers=1))
        if not game.is_over and game.turn.number == turn and game.current_seat == seat:
            return None  # nobody could go on: stopped
    r = game.result
    return None if r is None or r.winner is None else r.seats[0]


def main(argv: list[str] | None = None) -> int:
    from kabuto.ai.levels import level_names
    from kabuto.lab.stats import wilson

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--games", type=int, default=40, help="games per rung (default 40)")
    p.add_argument("--seed", type=int, default=1, help="seed of the schedule (default 1)")
    p.add_argument("--max-turns", type=int, default=40, help="stop a game after this many turns")
    p.add_argument("--rungs", metavar="LIST",
                   help="comma-separated lower:upper pairs to play (default every rung)")
    p.add_argument("--json", action="store_true", help="print only the JSON verdict")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games: at least 1")
    rungs = RUNGS
    if args.rungs:
        want = [tuple(r.split(":")) for r in args.rungs.split(",")]
        known = {(lo, up) for lo, up, _ in RUNGS}
        bad = [f"{w[0]}:{w[1]}" if len(w) == 2 else ":".join(w) for w in want if tuple(w) not in known]
        if bad:
            p.error(f"--rungs: {bad[0]} is not a rung (they are "
                    f"{', '.join(f'{lo}:{up}' for lo, up, _ in RUNGS)})")
        rungs = [r for r in RUNGS if (r[0], r[1]) in set(want)]
    for lo, up, _ in rungs:
        for name in (lo, up):
            if name != NOVICE and name not in level_names():
                p.error(f"assets/ai.toml has no level {name!r}")
    report, ok = [], True
    for lo, up, target in rungs:
        wins = 0.0
        t0 = time.monotonic()
        for i in range(args.games):
            seed = args.seed * 1000 + i
            upper_seat = i % 2            # the upper player sits first in even games
            players = (up, lo) if upper_seat == 0 else (lo, up)
            w = play(players, seed, 0, args.max_turns)
            wins += 0.5 if w is None else float(w == upper_seat)
            if not args.json:
                print(f"\r{up} vs {lo}: game {i + 1}/{args.games}", end="", file=sys.stderr, flush=True)
        lo_ci, hi_ci = wilson(wins, args.games)
        share = wins / args.games
        met = share >= target
        ok &= met
        report.append({"upper": up, "lower": lo, "games": args.games, "upper_wins": wins,
                       "share": round(share, 3), "ci95": [round(lo_ci, 3), round(hi_ci, 3)],
                       "target": target, "met": met, "seconds": round(time.monotonic() - t0, 1)})
        if not args.json:
            print(f"\r{up:>8} beats {lo:<8} {share:6.1%}  (95%: {lo_ci:.0%}-{hi_ci:.0%}, "
                  f"{args.games} games)  target {target:.0%}: {'met' if met else 'MISSED'}",
                  file=sys.stderr if args.json else sys.stdout)
    print(json.dumps({"ok": ok, "rungs": report}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
