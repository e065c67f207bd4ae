"""Pieces every card table shares: the context a view is built from, the side panel with the move
log, rows of cards, the action bar, the hot-seat pass screen and the summary pop-up.

The screen is split into the *main* area (the table, left) and the *side panel* (right: title, the
seats, the move log). All coordinates are design pixels of a 1280 x 720 screen (see
:mod:`cards.table.display`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cards.table import sizes
from cards.table.describe import Summary
from cards.table.display import (
    DESIGN_H,
    DESIGN_W,
    LAYER_MODAL,
    LAYER_TABLE,
    LAYER_UI,
    BoxItem,
    ButtonItem,
    CardItem,
    Display,
    Item,
    TextItem,
)
from kabuto_ui import theme
from kabuto_ui.geometry import Rect

SIDE_W = 300
MAIN = Rect(0, 0, DESIGN_W - SIDE_W, DESIGN_H)
SIDE = Rect(DESIGN_W - SIDE_W, 0, SIDE_W, DESIGN_H)
#: Where the log's lines go (inside the side panel).
LOG_TOP = 540
LOG_BOTTOM = 50
LOG_LINE_H = 17
LOG_CHARS = 36  # characters per log line at the small font (a safe estimate of the wrapping)


@dataclass
class ViewContext:
    """Everything a game view may use: the viewer's observation and the table's UI state.

    ``legal`` is non-empty only when the viewer is a person whose turn it is. ``selection`` holds the
    keys of the hand cards the viewer has picked. Views must draw from ``obs`` alone, never from the
    game itself, so a view cannot show what the seat may not see.
    """

    game: str
    title: str
    obs: dict[str, Any]
    viewer: int
    names: list[str]
    labels: list[str]
    bots: list[bool]
    current: int
    legal: list[str] = field(default_factory=list)
    selection: list[str] = field(default_factory=list)
    message: str = ""
    message_bad: bool = False
    log: list[str] = field(default_factory=list)
    log_scroll: int = 0
    over: bool = False
    hot_seat: bool = False
    thinking: bool = False
    #: Extra buttons for the side panel, (caption, target): "Results" and "Rematch" after the game.
    extra: list[tuple[str, str]] = field(default_factory=list)

    @property
    def my_turn(self) -> bool:
        return bool(self.legal)

    @property
    def players(self) -> int:
        return len(self.names)

    def colour(self, seat: int) -> theme.RGBA:
        return theme.seat_colour(seat)


@dataclass(frozen=True)
class Intent:
    """What a click asks for: ``kind`` is "apply" (play ``action``), "select" (new ``selection``),
    "explain" (show ``message``, e.g. the engine's refusal of ``action``), or "none"."""

    kind: str
    action: str = ""
    selection: tuple[str, ...] = ()
    message: str = ""


NOTHING = Intent("none")


# ----- rows of cards -------------------------------------------------------------------------------
def row_rects(n: int, area: Rect, size: tuple[int, int], gap: float = 8.0,
              align: str = "center", min_step: float = 12.0) -> list[Rect]:
    """``n`` cards of ``size`` in a row inside ``area`` (vertically centred), overlapping when the
    row would not fit so every card keeps a strip of at least ``min_step`` visible."""
    w, h = size
    if n <= 0:
        return []
    step = w + gap
    if n > 1 and (n - 1) * step + w > area.w:
        step = max(min_step, (area.w - w) / (n - 1))
    total = (n - 1) * step + w
    if align == "left":
        x0 = area.x
    elif align == "right":
        x0 = area.right - total
    else:
        x0 = area.x + (area.w - total) / 2
    y = area.y + (area.h - h) / 2
    return [Rect(x0 + i * step, y, w, h) for i in range(n)]


def hand_items(ctx: ViewContext, keys: Sequence[str], faces: Sequence[str], area: Rect,
               size: tuple[int, int], playable: set[str], prefix: str = "hand",
               card_choice: bool = True) -> list[CardItem]:
    """The viewer's own hand, face up: picked cards rise; when the viewer must choose cards
    (``card_choice`` on their turn) the cards that can take part in a legal play are highlighted
    and the others dimmed; every card takes clicks."""
    choosing = ctx.my_turn and card_choice
    items = []
    for key, face, r in zip(keys, faces, row_rects(len(keys), area, size), strict=True):
        sel = key in ctx.selection
        if sel:
            r = Rect(r.x, r.y + sizes.LIFT, r.w, r.h)
        items.append(CardItem(
            key=f"{prefix}:{key}", rect=r, face=face, game=ctx.game, track=key,
            highlight=choosing and key in playable, selected=sel,
            dim=choosing and key not in playable and not sel,
            target=f"card:{key}",
        ))
    return items


def backs_row(ctx: ViewContext, seat: int, n: int, area: Rect, size: tuple[int, int],
              prefix: str) -> list[CardItem]:
    """``n`` face-down cards (another seat's hand): only how many, never which."""
    return [CardItem(key=f"{prefix}:{i}", rect=r, face=None, game=ctx.game)
            for i, r in enumerate(row_rects(n, area, size, gap=4, min_step=3))]


def seat_anchor(rect: Rect) -> tuple[float, float]:
    return (rect.cx, rect.cy)


# ----- panels and text -----------------------------------------------------------------------------
def panel(key: str, r: Rect, fill: theme.RGBA = theme.PANEL, border: theme.RGBA | None = theme.PANEL_EDGE,
          radius: float = 8, layer: int = LAYER_TABLE, target: str | None = None) -> BoxItem:
    return BoxItem(key=key, rect=r, fill=fill, border=border, radius=radius, layer=layer, target=target)


def text(key: str, x: float, y: float, s: str, size: float = theme.FONT_SIZE, colour: theme.RGBA = theme.TEXT,
         anchor_x: str = "left", anchor_y: str = "baseline", width: float | None = None,
         bold: bool = False, layer: int = LAYER_UI) -> TextItem:
    return TextItem(key=key, x=x, y=y, text=s, size=size, colour=colour, anchor_x=anchor_x,
                    anchor_y=anchor_y, width=width, bold=bold, layer=layer)


def button(key: str, r: Rect, caption: str, target: str, enabled: bool = True, primary: bool = False,
           selected: bool = False, reason: str = "", layer: int = LAYER_UI, size: float = theme.FONT_SIZE) -> ButtonItem:
    return ButtonItem(key=key, rect=r, text=caption, target=target, enabled=enabled, primary=primary,
                      selected=selected, reason=reason, layer=layer, size=size)


def action_bar(buttons: Sequence[tuple[str, str, bool, bool]], y: float, area: Rect = MAIN,
               height: float = 34, min_w: float = 120, gap: float = 10) -> list[ButtonItem]:
    """A centred row of buttons: (caption, target, enabled, primary). Widths follow the captions."""
    widths = [max(min_w, 16 + 7.6 * len(b[0])) for b in buttons]
    total = sum(widths) + gap * max(0, len(buttons) - 1)
    scale = min(1.0, (area.w - 20) / total) if total > 0 else 1.0
    x = area.x + (area.w - total * scale) / 2
    out = []
    for (caption, target, enabled, primary), w in zip(buttons, widths, strict=True):
        w *= scale
        out.append(button(f"bar:{target}", Rect(x, y, w, height), caption, target, enabled, primary))
        x += w + gap * scale
    return out


def wrap(line: str, width: int = LOG_CHARS) -> list[str]:
    """Split a line into pieces of at most ``width`` characters at spaces (an estimate of how the
    renderer wraps, used to decide how many log lines fit)."""
    words = line.split(" ")
    out, cur = [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            out.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    out.append(cur)
    return out


def log_window(lines: Sequence[str], scroll: int, rows: int) -> tuple[list[str], int]:
    """The log lines that fit in ``rows`` wrapped rows, ending ``scroll`` lines before the newest.
    Returns (lines oldest first, the scroll actually used)."""
    scroll = max(0, min(scroll, max(0, len(lines) - 1)))
    end = len(lines) - scroll
    out: list[str] = []
    used = 0
    for line in reversed(lines[:end]):
        need = len(wrap(line))
        if used + need > rows and out:
            break
        out.append(line)
        used += need
    out.reverse()
    return out, scroll


def side_panel(ctx: ViewContext, seat_lines: Sequence[tuple[int, str]] = (),
               extra_buttons: Sequence[tuple[str, str]] = (), reserve: float = 0) -> list[Item]:
    """Title, the seats, the move log and the menu button, in the right-hand panel.

    ``reserve`` leaves that many pixels under the seat lines for the view's own items (Sumida
    River's score table)."""
    items: list[Item] = [panel("side", SIDE, theme.PANEL, None, 0)]
    extra_buttons = list(extra_buttons) + list(ctx.extra)
    x = SIDE.x + 14
    items.append(text("side:title", x, 690, ctx.title, theme.FONT_HEADING if len(ctx.title) <= 24 else theme.FONT_SIZE,
                      bold=True))
    items.append(button("side:menu", Rect(SIDE.right - 84, 10, 72, 28), "Menu", "ui:menu"))
    y: float = 650
    for seat, line in seat_lines:
        items.append(BoxItem(key=f"side:seatdot:{seat}", rect=Rect(x, y - 2, 10, 10),
                             fill=ctx.colour(seat), radius=5, layer=LAYER_UI))
        items.append(text(f"side:seat:{seat}", x + 16, y, line, theme.FONT_SMALL,
                          theme.TEXT if seat != ctx.current else theme.ACCENT))
        y -= 18
    for i, (caption, target) in enumerate(extra_buttons):
        items.append(button(f"side:btn:{target}", Rect(x + i * 140, y - 30, 130, 28), caption, target))
    if extra_buttons:
        y -= 40
    y -= reserve
    top = min(LOG_TOP, y - 10)
    items.append(text("side:logtitle", x, top, "Move log", theme.FONT_SMALL, theme.TEXT_DIM, bold=True))
    rows = int((top - 14 - LOG_BOTTOM) // LOG_LINE_H)
    shown, scroll = log_window(ctx.log, ctx.log_scroll, rows)
    if shown:
        items.append(text("side:log", x, top - 14, "\n".join(shown), theme.FONT_SMALL, theme.TEXT,
                          anchor_y="top", width=SIDE.w - 28))
    hint = "scroll for older moves" if scroll == 0 and len(shown) < len(ctx.log) else (
        f"{scroll} newer moves below - scroll down" if scroll else "")
    if hint:
        items.append(text("side:loghint", x, LOG_BOTTOM - 30, hint, theme.FONT_SMALL - 1, theme.TEXT_DIM))
    # The whole log area takes the mouse wheel.
    items.append(BoxItem(key="side:logarea", rect=Rect(SIDE.x, LOG_BOTTOM, SIDE.w, top - LOG_BOTTOM),
                         fill=(0, 0, 0, 0), layer=LAYER_TABLE, target="ui:log"))
    return items


def status_items(ctx: ViewContext, prompt: str, y: float) -> list[Item]:
    """The prompt (what to do now) and, below it, the last message (a refusal shows in red)."""
    items: list[Item] = []
    if prompt:
        items.append(text("status:prompt", MAIN.cx, y, prompt, theme.FONT_HEADING,
                          theme.ACCENT if ctx.my_turn else theme.TEXT, anchor_x="center", bold=ctx.my_turn))
    if ctx.message:
        items.append(text("status:message", MAIN.cx, y - 22, ctx.message, theme.FONT_SIZE,
                          theme.TEXT_BAD if ctx.message_bad else theme.TEXT_GOOD, anchor_x="center"))
    return items


def waiting_prompt(ctx: ViewContext) -> str:
    if ctx.over:
        return "The game is over."
    who = ctx.names[ctx.current]
    if ctx.bots[ctx.current]:
        return f"{who} is thinking..." if ctx.thinking else f"{who} to play."
    return f"Waiting for {who}."


def not_your_turn(ctx: ViewContext) -> Intent:
    """The answer to a click on a card when the viewer may not play now (every view says the same)."""
    return Intent("explain", message="It is not your turn." if not ctx.over else "The game is over.")


# ----- the pass screen -----------------------------------------------------------------------------
def pass_screen(title: str, name: str, colour: theme.RGBA, note: str = "") -> Display:
    """Shown between two people's turns in hot-seat: no card, no hand, no log - only who is next."""
    d = Display()
    d.add(BoxItem(key="pass:bg", rect=Rect(0, 0, DESIGN_W, DESIGN_H), fill=theme.BACKGROUND, layer=LAYER_TABLE))
    d.add(BoxItem(key="pass:band", rect=Rect(0, 300, DESIGN_W, 150), fill=theme.PANEL, layer=LAYER_TABLE))
    d.add(BoxItem(key="pass:dot", rect=Rect(DESIGN_W / 2 - 18, 470, 36, 36), fill=colour, radius=18,
                  layer=LAYER_UI))
    d.add(text("pass:title", DESIGN_W / 2, 410, f"Pass the screen to {name}", sizes.POPUP_TITLE,
               anchor_x="center", bold=True))
    d.add(text("pass:text", DESIGN_W / 2, 370,
               f"{name}: take your seat. Everyone else, look away - {name}'s cards come next.",
               theme.FONT_SIZE, theme.TEXT_DIM, anchor_x="center"))
    if note:
        d.add(text("pass:note", DESIGN_W / 2, 340, note, theme.FONT_SIZE, theme.TEXT_DIM, anchor_x="center"))
    d.add(button("pass:ok", Rect(DESIGN_W / 2 - 150, 220, 300, 48), f"I am {name}: show my cards",
                 "ui:pass", primary=True, size=theme.FONT_HEADING))
    d.add(text("pass:game", 20, 690, title, theme.FONT_HEADING, theme.TEXT_DIM))
    d.add(button("pass:menu", Rect(DESIGN_W - 96, 676, 72, 30), "Menu", "ui:menu"))
    return d


# ----- summary pop-up ------------------------------------------------------------------------------
def summary_items(s: Summary, rematch: bool) -> list[Item]:
    """A pop-up over the table: a dimmer that swallows clicks, the panel, its lines and table."""
    items: list[Item] = [BoxItem(key="sum:dim", rect=Rect(0, 0, DESIGN_W, DESIGN_H), fill=theme.DIMMER,
                                 layer=LAYER_MODAL, target="")]
    rows = len(s.table)
    h = 150 + 22 * len(s.lines) + 24 * rows
    w = 600
    r = Rect((DESIGN_W - w) / 2, (DESIGN_H - h) / 2, w, h)
    items.append(BoxItem(key="sum:panel", rect=r, fill=theme.PANEL, border=theme.ACCENT, radius=10,
                         layer=LAYER_MODAL))
    y = r.top - 44
    items.append(text("sum:title", r.cx, y, s.title, sizes.POPUP_TITLE, theme.ACCENT, anchor_x="center",
                      bold=True, layer=LAYER_MODAL))
    y -= 34
    for i, line in enumerate(s.lines):
        items.append(text(f"sum:line:{i}", r.cx, y, line, theme.FONT_SIZE, anchor_x="center", layer=LAYER_MODAL))
        y -= 22
    if s.table:
        ncol = len(s.table[0])
        first_w = 150
        col_w = (w - 60 - first_w) / max(1, ncol - 1)
        for ri, row in enumerate(s.table):
            for ci, cell in enumerate(row):
                cx = r.x + 30 + (0 if ci == 0 else first_w + col_w * (ci - 1) + col_w / 2)
                items.append(text(f"sum:cell:{ri}:{ci}", cx, y, cell, theme.FONT_SIZE,
                                  theme.TEXT_DIM if ri == 0 else theme.TEXT,
                                  anchor_x="left" if ci == 0 else "center", bold=ri == 0,
                                  layer=LAYER_MODAL))
            y -= 24
    if s.final:
        caps = [("Rematch", "ui:rematch", True, True), ("See the table", "ui:dismiss", True, False),
                ("Back to menu", "ui:menu", True, False)]
        if not rematch:
            caps = caps[1:]
    else:
        caps = [("Continue", "ui:dismiss", True, True)]
    for b in action_bar(caps, r.y + 22, Rect(r.x, r.y, r.w, r.h)):
        b.key = "sum:" + b.key
        b.layer = LAYER_MODAL
        items.append(b)
    return items
