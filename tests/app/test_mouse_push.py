"""End to end: a real window, real mouse events from the X server, a real push.

The pointer goes to the ring's left edge, the left button drags up and to the right into the ring,
and is released. The piece must leave the platform where the press was, travel along the line the
drag aimed, and end where the physics puts that exact push.
"""
from __future__ import annotations

import math

import pytest

from tests.app import xinput

pytestmark = pytest.mark.skipif(xinput.XDOTOOL is None, reason="xdotool is not installed")


def test_drag_from_the_edge_aims_and_release_pushes(app_window):
    from kabuto.app.scene.table import TableScene
    from kabuto.app.session import SandboxSession
    from physics import Materials, Push, World

    mats = Materials.load()
    session = SandboxSession(mats, world=World(mats))  # an empty ring: the path is the aim
    scene = app_window.set_scene(TableScene(app_window, session, ai_delay=0))
    xinput.map_window(app_window)
    R = mats.ring.radius
    t = scene.ring.transform
    press = t.to_screen(-R, 0.0)                  # the ring's left edge (entry 180 degrees)
    aim_at = t.to_screen(-0.3 * R, 0.45 * R)      # up and to the right, inside the ring
    xinput.drag(app_window, press, aim_at)
    assert xinput.pump_until(app_window, lambda: scene.pushes == 1), "the release did not push"

    aim = scene.aim
    # The press put the platform on the left edge; the drag aimed up-right (heading > 0 turns the
    # push counter-clockwise from the inward normal, i.e. upwards from the left edge).
    assert abs(aim.entry_deg - 180.0) < 1.5 or abs(aim.entry_deg + 180.0) < 1.5
    want = math.degrees(math.atan2(0.45 * R, 0.7 * R))
    assert aim.heading_deg == pytest.approx(want, abs=2.0)

    xinput.pump_until(app_window, lambda: scene.mode == "aim")
    (piece,) = session.world().pieces
    assert piece.y > 0.005, "the piece should end above the centre line, where the aim pointed"
    # It lies on the aimed line (the empty ring has nothing to deflect it) ...
    ex, ey = aim.entry_point(R)
    dx, dy = aim.direction()
    off_line = abs((piece.x - ex) * dy - (piece.y - ey) * dx)
    assert off_line < 1e-3
    # ... exactly where the physics puts that push.
    ref = World(mats)
    ref.push(Push(piece.id, piece.kind, aim.entry_deg, aim.heading_deg, aim.speed))
    (expect,) = ref.pieces
    assert (piece.x, piece.y) == pytest.approx((expect.x, expect.y), abs=1e-9)
