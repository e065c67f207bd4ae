"""tools/paired_rerun.py: a ledger's games played again under other data, and compared."""
from __future__ import annotations

import json

import pytest

from kabuto.lab import ledger
from kabuto.lab.match import GameRecord, GameSpec, play_game
from tests.tools.conftest import load_tool


@pytest.fixture(scope="module")
def paired():
    return load_tool("paired_rerun")


def _record(index: int, wrestlers: tuple[str, str], first: int) -> GameRecord:
    spec = GameSpec(index, wrestlers, first, ("hard", "hard"), index, 40)
    return GameRecord(spec, 0, "knockout", 10, 0, {"actions": []})


def test_any_prefix_of_the_games_is_spread_over_opponents_seats_and_first_players(paired):
    kinds = [(w, first) for opp in ("hank", "gus", "jade") for w in (("mike", opp), (opp, "mike"))
             for first in (0, 1)]
    records = [_record(i, *kinds[i % 12]) for i in range(36)]  # three rounds of the 12 kinds
    chosen = paired.pick(records, "mike", 12, capped=False)
    groups = {(r.spec.wrestlers, r.spec.first_player) for r in chosen}
    assert len(chosen) == 12 and len(groups) == 12  # each pairing, seat and first player once
    assert {r.spec.index for r in chosen} == set(range(12))  # the earliest of each group
    assert len(paired.pick(records, "mike", 100, capped=False)) == 36
    assert paired.pick(records, "dora", 5, capped=False) == []


@pytest.fixture(scope="module")
def short_ledger(tmp_path_factory):
    """Two short easy games, as `kabuto balance` writes them."""
    path = tmp_path_factory.mktemp("ledger") / "games.jsonl"
    for i, (w, first) in enumerate([(("mike", "hank"), 0), (("hank", "mike"), 1)]):
        ledger.append(path, play_game(GameSpec(i, w, first, ("easy", "easy"), 7 + i, 4)))
    return path


def test_a_rerun_under_the_same_data_ends_every_game_as_the_ledger_says(paired, short_ledger, tmp_path, capsys):
    out = tmp_path / "rerun.jsonl"
    assert paired.main(["--ledger", str(short_ledger), "--out", str(out), "--wrestler", "mike",
                        "--games", "2", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["games"] == 2 and s["same_result"] == 2
    assert s["ledger"] == s["rerun"]
    assert len(out.read_text().splitlines()) == 2
    # Given again, the command plays nothing and compares the same games.
    assert paired.main(["--ledger", str(short_ledger), "--out", str(out), "--wrestler", "mike",
                        "--games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == s and len(out.read_text().splitlines()) == 2


def test_a_lower_cap_stops_the_same_games_sooner(paired, short_ledger, tmp_path, capsys):
    out = tmp_path / "cut.jsonl"
    assert paired.main(["--ledger", str(short_ledger), "--out", str(out), "--games", "2",
                        "--max-turns", "1", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["rerun"]["median_turns"] <= 1
    assert all(r.turns <= 1 for r in paired.read_ledger(out))


def test_a_damaged_ledger_is_one_line_naming_the_line(paired, short_ledger, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    lines = short_ledger.read_text().splitlines()
    bad.write_text(lines[0] + "\n{not json\n" + lines[1] + "\n")
    assert paired.main(["--ledger", str(bad), "--out", str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err.strip()
    assert "line 2" in err and "\n" not in err
    assert not (tmp_path / "o.jsonl").exists()
