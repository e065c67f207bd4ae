"""PNG plots of a sweep: one file per metric, drawn with matplotlib's Agg backend (no display).

The layout follows the number of swept parameters:

* one parameter: the metric against it, a line with a marker per run;
* two: the metric against the first, one line per value of the second (a heatmap when the second
  has more than eight values);
* three or more: one panel per parameter showing the metric's mean over all the other
  parameters' values, with a band from the smallest to the largest.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before pyplot: files only, never a window
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from kabuto.tuning.sweep import SweepResult  # noqa: E402
from kabuto_base.fileio import write_atomic_with  # noqa: E402

MAX_LINES = 8


def axis_label(name: str) -> str:
    """A column name with its unit spelled out: ``slide_mm`` -> ``slide (mm)``."""
    units = {"_mm": "mm", "_deg": "degrees", "_n": "N"}
    for suffix, unit in units.items():
        if name.endswith(suffix):
            return f"{name[: -len(suffix)]} ({unit})"
    known = {"table_friction": "table friction (mu)", "piece_friction": "piece friction (mu)",
             "push.speed": "push speed (m/s)", "restitution": "restitution"}
    if name in known:
        return known[name]
    if name.startswith("mass."):
        return f"{name} (kg)"
    return name


def _values(result: SweepResult, metric: str) -> np.ndarray:
    """The metric as an array shaped like the grid (one axis per parameter)."""
    shape = [len(r.values) for r in result.grid.ranges]
    return np.array(result.metric(metric), dtype=float).reshape(shape)


def plot_metric(result: SweepResult, metric: str, path: Path) -> Path:
    """Draw one metric of the sweep into ``path`` (PNG, written atomically)."""
    ranges = result.grid.ranges
    values = _values(result, metric)
    title = f"{result.scenario.name}: {metric}"
    if len(ranges) == 1:
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        ax.plot(ranges[0].values, values, marker="o")
        ax.set_xlabel(axis_label(ranges[0].name))
        ax.set_ylabel(axis_label(metric))
        ax.grid(True, alpha=0.3)
    elif len(ranges) == 2 and len(ranges[1].values) <= MAX_LINES:
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        colours = plt.cm.viridis(np.linspace(0.0, 0.9, len(ranges[1].values)))
        for j, v in enumerate(ranges[1].values):
            ax.plot(ranges[0].values, values[:, j], marker="o", color=colours[j],
                    label=f"{ranges[1].name} = {v:.4g}")
        ax.set_xlabel(axis_label(ranges[0].name))
        ax.set_ylabel(axis_label(metric))
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    elif len(ranges) == 2:
        fig, ax = plt.subplots(figsize=(6.4, 4.8))
        x, y = np.asarray(ranges[0].values), np.asarray(ranges[1].values)
        mesh = ax.pcolormesh(x, y, values.T, shading="nearest", cmap="viridis")
        fig.colorbar(mesh, ax=ax, label=axis_label(metric))
        ax.set_xlabel(axis_label(ranges[0].name))
        ax.set_ylabel(axis_label(ranges[1].name))
    else:
        n = len(ranges)
        fig, axes = plt.subplots(1, n, figsize=(3.6 * n, 3.8), sharey=True)
        for i, (ax, r) in enumerate(zip(axes, ranges, strict=True)):
            others = tuple(k for k in range(n) if k != i)
            mean, lo, hi = (f(values, axis=others) for f in (np.mean, np.min, np.max))
            ax.fill_between(r.values, lo, hi, alpha=0.25, label="min..max")
            ax.plot(r.values, mean, marker="o", label="mean")
            ax.set_xlabel(axis_label(r.name))
            ax.grid(True, alpha=0.3)
        axes[0].set_ylabel(axis_label(metric))
        axes[0].legend(fontsize="small")
        title += " (each panel: over all values of the other parameters)"
    fig.suptitle(title)
    fig.tight_layout()

    def save(tmp: str) -> None:
        # No metadata: the same sweep gives the same bytes.
        fig.savefig(tmp, format="png", dpi=100, metadata={"Software": None})

    try:
        write_atomic_with(path, save)
    finally:
        plt.close(fig)
    return path


def plot_sweep(result: SweepResult, folder: Path) -> list[Path]:
    """One PNG per metric in ``folder``, named ``SCENARIO-METRIC.png``; returns their paths."""
    return [plot_metric(result, m, folder / f"{result.scenario.name}-{m}.png")
            for m in result.scenario.metric_names]
