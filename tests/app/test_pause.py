"""The pause menu (Escape at the Kabuto table and at the card table), and quitting from the start
menu only after asking. Real X key presses and clicks (xdotool) on a real window under Xvfb."""
from __future__ import annotations

import shutil

import pytest

from tests.app.xinput import click, key, pump_until

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _closed(win) -> bool:
    """The window was closed (pyglet's xlib window drops its X window then)."""
    return win._window is None


def _click_overlay(win, name: str, done) -> None:
    w = win.overlay.widgets.find(name)
    assert w is not None, f"the pop-up has no {name!r} button"
    click(win, w.rect.cx, w.rect.cy)
    assert pump_until(win, done), f"clicking {name!r} did nothing"


def _buttons(overlay) -> list[str]:
    return [w.caption.text for w in overlay.widgets.items]


def _start_kabuto(app):
    from kabuto.app.game_config import GameConfig

    app.start(app.modes["kabuto"], GameConfig(2, ("human", "human"), ("mike", "gus")))
    return app.window.scene


def test_escape_at_the_kabuto_table_pauses_and_escape_again_goes_on(app):
    from kabuto_ui.overlay import Dialog

    win = app.window
    table = _start_kabuto(app)
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None)
    assert isinstance(win.overlay, Dialog)
    assert _buttons(win.overlay) == ["Continue", "Rules", "Pushes: slow motion", "Sound: 70%",
                                     "Save and leave to the menu", "Quit"]
    # Nothing under the pause menu takes input: a push key does not push.
    key(win, "Return")  # presses the highlighted Continue
    assert pump_until(win, lambda: win.overlay is None)
    assert win.scene is table and table.pushes == 0


def test_the_rules_open_from_the_pause_menu_and_lead_back_to_it(app):
    from kabuto_ui.overlay import Dialog, TextPage

    win = app.window
    _start_kabuto(app)
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None)
    _click_overlay(win, "pause:rules", lambda: isinstance(win.overlay, TextPage))
    assert "wrestler" in win.overlay.text and win.overlay.title == "Kabuto Sumo"
    key(win, "Escape")
    assert pump_until(win, lambda: isinstance(win.overlay, Dialog))
    assert "Continue" in _buttons(win.overlay)


def test_save_and_leave_saves_the_unfinished_game_and_opens_the_menu(app, tmp_path):
    from kabuto.app.aim import Aim
    from kabuto.app.scene.menu import MenuScene
    from kabuto.replay.format import load
    from tests.app.helpers import settle

    win = app.window
    table = _start_kabuto(app)
    table.choice_key = "small"
    table.aim = Aim(entry_deg=200.0, heading_deg=5.0, speed=0.4)
    assert table.push_now()
    settle(win, table)
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None)
    _click_overlay(win, "pause:leave", lambda: isinstance(win.scene, MenuScene))
    files = list((tmp_path / "data" / "replays").glob("*.json"))
    assert len(files) == 1
    replay = load(files[0])
    assert replay.pushes == 1 and not replay.meta.get("result")  # saved, and not over


def test_escape_on_the_start_menu_asks_before_quitting(app):
    win = app.window
    app.open_menu()
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None)
    assert _buttons(win.overlay) == ["Stay", "Quit"]
    key(win, "Return")  # the safe answer is the highlighted one
    assert pump_until(win, lambda: win.overlay is None)
    assert not _closed(win)
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None)
    w = win.overlay.widgets.find("quit:yes")
    click(win, w.rect.cx, w.rect.cy)
    assert pump_until(win, lambda: _closed(win))


def test_the_card_table_pauses_on_escape_saves_on_leaving_and_resumes(app, tmp_path):
    from cards.table import saves
    from cards.table.config import Pacing, SeatSpec, TableConfig
    from cards.table.scene import CardTableScene
    from kabuto_ui.overlay import TextPage

    win = app.window
    config = TableConfig("sumo", (SeatSpec("human"), SeatSpec("bot", "random")), 5, pacing=Pacing().instant())
    scene = win.set_scene(CardTableScene(win, config, back=app.open_menu, save_dir=app.card_saves))
    scene.settle()
    m = scene.model.match
    action = m.game.legal_actions()[0]
    assert m.try_action(action) is None
    scene.settle()
    before = m.game.to_json()
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None)
    # The same menu as at the Kabuto table (which adds the pushes' pace).
    assert _buttons(win.overlay) == ["Continue", "Rules", "Sound: 70%", "Save and leave to the menu",
                                     "Quit"]
    _click_overlay(win, "pause:rules", lambda: isinstance(win.overlay, TextPage))
    assert win.overlay.title == "SUMO"
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None and not isinstance(win.overlay, TextPage))
    _click_overlay(win, "pause:leave", lambda: type(win.scene).__name__ == "MenuScene")
    [saved] = saves.unfinished(app.card_saves)
    assert saved.config == config
    again = win.set_scene(CardTableScene(win, saved.config, back=app.open_menu,
                                         save_dir=app.card_saves, resume=saved))
    assert again.model.match.game.to_json() == before
