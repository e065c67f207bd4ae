"""The app's one window: it holds the current scene, runs the 60 Hz tick, and takes screenshots.

Redraws happen from the tick only when something changed (an input event, an animation running),
so an idle table costs nothing; while a push plays, every tick draws. A scene may offer
``draw_partial()``: when only its moving things changed since the last frame, it repairs just the
rectangles they touched and the window shows just those (:mod:`kabuto.app.frames`); any input
event, resize or expose gets a whole frame. ``frame_log`` records each drawn frame's start time and
the time its update + draw + present took, for ``tools/bench_frames.py``.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pyglet
from pyglet import gl

from kabuto.app import theme
from kabuto.app.frames import PixelRect, Presenter

TICK = 1.0 / 60.0


def make_config() -> gl.Config | None:
    """8 bits per channel, double-buffered; None (pyglet's default) if the screen offers no match.
    pyglet's headless default was RGB565, which reads colours back slightly off."""
    template = gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8, double_buffer=True)
    try:
        screen = pyglet.display.get_display().get_default_screen()
        return screen.get_best_config(template)
    except pyglet.window.NoSuchConfigException:
        return None


class Scene:
    """One screen of the app. The window forwards events and the tick to the current scene.

    ``quiet_motion``: the scene's ``on_mouse_motion`` returns True only when the move changed the
    picture (a hover), so other moves draw nothing. A scene may also define ``invalidate()``
    (called after every input event it gets: anything it caches of its picture may be stale) and
    ``draw_partial()`` (see :meth:`AppWindow.tick`).
    """

    quiet_motion = False

    def __init__(self, app: AppWindow):
        self.app = app
        self.batch = pyglet.graphics.Batch()

    # lifecycle
    def layout(self, width: int, height: int) -> None: ...
    def close(self) -> None: ...

    def update(self, dt: float) -> bool:
        """Advance animations; return True while something moves (the window then redraws)."""
        return False

    def draw(self) -> None:
        self.batch.draw()

    # input (return True when handled)
    def on_mouse_press(self, x, y, button, modifiers) -> bool: return False
    def on_mouse_release(self, x, y, button, modifiers) -> bool: return False
    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers) -> bool: return False
    def on_mouse_motion(self, x, y, dx, dy) -> bool: return False
    def on_mouse_scroll(self, x, y, scroll_x, scroll_y) -> bool: return False
    def on_key_press(self, symbol, modifiers) -> bool: return False
    def on_text(self, text) -> bool: return False


class SceneEvents:
    """The window's input handlers, each handed to the current scene through ``self._forward(name,
    *args) -> handled`` (which the window class defines). Shared by :class:`AppWindow` and the card
    table's own window (:class:`cards.table.host.TableWindow`); list it before
    ``pyglet.window.Window`` in the bases, so these win over pyglet's defaults (pyglet's
    ``on_key_press`` closes the window on Escape)."""

    def _forward(self, name: str, *args: Any) -> bool:
        raise NotImplementedError

    def on_mouse_press(self, x, y, button, modifiers):
        self._forward("on_mouse_press", x, y, button, modifiers)

    def on_mouse_release(self, x, y, button, modifiers):
        self._forward("on_mouse_release", x, y, button, modifiers)

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        self._forward("on_mouse_drag", x, y, dx, dy, buttons, modifiers)

    def on_mouse_motion(self, x, y, dx, dy):
        self._forward("on_mouse_motion", x, y, dx, dy)

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        self._forward("on_mouse_scroll", x, y, scroll_x, scroll_y)

    def on_key_press(self, symbol, modifiers):
        if self._forward("on_key_press", symbol, modifiers):
            return pyglet.event.EVENT_HANDLED
        if symbol == pyglet.window.key.ESCAPE:
            # Escape never closes the window by surprise: scenes use it for "back".
            return pyglet.event.EVENT_HANDLED
        return None


