"""Hostile tuning profiles, scenarios and parameters (issue 17): every value out of its physical
bounds is one line naming the field and the bounds with exit status 2 - never an abort, a
traceback or hours of simulating; a sweep range too big to run is refused before it is built."""
from __future__ import annotations

import subprocess
import sys

import pytest

from kabuto.cli import tune as tune_cli
from physics import Materials


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = tune_cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def _profile(tmp_path, edit) -> str:
    data = Materials.load().to_dict()
    edit(data)
    path = tmp_path / "profile.toml"
    # to_toml writes any data; the loader is what must refuse it
    path.write_text(Materials.to_toml.__get__(_Raw(data))())
    return str(path)


class _Raw:
    """Stands in for Materials so that to_toml writes values Materials itself would refuse."""

    def __init__(self, data):
        self._data = data

    def to_dict(self):
        return self._data


def _kind(d):
    return d["kinds"]["small"]


PROFILES = [
    ("radius 1e-300", lambda d: _kind(d).update(shape={"circle": 1e-300}), "shape.circle"),
    ("polygon at 1e300", lambda d: _kind(d).update(
        shape={"polygons": [[[-1e300, -1e300], [1e300, -1e300], [0.0, 1e300]]]}), "polygons[0][0][0]"),
    ("steps per second 10000", lambda d: d["simulation"].update(steps_per_second=10000),
     "simulation.steps_per_second"),
    ("max time 600", lambda d: d["simulation"].update(max_time=600.0), "simulation.max_time"),
    ("hand force 0", lambda d: d["simulation"].update(hand_force=0.0), "simulation.hand_force"),
]


@pytest.mark.parametrize("name,edit,field", PROFILES, ids=[p[0] for p in PROFILES])
def test_a_profile_out_of_bounds_is_one_line_naming_field_and_bounds(capsys, tmp_path, name, edit, field):
    path = _profile(tmp_path, edit)
    rc, out, err = run(capsys, "run", "--scenario", "free-slide", "--materials", path)
    assert rc == 2, (out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert field in err and "must be between" in err, err


def test_the_abort_and_the_traceback_cases_in_a_real_process(tmp_path):
    for _name, edit, _field in PROFILES[:2]:
        path = _profile(tmp_path, edit)
        p = subprocess.run([sys.executable, "-m", "kabuto", "tune", "run", "--scenario", "free-slide",
                            "--materials", path], capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and "must be between" in p.stderr, (p.returncode, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1


def test_a_profile_starting_with_a_byte_order_mark_loads(tmp_path):
    m = Materials.load()
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + m.to_toml(["saved by a Windows editor"]).encode())
    assert Materials.load(path).to_dict() == m.to_dict()


def test_a_scenario_push_or_stand_in_out_of_bounds_is_refused(capsys, tmp_path):
    scen = tmp_path / "fast.toml"
    scen.write_text('[[push]]\npiece = "P"\nkind = "small"\nentry_deg = 0.0\nspeed = 1e300\n'
                    '[[metric]]\nname = "slide_mm"\nwhat = "slide"\npiece = "P"\n')
    rc, _, err = run(capsys, "run", "--scenario", str(scen))
    assert rc == 2 and "push[0].speed: must be between" in err, err
    scen.write_text('[stand_in.tiny]\nlike = "small"\nradius = 1e-300\n' + scen.read_text()
                    .replace("1e300", "0.3"))
    rc, _, err = run(capsys, "run", "--scenario", str(scen))
    assert rc == 2 and "stand_in.tiny.radius: must be between" in err, err


@pytest.mark.parametrize("param", ["simulation.__class__=1", "ring.__dict__=2", "simulation.dt=1"])
def test_a_parameter_that_names_an_attribute_is_an_unknown_parameter(capsys, param):
    rc, _, err = run(capsys, "run", "--scenario", "free-slide", "--param", param)
    assert rc == 2 and "unknown parameter" in err and "Traceback" not in err, err


def test_a_huge_sweep_range_is_refused_before_its_values_are_made(capsys, tmp_path):
    import tracemalloc

    tracemalloc.start()
    rc, _, err = run(capsys, "sweep", "--scenario", "free-slide", "--out", tmp_path / "o",
                     "--param", "table_friction=0.1:0.5:1000000000000")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert rc == 2 and "at most 100000 runs" in err, err
    assert peak < 50 * 1024 * 1024      # the old code built the values first: 2.6 GB, or MemoryError
    assert not (tmp_path / "o").exists()
