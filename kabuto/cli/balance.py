"""``kabuto balance``: the balance report - do the wrestlers, the boards and the first move make a
fair game that pushes decide?

    kabuto balance                       # the full report: 1,568 two-player hard games and samples
    kabuto balance --games 2 --sample-games 4 --level medium --out /tmp/quick

It plays a seeded round robin of every ordered pair of wrestlers (each moves first against each
other ``--games`` times; the board side alternates), AI against AI at one level, plus
``--sample-games`` games each of 3 players, 4 players (2 v 2) and Junior League with wrestlers drawn
from the seed. Each game is played exactly as ``kabuto tournament`` plays it (the same game, seed
for seed), and kept the moment it finishes in ``--games-dir``, so an interrupted report goes on
where it stopped with ``--resume``, and ``--backend ray`` spreads the games over a Ray cluster.
Each finished game is also one line of ``balance-games.jsonl`` in ``--out`` (:mod:`kabuto.lab.ledger`):
committed with the report, it lets ``--resume`` go on, or remake the report, on another machine
with no replay kept (a line played by other code or data is played again).

It writes into ``--out`` (default ``results/balance/``; a generated report, so not in ``docs/``):

* ``balance.json`` - the figures (see :func:`report`): ``games``, ``wrestler_win_rate``,
  ``first_player_win_rate``, ``by_mover`` (the first and the second player's wins by ending, and
  their knock-outs in the opening), ``push_knockout_share``, ``end_reasons``, ``median_turns``,
  ``moves``, ``targets``, ``samples`` and ``settings``;
* ``balance.md`` - the same for people, with the targets of issue #16 marked met or not;
* ``balance-win-rates.png``, ``balance-pairs.png``, ``balance-endings.png`` - the charts (with the
  ``tools`` extra: matplotlib).

Win rates count a draw (or a game stopped at ``--max-turns``) as half a win; intervals are 95%
Wilson score intervals. The two-player figures come from the round robin; the samples are reported
on their own.
"""
from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kabuto.cli import UsageError, command, subparser
from kabuto.cli import tournament as tm
from kabuto.lab import ledger
from kabuto.lab.balance import (
    BAND,
    MAX_TURNS,
    _Decided,
    estimate_text,
    play_order,
    quick_games,
    quick_text,
    quick_verdict,
    schedule,
    write_report,
)
from kabuto.lab.match import GameRecord
from kabuto.lab.tournament import GAMES, load_kept, save_replay, stale_text
from kabuto_base.fileio import write_atomic

# ----- the command --------------------------------------------------------------------------------
EPILOG = """\
The full report (the default) plays 1,568 hard two-player games, enough for every wrestler's
interval to be within 5 points either side, and 72 sample games: many hours on two cores. It says
how long it expects before it starts, keeps every game as it finishes (its replay in --games-dir,
one line in balance-games.jsonl beside the report), and --resume goes on after an interruption,
on this machine or on another that has only the committed balance-games.jsonl (games played by
other code or data are played again). A quick look:

  kabuto balance --games 2 --sample-games 4 --level medium --out /tmp/balance
  kabuto balance --resume                     # finish an interrupted full report
  kabuto balance --so-far                     # the report of the games played so far
  kabuto balance --backend ray --ray-address auto
"""


