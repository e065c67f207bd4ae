"""Continue on the start menu, and the replay browser: what a player reads in it (who played, when,
the result or "unfinished", how long), and Watch, Resume and Delete (after asking), all with real
X clicks on a real window under Xvfb."""
from __future__ import annotations

import shutil

import pytest

from tests.app.xinput import click, pump_until

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _click(win, widgets, name: str, done) -> None:
    w = widgets.find(name)
    assert w is not None, f"no {name!r} button"
    click(win, w.rect.cx, w.rect.cy)
    assert pump_until(win, done), f"clicking {name!r} did nothing"


def _play_one_push_and_leave(app) -> None:
    """A two-player game (Mike against Gus, the AI), one push, then back to the menu."""
    from kabuto.app.aim import Aim
    from kabuto.app.game_config import GameConfig
    from tests.app.helpers import settle

    app.start(app.modes["kabuto"], GameConfig(2, ("human", "ai"), ("mike", "gus"), seed=3))
    table = app.window.scene
    table.ai_delay = 0.0
    if table.session.seat_is_ai(table.session.current_seat()):
        settle(app.window, table)
    table.choice_key = "small"
    table.aim = Aim(entry_deg=200.0, heading_deg=5.0, speed=0.4)
    assert table.push_now()
    settle(app.window, table)
    table._save_and_leave()


def test_continue_goes_on_with_the_last_unfinished_game(app):
    from kabuto.app.scene.menu import MenuScene
    from kabuto.app.scene.table import TableScene

    app.open_menu()
    assert app.window.scene.widgets.find("continue") is None  # nothing to continue yet
    _play_one_push_and_leave(app)
    menu = app.window.scene
    assert isinstance(menu, MenuScene) and menu.widgets.find("continue") is not None
    _click(app.window, menu.widgets, "continue", lambda: isinstance(app.window.scene, TableScene))
    game = app.window.scene.session.game
    assert tuple(game.setup.wrestlers) == ("mike", "gus")
    pushes = [a for a in game.history if a["type"] == "push"]
    assert len(pushes) >= 1 and not game.is_over


def test_the_browser_lists_who_when_result_and_length_and_watches_and_deletes(app):
    from kabuto.app.scene.replay_view import ReplayBrowser, ReplayScene

    _play_one_push_and_leave(app)
    browser = app.window.set_scene(ReplayBrowser(app))
    app.window.pump()
    [entry] = browser.entries
    assert entry.players == "Red: Mighty Jaw Mike, Blue: Goliath Gus (AI)"
    assert entry.result == "unfinished" and entry.unfinished
    assert entry.length.endswith("push") or entry.length.endswith("pushes")
    texts = [getattr(it, "text", "") for it in browser.items]
    assert entry.date in texts and "unfinished" in texts and entry.players in texts
    # Delete asks first; Cancel (the highlighted answer) keeps the file.
    name = entry.path.name
    _click(app.window, browser.widgets, f"delete:{name}", lambda: app.window.overlay is not None)
    _click(app.window, app.window.overlay.widgets, "delete:no", lambda: app.window.overlay is None)
    assert entry.path.exists()
    _click(app.window, browser.widgets, f"watch:{name}",
           lambda: isinstance(app.window.scene, ReplayScene))
    app.window.set_scene(browser := ReplayBrowser(app))
    app.window.pump()
    _click(app.window, browser.widgets, f"delete:{name}", lambda: app.window.overlay is not None)
    _click(app.window, app.window.overlay.widgets, "delete:yes", lambda: app.window.overlay is None)
    assert not entry.path.exists() and browser.entries == []


def test_resume_from_the_browser_opens_the_game_at_the_table(app):
    from kabuto.app.scene.replay_view import ReplayBrowser
    from kabuto.app.scene.table import TableScene

    _play_one_push_and_leave(app)
    browser = app.window.set_scene(ReplayBrowser(app))
    app.window.pump()
    [entry] = browser.entries
    _click(app.window, browser.widgets, f"resume:{entry.path.name}",
           lambda: isinstance(app.window.scene, TableScene))
    assert app.window.scene.session.interactive
