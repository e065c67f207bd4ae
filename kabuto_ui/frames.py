"""Cheap frames while pieces move: a cached still picture, repaired rectangles, partial presents.

Where the time of a frame went (measured under Xvfb on Mesa llvmpipe, a software renderer, on a
loaded 2-core machine; ``tools/bench_frames.py``): drawing the whole table costs 8-10 ms of
rasterising (the ring, every piece and the panels: blended fill, about half of it the ring and half
the pieces) plus 2 ms of Python, while a push moves a few pieces. So while a push plays the window
is not redrawn; only the rectangles that changed are:

* the **still picture** (what cannot change while the push plays: the ring, the platform, the
  panels) is drawn into the back buffer as usual and copied into :class:`StaticCache`;
* each frame, every rectangle something live (a piece, a flight) left or entered is copied back
  from the cache (:meth:`StaticCache.restore`) and the live things are drawn over it, clipped to it;
* :class:`Presenter` shows just those rectangles (``glXCopySubBufferMESA``), so the back buffer
  stays the window's canvas between frames.

Two measured facts shaped this. Copying a window-sized texture into the window costs 4-5 ms on
llvmpipe (a textured-quad path: its formats differ from the window's), so copying whole frames is
hardly cheaper than drawing them; small rectangles are cheap. And drawing into an offscreen
framebuffer blends a few hundred pixels one unit differently from drawing into the window, so the
cache is *copied from the window's back buffer* after the still picture is drawn there: a repaired
frame then has exactly the pixels of a whole redraw (``tests/app/test_frames.py`` checks the screen).

Without ``GLX_MESA_copy_sub_buffer`` (other platforms and drivers), the back buffer is undefined
after a swap and every frame is drawn whole, as before; on real GPUs that is cheap anyway.
"""
from __future__ import annotations

import ctypes
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pyglet
from pyglet import gl


@dataclass(frozen=True)
class PixelRect:
    """A rectangle of framebuffer pixels, origin bottom-left like GL; ``w`` or ``h`` 0 is empty."""

    x: int
    y: int
    w: int
    h: int

    @property
    def empty(self) -> bool:
        return self.w <= 0 or self.h <= 0

    @property
    def area(self) -> int:
        return 0 if self.empty else self.w * self.h

    def union(self, o: PixelRect) -> PixelRect:
        if self.empty:
            return o
        if o.empty:
            return self
        x0, y0 = min(self.x, o.x), min(self.y, o.y)
        x1, y1 = max(self.x + self.w, o.x + o.w), max(self.y + self.h, o.y + o.h)
        return PixelRect(x0, y0, x1 - x0, y1 - y0)

    def intersect(self, o: PixelRect) -> PixelRect:
        x0, y0 = max(self.x, o.x), max(self.y, o.y)
        x1, y1 = min(self.x + self.w, o.x + o.w), min(self.y + self.h, o.y + o.h)
        return PixelRect(x0, y0, max(0, x1 - x0), max(0, y1 - y0))

    def overlaps(self, o: PixelRect) -> bool:
        return not self.intersect(o).empty

    @classmethod
    def covering(cls, x0: float, y0: float, x1: float, y1: float, scale: float = 1.0,
                 margin: int = 2) -> PixelRect:
        """The whole pixels covering the window-coordinate box (x0, y0)-(x1, y1), ``scale``
        framebuffer pixels per window unit (HiDPI), grown by ``margin`` pixels: rasterisation
        may touch the pixel a shape's edge only grazes."""
        ax, ay = math.floor(x0 * scale) - margin, math.floor(y0 * scale) - margin
        bx, by = math.ceil(x1 * scale) + margin, math.ceil(y1 * scale) + margin
        return cls(ax, ay, max(0, bx - ax), max(0, by - ay))


def merge(rects: list[PixelRect], limit: int = 4) -> list[PixelRect]:
    """Disjoint rectangles covering ``rects``: overlapping ones are merged (each pixel must be
    repaired and drawn once: shadows are blended, and blending twice darkens). More than ``limit``
    left over become their union (each rectangle costs a draw of the live batch, about 0.4 ms of
    Python)."""
    out = [r for r in rects if not r.empty]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                if out[i].overlaps(out[j]):
                    out[i] = out[i].union(out.pop(j))
                    merged = True
                    break
            if merged:
                break
    if len(out) > limit:
        u = PixelRect(0, 0, 0, 0)
        for r in out:
            u = u.union(r)
        out = [u]
    return out


