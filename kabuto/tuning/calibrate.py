"""Fit material parameters to measurements made at the table, with scipy.optimize.

A targets file says what was measured and which parameters may move (format in ``docs/tuning.md``)::

    [fit]                                   # parameter = [low, high]
    table_friction = [0.1, 0.8]
    "mass.small" = [0.0005, 0.004]

    [[target]]
    label = "a small disc pushed at 0.3 m/s slides 15 mm"
    scenario = "free-slide"                 # a scenario name (or a path to a scenario file)
    metric = "slide_mm"                     # one of that scenario's metrics
    value = 15.0                            # what was measured
    sigma = 1.0                             # how sure (same unit); residuals are in sigmas
    set = { "push.speed" = 0.3 }            # optional: conditions of this measurement

The fit is bounded non-linear least squares (``scipy.optimize.least_squares``, trust-region
reflective) on the parameters rescaled to [0, 1] within their bounds, so a mass in kilograms and a
friction coefficient weigh alike. The Jacobian is taken by forward differences of 1% of each
parameter's range - large enough to step over the simulation's tiny step-to-step jitter - and its
runs go out together to the process pool. The start is the base materials' value (clamped into
the bounds). Everything is deterministic: the same files give the same fit, whatever the workers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import least_squares
from tqdm import tqdm

from kabuto.tuning import params
from kabuto.tuning.errors import TuneError
from kabuto.tuning.scenario import Scenario, load_scenario
from kabuto.tuning.sweep import Runner
from kabuto_base.fileio import read_toml
from kabuto_base.numbers import finite_number, is_finite_number
from physics import Materials

DIFF_STEP = 0.01


@dataclass(frozen=True)
class FitParam:
    name: str
    low: float
    high: float


@dataclass(frozen=True)
class Target:
    """One measurement: the metric a scenario reports, and the value measured at the table."""

    label: str
    scenario: str
    metric: str
    value: float
    sigma: float
    settings: tuple[tuple[str, float], ...] = ()

    @property
    def condition(self) -> tuple[str, tuple[tuple[str, float], ...]]:
        """Targets with the same scenario and settings are read off one run."""
        return self.scenario, self.settings


@dataclass(frozen=True)
class Targets:
    params: tuple[FitParam, ...]
    targets: tuple[Target, ...]
    scenarios: tuple[Scenario, ...]
    source: str = ""


@dataclass
class Calibration:
    """A finished fit."""

    targets: Targets
    start: dict[str, float]
    fitted: dict[str, float]
    model: list[float]
    materials: Materials
    evaluations: int
    runs: int
    success: bool
    message: str

    @property
    def residuals(self) -> list[float]:
        """Model minus measurement, in the metric's unit."""
        return [m - t.value for m, t in zip(self.model, self.targets.targets, strict=True)]

    def at_bound(self, name: str) -> bool:
        p = next(p for p in self.targets.params if p.name == name)
        span = p.high - p.low
        v = self.fitted[name]
        return v - p.low <= 1e-6 * span or p.high - v <= 1e-6 * span


# ----- the targets file -------------------------------------------------------------------------
def load_targets(path: str | Path, materials: Materials) -> Targets:
    """Read and check a targets file against ``materials``; TuneError names the first problem."""
    path = Path(path)
    try:
        data = read_toml(path)
    except ValueError as exc:
        raise TuneError(str(exc)) from None
    return targets_from_dict(data, materials, path.name)


