"""The card table's longest button captions fit their buttons in a 960 x 600 window: the Sumo Card
Game's "Challenge with sumo cards" (with Jokers), Sumida River's "Play single (black)" and the
set-up screen's Jokers choice. A real window resized through the X server; the captions measured
with pyglet's own measure."""
from __future__ import annotations

import random
import shutil

import pytest

from tests.app.test_card_text_fits import check_display
from tests.app.xinput import resize_mapped

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


@pytest.fixture
def window(display):
    from cards.table.scene import open_window

    win = open_window(1280, 720)
    yield win
    win.close()


def _hot_seat(win, mode, seed):
    from cards.table.config import Pacing, SeatSpec, TableConfig, table_data
    from cards.table.scene import CardTableScene

    n = table_data().mode(mode).players
    config = TableConfig(mode, tuple(SeatSpec("human") for _ in range(n)), seed, pacing=Pacing().instant())
    return win.set_scene(CardTableScene(win, config))


def _until(scene, want, seed):
    """Random legal moves on the engine until ``want(legal)``; then the table shows the seat to act."""
    m, rng = scene.model.match, random.Random(seed)
    for _ in range(2000):
        legal = m.game.legal_actions()
        if m.game.is_over:
            return False
        if want(legal):
            m.viewer, m.pass_to = m.current, None
            m.pending.clear()
            scene.model.changed()
            return True
        m.game.apply(rng.choice(legal))
    return False


def _cramped(name, scene, problems, margin=3.0):
    """Captions closer than ``margin`` pixels to their button's sides."""
    from cards.table.display import ButtonItem
    from tests.app.test_card_text_fits import _labels, _px

    r = scene.renderer
    for it in scene.model.display().items:
        if isinstance(it, ButtonItem):
            b = _px(r, it.rect)
            for lab in _labels(r, it):
                left = lab.x - lab.content_width / 2
                if left < b.x + margin or left + lab.content_width > b.right - margin:
                    problems.append(f"{name}: {lab.text!r} ({lab.content_width:.0f} px) is cramped in "
                                    f"its {b.w:.0f} px button")


def _captions(scene):
    from cards.table.display import ButtonItem

    return [it.text for it in scene.model.display().items if isinstance(it, ButtonItem)]


def test_the_longest_card_table_captions_fit_at_960x600(window):
    from cards.table.scene import SetupScene

    resize_mapped(window, 960, 600)
    problems: list[str] = []
    for seed in range(40):
        scene = _hot_seat(window, "sumo-card-game-jokers", seed)
        if _until(scene, lambda legal: "challenge-sumo" in legal, seed):
            break
    assert "Challenge with sumo cards" in _captions(scene)
    check_display("challenge", scene, problems)
    _cramped("challenge", scene, problems)
    scene = _hot_seat(window, "sumida-river-4", 3)
    assert _until(scene, lambda legal: any(a.startswith("meld single-black") for a in legal), 3)
    hand = scene.model.match.observation()["hand"]
    black = next(c for c in hand if c[-1] in "CS" and not c.startswith("W"))
    scene.model.handle(f"card:{black}")
    assert "Play single (black)" in _captions(scene), _captions(scene)
    check_display("sumida single", scene, problems)
    _cramped("sumida single", scene, problems)
    setup = window.set_scene(SetupScene(window, seed=7))
    setup.model.handle("mode:sumo-card-game-jokers")
    check_display("setup jokers", setup, problems)
    _cramped("setup jokers", setup, problems)
    assert not problems, "\n".join(problems)
