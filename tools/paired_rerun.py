#!/usr/bin/env python3
"""Replay a balance ledger's games under other game data, and compare (issue 16, points 2 and 4).

A design change (a wrestler's card, the centre circle, the AI's weights) is first judged on a few
dozen games, not on the full report's 1,640. The fairest few dozen are the report's own: the same
seeds, wrestlers, seats and first players, played again under the candidate's data folder. The
games a change cannot touch play out the same, so the comparison is paired, and the first
``--games`` of the chosen games are spread evenly over opponents, seats and who moves first.

    # Mighty Jaw Mike's first 56 games again with a 10 mm centre circle:
    python3 tools/paired_rerun.py --assets /tmp/c10 --wrestler mike --games 56 --out /tmp/c10.jsonl
    # The games the report stopped at turn 40, played on to turn 120 (the AI never looks at the
    # cap, so their first 40 turns are the same game):
    python3 tools/paired_rerun.py --capped --max-turns 120 --games 30 --out /tmp/capped.jsonl
    # The comparison again, from the games already played, without playing:
    python3 tools/paired_rerun.py --assets /tmp/c10 --wrestler mike --games 56 --out /tmp/c10.jsonl --so-far

``--out`` is a ledger of the candidate's games (``kabuto.lab.ledger``'s line format, stamped with the
candidate's fingerprint): every game is written as it finishes, and a run stopped by Ctrl-C or
``kill`` goes on where it stopped when given the same command. The comparison is printed as a table
(``--json`` for JSON): the wrestler's score (wins plus half the draws and stopped games) with its
95% interval, how the games ended, the median length, and how many ended as in the ledger.

Figures of a few dozen games have intervals 25 points wide; they pick candidates for the full
report, they do not replace it.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kabuto.lab.match import GameRecord

ROOT = Path(__file__).resolve().parent.parent
LEDGER = ROOT / "results" / "balance" / "balance-games.jsonl"


def read_ledger(path: Path) -> list[GameRecord]:
    """Every game a ledger holds, whatever its fingerprint (a candidate is compared with games of
    another design), read as ``kabuto.lab.ledger.load`` reads one (:func:`kabuto.lab.ledger.read`)."""
    from kabuto.lab import ledger

    return [record for _, record in ledger.read(path, ledger.record_of)]


def pick(records: Iterable[GameRecord], wrestler: str | None, games: int, capped: bool) -> list[GameRecord]:
    """The first ``games`` two-player games of ``wrestler`` (None: every wrestler) in the ledger,
    taken in turn from each group of one opponent pairing, seat and first player, so that any
    prefix is spread over them evenly; ``capped``: only games stopped at the turn cap."""
    groups: dict[tuple[Any, ...], list[GameRecord]] = {}
    for r in records:
        s = r.spec
        if s.players != 2 or s.junior or len(set(s.levels)) != 1:
            continue
        if wrestler is not None and wrestler not in s.wrestlers:
            continue
        if capped and r.reason != "max_turns":
            continue
        seat = s.wrestlers.index(wrestler) if wrestler else 0
        groups.setdefault((s.wrestlers[1 - seat], seat, s.first_player), []).append(r)
    order: list[GameRecord] = []
    rank = 0
    while len(order) < games and any(rank < len(g) for g in groups.values()):
        order += [g[rank] for _, g in sorted(groups.items()) if rank < len(g)]
        rank += 1
    return order[:games]


def score(record: GameRecord, seat: int) -> float:
    """``seat``'s result: 1 a win, 0 a loss, half a draw or a game stopped at the cap."""
    return 0.5 if record.winner is None else float(record.winner == seat)


def summary(pairs: list[tuple[GameRecord, GameRecord]], wrestler: str | None) -> dict[str, Any]:
    """The comparison of ``(ledger game, rerun)`` pairs: for the ledger's games and the rerun, the
    wrestler's score with its 95% interval (with no wrestler, the first player's), the endings (the
    report's names), the median length; and how many reruns ended as in the ledger."""
    from kabuto.lab.balance import ending
    from kabuto.lab.stats import wilson

    def side(records: list[GameRecord]) -> dict[str, Any]:
        seats = [r.spec.wrestlers.index(wrestler) if wrestler else r.spec.first_player for r in records]
        won = sum(score(r, s) for r, s in zip(records, seats, strict=True))
        lo, hi = wilson(won, len(records))
        return {"score": won / len(records) if records else None, "low": lo, "high": hi,
                "endings": dict(Counter(ending(r) for r in records).most_common()),
                "median_turns": statistics.median(r.turns for r in records) if records else None}

    old, new = [a for a, _ in pairs], [b for _, b in pairs]
    same = sum(1 for a, b in pairs if (a.winner, a.reason, a.turns) == (b.winner, b.reason, b.turns))
    return {"games": len(pairs), "whose_score": wrestler or "the first player",
            "ledger": side(old), "rerun": side(new), "same_result": same}


