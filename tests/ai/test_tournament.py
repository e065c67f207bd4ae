"""``kabuto tournament``: the win-rate matrix, its files, its replays, and results that do not
depend on the number of workers or the backend."""
from __future__ import annotations

import csv
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kabuto.cli.tournament import main
from kabuto.lab.match import GameRecord, GameSpec
from kabuto.lab.stats import wilson
from kabuto.lab.tournament import pair_stats, schedule
from kabuto.replay import format as rp
from kabuto.rules.game import Game

ARGS = ["--games", "1", "--wrestlers", "mike,hank,gus", "--level", "easy", "--max-turns", "4",
        "--seed", "3", "--no-progress"]


def run(tmp_path, name, *extra):
    out = tmp_path / name
    assert main([*ARGS, "--out", str(out), *extra]) == 0
    return out


def files(out):
    """Every output file's bytes (the summary without the backend's name, the only setting that
    may differ between two runs that must agree)."""
    got = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    summary = json.loads(got.pop("summary.json"))
    summary["settings"].pop("backend")
    got["summary.json"] = summary
    return got


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory):
    return run(tmp_path_factory.mktemp("t"), "k1", "--workers", "1")


def test_results_do_not_depend_on_the_number_of_workers(one_worker, tmp_path):
    two = run(tmp_path, "k2", "--workers", "2")
    assert files(two) == files(one_worker)


def test_every_pair_meets_and_the_matrix_adds_up(one_worker):
    rows = list(csv.DictReader((one_worker / "pairs.csv").open()))
    pairs = {(r["wrestler"], r["opponent"]): r for r in rows}
    assert set(pairs) == {(a, b) for a in ("mike", "hank", "gus") for b in ("mike", "hank", "gus") if a != b}
    for (a, b), r in pairs.items():
        back = pairs[(b, a)]
        assert int(r["wins"]) == int(back["losses"]) and int(r["draws"]) == int(back["draws"])
        assert math.isclose(float(r["win_rate"]) + float(back["win_rate"]), 1.0)
        assert float(r["ci95_low"]) <= float(r["win_rate"]) <= float(r["ci95_high"])
    games = list(csv.DictReader((one_worker / "games.csv").open()))
    assert len(games) == 3


def test_every_game_is_kept_as_a_replay_that_verifies(one_worker):
    replays = sorted((one_worker / "replays").glob("game-*.replay.json"))
    assert len(replays) == 3
    for path in replays:
        replay = rp.load(path)
        result = rp.verify(replay)
        assert result.ok, path
        # It names the board it started on, so a later board change refuses it (not re-simulates).
        assert replay.meta["start_hash"] == rp.start_hash(Game.from_setup(replay.setup))
    plans = json.loads((one_worker / "replays" / "game-0000.ai.json").read_text())["plans"]
    replay = json.loads(replays[0].read_text())
    pushes = [a for a in replay["actions"] if a["type"] == "push"]
    executed = [s["push"] for p in plans for s in p["steps"] if "push" in s]
    assert [(a["entry_deg"], a["heading_deg"], a["speed"]) for a in pushes] == \
        [(p["entry_deg"], p["heading_deg"], p["speed"]) for p in executed]