def targets_from_dict(data: Any, materials: Materials, where: str = "targets") -> Targets:
    for k in data:
        if k not in ("description", "fit", "target"):
            raise TuneError(f"{where}: {k}: unknown key (expected description, [fit], [[target]])")
    fit = data.get("fit")
    if not isinstance(fit, dict) or not fit:
        raise TuneError(f"{where}: [fit] must name at least one parameter = [low, high]")
    fps = []
    for name, b in fit.items():
        w = f"{where}: fit.{name}"
        if params.is_push_param(name):
            raise TuneError(f"{w}: push settings cannot be fitted (set them per target with set)")
        params.check_name(name, materials)
        if not isinstance(b, list) or len(b) != 2 or not all(is_finite_number(x) for x in b):
            raise TuneError(f"{w}: bounds must be [low, high] (two numbers)")
        lo, hi = float(b[0]), float(b[1])
        if not hi > lo:
            raise TuneError(f"{w}: high must be greater than low, got [{lo:g}, {hi:g}]")
        for v in (lo, hi):
            try:
                params.apply(materials, {name: v})
            except TuneError as exc:
                raise TuneError(f"{w}: bound {v:g} is not allowed ({exc})") from None
        fps.append(FitParam(name, lo, hi))
    fitted = {p.name for p in fps}

    raw = data.get("target")
    if not isinstance(raw, list) or not raw or not all(isinstance(t, dict) for t in raw):
        raise TuneError(f"{where}: needs at least one [[target]]")
    scenarios: dict[str, Scenario] = {}
    targets = []
    for i, t in enumerate(raw):
        w = f"{where}: target[{i}]"
        for k in t:
            if k not in ("label", "scenario", "metric", "value", "sigma", "set", "note"):
                raise TuneError(f"{w}.{k}: unknown key (expected label, scenario, metric, value,"
                                " sigma, set)")
        for k in ("scenario", "metric", "value"):
            if k not in t:
                raise TuneError(f"{w}.{k}: missing")
        if not isinstance(t["scenario"], str) or not isinstance(t["metric"], str):
            raise TuneError(f"{w}: scenario and metric must be strings")
        s = load_scenario(t["scenario"])
        if s.name in scenarios and scenarios[s.name].source != s.source:
            raise TuneError(f"{w}.scenario: two different scenario files are both named {s.name!r}")
        scenarios[s.name] = s
        if t["metric"] not in s.metric_names:
            raise TuneError(f"{w}.metric: scenario {s.name} has no metric {t['metric']!r} "
                            f"(it has {', '.join(s.metric_names)})")
        value = _finite(t["value"], f"{w}.value")
        sigma = _finite(t.get("sigma", 1.0), f"{w}.sigma")
        if sigma <= 0:
            raise TuneError(f"{w}.sigma: must be positive, got {sigma:g}")
        settings = t.get("set", {})
        if not isinstance(settings, dict):
            raise TuneError(f"{w}.set: expected a table of parameter = value")
        fixed = []
        for k, v in settings.items():
            if k in fitted:
                raise TuneError(f"{w}.set.{k}: is being fitted, so it cannot also be set")
            params.check_name(k, materials)
            fixed.append((k, _finite(v, f"{w}.set.{k}")))
        m = params.apply(materials, dict(fixed))
        params.check_push_values(params.split(dict(fixed))[1], m)
        label = t.get("label") or f"{s.name} {t['metric']}"
        if not isinstance(label, str):
            raise TuneError(f"{w}.label: must be a string")
        targets.append(Target(label, s.name, t["metric"], value, sigma, tuple(fixed)))
    return Targets(tuple(fps), tuple(targets), tuple(scenarios.values()), where)


def _finite(v: Any, where: str) -> float:
    return finite_number(v, where, TuneError)