def table(s: dict[str, Any]) -> str:
    """The comparison as a Markdown table."""
    from kabuto.lab.balance import ENDINGS

    def pct(d: dict[str, Any]) -> str:
        return "-" if d["score"] is None else f"{d['score']:.1%} ({d['low']:.0%}-{d['high']:.0%})"

    rows = [f"| {s['games']} games | ledger | rerun |", "|---|---|---|",
            f"| score of {s['whose_score']} | {pct(s['ledger'])} | {pct(s['rerun'])} |"]
    for key in ENDINGS:
        a, b = s["ledger"]["endings"].get(key, 0), s["rerun"]["endings"].get(key, 0)
        if a or b:
            rows.append(f"| {ENDINGS[key]} | {a} | {b} |")
    rows.append(f"| median turns | {s['ledger']['median_turns']} | {s['rerun']['median_turns']} |")
    rows.append(f"\n{s['same_result']} of {s['games']} games ended as in the ledger (winner, how, turn).")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.split("\n")[7:16]))
    ap.add_argument("--assets", type=Path, default=None,
                    help="the candidate's data folder (a copy of assets/ with the change); "
                         "default: the data in force")
    ap.add_argument("--ledger", type=Path, default=LEDGER, help="the games to replay (results/balance/balance-games.jsonl)")
    ap.add_argument("--wrestler", default=None, help="only this wrestler's games (a key: mike, jade, ...)")
    ap.add_argument("--games", type=int, default=56, help="how many games (56)")
    ap.add_argument("--capped", action="store_true", help="only games the ledger stopped at the turn cap")
    ap.add_argument("--max-turns", type=int, default=None, help="play to this cap instead of the ledger's")
    ap.add_argument("--out", type=Path, required=True, help="the candidate's games (appended; resumable)")
    ap.add_argument("--workers", type=int, default=1, help="games played at once (1)")
    ap.add_argument("--so-far", action="store_true", help="play nothing: compare the games --out holds")
    ap.add_argument("--json", action="store_true", help="print the comparison as JSON")
    args = ap.parse_args(argv)
    if args.games < 1 or args.workers < 1 or (args.max_turns is not None and args.max_turns < 1):
        ap.error("--games, --workers and --max-turns: at least 1")
    if args.assets is not None:
        if not (args.assets / "wrestlers.toml").is_file():
            ap.error(f"--assets: {args.assets} holds no wrestlers.toml (give a copy of assets/)")
        os.environ["KABUTO_ASSETS"] = str(args.assets.resolve())  # before any data is read

    from kabuto.lab import ledger
    from kabuto.lab import tournament as tm
    from kabuto.rules.wrestlers import load_wrestlers
    from kabuto.tuning.stopping import sigterm_as_ctrl_c

    if args.wrestler is not None and args.wrestler not in {w.key for w in load_wrestlers()}:
        ap.error(f"--wrestler: no wrestler {args.wrestler!r}")
    try:
        chosen = pick(read_ledger(args.ledger), args.wrestler, args.games, args.capped)
        played = {r.spec.index: r for r in read_ledger(args.out)} if args.out.is_file() else {}
    except (ledger.LedgerError, OSError, UnicodeDecodeError) as exc:
        print(f"paired_rerun: {exc}", file=sys.stderr)
        return 2
    specs = [replace(r.spec, max_turns=args.max_turns or r.spec.max_turns) for r in chosen]
    todo = [s for s in specs if s.index not in played or played[s.index].spec != s]
    if todo and not args.so_far:
        sigterm_as_ctrl_c()
        print(f"paired_rerun: {len(todo)} of {len(specs)} games to play "
              f"({len(specs) - len(todo)} already in {args.out})", file=sys.stderr)

        def keep(record: GameRecord) -> None:
            ledger.append(args.out, record)
            played[record.spec.index] = record

        try:
            tm.run_local(todo, args.workers, on_record=keep)
        except KeyboardInterrupt:
            print(f"paired_rerun: interrupted: every finished game is kept in {args.out}; run the "
                  f"same command again to go on", file=sys.stderr)
            return 130
    pairs = [(r, played[s.index]) for r, s in zip(chosen, specs, strict=True)
             if s.index in played and played[s.index].spec == s]
    s = summary(pairs, args.wrestler)
    try:
        print(json.dumps(s, indent=1) if args.json else table(s))
    except BrokenPipeError:  # piped into `head`, which stopped reading: nothing is lost
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
