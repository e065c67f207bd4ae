#!/usr/bin/env python3
"""Our search bot against OpenSpiel's ISMCTSBot at equal time per move (needs OpenSpiel).

    python3 tools/head_to_head.py [--game NAME ...] [--games 400] [--time 0.05] [--jobs 1]
                                  [--ours SPEC] [--out results.json] [--hours H]

Game ``i`` is dealt with seed ``seed + i``. Both bots think for ``--time`` seconds per decision
(decisions with one legal action are played at once), our :class:`cards.bots.ISMCTSBot` from
``--ours`` (``time=`` is added) and OpenSpiel's Python ``ISMCTSBot`` with random roll-outs, which
stops at the same deadline (:func:`cards.openspiel_bots.ismcts_bot`).

Seats: in the two-player games ours sits in seat ``i % 2``, so both bots play both seats equally
often. Sumida River is played by four: two of ours and two of OpenSpiel's, alternating round the
table (ours in seats 0 and 2 in even games, 1 and 3 in odd ones); a game counts for ours when one of
our seats has the best return (a victory shared between the two sides counts half).

The figure is our share of the games with a 95% Wilson interval; the target is at least 55% in every
game. Results are written to ``--out`` after every game, so a run stopped by ``--hours`` (or by
hand) still leaves its figures; ``--resume`` continues one.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import cards
from cards.bots import ISMCTSBot, bot_seed, make_bot
from kabuto.lab.stats import wilson
from kabuto_base import processes
from kabuto_base.fileio import write_atomic
from kabuto_base.ledger import Ledger, LedgerError

TARGET = 0.55
#: Players per game in the match (Sumida River: two of each side).
PLAYERS = {"sumo": 2, "sumo-card-game": 2, "sumida-river": 4}


def our_seats(game: str, i: int) -> list[int]:
    n = PLAYERS[game]
    if n == 2:
        return [i % 2]
    return [s for s in range(n) if s % 2 == i % 2]


class _Timed:
    """Counts decisions and thinking time of a bot (decisions with one choice are not counted)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0
        self.seconds = 0.0
        self.searches = 0  # iterations (ours) or simulations (OpenSpiel's), summed

    def act(self, game: cards.CardGame, rng: Any = None) -> str:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        t = time.perf_counter()
        a = self.bot.act(game)
        self.seconds += time.perf_counter() - t
        self.decisions += 1
        inner = getattr(self.bot, "bot", self.bot)
        self.searches += getattr(inner, "last_simulations", 0) or getattr(inner, "last_iterations", 0)
        return a


def play_one(args: tuple[str, int, int, float, str]) -> dict[str, Any]:
    """Play game number ``i``; returns who won and how long each side thought."""
    from cards import openspiel_adapter as oa
    from cards import openspiel_bots as ob

    name, seed, i, seconds, ours_spec = args
    n = PLAYERS[name]
    spiel = oa.load(name, players=n)
    mine = our_seats(name, i)
    ours = make_bot(f"{ours_spec},time={seconds}", bot_seed(seed, i, 0))
    assert isinstance(ours, ISMCTSBot)
    ours_t = _Timed(ours)
    theirs_t = _Timed(ob.SpielPlayer(spiel, ob.ismcts_bot(spiel, time_limit=seconds, seed=bot_seed(seed, i, 1) % 2**32),
                                     "openspiel-ismcts"))
    bots = [ours_t if s in mine else theirs_t for s in range(n)]
    game = cards.GAMES[name].new(n, seed + i)
    actions = 0
    while not game.is_over:
        p = game.to_play
        assert p is not None
        game.apply(bots[p].act(game))
        actions += 1
    winners = game.winners()
    sides = {("ours" if w in mine else "theirs") for w in winners}
    score = 1.0 if sides == {"ours"} else 0.5 if sides == {"ours", "theirs"} else 0.0
    return {
        "i": i, "score": score, "seats": mine, "actions": actions,
        "ours": [ours_t.decisions, ours_t.seconds, ours_t.searches],
        "theirs": [theirs_t.decisions, theirs_t.seconds, theirs_t.searches],
    }


