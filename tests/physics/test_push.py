"""The push: a straight line at steady speed from the platform; the shove ends once the piece is
wholly on the ring, and the hand stops with it."""
from __future__ import annotations

import math

import numpy as np
import pytest

from physics import Push, World, shapes
from tests.physics import helpers
from tests.physics.helpers import RING_200, board_2p, slide_distance, stop_distance

#: The platform's range the geometry below was laid out for (the game's is 45 degrees, issue 42):
#: wide enough that a kind's own steepest line, R sin(heading) + r = R, binds before the platform.
WIDE_PLATFORM = {"simulation.heading_limit_deg": 60.0}


def materials(**overrides: float):
    """The default materials on the 200 mm ring these worlds are laid out on, the platform's range
    as wide as :data:`WIDE_PLATFORM`."""
    return helpers.materials(**{**RING_200, **WIDE_PLATFORM, **overrides})


def test_the_piece_starts_wholly_outside_the_ring_touching_its_edge():
    world = World(materials())
    for heading in (-60, -20, 0, 35, 60):
        push = Push("P", "large", entry_deg=70, heading_deg=heading, speed=0.3)
        x, y, a = world.platform_pose(push)
        near, _ = shapes.extent_from_origin(world.materials.kinds["large"].shape, x, y, a)
        assert near == pytest.approx(world.ring.radius, abs=1e-9)


@pytest.mark.parametrize("kind", ["small", "medium", "large"])
@pytest.mark.parametrize("speed", [0.1, 0.3, 0.5])
def test_the_shove_ends_the_instant_the_piece_is_wholly_inside_and_the_hand_stops_with_it(kind, speed):
    """Issue 42: "immediately stop pushing when the piece completely enters the ring". The hand
    slows at ``hand_stop`` with its piece, which comes to rest v^2 / (2 a) further on (to within
    the step's travel) and does not move on its own: where letting go at the hand's speed would
    glide v^2 / (2 mu g) on, 42 mm at 0.5 m/s (a flick)."""
    m = materials()
    world = World(m)
    result = world.push(Push("P", kind, entry_deg=180, heading_deg=0, speed=speed))
    r = m.kinds[kind].shape.radius
    rx, ry, _ = result.released_pose
    # Wholly inside when the shove ends, and not yet inside one step earlier.
    assert math.hypot(rx, ry) + r <= m.ring.radius
    assert math.hypot(rx, ry) + r > m.ring.radius - speed * m.sim.dt * 1.01
    end = world.piece("P")
    step = speed * m.sim.dt
    assert end.x - rx == pytest.approx(stop_distance(speed, m.sim.hand_stop), abs=step)
    assert abs(end.y) < 1e-9 and not result.stalled and not result.capped


@pytest.mark.parametrize("kind", ["small", "medium", "large"])
def test_at_the_hands_top_speed_a_piece_goes_at_most_10_mm_past_where_it_is_wholly_on_the_ring(kind):
    """Issue 42, point 2, on the game's own materials and ring: shoves, not flicks."""
    m = helpers.materials()
    world = World(m)
    top = m.sim.max_speed
    result = world.push(Push("P", kind, entry_deg=30, heading_deg=0, speed=top))
    rx, ry, _ = result.released_pose
    end = world.piece("P")
    travel = math.hypot(end.x - rx, end.y - ry)
    assert travel <= 0.010
    assert travel < slide_distance(top, m.kinds[kind].table_friction) / 4  # far short of a flick's glide


@pytest.mark.parametrize("heading", [-45.0, 0.0, 30.0])
def test_the_driven_piece_cannot_leave_its_line_even_when_it_hits_the_crowd(heading):
    """While the hand drives it, the piece stays on the platform's line to within half a millimetre
    (the platform's own play): Chipmunk's groove is solved iteratively, so a crowd pressing on the
    piece from the side bends it by a fraction of a millimetre, never more."""
    world = board_2p()
    push = Push("P", "medium", entry_deg=200, heading_deg=heading, speed=0.5)
    x0, y0, _ = world.platform_pose(push)
    dx, dy = push.direction()
    result = world.push(push)
    traj = result.trajectory
    col = traj.ids.index("P")
    released = int(result.released_at * traj.rate)
    for t in range(released):
        px, py = traj.poses[t, col, :2]
        lateral = (px - x0) * -dy + (py - y0) * dx
        assert abs(lateral) < 5e-4


def test_a_shove_knocks_a_disc_off_the_far_edge_and_reports_when():
    world = World(materials())
    world.place("S1", "small", -0.06, 0.0)   # in the pushed piece's way: struck at the hand's speed
    result = world.push(Push("M1", "medium", entry_deg=180, heading_deg=0, speed=1.2))
    assert [f.piece for f in result.fell] == ["S1"]
    assert 0 < result.fell[0].time < result.time
    assert "S1" not in world and "M1" in world
    # It left past the far (+x) edge, the way it was shoved.
    col = result.trajectory.ids.index("S1")
    last = result.trajectory.poses[:, col, 0]
    assert np.nanmax(last) > 0.09


