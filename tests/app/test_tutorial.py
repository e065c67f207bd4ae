"""The tutorial, played as a new player would: offered on the first launch (once), opened from the
menu, and taken to its end with real mouse drags, clicks and key presses under Xvfb. Each step goes
on only when the game shows it was done, and a step done wrong is tried again from its start.

The pushes are chosen the way a player who read the card would aim them, and each is first tried
on a copy of the game with the rules' own preview, so the test follows the ring and the boards as
they change. Set KABUTO_TUTORIAL_SHOTS to a folder to keep a screenshot of every step.
"""
from __future__ import annotations

import copy
import math
import os
import time
from pathlib import Path

import pytest

from tests.app import xinput
from tests.app.test_pause import _click_overlay

pytestmark = pytest.mark.skipif(xinput.XDOTOOL is None, reason="xdotool is not installed")


def _until(win, done, limit_s: float = 120.0) -> bool:
    """Run the window (big animation ticks, so pushes play fast) until ``done()``; the AI thinks
    in a thread meanwhile. This waits for events; it times nothing."""
    deadline = time.monotonic() + limit_s
    while not done():
        if time.monotonic() > deadline:
            return False
        win.pump(0.1)
        time.sleep(0.002)
    return True


def _shot(win, name: str) -> None:
    folder = os.environ.get("KABUTO_TUTORIAL_SHOTS")
    if folder:
        for _ in range(3):
            win.pump(0.0)
        win.screenshot(Path(folder) / f"{name}-{win.width}x{win.height}.png")


def _press(win, widgets, name: str) -> None:
    w = widgets.find(name)
    assert w is not None, f"no {name!r} button"
    xinput.click(win, w.rect.cx, w.rect.cy)


def _outcome(scene, kind: str, entry: float, heading: float, gains_focus: bool = False):
    """What the step would say of this push: the tutorial's own check on a copy of the game (with
    ``gains_focus``, a pass only if the step's own pieces end in the player's inventory)."""
    from kabuto.rules.errors import IllegalMove

    game = scene.game.clone()
    steep = game.world.steepest_heading(kind)            # where the table holds a steeper drag
    try:
        game.push(kind, entry, max(-steep, min(steep, heading)), scene.aim.speed)
    except IllegalMove:
        return None
    probe = copy.copy(scene.tutorial)
    probe.verdict = None
    verdict = probe.observe(game)
    if gains_focus and verdict is not None and verdict.passed:
        return verdict if set(scene.tutorial.focus) <= set(game.inventory(0)) else None
    return verdict


def _aim_for(scene, kind: str, want: bool, aims, gains_focus: bool = False) -> tuple[float, float]:
    """The first of ``aims`` whose push the step judges as ``want``, and so does the same push a
    little to either side (a drag on the screen lands within a pixel of the aim, and a chain
    reaction can turn on less)."""
    for entry, heading in aims:
        verdicts = [_outcome(scene, kind, entry + d, heading, gains_focus) for d in (0.0, -0.25, 0.25)]
        if all(v is not None and v.passed == want for v in verdicts):
            return entry, heading
    raise AssertionError(f"no push with a {kind} disc {'does' if want else 'fails'} step "
                         f"{scene.tutorial.step.key!r}")


def _hanging(scene) -> list[str]:
    """The pieces whose outline sticks out over the ring's edge."""
    game = scene.game
    R = game.materials.ring.radius
    return [p.id for p in game.world.pieces
            if math.hypot(p.x, p.y) + game.materials.kinds[p.kind].size > R]


def _straight_in():
    """Pushes straight at the middle from round the ring (the first thing a player tries)."""
    return [(float(e), 0.0) for e in range(180, 540, 15)]


def _along_the_edge(angle: float):
    """Pushes from a little to one side of ``angle``, turned along the edge towards it as steeply
    as the platform allows (the table holds a small disc's aim at the steepest it can take)."""
    return [(angle + s * off, s * 60.0) for off in (20, 15, 25, 10, 30, 12, 18, 22, 35) for s in (1, -1)]


def _behind(angle: float):
    return [(angle + off, 0.0) for off in (0, 4, -4, 8, -8)]


