"""``kabuto tournament``: AI-vs-AI Kabuto Sumo games, headless, and a win-rate matrix per wrestler pair.

    kabuto tournament --games 4 --players 2 --wrestlers all --level hard --workers 2 --out results/

Every pair of the chosen wrestlers plays ``--games`` games (the first player alternates). Games run
in parallel - ``--workers`` processes on this machine, or a Ray cluster with ``--backend ray`` - and
each game is fully determined by its own seed, so the results do not depend on how many workers or
which backend played them. Written to ``--out``:

* ``pairs.csv`` - per ordered pair: games, wins, losses, draws, the win rate (a draw counts half) and
  its 95% Wilson confidence interval;
* ``games.csv`` - one row per game: seed, wrestlers, first player, winner, reason, turns;
* ``heatmap.png`` - the win-rate matrix (row wrestler against column wrestler);
* ``replays/game-NNNN.replay.json`` - every game as a replay (``kabuto replay --verify`` re-simulates
  it), and ``replays/game-NNNN.ai.json`` beside it: the AI's plan for each turn (the aim before the
  hand wobble, the push executed, the predicted outcome);
* ``summary.json`` - the settings and the matrix.

A game still going after ``--max-turns`` turns is stopped and counted as a draw.

Each game's files are written the moment it finishes (its line in ``replays/games.jsonl`` last: it
means the game's replay and plans are complete), so an interrupted tournament keeps every finished
game.
Ctrl-C stops at once: the workers are terminated, the finished games stay, and ``--resume`` plays
only the games that are missing (each game is decided by its own seed, so the results are exactly
those of an uninterrupted run). A second Ctrl-C while stopping kills the workers and exits.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kabuto.cli import UsageError, command, progress_wanted, subparser
from kabuto.lab import ledger
from kabuto.lab.match import GameRecord, GameSpec
from kabuto.lab.tournament import (
    GAMES,
    estimate_text,
    load_kept,
    matrix_text,
    pair_stats,
    run_local,
    run_ray,
    save_replay,
    schedule,
    stale_text,
    write_outputs,
)

# ----- the command --------------------------------------------------------------------------------
EPILOG = """\
The default (every pair once, medium AI) takes about a minute on two cores; the command says how
long it expects before it starts. Hard games take about six times as long as medium ones.

examples:
  kabuto tournament --games 2 --wrestlers mike,hank,gus --level easy --workers 2
  kabuto tournament --games 10 --wrestlers all --level hard --workers 2 --out results/
  kabuto tournament --games 10 --wrestlers all --backend ray --ray-address auto
