"""The card table in a real pyglet window (under Xvfb): whole games clicked through with window
mouse events against bots, the hot-seat pass screen's pixels, dragging, the push animation, the
set-up screen, the app's menu entries and the screenshot tool.

Mouse events are sent to the window with ``dispatch_event`` and delivered by
``window.dispatch_events()`` (pyglet's own event path); one test clicks with ``xdotool`` through the
X server. The window draws only where a test looks at pixels, to keep the suite quick.
"""
from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

if not os.environ.get("DISPLAY"):
    pytest.skip("no X display (and no Xvfb to start one)", allow_module_level=True)

import pyglet  # noqa: E402
from pyglet.window import mouse  # noqa: E402

from cards.table.app_mode import MODE, game_modes  # noqa: E402
from cards.table.config import Pacing, SeatSpec, TableConfig, table_data  # noqa: E402
from cards.table.scene import CardTableScene, SetupScene, open_window  # noqa: E402
from kabuto_ui.window import Window  # noqa: E402
from tests.cards_table.helpers import centre, find_target, targets_for  # noqa: E402

INSTANT = Pacing().instant()
#: The card paper colour of every face (assets/cards/faces.toml [style] face).
PAPER = (250, 247, 238)


@pytest.fixture(scope="module")
def window():
    w = open_window(1280, 720)
    w.dispatch_events()
    yield w
    w.close()


def click(window: Window, x: float, y: float) -> None:
    """A left click at window pixel (x, y), delivered through the window's event queue."""
    window.dispatch_event("on_mouse_press", int(x), int(y), mouse.LEFT, 0)
    window.dispatch_event("on_mouse_release", int(x), int(y), mouse.LEFT, 0)
    window.dispatch_events()


def click_target(window: Window, scene, target: str) -> None:
    item = find_target(scene.model.display(), target)
    x, y = scene.renderer.to_window(*centre(item))
    click(window, x, y)


def bot_config(mode: str, seed: int, strength: str = "random") -> TableConfig:
    n = table_data().mode(mode).players
    seats = (SeatSpec("human"),) + tuple(SeatSpec("bot", strength) for _ in range(n - 1))
    return TableConfig(mode, seats, seed, pacing=INSTANT)


def paper_pixels(window: Window) -> int:
    """How many pixels on screen have the colour of a card face's paper."""
    w, h, data = window.pixels()
    rgb = np.frombuffer(data, dtype=np.uint8).reshape(-1, 4)[:, :3].astype(int)
    return int((np.abs(rgb - np.array(PAPER)).max(axis=1) <= 3).sum())


# ----- whole games against bots, by clicking --------------------------------------------------------
@pytest.mark.parametrize("mode", [m.key for m in table_data().modes])
def test_a_whole_game_against_bots_is_played_by_clicking(window, mode):
    seed = 11
    scene = window.set_scene(CardTableScene(window, bot_config(mode, seed)))
    rng = random.Random(seed)
    game = scene.model.match.game
    decisions = 0
    while True:
        scene.settle()
        m = scene.model.match
        if m.summary is not None:
            if m.summary.final:
                break
            click_target(window, scene, "ui:dismiss")  # "Continue" after a Sumida River round
            continue
        assert m.waiting_for_human(), "the person in seat 0 should be asked to act"
        before = m.actions_played
        action = rng.choice(m.game.legal_actions())
        for target in targets_for(game.name, action, scene.model.display()):
            click_target(window, scene, target)
        assert m.actions_played == before + 1, f"clicking through {action!r} did not play it"
        assert m.game.events[-1] is not None
        decisions += 1
        if decisions % 25 == 1:
            window.pump()  # draw now and then: the picture must build for every kind of state
    assert m.over and m.summary.final
    # The game summary offers a rematch: the same seats, the next deal.
    window.pump()
    click_target(window, scene, "ui:rematch")
    assert scene.model.match.config.seed == seed + 1
    assert not scene.model.match.over
    assert scene.model.match is not m


