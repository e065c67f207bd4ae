"""The one window class: it shows one scene at a time, runs the 60 Hz tick, and takes screenshots.

The Kabuto app and the card table (``python -m cards.table``) both open a :class:`Window`; so do the
tests and tools, which drive it with :meth:`Window.pump` instead of ``pyglet.app.run``.

Redraws happen from the tick only when something changed (an input event, an animation running),
so an idle screen costs nothing; while something moves, every tick draws. A scene may offer
``draw_partial()``: when only its moving things changed since the last frame, it repairs just the
rectangles they touched and the window shows just those (:mod:`kabuto_ui.frames`); any input
event, resize or expose gets a whole frame. ``frame_log`` records each drawn frame's start time and
the time its update + draw + present took, for ``tools/bench_frames.py``.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyglet
from pyglet import gl

from kabuto_base.fileio import write_atomic_with
from kabuto_ui import theme
from kabuto_ui.frames import PixelRect, Presenter
from kabuto_ui.scene import Scene

if TYPE_CHECKING:
    from kabuto_ui.overlay import Overlay
    from kabuto_ui.sound import Sounds

TICK = 1.0 / 60.0


def make_config() -> gl.Config | None:
    """8 bits per channel, double-buffered; None (pyglet's default) if the screen offers no match.
    pyglet's headless default was RGB565, which reads colours back slightly off."""
    # pyglet's documented template idiom; its stubs mark Config abstract for the platform classes.
    template = gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8,  # type: ignore[abstract]
                         double_buffer=True)
    try:
        screen = pyglet.display.get_display().get_default_screen()
        return screen.get_best_config(template)
    except pyglet.window.NoSuchConfigException:
        return None


