"""Run a scenario over a grid of parameter values, on a process pool, and write the table as CSV.

Each grid point is one independent run: materials built from the base materials plus that point's
overrides, a fresh world, the scenario's pushes. physics rebuilds a fresh pymunk Space for every
push from the at-rest state, so a run's numbers depend only on its inputs; rows come back in grid
order whatever the number of workers, and the CSV is byte-identical for 1 worker or 8.

Interrupted sweeps keep their work: with a ``journal`` each finished run is appended to it at once
(one JSON line: its index, its point and its outcome, exact floats), and a sweep started again on
the same journal with ``resume=True`` runs only the points that are missing. Ctrl-C terminates the
workers at once (:mod:`kabuto.tuning.stopping`).
"""
from __future__ import annotations

import csv
import io
import math
import multiprocessing
import multiprocessing.pool
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from kabuto.tuning import params
from kabuto.tuning.errors import TuneError
from kabuto.tuning.scenario import Scenario, ScenarioOutcome, run_scenario
from kabuto.tuning.stopping import ignore_sigint, terminate_now
from kabuto_base import processes
from kabuto_base.fileio import write_atomic
from kabuto_base.ledger import Ledger, LedgerError
from physics import Materials

FLAGS = ("stalled", "capped")


@dataclass
class SweepResult:
    """The grid and one outcome per grid point, in grid order."""

    scenario: Scenario
    grid: params.Grid
    points: list[dict[str, float]]
    outcomes: list[ScenarioOutcome]

    @property
    def columns(self) -> list[str]:
        return [*self.grid.names, *self.scenario.metric_names, *FLAGS]

    def rows(self) -> list[list[float]]:
        out = []
        for point, o in zip(self.points, self.outcomes, strict=True):
            out.append([*(point[n] for n in self.grid.names),
                        *(o.metrics[m] for m in self.scenario.metric_names),
                        float(o.stalled), float(o.capped)])
        return out

    def metric(self, name: str) -> list[float]:
        return [o.metrics[name] for o in self.outcomes]


# ----- running many: in this process or on a pool ----------------------------------------------
_worker_state: tuple[dict[str, Scenario], Materials] | None = None


def _init_worker(scenarios: dict[str, Scenario], materials_data: dict) -> None:
    global _worker_state
    _worker_state = (scenarios, Materials.from_dict(materials_data))


def _init_pool_worker(scenarios: dict[str, Scenario], materials_data: dict) -> None:
    ignore_sigint()
    _init_worker(scenarios, materials_data)


def run_point(scenario: Scenario, materials: Materials, point: dict[str, float]) -> ScenarioOutcome:
    """One run of ``scenario`` with the overrides of one grid point. ValueError if it cannot run."""
    mat, push = params.split(point)
    m = params.apply(materials, mat)
    params.check_push_values(push, m)
    return run_scenario(scenario, m, push)


def _job(job: tuple[str, dict[str, float]]) -> ScenarioOutcome | str:
    """A worker's job: a ScenarioOutcome, or the error message (exceptions are not sent between
    processes, so the message travels instead and the parent raises it with the point named)."""
    assert _worker_state is not None
    scenarios, materials = _worker_state
    name, point = job
    try:
        return run_point(scenarios[name], materials, point)
    except ValueError as exc:
        return str(exc)


def _indexed_job(job: tuple[int, tuple[str, dict[str, float]]]) -> tuple[int, ScenarioOutcome | str]:
    return job[0], _job(job[1])