# ----- refusals in plain words -----------------------------------------------------------------------
def test_a_card_that_may_not_be_played_is_refused_with_the_engines_reason(window):
    # SUMO: Blue (a bot) leads; Red holds the suit led but clicks another suit.
    for seed in range(200):
        scene = window.set_scene(CardTableScene(window, bot_config("sumo", seed, "heuristic")))
        scene.settle()
        m = scene.model.match
        while m.waiting_for_human() and m.game.observation(0)["phase"] == "reveal":
            click_target(window, scene, f"card:{m.game.legal_actions()[0].split(' ')[1]}")
            scene.settle()
        obs = m.game.observation(0)
        if not (m.waiting_for_human() and obs["trick"]):
            continue
        lead = obs["trick"][0]
        off = [c for c in obs["hand"] if c[1] != lead[1]]
        on = [c for c in obs["hand"] if c[1] == lead[1]]
        if off and on:
            break
    else:
        pytest.fail("no deal where Red must follow suit")
    before = m.game.to_json()
    display = scene.model.display()
    card = next(it for it in display.cards() if it.target == f"card:{off[0]}")
    assert card.dim and not card.highlight  # not playable: not highlighted
    click_target(window, scene, f"card:{off[0]}")
    assert "follow suit" in scene.model.message
    assert scene.model.message_bad
    assert m.game.to_json() == before
    assert "follow suit" in " ".join(scene.model.display().texts())


def test_a_search_bot_thinks_off_the_windows_thread_and_then_plays(window):
    seats = (SeatSpec("human"), SeatSpec("bot", "search"))
    scene = window.set_scene(CardTableScene(window, TableConfig("sumo", seats, 1, pacing=INSTANT)))
    m = scene.model.match
    click_target(window, scene, f"card:{m.game.legal_actions()[0].split(' ')[1]}")  # Red reveals
    assert m.current == 1 and m.actions_played == 1
    scene.update(0.0)  # the bot starts thinking in the background; the window stays live
    assert scene.model.thinking
    assert "Blue is thinking..." in scene.model.display().texts()
    scene.worker.wait(timeout=60)
    scene.update(0.0)  # its choice is played on the window's thread
    assert m.actions_played == 2 and not scene.model.thinking


# ----- hot-seat --------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["sumo-card-game", "sumo", "sumida-river-3"])
def test_the_hot_seat_pass_screen_shows_no_card_face(window, mode):
    n = table_data().mode(mode).players
    config = TableConfig(mode, tuple(SeatSpec("human") for _ in range(n)), 5, pacing=INSTANT)
    scene = window.set_scene(CardTableScene(window, config))
    m = scene.model.match
    assert m.pass_to == m.current
    assert scene.model.display().faces() == []
    assert paper_pixels(window) == 0
    # The person named takes the screen: now their cards show (so the pixel count can tell).
    click_target(window, scene, "ui:pass")
    assert m.pass_to is None and m.viewer == m.current
    scene.renderer.finish()
    assert paper_pixels(window) > 2000
    # After their move the screen goes to the next person through the pass screen again.
    action = m.game.legal_actions()[0]
    for target in targets_for(m.game.name, action, scene.model.display()):
        click_target(window, scene, target)
    if m.current != m.viewer and not m.over:
        assert m.pass_to == m.current
        assert paper_pixels(window) == 0


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
@pytest.mark.skipif(bool(pyglet.options["headless"]), reason="pyglet runs headless: no X window to click")
def test_a_real_x_click_takes_the_pass_screen(window):
    config = TableConfig("sumo", (SeatSpec("human"), SeatSpec("human")), 3, pacing=INSTANT)
    scene = window.set_scene(CardTableScene(window, config))
    window.pump()
    button = find_target(scene.model.display(), "ui:pass")
    x, y = scene.renderer.to_window(*centre(button))
    wid = str(window._window)  # the X window id (pyglet's xlib window)
    # X puts y = 0 at the top; pyglet at the bottom.
    subprocess.run(["xdotool", "mousemove", "--window", wid, str(int(x)), str(int(window.height - y)),
                    "click", "1"], check=True, env=os.environ.copy())
    for _ in range(200):  # poll the event queue until the X server's click arrives
        window.dispatch_events()
        if scene.model.match.pass_to is None:
            break
    assert scene.model.match.pass_to is None
    assert scene.model.match.viewer == 0