def _drag(app, scene, kind: str, entry: float, heading: float) -> None:
    """Choose the disc (a click on the aim bar) and push it with a drag: press on the edge at
    ``entry``, pull along the push's line (a heading past the platform's range holds at its
    limit), let go."""
    win = app.window
    if scene.choice_key != kind:
        _press(win, scene.widgets, f"choice:{kind}")
        assert _until(win, lambda: scene.choice_key == kind)
    R = scene.session.materials.ring.radius
    t = scene.ring.transform
    a = math.radians(entry)
    ex, ey = R * math.cos(a), R * math.sin(a)
    h = heading * 1.15 if abs(heading) >= 60.0 else heading   # steepest: held at the limit
    d = math.radians(entry + 180.0 + h)
    pushes = scene.pushes
    xinput.drag(win, t.to_screen(ex, ey), t.to_screen(ex + 0.6 * R * math.cos(d),
                                                      ey + 0.6 * R * math.sin(d)))
    assert _until(win, lambda: scene.pushes > pushes), "the drag did not push"


def _judged(app, scene) -> bool:
    """Wait for the step's verdict on what was just done; True if it was passed."""
    assert _until(app.window, lambda: scene.tutorial.verdict is not None), "no verdict"
    return scene.tutorial.verdict.passed


def _next(app, scene, name: str) -> None:
    """Read the step's result, then Next: the next step is set up when it is the player's turn."""
    win = app.window
    tut = scene.tutorial
    index = tut.index
    _shot(win, f"{index + 1}-{name}-done")
    _press(win, scene.widgets, "tutorial:next")
    assert _until(win, lambda: tut.index == index + 1 and tut.mark is not None
                  and scene.mode == "aim"), "the next step was not set up"
    _shot(win, f"{index + 2}-{tut.step.key}")


def _end_turn_if_asked(app, scene) -> None:
    """Once the push has played: E, if the turn is still the player's (a signature move could
    still be used, so it did not end by itself)."""
    assert _until(app.window, lambda: scene.mode != "playing")
    if scene.mode == "aim" and scene.flow.can_end_turn:
        xinput.key(app.window, "e")
        assert _until(app.window, lambda: not scene.flow.can_end_turn)


def _play_through(app) -> None:
    from kabuto.app.scene.menu import MenuScene

    win = app.window
    scene = win.scene
    scene.pace = "fast"
    tut = scene.tutorial
    _shot(win, "1-push")
    assert tut.counter() == "Step 1 of 7" and scene.card.rect.w > 0
    assert scene.card.rect.right <= scene.ring_area.x          # the card keeps off the ring

    # 1. Aim and push: any push.
    _drag(app, scene, "medium", *_straight_in()[0])
    assert _judged(app, scene)
    _next(app, scene, "push")

    # 2. The crowd: a push into the pieces moves others.
    _drag(app, scene, "medium", *_aim_for(scene, "medium", True, _straight_in()))
    assert _judged(app, scene)
    _next(app, scene, "crowd")

    # 3. Knock out and keep. First a push that knocks nothing out (from the far side, or wherever
    # the AI's last reply left the crowd loose): the step says so and Try again takes the game back
    # to the step's start, with the disc still hanging there.
    assert scene.choice_key == "small"                          # the card's advice, offered
    start = len(scene.game.history)
    hanging = _hanging(scene)
    _drag(app, scene, "small", *_aim_for(scene, "small", False, [(0.0, 0.0), (180.0, 0.0), *_straight_in()]))
    assert not _judged(app, scene)
    _shot(win, "3-gain-failed")
    _press(win, scene.widgets, "tutorial:retry")
    assert _until(win, lambda: tut.verdict is None and scene.mode == "aim")
    assert len(scene.game.history) == start
    assert _hanging(scene) == hanging
    inventory = len(scene.game.inventory(0))
    _drag(app, scene, "small", *_aim_for(scene, "small", True, _along_the_edge(90.0), gains_focus=True))
    assert _judged(app, scene)
    # one pushed, the hanging disc gained (and any the chain reaction knocked out with it)
    assert len(scene.game.inventory(0)) >= inventory and set(tut.focus) <= set(scene.game.inventory(0))
    _next(app, scene, "gain")

    # 4. Guard your wrestler: shove it back from the edge.
    me = scene.game.seats[0].piece_id
    p = scene.game.world.piece(me)
    angle = math.degrees(math.atan2(p.y, p.x))
    before = math.hypot(p.x, p.y)
    _drag(app, scene, "medium", *_aim_for(scene, "medium", True, _behind(angle)))
    assert _judged(app, scene)
    p = scene.game.world.piece(me)
    assert math.hypot(p.x, p.y) < before
    _next(app, scene, "guard")

    # 5. A signature move: Vice Grip's button, then Enter confirms it; then a push ends the turn.
    _press(win, scene.widgets, "move:Vice Grip")
    assert _until(win, lambda: scene.mode == "confirm")
    _shot(win, "5-move-preview")
    xinput.key(win, "Return")
    assert _until(win, lambda: scene.mode == "aim" and scene.game.turn.moves_used == ["Vice Grip"])
    assert tut.verdict is None                                  # the turn goes on: push
    _drag(app, scene, "medium", *_straight_in()[0])
    _end_turn_if_asked(app, scene)
    assert _judged(app, scene)
    _next(app, scene, "move")

    # 6. Win by submission: Blue has nothing left; end the turn.
    assert scene.game.inventory(1) == []
    _drag(app, scene, "medium", *_aim_for(scene, "medium", True, _straight_in()))
    _end_turn_if_asked(app, scene)
    assert _judged(app, scene)
    assert scene.game.result.reason == "submission" and scene.game.result.seats == (0,)
    _next(app, scene, "submission")

    # 7. Win by knock-out: the game goes on again (the submission taken back), Blue's wrestler hangs.
    assert not scene.game.is_over and scene.game.inventory(1)
    _drag(app, scene, "small", *_aim_for(scene, "small", True, _along_the_edge(90.0)))
    assert _judged(app, scene)
    assert scene.game.result.reason == "knockout" and scene.game.result.seats == (0,)
    assert tut.finished
    _shot(win, "7-knockout-done")
    xinput.key(win, "n")                                         # Finish
    assert _until(win, lambda: isinstance(win.scene, MenuScene))
    assert win.scene.mode_key == "kabuto"                         # back on a real game


