"""Sweep ranges and parameter names: what a designer types on the command line."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kabuto.tuning import TuneError
from kabuto.tuning.params import check_name, make_grid, parse_range


def test_lo_hi_n_gives_n_evenly_spaced_values_with_both_ends():
    r = parse_range("table_friction=0.2:0.5:7")
    assert r.name == "table_friction"
    assert r.values == pytest.approx((0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5))
    assert r.values[0] == 0.2 and r.values[-1] == 0.5


@given(lo=st.floats(-1e3, 1e3), width=st.floats(1e-3, 1e3), n=st.integers(2, 50))
def test_a_range_always_starts_at_lo_ends_at_hi_and_climbs(lo, width, n):
    hi = lo + width
    r = parse_range(f"x={lo!r}:{hi!r}:{n}")
    assert len(r.values) == n
    assert r.values[0] == lo and r.values[-1] == hi
    assert all(a < b for a, b in zip(r.values, r.values[1:], strict=False))


def test_a_list_and_a_single_value_are_taken_as_given():
    assert parse_range("push.speed=0.3,0.1,0.6").values == (0.3, 0.1, 0.6)
    assert parse_range("mass.small=0.002").values == (0.002,)


@pytest.mark.parametrize("spec, problem", [
    ("table_friction", "expected NAME=LO:HI:N"),
    ("table_friction=0.5:0.2:3", "HI must be greater than LO"),
    ("table_friction=0.2:0.2:3", "HI must be greater than LO"),
    ("table_friction=0.2:0.5:1", "N must be at least 2"),
    ("table_friction=0.2:0.5:2.5", "N must be a whole number"),
    ("table_friction=0.2:0.5", "three numbers"),
    ("table_friction=0.2:x:3", "'x' is not a number"),
    ("table_friction=nan", "not a finite number"),
    ("table_friction=0.2,0.2", "repeated"),
])
def test_a_bad_range_is_refused_naming_it(spec, problem):
    with pytest.raises(TuneError, match=problem):
        parse_range(spec)


@pytest.mark.parametrize("name", ["table_friction", "mass.small", "restitution.large",
                                  "piece_friction", "simulation.hand_force", "ring.radius",
                                  "push.speed", "push.heading_deg"])
def test_known_parameters_are_accepted(name, materials):
    check_name(name, materials)


@pytest.mark.parametrize("name, problem", [
    ("frictoin", "unknown parameter 'frictoin'"),
    ("mass.tiny", "unknown piece kind 'tiny'"),
    ("simulation.warp", "unknown parameter 'simulation.warp'"),
    ("density", "unknown parameter 'density'"),
    ("push.sped", "push parameters: push.speed"),
])
def test_unknown_parameters_are_refused(name, problem, materials):
    with pytest.raises(TuneError, match=problem):
        check_name(name, materials)


def test_a_grid_is_every_combination_with_the_first_parameter_slowest(materials):
    grid = make_grid(["table_friction=0.2:0.4:3", "push.speed=0.3,0.6"], materials)
    assert len(grid) == 6
    points = grid.points()
    assert [p["push.speed"] for p in points] == [0.3, 0.6] * 3
    assert [p["table_friction"] for p in points] == pytest.approx([0.2, 0.2, 0.3, 0.3, 0.4, 0.4])


@pytest.mark.parametrize("specs, problem", [
    (["table_friction=-0.1:0.3:3"], "must be between 0 and 5"),
    (["restitution=0.5:1.5:3"], "must be between 0 and 1"),
    (["push.speed=-0.2:0.4:3"], "push.speed=-0.2: must be between 0.0001 and 20"),
    (["push.heading_deg=0:90:4"], "beyond the platform"),
    (["mass=0.2", "mass=0.3"], "given twice"),
    ([], "no --param"),
])
def test_a_grid_with_values_physics_refuses_fails_before_anything_runs(specs, problem, materials):
    with pytest.raises(TuneError, match=problem):
        make_grid(specs, materials)
