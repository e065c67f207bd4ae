"""The game log's panel: a box in the ring area's lower-left corner (the ring is round, so the
corner is free) listing the log's newest entries, each with its seat's colour; the mouse wheel over
it scrolls back through the game, and a click on an entry opens that seat's wrestler card.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from pyglet import shapes
from pyglet.graphics import Batch, Group

from kabuto.app.game_log import GameLog
from kabuto_ui import theme
from kabuto_ui.geometry import Rect
from kabuto_ui.widgets import label

HEADER = 22


class LogPanel:
    """Draws a :class:`GameLog` into ``rect`` (see :meth:`build`); ``on_seat(seat)`` is called
    when an entry is clicked."""

    def __init__(self, log: GameLog, batch: Batch, group: Group,
                 on_seat: Callable[[int], None] | None = None, over: Batch | None = None):
        """``over``: the batch drawn above the moving pieces, for the opened panel (closed, it
        sits off the ring in ``batch``)."""
        self.log = log
        self.batch = batch
        self.over = over or batch
        self.g_bg, self.g_fg = Group(0, group), Group(1, group)
        self.on_seat = on_seat
        self.rect = Rect(0, 0, 0, 0)
        self.scroll = 0          # entries hidden below (0: the newest is shown)
        self.expanded = False    # a click on the title opens it over the ring area's left side
        self._title = Rect(0, 0, 0, 0)
        self._items: list = []
        self._rows: list[tuple[Rect, int | None]] = []

    def place(self, ring_area: Rect, centre: tuple[float, float], radius: float) -> Rect:
        """Where the panel goes: the ring area's lower-left corner, as wide as reads well and as
        tall as it may be with its top-right corner still off the ring (``centre``, ``radius``:
        the ring on the screen), so it never hides a piece on the ring's edge. Opened (a click on
        its title), it takes the ring area's left side to read the whole game."""
        x0, y0 = ring_area.x + 6, ring_area.y + 6
        if self.expanded:
            return Rect(x0, y0, min(460.0, ring_area.w * 0.6), ring_area.h - 40)
        w = min(340.0, max(230.0, ring_area.w * 0.4))
        dx = x0 + w - centre[0]
        reach = radius * 1.04
        room = centre[1] - y0 - math.sqrt(max(0.0, reach * reach - dx * dx)) if abs(dx) < reach else 1e9
        h = min(240.0, ring_area.h * 0.45, max(70.0, room))
        return Rect(x0, y0, w, h)

    def clear(self) -> None:
        for it in self._items:
            it.delete()
        self._items, self._rows = [], []

    def build(self, rect: Rect) -> None:
        self.clear()
        self.rect = rect
        if rect.w <= 0:   # not laid out yet
            return
        b, bg, fg = self.over if self.expanded else self.batch, self.g_bg, self.g_fg
        add = self._items.append
        alpha = 255 if self.expanded else 200
        add(shapes.Rectangle(rect.x, rect.y, rect.w, rect.h, color=(20, 22, 28, alpha), batch=b,
                             group=bg))
        n = len(self.log.entries)
        self.scroll = max(0, min(self.scroll, n - 1))
        more = f"  (+{self.scroll} newer)" if self.scroll else ""
        hint = "  - click to close" if self.expanded else "  - click to open"
        add(label("Game log" + more + hint, rect.x + 8, rect.top - 16, b, fg, size=theme.FONT_SMALL,
                  bold=True, color=theme.TEXT_DIM))
        self._title = Rect(rect.x, rect.top - HEADER, rect.w, HEADER)
        if not n:
            add(label("Each push and move is listed here.", rect.x + 8, rect.top - HEADER - 14, b, fg,
                      size=theme.FONT_SMALL - 1, color=theme.TEXT_DIM))
            return
        y = rect.y + 6
        text_w = int(rect.w - 28)
        for entry in reversed(self.log.entries[:n - self.scroll]):
            body = label(entry.text, rect.x + 20, y, b, fg, size=theme.FONT_SMALL - 1, width=text_w,
                         multiline=True, anchor_y="bottom", color=theme.TEXT)
            h = body.content_height
            if y + h > rect.top - HEADER:
                body.delete()
                break
            add(body)
            if entry.seat is not None:
                add(shapes.Circle(rect.x + 10, y + h - 7, 5, segments=12,
                                  color=theme.seat_colour(entry.seat), batch=b, group=fg))
            self._rows.append((Rect(rect.x, y, rect.w, h), entry.seat))
            y += h + 4

    def contains(self, x: float, y: float) -> bool:
        return self.rect.contains(x, y)

    def scrolled(self, steps: float) -> bool:
        """The wheel over the panel: up shows older entries. True if the view moved."""
        before = self.scroll
        self.scroll = max(0, min(self.scroll + (1 if steps > 0 else -1), len(self.log.entries) - 1))
        if self.scroll != before:
            self.build(self.rect)
            return True
        return False

    def clicked(self, x: float, y: float) -> bool:
        """A click on the title opens or closes the panel, one on an entry opens its seat's card
        (True); elsewhere the click is not the panel's (the platform may be grabbed through it)."""
        if self._title.contains(x, y):
            self.expanded = not self.expanded
            self.scroll = 0
            return True
        for r, seat in self._rows:
            if r.contains(x, y) and seat is not None and self.on_seat is not None:
                self.on_seat(seat)
                return True
        return self.expanded and self.contains(x, y)   # open, it is the ring area's left side
