"""The card table's text never leaves its panel or runs into other text: the set-up screen, a game of
SUMO, the Sumo Card Game and Sumida River for 3 and 4 players in the middle of play, each game's
summary and the pause menu, laid out at 960 x 600, 1280 x 720 and 1920 x 1080 in a real window
(resized through the X server) and measured with pyglet's own measure of every label."""
from __future__ import annotations

import shutil

import pytest

from tests.app.test_text_fits import SIZES, box, check_panel, inside, overlap
from tests.app.xinput import resize_mapped

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")

MODES = ["sumo", "sumo-card-game", "sumida-river-3", "sumida-river-4"]


@pytest.fixture
def window(display):
    from cards.table.scene import open_window

    win = open_window(1280, 720)
    yield win
    win.close()


def _px(renderer, rect):
    """A design rectangle in window pixels, as a Rect."""
    from kabuto_ui.geometry import Rect

    return Rect(*renderer._rect_px(rect.x, rect.y, rect.w, rect.h))


def _labels(renderer, item):
    import pyglet

    drawn = renderer._drawn.get(item.key)
    return [p for p, _ in (drawn.parts if drawn else []) if isinstance(p, pyglet.text.Label) and p.text.strip()]


def check_display(name, scene, problems):
    """Every text item inside the panel it sits on (the smallest visible box of its layer or
    below holding its anchor; the design screen if none), every button caption inside its button,
    and no two texts of one layer overlapping."""
    from cards.table.display import DESIGN_H, DESIGN_W, BoxItem, ButtonItem, TextItem
    from kabuto_ui.geometry import Rect

    scene.sync()
    r = scene.renderer
    disp = scene.model.display()
    screen = _px(r, Rect(0, 0, DESIGN_W, DESIGN_H))
    boxes = [it for it in disp.items if isinstance(it, BoxItem) and (it.fill[3] > 0 or it.border)]
    by_layer: dict[int, list] = {}
    for it in disp.items:
        if isinstance(it, TextItem):
            holders = [b for b in boxes if b.layer <= it.layer and b.rect.contains(it.x, it.y)]
            # Its own layer's box first (a pop-up's text sits on the pop-up, not on what is under it).
            panel = min(holders, key=lambda b: (-b.layer, b.rect.w * b.rect.h)).rect if holders else None
            where = _px(r, panel) if panel is not None else screen
            for lab in _labels(r, it):
                if not inside(box(lab), where):
                    problems.append(f"{name}: {lab.text[:40]!r} at {tuple(round(v) for v in box(lab))} "
                                    f"leaves {where}")
                by_layer.setdefault(it.layer, []).append(lab)
        elif isinstance(it, ButtonItem):
            for lab in _labels(r, it):
                if not inside(box(lab), _px(r, it.rect), slack=3):
                    problems.append(f"{name}: button caption {lab.text!r} leaves its button")
                by_layer.setdefault(it.layer, []).append(lab)
    for labs in by_layer.values():
        for i, a in enumerate(labs):
            for b in labs[i + 1:]:
                if overlap(box(a), box(b)):
                    problems.append(f"{name}: {a.text[:30]!r} overlaps {b.text[:30]!r}")


def _table(win, mode_key, seed=7):
    from cards.table.config import Pacing, SeatSpec, TableConfig, table_data
    from cards.table.scene import CardTableScene

    mode = table_data().mode(mode_key)
    seats = (SeatSpec("human"),) + tuple(SeatSpec("bot", "heuristic") for _ in range(mode.players - 1))
    return win.set_scene(CardTableScene(win, TableConfig(mode.key, seats, seed, pacing=Pacing().instant())))


def _play(scene, decisions, seed=7, stop_at_summary=False):
    """Seat 0's random legal moves (the bots answer) until ``decisions`` were made, a summary
    shows (with ``stop_at_summary``), or the game is over; whether it stopped at a summary."""
    from cards.table.autoplay import play_randomly

    _, summary = play_randomly(scene, decisions, seed, stop=lambda _: stop_at_summary)
    return summary is not None


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_card_setup_screen_text_fits(window, size):
    from cards.table.scene import SetupScene

    resize_mapped(window, *size)
    scene = window.set_scene(SetupScene(window, seed=7))
    problems: list[str] = []
    check_display("setup", scene, problems)
    for mode in ("sumida-river-4", "sumo-suits"):  # the most seats, the longest title
        scene.model.handle(f"mode:{mode}")
        check_display(f"setup {mode}", scene, problems)
    assert not problems, "\n".join(problems[:60])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("mode", MODES)
def test_a_card_table_its_summary_and_its_pause_menu_fit(window, size, mode):
    resize_mapped(window, *size)
    problems: list[str] = []
    scene = _table(window, mode)
    check_display(f"{mode} start", scene, problems)
    _play(scene, 6)
    check_display(f"{mode} mid-game", scene, problems)
    scene = _table(window, mode)
    assert _play(scene, 10**6, stop_at_summary=True), "no summary came"
    check_display(f"{mode} summary", scene, problems)
    scene.pause()
    d = window.overlay
    assert d is not None
    check_panel(f"{mode} pause", d.items, d.box, problems)
    for w in d.widgets.items:
        caption = getattr(w, "caption", None)
        if caption is not None and caption.text and not inside(box(caption), w.rect, slack=3):
            problems.append(f"{mode} pause: button caption {caption.text!r} leaves its button")
    assert not problems, "\n".join(problems[:60])