# ----- fitting ----------------------------------------------------------------------------------
def calibrate(targets: Targets, materials: Materials, workers: int = 1,
              max_evals: int = 60, progress: bool = False) -> Calibration:
    """Fit ``targets.params`` within their bounds so the scenarios' metrics match the targets.

    Returns the fit whether or not the optimizer converged (``success`` and ``message`` say);
    raises TuneError if a model run fails or gives no number for a target.
    """
    fps = targets.params
    lo = np.array([p.low for p in fps])
    span = np.array([p.high - p.low for p in fps])
    start = {p.name: min(max(params.current_value(materials, p.name), p.low), p.high) for p in fps}
    u0 = (np.array([start[p.name] for p in fps]) - lo) / span
    # least_squares wants a strictly interior start; nudge a start that sits on a bound.
    u0 = np.clip(u0, 1e-6, 1 - 1e-6)
    conditions = list(dict.fromkeys(t.condition for t in targets.targets))
    sigma = np.array([t.sigma for t in targets.targets])
    value = np.array([t.value for t in targets.targets])
    cache: dict[bytes, np.ndarray] = {}
    counts = {"evals": 0, "runs": 0}

    def to_params(u: np.ndarray) -> dict[str, float]:
        x = lo + np.clip(u, 0.0, 1.0) * span
        return {p.name: float(v) for p, v in zip(fps, x, strict=True)}

    def models(us: list[np.ndarray]) -> list[np.ndarray]:
        """The model's value for every target at each u; one batch of runs for all of them."""
        jobs = []
        for u in us:
            fit = to_params(u)
            jobs += [(scen, {**dict(settings), **fit}) for scen, settings in conditions]
        outcomes = runner.run(jobs)
        counts["runs"] += len(jobs)
        out = []
        for k, u in enumerate(us):
            by_cond = dict(zip(conditions, outcomes[k * len(conditions):(k + 1) * len(conditions)],
                               strict=True))
            vals = np.array([by_cond[t.condition].metrics[t.metric] for t in targets.targets])
            bad = [t.label for t, v in zip(targets.targets, vals, strict=True) if not math.isfinite(v)]
            if bad:
                raise TuneError(f"target {bad[0]!r}: the model gives no number at "
                                + ", ".join(f"{k}={v:.6g}" for k, v in to_params(u).items()))
            cache[u.tobytes()] = vals
            out.append(vals)
        return out

    def residuals(u: np.ndarray) -> np.ndarray:
        counts["evals"] += 1
        bar.update(1)
        vals = cache.get(u.tobytes())
        if vals is None:
            vals = models([u])[0]
        return (vals - value) / sigma

    def jacobian(u: np.ndarray) -> np.ndarray:
        # Forward differences (backward at the upper bound), all runs in one parallel batch.
        steps = [DIFF_STEP if u[i] + DIFF_STEP <= 1.0 else -DIFF_STEP for i in range(len(u))]
        points = []
        for i, h in enumerate(steps):
            v = u.copy()
            v[i] += h
            points.append(v)
        base = cache.get(u.tobytes())
        batch = models(points if base is not None else [u, *points])
        if base is None:
            base, batch = batch[0], batch[1:]
        return np.column_stack([(b - base) / (h * sigma) for b, h in zip(batch, steps, strict=True)])

    bar = tqdm(total=max_evals, desc="calibrate", unit="eval", disable=not progress, leave=False)
    with bar, Runner(targets.scenarios, materials, workers) as runner:
        sol = least_squares(residuals, u0, jac=jacobian, bounds=(0.0, 1.0), method="trf",
                            x_scale=1.0, max_nfev=max_evals)
        fitted = to_params(sol.x)
        final = models([sol.x])[0]
    return Calibration(targets, start, fitted, [float(v) for v in final],
                       params.apply(materials, fitted), counts["evals"], counts["runs"],
                       bool(sol.success), str(sol.message))


# ----- reporting --------------------------------------------------------------------------------
def report(cal: Calibration) -> str:
    """The fit and each residual, as a small table."""
    t = cal.targets
    lines = [f"fitted {len(t.params)} parameter(s) to {len(t.targets)} target(s): "
             f"{cal.evaluations} evaluations, {cal.runs} model runs; "
             f"{'converged' if cal.success else 'NOT converged'} ({cal.message})"]
    if len(t.targets) < len(t.params):
        lines.append("note: fewer targets than parameters, so the fit is not unique; it is the "
                     "solution nearest the start")
    w = max(len(p.name) for p in t.params)
    lines.append(f"  {'parameter':<{w}}  {'start':>11}  {'fitted':>11}  bounds")
    for p in t.params:
        flag = "  (at a bound)" if cal.at_bound(p.name) else ""
        lines.append(f"  {p.name:<{w}}  {cal.start[p.name]:>11.5g}  {cal.fitted[p.name]:>11.5g}  "
                     f"[{p.low:g}, {p.high:g}]{flag}")
    lw = max(len(x.label) for x in t.targets)
    lines.append(f"  {'target':<{lw}}  {'measured':>9}  {'model':>9}  {'residual':>9}  sigmas")
    for x, m, r in zip(t.targets, cal.model, cal.residuals, strict=True):
        lines.append(f"  {x.label:<{lw}}  {x.value:>9.4g}  {m:>9.4g}  {r:>+9.3g}  {r / x.sigma:>+6.2f}")
    rms = math.sqrt(sum((r / x.sigma) ** 2 for r, x in zip(cal.residuals, t.targets, strict=True)) / len(t.targets))
    lines.append(f"  rms residual: {rms:.3g} sigma")
    return "\n".join(lines)
