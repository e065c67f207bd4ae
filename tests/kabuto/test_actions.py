"""Actions as values: one record per thing a player can do, made once, checked once, applied by
``Game.apply``, and written as the same JSON in saves, replays and network messages."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kabuto import Game, IllegalMove
from kabuto.net.protocol import kabuto_action, wire_action
from kabuto.rules.actions import Edit, EndTurn, Move, Push, action_from_json
from tests.kabuto.test_state import played


def test_every_history_entry_reads_back_as_the_same_action_and_the_same_json():
    g = played()
    for entry, action in zip(g.history, g.actions, strict=True):
        again = action_from_json(json.loads(json.dumps(entry)))
        assert again == action
        assert again.to_json() == entry


def test_a_replay_of_the_actions_reaches_the_same_game():
    g = played()
    again = Game.replay(g.setup, list(g.actions))
    assert again.to_json() == g.to_json()


def test_a_push_applied_keeps_the_turn_open_and_end_turn_passes_it():
    g = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    out = g.apply(Push("small", 180.0))
    assert out is not None and g.current_seat == 0 and g.can_end_turn
    recorded = g.actions[-1]
    assert isinstance(recorded, Push) and recorded.seat == 0 and recorded.kind == "small"
    assert recorded.hash == out.state_hash and recorded.request() == Push(recorded.piece, 180.0)
    g.apply(EndTurn())
    assert g.current_seat == 1 and g.actions[-1] == EndTurn(0)


def test_an_action_recorded_for_another_seat_is_refused_and_changes_nothing():
    g = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    before = g.to_json()
    with pytest.raises(IllegalMove, match="seat 1"):
        g.apply(Push("small", 180.0, seat=1))
    with pytest.raises(IllegalMove, match="turn"):
        g.apply(Move("Horn Toss", seat=1))
    assert g.to_json() == before


@pytest.mark.parametrize(("data", "names"), [
    ({"type": "push", "piece": "small", "entry_deg": float("nan")}, "entry_deg"),
    ({"type": "push", "piece": "small", "entry_deg": True}, "entry_deg"),
    ({"type": "push", "entry_deg": 1.0}, "piece missing"),
    ({"type": "push", "piece": 3, "entry_deg": 1.0}, "piece"),
    ({"type": "push", "piece": "small", "entry_deg": 1.0, "colour": "red"}, "unknown field 'colour'"),
    ({"type": "move", "name": "Charge", "targets": {"to": [1, 2]}}, "to"),
    ({"type": "move", "name": "Charge", "targets": []}, "targets"),
    ({"type": "end_turn", "seat": -1}, "seat"),
    ({"type": "edit", "piece": "S1", "place": "board", "x": "0.1"}, "x"),
    ({"type": "undo", "undone": 1}, "type"),
    ("push", "object"),
])
def test_a_malformed_action_is_refused_naming_its_field(data, names):
    with pytest.raises(IllegalMove, match=names):
        action_from_json(data)


def test_an_action_is_a_value_its_targets_included():
    a = Move("Vice Grip", {"opponent": 1})
    assert a == Move("Vice Grip", {"opponent": 1}) and hash(a) == hash(Move("Vice Grip", {"opponent": 1}))
    with pytest.raises(TypeError):
        a.targets["opponent"] = 0  # type: ignore[index]
    assert len({a, Move("Vice Grip", {"opponent": 1}), EndTurn()}) == 2


@given(st.floats(-3600, 3600), st.floats(-60, 60), st.floats(0.05, 0.5), st.floats(-180, 180),
       st.sampled_from(["small", "medium", "S3", "mike_piece"]))
def test_what_a_seat_sends_reads_back_as_the_same_push_keeping_the_turn_open(entry, heading, speed, spin, piece):
    a = Push(piece, entry, heading, speed, spin)
    msg = json.loads(json.dumps(wire_action(a)))
    assert msg == {"type": "push", "piece": piece, "entry_deg": entry, "heading_deg": heading,
                   "speed": speed, "spin_deg": spin, "end_turn": False}
    assert kabuto_action(msg) == (a, False)


def test_a_pushed_message_without_end_turn_ends_the_turn_as_game_push_does():
    assert kabuto_action({"type": "push", "piece": "small", "entry_deg": 0.0})[1] is True
    assert kabuto_action({"type": "end_turn"}) == (EndTurn(), False)
    with pytest.raises(ValueError, match="edit"):
        wire_action(Edit("S1", "supply"))
