"""A signature move shows what it will do before it is made: after its button (and its targets) are
clicked, the aim bar says what it would knock out, move or place, what that decides and what it
costs, the ring draws the pieces it moves where they would end and rings those it would knock out,
and nothing has happened yet - Cancel (or Esc) leaves the game exactly as it was, Confirm (or Enter)
makes the move the preview showed. Real clicks and keys on a real window under Xvfb."""
from __future__ import annotations

import math
import shutil

import pytest

from tests.app.xinput import click, key, map_window, pump_until

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _table(win, game):
    from kabuto.app.game_session import GameSession
    from kabuto.app.scene.table import TableScene

    scene = win.set_scene(TableScene(win, GameSession(game, ("human", "human"), record=False)))
    map_window(win)
    return scene


def _press(win, scene, name):
    """Click the widget called ``name`` where the window draws it."""
    w = scene.widgets.find(name)
    assert w is not None and w.enabled, name
    click(win, w.rect.x + w.rect.w / 2, w.rect.y + w.rect.h / 2)


def _click_world(win, scene, x, y):
    click(win, *scene.ring.transform.to_screen(x, y))


def _bar_text(scene) -> str:
    return " ".join(getattr(it, "text", "") for it in scene.bar.items)


def _no_leaks(text):
    from tests.app.helpers import leaks

    assert leaks(text) == [], text


@pytest.mark.usefixtures("grip_takes_wrestlers")
def test_vice_grip_says_it_knocks_out_hank_and_wins_then_escape_changes_nothing(app_window):
    from kabuto.rules.game import Game
    from kabuto_ui import theme

    game = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    hank = game.seats[1].piece_id
    for p in list(game.world.pieces):  # clear the middle (Hank's long horn reaches 15 mm out)
        if p.id != hank and p.x * p.x + p.y * p.y < 0.045 ** 2:
            game.edit(p.id, "supply")
    game.edit(hank, "board", 0.0, 0.0)  # Hercules Hank's wrestler in the centre circle
    scene = _table(app_window, game)
    before = game.to_json()
    _press(app_window, scene, "move:Vice Grip")
    assert pump_until(app_window, lambda: scene.mode == "confirm")
    text = _bar_text(scene)
    assert "Vice Grip knocks out Hercules Hank's wrestler piece" in text and "you win" in text
    assert "Costs 1 small disc from your inventory, paid to Blue." in text
    _no_leaks(text)
    assert scene.ring._marks[hank].color == theme.TEXT_BAD     # ringed: it would fall
    assert scene.widgets.find("move:confirm") is not None
    assert game.to_json() == before                          # only a preview
    key(app_window, "Escape")
    assert pump_until(app_window, lambda: scene.mode == "aim")
    assert game.to_json() == before and not scene.ring._marks
    assert scene.widgets.find("move:confirm") is None
    # Again, and this time Enter: the move does what the preview said.
    _press(app_window, scene, "move:Vice Grip")
    assert pump_until(app_window, lambda: scene.mode == "confirm")
    key(app_window, "Return")
    assert pump_until(app_window, lambda: scene.mode == "over", limit_s=30)
    assert game.winner == 0 and hank not in game.world


def test_boulder_drop_shows_the_boulder_on_the_chosen_disc_and_cancel_takes_it_back(app_window):
    from kabuto.rules.game import Game

    game = Game.new(players=2, wrestlers=["gus", "mike"], seed=1, first_player=0)
    scene = _table(app_window, game)
    before = game.to_json()
    _press(app_window, scene, "move:Boulder Drop")
    assert pump_until(app_window, lambda: scene.mode == "targets")
    base = game.world.piece(sorted(scene.ring._marks)[0])     # a ringed large disc
    _click_world(app_window, scene, base.x, base.y)
    assert pump_until(app_window, lambda: scene.mode == "confirm")
    text = _bar_text(scene)
    assert "Boulder Drop puts the Boulder on the large disc" in text
    assert "Costs 1 medium disc from your inventory, paid to Blue." in text
    _no_leaks(text)
    ((pid, pose),) = scene.ring.ghost_poses().items()
    assert game.kind_of(pid) == "gus_boulder" and pid not in game.world
    assert pose == (base.x, base.y, pose[2], 1)               # on the disc, one level up
    assert game.to_json() == before
    _press(app_window, scene, "move:cancel")
    assert pump_until(app_window, lambda: scene.mode == "aim")
    assert game.to_json() == before and scene.ring.ghost_poses() == {}


def test_a_free_move_says_it_costs_nothing(app_window):
    """Sparkle costs nothing since design round 2: the preview says so instead of a cost."""
    from kabuto.rules.game import Game

    game = Game.new(players=2, wrestlers=["jade", "mike"], seed=1, first_player=0)
    scene = _table(app_window, game)
    _press(app_window, scene, "move:Sparkle")
    assert pump_until(app_window, lambda: scene.mode == "confirm")
    text = _bar_text(scene)
    assert "It costs nothing." in text and "Costs" not in text, text
    _no_leaks(text)
    key(app_window, "Return")
    assert pump_until(app_window, lambda: scene.mode == "aim")
    assert any(game.kind_of(q) == "jade_gem" for q in game.ledger.pieces_in("seat:0"))


def test_a_roll_shows_where_the_ball_would_end_and_another_click_moves_it_there(app_window):
    from kabuto.rules.game import Game

    game = Game.new(players=2, wrestlers=["dora", "mike"], seed=1, first_player=0)
    ball = next(q for q in game.supply() if game.kind_of(q) == "dora_ball")
    R = game.materials.ring.radius
    # The Dung Ball near the top of the ring, with nothing round it.
    for p in list(game.world.pieces):
        if p.y > R * 0.3 and not game.is_wrestler_piece(p.id):
            game.edit(p.id, "supply")
    y0 = R - 0.03
    game.edit(ball, "board", 0.0, y0)
    scene = _table(app_window, game)
    before = game.to_json()
    _press(app_window, scene, "move:Roll")
    assert pump_until(app_window, lambda: scene.mode == "targets")
    _click_world(app_window, scene, 0.012, y0)               # 12 mm to the right
    assert pump_until(app_window, lambda: scene.mode == "confirm")
    text = _bar_text(scene)
    assert "Roll moves the Dung Ball 12 mm" in text and "paid to Blue" in text, text
    _no_leaks(text)
    x, y, _, level = scene.ring.ghost_poses()[ball]
    assert math.hypot(x - 0.012, y - y0) < 0.0008 and level == 0   # a pixel or so: the click
    assert game.to_json() == before
    # Another click chooses again: 20 mm to the left.
    _click_world(app_window, scene, -0.020, y0)
    assert pump_until(app_window, lambda: "20 mm" in _bar_text(scene))
    ghost = scene.ring.ghost_poses()[ball]
    assert ghost[0] < -0.019 and game.to_json() == before
    key(app_window, "Return")
    assert pump_until(app_window, lambda: scene.mode == "aim" and not scene.flights, limit_s=30)
    p = game.world.piece(ball)
    assert (p.x, p.y) == (ghost[0], ghost[1])                 # where the preview drew it