class StaticCache:
    """A copy of the back buffer holding the still picture, and copies of parts of it back.

    Colour only, at the window's framebuffer size; ``valid`` is cleared by :meth:`invalidate` (the
    owner calls it whenever the still picture may have changed) and by a size change.
    """

    def __init__(self) -> None:
        self._fbo: pyglet.image.Framebuffer | None = None
        self._texture: pyglet.image.Texture | None = None
        self.size = (0, 0)
        self.valid = False
        self.warm = False

    def invalidate(self) -> None:
        self.valid = False

    def _ensure(self, width: int, height: int) -> pyglet.image.Framebuffer:
        """The framebuffer, (re)made at this size."""
        if self._fbo is not None and self.size == (width, height):
            return self._fbo
        self.delete()
        texture = pyglet.image.Texture.create(width, height, internalformat=gl.GL_RGBA8,
                                              min_filter=gl.GL_NEAREST, mag_filter=gl.GL_NEAREST)
        fbo = pyglet.image.Framebuffer()
        fbo.attach_texture(texture)
        self._texture, self._fbo = texture, fbo
        self.size = (width, height)
        return fbo

    def warm_up(self, width: int, height: int) -> None:
        """Allocate, and copy one pixel out and back (it is unchanged): a software renderer
        compiles its copy routines on first use (tens of ms on llvmpipe), better spent now than
        in the first frame of a push."""
        fbo = self._ensure(width, height)
        one = PixelRect(0, 0, 1, 1)
        _blit(0, fbo.id, one)
        _blit(fbo.id, 0, one)
        self.warm = True

    def grab(self, width: int, height: int) -> None:
        """Copy the window's back buffer (``width`` x ``height`` framebuffer pixels) in."""
        fbo = self._ensure(width, height)
        _blit(0, fbo.id, PixelRect(0, 0, width, height))
        self.valid = self.warm = True

    def restore(self, rect: PixelRect) -> None:
        """Copy ``rect`` of the cached picture back into the window's back buffer."""
        r = rect.intersect(PixelRect(0, 0, *self.size))
        if not r.empty and self._fbo is not None:
            _blit(self._fbo.id, 0, r)

    def delete(self) -> None:
        if self._fbo is not None:
            self._fbo.delete()
        if self._texture is not None:
            self._texture.delete()
        self._fbo = None
        self._texture = None
        self.size = (0, 0)
        self.valid = False


def _blit(src: int, dst: int, r: PixelRect) -> None:
    """Copy a rectangle between framebuffers (0 is the window's), pixel for pixel."""
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, src)
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, dst)
    gl.glBlitFramebuffer(r.x, r.y, r.x + r.w, r.y + r.h, r.x, r.y, r.x + r.w, r.y + r.h,
                         gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)


class Scissor:
    """Clip drawing to a framebuffer rectangle (``None``: no clipping)."""

    @staticmethod
    def set(rect: PixelRect | None) -> None:
        if rect is None:
            gl.glDisable(gl.GL_SCISSOR_TEST)
        else:
            gl.glEnable(gl.GL_SCISSOR_TEST)
            gl.glScissor(rect.x, rect.y, max(0, rect.w), max(0, rect.h))


class Presenter:
    """Shows the back buffer: whole (swap, or a whole-window copy) or just some rectangles.

    ``partial`` is True when the platform can copy rectangles of the back buffer to the screen
    (``GLX_MESA_copy_sub_buffer``: Mesa's GLX, which Xvfb and most Linux drivers use). Then every
    frame is presented by copying, never swapped, so the back buffer keeps the last frame and the
    next one may repair just what changed. Otherwise frames are swapped and always drawn whole.
    """

    def __init__(self, window: pyglet.window.Window, allow_partial: bool = True):
        self.window = window
        self._copy = _copy_sub_buffer(window) if allow_partial else None
        self.partial = self._copy is not None

    def present(self, rects: list[PixelRect] | None = None) -> None:
        """Show ``rects`` of the back buffer (None: all of it)."""
        if self._copy is None:
            self.window.flip()
            return
        if rects is None:
            w, h = self.window.get_framebuffer_size()
            rects = [PixelRect(0, 0, w, h)]
        for r in rects:
            if not r.empty:
                self._copy(r)


def _copy_sub_buffer(window: pyglet.window.Window) -> Callable[[PixelRect], None] | None:
    """A function copying a framebuffer rectangle of ``window``'s back buffer to the screen, or
    None when the platform has no such thing."""
    ctx: Any = getattr(window, "context", None)  # an xlib context has the GLX attributes below
    config = getattr(ctx, "config", None)
    glx_info = getattr(config, "glx_info", None)
    if glx_info is None or not glx_info.have_extension("GLX_MESA_copy_sub_buffer"):
        return None
    try:
        from pyglet.gl import glxext_arb
    except ImportError:
        return None
    fn = getattr(glxext_arb, "glXCopySubBufferMESA", None)
    if fn is None:
        return None

    def copy(r: PixelRect) -> None:
        drawable = ctx.glx_window
        if drawable:
            fn(ctx.x_display, drawable, ctypes.c_int(r.x), ctypes.c_int(r.y), ctypes.c_int(r.w),
               ctypes.c_int(r.h))

    return copy
