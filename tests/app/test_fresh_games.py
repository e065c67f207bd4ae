"""Fresh games: every game started from the start menu is a new one (a fresh seed, the first player
drawn at random or picked), the menu remembers its last choices across launches, and a given seed
still plays the same game. Real clicks on a real window under Xvfb."""
from __future__ import annotations

import shutil

import pytest

from tests.app.xinput import click, pump_until

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _press(app, name: str, done) -> None:
    w = app.window.scene.widgets.find(name)
    assert w is not None, f"no {name!r} button"
    click(app.window, w.rect.cx, w.rect.cy)
    assert pump_until(app.window, done), f"clicking {name!r} did nothing"


def _start_from_menu(app):
    from kabuto.app.scene.table import TableScene

    app.open_menu()
    _press(app, "start", lambda: isinstance(app.window.scene, TableScene))
    return app.window.scene.session.game


def test_each_game_from_the_menu_is_a_new_game(app):
    from kabuto.app.game_config import GameConfig

    app.last_config = GameConfig(2, ("human", "human"), seed=None)   # two humans: no AI turns
    seeds = {_start_from_menu(app).setup.seed for _ in range(4)}
    assert len(seeds) == 4                     # four games, four different seeds


def test_who_pushes_first_is_drawn_at_random_when_not_picked(display):
    from kabuto.app.game_config import GameConfig
    from kabuto.app.game_session import GameSession

    cfg = GameConfig(3, ("human",) * 3, seed=None)
    firsts = {GameSession.new(cfg, record=False).game.setup.first_player for _ in range(40)}
    assert firsts == {0, 1, 2}                 # each seat starts some games (misses: 3 * (2/3)^40)


def test_the_first_player_can_be_picked_and_the_choices_survive_a_restart(app, tmp_path):
    from kabuto.app.main import App, Options
    from kabuto.app.scene.menu import MenuScene
    from kabuto.app.scene.table import TableScene

    app.open_menu()
    _press(app, "players:3", lambda: app.window.scene.config.players == 3)
    _press(app, "seat:1", lambda: app.window.scene.config.seats[1] == "human")
    _press(app, "ai-level", lambda: app.window.scene.config.ai_level != "medium")
    level = app.window.scene.config.ai_level
    _press(app, "first", lambda: app.window.scene.config.first_player == 0)
    _press(app, "first", lambda: app.window.scene.config.first_player == 1)
    wrestlers = app.window.scene.config.wrestlers
    _press(app, "start", lambda: isinstance(app.window.scene, TableScene))
    game = app.window.scene.session.game
    assert game.players == 3 and game.setup.first_player == 1   # Blue, as picked, pushes first
    app.window.close()

    again = App(Options(size=(1280, 720), ai_delay=0.0, data_dir=tmp_path / "data", ai_workers=1))
    try:
        again.open_menu()
        menu = again.window.scene
        assert isinstance(menu, MenuScene)
        cfg = menu.config
        assert (cfg.players, cfg.seats[1], cfg.ai_level, cfg.first_player, cfg.wrestlers) == \
            (3, "human", level, 1, wrestlers)
        assert cfg.seed is None                # the choices are kept, never the seed
    finally:
        again.window.close()


def test_a_given_seed_plays_the_same_game(display):
    from kabuto.app.game_config import GameConfig
    from kabuto.app.game_session import GameSession

    cfg = GameConfig(2, ("human", "human"), seed=12345)
    a, b = (GameSession.new(cfg, record=False).game for _ in range(2))
    assert a.to_json() == b.to_json()
    fresh = GameConfig(2, ("human", "human"), seed=None)
    c, d = (GameSession.new(fresh, record=False).game for _ in range(2))
    assert c.setup.seed != d.setup.seed


def test_a_saved_setup_that_no_longer_fits_gives_the_defaults(tmp_path):
    from kabuto.app import settings

    (tmp_path / "settings.json").write_text('{"pace": "fast", "setup": {"players": 9, "seats": []}}')
    s = settings.load(tmp_path)
    assert s.pace == "fast" and s.setup is None


def test_every_ai_level_says_in_one_short_line_what_it_is_like(display):
    from kabuto.ai.levels import level_names
    from kabuto.app.catalogue import level_line

    for name in level_names():
        line = level_line(name)
        assert line and len(line) <= 55 and "\n" not in line, name


def test_the_menu_shows_the_chosen_levels_line(app):
    from kabuto.app.catalogue import level_line

    app.open_menu()
    menu = app.window.scene
    _press(app, "ai-level", lambda: menu.config.ai_level != app.last_config.ai_level)
    texts = [getattr(it, "text", "") for it in menu.items]
    assert level_line(menu.config.ai_level) in texts
