"""Scenes: what a :class:`~kabuto_ui.window.Window` shows, one at a time.

The window calls a scene's ``layout(width, height)`` when it is shown and on every resize,
``update(dt) -> moving`` every tick, ``draw()`` for a whole frame, and ``close()`` when it is
replaced; it forwards mouse and key events, each returning True when handled. :class:`Scene` is
that protocol with do-nothing defaults, so a scene defines only what it reacts to.

Two hooks make frames cheap (:mod:`kabuto_ui.frames`): ``invalidate()`` is called after every input
event (a cached picture may be stale), and ``draw_partial()`` may repair just what moved since the
last frame and return the rectangles to show (None, the default: draw a whole frame).

:class:`WidgetScene` is a page of buttons and labels (a start menu, a browser).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pyglet

from kabuto_ui.widgets import Widgets

if TYPE_CHECKING:
    from kabuto_ui.frames import PixelRect
    from kabuto_ui.window import Window


class Scene:
    """One screen (see the module docstring). ``app`` is the window showing it; ``batch`` is what
    the default :meth:`draw` draws.

    ``quiet_motion``: the scene's ``on_mouse_motion`` returns True only when the move changed the
    picture (a hover), so other moves draw nothing.
    """

    quiet_motion = False

    def __init__(self, app: Window):
        self.app = app
        self.batch = pyglet.graphics.Batch()

    # ----- lifecycle ---------------------------------------------------------------------------------
    def layout(self, width: int, height: int) -> None:
        """Place everything for a window of this size (on showing and on every resize)."""

    def close(self) -> None:
        """The scene is being replaced: release what it holds (threads, GL objects)."""

    def update(self, dt: float) -> bool:
        """Advance animations; return True while something moves (the window then redraws)."""
        return False

    def draw(self) -> None:
        """Draw a whole frame into the back buffer."""
        self.batch.draw()

    def draw_partial(self) -> list[PixelRect] | None:
        """Repair only what changed since the last frame and return the rectangles to show, or
        None to have a whole frame drawn instead."""
        return None

    def invalidate(self) -> None:
        """An input event arrived: anything cached of the picture may be stale."""

    # ----- input (return True when handled) ----------------------------------------------------------
    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        return False

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        return False

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool:
        return False

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool:
        return False

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        return False

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        return False

    def on_text(self, text: str) -> bool:
        return False


class WidgetScene(Scene):
    """A page of widgets, rebuilt whole (:meth:`rebuild`) when the window changes size or the
    content changes, never per frame. ``widgets`` receive the mouse; ``items`` hold the other
    shapes and labels drawn. A subclass defines ``rebuild()``, which starts with
    :meth:`clear_page` and then adds both again."""

    def __init__(self, app: Window):
        super().__init__(app)
        self.widgets = Widgets()
        self.items: list[Any] = []

    def rebuild(self) -> None:
        raise NotImplementedError

    def clear_page(self) -> None:
        """Delete every widget and drawn item (before a rebuild, or when the scene closes)."""
        self.widgets.clear()
        for it in self.items:
            it.delete()
        self.items = []

    def layout(self, width: int, height: int) -> None:
        self.rebuild()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        return self.widgets.on_mouse_press(x, y, button, modifiers)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        return self.widgets.on_mouse_release(x, y)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool:
        self.widgets.on_mouse_motion(x, y)
        return True

    def close(self) -> None:
        self.clear_page()
