"""kabuto.lab.openings and tools/openings.py: how often two AIs' games are over within a few turns."""
from __future__ import annotations

import json
import re
import shutil
from collections import Counter

import kabuto_assets
from kabuto.lab.openings import opening_specs, play_openings
from kabuto.rules.wrestlers import load_wrestlers
from physics import Materials
from tests.tools.conftest import load_tool


def _bare_rim(tmp_path, monkeypatch) -> None:
    """Use assets whose two-player board is bare but for the wrestlers, each at the rim (its centre
    8 mm from the edge), where a push from beside it reaches it. (At 14 mm, where a 60 degree
    platform and a 0.5 m/s hand reached it, no first push of these openings knocks a wrestler out
    with the 45 degree platform and the 0.45 m/s hand of issue 42.)"""
    folder = tmp_path / "assets"
    shutil.copytree(kabuto_assets.folder(), folder)
    setups = folder / "setups.toml"
    text = setups.read_text(encoding="utf-8")
    board = re.search(r"\[boards\.2\]\n(.*?)\n\n", text, re.S)
    assert board
    x = Materials.load().ring.radius - 0.008
    bare = (f"second_outset = 0.0\nwrestler = [[{x:.5f}, 0.0], [{-x:.5f}, 0.0]]\n"
            "large = []\nmedium = []\nsmall = []")
    setups.write_text(text.replace(board.group(1), bare), encoding="utf-8")
    monkeypatch.setenv("KABUTO_ASSETS", str(folder))


def _one_turn() -> list:
    return opening_specs([w.key for w in load_wrestlers()][:4], games=1, level="medium", turns=1)


def test_wrestlers_at_the_rim_of_a_bare_ring_fall_to_the_first_push_more_often_than_in_the_crowd(
        tmp_path, monkeypatch):
    """On the crowded starting board a wrestler stands in the middle, out of a first push's reach
    but for a few lines; at the rim of a bare ring a push from beside it knocks it out. Only the
    side that moved first has pushed after one turn, so it won every opening that is over."""
    crowd = play_openings(_one_turn(), workers=1)
    assert crowd.games == 6 and crowd.second_won == 0
    _bare_rim(tmp_path, monkeypatch)
    rim = play_openings(_one_turn(), workers=1)
    assert rim.games == 6 and rim.over > crowd.over
    assert rim.first_won == rim.over and rim.second_won == 0
    assert sum(rim.won_by.values()) == rim.over and rim.ended_on == {1: rim.over}
    firsts = {s.wrestlers[s.first_player] for s in _one_turn()}
    assert set(rim.won_by) <= firsts                  # only a side that pushed can have won


def test_the_tally_names_who_won_each_opening_and_on_which_turn():
    """Each wrestler's wins and the turns the openings ended on come from the games themselves:
    a game stopped at the turn limit is not over, a draw is over but nobody's win."""
    from kabuto.lab.match import GameRecord
    from kabuto.lab.openings import tally

    specs = opening_specs(["mike", "hank"], games=4, level="easy", turns=3)
    records = [GameRecord(specs[0], specs[0].first_player, "knockout", 1, 0, {}),
               GameRecord(specs[1], 1 - specs[1].first_player, "knockout", 2, 0, {}),
               GameRecord(specs[2], None, "max_turns", 3, 0, {}),
               GameRecord(specs[3], None, "draw", 3, 0, {})]
    got = tally(records, 3)
    assert (got.games, got.over, got.first_won, got.second_won) == (4, 3, 1, 1)
    first_winner = specs[0].wrestlers[specs[0].first_player]
    second_winner = specs[1].wrestlers[1 - specs[1].first_player]
    assert got.won_by == dict(Counter([first_winner, second_winner]))
    assert got.ended_on == {1: 1, 2: 1, 3: 1}
    assert got.to_json()["ended_on_turn"] == {"1": 1, "2": 1, "3": 1}


def test_the_tool_prints_one_line_of_counts_and_refuses_nonsense(capsys):
    tool = load_tool("openings")
    assert tool.main(["--games", "1", "--turns", "1", "--level", "beginner", "--workers", "1",
                      "--no-progress"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["games"] == 28 and line["turns"] == 1 and line["second_won"] == 0
    assert line["over"] == line["first_won"] and 0.0 <= line["over_ci95"][0] <= line["over_share"]
    assert sum(line["won_by"].values()) == line["over"] and set(line["ended_on_turn"]) <= {"1"}
    for bad in (["--games", "0"], ["--level", "grandmaster"]):
        try:
            tool.main(bad)
        except SystemExit as e:
            assert e.code == 2
        else:
            raise AssertionError(f"{bad} was accepted")