# ----- dragging and animation ------------------------------------------------------------------------
def test_dragging_a_card_onto_the_table_plays_it(window):
    scene = window.set_scene(CardTableScene(window, bot_config("sumo", 4)))
    scene.settle()
    m = scene.model.match
    assert m.waiting_for_human()
    card = m.game.legal_actions()[0].split(" ")[1]
    item = find_target(scene.model.display(), f"card:{card}")
    x, y = scene.renderer.to_window(*centre(item))
    before = m.actions_played
    window.dispatch_event("on_mouse_press", int(x), int(y), mouse.LEFT, 0)
    window.dispatch_event("on_mouse_drag", int(x), int(y + 60), 0, 60, mouse.LEFT, 0)
    window.dispatch_event("on_mouse_drag", int(x), int(y + 140), 0, 80, mouse.LEFT, 0)
    window.dispatch_event("on_mouse_release", int(x), int(y + 140), mouse.LEFT, 0)
    window.dispatch_events()
    assert m.actions_played == before + 1
    assert card not in m.game.observation(0)["hand"]


def test_the_sumo_cards_slide_to_their_new_column_when_pushed(window):
    slow = Pacing(bot_delay=0.0, slide=0.3, push=0.6)
    seats = (SeatSpec("human"), SeatSpec("bot", "random"))
    for seed in range(50):
        scene = window.set_scene(CardTableScene(window, TableConfig("sumo-card-game", seats, seed, pacing=slow)))
        m = scene.model.match
        scene.settle()
        window.pump(0.0)  # on screen (and known to the renderer): the sumo cards at the centre
        while not m.over:
            pos = m.game.observation(0)["position"]
            old_x = scene.renderer._boxes["sumo:0"][0]
            legal = m.game.legal_actions()
            action = "accept" if "accept" in legal else legal[-1]
            for t in targets_for("sumo-card-game", action, scene.model.display()):
                click_target(window, scene, t)
            scene.settle()
            new = m.game.observation(0)["position"]
            if new != pos and not m.over:
                end_x = scene.model.display().find("sumo:0").rect.x
                assert end_x != old_x
                window.pump(0.0)  # the first frame after the push: the slide starts at the old column
                assert scene.renderer.moving
                assert scene.renderer._boxes["sumo:0"][0] == pytest.approx(old_x)
                window.pump(0.3)  # half-way through the push
                mid = scene.renderer._boxes["sumo:0"][0]
                assert min(old_x, end_x) < mid < max(old_x, end_x)
                window.pump(1.0)
                assert scene.renderer._boxes["sumo:0"][0] == pytest.approx(end_x)
                assert not scene.renderer.moving
                return
            window.pump(0.0)
            scene.renderer.finish()
    pytest.fail("no push in 50 deals")


# ----- set-up screen and the app's menu --------------------------------------------------------------
def test_the_set_up_screen_starts_a_hot_seat_sumida_river_for_four(window):
    scene = window.set_scene(SetupScene(window, seed=9, pacing=INSTANT))
    click_target(window, scene, "mode:sumida-river-4")
    assert len(scene.model.seats) == 4
    click_target(window, scene, "seat:1:human")  # two people: hot-seat
    click_target(window, scene, "strength:2:random")
    click_target(window, scene, "ui:start")
    table = window.scene
    assert isinstance(table, CardTableScene)
    m = table.model.match
    assert m.mode.players == 4 and m.humans == [0, 1] and m.hot_seat
    assert m.config.seats[2] == SeatSpec("bot", "random")
    assert m.pass_to == 0  # hot-seat opens on the pass screen
    # The table's Menu button pauses; leaving from there comes back to the set-up screen (no app
    # menu behind it here).
    click_target(window, table, "ui:menu")
    assert [w.name for w in window.overlay.widgets.items][2] == "pause:leave"
    leave = window.overlay.widgets.find("pause:leave").rect
    click(window, leave.cx, leave.cy)
    assert isinstance(window.scene, SetupScene)


