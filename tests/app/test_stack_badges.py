"""Stack heights at a glance: every stack of two or more wears a count badge on its top piece,
readable at the smallest window (960 x 600), off the middle of the piece, and following the ring
when the window is resized - in a real window under Xvfb, with real keys."""
from __future__ import annotations

import math
import shutil

import pytest

from tests.app.xinput import key, map_window, pump_until, resize

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _stacked_game():
    """Gus and Hank's starting board with a large disc topped by a medium and a small one (3
    high), and another large disc topped by a small one (2 high)."""
    from kabuto.rules.game import Game

    game = Game.new(players=2, wrestlers=["gus", "hank"], seed=1, first_player=0)
    large = [q for q in game.world.pieces if q.kind == "large"]
    spare = [q for q in game.supply() if game.kind_of(q) in ("small", "medium")]
    medium = next(q for q in spare if game.kind_of(q) == "medium")
    smalls = [q for q in spare if game.kind_of(q) == "small"]
    b3, b2 = large[0], large[1]
    game.edit(medium, "board", b3.x, b3.y, base=b3.id)
    game.edit(smalls[0], "board", b3.x, b3.y, base=medium)
    game.edit(smalls[1], "board", b2.x, b2.y, base=b2.id)
    return game, smalls[0], smalls[1]


@pytest.fixture
def small_window(display):
    from kabuto_ui.window import Window

    win = Window(960, 600)
    win.switch_to()
    yield win
    win.close()


def _badge_centre(scene, pid):
    outer = scene.ring._badges[pid][0]
    return outer.x, outer.y, outer.radius


def test_a_stack_of_three_wears_a_badge_reading_3_on_its_top_piece(small_window):
    from kabuto.app.game_session import GameSession
    from kabuto.app.scene.table import TableScene

    game, top3, top2 = _stacked_game()
    scene = small_window.set_scene(TableScene(small_window, GameSession(game, ("human", "human"),
                                                                         record=False)))
    map_window(small_window)
    assert scene.ring.badge_texts() == {top3: "3", top2: "2"}  # single pieces wear none
    for pid in (top3, top2):
        bx, by, br = _badge_centre(scene, pid)
        p = game.world.piece(pid)
        cx, cy = scene.ring.transform.to_screen(p.x, p.y)
        r = scene.ring.transform.length(game.materials.kinds[p.kind].size)
        d = math.hypot(bx - cx, by - cy)
        # On the top piece's edge, not over its middle, and big enough to read.
        assert r * 0.5 < d < r + br and br >= 8
        assert scene.ring_area.contains(bx, by)
    # What the window shows there: the badge's dark disc with light digits inside its ring.
    w, h, px = small_window.pixels()
    bx, by, br = _badge_centre(scene, top3)

    def at(x, y):
        i = (int(y) * w + int(x)) * 4
        return px[i:i + 3]

    ring_px = at(bx + br - 0.7, by)  # on the light ring round the badge
    assert min(ring_px) > 180, ring_px
    digits = [at(bx + dx, by + dy) for dx in range(-3, 4) for dy in range(-4, 5)]
    assert any(min(c) > 150 for c in digits) and any(max(c) < 80 for c in digits)


def test_badges_follow_a_resize_and_step_aside_while_a_push_plays(small_window):
    from kabuto.app.game_session import GameSession
    from kabuto.app.scene.table import TableScene

    game, top3, _ = _stacked_game()
    scene = small_window.set_scene(TableScene(small_window, GameSession(game, ("human", "human"),
                                                                         record=False)))
    map_window(small_window)
    assert resize(small_window, 1280, 720)
    p = game.world.piece(top3)
    cx, cy = scene.ring.transform.to_screen(p.x, p.y)
    bx, by, _ = _badge_centre(scene, top3)
    assert math.hypot(bx - cx, by - cy) < scene.ring.transform.length(0.02)  # still on its piece
    key(small_window, "Return")  # push the medium disc straight in from the default aim
    assert pump_until(small_window, lambda: scene.mode == "playing")
    assert scene.ring.badge_texts() == {}  # the stack may come apart: no number goes stale
    key(small_window, "space")  # skip to the end
    assert pump_until(small_window, lambda: scene.mode == "aim")
    levels = game.world.levels()
    bases = {q.base for q in game.world.pieces if q.base}
    want = {q.id: str(levels[q.id] + 1) for q in game.world.pieces
            if levels[q.id] and q.id not in bases}
    assert want and scene.ring.badge_texts() == want
