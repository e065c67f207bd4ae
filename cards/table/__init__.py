"""The card table: the three sumo card games at a table in pyglet, on its own or in the app.

Pure modules (no pyglet; tests use them without a window): :mod:`~cards.table.config` (start-menu
entries, seats, pacing), :mod:`~cards.table.match` (the game, bots, hot-seat, summaries),
:mod:`~cards.table.describe` (the move log in words), :mod:`~cards.table.display` (the picture as
data), :mod:`~cards.table.views` (one table per game, drawn from a seat's observation),
:mod:`~cards.table.table_model` (clicks), :mod:`~cards.table.setup_model` (the set-up screen),
:mod:`~cards.table.card_art` (card faces with Pillow), :mod:`~cards.table.sizes` (card sizes).

pyglet modules: :mod:`~cards.table.render` (display -> shapes, labels, sprites, slides),
:mod:`~cards.table.scene` (the scenes a :class:`kabuto_ui.window.Window` shows, and
:func:`~cards.table.scene.open_window` for ``python -m cards.table``, tests and tools).

The card table is built on the shared UI toolkit (:mod:`kabuto_ui`) and never imports the Kabuto
app: :mod:`cards.table.app_mode` describes it as start-menu modes, which the app adds to its
menu.
"""
