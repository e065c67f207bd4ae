"""Tooltips: the piece under the mouse is named - what it is, whose, and where in its stack -
from a real pointer move on a real window under Xvfb."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.app.xinput import XDOTOOL, map_window, pump_until, to_x11, window_id

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _hover(win, x, y):
    subprocess.run([XDOTOOL, "mousemove", "--window", str(window_id(win)), *map(str, to_x11(win, x, y))],
                   check=True, timeout=20)


def test_the_piece_under_the_mouse_is_named_with_its_owner_and_its_stack(app_window):
    from kabuto.app.game_session import GameSession
    from kabuto.app.scene.table import TableScene
    from kabuto.rules.game import Game

    game = Game.new(players=2, wrestlers=["gus", "hank"], seed=1, first_player=0)
    scene = app_window.set_scene(TableScene(app_window, GameSession(game, ("human", "human"),
                                                                     record=False)))
    map_window(app_window)
    wrestler = game.seats[1].piece_id
    p = game.world.piece(wrestler)
    x, y = scene.ring.transform.to_screen(p.x, p.y)
    _hover(app_window, x, y)
    assert pump_until(app_window, lambda: scene.tip_label.text != "")
    assert scene.tip_label.text == "Hercules Hank's wrestler piece, Blue's"
    _hover(app_window, scene.ring_area.x + 5, scene.ring_area.y + 5)  # off every piece
    assert pump_until(app_window, lambda: scene.tip_label.text == "")


def test_a_stack_says_how_high_it_is():
    from kabuto.app.game_session import GameSession
    from kabuto.rules.game import Game

    game = Game.new(players=2, wrestlers=["gus", "hank"], seed=1, first_player=0)
    session = GameSession(game, ("human", "human"), record=False)
    base = next(q for q in game.world.pieces if q.kind == "large")
    middle, top = [q for q in game.supply() if game.kind_of(q) in ("small", "medium")][:2]
    game.edit(middle, "board", base.x, base.y, base=base.id)
    game.edit(top, "board", base.x, base.y, base=middle)
    assert session.describe_piece(base.id) == "Large disc, in a stack of 3: at the bottom"
    assert session.describe_piece(middle).endswith("in a stack of 3: 2nd from the bottom")
    assert session.describe_piece(top).endswith("in a stack of 3: on top")