class _Host:
    """What a mode starts in: a window, and a way back to the (here imaginary) start menu."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.backs = 0

    def open_menu(self) -> None:
        self.backs += 1


def test_every_start_menu_entry_opens_its_games_set_up(window):
    modes = game_modes()
    titles = [m.title for m in modes]
    assert titles == ["Sumo Card Game", "Sumo Card Game with Jokers", "SUMO",
                      "SUMO (colour read as suit)", "Sumida River (3 players)",
                      "Sumida River (4 players)"]
    host = _Host(window)
    for m in [*modes, MODE]:
        scene = window.set_scene(m.start(host, None))
        key = m.key.removeprefix("cards:") if m is not MODE else table_data().modes[0].key
        assert scene.model.mode == key and len(scene.model.seats) == table_data().mode(key).players
    click_target(window, window.scene, "ui:back")
    assert host.backs == 1


def test_the_apps_start_menu_opens_the_card_table_and_comes_back():
    main = pytest.importorskip("kabuto.app.main")

    app = main.App(main.Options(visible=True, record=False))
    try:
        app.open_menu()
        app.window.pump()
        menu = app.window.scene
        for name in ("mode:cards", "start"):  # what a player clicks: "Card games", then Start
            r = menu.widgets.find(name).rect
            app.window.dispatch_event("on_mouse_press", int(r.cx), int(r.cy), mouse.LEFT, 0)
            app.window.dispatch_event("on_mouse_release", int(r.cx), int(r.cy), mouse.LEFT, 0)
            app.window.pump()
        setup = app.window.scene
        assert isinstance(setup, SetupScene)
        for target in ("mode:sumo", "ui:start"):
            item = find_target(app.window.scene.model.display(), target)
            x, y = app.window.scene.renderer.to_window(*centre(item))
            app.window.dispatch_event("on_mouse_press", int(x), int(y), mouse.LEFT, 0)
            app.window.dispatch_event("on_mouse_release", int(x), int(y), mouse.LEFT, 0)
            app.window.pump()
        table = app.window.scene
        assert isinstance(table, CardTableScene) and table.model.match.mode.key == "sumo"
        table.settle()
        app.window.pump()
        assert table.model.display().faces()  # the person's hand is on screen
        item = find_target(table.model.display(), "ui:menu")
        x, y = table.renderer.to_window(*centre(item))
        app.window.dispatch_event("on_mouse_press", int(x), int(y), mouse.LEFT, 0)
        app.window.dispatch_event("on_mouse_release", int(x), int(y), mouse.LEFT, 0)
        app.window.pump()
        r = app.window.overlay.widgets.find("pause:leave").rect  # Menu pauses: leave from there
        app.window.dispatch_event("on_mouse_press", int(r.cx), int(r.cy), mouse.LEFT, 0)
        app.window.dispatch_event("on_mouse_release", int(r.cx), int(r.cy), mouse.LEFT, 0)
        app.window.pump()
        assert type(app.window.scene).__name__ == "MenuScene"  # back in the app's start menu
    finally:
        app.window.close()


def test_the_table_scales_to_a_smaller_window(window):
    scene = window.set_scene(CardTableScene(window, bot_config("sumida-river-4", 2)))
    scene.settle()
    try:
        window.set_size(960, 600)
        window.dispatch_events()
        scene.layout(960, 600)  # what the window's resize event does
        item = find_target(scene.model.display(), "act:keep")
        x, y = scene.renderer.to_window(*centre(item))
        assert x < 960 and y < 600 and scene.renderer.scale == pytest.approx(0.75)
        click(window, x, y)  # the click lands on the smaller "Keep" button
        declared = [e for e in scene.model.match.game.visible_events(0) if e["type"] == "declare"]
        assert declared and declared[-1]["choice"] == "keep"
    finally:
        window.set_size(1280, 720)
        window.dispatch_events()
        scene.layout(1280, 720)


# ----- the screenshot tool ---------------------------------------------------------------------------
def test_the_screenshot_tool_saves_a_picture_of_a_table_mid_game(tmp_path: Path):
    from tools.card_screenshots import main

    assert main(["--out", str(tmp_path), "--modes", "sumo", "--moves", "2"]) == 0
    png = tmp_path / "sumo.png"
    img = pyglet.image.load(str(png))
    assert (img.width, img.height) == (1280, 720)
    data = img.get_image_data().get_data("RGB", img.width * 3)
    colours = {data[i:i + 3] for i in range(0, len(data), 3 * 97)}
    assert len(colours) > 20  # a table, not a blank frame
    assert (tmp_path / "pass-screen.png").is_file() and (tmp_path / "setup.png").is_file()
    assert main(["--size", "tiny"]) == 2