def _parse(argv: Sequence[str]):
    import argparse

    from kabuto.ai.levels import config

    p = subparser("balance", "The balance report: a seeded round robin of every wrestler pair in both "
                  "seat orders plus 3-player, 4-player and Junior League samples, written as "
                  "balance.md, balance.json and charts.")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = EPILOG
    p.add_argument("--games", type=int, default=28, help="games per ordered pair of wrestlers, the "
                   "first named moving first (default 28: 1,568 games for 8 wrestlers)")
    p.add_argument("--sample-games", type=int, default=24, help="games of each of 3 players, 4 players "
                   "and Junior League (default 24; 0 for none)")
    p.add_argument("--wrestlers", default="all", help="'all' or a comma-separated list (at least two)")
    p.add_argument("--level", default="hard", choices=sorted(config().levels),
                   help="the AI level every seat plays (default hard)")
    p.add_argument("--out", default=None, help="folder for balance.md, balance.json and the charts "
                   "(default ./results/balance)")
    p.add_argument("--games-dir", default="balance-games", help="folder keeping every game as it "
                   "finishes (replays and results; default ./balance-games)")
    p.add_argument("--so-far", action="store_true", help="play nothing: write the report of the games "
                   "finished so far (in the ledger and --games-dir), marked as partial")
    p.add_argument("--quick", action="store_true", help="a first verdict in minutes: play the round "
                   "robin round by round (no samples) and stop as soon as every wrestler is surely "
                   "above, below or within the 45-55%% band (a sequential test), or when --minutes "
                   "are up; names the wrestlers surely out of the band, places the first player's win "
                   "rate the same way and gives the games' lengths and endings (--out defaults to "
                   "results/balance-quick)")
    p.add_argument("--minutes", type=float, default=15.0, help="with --quick: stop after this many "
                   "minutes at the latest (default 15)")
    tm.add_running_options(p, "--games-dir", max_turns=MAX_TURNS)
    return p.parse_args(list(argv))


