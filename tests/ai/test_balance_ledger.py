"""The balance report's ledger (``balance-games.jsonl``): a report goes on from it on another
machine, with no replay kept, and ends with exactly the report of one uninterrupted run; a line of
other code or data, a line cut short or a damaged file never changes a figure silently."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from kabuto.cli.balance import main as balance_main
from kabuto.lab import balance as bal
from kabuto.lab import fingerprint as fp
from kabuto.lab import ledger

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
    played = sorted(p.name for p in (tmp_path / "fresh-games").glob("game-*.result.json"))
    assert len(played) == 4  # the odd lines' games, and only those
    assert (docs / "balance.json").read_bytes() == (whole / "balance.json").read_bytes()
    assert sorted(lines(docs)) == sorted(lines(whole))


def test_a_line_cut_short_by_a_crash_is_played_again(whole, tmp_path):
    docs = another_machine(whole, tmp_path)
    rows = lines(whole)
    (docs / ledger.NAME).write_text("".join(f"{r}\n" for r in rows[:-1]) + rows[-1][:40], encoding="utf-8")
    assert resume(docs, tmp_path) == 0
    assert len(list((tmp_path / "fresh-games").glob("game-*.result.json"))) == 1
    assert (docs / "balance.json").read_bytes() == (whole / "balance.json").read_bytes()
    assert sorted(lines(docs)) == sorted(lines(whole))


def test_games_of_other_code_or_data_are_played_again(whole, tmp_path, capsys):
    def older(rows):
        return [json.dumps({**json.loads(r), "code": "0" * 16}) if i < 3 else r for i, r in enumerate(rows)]

    docs = another_machine(whole, tmp_path, keep=older)
    assert resume(docs, tmp_path) == 0
    assert "3 games" in capsys.readouterr().err
    assert len(list((tmp_path / "fresh-games").glob("game-*.result.json"))) == 3
    assert (docs / "balance.json").read_bytes() == (whole / "balance.json").read_bytes()


def test_games_kept_in_the_folder_by_other_code_are_played_again_not_relabelled(whole, tmp_path, capsys):
    # An earlier design's report stopped part way: its ledger lines and its games' folder both
    # hold games 0-2 (the folder's result files name the old fingerprint, or none, as files from
    # before the fingerprint was kept there). Resumed under this code, they are played again: the
    # folder's copies must not slip back into the ledger under today's fingerprint.
    def older(rows):
        return [json.dumps({**json.loads(r), "code": "0" * 16}) if i < 3 else r for i, r in enumerate(rows)]

    docs = another_machine(whole, tmp_path, keep=older)
    games = tmp_path / "fresh-games"
    shutil.copytree(whole.parent / "games", games)
    stale = [json.loads(r)["spec"]["index"] for r in lines(whole)[:3]]
    for k, index in enumerate(stale):
        path = games / f"game-{index:04d}.result.json"
        result = json.loads(path.read_text(encoding="utf-8"))
        assert result["code"] == fp.fingerprint(len(result["spec"]["wrestlers"]))
        result["turns"] += 1  # what another design's game would say (the report must not read it)
        if k == 0:
            del result["code"]
        else:
            result["code"] = "0" * 16
        path.write_text(json.dumps(result), encoding="utf-8")
    before = {p.name: p.stat().st_mtime_ns for p in games.glob("game-*.result.json")}
    assert resume(docs, tmp_path) == 0
    err = capsys.readouterr().err
    assert f"3 games in {docs / ledger.NAME}" in err and f"3 games in {games}" in err
    assert "resuming: 6 of 9" in err
    replaced = {p.name for p in games.glob("game-*.result.json") if p.stat().st_mtime_ns != before[p.name]}
    assert replaced == {f"game-{i:04d}.result.json" for i in stale}
    assert (docs / "balance.json").read_bytes() == (whole / "balance.json").read_bytes()
    assert sorted(lines(docs)) == sorted(lines(whole))


@pytest.mark.parametrize("damage", ["not json", "[1, 2]", '{"code": "%s", "spec": {}}'])
def test_a_damaged_line_is_one_clear_error_and_nothing_changes(whole, tmp_path, capsys, damage):
    damage = damage.replace("%s", fp.fingerprint(2))
    docs = another_machine(whole, tmp_path, keep=lambda rows: rows[:2] + [damage] + rows[2:])
    before = (docs / ledger.NAME).read_bytes()
    assert resume(docs, tmp_path) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 3" in err[0] and ledger.NAME in err[0], err
    assert (docs / ledger.NAME).read_bytes() == before
    assert sorted(p.name for p in docs.iterdir()) == [ledger.NAME]


def test_a_fresh_run_will_not_throw_away_a_ledger_of_this_report(whole, tmp_path, capsys):
    docs = another_machine(whole, tmp_path)
    before = (docs / ledger.NAME).read_bytes()
    code = balance_main([*ARGS, "--out", str(docs), "--games-dir", str(tmp_path / "g")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--resume" in err[0]
    assert (docs / ledger.NAME).read_bytes() == before


def test_a_ledger_of_another_report_is_refused(whole, tmp_path, capsys):
    docs = another_machine(whole, tmp_path)
    other = [a if a != "3" else "4" for a in ARGS]  # another seed: the same indices, other games
    code = balance_main([*other, "--out", str(docs), "--games-dir", str(tmp_path / "g"), "--resume"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "another report" in err[0]


def test_prose_does_not_change_the_fingerprint_but_code_does():
    base = "def push(speed):\n    return min(speed, 0.5)\n"
    assert fp.source_digest(base) == fp.source_digest(
        '"""Pushes."""\n\ndef push(speed):  # the hand\'s limit\n    """Why."""\n    return min(speed, 0.5)\n')
    assert fp.source_digest(base) != fp.source_digest(base.replace("0.5", "0.6"))


@pytest.fixture
def assets_copy(tmp_path, monkeypatch):
    import kabuto_assets

    copy = tmp_path / "assets"
    shutil.copytree(kabuto_assets.folder(), copy)
    monkeypatch.setenv("KABUTO_ASSETS", str(copy))
    return copy


def test_the_fingerprint_follows_the_games_data_not_its_comments(assets_copy):
    same = fp.fingerprint.__wrapped__(2)
    text = (assets_copy / "materials.toml").read_text(encoding="utf-8")
    (assets_copy / "materials.toml").write_text(text + "\n# a comment is not data\n", encoding="utf-8")
    (assets_copy / "help" / "extra.md").write_text("Help never decides a game.\n", encoding="utf-8")
    assert fp.fingerprint.__wrapped__(2) == same
    (assets_copy / "materials.toml").write_text(text.replace("max_speed = 0.5", "max_speed = 0.6"),
                                                encoding="utf-8")
    assert fp.fingerprint.__wrapped__(2) != same


def test_a_board_change_makes_only_that_boards_games_stale(assets_copy):
    before = {n: fp.fingerprint.__wrapped__(n) for n in (2, 3, 4)}
    text = (assets_copy / "setups.toml").read_text(encoding="utf-8")
    start = text.index("[boards.3]")
    spot = re.compile(r"wrestler = \[\[(-?[0-9.]+), (-?[0-9.]+)\]")
    x, y = spot.search(text, start).groups()
    moved = text[:start] + spot.sub(f"wrestler = [[{x}, {float(y) * 0.97:.5f}]", text[start:], count=1)  # a 3P wrestler 1 mm in
    assert moved != text
    (assets_copy / "setups.toml").write_text(moved, encoding="utf-8")
    after = {n: fp.fingerprint.__wrapped__(n) for n in (2, 3, 4)}
    assert after[3] != before[3] and after[2] == before[2] and after[4] == before[4]


def test_the_ais_scoring_makes_the_report_stale_but_not_the_early_wins_search(assets_copy):
    """The search (tools/early_wins.py) tries every move target but never asks the AI's score:
    a new scoring weight replays the report's games and leaves the search's units standing; a
    change to the targets it tries ([search] in ai.toml) or to the board makes them stale too."""
    def both() -> tuple[str, str]:
        return fp.fingerprint.__wrapped__(2), fp.search_fingerprint.__wrapped__(2)

    games, search = both()
    ai = assets_copy / "ai.toml"
    text = ai.read_text(encoding="utf-8")
    ai.write_text(text.replace("own_edge = 45.0", "own_edge = 50.0"), encoding="utf-8")
    assert both()[0] != games and both()[1] == search
    ai.write_text(text.replace("max_target_combos = 16", "max_target_combos = 12"), encoding="utf-8")
    assert both()[0] != games and both()[1] != search
    ai.write_text(text, encoding="utf-8")
    setups = (assets_copy / "setups.toml").read_text(encoding="utf-8")
    (assets_copy / "setups.toml").write_text(setups.replace("second_outset = 0.004", "second_outset = 0.003"),
                                             encoding="utf-8")
    assert both()[0] != games and both()[1] != search


def test_the_fingerprint_follows_behaviour_not_source(tmp_path, monkeypatch):
    """A refactor that changes no decision keeps the report's games; a change to how one game is
    played replays them; a change to how a tournament or a report is run, resumed or written (their
    command lines, tables, charts) keeps them."""
    from kabuto.lab import match
    from kabuto.lab import tournament as tm

    same = fp.fingerprint.__wrapped__(2)
    for module in (tm, bal, ledger, match):
        edited = tmp_path / Path(module.__file__).name
        edited.write_text(Path(module.__file__).read_text(encoding="utf-8") + "\nX = 1\n",
                          encoding="utf-8")
        monkeypatch.setattr(module, "__file__", str(edited))
    # The AI seeds written another way, to the same numbers: a refactor.
    monkeypatch.setattr(match, "ai_seed", lambda spec, seat: int(f"{spec.seed}{seat}"))
    assert fp.fingerprint.__wrapped__(2) == same
    # Another seed for one seat's AI: other decisions.
    monkeypatch.setattr(match, "ai_seed", lambda spec, seat: spec.seed * 10 + seat + 1)
    assert fp.fingerprint.__wrapped__(2) != same


def test_the_report_so_far_counts_only_the_games_played_and_says_so(whole, tmp_path):
    docs = another_machine(whole, tmp_path, keep=lambda rows: rows[:5])
    played = [json.loads(r)["spec"]["index"] for r in lines(docs)]
    assert balance_main([*ARGS, "--out", str(docs), "--games-dir", str(tmp_path / "g"), "--so-far"]) == 0
    assert not list((tmp_path / "g").glob("game-*"))  # nothing was played
    rep = json.loads((docs / "balance.json").read_text())
    two = sum(1 for i in played if i < 6)
    assert rep["games"] == two and rep["settings"]["played"] == {"games": 5, "of": 9}
    assert "5 of its 9 games played so far" in (docs / "balance.md").read_text()
    assert balance_main([*ARGS, "--out", str(docs), "--games-dir", str(tmp_path / "g"), "--resume"]) == 0
    assert (docs / "balance.json").read_bytes() == (whole / "balance.json").read_bytes()


def test_games_are_played_round_by_round_so_a_part_covers_every_pair():
    specs = bal.schedule(["mike", "hank", "gus"], 4, 2, "hard", 0, 40)
    order = bal.play_order(specs, 4, 2)
    assert sorted(s.index for s in order) == [s.index for s in specs]
    first_round = order[:6 + 3]
    assert {s.wrestlers[s.first_player] for s in first_round[:6]} == {"mike", "hank", "gus"}
    assert len({(s.wrestlers, s.first_player) for s in first_round[:6]}) == 6  # every ordered pair
    assert {bal.format_of(s) for s in first_round[6:]} == {name for name, _, _ in bal.SAMPLES}
