"""A signature move's button stays where it was from turn to turn: what is written above it (a
move's card text or why it cannot be used now, the supply) may change length, the button may not
move. Real windows under Xvfb; the button is clicked where it was first drawn."""
from __future__ import annotations

import shutil

import pytest

from tests.app.xinput import click, map_window, pump_until

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _touch(game, disc: str, wrestler: str) -> None:
    """Put ``disc`` against ``wrestler``'s left side, just touching (the discs standing there on
    the crammed board go back to the supply first)."""
    import math

    w = game.world.piece(wrestler)
    for q in list(game.world.pieces):
        if q.id != wrestler and not game.is_wrestler_piece(q.id) and \
                math.hypot(q.x - (w.x - 0.025), q.y - w.y) < 0.012 + game.materials.kinds[q.kind].size:
            game.edit(q.id, "supply")
    for k in range(800):  # 0.05 mm steps: "touching" is within the collision slop
        try:
            game.edit(disc, "board", w.x - 0.015 - k * 0.00005, w.y)
        except ValueError:
            continue
        if disc in game.world.touching(wrestler):
            return
    raise AssertionError("no touching place found")


@pytest.mark.parametrize("size", [(1280, 720), (960, 600)])
def test_boulder_drop_stays_put_when_body_slams_text_and_the_supply_change(display, size):
    from kabuto.app.game_session import GameSession
    from kabuto.app.scene.table import TableScene
    from kabuto.rules.game import Game
    from kabuto_ui.window import Window

    win = Window(*size)
    try:
        game = Game.new(players=2, wrestlers=["gus", "mike"], seed=1, first_player=0)
        scene = win.set_scene(TableScene(win, GameSession(game, ("human", "human"), record=False)))
        map_window(win)
        slam = scene.widgets.find("move:Body Slam")
        assert not slam.enabled  # its line says why: no disc touches Mike's wrestler
        where = scene.widgets.find("move:Boulder Drop").rect
        # Body Slam becomes usable (its line now shows the card's longer text) and the supply
        # loses its large discs (a shorter supply line).
        _touch(game, "S01", game.seats[1].piece_id)
        for p in list(game.supply()):
            if game.kind_of(p) in ("large", "medium"):
                game.edit(p, game.inventory_place(1))
        scene.rebuild()
        assert scene.widgets.find("move:Body Slam").enabled
        assert scene.widgets.find("move:Boulder Drop").rect == where
        # A click where the button was drawn first presses it.
        click(win, where.cx, where.cy)
        assert pump_until(win, lambda: scene.mode == "targets")  # "click a large disc"
    finally:
        win.close()