class Window(pyglet.window.Window):
    """A resizable window showing one :class:`~kabuto_ui.scene.Scene`.

    ``set_scene`` swaps screens (closing the old one); ``pump`` handles pending window events and
    runs one tick; ``screenshot`` and ``pixels`` read the picture back. Input events go to the
    scene; Escape never closes the window by surprise (scenes use it for "back").
    """

    def __init__(self, width: int = theme.WINDOW_SIZE[0], height: int = theme.WINDOW_SIZE[1],
                 visible: bool = True, title: str = "Kabuto Sumo", partial_frames: bool = True,
                 min_size: tuple[int, int] = theme.MIN_SIZE):
        # vsync off: the 60 Hz tick paces the frames; waiting for the screen as well would make a
        # late frame later still.
        super().__init__(width, height, caption=title, resizable=True, visible=visible,
                         config=make_config(), vsync=False)
        self.set_minimum_size(*min_size)
        self.scene: Scene | None = None
        self.overlay: Overlay | None = None  # a pop-up over the scene (kabuto_ui.overlay)
        self.sounds: Sounds | None = None  # the app's sounds (kabuto_ui.sound), if it has any
        self.dirty = True
        self.frame_log: list[tuple[float, float]] | None = None
        self.frames_drawn = 0
        self.partial_frames_drawn = 0
        self._scheduled = False
        self.presenter = Presenter(self, allow_partial=partial_frames)
        # True while the back buffer holds the last frame shown (kept by partial presents): only
        # then may a scene repair just what changed.
        self._canvas = False

    # ----- scenes ------------------------------------------------------------------------------------
    def set_scene(self, scene: Scene) -> Scene:
        """Show ``scene`` (closing the one shown before); returns it."""
        if scene is not self.scene:
            self._close_scene()
        self.close_overlay()
        self.scene = scene
        scene.layout(self.width, self.height)
        self.dirty = True
        return scene

    def play_sound(self, name: str) -> None:
        """Play one of the app's sounds (nothing when the window has none)."""
        if self.sounds is not None:
            self.sounds.play(name)

    # ----- pop-ups ----------------------------------------------------------------------------------
    def show_overlay(self, overlay: Overlay) -> Overlay:
        """Show a pop-up over the scene (replacing one already up). While it is up it takes all
        input and the scene is paused (no ticks)."""
        self.overlay = overlay
        overlay.window = self
        overlay.layout(self.width, self.height)
        self.dirty = True
        return overlay

    def close_overlay(self) -> None:
        if self.overlay is not None:
            self.overlay.clear()
            self.overlay = None
            self.dirty = True
            if self.scene is not None:
                self.scene.invalidate()

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
        paused = self.overlay is not None  # the scene waits under a pop-up
        moving = self.scene.update(dt) if self.scene is not None and not paused else False
        if moving or self.dirty:
            whole = self.dirty or not self._canvas or paused
            self.dirty = False
            self.switch_to()
            rects = None
            if not whole and self.scene is not None:
                rects = self.scene.draw_partial()
            if rects is None:
                self.render()
                self.present()
            else:
                self.present(rects)
                self.partial_frames_drawn += 1
            self.frames_drawn += 1
            if self.frame_log is not None:
                self.frame_log.append((t0, time.perf_counter() - t0))

    def render(self) -> None:
        """Draw a whole frame into the back buffer now. (Outside pyglet.app.run,
        ``dispatch_event("on_draw")`` would only queue the event, and a read-back would see the
        previous frame.)"""
        self.switch_to()
        self.on_draw()

    def present(self, rects: list[PixelRect] | None = None) -> None:
        """Show the back buffer: all of it (None), or just ``rects`` of it (a partial frame)."""
        self.presenter.present(rects)
        self._canvas = self.presenter.partial

    def pump(self, dt: float = TICK) -> None:
        """Handle pending window events, then run one tick of ``dt`` seconds."""
        self.dispatch_events()
        self.tick(dt)

    def redraw(self) -> None:
        """Draw a whole frame at the next tick."""
        self.dirty = True

    # ----- events ------------------------------------------------------------------------------------
    def on_draw(self) -> None:
        """Draw a whole frame into the back buffer."""
        gl.glClearColor(*(c / 255 for c in theme.BACKGROUND))
        self.clear()
        if self.scene is not None:
            self.scene.draw()
        if self.overlay is not None:
            self.overlay.draw()

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        if self.presenter.partial:
            # Mesa resizes a window's back buffer only when it is swapped; frames shown by copying
            # never swap, so the old-sized buffer would be drawn into and shown shifted (the
            # height difference lower, with a stale strip). One swap now makes it the new size.
            self.switch_to()
            self.flip()
        self._canvas = False
        if self.scene is not None:
            self.scene.layout(width, height)
        if self.overlay is not None:
            self.overlay.layout(width, height)
        self.dirty = True

    def on_expose(self) -> None:
        self.dirty = True  # the screen lost pixels; the picture itself is unchanged

    def _forward(self, name: str, *args: Any) -> bool:
        """Hand an input event to the pop-up if one is up, else to the scene; True when handled."""
        if self.overlay is not None:
            getattr(self.overlay, name)(*args)
            self.dirty = True
            return True
        scene = self.scene
        handled = bool(getattr(scene, name)(*args)) if scene is not None else False
        if name == "on_mouse_motion" and not handled and scene is not None and scene.quiet_motion:
            return False  # the pointer moved over nothing that reacts: nothing to draw
        self.dirty = True
        if scene is not None:
            scene.invalidate()  # an event may change anything: no cached picture survives it
        return handled

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self._forward("on_mouse_press", x, y, button, modifiers)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        self._forward("on_mouse_release", x, y, button, modifiers)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        self._forward("on_mouse_drag", x, y, dx, dy, buttons, modifiers)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self._forward("on_mouse_motion", x, y, dx, dy)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        self._forward("on_mouse_scroll", x, y, scroll_x, scroll_y)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        # Handled either way: pyglet's default would close the window on Escape.
        self._forward("on_key_press", symbol, modifiers)
        return pyglet.event.EVENT_HANDLED

    def on_text(self, text: str) -> None:
        self._forward("on_text", text)

    # ----- reading the picture back ------------------------------------------------------------------
    def screenshot(self, path: str | Path) -> Path:
        """Render the current scene now and save it as a PNG (the back buffer, before it is shown;
        written atomically, so a reader never sees half a file)."""
        path = Path(path)
        self.dispatch_events()
        self.render()
        buffer = pyglet.image.get_buffer_manager().get_color_buffer()

        def write(tmp: str) -> None:
            with open(tmp, "wb") as fh:  # pyglet picks its encoder from the name given, not tmp's
                buffer.save(path.name, file=fh)

        write_atomic_with(path, write)
        self.present()
        return path

    def pixels(self) -> tuple[int, int, bytes]:
        """Render the current scene and read it back: (width, height, RGBA bytes, bottom row first)."""
        self.dispatch_events()
        self.render()
        img = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        data = img.get_data("RGBA", img.width * 4)
        self.present()
        return img.width, img.height, data

    # ----- closing -----------------------------------------------------------------------------------
    def _close_scene(self) -> None:
        self.close_overlay()
        if self.scene is not None:
            self.scene.close()
        self.scene = None

    def close(self) -> None:
        self._close_scene()
        if self._scheduled:
            pyglet.clock.unschedule(self.tick)
            self._scheduled = False
        super().close()

    def on_close(self) -> None:
        self.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()
