"""The card table as start-menu modes (:class:`kabuto_ui.modes.Mode`), for an app to list.

:data:`MODE` is "Card games": choosing it opens the card table's set-up screen - the Sumo Card
Game with or without Jokers, SUMO, Sumida River for 3 or 4; each seat a person or a bot of a chosen
strength - whose *Start* opens the table; the table's *Menu* button (and the set-up screen's
*Back*) return to the host's start menu. :func:`game_modes` is one mode per game set-up instead,
for a menu that lists the games themselves.

The app adds :data:`MODE` to its registry in its composition root (:mod:`kabuto.app.main`);
nothing here knows the app. pyglet is imported only when a mode starts.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from cards.table.config import table_data
from kabuto_ui.modes import Host, Mode

if TYPE_CHECKING:
    from kabuto_ui.scene import Scene

TITLE = "Card games"
BLURB = ("The three sumo card games at a card table: the Sumo Card Game (with or without Jokers), "
         "SUMO, and Sumida River for 3 or 4. Each seat a person (hot-seat) or a bot.")


def start(card_mode: str | None, host: Host, settings: Any) -> Scene:
    """The scene a menu's Start opens: the card table's set-up screen in ``host.window`` (with
    ``card_mode`` chosen, if given), whose Back returns to ``host``'s menu. The host menu's
    ``settings`` (its own set-up) do not apply: the set-up screen has its own."""
    from cards.table.scene import SetupScene

    # A host that keeps a data folder offers ``card_saves``: unfinished games are saved there.
    return SetupScene(host.window, mode=card_mode, back=host.open_menu,
                      save_dir=getattr(host, "card_saves", None))


MODE = Mode("cards", TITLE, BLURB, partial(start, None), order=20, uses_menu_setup=False)


def game_modes(order: int = 20) -> list[Mode]:
    """One mode per game set-up (the Sumo Card Game with and without Jokers, SUMO, Sumida River
    for 3 and 4), keyed ``cards:<mode>``, in the order of ``assets/cards/table.toml``."""
    return [Mode(f"cards:{m.key}", m.title, m.blurb, partial(start, m.key), order=order + i,
                 uses_menu_setup=False) for i, m in enumerate(table_data().modes)]
