"""The card table's entry in the desktop app's start menu (:mod:`kabuto.app.modes`).

Importing this module registers the mode ``"cards"`` ("Card games"), replacing the app's
placeholder. Choosing it opens the card table's set-up screen - the Sumo Card Game with or without
Jokers, SUMO, Sumida River for 3 or 4; each seat a person or a bot of a chosen strength - whose
*Start* opens the table; the table's *Menu* button (and the set-up screen's *Back*) return to the
app's start menu.

The app imports it as a plugin: ``kabuto.app.modes.PLUGINS`` lists the modules the menu imports.
Nothing here imports pyglet until the mode is started.
"""
from __future__ import annotations

from typing import Any

from kabuto.app.modes import Mode, register_mode

TITLE = "Card games"
BLURB = ("The three sumo card games at a card table: the Sumo Card Game (with or without Jokers), "
         "SUMO, and Sumida River for 3 or 4. Each seat a person (hot-seat) or a bot.")


def start(app: Any, config: Any) -> Any:
    """The scene the menu's Start opens: the card table's set-up screen.

    ``app`` is the desktop app (its ``window`` shows scenes, ``open_menu()`` goes back to the start
    menu); a bare window works too. ``config`` (the Kabuto Sumo set-up) is not used, except that a
    ``config.extra["card_mode"]`` preselects a game.
    """
    from cards.table.scene import SetupScene

    window = getattr(app, "window", app)
    back = getattr(app, "open_menu", None)
    extra = getattr(config, "extra", None) or {}
    return SetupScene(window, mode=extra.get("card_mode"), back=back)


MODE = register_mode(Mode("cards", TITLE, BLURB, start, order=20, uses_kabuto_setup=False))
