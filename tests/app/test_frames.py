"""Cheap frames: while a push plays, the table repairs only what moved, and what the player sees
must be exactly what a whole redraw shows. Real windows under Xvfb; the pixels on screen are read
from the X server, those of a whole redraw from GL's back buffer."""
from __future__ import annotations

import numpy as np
import pytest


def _back_buffer(win) -> np.ndarray:
    """The window's back buffer, as an (h, w, 3) array, bottom row first (GL's order)."""
    from pyglet import gl

    w, h = win.get_framebuffer_size()
    buf = (gl.GLubyte * (w * h * 4))()
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadPixels(0, 0, w, h, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf)
    return np.frombuffer(buf, dtype=np.uint8).reshape(h, w, 4)[:, :, :3].copy()


def _on_screen(win) -> np.ndarray:
    """What the X server shows in the window (the pixels the player sees), same layout."""
    import ctypes

    from pyglet.libs.x11 import xlib

    w, h = win.get_framebuffer_size()
    img = xlib.XGetImage(win._x_display, win._window, 0, 0, w, h, xlib.XAllPlanes(), xlib.ZPixmap)
    assert img, "XGetImage failed"
    try:
        im = img.contents
        assert im.bits_per_pixel == 32 and im.red_mask == 0xFF0000 and im.blue_mask == 0xFF
        rows = np.frombuffer(ctypes.string_at(im.data, im.bytes_per_line * h), dtype=np.uint8)
        bgrx = rows.reshape(h, im.bytes_per_line)[:, : w * 4].reshape(h, w, 4)
        return bgrx[::-1, :, 2::-1].copy()  # X rows run top down; BGRX -> RGB
    finally:
        xlib._lib.XDestroyImage(img)  # a function in libX11 too (Xutil's macro calls it)


def _push(win, board: str):
    """Start a push on the table. ``crowd``: the sandbox's starting board and a push that knocks
    two pieces out (they fly off while others still slide). ``pair``: an empty ring but for one
    small disc, which the pushed disc shoves leftwards, away from its own shadow (alone on the
    cloth, any edge of it left behind unrepaired would show)."""
    from kabuto.app.aim import Aim
    from kabuto.app.scene.table import TableScene
    from kabuto.app.session import SandboxSession
    from physics import Materials, World

    if board == "crowd":
        session = SandboxSession()
    else:
        world = World(Materials.load())
        world.place("S1", "small", 0.06, 0.01)
        session = SandboxSession(world=world)
    scene = win.set_scene(TableScene(win, session))
    win.pump()
    top = scene.limits.max_speed
    if board == "crowd":
        scene.choice_key = "large"
        scene.aim = Aim(entry_deg=270.0, heading_deg=-35.0, speed=top)  # two pieces off (mirror 2P board)
    else:
        scene.choice_key = "medium"
        scene.aim = Aim(entry_deg=0.0, heading_deg=0.0, speed=top)
    assert scene.push_now()
    return scene


@pytest.mark.parametrize("board", ["crowd", "pair"])
def test_what_the_screen_shows_during_a_push_is_a_whole_redraw(app_window, board):
    win = app_window
    if not win.presenter.partial:
        pytest.skip("this GL has no GLX_MESA_copy_sub_buffer: every frame is drawn whole")
    scene = _push(win, board)
    checked = {"playing": 0, "flying": 0}
    partial_before = win.partial_frames_drawn
    flights = 0
    for tick in range(400):
        if scene.mode != "playing":
            break
        win.pump()
        phase = "playing" if scene.playback is not None else "flying" if scene.flights else None
        # Every fourth frame, and whenever a flight has just ended (it must leave no trace).
        landed_one, flights = len(scene.flights) < flights, len(scene.flights)
        if phase is None or (tick % 4 != 3 and not landed_one):
            continue
        shown = _on_screen(win)
        win.on_draw()                      # the same state, drawn whole into the back buffer
        whole = _back_buffer(win)
        win.present()
        diff = np.argwhere(np.any(shown != whole, axis=2))
        assert len(diff) == 0, f"{len(diff)} pixels differ ({phase}), first at {diff[0][::-1]}"
        checked[phase] += 1
    assert scene.mode == "aim"
    assert checked["playing"] >= 2, checked
    if board == "crowd":
        assert checked["flying"] >= 2, checked  # knocked-out pieces flew to the supply
    # The frames between the checks were partial (the point of all this), not whole redraws.
    assert win.partial_frames_drawn - partial_before >= 2 * sum(checked.values())


def test_a_partial_frame_repairs_only_near_what_moved(app_window):
    win = app_window
    if not win.presenter.partial:
        pytest.skip("this GL has no GLX_MESA_copy_sub_buffer: every frame is drawn whole")
    scene = _push(win, "crowd")
    win.pump()                             # the first frame of the push is whole
    shown = []
    real = win.presenter.present

    def present(rects=None):
        shown.append(rects)
        real(rects)

    win.presenter.present = present
    win.pump()
    (rects,) = shown
    assert rects, "something moved, so something was repaired"
    w, h = win.get_framebuffer_size()
    assert sum(r.area for r in rects) < 0.2 * w * h  # a few pieces, not the window
    # ... all of it on the ring (the panels did not change).
    t = scene.ring.transform
    R = scene.session.materials.ring.radius
    x0, y0 = t.to_screen(-1.5 * R, -1.5 * R)
    x1, y1 = t.to_screen(1.5 * R, 1.5 * R)
    for r in rects:
        assert x0 <= r.x and r.x + r.w <= x1 and y0 <= r.y and r.y + r.h <= y1


