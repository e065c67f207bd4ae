"""The `kabuto tune sweep` help's example sweeps mass where mass matters (a collision): run as
printed, the metric it is about changes across the sweep, several-fold."""
from __future__ import annotations

import csv
import shlex
import subprocess
import sys


def test_the_sweep_example_sweeps_mass_on_a_collision_and_its_metric_moves(tmp_path):
    help_text = subprocess.run([sys.executable, "-m", "kabuto", "tune", "sweep", "--help"], capture_output=True,
                               text=True, check=True).stdout
    example = next(line.strip() for line in help_text.splitlines() if line.strip().startswith("kabuto tune sweep"))
    args = shlex.split(example)[1:]
    assert "mass.small" in example and "small-hits-large" in example
    subprocess.run([sys.executable, "-m", "kabuto", *args, "--out", str(tmp_path), "--no-plots", "--quiet",
                    "--workers", "1"], check=True, capture_output=True, timeout=600)
    [table] = tmp_path.glob("*.csv")
    rows = list(csv.DictReader(table.open()))
    assert len(rows) >= 3
    moved = [float(r["target_mm"]) for r in rows]
    assert max(moved) > 2 * min(moved) > 0, moved  # the large disc goes further the heavier the small
