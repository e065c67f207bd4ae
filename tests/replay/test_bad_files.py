"""Hostile and damaged replay files: a clear one-line error naming the field, exit status 2, no
traceback, and nothing written anywhere."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kabuto.cli import replay as replay_cli
from kabuto.cli import sim as sim_cli
from kabuto.replay import format as rp


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = replay_cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def first_push(data: dict) -> int:
    return next(i for i, a in enumerate(data["actions"]) if a["type"] == "push")


def rehash(data: dict, i: int = 0) -> None:
    """Make materials[i].hash match its (edited) data, as a careful forger would."""
    data["materials"][i]["hash"] = rp.materials_hash(data["materials"][i]["data"])


def _set(path: list, value):
    def edit(data):
        obj = data
        for k in path[:-1]:
            obj = obj[k(data) if callable(k) else k]
        last = path[-1]
        obj[last(data) if callable(last) else last] = value
    return edit


# (id, how to damage the parsed file or its text, words the error must contain)
CASES = [
    ("wrong version", _set(["version"], 2), ["version", "2"]),
    ("not a replay", _set(["format"], "kabuto-game"), ["format", "saved game"]),
    ("wrong type", _set(["setup", "players"], "two"), ["setup.players", "whole number"]),
    ("players out of range", _set(["setup", "players"], 7), ["setup.players"]),
    ("unknown wrestler", _set(["setup", "wrestlers", 1], "bob"), ["setup.wrestlers[1]", "bob"]),
    ("same wrestler twice", _set(["setup", "wrestlers", 1], "mike"), ["setup.wrestlers[1]", "twice"]),
    ("huge seed", _set(["setup", "seed"], 10 ** 30), ["setup.seed"]),
    ("speed beyond the hand", _set(["actions", first_push, "speed"], 50.0), ["speed", "out of range"]),
    ("heading beyond the platform", _set(["actions", first_push, "heading_deg"], 80.0), ["heading_deg"]),
    ("unknown piece kind", _set(["actions", first_push, "kind"], "anvil"), ["kind", "anvil"]),
    ("speed as text", _set(["actions", first_push, "speed"], "fast"), ["speed", "number"]),
    ("missing hash", lambda d: d["actions"][first_push(d)].pop("hash"), ["hash", "missing"]),
    ("bad hash", _set(["actions", first_push, "hash"], "00ff"), ["hash"]),
    ("unknown action", _set(["actions", first_push, "type"], "teleport"), ["type", "teleport"]),
    ("unknown field", _set(["actions", first_push, "cheat"], True), ["cheat", "unknown field"]),
    ("undo of too much", lambda d: d["actions"].insert(0, {"type": "undo", "undone": 3}), ["undo"]),
    ("materials index", _set(["actions", first_push, "materials"], 9), ["materials", "out of range"]),
    ("materials altered", _set(["materials", 0, "data", "ring", "radius"], 0.2), ["materials[0].hash"]),
    ("materials out of range",
     lambda d: (_set(["materials", 0, "data", "kinds", "small", "table_friction"], -1.0)(d), rehash(d)),
     ["materials[0].data", "table_friction"]),
    ("no materials", _set(["materials"], []), ["materials", "empty"]),
    ("actions not a list", _set(["actions"], {"0": 1}), ["actions", "list"]),
    ("meta junk", _set(["meta", "note"], {"x": 1}), ["meta.note"]),
]


@pytest.fixture
def victim(rich, tmp_path) -> Path:
    return rich.copy_to(tmp_path / "shared")


def _write(path: Path, data) -> bytes:
    raw = json.dumps(data).encode() if not isinstance(data, bytes) else data
    path.write_bytes(raw)
    return raw


def assert_refused(capsys, path: Path, data_dir: Path, words: list[str], verify: bool = True) -> str:
    before = path.read_bytes()
    rc, out, err = run(capsys, path, *(["--verify"] if verify else []))
    assert rc == 2, (out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for w in words:
        assert w in err, (w, err)
    assert path.read_bytes() == before        # the file is left as it was
    assert not data_dir.exists()              # and nothing was recorded or written
    return err


@pytest.mark.parametrize("name,damage,words", CASES, ids=[c[0] for c in CASES])
def test_a_damaged_field_is_named_and_refused(capsys, victim, data_dir, name, damage, words):
    data = json.loads(victim.read_text())
    damage(data)
    _write(victim, data)
    assert_refused(capsys, victim, data_dir, words)


def test_a_truncated_file_is_refused(capsys, victim, data_dir):
    raw = victim.read_bytes()
    victim.write_bytes(raw[: len(raw) * 2 // 3])
    assert_refused(capsys, victim, data_dir, ["truncated"])


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinities_are_refused_naming_the_field(capsys, victim, data_dir, token):
    data = json.loads(victim.read_text())
    i = first_push(data)
    data["actions"][i]["entry_deg"] = 12345.678
    victim.write_text(json.dumps(data).replace("12345.678", token, 1))
    assert_refused(capsys, victim, data_dir, [f"actions[{i}].entry_deg", "not allowed"])


def test_a_huge_integer_is_refused_before_python_converts_it(capsys, victim, data_dir):
    data = json.loads(victim.read_text())
    data["setup"]["seed"] = 123
    victim.write_text(json.dumps(data).replace('"seed": 123', '"seed": ' + "9" * 5000, 1))
    assert_refused(capsys, victim, data_dir, ["setup.seed", "not allowed"])


def test_deep_nesting_is_refused_before_parsing(capsys, victim, data_dir):
    data = json.loads(victim.read_text())
    text = json.dumps(data)
    deep = "[" * 100_000 + "]" * 100_000        # would blow the parser's recursion limit
    victim.write_text(text[:-1] + ', "meta": {"note": ' + deep + "}}")
    assert_refused(capsys, victim, data_dir, ["nested", "levels deep"])


def test_a_huge_file_is_refused_by_its_size_before_reading(capsys, victim, data_dir, monkeypatch):
    with open(victim, "ab") as fh:
        fh.truncate(rp.MAX_BYTES + 10)           # sparse: costs no disk
    read = []
    real_read = rp.loads
    monkeypatch.setattr(rp, "loads", lambda *a, **k: read.append(1) or real_read(*a, **k))
    assert_refused(capsys, victim, data_dir, ["too large"])
    assert not read                               # refused by its size, never parsed


def test_binary_garbage_is_refused(capsys, victim, data_dir):
    victim.write_bytes(bytes(range(256)) * 10)
    assert_refused(capsys, victim, data_dir, ["UTF-8"])


def test_a_push_the_rules_refuse_is_refused_with_exit_2(capsys, victim, data_dir):
    """Well-formed, but the pushed piece is on the board, not in the player's inventory."""
    data = json.loads(victim.read_text())
    i = first_push(data)
    data["actions"][i]["piece"] = "L1"
    data["actions"][i]["kind"] = "large"
    _write(victim, data)
    assert_refused(capsys, victim, data_dir, [f"actions[{i}]", "push 1", "refuse", "L1"])


