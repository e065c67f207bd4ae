"""Turns a :class:`~cards.table.display.Display` into pyglet shapes, labels and card sprites.

The display is in design pixels (1280 x 720); the renderer scales it uniformly to the window and
centres it (letterboxing the spare room), creating labels at the scaled font size so text stays
sharp. Card faces come from :mod:`cards.table.card_art`, drawn once per card and pixel size and
kept as textures.

Each :meth:`Renderer.sync` rebuilds the pyglet objects for a new display but remembers where every
card and token was: an item whose key (or, for a new key, whose ``track``) was on screen slides
from there to its new place; a new card with ``enter_from`` slides in from that point (the hand of
the seat that played it). :meth:`Renderer.update` advances the slides; it returns True while
anything moves so the window knows to redraw.
"""
from __future__ import annotations

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from cards.table import style
from cards.table.card_art import card_image
from cards.table.config import Pacing
from cards.table.display import (
    DESIGN_H, DESIGN_W, BoxItem, ButtonItem, CardItem, DiscItem, Display, Item, TextItem,
)
from cards.table.tween import Box, Tween

_LAYERS = 5


class _Drawn:
    """The pyglet objects of one item, and how to put them at a (design) box."""

    def __init__(self) -> None:
        self.parts: list = []
        self.place_fn = None

    def delete(self) -> None:
        for p in self.parts:
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
        self._boxes: dict[str, Box] = {}  # where each movable item is now (design pixels)
        self._tracks: dict[str, Box] = {}  # where each tracked card is now
        self._tweens: dict[str, Tween] = {}
        self._textures: dict[tuple[str, str | None, int, int], pyglet.image.Texture] = {}
        self._display: Display | None = None
        self._hover: str | None = None
        self._groups: dict[tuple[int, int], Group] = {}
        self._layer_groups = [Group(order=i) for i in range(_LAYERS)]

    # ----- geometry ----------------------------------------------------------------------------------
    def resize(self, width: int, height: int) -> None:
        """Fit the design screen into a window of this size (uniform scale, centred)."""
        self.width, self.height = max(1, width), max(1, height)
        s = min(self.width / DESIGN_W, self.height / DESIGN_H)
        self.scale = s
        self.ox = (self.width - DESIGN_W * s) / 2
        self.oy = (self.height - DESIGN_H * s) / 2
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
        old_boxes, old_tracks = self._boxes, self._tracks
        for d in self._drawn.values():
            d.delete()
        self._drawn = {}
        new_boxes: dict[str, Box] = {}
        new_tracks: dict[str, Box] = {}
        tweens: dict[str, Tween] = {}
        order: dict[int, int] = {}
        for item in display.ordered():
            layer = min(_LAYERS - 1, max(0, item.layer))
            idx = order.get(layer, 0)
            order[layer] = idx + 1
            group = self._group(layer, idx)
            if isinstance(item, (CardItem, DiscItem)):
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
                cur = end
                if start is not None and start != end and duration > 0:
                    prev = self._tweens.get(item.key)
                    tw = Tween(start, end, duration)
                    if prev is not None and prev.end == end:
                        tw = prev  # already on its way there
                    tweens[item.key] = tw
                    cur = tw.now()
                new_boxes[item.key] = cur
                if isinstance(item, CardItem) and item.track:
                    new_tracks[item.track] = cur
                self._drawn[item.key] = self._make(item, group, cur)
            else:
                self._drawn[item.key] = self._make(item, group, None)
        self._boxes, self._tracks, self._tweens = new_boxes, new_tracks, tweens
        self._display = display
        if self._hover and self._hover in self._drawn:
            self.set_hover(self._hover, force=True)

    def _group(self, layer: int, idx: int) -> Group:
        g = self._groups.get((layer, idx))
        if g is None:
            g = self._groups[(layer, idx)] = Group(order=idx, parent=self._layer_groups[layer])
        return g

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

    def finish(self) -> None:
        """Jump every slide to its end."""
        while self._tweens:
            self.update(1e9)

    def draw(self) -> None:
        self.batch.draw()

    def delete(self) -> None:
        for d in self._drawn.values():
            d.delete()
        self._drawn.clear()
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
            if isinstance(item, ButtonItem) and d is not None and d.parts:
                d.parts[1].color = self._button_colour(item, on)[:3]
        self._hover = key

    # ----- making objects ----------------------------------------------------------------------------
    def _px(self, v: float) -> float:
        return v * self.scale

    def _rect_px(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        return self.ox + x * self.scale, self.oy + y * self.scale, w * self.scale, h * self.scale

    def _make(self, item: Item, group: Group, box: Box | None) -> _Drawn:
        if isinstance(item, CardItem):
            return self._card(item, group, box)
        if isinstance(item, DiscItem):
            return self._disc(item, group, box)
        if isinstance(item, ButtonItem):
            return self._button(item, group)
        if isinstance(item, TextItem):
            return self._text(item, group)
        if isinstance(item, BoxItem):
            return self._box(item, group)
        return _Drawn()

    def _rounded(self, x, y, w, h, radius, colour, group) -> shapes.ShapeBase:
        r = min(radius * self.scale, w / 2, h / 2)
        if r >= 1:
            return shapes.RoundedRectangle(x, y, w, h, r, segments=6, color=colour, batch=self.batch, group=group)
        return shapes.Rectangle(x, y, w, h, color=colour, batch=self.batch, group=group)

    def _box(self, item: BoxItem, group: Group) -> _Drawn:
        d = _Drawn()
        if item.fill[3] == 0 and item.border is None:
            return d  # an invisible click area
        x, y, w, h = self._rect_px(item.rect.x, item.rect.y, item.rect.w, item.rect.h)
        b = max(1.0, self.scale)
        if item.border is None:
            d.parts.append(self._rounded(x, y, w, h, item.radius, item.fill, group))
        elif item.fill[3] == 0:  # an outline only: four thin bars
            c = item.border
            d.parts += [shapes.Rectangle(x, y, w, b, color=c, batch=self.batch, group=group),
                        shapes.Rectangle(x, y + h - b, w, b, color=c, batch=self.batch, group=group),
                        shapes.Rectangle(x, y, b, h, color=c, batch=self.batch, group=group),
                        shapes.Rectangle(x + w - b, y, b, h, color=c, batch=self.batch, group=group)]
        else:  # the border colour underneath, the fill inset by a pixel
            d.parts.append(self._rounded(x, y, w, h, item.radius, item.border, group))
            d.parts.append(self._rounded(x + b, y + b, w - 2 * b, h - 2 * b, max(0, item.radius - 1), item.fill,
                                         group))
        return d

    def _label(self, text: str, x: float, y: float, size: float, colour, group: Group, *, anchor_x="left",
               anchor_y="baseline", width: float | None = None, bold: bool = False) -> pyglet.text.Label:
        multiline = width is not None
        return pyglet.text.Label(
            text, x=x, y=y, font_size=max(4.0, size * self.scale), color=colour, anchor_x=anchor_x,
            anchor_y=anchor_y, width=int(width * self.scale) if multiline else None, multiline=multiline,
            weight="bold" if bold else "normal", batch=self.batch, group=group)

    def _text(self, item: TextItem, group: Group) -> _Drawn:
        d = _Drawn()
        if not item.text:
            return d
        x, y = self.to_window(item.x, item.y)
        d.parts.append(self._label(item.text, x, y, item.size, item.colour, group, anchor_x=item.anchor_x,
                                   anchor_y=item.anchor_y, width=item.width, bold=item.bold))
        return d

    @staticmethod
    def _button_colour(item: ButtonItem, hover: bool) -> style.RGBA:
        if not item.enabled:
            return style.BUTTON_DISABLED
        if item.selected:
            return style.BUTTON_ON
        if item.primary:
            return style.BUTTON_PRIMARY if not hover else (200, 146, 56, 255)
        return style.BUTTON_HOVER if hover else style.BUTTON

    def _button(self, item: ButtonItem, group: Group) -> _Drawn:
        d = _Drawn()
        x, y, w, h = self._rect_px(item.rect.x, item.rect.y, item.rect.w, item.rect.h)
        b = max(1.0, self.scale)
        edge = style.ACCENT if item.primary and item.enabled else style.PANEL_EDGE
        d.parts.append(self._rounded(x, y, w, h, 6, edge, group))
        d.parts.append(self._rounded(x + b, y + b, w - 2 * b, h - 2 * b, 5, self._button_colour(item, False), group))
        d.parts.append(self._label(item.text, x + w / 2, y + h / 2, item.size,
                                   style.TEXT if item.enabled else style.TEXT_DIM, group,
                                   anchor_x="center", anchor_y="center", bold=item.primary))
        return d

    def texture(self, game: str, face: str | None, wpx: int, hpx: int) -> pyglet.image.Texture:
        """A card's face (or back) as a texture of exactly this pixel size (cached)."""
        key = (game, face, wpx, hpx)
        tex = self._textures.get(key)
        if tex is None:
            img = card_image(game, face, wpx, hpx)
            data = pyglet.image.ImageData(wpx, hpx, "RGBA", img.tobytes(), pitch=-wpx * 4)
            tex = self._textures[key] = data.get_texture()
        return tex

    def _card(self, item: CardItem, group: Group, box: Box | None) -> _Drawn:
        d = _Drawn()
        fx, fy, fw, fh = self._rect_px(item.rect.x, item.rect.y, item.rect.w, item.rect.h)
        wpx, hpx = max(4, round(fw)), max(4, round(fh))
        tex = self.texture(item.game, item.face, wpx, hpx)
        glow = None
        if item.selected or item.highlight:
            colour = style.SELECTED if item.selected else style.HIGHLIGHT
            glow = shapes.RoundedRectangle(0, 0, 10, 10, 6 * self.scale, segments=6, color=colour,
                                           batch=self.batch, group=group)
            d.parts.append(glow)
        sprite = pyglet.sprite.Sprite(tex, batch=self.batch, group=group)
        if item.dim:
            sprite.color = (150, 150, 150)
        d.parts.append(sprite)
        badge_bg = badge = None
        if item.badge:
            badge_bg = shapes.RoundedRectangle(0, 0, 10, 10, 4 * self.scale, segments=4, color=(20, 20, 24, 210),
                                               batch=self.batch, group=group)
            badge = self._label(item.badge, 0, 0, style.FONT_SMALL - 1 if fw > 40 * self.scale else 7,
                                style.TEXT, group, anchor_x="center", anchor_y="center", bold=True)
            d.parts += [badge_bg, badge]
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
        return d

    def _disc(self, item: DiscItem, group: Group, box: Box | None) -> _Drawn:
        d = _Drawn()
        edge = shapes.Circle(0, 0, 1, segments=40, color=item.border or item.fill, batch=self.batch, group=group)
        face = shapes.Circle(0, 0, 1, segments=40, color=item.fill, batch=self.batch, group=group)
        label = self._label(item.text, 0, 0, style.FONT_SMALL, item.text_colour, group, anchor_x="center",
                            anchor_y="center", bold=True) if item.text else None
        d.parts += [edge, face] + ([label] if label else [])

        def place(b: Box) -> None:
            x, y, w, h = self._rect_px(*b)
            r = w / 2
            edge.x, edge.y, edge.radius = x + r, y + r, r
            face.x, face.y, face.radius = x + r, y + r, max(1.0, r - 3 * self.scale)
            if label is not None:
                label.x, label.y = x + r, y + r

        d.place_fn = place
        place(box or self._item_box(item))
        return d
