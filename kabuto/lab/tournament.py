"""Tournaments: AI-vs-AI Kabuto Sumo games between every pair of wrestlers, played in parallel
(local processes or a Ray cluster), kept game by game on disk, and summed up as a win-rate matrix
with 95% Wilson intervals, CSV files and a heat map. ``kabuto tournament`` is its command line.

Each game is fully determined by its :class:`~kabuto.lab.match.GameSpec` (its own seed), so the
results do not depend on how many workers or which backend played them, and a kept game (its
line in the folder's ledger, ``games.jsonl``, written last: :mod:`kabuto.lab.ledger`) is
resumed, not replayed, while its fingerprint (:func:`kabuto.lab.fingerprint.code_of`) still
matches today's code and data.
"""
from __future__ import annotations

import csv
import importlib.util
import io
import json
import os
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from kabuto.lab import LabError, ledger
from kabuto.lab.match import GameRecord, GameSpec, play_game, play_json
from kabuto.lab.stats import wilson
from kabuto_base import processes
from kabuto_base.fileio import write_atomic

# ----- how long it will take ----------------------------------------------------------------------
#: Turns in a typical AI game (the median of the balance report is 8-15 depending on the level and
#: the wrestlers); the estimate is a guide, the progress bar then shows the real pace.
TYPICAL_TURNS = 12


def seconds_per_decision(level: str, players: int = 2) -> float:
    """Wall time of one AI decision at ``level`` on the starting board, measured here and now in
    one process (as each game in a tournament plays: one process a game)."""
    import time

    from kabuto.ai import choose
    from kabuto.rules.game import Game

    game = Game.new(players=players, seed=0, first_player=0)
    start = time.perf_counter()
    choose(game, level, seed=0, workers=1)
    return time.perf_counter() - start


def expected_seconds(specs: Sequence[GameSpec], per_decision: dict[str, float], workers: int) -> float:
    """The expected wall time of playing ``specs`` over ``workers`` processes, from the measured
    time of one decision at each level (:func:`seconds_per_decision`)."""
    if not specs:
        return 0.0
    work = sum(TYPICAL_TURNS * statistics.fmean(per_decision[lvl] for lvl in s.levels) for s in specs)
    return work / max(1, min(workers, len(specs)))


def duration_text(seconds: float) -> str:
    """'about 40 s', 'about 3 min', 'about 2 h 10 min': what a person reads on a progress line."""
    if seconds < 60:
        return f"about {max(5, 5 * round(seconds / 5))} s"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"about {minutes} min"
    hours, rest = divmod(minutes, 60)
    return f"about {hours} h {rest} min" if rest else f"about {hours} h"


def estimate_text(specs: Sequence[GameSpec], workers: int) -> str:
    """How many games there are and how long they should take, said before anything is played."""
    levels = sorted({lvl for s in specs for lvl in s.levels})
    per = {lvl: seconds_per_decision(lvl) for lvl in levels}
    n = min(workers, len(specs))
    games = f"{len(specs)} game{'s' if len(specs) != 1 else ''}"
    return (f"{games} at the {', '.join(levels)} level on {n} worker{'s' if n != 1 else ''}: "
            f"expected {duration_text(expected_seconds(specs, per, workers))} on this machine "
            f"(one decision takes {per[levels[-1]]:.1f} s here)")


