"""The card-table mode of the desktop app: the three sumo card games at a table in pyglet.

Pure modules (no pyglet; tests use them without a window): :mod:`~cards.table.config` (start-menu
entries, seats, pacing), :mod:`~cards.table.match` (the game, bots, hot-seat, summaries),
:mod:`~cards.table.describe` (the move log in words), :mod:`~cards.table.display` (the picture as
data), :mod:`~cards.table.views` (one table per game, drawn from a seat's observation),
:mod:`~cards.table.table_model` (clicks), :mod:`~cards.table.setup_model` (the set-up screen),
:mod:`~cards.table.card_art` (card faces with Pillow).

pyglet modules: :mod:`~cards.table.render` (display -> shapes, labels, sprites, slides),
:mod:`~cards.table.scene` (the scenes the app's window shows), :mod:`~cards.table.host` (a window
of its own, for ``python -m cards.table``, tests and tools).

Plugging into the app's start menu: importing :mod:`cards.table.app_mode` registers the "Card
games" mode in :mod:`kabuto.app.modes`; :func:`menu_entries` lists one entry per game set-up for a
menu that wants them separately.
"""
from __future__ import annotations

from cards.table.menu import MenuEntry, menu_entries

__all__ = ["MenuEntry", "menu_entries"]
