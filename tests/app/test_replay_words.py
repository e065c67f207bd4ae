"""The replay viewer says each step in a player's words: a Boulder is "the Boulder", an edit names
the piece and the place as the table does, never a piece id or a kind key."""
from __future__ import annotations

from kabuto.app.replay_model import HistoryModel
from kabuto.rules.game import Game
from tests.app.helpers import leaks
from tests.kabuto.scenarios import free_entry


def _steps(game: Game) -> list[str]:
    data = game.to_json()
    model = HistoryModel(data["setup"], data["history"], "test")
    said = []
    while model.pos < model.steps:
        model.forward()
        said.append(model.describe())
    return said


def test_a_signature_piece_push_and_an_edit_are_said_by_name():
    g = Game.new(players=2, wrestlers=["gus", "mike"], seed=3, first_player=0)
    boulder = next(p for p in g.supply() if g.kind_of(p) == "gus_boulder")
    g.edit(boulder, "seat:0")               # the Boulder from the supply into Red's hand
    g.push(boulder, free_entry(g, boulder, 0.0), 0.0, 0.2)
    said = _steps(g)
    assert said[0] == "edit: the Boulder put on Red's inventory"
    assert said[1].startswith("Red pushed the Boulder from ")
    assert all(not leaks(s) for s in said), said
