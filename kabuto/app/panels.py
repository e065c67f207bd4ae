"""The side panel and the bars around the ring: seats and their inventories, the supply, whose turn,
the wrestler card with its signature moves, and the aim readout with the pieces to push.

Panels are rebuilt from the session when the game state changes (after a push lands, a move, an
undo), never per frame. Each build records where each seat's inventory and the supply are drawn, so
a knocked-out piece can fly there.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from pyglet import shapes
from pyglet.graphics import Batch, Group
from pyglet.text import Label

from kabuto.app.session import MoveView, PanelSource, PieceChoice
from kabuto.app.table_flow import READOUT_SEP
from kabuto_ui import theme
from kabuto_ui.geometry import Rect
from kabuto_ui.widgets import Button, Widgets, fit_height, fit_text, label
from physics import Materials
from physics.shapes import Circle

TOKEN_SCALE = 700.0  # pixels per metre for inventory tokens (a small disc is about 15 px across)


def token(kind: str, colour: theme.RGBA, x: float, y: float, materials: Materials, batch: Batch,
          group: Group, scale: float = TOKEN_SCALE) -> list[shapes.ShapeBase]:
    """A piece drawn small, in its own outline, centred at (x, y) pixels."""
    out: list[shapes.ShapeBase] = []
    ptype = materials.kinds.get(kind)
    shape = ptype.shape if ptype is not None else None
    if shape is None or isinstance(shape, Circle):
        r = (shape.radius if shape is not None else 0.012) * scale
        out.append(shapes.Circle(x, y, r + 1, segments=24, color=theme.OUTLINE, batch=batch, group=group))
        out.append(shapes.Circle(x, y, r, segments=24, color=colour, batch=batch, group=group))
        return out
    for part in shape.parts:
        out.append(shapes.Polygon(*[(x + px * scale, y + py * scale) for px, py in part],
                                  color=colour, batch=batch, group=group))
    return out


@dataclass
class PanelLayout:
    """Where things ended up, for flights and for tests."""

    seat_anchor: dict[int, tuple[float, float]] = field(default_factory=dict)
    supply_anchor: tuple[float, float] = (0.0, 0.0)
    #: Each seat's name line (x, y, width, height): a click there opens its wrestler card.
    seat_name: dict[int, tuple[float, float, float, float]] = field(default_factory=dict)

    def seat_at(self, x: float, y: float) -> int | None:
        """The seat whose name line is under (x, y), if any."""
        for seat, (left, bottom, w, h) in self.seat_name.items():
            if left <= x <= left + w and bottom <= y <= bottom + h:
                return seat
        return None


class _Panel:
    """What a panel or bar draws into: ``items`` (its shapes and labels) in a background group below
    the widgets' boxes and a foreground group above them; ``clear()`` deletes them before a build."""

    def __init__(self, batch: Batch, group: Group):
        self.batch = batch
        self.bg = Group(order=-1, parent=group)  # below the widgets' boxes
        self.fg = Group(order=1, parent=group)
        self.items: list = []

    def clear(self) -> None:
        for it in self.items:
            it.delete()
        self.items = []


