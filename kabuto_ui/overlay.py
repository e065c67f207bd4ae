"""Pop-ups over any scene: a dialog of buttons (the pause menu, "Quit?"), and a page of text (the
rules). The window shows at most one (:meth:`kabuto_ui.window.Window.show_overlay`); while one is
up it takes every input event, the scene under it stops (no ticks: a push or a bot waits), and it
is drawn over the scene's last picture.

Keys: Escape is the overlay's "back" (``on_cancel``: Continue in the pause menu), Enter presses
the highlighted button, Up/Down/Tab move the highlight. The mouse wheel scrolls a page of text.

:func:`pause_menu` is the one pause menu of every game screen (the Kabuto table and the card
table): Continue, Rules, Save and leave to the menu, Quit (after asking).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group
from pyglet.window import key

from kabuto_ui import theme
from kabuto_ui.geometry import Rect
from kabuto_ui.widgets import Button, Widgets, label

# The window (kabuto_ui.window.Window) is typed Any here: the window shows overlays, so naming its
# class here would make an import cycle, even a type-checking one.
Window = Any  # noqa: N816


@dataclass(frozen=True)
class DialogButton:
    """One button of a dialog: its caption, what it does, and a name tests find it by."""

    text: str
    action: Callable[[], None]
    name: str = ""


class Overlay:
    """Base of the pop-ups: a dimmer over the whole window and a box in the middle."""

    def __init__(self) -> None:
        self.batch = Batch()
        self.widgets = Widgets()
        self.items: list = []
        self.window: Window | None = None
        self.box = Rect(0, 0, 1, 1)

    def layout(self, width: int, height: int) -> None:
        raise NotImplementedError

    def clear(self) -> None:
        self.widgets.clear()
        for it in self.items:
            it.delete()
        self.items = []

    def draw(self) -> None:
        self.batch.draw()

    def dismiss(self) -> None:
        """Take this overlay off the window (the scene goes on)."""
        if self.window is not None and self.window.overlay is self:
            self.window.close_overlay()

    # ----- input (every event is handled: nothing reaches the scene under an overlay) -------------
    def on_mouse_press(self, x, y, button, modifiers) -> bool:
        self.widgets.on_mouse_press(x, y, button, modifiers)
        return True

    def on_mouse_release(self, x, y, button, modifiers) -> bool:
        self.widgets.on_mouse_release(x, y)
        return True

    def on_mouse_motion(self, x, y, dx, dy) -> bool:
        self.widgets.on_mouse_motion(x, y)
        return True

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers) -> bool:
        return True

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y) -> bool:
        return True

    def on_key_press(self, symbol, modifiers) -> bool:
        return True

    def on_text(self, text) -> bool:
        return True


class Dialog(Overlay):
    """A title, an optional message, and a column of buttons. ``on_cancel`` runs on Escape (and
    is what the first button does when none is given)."""

    WIDTH = 360
    ROW = 48

    def __init__(self, title: str, choices: list[DialogButton], message: str = "",
                 on_cancel: Callable[[], None] | None = None):
        super().__init__()
        self.title = title
        self.choices = choices
        self.message = message
        self.on_cancel = on_cancel
        self.focus = 0

    def layout(self, width: int, height: int) -> None:
        self.clear()
        b = self.batch
        bg, mid, fg = Group(0), Group(1), Group(2)
        s = theme.text_scale(width, height)  # a big window: bigger text, in a bigger box
        w = round(self.WIDTH * s)
        row = round(self.ROW * s)
        text = (label(self.message, 0, 0, b, fg, size=theme.FONT_SMALL * s, color=theme.TEXT_DIM,
                      width=w - 40, multiline=True, anchor_y="top") if self.message else None)
        text_h = text.content_height + 12 if text is not None else 0
        top = round(70 * s)  # the title's room
        h = top + text_h + row * len(self.choices) + 10
        # Whole pixels: text placed between pixel rows is drawn with its tops cut off.
        x, y = (width - w) // 2, (height - h) // 2
        self.box = Rect(x, y, w, h)
        self.items += [
            shapes.Rectangle(0, 0, width, height, color=theme.DIMMER, batch=b, group=bg),
            shapes.BorderedRectangle(x, y, w, h, border=2, color=theme.PANEL[:3],
                                     border_color=theme.ACCENT[:3], batch=b, group=mid),
            label(self.title, x + w / 2, y + h - round(42 * s), b, fg, size=(theme.FONT_TITLE - 4) * s,
                  bold=True, anchor_x="center", color=theme.ACCENT),
        ]
        if text is not None:
            text.x, text.y = x + 20, y + h - round(60 * s)
            self.items.append(text)
        by = y + h - top - text_h
        for i, ch in enumerate(self.choices):
            by -= row
            self.widgets.add(Button(Rect(x + 30, by + 6, w - 60, row - 10), ch.text,
                                    self._press(ch), b, fg, selected=(i == self.focus),
                                    size=theme.FONT_SIZE * s, name=ch.name or ch.text))

    def _press(self, ch: DialogButton) -> Callable[[], None]:
        def run() -> None:
            self.dismiss()
            ch.action()
        return run

    def on_key_press(self, symbol, modifiers) -> bool:
        if symbol == key.ESCAPE:
            self.dismiss()
            if self.on_cancel is not None:
                self.on_cancel()
        elif symbol in (key.ENTER, key.RETURN, key.SPACE) and self.choices:
            self._press(self.choices[self.focus])()
        elif symbol in (key.DOWN, key.TAB, key.UP) and self.choices:
            step = -1 if symbol == key.UP or modifiers & key.MOD_SHIFT else 1
            self.focus = (self.focus + step) % len(self.choices)
            if self.window is not None:
                self.layout(self.window.width, self.window.height)
        return True


class TextPage(Overlay):
    """A page of text in a box (the rules), scrolled with the wheel or the arrow keys; Escape or
    the Back button closes it (``on_close``)."""

    def __init__(self, title: str, text: str, on_close: Callable[[], None] | None = None):
        super().__init__()
        self.title = title
        self.text = text
        self.on_close = on_close
        self.scroll = 0.0
        self.body: pyglet.text.layout.ScrollableTextLayout | None = None

    def layout(self, width: int, height: int) -> None:
        self.clear()
        b = self.batch
        bg, mid, fg = Group(0), Group(1), Group(2)
        s = theme.text_scale(width, height)  # a big window: bigger text, in a wider page
        w, h = min(round(820 * s), width - 80), height - 80
        x, y = (width - w) // 2, 40.0  # whole pixels, as in Dialog
        self.box = Rect(x, y, w, h)
        self.items += [
            shapes.Rectangle(0, 0, width, height, color=theme.DIMMER, batch=b, group=bg),
            shapes.BorderedRectangle(x, y, w, h, border=2, color=theme.PANEL[:3],
                                     border_color=theme.ACCENT[:3], batch=b, group=mid),
            label(self.title, x + 24, y + h - 40, b, fg, size=(theme.FONT_TITLE - 6) * s, bold=True,
                  color=theme.ACCENT),
        ]
        doc = pyglet.text.decode_text(self.text)
        doc.set_style(0, len(doc.text), {"font_name": theme.FONT, "font_size": (theme.FONT_SMALL + 1) * s,
                                         "color": theme.TEXT})
        self.body = pyglet.text.layout.ScrollableTextLayout(
            doc, width=int(w - 48), height=int(h - 120), multiline=True, batch=b, group=fg)
        self.body.x, self.body.y = int(x + 24), int(y + 64)
        self.body.view_y = int(self.scroll)
        self.items.append(self.body)
        self.items.append(label("wheel or arrows: scroll  ·  Esc: back", x + 24, y + 24, b, fg,
                                size=theme.FONT_SMALL, color=theme.TEXT_DIM))
        self.widgets.add(Button(Rect(x + w - 140, y + 14, 116, 36), "Back", self.close, b, fg,
                                name="back"))

    @property
    def fits(self) -> bool:
        """True when the whole text shows without scrolling."""
        return self.body is None or self.body.content_height <= (self.body.height or 0)

    def close(self) -> None:
        self.dismiss()
        if self.on_close is not None:
            self.on_close()

    def scroll_by(self, pixels: float) -> None:
        if self.body is None:
            return
        lowest = min(0, (self.body.height or 0) - self.body.content_height)
        self.scroll = max(lowest, min(0.0, self.scroll + pixels))
        self.body.view_y = int(self.scroll)

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y) -> bool:
        self.scroll_by(scroll_y * 40)
        return True

    def on_key_press(self, symbol, modifiers) -> bool:
        if symbol in (key.ESCAPE, key.ENTER, key.RETURN):
            self.close()
        elif symbol in (key.DOWN, key.PAGEDOWN):
            self.scroll_by(-40 if symbol == key.DOWN else -300)
        elif symbol in (key.UP, key.PAGEUP):
            self.scroll_by(40 if symbol == key.UP else 300)
        return True


def pause_menu(window: Window, *, rules: tuple[str, str] | None, save_and_leave: Callable[[], None],
               quit_app: Callable[[], None], title: str = "Paused",
               message: str = "", settings: list[DialogButton] | None = None,
               leave: str = "Save and leave to the menu") -> Dialog:
    """Show the pause menu over ``window``'s scene: Continue (Escape too), Rules (``rules`` is a
    (title, text) page; back to this menu after), the screen's ``settings`` (a pace, the sound),
    ``leave`` (what leaving does: "Save and leave to the menu", or "Leave to the menu" where
    nothing is saved), Quit (after asking; Back or Escape returns to this menu)."""
    def again() -> None:
        pause_menu(window, rules=rules, save_and_leave=save_and_leave, quit_app=quit_app,
                   title=title, message=message, settings=settings, leave=leave)

    def show_rules() -> None:
        assert rules is not None
        window.show_overlay(TextPage(*rules, on_close=again))

    def ask_quit() -> None:
        window.show_overlay(Dialog("Quit kabuto?", [DialogButton("Back", again, "quit:no"),
                                                    DialogButton("Quit", quit_app, "quit:yes")],
                                   message=message, on_cancel=again))

    choices = [DialogButton("Continue", lambda: None, "pause:continue")]
    if rules is not None:
        choices.append(DialogButton("Rules", show_rules, "pause:rules"))
    choices += list(settings or ())  # each re-opens the menu itself, showing its new value
    choices += [DialogButton(leave, save_and_leave, "pause:leave"),
                DialogButton("Quit", ask_quit, "pause:quit")]
    dialog = Dialog(title, choices, message=message)
    window.show_overlay(dialog)
    return dialog


def confirm(window: Window, title: str, message: str, yes: str, on_yes: Callable[[], None],
            no: str = "Cancel", name: str = "confirm") -> Dialog:
    """Ask before something that cannot be undone (quitting, deleting a replay). The safe answer
    is highlighted first, so Enter never destroys by accident."""
    dialog = Dialog(title, [DialogButton(no, lambda: None, f"{name}:no"),
                            DialogButton(yes, on_yes, f"{name}:yes")], message=message)
    window.show_overlay(dialog)
    return dialog


def rules_page(path: Path, game: str) -> tuple[str, str] | None:
    """The (title, text) of ``game``'s rules page in the rules file at ``path`` (the app and the
    card table pass ``kabuto_assets.path("help", "rules.toml")``), or None if it has none."""
    import tomllib

    with open(path, "rb") as fh:
        pages = tomllib.load(fh)
    page = pages.get(game)
    if not isinstance(page, dict):
        return None
    return str(page.get("title", game)), str(page.get("text", "")).strip()


def sound_choice(window: Window, reopen: Callable[[], None]) -> list[DialogButton]:
    """The pause menu's Sound button (louder, quieter, off), when the window has sounds; it
    re-opens the menu (``reopen``) to show the new level."""
    sounds = window.sounds
    if sounds is None:
        return []

    def step() -> None:
        sounds.next_level()
        reopen()

    return [DialogButton(sounds.describe(), step, "pause:sound")]
