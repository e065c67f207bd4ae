"""Refusals and results as data: which rule refused and about what, who won and why, for a front
end to say in its own words; one refusal for Kabuto Sumo and the card games."""
from __future__ import annotations

import json
import pickle

import pytest

import cards
from kabuto import Game
from kabuto.rules.outcomes import GameResult, Reason
from kabuto_base.errors import IllegalMove


def _refusal(call) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        call()
    return info.value


def test_one_except_catches_the_refusals_of_every_game():
    card_game = cards.GAMES["sumo-card-game"].new(2, 1)
    for refuse in (lambda: card_game.apply("no such card"),
                   lambda: Game.new(players=2, wrestlers=["mike", "hank"], seed=1).end_turn()):
        with pytest.raises(cards.IllegalMove):
            refuse()


def test_a_refusal_says_which_rule_and_about_what():
    g = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    assert _refusal(g.end_turn).code == "push_first"
    exc = _refusal(lambda: g.use_move(1, "Horn Toss"))
    assert (exc.code, exc.fields) == ("not_your_turn", {"seat": 0})
    exc = _refusal(lambda: g.push("hank_bar", 180.0))
    assert (exc.code, exc.fields["kind"]) == ("none_left", "hank_bar")
    g.push("small", 180.0, end_turn=False)
    exc = _refusal(lambda: g.push("small", 180.0))
    assert (exc.code, exc.fields) == ("pushed_already", {"pushes": 1})
    again = pickle.loads(pickle.dumps(exc))  # as a worker process hands it back
    assert (type(again), again.code, again.fields, str(again)) == (type(exc), exc.code, exc.fields, str(exc))


def test_a_result_says_why_with_a_reason_that_saves_as_before():
    r = GameResult(0, (0,), Reason.SUBMISSION, "seat 1 has no pieces left", 1, ())
    data = json.loads(json.dumps(r.to_json()))
    assert data["reason"] == "submission"
    assert GameResult.from_json(data) == r and GameResult.from_json(data).reason is Reason.SUBMISSION
    with pytest.raises(ValueError):
        GameResult.from_json({**data, "reason": "boredom"})
