"""A window of the card table's own, for ``python -m cards.table``, the tests and the screenshot
tool. Inside the desktop app the app's window shows the same scenes (they follow the same scene
protocol: see :mod:`cards.table.scene`).

``pump()`` runs the window without ``pyglet.app.run``: it handles the pending window events (mouse
clicks sent with ``dispatch_event`` or by a real X server) and runs one tick. ``screenshot(path)``
renders the current scene and saves it as a PNG.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pyglet
from pyglet import gl

from cards.table import style
from cards.table.display import DESIGN_H, DESIGN_W
from kabuto.app.window import SceneEvents, make_config

TICK = 1.0 / 60.0


class TableWindow(SceneEvents, pyglet.window.Window):
    """Shows one scene at a time (see the module docstring). Input reaches the scene through the
    handlers it shares with the app's window (:class:`kabuto.app.window.SceneEvents`)."""

    def __init__(self, width: int = DESIGN_W, height: int = DESIGN_H, visible: bool = True,
                 caption: str = "Kabuto - card table") -> None:
        super().__init__(width, height, caption=caption, resizable=True, visible=visible, config=make_config(),
                         vsync=False)
        self.set_minimum_size(640, 360)
        self.scene: Any = None
        self.dirty = True
        self._scheduled = False

    def set_scene(self, scene: Any) -> Any:
        if self.scene is not None and self.scene is not scene:
            self.scene.close()
        self.scene = scene
        scene.layout(self.width, self.height)
        self.dirty = True
        return scene

    def redraw(self) -> None:
        self.dirty = True

    # ----- loop --------------------------------------------------------------------------------------
    def start(self) -> None:
        if not self._scheduled:
            pyglet.clock.schedule_interval(self.tick, TICK)
            self._scheduled = True

    def tick(self, dt: float) -> None:
        moving = self.scene.update(dt) if self.scene is not None else False
        if moving or self.dirty:
            self.dirty = False
            self.render()
            self.flip()

    def render(self) -> None:
        """Draw the scene into the back buffer now. (``dispatch_event("on_draw")`` would only queue
        the event outside ``pyglet.app.run``, so a read-back would see the previous frame.)"""
        self.switch_to()
        self.on_draw()

    def pump(self, dt: float = TICK) -> None:
        """Handle pending window events, then run one tick of ``dt`` seconds."""
        self.dispatch_events()
        self.tick(dt)

    # ----- events ------------------------------------------------------------------------------------
    def on_draw(self) -> None:
        gl.glClearColor(*(c / 255 for c in style.BACKGROUND))
        self.clear()
        if self.scene is not None:
            self.scene.draw()

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        if self.scene is not None:
            self.scene.layout(width, height)
        self.dirty = True

    def _forward(self, name: str, *args: Any) -> bool:
        self.dirty = True
        if self.scene is None:
            return False
        return bool(getattr(self.scene, name)(*args))

    def on_close(self):
        if self.scene is not None:
            self.scene.close()
            self.scene = None
        if self._scheduled:
            pyglet.clock.unschedule(self.tick)
            self._scheduled = False
        super().on_close()

    # ----- screenshots -------------------------------------------------------------------------------
    def screenshot(self, path: str | Path) -> Path:
        """Render the current scene now and save it as a PNG (written atomically)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.dispatch_events()
        self.render()
        fd, tmp = tempfile.mkstemp(suffix=".png", dir=path.parent)
        os.close(fd)
        try:
            pyglet.image.get_buffer_manager().get_color_buffer().save(tmp)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        self.flip()
        return path

    def pixels(self) -> tuple[int, int, bytes]:
        """Render the current scene and read it back: (width, height, RGBA bytes, bottom row first)."""
        self.dispatch_events()
        self.render()
        buf = pyglet.image.get_buffer_manager().get_color_buffer()
        img = buf.get_image_data()
        data = img.get_data("RGBA", img.width * 4)
        self.flip()
        return img.width, img.height, data
