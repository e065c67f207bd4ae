"""Every client message is checked before anything acts on it: what is refused, and with which code."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kabuto.net import protocol as pr


def code_of(raw) -> str:
    with pytest.raises(pr.ProtocolError) as exc:
        pr.parse_client(raw)
    assert "\n" not in str(exc.value), "one line"
    return exc.value.code


def test_well_formed_messages_pass_as_they_are():
    for msg in [{"v": 1, "type": "ping", "id": "7"},
                {"v": 1, "type": "join", "game": "sumo", "players": 2, "name": "Ann B."},
                {"v": 1, "type": "act", "step": 3, "action": "play 7C+8C"},
                {"v": 1, "type": "act", "step": 0, "action": {"type": "push", "piece": "medium",
                                                              "entry_deg": 180, "speed": 0.4}},
                {"v": 1, "type": "act", "step": 9, "action": {"type": "move", "name": "Horn Hook",
                                                              "targets": {"angle_deg": 45.0}}}]:
        assert pr.parse_client(json.dumps(msg)) == msg


@pytest.mark.parametrize(("raw", "code"), [
    (b"\x00\x01", "bad-json"),
    ("{", "bad-json"),
    ("[1, 2]", "bad-json"),
    ('{"v": 1, "type": "act", "step": NaN, "action": "x"}', "bad-json"),
    ('{"v": 1, "type": "act", "step": 1' + "0" * 30 + ', "action": "x"}', "bad-json"),
    ('{"v": 1, "type": "act", "step": 1, "action": ' + "[" * 50 + "]" * 50 + "}", "bad-json"),
    # one key twice: which step counts is not defined, so a relay could read another move than the
    # server does
    ('{"v": 1, "type": "act", "step": 1, "step": 2, "action": "x"}', "bad-json"),
    (json.dumps({"v": 1, "type": "join", "name": "x" * (pr.MAX_MESSAGE + 1)}), "too-big"),
    ('{"type": "ping"}', "bad-version"),
    ('{"v": 2, "type": "ping"}', "bad-version"),
    ('{"v": 1, "type": "shout"}', "bad-message"),
    ('{"v": 1, "type": "act", "action": "x"}', "bad-message"),
    ('{"v": 1, "type": "act", "step": "3", "action": "x"}', "bad-message"),
    ('{"v": 1, "type": "act", "step": -1, "action": "x"}', "bad-message"),
    ('{"v": 1, "type": "ping", "extra": 1}', "bad-message"),
    ('{"v": 1, "type": "join", "room": "nope!"}', "bad-message"),
    ('{"v": 1, "type": "join", "name": "<script>"}', "bad-message"),
    ('{"v": 1, "type": "resume", "room": "ABCDEF", "token": "short"}', "bad-message"),
    ('{"v": 1, "type": "act", "step": 1, "action": {"type": "push", "piece": "small"}}', "bad-message"),
    ('{"v": 1, "type": "act", "step": 1, "action": {"type": "push", "piece": "s", "entry_deg": 1e308}}',
     "bad-message"),
    ('{"v": 1, "type": "act", "step": 1, "action": {"type": "teleport"}}', "bad-message"),
])
def test_malformed_messages_are_refused_with_their_code(raw, code):
    assert code_of(raw) == code


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=300), st.binary(max_size=100),
                 json_values.map(json.dumps),
                 st.dictionaries(st.sampled_from(["v", "type", "step", "action", "room", "token", "game",
                                                  "seat", "players", "options", "id", "name"]),
                                 json_values, max_size=6).map(
                     lambda d: json.dumps({"v": 1, "type": "act", **d}))))
def test_anything_at_all_is_either_a_checked_message_or_one_clear_refusal(raw):
    try:
        msg = pr.parse_client(raw)
    except pr.ProtocolError as exc:
        assert exc.code in pr.ERROR_CODES and "\n" not in str(exc)
        return
    assert msg["v"] == pr.VERSION and msg["type"] in pr.SCHEMAS
