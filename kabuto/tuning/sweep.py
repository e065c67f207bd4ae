"""Run a scenario over a grid of parameter values, on a process pool, and write the table as CSV.

Each grid point is one independent run: materials built from the base materials plus that point's
overrides, a fresh world, the scenario's pushes. physics rebuilds a fresh pymunk Space for every
push from the at-rest state, so a run's numbers depend only on its inputs; rows come back in grid
order whatever the number of workers, and the CSV is byte-identical for 1 worker or 8.
"""
from __future__ import annotations

import concurrent.futures as cf
import csv
import io
import math
import multiprocessing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from kabuto.tuning import params
from kabuto.tuning.errors import TuneError
from kabuto.tuning.scenario import Outcome, Scenario, run_scenario
from physics import Materials
from physics.fileio import write_atomic

FLAGS = ("stalled", "capped")


@dataclass
class SweepResult:
    """The grid and one outcome per grid point, in grid order."""

    scenario: Scenario
    grid: params.Grid
    points: list[dict[str, float]]
    outcomes: list[Outcome]

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


def run_point(scenario: Scenario, materials: Materials, point: dict[str, float]) -> Outcome:
    """One run of ``scenario`` with the overrides of one grid point. ValueError if it cannot run."""
    mat, push = params.split(point)
    m = params.apply(materials, mat)
    params.check_push_values(push, m)
    return run_scenario(scenario, m, push)


def _job(job: tuple[str, dict[str, float]]) -> Outcome | str:
    """A worker's job: an Outcome, or the error message (exceptions are not sent between
    processes, so the message travels instead and the parent raises it with the point named)."""
    assert _worker_state is not None
    scenarios, materials = _worker_state
    name, point = job
    try:
        return run_point(scenarios[name], materials, point)
    except ValueError as exc:
        return str(exc)


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
        self._pool: cf.ProcessPoolExecutor | None = None
        _init_worker(self.scenarios, materials.to_dict())

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def _get_pool(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            # 'spawn' everywhere: the same start-up on every platform, and no fork of a process
            # whose threads (tqdm's monitor) might hold a lock.
            self._pool = cf.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker, initargs=(self.scenarios, self.materials.to_dict()))
        return self._pool

    def run(self, jobs: Sequence[tuple[str, dict[str, float]]], progress: bool = False,
            desc: str = "") -> list[Outcome]:
        """Every job's Outcome, in order; TuneError at the first job that could not run."""
        results: Iterator[Outcome | str]
        if self.workers == 1 or len(jobs) <= 1:
            results = map(_job, jobs)
        else:
            chunk = max(1, min(32, len(jobs) // (self.workers * 8)))
            results = self._get_pool().map(_job, jobs, chunksize=chunk)
        outcomes: list[Outcome] = []
        for i, r in enumerate(tqdm(results, total=len(jobs), desc=desc, unit="run",
                                   disable=not progress, leave=False)):
            if isinstance(r, str):
                name, point = jobs[i]
                shown = ", ".join(f"{k}={v:.6g}" for k, v in point.items())
                raise TuneError(f"{name} run {i} ({shown}): {r}")
            outcomes.append(r)
        return outcomes


def run_sweep(scenario: Scenario, materials: Materials, grid: params.Grid, workers: int = 1,
              progress: bool = True) -> SweepResult:
    """Run the scenario at every grid point."""
    points = grid.points()
    with Runner([scenario], materials, workers) as runner:
        outcomes = runner.run([(scenario.name, p) for p in points], progress, desc=scenario.name)
    return SweepResult(scenario, grid, points, outcomes)


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