class SidePanel(_Panel):
    """Seats (colour, name, wrestler, inventory), the supply, and the card of the seat to play."""

    def __init__(self, batch: Batch, group: Group):
        super().__init__(batch, group)
        self.layout = PanelLayout()

    def build(self, rect: Rect, session: PanelSource, widgets: Widgets,
              on_move: Callable[[MoveView], None], selected_move: str | None) -> PanelLayout:
        self.clear()
        b, fg = self.batch, self.fg
        add = self.items.append
        add(shapes.Rectangle(rect.x, rect.y, rect.w, rect.h, color=theme.PANEL, batch=b, group=self.bg))
        add(shapes.Rectangle(rect.x, rect.y, 1, rect.h, color=theme.PANEL_EDGE, batch=b, group=self.bg))
        mats = session.materials
        x0 = rect.x + 14
        y = rect.top - 12
        layout = PanelLayout()
        current = session.current_seat()
        seats = session.seats()
        for sv in seats:
            y -= 20
            here = sv.seat == current
            if here:
                add(shapes.Rectangle(rect.x + 4, y - 40, rect.w - 8, 60, color=(60, 64, 78),
                                     batch=b, group=self.bg))
            add(shapes.Circle(x0 + 7, y + 5, 7, segments=20, color=sv.colour, batch=b, group=fg))
            name = sv.name + (f" - {sv.wrestler}" if sv.wrestler else "") + ("  (AI)" if sv.is_ai else "")
            seat_label = label(name, x0 + 22, y, b, fg, bold=here,
                               color=theme.TEXT_DIM if sv.eliminated else theme.TEXT)
            name_width = rect.w - 50
            if here:  # on the name's line, which it shortens: the inventory row may fill its own
                tag = label("to play", rect.right - 12, y, b, fg, size=theme.FONT_SMALL,
                            color=theme.ACCENT, anchor_x="right")
                add(tag)
                name_width = rect.right - 22 - tag.content_width - (x0 + 22)
            # Long seat and wrestler names at 960x600: without the team first (the inventory
            # line names it), cut short only if that is not enough.
            short = re.sub(r" \(team [A-Z]\)", "", name)
            seat_label.text = name
            fit_text(seat_label, name if seat_label.content_width <= name_width else short, name_width)
            add(seat_label)
            layout.seat_name[sv.seat] = (x0, y - 6, rect.right - 8 - x0, 24)
            y -= 26
            x = x0 + 22
            layout.seat_anchor[sv.seat] = (x + 10, y + 4)
            if sv.eliminated:
                add(label(sv.note or "eliminated", x, y, b, fg, size=theme.FONT_SMALL, color=theme.TEXT_BAD))
            elif sv.shares:
                add(label(sv.shares, x, y, b, fg, size=theme.FONT_SMALL, color=theme.TEXT_DIM))
            elif not sv.inventory:
                add(label("inventory empty", x, y, b, fg, size=theme.FONT_SMALL, color=theme.TEXT_DIM))
            for kind, text, count in (() if sv.eliminated or sv.shares else sv.inventory):
                colour = session.piece_colour(f"inv:{sv.seat}:{kind}", kind)
                r = mats.kinds[kind].size * TOKEN_SCALE if kind in mats.kinds else 8
                self.items += token(kind, colour, x + r, y + 4, mats, b, fg)
                t = label(f"{text} x{count}", x + 2 * r + 5, y, b, fg, size=theme.FONT_SMALL)
                add(t)
                x += 2 * r + 12 + t.content_width
            y -= 10
        supply = session.supply()
        if supply:
            y -= 22
            add(label("Supply", x0, y, b, fg, size=theme.FONT_SMALL, color=theme.TEXT_DIM))
            layout.supply_anchor = (x0 + 20, y - 12)
            y -= 22
            text = ",  ".join(f"{t} {n}" for _, t, n in supply)
            lab = label(text, x0, y, b, fg, size=theme.FONT_SMALL, width=int(rect.w - 28), multiline=True,
                        anchor_y="top")
            lab.y = y + 10
            add(lab)
            # As many lines as the fullest supply takes, so what follows stays where it was.
            y -= max(14, lab.content_height, supply_height(session, int(rect.w - 28))) - 4
        else:
            layout.supply_anchor = (rect.x + rect.w / 2, rect.y + 20)
        # The wrestler card of the seat to play, with its signature moves as buttons.
        moves = session.moves()
        if moves:
            y -= 26
            add(label("Signature moves", x0, y, b, fg, size=theme.FONT_SMALL, color=theme.TEXT_DIM))
            for i, mv in enumerate(moves):
                y -= 34
                btn = Button(Rect(x0, y, MOVE_BUTTON_W, 28), mv.name, partial(on_move, mv), b, fg,
                             enabled=mv.enabled, selected=(mv.key == selected_move),
                             size=theme.FONT_SMALL, reason=mv.reason,
                             name=f"move:{mv.key}")
                widgets.add(btn)
                why = mv.text if mv.enabled else mv.reason
                width = int(rect.w - MOVE_BUTTON_W - 30)
                lab = label(why, x0 + MOVE_BUTTON_W + 8, y + 28, b, fg, size=theme.FONT_SMALL - 1,
                            color=theme.TEXT_DIM if mv.enabled else theme.TEXT_BAD,
                            width=width, multiline=True, anchor_y="top")
                # Each move's row is as tall as its card's text, whether the move is usable or
                # not (a refusal is cut to it), so the buttons stay put from turn to turn. At
                # 960x600 a long card (Pitchfork's) under four seats can run off the panel: cut
                # it short, keeping a button's row for each move still to come.
                row = move_row_height(mv.text, width)
                room = y + 28 - (rect.y + 6) - 34 * (len(moves) - 1 - i)
                row = min(row, max(room, 28))
                if lab.content_height > row:
                    fit_height(lab, why, row)
                add(lab)
                y -= max(0, row - 30)
        # How to play, at the foot of the panel when there is room for it (wrapped to the panel).
        if session.interactive:
            head = label("How to push", x0, 0, b, fg, size=theme.FONT_SMALL, color=theme.TEXT_DIM)
            body = label(HELP.strip(), x0, 0, b, fg, size=theme.FONT_SMALL - 1, color=theme.TEXT_DIM,
                         width=int(rect.w - 28), multiline=True, anchor_y="bottom")
            if y - rect.y > body.content_height + 40:
                body.y = rect.y + 8
                head.y = body.y + body.content_height + 6
                add(head)
                add(body)
            else:  # a small window: the aim bar's HELP_HINT says where it is
                head.delete()
                body.delete()
        self.layout = layout
        return layout