def summary(name: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    score = sum(r["score"] for r in rows)
    lo, hi = wilson(score, n)
    by_seat: dict[str, list[float]] = {}
    for r in rows:
        by_seat.setdefault(",".join(map(str, r["seats"])), []).append(r["score"])

    def per_move(side: str) -> dict[str, float]:
        d = sum(r[side][0] for r in rows)
        return {"decisions": d, "ms_per_decision": round(1000 * sum(r[side][1] for r in rows) / max(d, 1), 2),
                "searches_per_decision": round(sum(r[side][2] for r in rows) / max(d, 1), 1)}

    return {
        "game": name, "players": PLAYERS[name], "games": n, "our_score": score,
        "our_share": round(score / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)],
        "meets_target": bool(n) and score / n >= TARGET,
        "by_our_seats": {k: {"games": len(v), "share": round(sum(v) / len(v), 4)} for k, v in sorted(by_seat.items())},
        "ours": per_move("ours"), "theirs": per_move("theirs"),
        "mean_actions": round(sum(r["actions"] for r in rows) / max(n, 1), 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", action="append", choices=sorted(PLAYERS), help="only this game (repeatable)")
    p.add_argument("--games", type=int, default=400, help="games per game (default 400)")
    p.add_argument("--time", type=float, default=0.05, help="seconds per decision for both bots")
    p.add_argument("--ours", default="mcts:1000000", help="our bot's spec (time= is added)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="games played at once (each takes a core)")
    p.add_argument("--hours", type=float, default=None, help="stop starting games after this long")
    p.add_argument("--out", type=Path, default=None, help="JSON results, rewritten after every game")
    p.add_argument("--resume", action="store_true", help="keep the games already in --out")
    args = p.parse_args(argv)
    games = args.game or list(PLAYERS)  # the quick games first: Sumida River takes longest
    done: dict[str, list[dict[str, Any]]] = {g: [] for g in games}
    # Each finished game is a line of the ledger beside --out (kabuto_base.ledger), on disk before
    # the next starts: --resume keeps them, and the summary is made again from them.
    book = Ledger(args.out.with_suffix(".games.jsonl")) if args.out else None
    if book is not None and not args.resume and book.path.exists():
        book.path.unlink()  # a new run: the old games are not this one's
    if book is not None and args.resume:
        try:
            for _, (g, row) in book.entries(lambda d: (d["game"], d["row"])):
                if g in done:
                    done[g].append(row)
        except LedgerError as exc:
            p.error(f"--resume: {exc}")
    deadline = None if args.hours is None else time.time() + 3600 * args.hours
    meta = {"time_per_decision": args.time, "ours": args.ours, "seed": args.seed, "jobs": args.jobs,
            "cpus": os.cpu_count()}

    def save() -> None:
        out = {**meta, "results": {g: summary(g, rows) for g, rows in done.items()}, "rows": done}
        if args.out:
            write_atomic(args.out, json.dumps(out))

    import concurrent.futures as cf

    for g in games:
        have = {r["i"] for r in done[g]}
        work = [(g, args.seed, i, args.time, args.ours) for i in range(args.games) if i not in have]
        with cf.ProcessPoolExecutor(max_workers=max(1, args.jobs), mp_context=processes.context()) as pool:
            pending = set()
            queue = iter(work)
            for _ in range(max(1, args.jobs)):
                job = next(queue, None)
                if job is not None:
                    pending.add(pool.submit(play_one, job))
            while pending:
                finished, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for f in finished:
                    done[g].append(f.result())
                    if book is not None:
                        book.append({"game": g, "row": done[g][-1]})
                save()
                if deadline is None or time.time() < deadline:
                    for _ in finished:
                        job = next(queue, None)
                        if job is not None:
                            pending.add(pool.submit(play_one, job))
        s = summary(g, done[g])
        print(f"{g:15s} ours {s['our_score']:.1f}/{s['games']} = {100 * (s['our_share'] or 0):.1f}% "
              f"(95% {100 * s['ci95'][0]:.1f}-{100 * s['ci95'][1]:.1f}%)  "
              f"ours {s['ours']['searches_per_decision']} it/{s['ours']['ms_per_decision']} ms, "
              f"OpenSpiel {s['theirs']['searches_per_decision']} sims/{s['theirs']['ms_per_decision']} ms  "
              f"{'ok' if s['meets_target'] else 'BELOW TARGET'}", flush=True)
    save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