@command("balance")
def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    if args.out is None:
        args.out = "results/balance-quick" if args.quick else "results/balance"
    if args.quick:
        args.sample_games = 0
    for flag, value, least in (("--games", args.games, 1), ("--sample-games", args.sample_games, 0),
                               ("--workers", args.workers, 1), ("--max-turns", args.max_turns, 1)):
        if value < least:
            raise UsageError(f"{flag}: expected at least {least}, got {value}")
    out, games_dir = Path(args.out), Path(args.games_dir)
    for flag, folder in (("--out", out), ("--games-dir", games_dir)):
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"{flag}: {folder} exists and is not a folder")
    wrestlers = tm.wrestler_keys(args.wrestlers)
    specs = schedule(wrestlers, args.games, args.sample_games, args.level, args.seed, args.max_turns)
    args.resume = args.resume or args.so_far  # --so-far reads what a resumed run would keep
    book = out / ledger.NAME
    try:
        logged, stale = ledger.load(book, specs)
    except (ledger.LedgerError, OSError) as exc:
        raise UsageError(f"--resume: {exc}" if args.resume else str(exc)) from None
    # A game of the folder counts only if the code and data here played it (its line in the
    # folder's ledger names the fingerprint, as the report's does): the same spec played by an
    # earlier design or AI is another game now, and is played again (and its files replaced).
    in_folder, stale_files = (load_kept(games_dir, specs, "report") if args.resume
                              else ({}, 0))
    finished = {**logged, **in_folder} if args.resume else {}
    if args.resume:
        for count, where in ((stale, book), (stale_files, games_dir)):
            if count:
                print(stale_text(count, where), file=sys.stderr)
    elif logged:
        raise UsageError(f"--out: {book} already holds {len(logged):,} games of this report; add "
                         f"--resume to keep them, or delete it to play every game again")
    elif (games_dir / GAMES).is_file():
        raise UsageError(f"--games-dir: {games_dir} already holds games; add --resume to keep them, or "
                         f"choose another folder")
    todo = [] if args.so_far else [s for s in play_order(specs, args.games, args.sample_games)
                                   if s.index not in finished]
    if finished:
        print(f"resuming: {len(finished)} of {len(specs)} games already played", file=sys.stderr)

    def keep(record: GameRecord) -> None:  # each game is on disk the moment it finishes
        for folder, save in ((games_dir, lambda: save_replay(games_dir, record)),
                             (out, lambda: ledger.append(book, record))):
            try:
                save()
            except OSError as exc:
                raise UsageError(f"cannot write to {folder}: {exc.strerror}") from None
        finished[record.spec.index] = record
        if args.quick:
            look()

    wrestlers_in = list(wrestlers)
    round_size = len(wrestlers_in) * (len(wrestlers_in) - 1)
    started = time.monotonic()
    verdicts: dict[str, dict[str, Any]] = {}

    def look() -> None:  # at each round's end, and when the time is up
        n = len(finished)
        up = time.monotonic() - started > args.minutes * 60
        if n % round_size and not up:
            return
        verdicts.update(quick_verdict(list(finished.values()), wrestlers_in, looks=args.games))
        if up or all(d["verdict"] != "undecided" for d in verdicts.values()):
            raise _Decided

    for folder in (games_dir, out):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot write to {folder}: {exc.strerror}") from None
    try:  # the ledgers start as exactly the games kept (a line cut short by a crash goes)
        ledger.rewrite(book, [finished[s.index] for s in specs if s.index in finished])
        ledger.rewrite(games_dir / GAMES, [in_folder[s.index] for s in specs if s.index in in_folder])
    except OSError as exc:
        raise UsageError(f"cannot write to {out}: {exc.strerror}") from None
    if todo and not args.no_estimate:  # from the games already played, not a typical tournament's
        print(estimate_text(todo, list(finished.values()), args.workers), file=sys.stderr)
        args.no_estimate = True
    try:
        tm.run_games(todo, args, keep)
    except _Decided:
        pass
    except KeyboardInterrupt:
        print(f"kabuto balance: interrupted: {len(finished)} of {len(specs)} games finished and kept "
              f"in {games_dir}/; run it again with --resume to play the rest", file=sys.stderr)
        return 130
    records = [finished[s.index] for s in specs if s.index in finished]
    if args.quick:
        verdicts = quick_verdict(records, wrestlers_in, looks=args.games)
        shape = quick_games(records, wrestlers_in, looks=args.games)
        text = quick_text(verdicts, shape, (time.monotonic() - started) / 60)
        try:
            write_atomic(out / "quick.json", json.dumps(
                {"games": len(records), "looks": args.games, "alpha": 0.05, "band": list(BAND),
                 "level": args.level, "seed": args.seed, "verdicts": verdicts,
                 "first_player": shape["first_player"],
                 "game_shape": {k: v for k, v in shape.items() if k != "first_player"}},
                indent=1) + "\n")
        except OSError as exc:
            raise UsageError(f"cannot write to {out}: {exc.strerror}") from None
        print("\n".join(text))
        print(f"wrote quick.json into {out}/ (the full report: kabuto balance)")
        return 0
    command_line = " ".join(["kabuto balance", *_settings_flags(args)])
    settings = {"command": command_line, "games": args.games, "sample_games": args.sample_games,
                "wrestlers": wrestlers, "level": args.level, "seed": args.seed,
                "max_turns": args.max_turns}
    if len(records) < len(specs):  # --so-far: the report of the games played until now
        settings["played"] = {"games": len(records), "of": len(specs)}
    try:
        written = write_report(out, records, settings)
    except OSError as exc:
        raise UsageError(f"cannot write to {out}: {exc.strerror}") from None
    rep = json.loads((out / "balance.json").read_text(encoding="utf-8"))
    met = sum(t["met"] for t in rep["targets"])
    print(f"{rep['games']:,} two-player games and {len(records) - rep['games']} samples: "
          f"{met} of {len(rep['targets'])} targets met")
    print(f"wrote {', '.join(p.name for p in written)} into {out}/")
    return 0


def _settings_flags(args: Any) -> list[str]:
    """The flags that decide the games (not where files go or how they are run), for the report's
    'made by' line."""
    flags = []
    for flag, value, default in (("--games", args.games, 28), ("--sample-games", args.sample_games, 24),
                                 ("--wrestlers", args.wrestlers, "all"), ("--level", args.level, "hard"),
                                 ("--seed", args.seed, 0), ("--max-turns", args.max_turns, MAX_TURNS)):
        if value != default:
            flags += [flag, str(value)]
    return flags


if __name__ == "__main__":
    sys.exit(main())