#: The width of a signature move's button in the side panel.
MOVE_BUTTON_W = 150


def _text_height(text: str, width: int, size: float) -> float:
    lab = label(text, 0, 0, Batch(), size=size, width=width, multiline=True, anchor_y="top")
    h = float(lab.content_height)
    lab.delete()
    return h


def move_row_height(card_text: str, width: int) -> float:
    """The height of a move's row in the side panel: its card's text, wrapped to ``width``."""
    return max(28.0, _text_height(card_text, width, theme.FONT_SMALL - 1))


def supply_height(session: PanelSource, width: int) -> float:
    """The height of the supply's line when every kind of piece but the wrestlers is in it, with
    two-digit counts: the room the side panel keeps for it, however full the supply is now."""
    names = [session.kind_label(k).removesuffix(" disc") for k in session.materials.kinds]
    names = [n for n in names if "wrestler" not in n]
    return _text_height(",  ".join(f"{n} 10" for n in names), width, theme.FONT_SMALL)


#: The aim bar's pointer to :data:`HELP` (the side panel shows it only when it has room).
HELP_HINT = "H: how to push"

HELP = """
Press near the ring edge: the platform goes there.
Drag towards where the push should go; release to push.
Shift-drag (or right-drag) slides the platform round.
Arrows: platform / heading (Shift: finer).
[ ] or the wheel: speed.  Enter or Space: push.
Tab or 1-9: piece.  U: undo.  T: tuning.  F12: screenshot.
E: end the turn (also while a push plays).  H: this help.
Coach: G a good push, D the danger, C on/off.
"""