def test_pieces_fall_in_order_of_time():
    world = World(materials())
    for i, x in enumerate((-0.03, 0.0, 0.03)):
        world.place(f"S{i}", "small", x, 0.0)
    result = world.push(Push("L", "large", entry_deg=180, heading_deg=0, speed=1.6))
    times = [f.time for f in result.fell]
    assert times == sorted(times) and len(result.fell) >= 1


def test_a_stacked_piece_falls_with_its_base():
    world = World(materials())
    world.place("B", "medium", 0.09, 0.0)          # near the edge, nudged gently over it
    world.place("T", "small", 0.09, 0.0, base="B")
    # Sent off towards the edge (a push's hand now stops with its piece, short of the far edge).
    result = world.launch({"B": (0.5, 0.0, 0.0)})
    fell = {f.piece: f for f in result.fell}
    assert "B" in fell and fell["T"].carried_by == "B" and fell["T"].time == fell["B"].time


def test_a_gentle_shove_carries_a_stacked_piece_along():
    world = World(materials())
    world.place("B", "large", -0.06, 0.0)    # in the shove's reach (the hand stops with its piece)
    world.place("T", "small", -0.06, 0.0, base="B")
    world.push(Push("P", "small", entry_deg=180, heading_deg=0, speed=0.1))
    base, top = world.piece("B"), world.piece("T")
    assert base.x > -0.06 + 1e-3           # the base moved
    assert top.base == "B"                 # the rider stayed on
    assert math.hypot(top.x - base.x, top.y - base.y) < 2e-3


def test_a_hard_jolt_slides_a_stacked_piece_off_its_base_and_it_drops_a_level():
    m = materials(piece_friction=0.05)
    world = World(m)
    world.place("B", "medium", -0.05, 0.0)
    world.place("T", "medium", -0.05, 0.0, base="B")
    world.push(Push("P", "large", entry_deg=180, heading_deg=0, speed=1.4))
    if "T" in world:
        top = world.piece("T")
        assert top.base is None  # it slid off and now stands on the ring surface
        if "B" in world:
            base = world.piece("B")
            assert math.hypot(top.x - base.x, top.y - base.y) > 0.0145


def test_a_piece_stands_on_any_base_its_centre_is_over_and_on_no_other():
    """What the game lets a player stack on what is a rule (kabuto.rules); physically a piece stays
    up on any base under its centre - even a large disc on a small one - and no other."""
    world = World(materials())
    world.place("S", "small", 0.0, 0.0)
    world.place("L", "large", 0.0, 0.0, base="S")
    assert world.piece("L").base == "S" and world.levels()["L"] == 1
    with pytest.raises(ValueError, match="would not be over its base"):
        world.place("M", "medium", 0.0125, 0.0, base="S")  # 12.5 mm out: off the 12 mm disc
    assert "M" not in world


@pytest.mark.parametrize("push, message", [
    (Push("P", "small", 0, heading_deg=61, speed=0.3), "heading_deg"),
    (Push("P", "small", 0, heading_deg=0, speed=-0.3), "speed"),
    (Push("P", "small", 0, heading_deg=0, speed=0.0), "speed"),
    (Push("P", "huge", 0, heading_deg=0, speed=0.3), "kind"),
    (Push("S1", "small", 0, heading_deg=0, speed=0.3), "already on the ring"),
    (Push("P", "small", float("nan"), heading_deg=0, speed=0.3), "entry_deg"),
    (Push("P", "small", 0, heading_deg=float("inf"), speed=0.3), "heading_deg"),
])
def test_an_impossible_push_is_refused_by_name_and_changes_nothing(push, message):
    world = World(materials())
    world.place("S1", "small", 0.0, 0.0)
    before = world.snapshot()
    with pytest.raises(ValueError, match=message):
        world.push(push)
    assert world.snapshot() == before


def test_a_platform_spot_blocked_by_an_overhanging_piece_is_refused():
    world = World(materials())
    world.place("L", "large", 0.0985, 0.0)   # centre inside, hangs 17.5 mm over the edge
    with pytest.raises(ValueError, match="blocked by piece 'L'"):
        world.push(Push("P", "small", 0, 0, 0.3))


def test_a_hand_that_cannot_get_its_piece_in_gives_up_and_says_so():
    # A hand far too weak to shove even one disc.
    m = materials(**{"simulation.hand_force": 0.001, "simulation.max_drive_time": 0.5})
    world = World(m)
    world.place("L", "large", -0.0805, 0.0)
    result = world.push(Push("P", "small", 180, 0, 0.3))
    assert result.stalled


def test_a_polygon_piece_may_not_be_placed_overlapping_a_disc():
    """Overlap is measured the same whichever of the two is the polygon."""
    from physics.materials import piece_type_from_dict
    m = materials()
    bar = piece_type_from_dict("bar", {"shape": {"polygons": [[[-0.015, -0.01], [0.016, -0.01],
                                                               [0.016, 0.01], [-0.015, 0.01]]]},
                                       "thickness": 0.006, "mass": 0.002, "table_friction": 0.3,
                                       "piece_friction": 0.4, "restitution": 0.3}, "bar")
    world = World(m.with_kinds({"bar": bar}))
    world.place("S", "small", 0.0, 0.0)
    with pytest.raises(ValueError, match="overlap piece 'S'"):
        world.place("B", "bar", -0.025, 0.0)      # 2 mm into the disc
    world.place("B", "bar", -0.028, 0.0)          # 1 mm clear of it
    with pytest.raises(ValueError, match="overlap piece 'B'"):
        world.place("S2", "small", -0.028 + 0.016 + 0.009, 0.0)
    assert world.touching("S") == []


