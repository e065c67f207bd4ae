"""Text never overlaps other text or leaves its panel: every screen laid out at 960 x 600, 1280 x 720
and 1920 x 1080, and every label's box (from pyglet's own measure of the text) checked against its
panel, the window and the other labels."""
from __future__ import annotations

import shutil

import pytest

from tests.app.xinput import resize_mapped

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")

SIZES = [(960, 600), (1280, 720), (1920, 1080)]


def box(lab):
    """A label's drawn box (x0, y0, x1, y1) from its anchor and pyglet's measure of its text."""
    w, h = lab.content_width, lab.content_height
    x = lab.x - {"left": 0, "center": w / 2, "right": w}[lab.anchor_x]
    if lab.anchor_y == "top":
        y = lab.y - h
    elif lab.anchor_y == "center":
        y = lab.y - h / 2
    elif lab.anchor_y == "bottom":
        y = lab.y
    else:  # baseline: the descent is below
        y = lab.y - (h - lab.font_size * 1.3 if lab.multiline else h * 0.25)
    return (x, y, x + w, y + h)


def inside(b, r, slack=2.0) -> bool:
    return b[0] >= r.x - slack and b[2] <= r.x + r.w + slack and b[1] >= r.y - slack and b[3] <= r.y + r.h + slack


def overlap(a, b, slack=1.0) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def labels(items):
    import pyglet

    return [it for it in items if isinstance(it, pyglet.text.Label) and it.text.strip()]


def check_panel(name, items, rect, problems):
    labs = labels(items)
    for lab in labs:
        if not inside(box(lab), rect):
            problems.append(f"{name}: {lab.text[:40]!r} at {box(lab)} leaves {rect}")
    for i, a in enumerate(labs):
        for b in labs[i + 1:]:
            if overlap(box(a), box(b)):
                problems.append(f"{name}: {a.text[:30]!r} overlaps {b.text[:30]!r}")


def check_buttons(name, widgets, problems):
    from kabuto_ui.widgets import Button

    for w in widgets.items:
        if isinstance(w, Button) and w.caption.text and not inside(box(w.caption), w.rect, slack=3):
            problems.append(f"{name}: button caption {w.caption.text!r} leaves its button")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players,wrestlers", [(2, ("hank", "gus")), (4, ("hank", "gus", "annie", "bea")),
                                               (4, ("dora", "gus", "annie", "bea"))])  # Pitchfork: the longest card
def test_the_table_text_stays_in_its_panels(window, tmp_path, size, players, wrestlers):
    from kabuto.app.game_config import GameConfig
    from kabuto.app.game_session import GameSession
    from kabuto.app.scene.table import TOP_BAR, TableScene
    from kabuto_ui.geometry import Rect

    session = GameSession.new(GameConfig(players, ("human",) * players, wrestlers, seed=2), record=False)
    scene = window.set_scene(TableScene(window, session, profile_dir=tmp_path))
    problems: list[str] = []
    for tuning in (False, True):
        if tuning:
            scene.toggle_tuning()
        resize_mapped(window, *size)
        W, H = size
        check_panel("side panel", scene.side.items, scene.panel_rect, problems)
        check_panel("aim bar", scene.bar.items, scene.bar_rect, problems)
        check_panel("top bar", [scene.title_label, scene.status_label], Rect(0, H - TOP_BAR, W, TOP_BAR),
                    problems)
        if tuning and scene.tuning is not None:
            check_panel("tuning", scene.tuning.items, Rect(0, 0, 300, H - TOP_BAR), problems)
        check_buttons("table", scene.widgets, problems)
    assert not problems, "\n".join(problems[:15])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", [2, 4])
def test_the_start_menu_text_stays_on_screen_and_apart(window, size, players):
    from kabuto.app.game_config import GameConfig
    from kabuto.app.main import App, Options
    from kabuto_ui.geometry import Rect

    app = App(Options(record=False), window=window)
    app.last_config = GameConfig(players, ("human",) * players)
    resize_mapped(window, *size)
    app.open_menu()
    menu = window.scene
    problems: list[str] = []
    check_panel("menu", menu.items, Rect(0, 0, *size), problems)
    check_buttons("menu", menu.widgets, problems)
    assert not problems, "\n".join(problems[:15])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_pause_menu_and_rules_fit(window, size):
    from kabuto_ui.overlay import Dialog, DialogButton, TextPage

    resize_mapped(window, *size)
    problems: list[str] = []
    d = window.show_overlay(Dialog("Paused", [DialogButton("Continue", lambda: None)] * 5,
                                   message="Your game is saved after every turn; Continue on the "
                                   "start menu goes on with it."))
    check_panel("pause", d.items, d.box, problems)
    check_buttons("pause", d.widgets, problems)
    page = window.show_overlay(TextPage("Kabuto Sumo", "A rule. " * 400))
    check_panel("rules", [it for it in page.items if hasattr(it, "anchor_x")], page.box, problems)
    assert page.body is not None and page.body.height <= page.box.h
    assert not problems, "\n".join(problems[:15])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_replay_browser_text_stays_on_screen_and_apart(window, tmp_path, size):
    from kabuto.app.game_config import GameConfig
    from kabuto.app.game_session import GameSession
    from kabuto.app.main import App, Options
    from kabuto.app.scene.replay_view import ReplayBrowser
    from kabuto_ui.geometry import Rect

    data = tmp_path / "data"
    for wrestlers in (("hank", "gus"), ("annie", "bea", "dora", "jade")):
        s = GameSession.new(GameConfig(len(wrestlers), ("human",) * len(wrestlers), wrestlers),
                            data_dir=data)
        s.game.push("small", 200.0, 5.0, 0.4)
        s.record()
        s.close()
    app = App(Options(data_dir=data), window=window)
    resize_mapped(window, *size)
    browser = window.set_scene(ReplayBrowser(app))
    assert len(browser.entries) == 2
    problems: list[str] = []
    check_panel("browser", browser.items, Rect(0, 0, *size), problems)
    check_buttons("browser", browser.widgets, problems)
    assert not problems, "\n".join(problems[:15])
