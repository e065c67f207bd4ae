"""The one schema style (kabuto_base.schema): any JSON value is either accepted as it is or refused
with one line naming the field, and the two untrusted readers - a saved replay and a network
message - say the same thing about the same bad field."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kabuto_base import schema

JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
                    | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                 max_size=4),
                    max_leaves=12)
PUSH = schema.obj({"type": schema.one_of("push"), "speed": schema.number(0.0, 0.5)},
                  {"tags": schema.listing(3, schema.text(limit=10)), "flag": schema.boolean})


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_any_value_is_accepted_unchanged_or_refused_in_one_line_naming_the_field(value):
    before = json.dumps(value, sort_keys=True)
    try:
        got = PUSH(value, "push")
    except schema.SchemaError as exc:
        assert str(exc).startswith("push") and "\n" not in str(exc)
        assert exc.where.startswith("push") and exc.what
    else:
        assert got is value
    assert json.dumps(value, sort_keys=True) == before  # checking changes nothing


@pytest.mark.parametrize("speed, says", [("fast", "expected a number, got a string"),
                                         (True, "expected a number, got true/false"),
                                         (None, "expected a number, got null")])
def test_a_replay_and_a_message_say_the_same_about_a_bad_speed(speed, says, tmp_path):
    from kabuto.net.protocol import ProtocolError, parse_client
    from kabuto.replay import format as rp
    from kabuto.replay.recorder import record
    from kabuto.rules.game import Game

    game = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    data = record(game, tmp_path)
    game.push("small", 100.0, 0.0, 0.3)
    data.update(game)
    saved = data.to_json(game)
    pushes = [a for a in saved["actions"] if a["type"] == "push"]
    pushes[0]["speed"] = speed
    with pytest.raises(rp.BadReplayFile) as replay:
        rp.from_data(saved)
    msg = {"v": 1, "type": "act", "step": 0,
           "action": {"type": "push", "piece": "small", "entry_deg": 10.0, "speed": speed}}
    with pytest.raises(ProtocolError) as wire:
        parse_client(json.dumps(msg))
    assert str(replay.value).endswith(f".speed: {says}"), str(replay.value)
    assert str(wire.value) == f"action.speed: {says}"
