"""The ring seen from above, drawn to scale: the ring, its centre circle, every piece in its shape
and colour, stacks as stacks, the pushing platform and the aim's preview line.

Everything on the ring is drawn in *metres*: the shapes live under a :class:`WorldGroup` whose view
matrix maps ring metres to window pixels (:class:`kabuto.app.view.RingTransform`). A resize only
changes that matrix; a frame of animation only moves existing shapes (``position``/``rotation``).
Shapes are created when a piece first appears and deleted when it leaves - never per frame.

Stacks: a piece on level L is drawn above level L-1 with a shadow offset by L x 1.5 mm and a light
rim, so a stack reads as a stack from above; a stack of two or more also wears a count badge (a
small dark disc with its height, "2", "3"), at the top piece's upper-right edge, so the number is
read at a glance without covering the middle of the piece (where a wrestler's art is). Badges are
drawn in window pixels (a fixed, readable size at any window size) and only at rest: a push's
playback hides them, its landing shows them again.

Two batches: ``batch`` holds what never moves during a push (the ring, the platform) and ``live``
every piece, mark and aim line, drawn over it. While a push plays, the owner caches the still
picture and redraws only the rectangles where something in ``live`` changed
(:mod:`kabuto_ui.frames`); :meth:`RingView.take_damage` says where. Drawing every piece in
``live`` (not only the moving ones) keeps the stacking order of a whole redraw (a moving piece's
shadow under its neighbours, a stack's top over a moving base) at no cost outside the repaired
rectangles; a batch draws group by group, so the number of pieces barely changes its Python cost.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from pyglet import gl, shapes
from pyglet.graphics import Batch, Group
from pyglet.math import Mat4
from pyglet.text import Label

from kabuto.app.aim import Aim
from kabuto.app.animation import Pose
from kabuto.app.view import RingTransform, screen_rotation
from kabuto.rules.wrestlers import is_wrestler_kind
from kabuto_ui import theme
from kabuto_ui.frames import PixelRect
from physics import Materials, PieceType
from physics import shapes as geom
from physics.shapes import Circle

SHADOW_STEP = 0.0015  # metres of shadow offset per stack level
RIM = 0.0012          # metres of darker rim around each piece
CIRCLE_SEGMENTS = 36
MARK_GAP = 0.0025     # metres between a piece's edge and the ring marking it
MARK_WIDTH = 0.0014
STILL_PX = 0.25       # a frame of playback leaves a piece this close to its pose where it is drawn
STILL_ANGLE = 0.005   # ... and turned by less than this (radians: about 0.3 degree)
BADGE_RADIUS = 8.0    # pixels: the stack-height badge, readable from 960x600 up
BADGE_FONT = 9

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in ring metres

#: Callback giving a piece's (fill colour, label-or-None) from its id and kind.
Styler = Callable[[str, str], theme.RGBA]


class WorldGroup(Group):
    """Draws its children in ring metres by swapping the window's view matrix in and out."""

    def __init__(self, window, order: int = 1):
        super().__init__(order=order)
        self.window = window
        self.matrix = Mat4()
        self._saved = None
        #: While set, (clip, outer): drawing is clipped to ``clip`` (framebuffer pixels), then the
        #: clipping goes back to ``outer`` (None: none). The owner sets it around the live batch.
        self.clip: tuple[PixelRect, PixelRect | None] | None = None

    def set_transform(self, t: RingTransform) -> None:
        self.matrix = Mat4(*t.matrix())

    def set_state(self) -> None:
        self._saved = self.window.view
        self.window.view = self.matrix
        if self.clip is not None:
            r = self.clip[0]
            gl.glEnable(gl.GL_SCISSOR_TEST)
            gl.glScissor(r.x, r.y, r.w, r.h)

    def unset_state(self) -> None:
        self.window.view = self._saved
        if self.clip is not None:
            outer = self.clip[1]
            if outer is None:
                gl.glDisable(gl.GL_SCISSOR_TEST)
            else:
                gl.glScissor(outer.x, outer.y, outer.w, outer.h)

    # Identity semantics: pyglet merges equal groups, and two windows' worlds must never merge.
    def __eq__(self, other) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


