"""Signature pieces are drawn as themselves: the Boulder in its own stone grey, the Dung Ball in its
own brown (the colours of assets/wrestlers.toml), not as paler copies of their wrestlers, and with
no wrestler's front mark. Pixels read back from a real window under Xvfb."""
from __future__ import annotations

import math
import shutil

import pytest

from tests.app.xinput import map_window

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _near(a, b, tol=14) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b[:3], strict=True))


def test_the_boulder_and_the_dung_ball_show_their_own_colours(app_window, tmp_path):
    from PIL import Image

    from kabuto.app.game_session import GameSession
    from kabuto.app.scene.table import TableScene
    from kabuto.rules.game import Game
    from kabuto.rules.wrestlers import wrestler
    from kabuto_ui import theme

    game = Game.new(players=2, wrestlers=["gus", "dora"], seed=1, first_player=0)
    # Clear a strip off the aim line (which runs along y = 0) and put both signature pieces there.
    for p in list(game.world.pieces):
        if abs(p.y - 0.045) < 0.035 and not game.is_wrestler_piece(p.id):
            game.edit(p.id, "supply")
    own = {}
    for key, sig, x in (("gus", "boulder", -0.03), ("dora", "ball", 0.03)):
        spec = next(s for s in wrestler(key).signature if s.key == sig)
        pid = spec.ids(key)[0]
        game.edit(pid, "board", x, 0.045)
        own[pid] = theme.from_hex(spec.colour)
    scene = app_window.set_scene(TableScene(app_window, GameSession(game, ("human", "human"), record=False)))
    map_window(app_window)
    app_window.pump()
    img = Image.open(app_window.screenshot(tmp_path / "pieces.png")).convert("RGB")
    for pid, colour in own.items():
        p = game.world.piece(pid)
        size = game.materials.kinds[p.kind].size
        # Behind the centre and where a wrestler's front mark would be: the piece's own colour.
        for along in (-0.35, 0.3):
            wx = p.x + along * size * math.cos(p.angle)
            wy = p.y + along * size * math.sin(p.angle)
            sx, sy = scene.ring.transform.to_screen(wx, wy)
            seen = img.getpixel((int(sx), app_window.height - 1 - int(sy)))
            assert _near(seen, colour), (pid, along, seen, colour)