class AimBar(_Panel):
    """The bar under the ring: the pieces to push, the aim readout, and the push button."""

    def __init__(self, batch: Batch, group: Group):
        super().__init__(batch, group)
        self.readout: Label | None = None
        self.reason: Label | None = None
        self.text_width = 1.0  # how wide the readout and the reason may be (the slider sits right)

    def clear(self) -> None:
        super().clear()
        self.readout = None
        self.reason = None

    def build(self, rect: Rect, choices: list[PieceChoice], selected: str | None, widgets: Widgets,
              on_choice: Callable[[PieceChoice], None], enabled: bool, idle: str = "nothing to push",
              reserve_right: float = 0.0) -> None:
        """``reserve_right``: pixels at the bar's right kept free of text (for the speed slider)."""
        self.clear()
        self.text_width = max(1.0, rect.w - 20 - reserve_right)
        b, fg = self.batch, self.fg
        self.items.append(shapes.Rectangle(rect.x, rect.y, rect.w, rect.h, color=theme.PANEL,
                                           batch=b, group=self.bg))
        x = rect.x + 10
        self.readout = label("", rect.x + 10, rect.y + 28, b, fg, size=theme.FONT_SMALL)
        self.reason = label("", rect.x + 10, rect.y + 9, b, fg, size=theme.FONT_SMALL,
                            color=theme.TEXT_BAD)
        self.items += [self.readout, self.reason]
        if not choices and not idle:
            return  # the replay viewer puts its own controls here
        self.items.append(label("Push:", x, rect.y + rect.h - 22, b, fg, size=theme.FONT_SMALL,
                                color=theme.TEXT_DIM))
        x += 44
        for ch in choices[:9]:
            text = ch.label if ch.count < 0 else f"{ch.label} x{ch.count}"
            w = max(70, 12 + 7.5 * len(text))
            widgets.add(Button(Rect(x, rect.y + rect.h - 32, w, 26), text, partial(on_choice, ch),
                               b, fg, selected=(ch.key == selected), enabled=enabled,
                               size=theme.FONT_SMALL, name=f"choice:{ch.key}"))
            x += w + 6
        if not choices:
            self.items.append(label(idle, x, rect.y + rect.h - 22, b, fg,
                                    size=theme.FONT_SMALL, color=theme.TEXT_DIM))
            x += self.items[-1].content_width
        # Where the whole help is, at the row's right end when the row has room for it.
        hint = label(HELP_HINT, rect.right - 10, rect.y + rect.h - 22, b, fg, size=theme.FONT_SMALL,
                     color=theme.TEXT_DIM, anchor_x="right")
        if hint.x - hint.content_width > x + 12:
            self.items.append(hint)
        else:
            hint.delete()

    def show_preview(self, rect: Rect, lines: tuple[str, ...], widgets: Widgets,
                     on_confirm: Callable[[], None], on_cancel: Callable[[], None]) -> None:
        """A signature move's preview in the bar: what it would do (wrapped to the bar, left),
        and the Confirm and Cancel buttons (right)."""
        b, fg = self.batch, self.fg
        bw = 150
        right = rect.right - 10
        widgets.add(Button(Rect(right - bw, rect.y + rect.h - 36, bw, 28), "Confirm (Enter)",
                           on_confirm, b, fg, size=theme.FONT_SMALL, name="move:confirm"))
        widgets.add(Button(Rect(right - bw, rect.y + 8, bw, 28), "Cancel (Esc)", on_cancel, b, fg,
                           size=theme.FONT_SMALL, name="move:cancel"))
        width = int(max(40, right - bw - 14 - (rect.x + 10)))
        head, *rest = lines or ("",)
        top = label(head, rect.x + 10, rect.top - 8, b, fg, size=theme.FONT_SMALL, bold=True,
                    color=theme.ACCENT, width=width, multiline=True, anchor_y="top")
        self.items.append(top)
        if rest:
            self.items.append(label(" ".join(rest), rect.x + 10, top.y - top.content_height - 4, b,
                                    fg, size=theme.FONT_SMALL, color=theme.TEXT, width=width,
                                    multiline=True, anchor_y="top"))

    def show(self, readout: str, reason: str) -> None:
        """The aim readout ("medium  ·  platform at ...  ·  speed 300 mm/s") and why a push is
        refused. A narrow bar drops the readout's last parts whole (the speed slider beside it
        shows the speed) rather than cut a word short."""
        if self.readout is not None and self.reason is not None:
            parts = readout.split(READOUT_SEP)
            while len(parts) > 1:
                self.readout.text = READOUT_SEP.join(parts)
                if self.readout.content_width <= self.text_width:
                    break
                parts.pop()
            fit_text(self.readout, READOUT_SEP.join(parts), self.text_width)
            fit_text(self.reason, reason, self.text_width)

