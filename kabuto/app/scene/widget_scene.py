"""A scene that is a page of buttons and labels (the start menu, the replay browser).

Such a page is rebuilt whole (:meth:`WidgetScene.rebuild`) when the window changes size or its
content changes, never per frame; its :class:`~kabuto.app.widgets.Widgets` get the mouse.
"""
from __future__ import annotations

from kabuto.app.widgets import Widgets
from kabuto.app.window import Scene


class WidgetScene(Scene):
    """``widgets`` receive the mouse; ``items`` hold the other shapes and labels drawn. A subclass
    defines ``rebuild()``, which starts with :meth:`clear_page` and then adds both again."""

    def __init__(self, app):
        super().__init__(app)
        self.widgets = Widgets()
        self.items: list = []

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

    def on_mouse_press(self, x, y, button, modifiers) -> bool:
        return self.widgets.on_mouse_press(x, y, button, modifiers)

    def on_mouse_release(self, x, y, button, modifiers) -> bool:
        return self.widgets.on_mouse_release(x, y)

    def on_mouse_motion(self, x, y, dx, dy) -> bool:
        self.widgets.on_mouse_motion(x, y)
        return True

    def close(self) -> None:
        self.clear_page()
