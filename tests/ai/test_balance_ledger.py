"""The balance report's ledger (``balance-games.jsonl``): a report goes on from it on another
machine, with no replay kept, and ends with exactly the report of one uninterrupted run; a line of
other code or data, a line cut short or a damaged file never changes a figure silently."""
from __future__ import annotations

import json
import shutil

import pytest

from kabuto.cli.balance import main as balance_main
from kabuto.lab import fingerprint as fp
from kabuto.lab import ledger
from kabuto.lab.tournament import GAMES

ARGS = ["--games", "1", "--wrestlers", "mike,hank,gus", "--sample-games", "1", "--level", "easy",
        "--max-turns", "6", "--seed", "3", "--no-progress", "--no-estimate", "--workers", "1"]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """One uninterrupted run: its report and its ledger."""
    root = tmp_path_factory.mktemp("whole")
    assert balance_main([*ARGS, "--out", str(root / "docs"), "--games-dir", str(root / "games")]) == 0
    return root / "docs"


def lines(docs):
    return (docs / ledger.NAME).read_text(encoding="utf-8").splitlines()


def another_machine(whole, tmp_path, keep=None):
    """The report's folder as a fresh checkout has it: the ledger (optionally some of its lines),
    no games' folder."""
    docs = tmp_path / "docs"
    docs.mkdir()
    kept = lines(whole) if keep is None else keep(lines(whole))
    (docs / ledger.NAME).write_text("".join(f"{line}\n" for line in kept), encoding="utf-8")
    return docs


def resume(docs, tmp_path):
    return balance_main([*ARGS, "--out", str(docs), "--games-dir", str(tmp_path / "fresh-games"), "--resume"])


def test_every_finished_game_has_one_short_line(whole):
    rows = [json.loads(line) for line in lines(whole)]
    assert sorted(r["spec"]["index"] for r in rows) == list(range(9))  # 6 two-player games, 3 samples
    assert all(r["code"] == fp.fingerprint(len(r["spec"]["wrestlers"])) for r in rows)
    assert max(len(line) for line in lines(whole)) < 4000  # a replay and its plans are ~60 kB


def test_the_ledger_alone_remakes_the_report_without_playing(whole, tmp_path, capsys):
    docs = another_machine(whole, tmp_path)
    assert resume(docs, tmp_path) == 0
    assert "resuming: 9 of 9" in capsys.readouterr().err
    assert not list((tmp_path / "fresh-games").glob("game-*"))  # nothing was played
    for name in ("balance.json", "balance.md"):
        assert (docs / name).read_bytes() == (whole / name).read_bytes()


def test_a_report_goes_on_from_part_of_the_ledger(whole, tmp_path):
    docs = another_machine(whole, tmp_path, keep=lambda rows: rows[::2])
    assert resume(docs, tmp_path) == 0
    played = sorted(p.name for p in (tmp_path / "fresh-games").glob("game-*.replay.json"))
    assert len(played) == 4  # the odd lines' games, and only those
    assert (docs / "balance.json").read_bytes() == (whole / "balance.json").read_bytes()
    assert sorted(lines(docs)) == sorted(lines(whole))


def test_a_line_cut_short_by_a_crash_is_played_again(whole, tmp_path):
    docs = another_machine(whole, tmp_path)
    rows = lines(whole)
    (docs / ledger.NAME).write_text("".join(f"{r}\n" for r in rows[:-1]) + rows[-1][:40], encoding="utf-8")
    assert resume(docs, tmp_path) == 0
    assert len(list((tmp_path / "fresh-games").glob("game-*.replay.json"))) == 1
    assert (docs / "balance.json").read_bytes() == (whole / "balance.json").read_bytes()
    assert sorted(lines(docs)) == sorted(lines(whole))


def test_games_of_other_code_or_data_are_played_again(whole, tmp_path, capsys):
    def older(rows):
        return [json.dumps({**json.loads(r), "code": "0" * 16}) if i < 3 else r for i, r in enumerate(rows)]

    docs = another_machine(whole, tmp_path, keep=older)
    assert resume(docs, tmp_path) == 0
    assert "3 games" in capsys.readouterr().err
    assert len(list((tmp_path / "fresh-games").glob("game-*.replay.json"))) == 3
    assert (docs / "balance.json").read_bytes() == (whole / "balance.json").read_bytes()


def test_games_kept_in_the_folder_by_other_code_are_played_again_not_relabelled(whole, tmp_path, capsys):
    # An earlier design's report stopped part way: its ledger lines and its games' folder both
    # hold games 0-2 under the old fingerprint. Resumed under this code, they are played again: the
    # folder's copies must not slip back into the ledger under today's fingerprint.
    def older(rows):
        return [json.dumps({**json.loads(r), "code": "0" * 16}) if i < 3 else r for i, r in enumerate(rows)]

    docs = another_machine(whole, tmp_path, keep=older)
    games = tmp_path / "fresh-games"
    shutil.copytree(whole.parent / "games", games)
    stale = [json.loads(r)["spec"]["index"] for r in lines(whole)[:3]]
    kept = (games / GAMES).read_text(encoding="utf-8").splitlines()
    rows = []
    for row in kept:
        d = json.loads(row)
        if d["spec"]["index"] in stale:
            assert d["code"] == fp.fingerprint(len(d["spec"]["wrestlers"]))
            d["turns"] += 1  # what another design's game would say (the report must not read it)
            d["code"] = "0" * 16
        rows.append(json.dumps(d))
    (games / GAMES).write_text("".join(f"{r}\n" for r in rows), encoding="utf-8")
    before = {p.name: p.stat().st_mtime_ns for p in games.glob("game-*.replay.json")}
    assert resume(docs, tmp_path) == 0
    err = capsys.readouterr().err
    assert f"3 games in {docs / ledger.NAME}" in err and f"3 games in {games}" in err
    assert "resuming: 6 of 9" in err
    replaced = {p.name for p in games.glob("game-*.replay.json") if p.stat().st_mtime_ns != before[p.name]}
    assert replaced == {f"game-{i:04d}.replay.json" for i in stale}
    assert (docs / "balance.json").read_bytes() == (whole / "balance.json").read_bytes()
    assert sorted(lines(docs)) == sorted(lines(whole))