class _Layers:
    """Child groups of the world: ring, platform, then per stack level shadow/outline/fill/mark."""

    def __init__(self, world: WorldGroup):
        self.world = world
        self.ring = Group(order=0, parent=world)
        self.platform = Group(order=5, parent=world)
        self.aim = Group(order=900, parent=world)
        self.top = Group(order=950, parent=world)
        self._levels: dict[tuple[int, int], Group] = {}

    def level(self, level: int, sub: int) -> Group:
        key = (level, sub)
        g = self._levels.get(key)
        if g is None:
            g = self._levels[key] = Group(order=100 + 10 * level + sub, parent=self.world)
        return g


def _poly(part, color, batch, group) -> shapes.Polygon:
    """A polygon in the piece's own frame whose position is the piece's centre (so ``position`` and
    ``rotation`` place and turn it like the body)."""
    p = shapes.Polygon(*part, color=color, batch=batch, group=group)
    p.anchor_position = (-part[0][0], -part[0][1])
    p.position = (0.0, 0.0)
    return p


def _grown(part, by: float):
    """A convex part pushed outwards by ``by`` metres along its vertices' directions (an outline)."""
    cx = sum(x for x, _ in part) / len(part)
    cy = sum(y for _, y in part) / len(part)
    out = []
    for x, y in part:
        dx, dy = x - cx, y - cy
        d = math.hypot(dx, dy) or 1.0
        out.append((x + dx / d * by, y + dy / d * by))
    return out


def bounding_radius(ptype: PieceType) -> float:
    """Metres from a piece's centre to the farthest point of its shape."""
    shape = ptype.shape
    if isinstance(shape, Circle):
        return shape.radius
    return max(math.hypot(x, y) for part in shape.parts for x, y in part)


def reach(ptype: PieceType, marked: bool = False) -> float:
    """Metres from a piece's centre its drawing can cover (its outline; with ``marked``, the ring
    marking it too), shadow aside."""
    r = bounding_radius(ptype) + RIM
    return max(r, ptype.size + MARK_GAP + MARK_WIDTH) if marked else r


