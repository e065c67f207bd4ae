"""The AI's aim and push are always shown, its very first push included, and replays play the same
way: before a push plays, a frame reaches the screen with its platform and aim line drawn - checked
on what the X server shows (a real window under Xvfb), not on the scene's state alone."""
from __future__ import annotations

import shutil
import time

import pytest

from tests.app.xinput import key, map_window, shown
from tests.kabuto.scenarios import free_entry

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _line_on_screen(win, scene, colour, tolerance=30) -> bool:
    """Whether the screen shows the aim line's colour (over whatever is under it: the line is
    nearly opaque) near the middle of the aim being shown."""
    preview = scene.flow.aim_preview()
    if preview is None or preview.start is None:
        return False
    R = scene.session.materials.ring.radius
    (sx, sy), (fx, fy) = preview.start[:2], preview.aim.exit_point(R)
    from pyglet import gl
    from pyglet.libs.x11 import xlib

    gl.glFinish()
    for display in {id(d): d for d in (win._x_display, win.context.x_display)}.values():
        xlib.XSync(display, False)  # what the window sent the X server has reached it
    stride, image = shown(win)
    for t in (0.4, 0.5, 0.6):
        px, py = scene.ring.transform.to_screen(sx + (fx - sx) * t, sy + (fy - sy) * t)
        for dx in range(-3, 4):
            for dy in range(-3, 4):
                x, y = int(px) + dx, int(win.height - py) + dy  # the X image: top row first
                i = y * stride + x * 4
                bgr = image[i:i + 3]
                if all(abs(bgr[2 - c] - colour[c]) <= tolerance for c in range(3)):
                    return True
    return False


def _watch_frames(win, scene, colour, aim_modes):
    """Record, at every frame the window shows, the scene's mode and whether the aim line is on
    the screen (looked at in the first frame of each stay in a mode of ``aim_modes``)."""
    frames: list[tuple[str, bool]] = []
    real = win.present
    last = [""]

    def present(rects=None):
        real(rects)
        mode = str(scene.mode)
        if mode == "playing" and scene.outcome is not None and scene.outcome.result is not None:
            mode = "playing-push"
        seen = False
        if mode in aim_modes and mode != last[0]:
            seen = _line_on_screen(win, scene, colour)
        last[0] = mode
        frames.append((mode, seen))

    win.present = present
    return frames


def _pump_until(win, done, limit_s=60.0):
    deadline = time.monotonic() + limit_s
    while not done():
        assert time.monotonic() < deadline, "timed out"
        win.pump(1 / 60)
        time.sleep(0.002)  # the AI plans in a thread; this waits for it, it times nothing


def test_the_ais_first_push_of_the_game_shows_its_aim_on_screen_before_it_plays(app_window):
    from kabuto.app.game_session import GameSession
    from kabuto.app.scene.table import TableScene
    from kabuto.rules.game import Game
    from kabuto_ui import theme

    game = Game.new(players=2, wrestlers=["mike", "gus"], seed=3, first_player=0)
    session = GameSession(game, ("ai", "human"), ai_level="easy", ai_workers=1, record=False)
    scene = TableScene(app_window, session, ai_delay=0.4)
    frames = _watch_frames(app_window, scene, theme.AI_AIM_LINE, {"ai-showing"})
    app_window.set_scene(scene)  # the table opens on the AI's turn
    map_window(app_window)
    # (The AI may use a signature move first: that plays with no aim; its push comes after.)
    _pump_until(app_window, lambda: any(m == "playing-push" for m, _ in frames))
    first_push = next(i for i, (m, _) in enumerate(frames) if m == "playing-push")
    assert ("ai-showing", True) in frames[:first_push], frames[:first_push + 1]
    _pump_until(app_window, lambda: scene.mode == "aim" and not scene.flights)
    pushes = [a for a in game.history if a["type"] == "push"]
    assert pushes and pushes[0]["seat"] == 0 and session.current_seat() == 1


def test_a_replayed_push_shows_its_aim_on_screen_before_it_plays(app_window, data_dir):
    from kabuto.app.game_session import GameSession
    from kabuto.app.replay_model import open_recording
    from kabuto.app.scene.replay_view import ReplayScene
    from kabuto.rules.game import Game
    from kabuto_ui import theme

    game = Game.new(players=2, wrestlers=["rita", "bea"], seed=6, first_player=0)
    session = GameSession(game, ("human", "human"))
    for entry in (170.0, 10.0, 150.0):
        kind = game.legal_kinds()[0]
        # the first free platform spot from there (pieces overhang the crammed rim)
        entry = free_entry(game, kind, entry, 4.0, 0.4)
        game.push(kind, entry, 4.0, 0.4)
        session.record()
    model = open_recording(session.save_now())
    scene = ReplayScene(app_window, model)
    frames = _watch_frames(app_window, scene, theme.AI_AIM_LINE, {"showing"})
    app_window.set_scene(scene)
    map_window(app_window)
    for step in (1, 2):
        key(app_window, "Right")  # one step forward: the next push
        _pump_until(app_window, lambda: scene.mode == "playing")
        first_push = next(i for i, (m, _) in enumerate(frames) if m == "playing-push")
        assert ("showing", True) in frames[:first_push], frames[:first_push + 1]
        # The top bar names the step being played; the inventories are still those before it.
        assert scene.status_label.text.startswith(f"step {step} of 3")
        _pump_until(app_window, lambda: scene.mode in ("aim", "over") and not scene.flights)
        assert model.pos == step
        frames.clear()


def test_the_aims_default_limits_never_offer_a_push_the_rules_refuse():
    """The aim's default range is the rules' own: the fastest aim it allows is a legal push."""
    from kabuto.app.aim import Aim, Limits
    from kabuto.rules.hand import push_speed_refusal
    from physics import SimSettings

    fastest = Limits().clamp(Aim(entry_deg=0.0, heading_deg=0.0, speed=5.0))
    slowest = Limits().clamp(Aim(entry_deg=0.0, heading_deg=0.0, speed=0.0))
    assert push_speed_refusal(fastest.speed, SimSettings()) is None
    assert push_speed_refusal(slowest.speed, SimSettings()) is None