def test_the_heat_map_is_a_png(one_worker):
    assert (one_worker / "heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.xdist_group("ray")  # one Ray at a time: "auto" would find another test's instance
def test_ray_backend_gives_the_same_results(one_worker, tmp_path):
    pytest.importorskip("ray")
    out = run(tmp_path, "ray", "--workers", "2", "--backend", "ray")
    assert files(out) == files(one_worker)


@pytest.mark.parametrize("args, message", [
    (["--wrestlers", "mike,nobody"], "unknown wrestler 'nobody'"),
    (["--wrestlers", "mike"], "at least two"),
    (["--players", "3"], "only 2-player"),
    (["--games", "0"], "--games"),
    (["--workers", "0"], "--workers"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, capsys, tmp_path):
    assert main([*args, "--out", str(tmp_path / "x"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_a_level_that_does_not_exist_is_a_usage_error(capsys):
    assert main(["--level", "godlike"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("kabuto tournament: ") and "godlike" in line


def test_wilson_interval():
    # 0 of n: the upper bound is z^2 / (n + z^2).
    z2 = 1.959963984540054 ** 2
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and math.isclose(hi, z2 / (10 + z2))
    lo, hi = wilson(5, 10)
    assert math.isclose(lo + hi, 1.0) and lo < 0.5 < hi
    assert wilson(50, 100)[1] - wilson(50, 100)[0] < hi - lo    # more games, narrower


def test_pair_stats_count_wins_losses_and_draws():
    def rec(i, ws, winner):
        return GameRecord(GameSpec(i, ws, 0, ("hard", "hard"), i, 10), winner, "", 1, 0, {})

    records = [rec(0, ("mike", "hank"), 0), rec(1, ("hank", "mike"), 0), rec(2, ("mike", "hank"), 0),
               rec(3, ("hank", "mike"), None)]
    s = pair_stats(["mike", "hank"], records)
    assert (s[("mike", "hank")].wins, s[("mike", "hank")].losses, s[("mike", "hank")].draws) == (2, 1, 1)
    assert s[("hank", "mike")].rate == pytest.approx(1.5 / 4)


def test_schedule_alternates_seats_and_first_player():
    specs = schedule(["mike", "hank"], 4, "easy", 0, 10)
    assert [s.wrestlers[0] for s in specs] == ["mike", "hank", "mike", "hank"]
    starters = [s.wrestlers[s.first_player] for s in specs]
    assert starters.count("mike") == starters.count("hank") == 2
    assert len({s.seed for s in specs}) == 4


def test_one_game_per_pair_lets_every_wrestler_move_first_about_as_often():
    keys = ["mike", "hank", "gus", "bea", "rita", "annie", "jade", "dora"]
    specs = schedule(keys, 1, "easy", 0, 10)
    assert len(specs) == 28
    starts = [s.wrestlers[s.first_player] for s in specs]
    assert max(starts.count(k) for k in keys) - min(starts.count(k) for k in keys) <= 4
    assert {s.first_player for s in specs} == {0, 1}




@given(n=st.integers(1, 500), data=st.data())
def test_wilson_interval_holds_the_observed_rate(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_resume_plays_again_a_game_that_other_code_played(one_worker, tmp_path, capsys):
    # A run stopped, the code or data changed (its fingerprint is in each ledger line), then
    # --resume: the old game is played again, the others kept; the files end as a fresh run's.
    import shutil

    out = tmp_path / "k"
    shutil.copytree(one_worker, out)
    path = out / "replays" / "games.jsonl"
    rows = [json.loads(row) for row in path.read_text(encoding="utf-8").splitlines()]
    rows = [{**r, "code": "0" * 16, "winner": None} if r["spec"]["index"] == 1 else r for r in rows]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    capsys.readouterr()
    assert main([*ARGS, "--out", str(out), "--workers", "1", "--resume"]) == 0
    captured = capsys.readouterr()
    assert "1 game in" in captured.err and "was played by other code" in captured.err
    assert "resuming: 2 of 3" in captured.out
    assert files(out) == files(one_worker)


def test_resume_refuses_a_folder_an_older_version_kept(one_worker, tmp_path, capsys):
    # Older versions kept a result file a game instead of the folder's ledger: resuming such a
    # folder says so in one line instead of playing every game again over its files.
    import shutil

    out = tmp_path / "old"
    shutil.copytree(one_worker, out)
    (out / "replays" / "games.jsonl").unlink()
    (out / "replays" / "game-0000.result.json").write_text("{}", encoding="utf-8")
    before = sorted(p.name for p in (out / "replays").iterdir())
    capsys.readouterr()
    assert main([*ARGS, "--out", str(out), "--workers", "1", "--resume"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "older version" in err[0] and "Traceback" not in err[0]
    assert sorted(p.name for p in (out / "replays").iterdir()) == before
