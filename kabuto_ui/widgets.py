"""Small immediate-layout widgets drawn with pyglet shapes and labels: buttons, sliders, toggles.

Widgets live in a :class:`Widgets` container that routes mouse events to them. A scene recreates
its widgets when the window is resized or its content changes (never per frame): each widget adds
its shapes to the scene's batch once, and only a hover or drag changes a colour or a knob.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from kabuto_ui import theme
from kabuto_ui.geometry import Rect
from kabuto_ui.text import shown, shown_lines

AnchorX = Literal["left", "center", "right"]
AnchorY = Literal["top", "bottom", "center", "baseline"]


def label(text: str, x: float, y: float, batch: Batch, group: Group | None = None, *,
          size: float = theme.FONT_SIZE, color: theme.RGBA = theme.TEXT, anchor_x: AnchorX = "left",
          anchor_y: AnchorY = "baseline", width: int | None = None, multiline: bool = False,
          bold: bool = False, align: AnchorX = "left") -> pyglet.text.Label:
    """A text label in the app's font (pyglet's default sans-serif). Control characters and lone
    surrogates are shown escaped (:mod:`kabuto_ui.text`): labels show text read from files."""
    text = shown_lines(text) if multiline else shown(text)
    return pyglet.text.Label(text, x=x, y=y, font_name=theme.FONT, font_size=size, color=color,
                             anchor_x=anchor_x, anchor_y=anchor_y, width=width,
                             multiline=multiline, weight="bold" if bold else "normal", align=align,
                             batch=batch, group=group)


def fit_text(lab: pyglet.text.Label, text: str, width: float, keep_end: bool = False) -> None:
    """Set ``text`` on a one-line label, cut short with an ellipsis to fit ``width`` pixels (at
    the end; ``keep_end``: at the start, for a folder whose last names matter). The text is shown
    safely, as :func:`label` does."""
    text = shown(text)

    def cut(n: int) -> str:
        return "\u2026" + text[len(text) - n:].lstrip() if keep_end else text[:n].rstrip() + "\u2026"

    _cut_to_fit(lab, text, cut, lambda: lab.content_width <= width)


def fit_height(lab: pyglet.text.Label, text: str, height: float) -> None:
    """Set ``text`` on a wrapped (multiline) label, cut short at the end with an ellipsis to stay
    within ``height`` pixels (its first line at the least). Shown safely, as :func:`label` does."""
    text = shown(text)
    _cut_to_fit(lab, text, lambda n: text[:max(n, 1)].rstrip() + "\u2026",
                lambda: lab.content_height <= height)


def _cut_to_fit(lab: pyglet.text.Label, text: str, cut: Callable[[int], str],
                fits: Callable[[], bool]) -> None:
    """``text`` on ``lab`` if it fits, else ``cut(n)`` for the most characters ``n`` that fits."""
    lab.text = text
    if fits():
        return
    lo, hi = 0, len(text)
    while lo < hi:  # the most text that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        lab.text = cut(mid)
        if fits():
            lo = mid
        else:
            hi = mid - 1
    lab.text = cut(lo)


class Widget:
    """Base: a rectangle that may take mouse presses. Subclasses add shapes to the batch."""

    rect: Rect
    enabled: bool = True

    def hit(self, x: float, y: float) -> bool:
        return self.rect.contains(x, y)

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return False

    def on_drag(self, x: float, y: float) -> None:
        pass

    def on_release(self, x: float, y: float) -> None:
        pass

    def set_hover(self, on: bool) -> None:
        pass

    def delete(self) -> None:
        for v in list(vars(self).values()):
            if isinstance(v, (shapes.ShapeBase, pyglet.text.layout.TextLayout)):
                v.delete()


class Button(Widget):
    """A clickable box with a caption; disabled buttons are greyed and say why in ``reason``."""

    def __init__(self, rect: Rect, text: str, on_click: Callable[[], None], batch: Batch,
                 group: Group | None = None, *, enabled: bool = True, selected: bool = False,
                 size: float = theme.FONT_SIZE, reason: str = "", name: str = ""):
        self.rect = rect
        self.on_click = on_click
        self.enabled = enabled
        self.selected = selected
        self.reason = reason
        self.name = name or text
        bg_group = Group(order=0, parent=group)
        fg_group = Group(order=1, parent=group)
        self.box = shapes.BorderedRectangle(rect.x, rect.y, rect.w, rect.h, border=1,
                                            color=self._colour(False)[:3],
                                            border_color=theme.PANEL_EDGE[:3], batch=batch,
                                            group=bg_group)
        self.caption = label(text, rect.x + rect.w / 2, rect.y + rect.h / 2, batch, fg_group,
                             size=size, anchor_x="center", anchor_y="center",
                             color=theme.TEXT if enabled else theme.TEXT_DIM)

    def _colour(self, hover: bool):
        if not self.enabled:
            return theme.BUTTON_DISABLED
        if self.selected:
            return theme.BUTTON_ON
        return theme.BUTTON_HOVER if hover else theme.BUTTON

    def set_hover(self, on: bool) -> None:
        self.box.color = self._colour(on)[:3]

    def on_press(self, x, y, button, modifiers) -> bool:
        if self.enabled:
            self.on_click()
        return True


class Slider(Widget):
    """A horizontal slider for a float between ``lo`` and ``hi``; ``on_change`` fires on release
    (a push is never re-simulated while the knob moves)."""

    def __init__(self, rect: Rect, caption: str, value: float, lo: float, hi: float,
                 on_change: Callable[[float], None], batch: Batch, group: Group | None = None,
                 *, fmt: Callable[[float], str] = lambda v: f"{v:.3f}", name: str = "",
                 enabled: bool = True):
        """``enabled=False``: shown (greyed) but not movable (a value that is read-only here)."""
        self.rect = rect
        self.enabled = enabled
        self.lo, self.hi = lo, hi
        self.value = min(hi, max(lo, value))
        self.on_change = on_change
        self.fmt = fmt
        self.name = name or caption
        self._dragging = False
        bg, fg = Group(order=0, parent=group), Group(order=1, parent=group)
        ty = rect.y + rect.h * 0.3
        self.track = shapes.Rectangle(rect.x, ty - 2, rect.w, 4, color=theme.PANEL_EDGE[:3],
                                      batch=batch, group=bg)
        self.knob = shapes.Circle(self._knob_x(), ty, 7, segments=20,
                                  color=(theme.ACCENT if enabled else theme.TEXT_DIM)[:3],
                                  batch=batch, group=fg)
        self.caption = label(caption, rect.x, rect.y + rect.h * 0.62, batch, fg,
                             size=theme.FONT_SMALL, color=theme.TEXT_DIM)
        self.readout = label(fmt(self.value), rect.right, rect.y + rect.h * 0.62, batch, fg,
                             size=theme.FONT_SMALL, anchor_x="right")

    def _knob_x(self) -> float:
        u = 0.0 if self.hi == self.lo else (self.value - self.lo) / (self.hi - self.lo)
        return self.rect.x + u * self.rect.w

    def set_value(self, v: float) -> None:
        self.value = min(self.hi, max(self.lo, v))
        self.knob.x = self._knob_x()
        self.readout.text = self.fmt(self.value)

    def on_press(self, x, y, button, modifiers) -> bool:
        self._dragging = self.enabled
        self.on_drag(x, y)
        return True

    def on_drag(self, x, y) -> None:
        if self._dragging:
            u = min(1.0, max(0.0, (x - self.rect.x) / max(1.0, self.rect.w)))
            self.set_value(self.lo + u * (self.hi - self.lo))

    def on_release(self, x, y) -> None:
        if self._dragging:
            self._dragging = False
            self.on_change(self.value)


@dataclass
class _Grab:
    widget: Widget


class Widgets:
    """A list of widgets with mouse routing: press picks the top widget under the pointer, which
    then gets the drags and the release."""

    def __init__(self) -> None:
        self.items: list[Widget] = []
        self._grab: _Grab | None = None
        self._hover: Widget | None = None

    def add(self, w: Widget) -> Widget:
        self.items.append(w)
        return w

    def clear(self) -> None:
        for w in self.items:
            w.delete()
        self.items.clear()
        self._grab = None
        self._hover = None

    @property
    def hovered(self) -> Widget | None:
        """The widget under the pointer (as of the last motion event)."""
        return self._hover

    def find(self, name: str) -> Widget | None:
        for w in self.items:
            if getattr(w, "name", None) == name:
                return w
        return None

    def at(self, x: float, y: float) -> Widget | None:
        for w in reversed(self.items):
            if w.hit(x, y):
                return w
        return None

    def on_mouse_press(self, x, y, button, modifiers) -> bool:
        w = self.at(x, y)
        if w is None:
            return False
        self._grab = _Grab(w)
        w.on_press(x, y, button, modifiers)
        return True

    def on_mouse_drag(self, x, y) -> bool:
        if self._grab is None:
            return False
        self._grab.widget.on_drag(x, y)
        return True

    def on_mouse_release(self, x, y) -> bool:
        if self._grab is None:
            return False
        g, self._grab = self._grab, None
        g.widget.on_release(x, y)
        return True

    def on_mouse_motion(self, x, y) -> Widget | None:
        w = self.at(x, y)
        if w is not self._hover:
            if self._hover is not None:
                self._hover.set_hover(False)
            if w is not None:
                w.set_hover(True)
            self._hover = w
        return w