"""


def _parse(argv: Sequence[str]):
    import argparse

    from kabuto.ai.levels import config

    p = subparser("tournament", "AI-vs-AI Kabuto Sumo games between every pair of wrestlers, with a "
                  "win-rate matrix (95% Wilson intervals), CSV files, a heat map and every replay.")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = EPILOG
    p.add_argument("--games", type=int, default=1, help="games per pair of wrestlers (default 1; the "
                   "first player alternates)")
    p.add_argument("--players", type=int, default=2, help="players per game (only 2 is supported)")
    p.add_argument("--wrestlers", default="all", help="'all' or a comma-separated list of wrestler "
                   "keys or names (at least two)")
    p.add_argument("--level", default="medium", choices=sorted(config().levels),
                   help="the AI level both sides play (default medium)")
    p.add_argument("--out", default="tournament-out", help="folder for the CSV files, the heat map and "
                   "the replays (default ./tournament-out)")
    add_running_options(p, "--out")
    return p.parse_args(list(argv))


def add_running_options(p: Any, folder: str, max_turns: int = 40) -> None:
    """The options every command that plays AI games shares (tournament, balance): seed, turn limit
    (default ``max_turns``), workers and backend, progress, the time estimate, and --resume of the
    games kept in ``folder``."""
    p.add_argument("--seed", type=int, default=0, help="seed (default 0): it decides every game")
    p.add_argument("--max-turns", type=int, default=max_turns, help="stop a game after this many turns "
                   f"and count it as a draw (default {max_turns})")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="games played at once (default: one per core); results do not depend on it")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes, or Ray tasks (needs the 'ray' extra)")
    p.add_argument("--ray-address", default=None, help="Ray cluster to join (default: RAY_ADDRESS, "
                   "else a local Ray instance)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-estimate", action="store_true", help="start at once, without timing one "
                   "decision to say how long the games will take")
    p.add_argument("--resume", action="store_true", help="keep the games an interrupted run with the "
                   f"same settings finished in {folder}, and play only the rest")


def wrestler_keys(text: str) -> list[str]:
    from kabuto.rules.wrestlers import load_wrestlers, wrestler

    if text.strip().lower() == "all":
        return [w.key for w in load_wrestlers()]
    keys = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            keys.append(wrestler(part).key)
        except (KeyError, ValueError):
            names = ", ".join(w.key for w in load_wrestlers())
            raise UsageError(f"--wrestlers: unknown wrestler {part!r} (one of: {names})") from None
    if len(set(keys)) != len(keys):
        raise UsageError("--wrestlers: a wrestler is listed twice")
    if len(keys) < 2:
        raise UsageError("--wrestlers: name at least two wrestlers (or 'all')")
    return keys


@command("tournament")
def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    if args.players != 2:
        raise UsageError(f"--players: only 2-player tournaments are supported, got {args.players}")
    if args.games < 1:
        raise UsageError(f"--games: expected at least 1, got {args.games}")
    if args.workers < 1:
        raise UsageError(f"--workers: expected at least 1, got {args.workers}")
    if args.max_turns < 1:
        raise UsageError(f"--max-turns: expected at least 1, got {args.max_turns}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out: {out} exists and is not a folder")
    wrestlers = wrestler_keys(args.wrestlers)
    specs = schedule(wrestlers, args.games, args.level, args.seed, args.max_turns)
    # Kept games count only if this code and data played them (an interrupted run resumed after
    # an update plays again what the old code played).
    finished, stale = load_kept(out / "replays", specs) if args.resume else ({}, 0)
    todo = [s for s in specs if s.index not in finished]
    if stale:
        print(stale_text(stale, out / "replays"), file=sys.stderr)
    if finished:
        print(f"resuming: {len(finished)} of {len(specs)} games already played in {out}/")

    def keep(record: GameRecord) -> None:  # each game is on disk the moment it finishes
        try:
            save_replay(out / "replays", record)
        except OSError as exc:
            raise UsageError(f"cannot write to {out}: {exc.strerror}") from None
        finished[record.spec.index] = record

    try:
        (out / "replays").mkdir(parents=True, exist_ok=True)
        # the ledger starts as exactly the games kept (a line cut short, a stale game, goes)
        ledger.rewrite(out / "replays" / GAMES, [finished[s.index] for s in specs if s.index in finished])
    except OSError as exc:
        raise UsageError(f"cannot write to {out}: {exc.strerror}") from None
    try:
        run_games(todo, args, keep)
    except KeyboardInterrupt:
        print(f"kabuto tournament: interrupted: {len(finished)} of {len(specs)} games finished and "
              f"kept in {out}/replays/; run it again with --resume to play the rest",
              file=sys.stderr)
        return 130
    records = [finished[s.index] for s in specs]
    try:  # the ledger in schedule order: the same bytes however the games were played or resumed
        ledger.rewrite(out / "replays" / GAMES, records)
    except OSError as exc:
        raise UsageError(f"cannot write to {out}: {exc.strerror}") from None
    stats = pair_stats(wrestlers, records)
    settings = {"games": args.games, "players": args.players, "wrestlers": wrestlers,
                "level": args.level, "seed": args.seed, "max_turns": args.max_turns,
                "backend": args.backend}
    print(matrix_text(wrestlers, stats))
    draws = sum(1 for r in records if r.winner is None)
    print(f"\n{len(records)} games, {draws} draws; mean {sum(r.turns for r in records) / len(records):.1f} "
          f"turns per game")
    try:
        written = write_outputs(out, wrestlers, records, stats, settings)
    except OSError as exc:
        raise UsageError(f"cannot write to {out}: {exc.strerror}") from None
    tables = ", ".join(p.name for p in written if p.parent == out)
    print(f"wrote {tables} into {out}/ and {len(records)} replays into {out}/replays/")
    return 0


def run_games(specs: list[GameSpec], args, on_record: Callable[[GameRecord], None]) -> list[GameRecord]:
    from tqdm import tqdm

    with tqdm(total=len(specs), desc="games", unit="game", disable=not progress_wanted(args.no_progress),
              file=sys.stderr) as bar:
        count = [0]

        def tick() -> None:
            bar.update(1)
            count[0] += 1
            if bar.disable:  # no bar: one line per finished game, for logs (and tests) to follow
                print(f"finished {count[0]} of {len(specs)} games", flush=True)

        def start() -> None:  # the estimate, once the backend is known to work
            if specs and not args.no_estimate:
                bar.write(estimate_text(specs, args.workers), file=sys.stderr)

        if args.backend == "ray":
            return run_ray(specs, args.workers, args.ray_address, tick, on_record, start)
        start()
        return run_local(specs, args.workers, tick, on_record)


if __name__ == "__main__":
    sys.exit(main())
