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
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kabuto.cli import replay as replay_cli
from kabuto.replay import format as rp

# Hypothesis draws a few integers per example; a seeded Random turns them into mutations. Drawing
# nested JSON through hypothesis itself costs more than the loader does, and the seeds still make
# every failure reproducible (hypothesis prints them).
LEAVES = [None, True, False, 0, -1, 7, 2 ** 64, -(10 ** 30), 1e308, -0.0, 3.5, float("nan"),
          float("inf"), float("-inf"), "", "push", "undo", "small", "seat:0", "board", "S01",
          "mike", "0" * 64, "x" * 300, "\u2603"]


def random_json(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if depth < 3 and r < 0.15:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    if depth < 3 and r < 0.3:
        return {rng.choice(["a", "type", "speed", ""]): random_json(rng, depth + 1)
                for _ in range(rng.randrange(3))}
    if r < 0.4:
        return [[[[[1]]]]] * rng.randrange(1, 3)
    return rng.choice(LEAVES)


def _paths(node: Any, here: tuple = ()) -> list[tuple]:
    out = [here]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, here + (i,))
    return out


def pick_path(rng: random.Random, paths: list[tuple]) -> tuple:
    """A path to mutate: mostly in the actions, a quarter in the materials (hash-protected: most
    edits there are caught by the hash, so :func:`reseal` often makes the hash match again),
    the rest elsewhere."""
    r = rng.random()
    group = "actions" if r < 0.6 else "materials" if r < 0.85 else None
    pool = [p for p in paths if (p[:1] == (group,)) if group] or \
        [p for p in paths if p[:1] not in (("actions",), ("materials",))]
    return rng.choice(pool)


def reseal(data: Any, rng: random.Random) -> None:
    """Like a careful forger: recompute the materials hashes (so the materials validator itself
    is fuzzed, not only the hash check)."""
    try:
        for t in data["materials"]:
            if rng.random() < 0.7:
                t["hash"] = rp.materials_hash(t["data"])
    except (KeyError, TypeError, ValueError, AttributeError):
        pass


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


OPS = ["delete", "replace", "retype", "wrap", "nudge"]
TEXT_OPS = ["truncate", "flip", "cut", "dup"]


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
@given(seed=st.integers(min_value=0, max_value=2 ** 32), edits=st.integers(min_value=0, max_value=3),
       text_edit=st.booleans())
def test_the_loader_refuses_mutated_files_cleanly(base, seed, edits, text_edit):
    src, paths = base
    rng = random.Random(seed)
    data = json.loads(src)
    for _ in range(edits if edits or text_edit else 1):
        path = pick_path(rng, paths)
        try:
            data = _mutate(data, path, rng.choice(OPS), random_json(rng))
        except (KeyError, IndexError, TypeError, ValueError):
            break  # the path no longer exists after an earlier mutation
        if path[:1] == ("materials",):
            reseal(data, rng)
    raw = json.dumps(data).encode()   # NaN and Infinity are written as such: the loader must refuse
    if text_edit:
        raw = _mutate_text(raw, rng.choice(TEXT_OPS), rng.randrange(len(raw)), rng.randrange(8),
                           rng.randrange(1, 64))
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
