"""``kabuto tune sweep``: reproducible CSVs, plots, and one-line errors."""
from __future__ import annotations

import csv
import io
import math

import pytest

from kabuto.cli.tune import main
from kabuto.tuning.scenario import load_scenario

CROWD = ["sweep", "--scenario", "crowd-2p", "--param", "table_friction=0.25:0.35:3",
         "--param", "push.speed=0.4,0.9", "--quiet"]


def _sweep(tmp_path, name, *extra):
    out = tmp_path / name
    assert main([*CROWD, "--out", str(out), *extra]) == 0
    return out


def test_the_same_sweep_twice_gives_the_same_csv_and_one_worker_or_two_agree(tmp_path):
    # The crowded board is the most sensitive scenario: any hidden state or ordering would show.
    first = _sweep(tmp_path, "a", "--workers", "1", "--no-plots")
    again = _sweep(tmp_path, "b", "--workers", "1", "--no-plots")
    pooled = _sweep(tmp_path, "c", "--workers", "2", "--no-plots")
    text = (first / "crowd-2p.csv").read_bytes()
    assert text == (again / "crowd-2p.csv").read_bytes()
    assert text == (pooled / "crowd-2p.csv").read_bytes()
    rows = list(csv.DictReader(io.StringIO(text.decode())))
    assert len(rows) == 6
    # A harder push moves the wrestler it is aimed at further, at every friction.
    for soft, hard in zip(rows[0::2], rows[1::2], strict=True):
        assert soft["table_friction"] == hard["table_friction"]
        assert float(soft["wrestler_mm"]) < float(hard["wrestler_mm"])


def test_a_sweep_writes_a_csv_row_per_run_and_a_png_per_metric(tmp_path, capsys):
    out = tmp_path / "o"
    assert main(["sweep", "--scenario", "free-slide", "--param", "table_friction=0.2:0.5:4",
                 "--out", str(out), "--workers", "1", "--quiet"]) == 0
    with open(out / "free-slide.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["table_friction", "slide_mm", "knocked_out", "stalled", "capped"]
    assert [float(r[0]) for r in rows[1:]] == pytest.approx([0.2, 0.3, 0.4, 0.5])
    slides = [float(r[1]) for r in rows[1:]]
    assert slides == sorted(slides, reverse=True)        # more friction, shorter slides
    for metric in ("slide_mm", "knocked_out"):
        png = (out / f"free-slide-{metric}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
    assert "wrote" in capsys.readouterr().out


def test_plots_for_three_parameters_and_a_wide_second_parameter_are_drawn(tmp_path):
    out = tmp_path / "o"
    assert main(["sweep", "--scenario", "head-on", "--param", "table_friction=0.25,0.35",
                 "--param", "restitution=0.1:0.9:9", "--out", str(out), "--workers", "1",
                 "--quiet"]) == 0
    assert (out / "head-on-target_mm.png").stat().st_size > 5000
    out3 = tmp_path / "o3"
    assert main(["sweep", "--scenario", "head-on", "--param", "table_friction=0.25,0.35",
                 "--param", "restitution=0.2,0.6", "--param", "push.speed=0.4,0.6",
                 "--out", str(out3), "--workers", "1", "--quiet", ]) == 0
    assert (out3 / "head-on-target_mm.png").stat().st_size > 5000


@pytest.mark.parametrize("args, problem", [
    (["--scenario", "nope", "--param", "table_friction=0.2:0.5:3"], "unknown scenario 'nope'"),
    (["--scenario", "free-slide", "--param", "table_friction=0.5:0.2:3"], "HI must be greater"),
    (["--scenario", "free-slide", "--param", "frictoin=0.2:0.5:3"], "unknown parameter 'frictoin'"),
    (["--scenario", "free-slide", "--param", "mass.small=0:0.002:3"], "must be between"),
    (["--scenario", "free-slide", "--param", "table_friction=0.3", "--workers", "0"],
     "--workers must be at least 1"),
])
def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path, capsys, args, problem):
    out = tmp_path / "never"
    assert main(["sweep", *args, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert problem in err
    assert err.count("\n") == 1 and err.startswith("kabuto tune: ")
    assert not out.exists()


def test_a_run_that_physics_refuses_stops_the_sweep_naming_the_point(tmp_path, capsys):
    # A ring two thirds as wide as the head-on target stands from the centre leaves it off the ring.
    [target] = load_scenario("head-on").pieces
    small = f"{round(2 / 3 * math.hypot(target.x, target.y), 3):g}"
    out = tmp_path / "never"
    assert main(["sweep", "--scenario", "head-on", "--param", f"ring.radius={small},0.1",
                 "--out", str(out), "--workers", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"ring.radius={small}" in err and "off the ring" in err and err.count("\n") == 1
    assert not out.exists()


def test_a_scenario_file_given_by_path_is_checked(tmp_path, capsys):
    bad = tmp_path / "mine.toml"
    bad.write_text('[[push]]\npiece = "P"\nkind = "huge"\nentry_deg = 0\n'
                   '[[metric]]\nname = "s"\nwhat = "slide"\npiece = "P"\n')
    assert main(["run", "--scenario", str(bad)]) == 2
    assert "unknown piece kind 'huge'" in capsys.readouterr().err
    bad.write_text("[[push]\n")
    assert main(["run", "--scenario", str(bad)]) == 2
    assert "mine.toml: not valid TOML" in capsys.readouterr().err


def test_run_prints_each_metric(capsys):
    assert main(["run", "--scenario", "free-slide", "--param", "table_friction=0.3"]) == 0
    lines = dict(line.split(" = ") for line in capsys.readouterr().out.splitlines())
    assert set(lines) == {"slide_mm", "knocked_out"}
    assert math.isfinite(float(lines["slide_mm"]))


def test_list_names_every_scenario(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in ("free-slide", "head-on", "line-of-three", "crowd-2p", "stack-jolt"):
        assert f"{name}:" in out