class PieceSprite:
    """The shapes of one piece: shadow, dark outline, coloured fill, and a mark showing its turn."""

    def __init__(self, pid: str, ptype: PieceType, colour: theme.RGBA, layers: _Layers,
                 batch: Batch, level: int = 0, ghost: bool = False, alpha: int = 215):
        """``ghost``: a see-through piece (``alpha``) with no shadow: the piece waiting on the
        platform, or where a signature move would leave a piece (its preview)."""
        self.id = pid
        self.alpha = alpha
        self.type = ptype
        self.layers = layers
        self.batch = batch
        self.level = -1
        self.ghost = ghost
        self.colour = colour
        self.pose: Pose = (0.0, 0.0, 0.0, level)
        self.reach = reach(ptype)
        self.marked_reach = reach(ptype, marked=True)
        self._shapes: list[tuple[shapes.ShapeBase, int, tuple[float, float]]] = []  # shape, sub, offset
        self._build(level)
        self.set_pose(self.pose)

    def _build(self, level: int) -> None:
        self.delete()
        self.level = level
        alpha = self.alpha if self.ghost else 255
        fill = (*self.colour[:3], alpha)
        edge = (*theme.OUTLINE[:3], alpha)
        rim = (*theme.lighter(self.colour, 0.7)[:3], alpha) if level > 0 else edge
        sh = SHADOW_STEP * (level + 1)
        shape = self.type.shape
        L = self.layers
        add = self._shapes.append
        if isinstance(shape, Circle):
            r = shape.radius
            if not self.ghost:
                add((shapes.Circle(0, 0, r, segments=CIRCLE_SEGMENTS, color=theme.SHADOW,
                                   batch=self.batch, group=L.level(level, 0)), 0, (sh, -sh)))
            add((shapes.Circle(0, 0, r, segments=CIRCLE_SEGMENTS, color=rim, batch=self.batch,
                               group=L.level(level, 1)), 1, (0, 0)))
            add((shapes.Circle(0, 0, max(r - RIM, r * 0.5), segments=CIRCLE_SEGMENTS, color=fill,
                               batch=self.batch, group=L.level(level, 2)), 2, (0, 0)))
            # A faint inner ring like turned wood; it also shows the disc's size at a glance.
            add((shapes.Arc(0, 0, r * 0.55, segments=CIRCLE_SEGMENTS, thickness=r * 0.06,
                            color=(*theme.darker(self.colour, 0.15)[:3], alpha), batch=self.batch,
                            group=L.level(level, 3)), 3, (0, 0)))
        else:
            for part in shape.parts:
                if not self.ghost:
                    add((_poly(part, theme.SHADOW, self.batch, L.level(level, 0)), 0, (sh, -sh)))
                add((_poly(_grown(part, RIM), rim, self.batch, L.level(level, 1)), 1, (0, 0)))
            for part in shape.parts:
                add((_poly(part, fill, self.batch, L.level(level, 2)), 2, (0, 0)))
            # A wrestler's front: a short line from the centre towards it (+x in its own frame).
            # Signature pieces (a stone, a ball, a gem) have none: they are not beetles.
            if not is_wrestler_kind(self.type.name):
                return
            size = self.type.size
            add((shapes.Line(0, 0, size * 0.6, 0, thickness=size * 0.09,
                             color=(*theme.darker(self.colour, 0.5)[:3], alpha), batch=self.batch,
                             group=L.level(level, 3)), 3, (0, 0)))

    def set_colour(self, colour: theme.RGBA) -> None:
        if colour != self.colour:
            self.colour = colour
            self._build(self.level)
            self.set_pose(self.pose)

    def set_pose(self, pose: Pose) -> None:
        x, y, angle, level = pose
        if level != self.level:
            self._build(level)
        self.pose = pose
        rot = screen_rotation(angle)
        round_piece = isinstance(self.type.shape, Circle)
        for s, _sub, (ox, oy) in self._shapes:
            if isinstance(s, shapes.Line):
                # Lines rotate about their first point, which is the piece's centre here.
                s.position = (x, y)
                s.rotation = rot
            else:
                s.position = (x + ox, y + oy)
                if not round_piece:
                    s.rotation = rot

    def contains(self, x: float, y: float) -> bool:
        px, py, a, _ = self.pose
        dx, dy = x - px, y - py
        c, s = math.cos(-a), math.sin(-a)
        return geom.contains(self.type.shape, (c * dx - s * dy, s * dx + c * dy))

    def box(self, marked: bool = False) -> Box:
        """The world box this piece's drawing covers now: its shape, outline, its shadow (offset
        right and down by its level's step) and, if ``marked``, the ring marking it."""
        x, y, _, level = self.pose
        r = self.marked_reach if marked else self.reach
        sh = SHADOW_STEP * (level + 1)
        return x - r, y - r - sh, x + r + sh, y + r

    def delete(self) -> None:
        for s, _, _ in self._shapes:
            s.delete()
        self._shapes = []


