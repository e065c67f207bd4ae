"""Start-menu entries for the card table, for the desktop app's start menu to list.

Each :class:`MenuEntry` has a title and a blurb for the menu, and ``open(app, back)`` which makes
the scene to show: the seat set-up screen for that game (each seat a person or a bot of a chosen
strength), whose *Start* opens the table. ``app`` is the app's window (anything with
``set_scene(scene)``), ``back`` a callable that returns to the app's own menu. pyglet is only
imported when an entry is opened, so listing the entries costs nothing.

In the app::

    from cards.table import menu_entries
    for entry in menu_entries():
        add_menu_button(entry.title, lambda e=entry: e.open(window, back=show_start_menu))
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cards.table.config import table_data


@dataclass(frozen=True)
class MenuEntry:
    key: str
    title: str
    blurb: str

    def open(self, app: Any, back: Callable[[], None] | None = None) -> Any:
        """Show this game's seat set-up screen in ``app``; returns the scene."""
        from cards.table.scene import SetupScene

        scene = SetupScene(app, mode=self.key if self.key != "cards" else None, back=back)
        app.set_scene(scene)
        return scene


def menu_entries() -> list[MenuEntry]:
    """One entry per game set-up (Sumo Card Game with/without Jokers, SUMO, Sumida River 3/4)."""
    return [MenuEntry(m.key, m.title, m.blurb) for m in table_data().modes]


def card_room_entry() -> MenuEntry:
    """A single entry for all the card games (the set-up screen lets the player pick one)."""
    return MenuEntry("cards", "Card games", "Sumo Card Game, SUMO and Sumida River at a card table.")
