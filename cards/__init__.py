"""Card-game engines for the three sumo card games, their bots and (separately) the table view.

``cards.GAMES`` maps a game's registry name to its engine class; every engine follows
:class:`cards.api.CardGame`.
"""
from __future__ import annotations

from cards.api import CardGame, IllegalMove

GAMES: dict[str, type[CardGame]] = {}


def register(cls: type[CardGame]) -> type[CardGame]:
    """Class decorator: make an engine available by its ``name``."""
    GAMES[cls.name] = cls
    return cls


#: The engine modules, imported for their @register side effect.
ENGINE_MODULES = ("cards.sumo_card_game", "cards.sumo", "cards.sumida_river")


def _load_engines() -> None:
    # Strict: every engine ships with the package, so a failing import is a bug to see at once,
    # not a game that silently goes missing from GAMES.
    import importlib

    for mod in ENGINE_MODULES:
        importlib.import_module(mod)


_load_engines()

__all__ = ["GAMES", "CardGame", "IllegalMove", "register"]