class RingView:
    """The ring and its pieces. ``show(poses)`` moves sprites to poses; the aim has its own shapes.

    ``batch`` gets the ring and the platform, ``live`` the pieces, marks and aim lines (module
    docstring; without ``live`` everything goes to ``batch``). ``static_changed`` is set when
    something in ``batch`` changed, or something :meth:`take_damage` does not track (the owner's
    cached picture is stale); :meth:`take_damage` returns the world boxes where pieces or marks
    changed since it was last called.
    """

    def __init__(self, window, batch: Batch, materials: Materials, styler: Styler, order: int = 1,
                 live: Batch | None = None):
        self.batch = batch
        self.live = live if live is not None else batch
        self.static_changed = True
        self._damage: list[Box] = []
        self.world = WorldGroup(window, order=order)
        self.layers = _Layers(self.world)
        self.materials = materials
        self.styler = styler
        self.sprites: dict[str, PieceSprite] = {}
        self.transform = RingTransform(0, 0, 1)
        self._ring_shapes: list[shapes.ShapeBase] = []
        self._aim_shapes: list[shapes.ShapeBase] = []
        self._marks: dict[str, shapes.Arc] = {}
        self._platform_ghost: PieceSprite | None = None
        # A move's preview: its pieces' end poses (see-through) and lines from where they are now.
        self._ghosts: list[PieceSprite] = []
        self._ghost_lines: list[shapes.ShapeBase] = []
        self._spots: list[shapes.Arc] = []  # the sides a move may use, lit like targets
        # Stack badges, in window pixels over the world (module docstring): top piece id -> shapes.
        self._g_badge = Group(order=order + 1)
        self._g_badge_text = Group(order=order + 2)
        self._badges: dict[str, tuple[shapes.Circle, shapes.Circle, Label]] = {}
        self._stacks: dict[str, int] = {}  # top piece id -> height, as of the last show_world
        self._build_ring()

    # ----- ring ------------------------------------------------------------------------------------
    def _build_ring(self) -> None:
        for s in self._ring_shapes:
            s.delete()
        self.static_changed = True
        R = self.materials.ring.radius
        c = self.materials.ring.centre_radius
        g = self.layers.ring
        b = self.batch
        self._ring_shapes = [
            shapes.Circle(0.0015, -0.0025, R * 1.04, segments=96, color=(0, 0, 0, 70), batch=b, group=g),
            shapes.Circle(0, 0, R * 1.04, segments=96, color=theme.RING_RIM, batch=b, group=g),
            shapes.Circle(0, 0, R, segments=96, color=theme.RING_SURFACE, batch=b, group=g),
            shapes.Arc(0, 0, c, segments=64, thickness=0.0009, color=theme.RING_CENTRE_LINE,
                       batch=b, group=g),
            shapes.Arc(0, 0, R * 0.97, segments=96, thickness=0.0006,
                       color=(*theme.RING_CENTRE_LINE[:3], 120), batch=b, group=g),
        ]

    def set_materials(self, materials: Materials) -> None:
        """New materials (a tuning change or another game): outlines may change size."""
        old = self.materials
        self.materials = materials
        if old.ring != materials.ring:
            self._build_ring()
        for pid, spr in list(self.sprites.items()):
            t = materials.kinds.get(spr.type.name)
            if t is not None and t.shape != spr.type.shape:
                pose = spr.pose
                self._damage.append(spr.box())
                spr.delete()
                self.sprites[pid] = self._sprite(pid, t.name, pose)
                self._damage.append(self.sprites[pid].box())

    def set_transform(self, t: RingTransform) -> None:
        self.transform = t
        self.world.set_transform(t)
        self.static_changed = True
        self._place_badges()

    def take_damage(self) -> list[Box]:
        """The world boxes where pieces or marks changed (were, or are now) since the last call."""
        out, self._damage = self._damage, []
        return out

    # ----- pieces ----------------------------------------------------------------------------------
    def _sprite(self, pid: str, kind: str, pose: Pose, ghost: bool = False) -> PieceSprite:
        ptype = self.materials.kinds[kind]
        spr = PieceSprite(pid, ptype, self.styler(pid, kind), self.layers, self.live,
                          level=pose[3], ghost=ghost)
        spr.set_pose(pose)
        return spr

    def show(self, poses: dict[str, Pose], kinds: dict[str, str], still_px: float = 0.0) -> None:
        """Make the drawn pieces ``poses`` (id -> pose); ``kinds`` names new pieces' kinds.
        Pieces already at their pose are not touched (most pieces, most frames of a push).

        ``still_px``: a piece whose drawn pose is less than this many pixels (and a third of a
        degree) from its new one is left where it is drawn, a frame of playback only (the table
        passes :data:`STILL_PX`). In slow motion nearly half the moves of a push's last frames
        are under a tenth of a pixel: repainting them changes nothing on screen but costs a
        rectangle each. What the piece is drawn at lags its pose by at most that much, and the
        landing draws the poses at rest exactly (:meth:`show_world`)."""
        damage = self._damage
        marks = self._marks
        still = still_px / self.transform.scale if still_px > 0 else 0.0
        for pid in [p for p in self.sprites if p not in poses]:
            self.set_mark(pid, None)
            spr = self.sprites.pop(pid)
            damage.append(spr.box())
            spr.delete()
        for pid, pose in poses.items():
            drawn = self.sprites.get(pid)
            if drawn is None:
                spr = self.sprites[pid] = self._sprite(pid, kinds[pid], pose)
                damage.append(spr.box())
            elif drawn.pose != pose:
                if still and pose[3] == drawn.pose[3] and abs(pose[2] - drawn.pose[2]) < STILL_ANGLE \
                        and math.hypot(pose[0] - drawn.pose[0], pose[1] - drawn.pose[1]) < still:
                    continue
                marked = pid in marks
                x0, y0, x1, y1 = drawn.box(marked)
                drawn.set_pose(pose)
                a0, b0, a1, b1 = drawn.box(marked)
                # One box for where it was and where it is: they overlap (small steps).
                damage.append((min(x0, a0), min(y0, b0), max(x1, a1), max(y1, b1)))
                if marked:
                    marks[pid].position = pose[:2]

    def show_world(self, world) -> None:
        """Draw a physics.World's at-rest pieces (with their stack levels and height badges)."""
        levels = world.levels()
        self.show({p.id: (p.x, p.y, p.angle, levels[p.id]) for p in world.pieces},
                  {p.id: p.kind for p in world.pieces})
        bases = {p.base for p in world.pieces if p.base is not None}
        self.show_badges({p.id: levels[p.id] + 1 for p in world.pieces
                          if levels[p.id] > 0 and p.id not in bases})

    # ----- a move's preview ---------------------------------------------------------------------------
    def show_ghosts(self, ghosts) -> None:
        """Draw each (id, kind, (x, y, angle, level)) see-through at that pose, with a line from
        where the piece is now (if it is on the ring); () removes them. Called when the preview
        changes (a whole frame follows), never per frame."""
        self.static_changed = True
        for g in self._ghosts:
            g.delete()
        for s in self._ghost_lines:
            s.delete()
        self._ghosts, self._ghost_lines = [], []
        for pid, kind, pose in ghosts:
            if kind not in self.materials.kinds:
                continue
            spr = PieceSprite(f"ghost:{pid}", self.materials.kinds[kind], self.styler(pid, kind),
                              self.layers, self.live, level=pose[3], ghost=True, alpha=140)
            spr.set_pose(pose)
            self._ghosts.append(spr)
            now = self.sprites.get(pid)
            if now is not None and math.hypot(now.pose[0] - pose[0], now.pose[1] - pose[1]) > 0.001:
                self._ghost_lines += [
                    shapes.Line(now.pose[0], now.pose[1], pose[0], pose[1], thickness=0.0009,
                                color=theme.HIGHLIGHT, batch=self.live, group=self.layers.aim),
                    shapes.Circle(pose[0], pose[1], 0.0016, segments=12, color=theme.HIGHLIGHT,
                                  batch=self.live, group=self.layers.aim)]

    def show_spots(self, spots, colour: theme.RGBA) -> None:
        """Mark each (x, y, r) place a move may put a piece (of reach ``r``) with a ring at its
        centre, in the targets' colour: places a side apart overlap, their centres do not. ()
        removes them. Called when the marks change (a whole frame follows)."""
        self.static_changed = True
        for s in self._spots:
            s.delete()
        self._spots = [shapes.Arc(x, y, max(r * 0.3, MARK_WIDTH * 2), segments=24, thickness=MARK_WIDTH,
                                  color=colour, batch=self.live, group=self.layers.top) for x, y, r in spots]

    def spot_places(self) -> list[tuple[float, float]]:
        """Where the lit places are drawn (for tests and tools)."""
        return [(s.x, s.y) for s in self._spots]

    def ghost_poses(self) -> dict[str, tuple[float, float, float, int]]:
        """The preview's pieces as drawn: id -> pose (for tests and tools)."""
        return {g.id.removeprefix("ghost:"): g.pose for g in self._ghosts}

    # ----- stack badges ------------------------------------------------------------------------------
    def show_badges(self, stacks: dict[str, int]) -> None:
        """Badge each stack's top piece (id -> the stack's height, 2 or more); {} hides them all
        (while a push plays). The table draws a whole frame after this (it rebuilds)."""
        self._stacks = dict(stacks)
        self._place_badges()

    def badge_texts(self) -> dict[str, str]:
        """What each badge reads (top piece id -> "3"): for tests and tools."""
        return {pid: b[2].text for pid, b in self._badges.items()}

    def _place_badges(self) -> None:
        for parts in self._badges.values():
            for s in parts:
                s.delete()
        self._badges = {}
        self.static_changed = True  # not tracked as damage: a whole frame follows
        t = self.transform
        for pid, height in sorted(self._stacks.items()):
            spr = self.sprites.get(pid)
            if spr is None:
                continue
            x, y, _, _ = spr.pose
            # At the upper right of the top piece's edge, pulled in a little so it stays on it.
            r = t.length(spr.type.size) * 0.72
            bx, by = t.to_screen(x, y)
            bx, by = bx + r * 0.7071, by + r * 0.7071
            self._badges[pid] = (
                shapes.Circle(bx, by, BADGE_RADIUS + 1.5, segments=20, color=theme.TEXT,
                              batch=self.live, group=self._g_badge),
                shapes.Circle(bx, by, BADGE_RADIUS, segments=20, color=theme.OUTLINE,
                              batch=self.live, group=self._g_badge),
                Label(str(height), x=bx, y=by + 0.5, font_name=theme.FONT, font_size=BADGE_FONT,
                      weight="bold", color=theme.TEXT, anchor_x="center", anchor_y="center",
                      batch=self.live, group=self._g_badge_text))

    def restyle(self) -> None:
        for pid, spr in self.sprites.items():
            colour = self.styler(pid, spr.type.name)
            if colour != spr.colour:
                spr.set_colour(colour)
                self._damage.append(spr.box())

    def piece_at(self, x: float, y: float) -> str | None:
        """The topmost piece under the world point (x, y)."""
        best = None
        for pid, spr in self.sprites.items():
            if spr.contains(x, y) and (best is None or spr.pose[3] >= self.sprites[best].pose[3]):
                best = pid
        return best

    def set_mark(self, pid: str, colour: theme.RGBA | None) -> None:
        """Ring a piece (a chosen target, the hovered piece); None removes the ring."""
        old = self._marks.pop(pid, None)
        spr = self.sprites.get(pid)
        if old is not None:
            old.delete()
            self._damage.append(spr.box(marked=True) if spr is not None else self._mark_box(old))
        if colour is None or spr is None:
            return
        self._marks[pid] = shapes.Arc(spr.pose[0], spr.pose[1], spr.type.size + MARK_GAP,
                                      segments=48, thickness=MARK_WIDTH, color=colour,
                                      batch=self.live, group=self.layers.top)
        self._damage.append(spr.box(marked=True))

    @staticmethod
    def _mark_box(mark: shapes.Arc) -> Box:
        r = mark.radius + MARK_WIDTH
        return mark.x - r, mark.y - r, mark.x + r, mark.y + r

    def clear_marks(self) -> None:
        for pid in list(self._marks):
            self.set_mark(pid, None)
        if self._spots:
            self.show_spots((), theme.HIGHLIGHT)

    # ----- the platform and the aim ------------------------------------------------------------------
    def show_aim(self, aim: Aim | None, kind: str | None = None, start: tuple | None = None,
                 colour: theme.RGBA = theme.AIM_LINE, limit_deg: float | None = None) -> None:
        """Draw the platform at ``aim.entry_deg``, the piece waiting on it at ``start`` (x, y, angle;
        from ``World.platform_pose``), the preview line along the push to where it would leave the
        ring, and faint lines at the heading's limits. Called when the aim changes, not per frame."""
        # The platform is in the still picture, and the lines are not tracked as damage: the
        # owner draws a whole frame after this.
        self.static_changed = True
        for s in self._aim_shapes:
            s.delete()
        self._aim_shapes = []
        if self._platform_ghost is not None:
            self._platform_ghost.delete()
            self._platform_ghost = None
        if aim is None:
            return
        R = self.materials.ring.radius
        ex, ey = aim.entry_point(R)
        dx, dy = aim.direction()
        b = self.batch
        live = self.live  # the lines: above every piece (order 900)
        add = self._aim_shapes.append
        size = self.materials.kinds[kind].size if kind in self.materials.kinds else 0.015
        # The platform: a plank outside the ring along the push line, as wide as the piece.
        e = math.radians(aim.entry_deg)
        nx, ny = math.cos(e), math.sin(e)  # outward normal
        half = size + 0.004
        length = 2 * size + 0.02
        cx, cy = ex + nx * 0.002, ey + ny * 0.002
        px, py = -dy, dx  # across the push line
        bx, by = cx - dx * length, cy - dy * length
        corners = [(cx + px * half, cy + py * half), (cx - px * half, cy - py * half),
                   (bx - px * half, by - py * half), (bx + px * half, by + py * half)]
        add(shapes.Polygon(*corners, color=theme.PLATFORM_EDGE, batch=b, group=self.layers.platform))
        inner = [(cx + px * (half - 0.0015) - dx * 0.0015, cy + py * (half - 0.0015) - dy * 0.0015),
                 (cx - px * (half - 0.0015) - dx * 0.0015, cy - py * (half - 0.0015) - dy * 0.0015),
                 (bx - px * (half - 0.0015) + dx * 0.0015, by - py * (half - 0.0015) + dy * 0.0015),
                 (bx + px * (half - 0.0015) + dx * 0.0015, by + py * (half - 0.0015) + dy * 0.0015)]
        add(shapes.Polygon(*inner, color=theme.PLATFORM, batch=b, group=self.layers.platform))
        # The preview line: the straight path from the piece on the platform across the ring.
        sx, sy = (start[0], start[1]) if start else (ex, ey)
        fx, fy = aim.exit_point(R)
        add(shapes.Line(sx, sy, fx, fy, thickness=0.0011, color=colour, batch=live,
                        group=self.layers.aim))
        add(shapes.Circle(fx, fy, 0.0022, segments=16, color=colour, batch=live, group=self.layers.aim))
        if limit_deg is not None:
            for sign in (-1, 1):
                a = e + math.pi + math.radians(sign * limit_deg)
                add(shapes.Line(ex, ey, ex + math.cos(a) * R * 0.35, ey + math.sin(a) * R * 0.35,
                                thickness=0.0006, color=(*colour[:3], 70), batch=live,
                                group=self.layers.aim))
        if kind in self.materials.kinds and start is not None:
            self._platform_ghost = PieceSprite("__platform__", self.materials.kinds[kind],
                                               self.styler("__platform__", kind), self.layers,
                                               self.live, level=0, ghost=True)
            self._platform_ghost.set_pose((start[0], start[1], start[2], 0))

    def delete(self) -> None:
        self.show_badges({})
        self.show_ghosts(())
        self.show_spots((), theme.HIGHLIGHT)
        for spr in self.sprites.values():
            spr.delete()
        self.sprites.clear()
        self.show_aim(None)
        self.clear_marks()
        for s in self._ring_shapes:
            s.delete()
        self._ring_shapes = []
