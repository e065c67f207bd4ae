"""A dialog's subtitle is drawn whole: a one-line message shows every row of its letters, whatever
the window's height (a dialog centred between pixel rows used to cut the tops off). Pixels read
back from a real window under Xvfb."""
from __future__ import annotations

import shutil

import pytest

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _ink_rows(win, tmp_path, height: int) -> int:
    """Rows of the dialog's message that hold letter pixels, in a window ``height`` tall."""
    from PIL import Image

    from kabuto_ui.overlay import Dialog, DialogButton
    from tests.app.xinput import resize_mapped

    resize_mapped(win, 1000, height)
    dialog = Dialog("Paused", [DialogButton("Continue", lambda: None)], message="The Tilted HIT list.")
    win.show_overlay(dialog)
    win.pump()
    text = next(it for it in dialog.items if getattr(it, "text", "") == dialog.message)
    shot = win.screenshot(tmp_path / f"dialog-{height}.png")
    img = Image.open(shot).convert("L")
    left, right = int(text.x), int(text.x + text.content_width)
    top = height - int(text.y) - 4  # pyglet's y is from the bottom, the picture's from the top
    rows = 0
    background = img.getpixel((left - 6, top))
    for row in range(top, top + int(text.content_height) + 8):
        if any(abs(img.getpixel((col, row)) - background) > 40 for col in range(left, right)):
            rows += 1
    win.close_overlay()
    return rows


def test_a_one_line_subtitle_keeps_the_tops_of_its_letters(app_window, tmp_path):
    # One of two heights a pixel apart centres the dialog between pixel rows.
    even, odd = _ink_rows(app_window, tmp_path, 720), _ink_rows(app_window, tmp_path, 721)
    assert even == odd and even >= 10, (even, odd)


def test_dialogs_and_pages_scale_their_text_up_in_a_1920x1080_window(app_window):
    """The pause menu's and a rules page's text is half as large again at 1920 x 1080 as at
    1280 x 720, and still inside its box and its buttons."""
    from kabuto_ui.overlay import Dialog, DialogButton, TextPage
    from tests.app.xinput import resize_mapped

    def measure(w, h):
        resize_mapped(app_window, w, h)
        d = Dialog("Paused", [DialogButton("Save and leave to the menu", lambda: None)], message="A one-line note.")
        app_window.show_overlay(d)
        app_window.pump()
        button = d.widgets.items[0]
        cap = button.caption
        assert cap.content_width <= button.rect.w and cap.content_height <= button.rect.h
        title = d.items[2]
        assert d.box.contains(title.x, title.y)
        page = TextPage("Rules", "Push a rival's wrestler out of the ring.")
        app_window.show_overlay(page)
        app_window.pump()
        size = page.body.document.get_style("font_size", 0)
        app_window.close_overlay()
        return cap.font_size, title.font_size, size

    small, big = measure(1280, 720), measure(1920, 1080)
    for a, b in zip(small, big, strict=True):
        assert b >= 1.45 * a, (small, big)