def test_a_push_result_holds_plain_python_values():
    """Results go straight into JSON (replays, the CLI): no numpy scalars may leak into them."""
    import json
    world = World(materials())
    result = world.push(Push("P", "small", 180, 0, 0.4))
    json.dumps({"stalled": result.stalled, "capped": result.capped, "released": result.released_at,
                "pose": result.released_pose, "steps": result.steps, "snapshot": result.snapshot})
    assert type(result.stalled) is bool and type(result.capped) is bool


def test_the_animation_ends_exactly_on_the_at_rest_state():
    """Even when the world comes to rest on a step that is also an animation sample (120 = 15 x 8)."""
    world = World(materials())
    r = world.ring.radius - 0.008
    world.place("S0", "small", r * math.cos(math.radians(205)), r * math.sin(math.radians(205)))
    for i, (x, y) in enumerate([(0, 0), (0.03, 0), (0.06, 0), (0, 0.04)]):
        world.place(f"S{i + 1}", "small", x, y)
    result = world.push(Push("P1", "large", entry_deg=180, heading_deg=-50, speed=0.35))
    assert result.steps % round(world.materials.sim.steps_per_second / 60) == 0
    traj = result.trajectory
    for p in world.pieces:
        x, y, a, _ = traj.poses[-1, traj.ids.index(p.id)]
        assert (x, y, a) == (p.x, p.y, p.angle)


def test_an_aim_so_steep_the_piece_could_never_be_wholly_on_the_ring_is_refused():
    """R sin(heading) + r <= R: a large disc (r = 19 mm) can enter at most 54.1 degrees off."""
    world = World(materials())
    assert world.steepest_heading("large") == pytest.approx(math.degrees(math.asin(0.81)))
    assert world.steepest_heading("small") == 60.0          # the platform's own limit binds first
    with pytest.raises(ValueError, match="never be wholly on the ring"):
        world.push(Push("P", "large", 0, heading_deg=55, speed=0.3))
    result = world.push(Push("P", "large", 0, heading_deg=54, speed=0.3))
    assert not result.stalled and "P" in world


@pytest.mark.parametrize("kind, heading_sign", [("medium", 1), ("medium", -1), ("large", 1)])
def test_a_line_that_only_grazes_the_edge_is_let_go_where_it_passes_nearest_the_centre(kind, heading_sign):
    """At a kind's steepest heading its line passes ``R sin(heading) = R - r`` from the centre: the
    piece is wholly in at one point at most, and pushing on would carry it back out. The hand lets
    go there, at the hand's speed, and the piece slides on v^2 / (2 mu g) along the line (it used
    to be driven along the whole chord and off the ring for 8 s, sweeping the rim)."""
    m = materials()
    world = World(m)
    speed = 0.4
    heading = heading_sign * world.steepest_heading(kind)
    push = Push("P", kind, entry_deg=200, heading_deg=heading, speed=speed)
    x0, y0, _ = world.platform_pose(push)
    dx, dy = push.direction()
    along = -(x0 * dx + y0 * dy)                   # from the start to the line's nearest point
    nearest = (x0 + along * dx, y0 + along * dy)
    result = world.push(push)
    rx, ry, _ = result.released_pose
    step = speed * m.sim.dt
    assert math.hypot(rx - nearest[0], ry - nearest[1]) < 1.5 * step
    assert result.released_at == pytest.approx(along / speed, abs=2 * m.sim.dt)
    end = world.piece("P")                          # centre inside: it stays, hanging over the edge
    assert (end.x - rx) * dx + (end.y - ry) * dy == pytest.approx(slide_distance(speed, 0.3), rel=0.05)
    assert math.hypot(end.x, end.y) < m.ring.radius and not result.capped


def test_a_stack_coming_apart_while_the_piece_is_still_in_the_hand_does_not_disturb_the_release():
    """The hand shoves a stack before its piece is in; the rider slips off (the world's layout
    changes mid-drive). The release must still come exactly when the pushed piece is wholly on
    the ring, whatever the scratch memory held."""
    m = materials(piece_friction=0.05)
    world = World(m)
    world.place("B", "medium", -0.07, 0.0)
    world.place("T", "small", -0.07, 0.0, base="B")
    result = world.push(Push("P", "large", entry_deg=180, heading_deg=0, speed=0.5))
    assert world.piece("T").base is None                    # the rider came off its base
    rx, ry, _ = result.released_pose
    r = m.kinds["large"].shape.radius
    assert math.hypot(rx, ry) + r <= m.ring.radius
    assert math.hypot(rx, ry) + r > m.ring.radius - 0.5 * m.sim.dt * 1.01
