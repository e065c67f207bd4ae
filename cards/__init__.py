"""Card-game engines for the three sumo card games, their bots and (separately) the table view.

``cards.GAMES`` maps a game's registry name to its engine class; every engine follows
:class:`cards.api.CardGame`.
"""
from __future__ import annotations

from cards.api import TERMINAL, CardGame, IllegalAction

GAMES: dict[str, type[CardGame]] = {}


def register(cls: type[CardGame]) -> type[CardGame]:
    """Class decorator: make an engine available by its ``name``."""
    GAMES[cls.name] = cls
    return cls


def _load_engines() -> None:
    # Imported for their @register side effect; tolerate an engine not written yet.
    import importlib

    for mod in ("cards.sumo_card_game", "cards.sumo", "cards.sumida_river"):
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name != mod:
                raise


_load_engines()

__all__ = ["GAMES", "CardGame", "IllegalAction", "TERMINAL", "register"]