class AppWindow(SceneEvents, pyglet.window.Window):
    """The Kabuto window. ``set_scene`` swaps screens; ``pump`` drives it without pyglet.app.run
    (tests and tools use it: it handles pending window events and runs one tick)."""

    def __init__(self, width: int = theme.WINDOW_SIZE[0], height: int = theme.WINDOW_SIZE[1],
                 visible: bool = True, title: str = "Kabuto Sumo", partial_frames: bool = True):
        # vsync off: the 60 Hz tick paces the frames; waiting for the screen as well would make a
        # late frame later still.
        super().__init__(width, height, caption=title, resizable=True, visible=visible,
                         config=make_config(), vsync=False)
        self.set_minimum_size(*theme.MIN_SIZE)
        self.scene: Scene | None = None
        self.dirty = True
        self.frame_log: list[tuple[float, float]] | None = None
        self.frames_drawn = 0
        self.partial_frames_drawn = 0
        self.options: dict = {}
        self._scheduled = False
        self.presenter = Presenter(self, allow_partial=partial_frames)
        # True while the back buffer holds the last frame shown (kept by partial presents): only
        # then may a scene repair just what changed.
        self._canvas = False

    # ----- scenes ------------------------------------------------------------------------------------
    def set_scene(self, scene: Scene) -> Scene:
        self._close_scene()
        self.scene = scene
        scene.layout(self.width, self.height)
        self.dirty = True
        return scene

    # ----- loop --------------------------------------------------------------------------------------
    def start(self) -> None:
        """Schedule the 60 Hz tick on pyglet's clock (for pyglet.app.run)."""
        if not self._scheduled:
            pyglet.clock.schedule_interval(self.tick, TICK)
            self._scheduled = True

    def tick(self, dt: float) -> None:
        """Update the scene; draw a frame if it moved or anything happened. A whole frame after an
        event (or when the back buffer no longer holds the last frame); else the scene's
        ``draw_partial()`` may repair just what changed and return the rectangles to show (None:
        draw whole after all)."""
        t0 = time.perf_counter()
        update = getattr(self.scene, "update", None)
        moving = update(dt) if update is not None else False
        if moving or self.dirty:
            whole = self.dirty or not self._canvas
            self.dirty = False
            self.switch_to()
            rects = None
            partial = getattr(self.scene, "draw_partial", None)
            if not whole and partial is not None:
                rects = partial()
            if rects is None:
                # Called directly: outside pyglet.app.run, dispatch_event would only queue it.
                self.on_draw()
                self.present()
            else:
                self.present(rects)
                self.partial_frames_drawn += 1
            self.frames_drawn += 1
            if self.frame_log is not None:
                self.frame_log.append((t0, time.perf_counter() - t0))

    def present(self, rects: list[PixelRect] | None = None) -> None:
        """Show the back buffer: all of it (None), or just ``rects`` of it (a partial frame)."""
        self.presenter.present(rects)
        self._canvas = self.presenter.partial

    def pump(self, dt: float = TICK) -> None:
        """Handle pending window events, then run one tick of ``dt`` seconds."""
        self.dispatch_events()
        self.tick(dt)

    def redraw(self) -> None:
        self.dirty = True

    # ----- events ------------------------------------------------------------------------------------
    def on_draw(self) -> None:
        """Draw a whole frame into the back buffer."""
        gl.glClearColor(*(c / 255 for c in theme.BACKGROUND))
        self.clear()
        if self.scene is not None:
            self.scene.draw()

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        if self.scene is not None and hasattr(self.scene, "layout"):
            self.scene.layout(width, height)
        self.dirty = True

    def on_expose(self) -> None:
        self.dirty = True  # the screen lost pixels; the picture itself is unchanged

    def _forward(self, name: str, *args) -> bool:
        scene = self.scene
        handler = getattr(scene, name, None)  # scenes from plug-ins may lack some handlers
        handled = bool(handler(*args)) if handler is not None else False
        if name == "on_mouse_motion" and not handled and getattr(scene, "quiet_motion", False):
            return False  # the pointer moved over nothing that reacts: nothing to draw
        self.dirty = True
        invalidate = getattr(self.scene, "invalidate", None)
        if invalidate is not None:
            invalidate()  # an event may change anything: no cached picture survives it
        return handled

    def on_text(self, text):
        self._forward("on_text", text)

    # ----- screenshots -------------------------------------------------------------------------------
    def screenshot(self, path: str | Path) -> Path:
        """Render the current scene now and save it as a PNG (the back buffer, before any flip)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.switch_to()
        self.on_draw()
        pyglet.image.get_buffer_manager().get_color_buffer().save(str(path))
        self.present()
        return path

    def _close_scene(self) -> None:
        close = getattr(self.scene, "close", None)
        if close is not None:
            close()
        self.scene = None

    def close(self) -> None:
        self._close_scene()
        if self._scheduled:
            pyglet.clock.unschedule(self.tick)
            self._scheduled = False
        super().close()

    def on_close(self):
        self.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()
