"""Leaving a table says what it does: Quit asks first, the sandbox (never saved) offers to leave
rather than to save, and a finished card game's "Back to menu" goes back to the menu without a
dialog promising to continue it. Real X key presses and clicks on a real window under Xvfb."""
from __future__ import annotations

import shutil

import pytest

from tests.app.test_pause import _buttons
from tests.app.test_pause import _click_overlay as _press
from tests.app.xinput import key, pump_until

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def test_quit_from_the_game_asks_first_and_back_returns_to_the_pause_menu(app):
    from kabuto.app.game_config import GameConfig

    win = app.window
    app.start(app.modes["kabuto"], GameConfig(2, ("human", "human"), ("mike", "gus")))
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None)
    _press(win, "pause:quit", lambda: win.overlay is not None and win.overlay.title == "Quit kabuto?")
    assert _buttons(win.overlay) == ["Back", "Quit"]
    key(win, "Return")  # the safe answer is highlighted: back to the pause menu
    assert pump_until(win, lambda: win.overlay is not None and win.overlay.title == "Paused")
    assert win._window is not None
    _press(win, "pause:quit", lambda: win.overlay.title == "Quit kabuto?")
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None and win.overlay.title == "Paused")
    _press(win, "pause:quit", lambda: win.overlay.title == "Quit kabuto?")
    _press(win, "quit:yes", lambda: win._window is None)


def test_the_sandbox_pause_offers_to_leave_not_to_save(app):
    from kabuto.app.game_config import GameConfig
    from kabuto.app.scene.menu import MenuScene

    win = app.window
    app.start(app.modes["sandbox"], GameConfig(2, ("human", "human"), ("mike", "gus")))
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None)
    assert "not saved" in win.overlay.message
    assert not any("save" in b.lower() for b in _buttons(win.overlay))
    _press(win, "pause:leave", lambda: isinstance(win.scene, MenuScene))


def test_a_finished_sumo_games_back_to_menu_goes_to_the_menu(app):
    from pyglet.window import mouse

    from cards.table import saves
    from cards.table.config import Pacing, SeatSpec, TableConfig
    from cards.table.scene import CardTableScene
    from tests.cards_table.helpers import centre, find_target

    win = app.window
    config = TableConfig("sumo", (SeatSpec("human"), SeatSpec("bot", "random")), 5, pacing=Pacing().instant())
    scene = win.set_scene(CardTableScene(win, config, back=app.open_menu, save_dir=app.card_saves))
    m = scene.model.match
    for _ in range(200):
        scene.settle()
        if m.over:
            break
        assert m.try_action(m.game.legal_actions()[0]) is None
    assert m.over
    scene._redraw()
    win.pump()
    # Escape over the finished game: the pause menu does not promise to continue it.
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None)
    assert "continue" not in win.overlay.message.lower()
    assert "Save and leave to the menu" not in _buttons(win.overlay)
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is None)
    item = find_target(scene.model.display(), "ui:menu")
    x, y = scene.renderer.to_window(*centre(item))
    win.dispatch_event("on_mouse_press", int(x), int(y), mouse.LEFT, 0)
    win.dispatch_event("on_mouse_release", int(x), int(y), mouse.LEFT, 0)
    assert pump_until(win, lambda: type(win.scene).__name__ == "MenuScene")
    assert win.overlay is None
    assert not saves.unfinished(app.card_saves)