def test_moving_the_pointer_over_nothing_draws_nothing(app_window):
    from kabuto.app.scene.table import TableScene
    from kabuto.app.session import SandboxSession

    win = app_window
    scene = win.set_scene(TableScene(win, SandboxSession()))
    win.pump()
    drawn = win.frames_drawn
    cx, cy = scene.ring.transform.to_screen(0.0, 0.0)
    win.dispatch_event("on_mouse_motion", cx, cy, 1, 0)  # onto the centre piece: its tooltip, once
    win.dispatch_events()
    win.pump()
    assert scene.tip_label.text and win.frames_drawn == drawn + 1
    drawn = win.frames_drawn
    for dx in range(1, 5):                 # about on the same piece: nothing changes
        win.dispatch_event("on_mouse_motion", cx + dx, cy, 1, 0)
        win.dispatch_events()
        win.pump()
    assert win.frames_drawn == drawn
    button = scene.widgets.find("menu")    # onto a button: it lights up (the tooltip goes), one frame
    bx, by = button.rect.x + 5, button.rect.y + 5
    win.dispatch_event("on_mouse_motion", bx, by, 1, 0)
    win.dispatch_events()
    win.pump()
    assert win.frames_drawn == drawn + 1


def test_a_piece_draws_only_inside_the_box_repaired_for_it(app_window):
    """Damage boxes are what a partial frame repairs: a piece drawn outside its box would leave
    smears behind. Every kind (discs and a wrestler's shaped piece), turned, on a stack level,
    with and without the ring that marks it, drawn alone on a blank window."""
    from pyglet import gl

    from kabuto.app.scene.table import TableScene
    from kabuto.app.session import SandboxSession
    from kabuto.rules.game import Game
    from kabuto_ui.frames import PixelRect
    from physics import World

    win = app_window
    materials = Game.new(players=2, wrestlers=["mike", "gus"], seed=1).materials
    scene = win.set_scene(TableScene(win, SandboxSession(materials, world=World(materials))))
    win.pump()
    ring = scene.ring
    ring.show_aim(None)              # nothing else live: no platform, aim line or message
    scene.event_label.text = ""
    kinds = [k for k in materials.kinds if k in ("small", "large") or k.startswith("mike_")]
    assert any(k.startswith("mike_") for k in kinds)
    t = ring.transform
    for kind in kinds:
        for level, angle, marked in ((0, 0.3, False), (1, 2.0, False), (0, 4.0, True),
                                     (2, 1.0, True)):
            ring.show({"P": (0.013, -0.021, angle, level)}, {"P": kind})
            if marked:
                ring.set_mark("P", (255, 0, 0, 255))
            gl.glClearColor(1, 1, 1, 1)    # white: shadows are black
            win.clear()
            scene._fb()
            scene._draw_live(scene._ring_px(), None)  # the live batch alone: the piece
            pixels = _back_buffer(win)
            ys, xs = np.nonzero(np.any(pixels != 255, axis=2))
            assert len(xs), f"{kind} drew nothing"
            x0, y0, x1, y1 = ring.sprites["P"].box(marked)
            # The box's own pixels, without the safety margin repairs add around it.
            tight = PixelRect.covering(*t.to_screen(x0, y0), *t.to_screen(x1, y1), margin=0)
            assert tight.x <= xs.min() and xs.max() < tight.x + tight.w, (kind, level, marked)
            assert tight.y <= ys.min() and ys.max() < tight.y + tight.h, (kind, level, marked)
            ring.set_mark("P", None)
            ring.show({}, {})
    win.present()


def test_a_move_too_small_to_see_repaints_nothing_and_the_landing_is_exact(app_window):
    """In slow motion a push's last frames move pieces by hundredths of a pixel: those frames
    leave the pieces where they are drawn (no rectangle to repair), a move of a pixel or more is
    drawn, and the push lands with every piece drawn exactly at rest."""
    from kabuto.app.scene.ring_view import STILL_PX

    scene = _push(app_window, "crowd")
    ring = scene.ring
    pid, spr = next(iter(ring.sprites.items()))
    x, y, a, level = spr.pose
    ring.take_damage()
    px = 1.0 / ring.transform.scale  # metres per pixel
    poses = {q: sp.pose for q, sp in ring.sprites.items()}
    ring.show({**poses, pid: (x + 0.1 * px, y, a, level)}, {}, still_px=STILL_PX)
    assert ring.take_damage() == [] and spr.pose == (x, y, a, level)
    ring.show({**poses, pid: (x + 1.0 * px, y, a, level)}, {}, still_px=STILL_PX)
    assert ring.take_damage() and spr.pose == (x + 1.0 * px, y, a, level)
    while scene.mode == "playing" or scene.flights:
        app_window.pump()
    world = scene.session.world()
    levels = world.levels()
    assert {p.id: (p.x, p.y, p.angle, levels[p.id]) for p in world.pieces} == \
        {q: s.pose for q, s in ring.sprites.items()}
