"""The app's pure parts: aiming geometry, trajectory playback, tuning profiles. No window."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kabuto.app.aim import MIN_DRAG, Aim, Limits, entry_towards, heading_towards, nudge
from kabuto.app.animation import Playback
from kabuto.app.tuning import load_profile, save_profile
from physics import Materials, Push, World

R = Materials.load().ring.radius
LIMITS = Limits(heading_deg=60.0, min_speed=0.02, max_speed=2.0)


@settings(max_examples=60, deadline=None)
@given(entry=st.floats(-180, 180), tx=st.floats(-0.09, 0.09), ty=st.floats(-0.09, 0.09))
def test_a_drag_aims_the_push_at_the_pointer_or_as_near_as_the_platform_allows(entry, tx, ty):
    aim = heading_towards(Aim(entry_deg=entry), tx, ty, R, LIMITS)
    ex, ey = aim.entry_point(R)
    if math.hypot(tx - ex, ty - ey) < MIN_DRAG:   # a pointer on the platform itself turns nothing
        assert aim == Aim(entry_deg=entry)
        return
    dx, dy = aim.direction()
    want = math.degrees(math.atan2(ty - ey, tx - ex))
    got = math.degrees(math.atan2(dy, dx))
    off = (got - want + 180) % 360 - 180
    assert abs(aim.heading_deg) <= LIMITS.heading_deg + 1e-9
    if abs(aim.heading_deg) < LIMITS.heading_deg - 1e-6:
        assert abs(off) < 1e-6  # within range: straight at the pointer
    else:
        # held at the limit: the pointer lies further round, on the same side
        assert off * aim.heading_deg <= 1e-9 or abs(off) < 1e-6
    # The preview line's far end is back on the ring edge.
    fx, fy = aim.exit_point(R)
    assert math.hypot(fx, fy) == pytest.approx(R, rel=1e-9)


def test_pressing_at_a_spot_moves_the_platform_there_and_nudges_are_fine_steps():
    aim = entry_towards(Aim(), 0.0, -0.2, LIMITS)          # below the ring
    assert aim.entry_deg == pytest.approx(-90.0)
    aim = nudge(aim, LIMITS, entry=1)
    assert aim.entry_deg == pytest.approx(-89.0)
    aim = nudge(aim, LIMITS, heading=1, fine=True)
    assert aim.heading_deg == pytest.approx(0.2)
    fast = nudge(Aim(speed=1.99), LIMITS, speed=5)
    assert fast.speed == LIMITS.max_speed                    # held within the hand's range


def _crowd() -> World:
    """A few small discs; S0 sits 8 mm inside the edge, 35 degrees round from the platform at 180
    degrees, where a push turned along the edge (SHOVE) runs into it and knocks it off."""
    w = World.empty()
    a = math.radians(215.0)
    w.place("S0", "small", (R - 0.008) * math.cos(a), (R - 0.008) * math.sin(a))
    for i, (x, y) in enumerate([(0.0, 0.0), (0.03, 0.0), (0.06, 0.0), (0.0, 0.04)], start=1):
        w.place(f"S{i}", "small", x, y)
    return w


# At the hand's top speed (a careful push: the rules forbid flicking), turned clockwise as far as the
# platform allows (simulation.heading_limit_deg).
_SIM = Materials.load().sim
SHOVE = Push("P1", "large", entry_deg=180, heading_deg=-_SIM.heading_limit_deg, speed=_SIM.max_speed)


def test_playback_at_real_speed_ends_where_the_physics_put_the_pieces():
    world = _crowd()
    result = world.push(SHOVE)
    assert result.fell, "this push is meant to knock something off"
    traj = result.trajectory
    play = Playback(traj)
    departed = []
    frames = 0
    while not play.done:
        departed += play.advance(1 / 60)
        frames += 1
    # Real speed: one 60 Hz frame per trajectory sample.
    assert frames == pytest.approx(traj.duration * 60, abs=1)
    assert sorted(d.piece for d in departed) == sorted(result.fell_ids)
    final = play.poses()
    for p in world.pieces:
        x, y, a, _ = final[p.id]
        i = traj.ids.index(p.id)
        assert (x, y) == (traj.poses[-1, i, 0], traj.poses[-1, i, 1])  # the last sample, exactly
        # ... which is where the pieces came to rest, to far under a pixel. (Not exactly: the
        # physics leaves out the final state when it comes to rest on a sampling step; the table
        # draws the at-rest state itself when a push lands, see test_table.)
        assert (x, y) == pytest.approx((p.x, p.y), abs=1e-4)


def test_playback_interpolates_between_samples_and_reports_each_fall_once():
    world = _crowd()
    result = world.push(SHOVE)
    play = Playback(result.trajectory)
    traj = result.trajectory
    i = traj.ids.index("P1")
    play.seek(2.5 / 60)
    x = play.poses()["P1"][0]
    lo, hi = sorted((traj.poses[2, i, 0], traj.poses[3, i, 0]))
    assert lo <= x <= hi
    assert play.advance(100.0) != [] and play.advance(1.0) == []


def test_a_saved_tuning_profile_loads_as_the_same_materials(tmp_path):
    base = Materials.load()
    tuned = base.with_overrides({"table_friction.medium": 0.17, "mass.small": 0.002,
                                 "restitution.large": 0.55})
    path = save_profile(tuned, tmp_path / "p.toml")
    assert Materials.load(path) == tuned
    assert [p.name for p in tmp_path.iterdir()] == ["p.toml"]  # no temp file left behind


def test_a_profile_without_some_kinds_keeps_them_from_the_game(tmp_path):
    base = Materials.load()
    extra = base.with_kinds({"odd": base.kinds["small"]})
    path = save_profile(base, tmp_path / "p.toml")
    loaded = load_profile(path, base=extra)
    assert "odd" in loaded.kinds and loaded.kinds["small"] == base.kinds["small"]


def test_a_broken_profile_is_refused_with_the_key_named(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[kinds.small]\nshape = { circle = 0.011 }\n"
                    "thickness = 0.006\nmass = 0.001\ntable_friction = -1\npiece_friction = 0.4\n"
                    "restitution = 0.3\n")
    with pytest.raises(ValueError, match="table_friction"):
        load_profile(path)
