"""A move that places a piece on a side of another (Dung Dora's Roll Up) lights the sides the rules
accept, as other moves ring the pieces they may target: every lit side, clicked, is taken; a side
not lit is one the rules refuse; with no side free the button says so at once. Real clicks on a
real window under Xvfb."""
from __future__ import annotations

import math
import shutil

import pytest

from tests.app.test_move_preview import _press, _table
from tests.app.xinput import click, pump_until

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _dora_first():
    from kabuto.rules.game import Game

    return Game.new(players=2, wrestlers=["dora", "gus"], seed=1, first_player=0)


def test_roll_up_lights_the_sides_it_may_use_and_each_lit_side_is_taken(app_window):
    from kabuto.app.table_flow import SIDE_STEPS

    game = _dora_first()
    dora = game.world.piece(game.seats[0].piece_id)
    # Room on the ring's inner side of Dora's wrestler: clear what stands within 65 mm of it there.
    for p in list(game.world.pieces):
        if p.id != dora.id and math.hypot(p.x - dora.x, p.y - dora.y) < 0.065 and p.x < dora.x:
            game.edit(p.id, "supply")
    scene = _table(app_window, game)
    _press(app_window, scene, "move:Roll Up")
    assert pump_until(app_window, lambda: scene.mode == "targets")
    sides = scene.flow.marks().sides
    assert 0 < len(sides) < SIDE_STEPS
    assert scene.ring.spot_places() == [(s.x, s.y) for s in sides]  # drawn where they are
    # A lit side is where the Dung Ball would stand: touching Dora's wrestler, on the ring.
    for s in sides:
        assert math.hypot(s.x, s.y) + s.r <= game.materials.ring.radius + 1e-6
    # Each lit side, clicked at the middle of its ring, is taken: the preview puts the ball there.
    for s in (sides[0], sides[len(sides) // 2], sides[-1]):
        click(app_window, *scene.ring.transform.to_screen(s.x, s.y))
        assert pump_until(app_window, lambda s=s: scene.mode == "confirm" and any(
            math.hypot(p[0] - s.x, p[1] - s.y) < 1e-6 for p in scene.ring.ghost_poses().values()))
    # A side not lit is one the rules refuse.
    lit = {s.click for s in sides}
    session = scene.session
    for k in range(SIDE_STEPS):
        a = 2 * math.pi * k / SIDE_STEPS
        c = (dora.x + 0.01 * math.cos(a), dora.y + 0.01 * math.sin(a))
        if c not in lit:
            with pytest.raises(ValueError):
                session.preview_move("Roll Up", [c])


def test_roll_up_with_no_side_free_says_so_when_its_button_is_pressed(app_window):
    game = _dora_first()  # the starting crowd: every side blocked or over the edge
    scene = _table(app_window, game)
    before = game.to_json()
    _press(app_window, scene, "move:Roll Up")
    assert pump_until(app_window, lambda: "no side has room" in scene.message)
    assert scene.mode == "aim" and game.to_json() == before
