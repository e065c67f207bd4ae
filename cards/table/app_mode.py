"""The card table as a start-menu mode (:class:`kabuto.ui.modes.Mode`), for an app to list.

:data:`MODE` is "Card games": choosing it opens the card table's set-up screen - the Sumo Card
Game with or without Jokers, SUMO, Sumida River for 3 or 4; each seat a person or a bot of a chosen
strength - whose *Start* opens the table; the table's *Menu* button (and the set-up screen's
*Back*) return to the host's start menu. The app adds it to its registry in its composition root
(:mod:`kabuto.app.main`); nothing here knows the app. pyglet is imported only when the mode starts.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kabuto.ui.modes import Host, Mode

if TYPE_CHECKING:
    from kabuto.ui.scene import Scene

TITLE = "Card games"
BLURB = ("The three sumo card games at a card table: the Sumo Card Game (with or without Jokers), "
         "SUMO, and Sumida River for 3 or 4. Each seat a person (hot-seat) or a bot.")


def start(host: Host, settings: Any) -> Scene:
    """The scene the menu's Start opens: the card table's set-up screen in ``host.window``, whose
    Back returns to ``host``'s menu. The host menu's ``settings`` (its Kabuto Sumo set-up) do not
    apply: the set-up screen has its own."""
    from cards.table.scene import SetupScene

    return SetupScene(host.window, back=host.open_menu)


MODE = Mode("cards", TITLE, BLURB, start, order=20, uses_menu_setup=False)
