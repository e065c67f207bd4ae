"""Turns a :class:`~cards.table.display.Display` into pyglet shapes, labels and card sprites.

The display is in design pixels (1280 x 720); the renderer scales it uniformly to the window and
centres it (letterboxing the spare room), creating labels at the scaled font size so text stays
sharp. Card faces come from :mod:`cards.table.card_art`, drawn once per card and pixel size and
kept as textures.

:meth:`Renderer.sync` shows a new display. Items are matched to the previous display by key: an
unchanged item keeps its pyglet objects (laying out text is the slow part of a frame), a changed
one is rebuilt. A card or token whose key (or, for a new key, whose ``track``) was on screen
*slides* from there to its new place; a new card with ``enter_from`` slides in from that point
(the hand of the seat that played it). :meth:`Renderer.update` advances the slides and returns
True while anything moves, so the window knows to redraw.

Drawing order: the display's layers bottom to top; inside a layer, shapes (in display order),
then card sprites (in display order), then all text - so a caption is never hidden by its box.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from cards.table.card_art import card_image
from cards.table.config import Pacing
from cards.table.display import (
    DESIGN_H,
    DESIGN_W,
    BoxItem,
    ButtonItem,
    CardItem,
    DiscItem,
    Display,
    Item,
    TextItem,
)
from kabuto_ui import theme
from kabuto_ui.text import shown, shown_lines
from kabuto_ui.tween import Box, Tween

_LAYERS = 5
SHAPES, SPRITES, TEXT = 0, 1, 2

#: Fields that make an item look different (position fields of sliding items are left out: they
#: move the existing objects instead).
_LOOK = {
    BoxItem: ("layer", "rect", "fill", "border", "radius"),
    TextItem: ("layer", "x", "y", "text", "size", "colour", "anchor_x", "anchor_y", "width", "bold"),
    ButtonItem: ("layer", "rect", "text", "enabled", "primary", "selected", "size"),
    CardItem: ("layer", "face", "game", "highlight", "selected", "dim", "badge", "rect.w", "rect.h"),
    DiscItem: ("layer", "r", "fill", "border", "text", "text_colour"),
}


def _look(item: Item) -> tuple:
    out: list = [type(item)]
    for f in _LOOK.get(type(item), ()):
        if f.startswith("rect."):
            out.append(getattr(item.rect, f[5:]))  # type: ignore[attr-defined]
        else:
            out.append(getattr(item, f))
    return tuple(out)


class _Part(Protocol):
    """A pyglet object an item is drawn with (a shape, a sprite, a label)."""

    def delete(self) -> None: ...


_P = TypeVar("_P", bound=_Part)


class _Drawn:
    """The pyglet objects of one item: ``parts`` as (object, kind) with kind SHAPES/SPRITES/TEXT,
    what it looked like (``look``), its place in the drawing order, and how to move it."""

    def __init__(self, look: tuple) -> None:
        self.look = look
        self.parts: list[tuple[_Part, int]] = []
        self.order: tuple[int, int] = (-1, -1)
        self.place_fn: Callable[[Box], None] | None = None

    def add(self, obj: _P, kind: int) -> _P:
        self.parts.append((obj, kind))
        return obj

    def delete(self) -> None:
        for p, _ in self.parts:
            p.delete()
        self.parts.clear()


class Renderer:
    """Draws displays into one batch (see the module docstring)."""

    def __init__(self, pacing: Pacing | None = None) -> None:
        self.pacing = pacing or Pacing()
        self.batch = Batch()
        self.scale = 1.0
        self.ox = 0.0
        self.oy = 0.0
        self.width, self.height = DESIGN_W, DESIGN_H
        self._drawn: dict[str, _Drawn] = {}
        self._boxes: dict[str, Box] = {}  # where each sliding item is now (design pixels)
        self._tracks: dict[str, Box] = {}  # where each tracked card is now
        self._tweens: dict[str, Tween] = {}
        self._textures: dict[tuple[str, str | None, int, int], pyglet.image.Texture] = {}
        self._display: Display | None = None
        self._hover: str | None = None
        self._layer_groups = [Group(order=i) for i in range(_LAYERS)]
        self._kind_groups = [[Group(order=k, parent=g) for k in (SHAPES, SPRITES, TEXT)] for g in self._layer_groups]
        self._groups: dict[tuple[int, int, int], Group] = {}

    # ----- geometry ----------------------------------------------------------------------------------
    def resize(self, width: int, height: int) -> None:
        """Fit the design screen into a window of this size (uniform scale, centred)."""
        self.width, self.height = max(1, width), max(1, height)
        s = min(self.width / DESIGN_W, self.height / DESIGN_H)
        self.scale = s
        self.ox = (self.width - DESIGN_W * s) / 2
        self.oy = (self.height - DESIGN_H * s) / 2
        self.clear()
        if self._display is not None:
            self.sync(self._display, animate=False)

    def to_design(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.ox) / self.scale, (y - self.oy) / self.scale

    def to_window(self, x: float, y: float) -> tuple[float, float]:
        return self.ox + x * self.scale, self.oy + y * self.scale

    # ----- syncing -----------------------------------------------------------------------------------
    @property
    def moving(self) -> bool:
        return bool(self._tweens)

    def sync(self, display: Display, animate: bool = True) -> None:
        """Show ``display``; cards and tokens slide from where they were."""
        display.check_keys()
        old_boxes, old_tracks, old_drawn = self._boxes, self._tracks, self._drawn
        drawn: dict[str, _Drawn] = {}
        new_boxes: dict[str, Box] = {}
        new_tracks: dict[str, Box] = {}
        tweens: dict[str, Tween] = {}
        counters: dict[tuple[int, int], int] = {}
        for item in display.ordered():
            layer = min(_LAYERS - 1, max(0, item.layer))
            kind = SPRITES if isinstance(item, CardItem) else SHAPES
            idx = counters.get((layer, kind), 0)
            counters[(layer, kind)] = idx + 1
            order = (layer, idx)
            cur = None
            if isinstance(item, (CardItem, DiscItem)):
                cur = self._slide(item, animate, old_boxes, old_tracks, tweens)
                new_boxes[item.key] = cur
                if isinstance(item, CardItem) and item.track:
                    new_tracks[item.track] = cur
            look = _look(item)
            d = old_drawn.pop(item.key, None)
            if d is not None and d.look != look:
                d.delete()
                d = None
            if d is None:
                d = self._make(item, layer, idx, cur)
            else:
                if d.order != order:
                    self._regroup(d, layer, idx)
                if cur is not None and d.place_fn is not None:
                    d.place_fn(cur)
            d.order = order
            drawn[item.key] = d
        for d in old_drawn.values():
            d.delete()
        self._drawn = drawn
        self._boxes, self._tracks, self._tweens = new_boxes, new_tracks, tweens
        self._display = display
        if self._hover is not None:
            self.set_hover(self._hover if self._hover in drawn else None, force=True)

    def _slide(self, item: CardItem | DiscItem, animate: bool, old_boxes: dict[str, Box],
               old_tracks: dict[str, Box], tweens: dict[str, Tween]) -> Box:
        """Where the item is drawn now, starting its slide if it moved."""
        end = self._item_box(item)
        start = None
        if animate:
            if item.key in old_boxes:
                start = old_boxes[item.key]
            elif isinstance(item, CardItem) and item.track and item.track in old_tracks:
                start = old_tracks[item.track]
            elif isinstance(item, CardItem) and item.enter_from is not None:
                ex, ey = item.enter_from
                start = (ex - end[2] / 2, ey - end[3] / 2, end[2], end[3])
        duration = self.pacing.push if item.slide == "push" else self.pacing.slide
        if start is None or start == end or duration <= 0:
            return end
        prev = self._tweens.get(item.key)
        tw = prev if prev is not None and prev.end == end else Tween(start, end, duration)
        tweens[item.key] = tw
        return tw.now()

    def _group(self, layer: int, kind: int, idx: int) -> Group:
        if kind == TEXT:
            return self._kind_groups[layer][TEXT]
        g = self._groups.get((layer, kind, idx))
        if g is None:
            g = self._groups[(layer, kind, idx)] = Group(order=idx, parent=self._kind_groups[layer][kind])
        return g

    def _regroup(self, d: _Drawn, layer: int, idx: int) -> None:
        for obj, kind in d.parts:
            if kind != TEXT:
                obj.group = self._group(layer, kind, idx)  # type: ignore[attr-defined]

    @staticmethod
    def _item_box(item: CardItem | DiscItem) -> Box:
        if isinstance(item, CardItem):
            r = item.rect
            return (r.x, r.y, r.w, r.h)
        return (item.x - item.r, item.y - item.r, 2 * item.r, 2 * item.r)

    # ----- animation ---------------------------------------------------------------------------------
    def update(self, dt: float) -> bool:
        """Advance every slide by ``dt`` seconds; True while something still moves."""
        if not self._tweens:
            return False
        finished = []
        for key, tw in self._tweens.items():
            tw.advance(dt)
            box = tw.now()
            self._boxes[key] = box
            d = self._drawn.get(key)
            if d is not None and d.place_fn is not None:
                d.place_fn(box)
            if tw.done:
                finished.append(key)
        for key in finished:
            del self._tweens[key]
        return True

    def nudge(self, key: str, dx: float, dy: float) -> None:
        """Draw a card ``dx, dy`` design pixels off its place (while it is being dragged)."""
        d = self._drawn.get(key)
        box = self._boxes.get(key)
        if d is not None and box is not None and d.place_fn is not None:
            d.place_fn((box[0] + dx, box[1] + dy, box[2], box[3]))

    def finish(self) -> None:
        """Jump every slide to its end."""
        while self._tweens:
            self.update(1e9)

    def draw(self) -> None:
        self.batch.draw()

    def clear(self) -> None:
        """Forget every pyglet object (the next sync builds all afresh, without slides)."""
        for d in self._drawn.values():
            d.delete()
        self._drawn = {}
        self._boxes, self._tracks, self._tweens = {}, {}, {}

    def delete(self) -> None:
        self.clear()
        self._display = None

    # ----- hover -------------------------------------------------------------------------------------
    def set_hover(self, key: str | None, force: bool = False) -> None:
        """Light up the button under the pointer."""
        if key == self._hover and not force:
            return
        for k, on in ((self._hover, False), (key, True)):
            if k is None or self._display is None:
                continue
            item = self._display.find(k)
            d = self._drawn.get(k)
            if isinstance(item, ButtonItem) and d is not None and len(d.parts) > 1:
                d.parts[1][0].color = self._button_colour(item, on)[:3]  # type: ignore[attr-defined]
        self._hover = key

    # ----- making objects ----------------------------------------------------------------------------
    def _rect_px(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        return self.ox + x * self.scale, self.oy + y * self.scale, w * self.scale, h * self.scale

    def _make(self, item: Item, layer: int, idx: int, box: Box | None) -> _Drawn:
        d = _Drawn(_look(item))
        shape_group = self._group(layer, SHAPES, idx)
        if isinstance(item, CardItem):
            self._card(d, item, layer, idx, box)
        elif isinstance(item, DiscItem):
            self._disc(d, item, shape_group, layer, box)
        elif isinstance(item, ButtonItem):
            self._button(d, item, shape_group, layer)
        elif isinstance(item, TextItem):
            self._text(d, item, layer)
        elif isinstance(item, BoxItem):
            self._box(d, item, shape_group)
        return d

    def _rounded(self, x, y, w, h, radius, colour, group) -> shapes.ShapeBase:
        r = min(radius * self.scale, w / 2, h / 2)
        if r >= 1:
            return shapes.RoundedRectangle(x, y, w, h, r, segments=6, color=colour, batch=self.batch, group=group)
        return shapes.Rectangle(x, y, w, h, color=colour, batch=self.batch, group=group)

    def _box(self, d: _Drawn, item: BoxItem, group: Group) -> None:
        if item.fill[3] == 0 and item.border is None:
            return  # an invisible click area
        x, y, w, h = self._rect_px(item.rect.x, item.rect.y, item.rect.w, item.rect.h)
        b = max(1.0, self.scale)
        if item.border is None:
            d.add(self._rounded(x, y, w, h, item.radius, item.fill, group), SHAPES)
        elif item.fill[3] == 0:  # an outline only: four thin bars
            c = item.border
            for bx, by, bw, bh in ((x, y, w, b), (x, y + h - b, w, b), (x, y, b, h), (x + w - b, y, b, h)):
                d.add(shapes.Rectangle(bx, by, bw, bh, color=c, batch=self.batch, group=group), SHAPES)
        else:  # the border colour underneath, the fill inset by a pixel
            d.add(self._rounded(x, y, w, h, item.radius, item.border, group), SHAPES)
            d.add(self._rounded(x + b, y + b, w - 2 * b, h - 2 * b, max(0, item.radius - 1), item.fill, group),
                  SHAPES)

    def _label(self, text: str, x: float, y: float, size: float, colour, layer: int, *, anchor_x="left",
               anchor_y="baseline", width: float | None = None, bold: bool = False) -> pyglet.text.Label:
        multiline = width is not None
        text = shown_lines(text) if multiline else shown(text)  # names come from config files
        # Whole pixels: at a scale below 1 (960 x 600) text placed between pixels loses the
        # thin strokes of its letters ("B ue" for "Blue").
        return pyglet.text.Label(
            text, x=round(x), y=round(y), font_size=max(4.0, size * self.scale), color=colour, anchor_x=anchor_x,
            anchor_y=anchor_y, width=int(width * self.scale) if width is not None else None, multiline=multiline,
            weight="bold" if bold else "normal", batch=self.batch, group=self._group(layer, TEXT, 0))

    def _text(self, d: _Drawn, item: TextItem, layer: int) -> None:
        if not item.text:
            return
        x, y = self.to_window(item.x, item.y)
        d.add(self._label(item.text, x, y, item.size, item.colour, layer, anchor_x=item.anchor_x,
                          anchor_y=item.anchor_y, width=item.width, bold=item.bold), TEXT)

    @staticmethod
    def _button_colour(item: ButtonItem, hover: bool) -> theme.RGBA:
        if not item.enabled:
            return theme.BUTTON_DISABLED
        if item.selected:
            return theme.BUTTON_ON
        if item.primary:
            return theme.BUTTON_PRIMARY if not hover else (200, 146, 56, 255)
        return theme.BUTTON_HOVER if hover else theme.BUTTON

    def _button(self, d: _Drawn, item: ButtonItem, group: Group, layer: int) -> None:
        x, y, w, h = self._rect_px(item.rect.x, item.rect.y, item.rect.w, item.rect.h)
        b = max(1.0, self.scale)
        edge = theme.ACCENT if item.primary and item.enabled else theme.PANEL_EDGE
        d.add(self._rounded(x, y, w, h, 6, edge, group), SHAPES)
        d.add(self._rounded(x + b, y + b, w - 2 * b, h - 2 * b, 5, self._button_colour(item, False), group), SHAPES)
        lab = d.add(self._label(item.text, x + w / 2, y + h / 2, item.size,
                                theme.TEXT if item.enabled else theme.TEXT_DIM, layer, anchor_x="center",
                                anchor_y="center", bold=item.primary), TEXT)
        # A caption wider than its button (a long one, or a small window's font hinting) is set a
        # point smaller at a time until it fits, down to 7 points.
        room = w - 8 * b
        while lab.content_width > room and lab.font_size > 7:
            lab.font_size = max(7.0, lab.font_size - 1)

    def texture(self, game: str, face: str | None, wpx: int, hpx: int) -> pyglet.image.Texture:
        """A card's face (or back) as a texture of exactly this pixel size (cached)."""
        key = (game, face, wpx, hpx)
        tex = self._textures.get(key)
        if tex is None:
            img = card_image(game, face, wpx, hpx)
            data = pyglet.image.ImageData(wpx, hpx, "RGBA", img.tobytes(), pitch=-wpx * 4)
            tex = self._textures[key] = data.get_texture()
        return tex

    def _card(self, d: _Drawn, item: CardItem, layer: int, idx: int, box: Box | None) -> None:
        fx, fy, fw, fh = self._rect_px(item.rect.x, item.rect.y, item.rect.w, item.rect.h)
        wpx, hpx = max(4, round(fw)), max(4, round(fh))
        tex = self.texture(item.game, item.face, wpx, hpx)
        shape_group = self._group(layer, SHAPES, idx)
        glow = None
        if item.selected or item.highlight:
            colour = theme.SELECTED if item.selected else theme.HIGHLIGHT
            glow = d.add(shapes.RoundedRectangle(0, 0, 10, 10, 6 * self.scale, segments=6, color=colour,
                                                 batch=self.batch, group=shape_group), SHAPES)
        sprite = d.add(pyglet.sprite.Sprite(tex, batch=self.batch, group=self._group(layer, SPRITES, idx)), SPRITES)
        if item.dim:
            sprite.color = (150, 150, 150)
        badge_bg = badge = None
        if item.badge:
            # Above every card of the layer (badges are small; a neighbour never hides one).
            badge_bg = d.add(shapes.RoundedRectangle(0, 0, 10, 10, 4 * self.scale, segments=4,
                                                     color=(20, 20, 24, 210), batch=self.batch,
                                                     group=self._group(min(_LAYERS - 1, layer + 1), SHAPES, 999)),
                             SHAPES)
            badge = d.add(self._label(item.badge, 0, 0, theme.FONT_SMALL - 1 if fw > 70 * self.scale else 7,
                                      theme.TEXT, min(_LAYERS - 1, layer + 1), anchor_x="center",
                                      anchor_y="center", bold=True), TEXT)
        pad = 3 * self.scale

        def place(b: Box) -> None:
            x, y, w, h = self._rect_px(*b)
            sprite.update(x=x, y=y, scale_x=w / wpx, scale_y=h / hpx)
            if glow is not None:
                glow.x, glow.y, glow.width, glow.height = x - pad, y - pad, w + 2 * pad, h + 2 * pad
            if badge is not None and badge_bg is not None:
                bw = min(w - 4, badge.content_width + 8 * self.scale)
                bh = badge.content_height + 2 * self.scale
                badge_bg.x, badge_bg.y, badge_bg.width, badge_bg.height = x + (w - bw) / 2, y + 4 * self.scale, bw, bh
                badge.x, badge.y = x + w / 2, y + 4 * self.scale + bh / 2

        d.place_fn = place
        place(box or self._item_box(item))

    def _disc(self, d: _Drawn, item: DiscItem, group: Group, layer: int, box: Box | None) -> None:
        edge = d.add(shapes.Circle(0, 0, 1, segments=40, color=item.border or item.fill, batch=self.batch,
                                   group=group), SHAPES)
        face = d.add(shapes.Circle(0, 0, 1, segments=40, color=item.fill, batch=self.batch, group=group), SHAPES)
        label = None
        if item.text:
            label = d.add(self._label(item.text, 0, 0, theme.FONT_SMALL, item.text_colour, layer, anchor_x="center",
                                      anchor_y="center", bold=True), TEXT)

        def place(b: Box) -> None:
            x, y, w, h = self._rect_px(*b)
            r = w / 2
            edge.x, edge.y, edge.radius = x + r, y + r, r
            face.x, face.y, face.radius = x + r, y + r, max(1.0, r - 3 * self.scale)
            if label is not None:
                label.x, label.y = x + r, y + r

        d.place_fn = place
        place(box or self._item_box(item))