class Runner:
    """Runs (scenario name, overrides) jobs, in this process (1 worker) or on a process pool kept
    for the Runner's life (start-up is paid once, which matters for a fit's many small batches).

    Results come back in job order, and each is a pure function of its job, so they are the same
    whatever the number of workers. Use as a context manager.
    """

    def __init__(self, scenarios: Sequence[Scenario], materials: Materials, workers: int = 1):
        if workers < 1:
            raise TuneError(f"--workers must be at least 1, got {workers}")
        self.scenarios = {s.name: s for s in scenarios}
        self.materials = materials
        self.workers = workers
        self._pool: multiprocessing.pool.Pool | None = None
        _init_worker(self.scenarios, materials.to_dict())

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is None:
            self.close()
        else:  # Ctrl-C or an error: stop the workers now, never wait for their runs
            self.terminate()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def terminate(self) -> None:
        if self._pool is not None:
            terminate_now(self._pool)
            self._pool = None

    def _get_pool(self) -> multiprocessing.pool.Pool:
        if self._pool is None:
            # The project's one start method: never a fork of this process, whose threads (tqdm's
            # monitor) might hold a lock.
            self._pool = processes.context(preload=("kabuto.tuning.sweep",)).Pool(
                self.workers, initializer=_init_pool_worker,
                initargs=(self.scenarios, self.materials.to_dict()))
        return self._pool

    def run(self, jobs: Sequence[tuple[str, dict[str, float]]], progress: bool = False,
            desc: str = "", on_result: Callable[[int, ScenarioOutcome], None] | None = None) -> list[ScenarioOutcome]:
        """Every job's ScenarioOutcome, in order; TuneError at the first job found that could not run.

        ``on_result(i, outcome)`` is called as each job finishes (in the order they finish, which
        with several workers need not be job order).
        """
        results: Iterator[tuple[int, ScenarioOutcome | str]]
        if self.workers == 1 or len(jobs) <= 1:
            results = map(_indexed_job, enumerate(jobs))
        else:
            chunk = max(1, min(32, len(jobs) // (self.workers * 8)))
            results = self._get_pool().imap_unordered(_indexed_job, list(enumerate(jobs)),
                                                      chunksize=chunk)
        outcomes: dict[int, ScenarioOutcome] = {}
        for i, r in tqdm(results, total=len(jobs), desc=desc, unit="run", disable=not progress,
                         leave=False):
            if isinstance(r, str):
                name, point = jobs[i]
                shown = ", ".join(f"{k}={v:.6g}" for k, v in point.items())
                raise TuneError(f"{name} run {i} ({shown}): {r}")
            outcomes[i] = r
            if on_result is not None:
                on_result(i, r)
        return [outcomes[i] for i in range(len(jobs))]


def run_sweep(scenario: Scenario, materials: Materials, grid: params.Grid, workers: int = 1,
              progress: bool = True, journal: Path | None = None, resume: bool = False
              ) -> SweepResult:
    """Run the scenario at every grid point.

    With ``journal``, each finished run is appended to that file as it finishes; with ``resume``
    the runs already in it (same index, same point) are kept and only the others are run.
    """
    points = grid.points()
    done = read_journal(journal, points) if journal is not None and resume else {}
    todo = [i for i in range(len(points)) if i not in done]
    if journal is not None and not resume and journal.exists():
        journal.unlink()  # a new sweep: the old journal's runs are not this one's
    book = Ledger(journal) if journal is not None else None

    def keep(j: int, outcome: ScenarioOutcome) -> None:
        i = todo[j]
        done[i] = outcome
        if book is not None:  # made with the first finished run: a sweep that fails at once leaves nothing
            book.path.parent.mkdir(parents=True, exist_ok=True)
            # on disk as it finishes: a Ctrl-C or a kill loses no finished run
            book.append({"index": i, "point": points[i], "metrics": outcome.metrics,
                         "stalled": outcome.stalled, "capped": outcome.capped})

    with Runner([scenario], materials, workers) as runner:
        runner.run([(scenario.name, points[i]) for i in todo], progress, desc=scenario.name,
                   on_result=keep)
    return SweepResult(scenario, grid, points, [done[i] for i in range(len(points))])


def read_journal(path: Path, points: list[dict[str, float]]) -> dict[int, ScenarioOutcome]:
    """The finished runs in a sweep's journal (a :class:`kabuto_base.ledger.Ledger`) that belong
    to this grid (same index and point); a line of another grid is skipped. A torn last line (the
    process killed mid-write) is left out; any other unreadable line is a TuneError naming it."""
    out: dict[int, ScenarioOutcome] = {}

    def parse(d: dict[str, Any]) -> tuple[int, ScenarioOutcome] | None:
        i = d["index"]
        if type(i) is int and 0 <= i < len(points) and d["point"] == points[i]:
            return i, ScenarioOutcome({str(k): float(v) for k, v in d["metrics"].items()},
                                      bool(d["stalled"]), bool(d["capped"]))
        return None

    try:
        for _, found in Ledger(path).entries(parse):
            if found is not None:
                out[found[0]] = found[1]
    except (LedgerError, OSError, UnicodeDecodeError) as exc:
        raise TuneError(f"--resume: cannot read {path} ({exc})") from None
    return out


# ----- writing ----------------------------------------------------------------------------------
def _cell(v: float) -> str:
    # repr round-trips a float exactly, so the CSV carries the very numbers the runs produced.
    return repr(float(v)) if math.isfinite(v) else "nan"


def csv_text(result: SweepResult) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(result.columns)
    for row in result.rows():
        w.writerow([_cell(v) for v in row])
    return buf.getvalue()


def write_text_atomic(path: Path, text: str) -> None:
    write_atomic(path, text)


def write_csv(result: SweepResult, path: Path) -> Path:
    write_text_atomic(path, csv_text(result))
    return path