# ----- the schedule -------------------------------------------------------------------------------
def schedule(wrestlers: Sequence[str], games: int, level: str, seed: int, max_turns: int) -> list[GameSpec]:
    """``games`` games for every pair of ``wrestlers``; the first player alternates within a pair and
    each wrestler takes seat 0 in half of them. The cycle of seats and first players starts one step
    further on for each pair, so even one game per pair has no wrestler always moving first."""
    specs: list[GameSpec] = []
    pairs = [(a, b) for i, a in enumerate(wrestlers) for b in wrestlers[i + 1:]]
    for k, (a, b) in enumerate(pairs):
        for g in range(games):
            step = g + k
            seats = (a, b) if step % 2 == 0 else (b, a)
            first = (step // 2) % 2
            index = len(specs)
            specs.append(GameSpec(index, seats, first, (level, level), seed * 1_000_003 + index,
                                  max_turns))
    return specs


# ----- running: local processes or Ray ------------------------------------------------------------
def run_local(specs: list[GameSpec], workers: int, progress: Callable[[], None] | None = None,
              on_record: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Play ``specs`` over ``workers`` processes; records come back in spec order.

    ``on_record`` is called with each game as soon as it finishes (in the order they finish). On
    KeyboardInterrupt (or any error) the workers are terminated at once - no game in flight is
    waited for - and the exception goes on; a second Ctrl-C meanwhile kills them and exits.
    """
    def done(r: GameRecord) -> None:
        if on_record:
            on_record(r)
        if progress:
            progress()

    if workers <= 1 or len(specs) <= 1:
        out = []
        for s in specs:
            out.append(play_game(s))
            done(out[-1])
        return out

    from kabuto.tuning.stopping import ignore_sigint, terminate_now

    ctx = processes.context(preload=("kabuto.lab.match",))
    results: dict[int, GameRecord] = {}
    pool = ctx.Pool(min(workers, len(specs)), initializer=ignore_sigint)
    try:
        for d in pool.imap_unordered(play_json, [s.to_json() for s in specs]):
            r = GameRecord.from_json(d)
            results[r.spec.index] = r
            done(r)
        pool.close()
    except BaseException:
        terminate_now(pool)  # games in flight are dropped, not awaited
        raise
    pool.join()
    return [results[s.index] for s in specs]


def _unreachable(address: str, timeout: float = 3.0) -> str | None:
    """Why nothing answers at a Ray address "HOST:PORT" (None if something does, or if the address
    is not of that form: "auto", "ray://...", which Ray resolves itself)."""
    import socket

    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or "/" in address:
        return None
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


def run_ray(specs: list[GameSpec], workers: int, address: str | None = None,
            progress: Callable[[], None] | None = None,
            on_record: Callable[[GameRecord], None] | None = None,
            on_start: Callable[[], None] | None = None) -> list[GameRecord]:
    """Play ``specs`` as Ray tasks: on the cluster at ``address`` (or ``RAY_ADDRESS``), else on a
    local Ray instance with ``workers`` CPUs. Records come back in spec order. ``on_start`` is
    called once Ray is reached, before the first game."""
    try:
        import ray
    except ImportError:
        raise LabError("--backend ray needs Ray: pip install 'kabuto[ray]'") from None
    started = False
    if not ray.is_initialized():
        addr = address or os.environ.get("RAY_ADDRESS")
        unreachable = _unreachable(addr) if addr else None
        if unreachable:  # else Ray retries for minutes and prints its own log lines
            raise LabError(f"--backend ray: cannot reach the Ray cluster at {addr!r}: {unreachable}")
        try:
            if addr:
                ray.init(address=addr, log_to_driver=False)
            else:
                ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        except Exception as exc:  # ConnectionError, RuntimeError, ...: Ray's own words, one line
            where = f"the Ray cluster at {addr!r}" if addr else "a local Ray instance"
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise LabError(f"--backend ray: cannot reach {where}: {reason}") from None
        started = True
    try:
        if on_start:
            on_start()
        remote = ray.remote(num_cpus=1)(play_json)
        pending = {remote.remote(s.to_json()): s.index for s in specs}
        results: dict[int, GameRecord] = {}
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                results[pending[ref]] = r = GameRecord.from_json(ray.get(ref))
                if on_record:
                    on_record(r)
                if progress:
                    progress()
        return [results[s.index] for s in specs]
    finally:
        if started:
            ray.shutdown()


@dataclass(frozen=True)
class PairStats:
    """How ``wrestler`` did against ``opponent``."""

    wrestler: str
    opponent: str
    games: int
    wins: int
    losses: int
    draws: int

    @property
    def rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else float("nan")

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.wins + 0.5 * self.draws, self.games)


def pair_stats(wrestlers: Sequence[str], records: list[GameRecord]) -> dict[tuple[str, str], PairStats]:
    """{(row, column): stats of row against column} for every ordered pair that met."""
    tally: dict[tuple[str, str], list[int]] = {}
    for r in records:
        ws = r.spec.wrestlers
        for seat, me in enumerate(ws):
            for other_seat, them in enumerate(ws):
                if other_seat == seat:
                    continue
                t = tally.setdefault((me, them), [0, 0, 0, 0])
                t[0] += 1
                if r.winner is None:
                    t[3] += 1
                elif r.winner == seat:
                    t[1] += 1
                else:
                    t[2] += 1
    return {k: PairStats(k[0], k[1], *v) for k, v in tally.items()}


def overall(wrestler: str, stats: dict[tuple[str, str], PairStats]) -> PairStats:
    """``wrestler`` against everybody, pooled."""
    mine = [s for (a, _), s in stats.items() if a == wrestler]
    return PairStats(wrestler, "all", sum(s.games for s in mine), sum(s.wins for s in mine),
                     sum(s.losses for s in mine), sum(s.draws for s in mine))


def _cell(s: PairStats | None) -> str:
    if s is None or not s.games:
        return "-"
    lo, hi = s.ci
    return f"{s.rate:4.0%} ({lo:.0%}-{hi:.0%})"


def matrix_text(wrestlers: Sequence[str], stats: dict[tuple[str, str], PairStats]) -> str:
    """The win-rate matrix as text: each cell 'rate% (low-high)' of the row against the column, and
    each row's rate against everybody."""
    width = 17
    lines = ["win rate of row vs column, 95% Wilson interval (draws count half)",
             " " * 8 + "".join(f"{w:>{width}}" for w in [*wrestlers, "overall"])]
    for a in wrestlers:
        cells = [_cell(None if a == b else stats.get((a, b))) for b in wrestlers]
        cells.append(_cell(overall(a, stats)))
        lines.append(f"{a:<8}" + "".join(f"{c:>{width}}" for c in cells))
    return "\n".join(lines)


# ----- files --------------------------------------------------------------------------------------
def _csv_bytes(header: list[str], rows: list[list[Any]]) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode()


def pairs_csv(wrestlers: Sequence[str], stats: dict[tuple[str, str], PairStats]) -> bytes:
    rows = []
    for a in wrestlers:
        for b in wrestlers:
            s = stats.get((a, b))
            if a != b and s is not None:
                lo, hi = s.ci
                rows.append([a, b, s.games, s.wins, s.losses, s.draws, f"{s.rate:.4f}", f"{lo:.4f}",
                             f"{hi:.4f}"])
    return _csv_bytes(["wrestler", "opponent", "games", "wins", "losses", "draws", "win_rate",
                       "ci95_low", "ci95_high"], rows)


def games_csv(records: list[GameRecord]) -> bytes:
    rows = []
    for r in records:
        s = r.spec
        winner = "" if r.winner is None else s.wrestlers[r.winner]
        rows.append([s.index, s.seed, s.wrestlers[0], s.wrestlers[1], s.levels[0], s.levels[1],
                     s.wrestlers[s.first_player], winner, r.reason, r.turns, r.previews])
    return _csv_bytes(["game", "seed", "seat0", "seat1", "level0", "level1", "first", "winner", "reason",
                       "turns", "previews"], rows)


def heatmap_png(wrestlers: Sequence[str], stats: dict[tuple[str, str], PairStats], title: str) -> bytes:
    """The win-rate matrix as a PNG heat map (matplotlib, Agg): each cell the row wrestler's win
    rate against the column wrestler with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.ticker import PercentFormatter

    from kabuto.rules.wrestlers import wrestler

    names = [wrestler(w).name for w in wrestlers]
    n = len(wrestlers)
    grid = np.full((n, n), np.nan)
    for i, a in enumerate(wrestlers):
        for j, b in enumerate(wrestlers):
            s = stats.get((a, b))
            if a != b and s is not None:
                grid[i, j] = s.rate
    size = 1.6 + 1.25 * n
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    cmap = plt.get_cmap("RdBu").with_extremes(bad="#d8d8d8")
    im = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=0.0, vmax=1.0)
    for i, a in enumerate(wrestlers):
        for j, b in enumerate(wrestlers):
            s = stats.get((a, b))
            if a == b or s is None:
                continue
            lo, hi = s.ci
            dark = abs(s.rate - 0.5) > 0.3
            ax.text(j, i, f"{s.rate:.0%}\n{lo:.0%}-{hi:.0%}\n{s.games} games", ha="center", va="center",
                    fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(n), labels=names, rotation=35, ha="right")
    ax.set_yticks(range(n), labels=names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("wrestler")
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="win rate (draws count half)",
                 format=PercentFormatter(1.0))
    return png_bytes(fig, plt)


def png_bytes(fig: Any, plt: Any) -> bytes:
    """A chart's PNG, every label inside the picture; the figure is closed (charts are made by
    the hundred in one process)."""
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


#: The ledger of a folder of kept games (:mod:`kabuto.lab.ledger`): a line as each game finishes.
GAMES = "games.jsonl"


def save_replay(folder: Path, record: GameRecord) -> list[Path]:
    """Keep one finished game in ``folder``: its replay (``game-NNNN.replay.json``,
    :mod:`kabuto.replay.format`'s format: ``kabuto replay --verify`` checks it), the AI's plans
    beside it (``game-NNNN.ai.json``), and last its line in the folder's ledger (:data:`GAMES`),
    which says the game's files are complete and names the fingerprint of the code and data here
    (:mod:`kabuto.lab.fingerprint`), so a resumed run plays again what other code played
    (:func:`load_kept`). The paths written."""
    stem = folder / f"game-{record.spec.index:04d}"
    try:
        from kabuto.replay import format as rp

        text = rp.dumps(record.replay) if record.replay.get("format") == rp.FORMAT else None
    except ImportError:
        text = None
    replay_path = Path(f"{stem}.replay.json")
    write_atomic(replay_path, (text or json.dumps(record.replay, separators=(",", ":"))).encode())
    ai_path = Path(f"{stem}.ai.json")
    write_atomic(ai_path, json.dumps({"spec": record.spec.to_json(), "plans": record.plans},
                                      separators=(",", ":")).encode())
    ledger.append(folder / GAMES, record)
    return [replay_path, ai_path, folder / GAMES]


def stale_text(count: int, where: Path) -> str:
    """What a resumed run tells of the ``count`` games in ``where`` it plays again."""
    games = "1 game" if count == 1 else f"{count:,} games"
    return (f"{games} in {where} {'was' if count == 1 else 'were'} played by other code or data "
            f"and {'is' if count == 1 else 'are'} played again")


def load_kept(folder: Path, specs: list[GameSpec], run: str = "tournament"
              ) -> tuple[dict[int, GameRecord], int]:
    """The games of ``specs`` kept in ``folder`` (by an interrupted run) that the code and data
    here played, as their ledger lines hold them (results, not replays), and how many lines were
    played by other code or data (an earlier design, an AI since changed: played again).
    LabError if the ledger cannot be read or holds a game of another ``run`` (other settings) at
    one of these indices, or if the folder was kept by an older version (a result file a game, no
    ledger): its games would be played again over its files."""
    if not (folder / GAMES).exists() and any(folder.glob("game-*.result.json")):
        raise LabError(f"--resume: {folder} was kept by an older version of kabuto (a result file "
                       f"a game, no {GAMES}); use another --out folder to play the games again")
    try:
        return ledger.load(folder / GAMES, specs, run)
    except (ledger.LedgerError, OSError) as exc:
        raise LabError(f"--resume: {exc}") from None


def load_games(folder: Path) -> list[GameRecord]:
    """Every game kept in ``folder`` whole, replay and plans included (to play them again), in
    the order they finished; LabError names a file that cannot be read."""
    from kabuto.replay import format as rp

    out: dict[int, GameRecord] = {}
    try:
        for _, record in ledger.read(folder / GAMES, ledger.record_of):
            stem = folder / f"game-{record.spec.index:04d}"
            replay = rp.load(Path(f"{stem}.replay.json")).to_json()
            plans = json.loads(Path(f"{stem}.ai.json").read_text(encoding="utf-8"))["plans"]
            out[record.spec.index] = GameRecord.from_json({**record.to_json(), "replay": replay,
                                                           "plans": plans})
    except (ledger.LedgerError, OSError, ValueError, KeyError, TypeError) as exc:
        raise LabError(f"{folder}: unusable ({exc})") from None
    return list(out.values())


def write_outputs(out: Path, wrestlers: Sequence[str], records: list[GameRecord],
                  stats: dict[tuple[str, str], PairStats], settings: dict[str, Any]) -> list[Path]:
    """Write every output file into ``out`` (created if needed); returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    games = settings["games"]
    title = (f"Kabuto Sumo tournament: {settings['level']} AI, {games} game{'s' if games != 1 else ''} "
             f"per pair, seed {settings['seed']}")
    files = {
        "pairs.csv": pairs_csv(wrestlers, stats),
        "games.csv": games_csv(records),
        "summary.json": json.dumps({
            "settings": settings,
            "pairs": [{**asdict(s), "win_rate": s.rate, "ci95": list(s.ci)} for s in stats.values()],
            "overall": [{**asdict(o), "win_rate": o.rate, "ci95": list(o.ci)}
                        for o in (overall(w, stats) for w in wrestlers)],
        }, indent=1).encode(),
    }
    if importlib.util.find_spec("matplotlib") is not None:  # the picture is optional ('tools' extra)
        files["heatmap.png"] = heatmap_png(wrestlers, stats, title)
    for name, data in files.items():
        write_atomic(out / name, data)
        written.append(out / name)
    return written