@pytest.mark.parametrize("size", [(960, 600), (1920, 1080)], ids=["960x600", "1920x1080"])
def test_the_tutorial_is_played_to_its_end_with_real_events(app, size):
    if size != (app.window.width, app.window.height):
        xinput.resize_mapped(app.window, *size)
    app.start(app.modes["tutorial"], app.last_config)
    _play_through(app)


def test_the_first_launch_offers_the_tutorial_once(app, tmp_path):
    from kabuto.app.main import App, Options
    from kabuto.app.scene.menu import MenuScene
    from kabuto.app.scene.tutorial_view import TutorialScene

    win = app.window
    app.first_scene()
    assert isinstance(win.scene, MenuScene) and win.overlay is not None
    assert win.overlay.title == "First time here?"
    _click_overlay(win, "offer:skip", lambda: win.overlay is None)     # skipped: the menu
    assert isinstance(win.scene, MenuScene)
    win.close()

    again = App(Options(size=(1280, 720), ai_delay=0.0, data_dir=tmp_path / "data", ai_workers=1))
    xinput.map_window(again.window)
    try:
        again.first_scene()
        assert again.window.overlay is None                               # offered once
        # ... and opened from the menu whenever wanted.
        _press(again.window, again.window.scene.widgets, "mode:tutorial")
        assert _until(again.window, lambda: again.window.scene.mode_key == "tutorial")
        xinput.key(again.window, "Return")
        assert _until(again.window, lambda: isinstance(again.window.scene, TutorialScene))
    finally:
        again.window.close()


def test_the_offer_starts_the_tutorial_and_leave_goes_to_the_menu(app):
    from kabuto.app.scene.menu import MenuScene
    from kabuto.app.scene.tutorial_view import TutorialScene

    win = app.window
    app.first_scene()
    _click_overlay(win, "offer:tutorial", lambda: isinstance(win.scene, TutorialScene))
    scene = win.scene
    assert scene.tutorial.index == 0 and scene.mode == "aim"
    xinput.key(win, "Escape")                       # the pause menu says it is not saved
    assert _until(win, lambda: win.overlay is not None)
    assert "not saved" in win.overlay.message
    xinput.key(win, "Escape")
    assert _until(win, lambda: win.overlay is None)
    _press(win, scene.widgets, "tutorial:leave")
    assert _until(win, lambda: isinstance(win.scene, MenuScene))
    assert not list((app.data_dir / "replays").glob("*"))   # nothing left to Continue
