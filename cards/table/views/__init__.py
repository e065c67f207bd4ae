"""One view per game: each builds the table's picture (a :class:`cards.table.display.Display`)
from one seat's observation, and turns clicks into intents (play this action, pick these cards)."""
from __future__ import annotations

from cards.table.views.sumida_river import SumidaRiverView
from cards.table.views.sumo import SumoView
from cards.table.views.sumo_card_game import SumoCardGameView

VIEWS = {
    "sumo-card-game": SumoCardGameView,
    "sumo": SumoView,
    "sumida-river": SumidaRiverView,
}


def view_for(game: str):
    """The view class instance for a game's registry name."""
    try:
        return VIEWS[game]()
    except KeyError:
        raise ValueError(f"table: no table view for game {game!r}") from None
