"""Thousands of mutated replay files thrown at the loader: it accepts them or refuses them with a
one-line :class:`BadReplayFile`, and never fails any other way.

Mutations start from a real recorded replay (pushes, a move, edits, a tuning change, an undo):
fields deleted, replaced by random JSON (NaN, infinities, huge integers, deep lists included),
retyped, and the text truncated, bit-flipped or cut. Loading validates structure only, so this is
fast; a second, smaller run sends loadable mutants through ``kabuto replay --verify`` (which
simulates) and checks it exits 0, 1 or 2 with no traceback.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kabuto import replay as rp, replay_cli

json_leaf = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 80), max_value=2 ** 80)
             | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
             | st.sampled_from(["push", "undo", "small", "seat:0", "board", "S01", "mike", "0" * 64]))
json_value = st.recursive(json_leaf, lambda c: st.lists(c, max_size=3)
                          | st.dictionaries(st.text(max_size=6), c, max_size=3), max_leaves=6)


def _paths(node: Any, here: tuple = ()) -> list[tuple]:
    out = [here]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, here + (i,))
    return out


@pytest.fixture(scope="module")
def base(rich) -> tuple[str, list[tuple]]:
    """The rich replay, with recorded positions kept on two actions only (they are long lists of
    the same shape; fewer of them keep each example fast without losing a kind of field)."""
    data = json.loads(rich.path.read_text())
    with_changes = [a for a in data["actions"] if "changes" in a]
    for a in with_changes[2:]:
        del a["changes"]
    text = rp.dumps(data)
    rp.loads(text)  # the base itself is valid
    return text, _paths(data)


def _mutate(data: Any, path: tuple, op: str, value: Any) -> Any:
    """``data`` with one mutation at ``path`` (in place where possible)."""
    if not path:
        return value
    else:
        parent = data
        for k in path[:-1]:
            parent = parent[k]
        k = path[-1]
        old = parent[k]
        if op == "delete":
            del parent[k]
        elif op == "replace":
            parent[k] = value
        elif op == "retype":
            parent[k] = (str(old) if not isinstance(old, str) else
                         (int(old) if old.isdigit() else [old]))
        elif op == "wrap":
            parent[k] = [old] if not isinstance(old, list) else {"0": old}
        elif op == "nudge" and isinstance(old, (int, float)) and not isinstance(old, bool):
            parent[k] = old * 1.5 + 1 if isinstance(old, float) else old + 1
    return data


tree_mutation = st.tuples(st.integers(min_value=0), st.sampled_from(
    ["delete", "replace", "retype", "wrap", "nudge"]), json_value)
text_mutation = st.tuples(st.sampled_from(["truncate", "flip", "cut", "dup"]),
                          st.integers(min_value=0), st.integers(min_value=0, max_value=7),
                          st.integers(min_value=1, max_value=64))


def _mutate_text(raw: bytes, op: str, pos: int, bit: int, n: int) -> bytes:
    pos %= max(len(raw), 1)
    if op == "truncate":
        return raw[:pos]
    if op == "flip":
        return raw[:pos] + bytes([raw[pos] ^ (1 << bit)]) + raw[pos + 1:]
    if op == "cut":
        return raw[:pos] + raw[pos + n:]
    return raw[:pos] + raw[pos:pos + n] + raw[pos:]


def check_loader(raw: bytes) -> rp.Replay | None:
    try:
        replay = rp.loads(raw, name="fuzz.json")
    except rp.BadReplayFile as exc:
        msg = str(exc)
        assert msg.startswith("fuzz.json: ") and len(msg) > 12 and "\n" not in msg, msg
        return None
    # Anything accepted can be written back and reads back the same.
    assert rp.loads(rp.dumps(replay)).to_json() == replay.to_json()
    return replay


@settings(max_examples=2000, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(tree=st.lists(tree_mutation, min_size=1, max_size=3), text=st.none() | text_mutation)
def test_the_loader_refuses_mutated_files_cleanly(base, tree, text):
    src, paths = base
    data = json.loads(src)
    for idx, op, value in tree:
        try:
            data = _mutate(data, paths[idx % len(paths)], op, value)
        except (KeyError, IndexError, TypeError, ValueError):
            break  # the path no longer exists after an earlier mutation
    raw = json.dumps(data).encode()   # NaN and Infinity are written as such: the loader must refuse
    if text is not None:
        raw = _mutate_text(raw, *text)
    check_loader(raw)


@pytest.fixture(scope="module")
def action_number_paths(base) -> list[tuple]:
    src, paths = base
    data = json.loads(src)

    def leaf(p):
        node = data
        for k in p:
            node = node[k]
        return node
    return [p for p in paths if p and p[0] == "actions" and len(p) == 3
            and isinstance(leaf(p), (int, float)) and not isinstance(leaf(p), bool)]


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(picks=st.lists(st.tuples(st.integers(min_value=0), st.sampled_from(["nudge", "replace"]),
                                st.integers(min_value=-3, max_value=3)), min_size=1, max_size=2))
def test_verify_on_mutated_files_exits_0_1_or_2_without_traceback(base, action_number_paths,
                                                                   tmp_path, capsys, picks):
    src, _ = base
    data = json.loads(src)
    for idx, op, value in picks:
        data = _mutate(data, action_number_paths[idx % len(action_number_paths)], op, value)
    path = tmp_path / "mutant.replay.json"
    path.write_text(json.dumps(data))
    rc = replay_cli.main([str(path), "--verify", "--quiet"])
    _, err = capsys.readouterr()
    assert rc in (0, 1, 2)
    if rc:
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
