"""What a start menu offers: *modes*, each a way to fill the window, in a :class:`ModeRegistry`.

The application that owns the window (its composition root) fills the registry: the Kabuto app
adds its own modes and the card table's (:mod:`kabuto.app.main`). A mode is started in a
:class:`Host` - the window it fills and the way back to the start menu - and returns the scene to
show::

    def start(host, settings):                  # -> a kabuto_ui.scene.Scene
        return MyScene(host.window, back=host.open_menu)

    registry = ModeRegistry()
    registry.add(Mode("mine", "My game", "What it is, in a sentence.", start, order=20))

No pyglet here: listing the modes costs nothing until one is started.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from kabuto_ui.scene import Scene
    from kabuto_ui.window import Window


class Host(Protocol):
    """Where a mode runs: ``window`` shows its scenes, ``open_menu()`` returns to the start menu."""

    @property
    def window(self) -> Window: ...

    def open_menu(self) -> None: ...


@dataclass(frozen=True)
class Mode:
    """One entry of a start menu.

    ``start(host, settings)`` returns the scene to show (``settings`` are the menu's own choices,
    passed whether the mode uses them or not); it may raise ValueError, which the menu shows.
    ``uses_menu_setup`` says whether the menu's set-up (players, seats) applies; a mode with a
    set-up screen of its own says False.
    """

    key: str
    title: str
    blurb: str
    start: Callable[[Host, Any], Scene]
    order: int = 50
    uses_menu_setup: bool = True


class ModeRegistry:
    """The modes a menu lists, by key; :meth:`ordered` is the order they are shown in.

    >>> reg = ModeRegistry()
    >>> _ = reg.add(Mode("b", "Second", "", lambda host, s: None, order=2))
    >>> _ = reg.add(Mode("a", "First", "", lambda host, s: None, order=1))
    >>> [m.key for m in reg.ordered()], "a" in reg, reg.get("c")
    (['a', 'b'], True, None)
    """

    def __init__(self) -> None:
        self._modes: dict[str, Mode] = {}

    def add(self, mode: Mode) -> Mode:
        """Add a mode; ValueError if its key is taken (two modes with one key is a wiring mistake)."""
        if mode.key in self._modes:
            raise ValueError(f"mode {mode.key!r} is already registered")
        self._modes[mode.key] = mode
        return mode

    def __getitem__(self, key: str) -> Mode:
        return self._modes[key]

    def __contains__(self, key: object) -> bool:
        return key in self._modes

    def __iter__(self) -> Iterator[Mode]:
        return iter(self.ordered())

    def get(self, key: str) -> Mode | None:
        return self._modes.get(key)

    def ordered(self) -> list[Mode]:
        return sorted(self._modes.values(), key=lambda m: (m.order, m.title))