def test_positions_that_contradict_the_hash_are_refused(capsys, victim, data_dir):
    data = json.loads(victim.read_text())
    i = first_push(data)
    pid, entry = next(iter(data["actions"][i]["changes"]["set"].items()))
    entry[1] += 0.001
    _write(victim, data)
    assert_refused(capsys, victim, data_dir, [f"actions[{i}].changes", "altered"])


def test_a_missing_file_and_a_folder_are_refused(capsys, tmp_path, data_dir):
    rc, _, err = run(capsys, tmp_path / "nope.replay.json", "--verify")
    assert rc == 2 and "cannot read" in err
    rc, _, err = run(capsys, tmp_path, "--verify")
    assert rc == 2 and "folder" in err


def test_sim_resume_refuses_a_bad_file_and_records_nothing(capsys, victim, data_dir, tmp_path):
    data = json.loads(victim.read_text())
    data["version"] = 99
    _write(victim, data)
    pushes = tmp_path / "p.json"
    pushes.write_text('[{"piece": "small", "entry_deg": 180}]')
    rc = sim_cli.main(["--resume", str(victim), "--pushes", str(pushes)])
    _, err = capsys.readouterr()
    assert rc == 2 and "version" in err and "newer kabuto" in err and len(err.strip().splitlines()) == 1
    assert not data_dir.exists()


def test_no_pickle_near_any_replay_file():
    """Replays, recordings and the data folder are JSON only."""
    package = Path(rp.__file__).parent
    sources = [*package.glob("*.py"), package.parent / "cli" / "replay.py"]
    assert len(sources) >= 4
    for path in sources:
        src = path.read_text()
        for banned in ("import pickle", "import marshal", "import shelve", "pickle.load"):
            assert banned not in src, (path.name, banned)
