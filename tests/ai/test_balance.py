"""``kabuto balance``: the schedule is a full round robin in both seat orders plus samples, the
figures count what happened in the games, and the report is written, resumable and complete."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from kabuto.cli.balance import main as balance_main
from kabuto.cli.tournament import main as tournament_main
from kabuto.lab import balance as bal
from kabuto.lab.match import GameRecord, GameSpec
from kabuto.lab.stats import wilson
from kabuto.lab.tournament import duration_text, expected_seconds
from kabuto.rules import outcomes

ARGS = ["--games", "1", "--wrestlers", "mike,hank,gus", "--sample-games", "1", "--level", "easy",
        "--max-turns", "6", "--seed", "2", "--no-progress", "--no-estimate"]


def record(wrestlers, first, winners, reason, actions, fallen=(), turns=5, junior=False):
    """A finished game as the tournament keeps it, with only what the report reads."""
    spec = GameSpec(0, tuple(wrestlers), first, ("hard",) * len(wrestlers), 1, 40, junior)
    result = None if reason == "max_turns" else {
        "winner": 0 if winners else None, "seats": list(winners), "reason": reason, "text": "",
        "actor": 0, "fallen": list(fallen)}
    return GameRecord(spec, winners[0] if winners else None, reason, turns, 0,
                      {"actions": actions}, [], result)


PUSH = {"type": "push", "seat": 0}
END = {"type": "end_turn", "seat": 0}


def grip(seat):
    return {"type": "move", "seat": seat, "name": "Vice Grip"}


# ----- the schedule -------------------------------------------------------------------------------
def test_every_wrestler_moves_first_against_every_other_and_the_board_side_alternates():
    specs = bal.schedule(["mike", "hank", "gus"], 4, 0, "hard", 0, 40)
    assert len(specs) == 6 * 4
    firsts = Counter((s.wrestlers[s.first_player], s.wrestlers[1 - s.first_player]) for s in specs)
    assert firsts == {(a, b): 4 for a in ("mike", "hank", "gus") for b in ("mike", "hank", "gus") if a != b}
    for (a, b) in firsts:  # the first mover sits in seat 0 in half its games, seat 1 in the other half
        seats = Counter(s.first_player for s in specs if s.wrestlers[s.first_player] == a
                        and b in s.wrestlers)
        assert seats == {0: 2, 1: 2}
    assert len({s.seed for s in specs}) == len(specs)


def test_samples_play_three_four_players_and_junior_league_with_distinct_wrestlers():
    from kabuto.rules.junior import load_junior

    specs = bal.schedule(["mike", "hank"], 1, 3, "medium", 7, 40)
    formats = Counter(bal.format_of(s) for s in specs)
    assert formats == {"2 players": 2, "3 players": 3, "4 players (2 v 2)": 3, "Junior League": 3}
    juniors = {c.key for c in load_junior()}
    for s in specs:
        assert len(set(s.wrestlers)) == s.players
        assert s.levels == ("medium",) * s.players
        if s.junior:
            assert set(s.wrestlers) <= juniors
    # A seed decides the samples: the same seed, the same games.
    assert bal.schedule(["mike", "hank"], 1, 3, "medium", 7, 40) == specs
    assert bal.schedule(["mike", "hank"], 1, 3, "medium", 8, 40) != specs


# ----- what happened ------------------------------------------------------------------------------
@pytest.mark.parametrize("reason, actions, fallen, expected", [
    (outcomes.KNOCKOUT, [PUSH], (1,), "push_knockout"),
    (outcomes.KNOCKOUT, [PUSH, grip(0)], (1,), "move_knockout"),
    (outcomes.KNOCKOUT, [grip(0), PUSH, END], (1,), "push_knockout"),
    (outcomes.OWN_KNOCKOUT, [PUSH], (0,), "own_knockout"),
    (outcomes.SUBMISSION, [PUSH, END], (), "submission"),
    (outcomes.LAST_STANDING, [PUSH, END], (), "elimination"),
    (outcomes.LAST_STANDING, [PUSH], (2,), "push_knockout"),
    (outcomes.DRAW, [PUSH], (1, 2), "draw"),
    ("max_turns", [PUSH, END], (), "turn_limit"),
])
def test_how_a_game_ended_is_read_from_its_last_action(reason, actions, fallen, expected):
    assert bal.ending(record(("mike", "hank"), 0, (0,), reason, actions, fallen)) == expected


def test_win_rates_first_player_and_moves_count_the_games():
    games = [
        record(("mike", "hank"), 0, (0,), outcomes.KNOCKOUT, [grip(0)], (1,)),      # Mike grips, wins
        record(("hank", "mike"), 1, (0,), outcomes.KNOCKOUT, [grip(1), PUSH], (1,)),  # grips, loses
        record(("mike", "hank"), 0, (1,), outcomes.SUBMISSION, [PUSH], (), turns=9),
        record(("hank", "mike"), 0, (), "max_turns", [PUSH], (), turns=40),           # half each
    ]
    fig = bal.figures(games)
    assert fig["games"] == 4
    mike, hank = fig["wrestler_win_rate"]["mike"], fig["wrestler_win_rate"]["hank"]
    assert (mike["win_rate"], hank["win_rate"]) == (1.5 / 4, 2.5 / 4)
    assert mike["games"] == hank["games"] == 4
    assert mike["low"] <= mike["win_rate"] <= mike["high"]
    # first players: won, lost (Mike moved first from seat 1 and lost), lost, drew
    assert fig["first_player_win_rate"]["win_rate"] == pytest.approx(1.5 / 4)
    assert fig["end_reasons"] == {"push_knockout": 1, "move_knockout": 1, "submission": 1, "turn_limit": 1}
    assert fig["push_knockout_share"] == 0.25
    assert fig["median_turns"] == 7
    vice = fig["moves"]["Vice Grip"]
    assert (vice["wrestler"], vice["games"], vice["games_used"], vice["uses"]) == ("mike", 4, 2, 2)
    assert vice["use_rate"] == 0.5 and vice["win_rate_when_used"] == 0.5
    horn = fig["moves"]["Horn Toss"]  # Hank's: never used
    assert (horn["games"], horn["games_used"], horn["win_rate_when_used"]) == (4, 0, None)


def test_a_move_that_wins_in_the_turn_it_is_used_is_counted_as_a_finisher():
    mike_push, hank_push = PUSH, {"type": "push", "seat": 1}
    games = [
        # Mike grips in his last turn and his push then wins: a finisher's win
        record(("mike", "hank"), 0, (0,), outcomes.KNOCKOUT, [mike_push, hank_push, grip(0), mike_push], (1,)),
        # Mike grips early and wins two turns later: a win, not in the move's turn
        record(("mike", "hank"), 0, (0,), outcomes.KNOCKOUT, [grip(0), mike_push, hank_push, mike_push], (1,)),
        # Mike grips in the last turn and knocks out his own wrestler: no win at all
        record(("mike", "hank"), 0, (1,), outcomes.OWN_KNOCKOUT, [mike_push, hank_push, grip(0)], (0,)),
    ]
    vice = bal.figures(games)["moves"]["Vice Grip"]
    assert (vice["games_used"], vice["won_in_its_turn"]) == (3, 1)
    assert vice["win_rate_when_used"] == pytest.approx(2 / 3)


def test_the_first_and_second_players_wins_are_told_apart_with_the_openings_knock_outs():
    games = [
        record(("mike", "hank"), 0, (0,), outcomes.KNOCKOUT, [PUSH], (1,), turns=3),   # first, early
        record(("mike", "hank"), 1, (0,), outcomes.KNOCKOUT, [PUSH], (1,), turns=4),   # second, early
        record(("hank", "mike"), 0, (1,), outcomes.KNOCKOUT, [grip(1)], (0,), turns=12),  # second, late
        record(("hank", "mike"), 1, (0,), outcomes.SUBMISSION, [PUSH, END], (), turns=30),  # second
        record(("mike", "hank"), 0, (), "max_turns", [PUSH], (), turns=120),           # nobody's
    ]
    mover = bal.figures(games)["by_mover"]
    assert mover["wins"] == {"first": {"push_knockout": 1},
                             "second": {"push_knockout": 1, "move_knockout": 1, "submission": 1}}
    assert mover["opening_knockouts"] == {"first": 1, "second": 1}
    md = bal._mover_table(mover)
    assert "| submission (no pieces left to push) | 0 | 1 |" in md
    assert f"| of those knock-outs, within the first {bal.OPENING_TURNS} turns | 1 | 1 |" in md


def test_targets_are_met_or_not_by_the_figures():
    even = {"win_rate": 0.5, "low": 0.47, "high": 0.53, "games": 1000}
    fig = {"games": 1200, "wrestler_win_rate": {"a": even, "b": even}, "first_player_win_rate": even,
           "push_knockout_share": 0.65, "median_turns": 9, "moves": {}}
    assert all(t.met for t in bal.targets(fig))
    lopsided = {**fig, "wrestler_win_rate": {"a": {**even, "win_rate": 0.6}, "b": even},
                "push_knockout_share": 0.3, "median_turns": 5,
                "moves": {"Vice Grip": {"games_used": 10, "win_rate_when_used": 0.9}}}
    failed = {t.key for t in bal.targets(lopsided) if not t.met}
    assert failed == {"wrestlers", "push_knockout", "median_turns", "moves"}


def test_the_page_gives_the_90th_percentile_and_the_games_stopped_at_the_cap():
    """Issue 42, point 4: the page says how long 9 games in 10 last, and how many games the turn
    cap stopped with the upper bound of that share (the target is at most 2%)."""
    def game(i: int, turns: int, reason: str) -> GameRecord:
        return GameRecord(GameSpec(i, ("mike", "gus") if i % 2 else ("gus", "mike"), 0, ("hard", "hard"),
                                   i, 120), None if reason == "max_turns" else 0, reason, turns, 0, {},
                          [], None)

    records = [game(i, 10 + i, "knockout") for i in range(18)] + [game(18, 120, "max_turns"),
                                                                   game(19, 120, "max_turns")]
    settings = {"command": "kabuto balance", "level": "hard", "games": 1, "seed": 0, "max_turns": 120}
    md = bal.markdown(bal.report(records, settings), [])
    _, high = wilson(2, 20)
    assert "9 games in 10 last at most 27 turns" in md          # the 18th of 20 lengths, in order
    assert f"2 of 20 games stopped at the 120-turn cap (10.0%; 95% interval up to {high:.1%})" in md
    none = bal.markdown(bal.report(records[:18], settings), [])
    assert f"0 of 18 games stopped at the 120-turn cap (0.0%; 95% interval up to {wilson(0, 18)[1]:.1%})" in none


# ----- the command --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("balance")
    assert balance_main([*ARGS, "--workers", "1", "--out", str(root / "docs"),
                     "--games-dir", str(root / "games")]) == 0
    return root


def test_the_report_has_the_issues_keys_and_counts_every_game(report):
    rep = json.loads((report / "docs" / "balance.json").read_text())
    for key in ("games", "wrestler_win_rate", "first_player_win_rate", "push_knockout_share",
                "end_reasons", "median_turns", "moves"):
        assert key in rep
    assert rep["games"] == 6 and sum(rep["end_reasons"].values()) == 6
    assert set(rep["wrestler_win_rate"]) == {"mike", "hank", "gus"}
    assert sum(r["win_rate"] * r["games"] for r in rep["wrestler_win_rate"].values()) == pytest.approx(6)
    assert {name: s["games"] for name, s in rep["samples"].items()} == \
        {"3 players": 1, "4 players (2 v 2)": 1, "Junior League": 1}
    md = (report / "docs" / "balance.md").read_text()
    tables = "\n".join(line for line in md.splitlines() if line.startswith("|"))
    assert "Mighty Jaw Mike" in tables and "mike" not in tables.lower().replace("jaw mike", "")
    for png in ("balance-win-rates.png", "balance-pairs.png", "balance-endings.png"):
        assert (report / "docs" / png).read_bytes()[:4] == b"\x89PNG"
    assert len(list((report / "games").glob("game-*.replay.json"))) == 9
    assert len((report / "games" / "games.jsonl").read_text().splitlines()) == 9


def test_resume_plays_only_the_missing_games_and_gives_the_same_report(report, tmp_path):
    import shutil

    games = tmp_path / "games"
    shutil.copytree(report / "games", games)
    kept = (games / "games.jsonl").read_text().splitlines()
    (games / "games.jsonl").write_text("".join(f"{row}\n" for row in kept
                                              if json.loads(row)["spec"]["index"] not in (3, 7)))
    assert balance_main([*ARGS, "--workers", "2", "--out", str(tmp_path / "docs"), "--games-dir", str(games),
                     "--resume"]) == 0
    assert (tmp_path / "docs" / "balance.json").read_bytes() == (report / "docs" / "balance.json").read_bytes()


def test_a_folder_of_earlier_games_needs_resume(report, tmp_path, capsys):
    code = balance_main([*ARGS, "--out", str(tmp_path / "docs"), "--games-dir", str(report / "games")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--resume" in err[0]
    assert not (tmp_path / "docs").exists()


# ----- how long it will take ----------------------------------------------------------------------
def test_the_expected_time_adds_up_the_games_over_the_workers():
    spec = GameSpec(0, ("mike", "hank"), 0, ("hard", "hard"), 1, 40)
    one = expected_seconds([spec], {"hard": 2.0}, 2)
    assert expected_seconds([spec] * 10, {"hard": 2.0}, 2) == pytest.approx(5 * one * 2 / 2)
    assert expected_seconds([spec] * 10, {"hard": 2.0}, 1) == pytest.approx(10 * one)
    assert expected_seconds([], {"hard": 2.0}, 2) == 0


@pytest.mark.parametrize("seconds, text", [(3, "about 5 s"), (42, "about 40 s"), (75, "about 1 min"),
                                           (600, "about 10 min"), (7800, "about 2 h 10 min"),
                                           (7200, "about 2 h")])
def test_durations_read_as_a_person_says_them(seconds, text):
    assert duration_text(seconds) == text


def test_a_tournament_says_how_long_it_expects_before_the_first_game(tmp_path, capsys):
    assert tournament_main(["--games", "1", "--wrestlers", "mike,hank", "--level", "easy", "--max-turns",
                            "2", "--workers", "1", "--no-progress", "--out", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    first = err.splitlines()[0]
    assert first.startswith("1 game at the easy level on 1 worker: expected about"), first
    assert "finished 1 of 1" in out


def test_a_resumed_report_expects_its_games_to_last_as_long_as_those_already_played():
    todo = [GameSpec(i, ("mike", "hank"), 0, ("hard", "hard"), i, 120) for i in range(10)]
    fresh = bal.expected_seconds(todo, [], {"hard": 2.0}, 2)
    # before any game, a report's typical hard game: about 3.5 times a tournament's guess
    assert fresh == pytest.approx(expected_seconds(todo, {"hard": 2.0}, 2) * bal.REPORT_TURNS
                                  / bal.tm.TYPICAL_TURNS)
    capped = [GameSpec(i, ("mike", "hank"), 0, ("hard", "hard"), i, 20) for i in range(10)]
    assert bal.expected_seconds(capped, [], {"hard": 2.0}, 2) == pytest.approx(fresh * 20 / bal.REPORT_TURNS)
    long_games = [record(("gus", "bea"), 0, (0,), outcomes.KNOCKOUT, [PUSH], turns=30)] * 3
    assert bal.expected_seconds(todo, long_games, {"hard": 2.0}, 2) == pytest.approx(
        fresh * 30 / bal.REPORT_TURNS)
    # a format's own games decide its length; another format's only when it has none
    three = record(("mike", "hank", "gus"), 0, (0,), outcomes.KNOCKOUT, [PUSH], turns=6)
    assert bal.turns_expected(three.spec, [*long_games, three]) == 6
    assert bal.turns_expected(todo[0], [*long_games, three]) == 30
    assert bal.turns_expected(three.spec, long_games) == 30


def test_a_resumed_report_says_its_estimate_from_the_games_already_played(tmp_path, capsys):
    out, games = tmp_path / "docs", tmp_path / "games"
    args = [a for a in ARGS if a != "--no-estimate"] + ["--workers", "1", "--out", str(out),
                                                      "--games-dir", str(games)]
    assert balance_main([*args, "--no-estimate"]) == 0
    book = out / "balance-games.jsonl"
    lines = book.read_text(encoding="utf-8").splitlines(keepends=True)
    book.write_text("".join(lines[:-2]), encoding="utf-8")  # two games to play again
    for kept in games.iterdir():  # the games folder emptied, its ledger too
        kept.unlink()
    capsys.readouterr()
    assert balance_main([*args, "--resume"]) == 0
    line = next(x for x in capsys.readouterr().err.splitlines() if "expected about" in x)
    assert line.startswith("2 games at the easy level on 1 worker: expected about"), line
    assert f"the {len(lines) - 2} games played so far lasted" in line


def test_quick_mode_stops_as_soon_as_every_wrestler_is_surely_placed(tmp_path, monkeypatch, capsys):
    """``--quick``: a sequential test over the growing round robin. Mike wins every game against
    Gus here: after 5 of the 8 planned rounds both are surely out of the band (Mike above, Gus
    below) and the run stops, naming them, without playing the last 3 rounds."""
    from kabuto.lab import tournament as tm
    from kabuto.lab.match import GameRecord

    played = []

    def fake(spec):
        played.append(spec)
        return GameRecord(spec, spec.wrestlers.index("mike"), "push_knockout", 5, 0, {}, [], None)

    monkeypatch.setattr(tm, "play_game", fake)
    out = tmp_path / "quick"
    assert balance_main(["--quick", "--wrestlers", "mike,gus", "--games", "8", "--level", "easy",
                     "--workers", "1", "--no-progress", "--no-estimate", "--out", str(out),
                     "--games-dir", str(tmp_path / "games")]) == 0
    said = capsys.readouterr().out
    verdicts = json.loads((out / "quick.json").read_text())["verdicts"]
    assert verdicts["mike"]["verdict"] == "above" and verdicts["gus"]["verdict"] == "below"
    assert 2 < len(played) < 16 and len(played) % 2 == 0
    assert "surely above 55%: Mighty Jaw Mike" in said and "surely below 45%" in said
    # The seats alternate, so the first player won half of these games, each over in 5 turns.
    rep = json.loads((out / "quick.json").read_text())
    assert rep["first_player"]["win_rate"] == 0.5 and rep["first_player"]["verdict"] == "undecided"
    assert rep["game_shape"]["median_turns"] == 5 and rep["game_shape"]["push_knockout_share"] == 1.0
    assert "The first player wins 50%" in said and "Games last 5 turns at the median" in said


def test_the_quick_verdict_places_a_first_player_who_always_wins_above_the_band():
    """The first player's win rate gets the sequential test a wrestler's does: one who wins every
    game of an even round robin is surely above 55%, while each wrestler, winning as often as
    losing, is not placed; an opening knock-out (within 3 turns) is counted as such."""
    from kabuto.lab.balance import quick_games, quick_verdict
    from kabuto.lab.match import GameRecord, GameSpec

    records = [GameRecord(GameSpec(i, ("mike", "gus") if i % 2 else ("gus", "mike"), 0, ("easy", "easy"),
                                   i, 120), 0, "knockout", 3 if i < 10 else 12, 0, {}, [], None)
               for i in range(60)]
    shape = quick_games(records, ["mike", "gus"], looks=4)
    assert shape["first_player"]["verdict"] == "above"
    assert {v["verdict"] for v in quick_verdict(records, ["mike", "gus"], looks=4).values()} == {"undecided"}
    assert shape["opening_share"] == 10 / 60 and shape["turns_p90"] == 12


def test_quick_mode_gives_its_verdict_when_the_time_is_up(tmp_path, monkeypatch, capsys):
    """With no time left the quick mode stops after its first game and says what is not decided
    yet (an even pair is undecided after one game)."""
    from kabuto.lab import tournament as tm
    from kabuto.lab.match import GameRecord

    monkeypatch.setattr(tm, "play_game", lambda spec: GameRecord(spec, spec.index % 2, "submission",
                                                                 9, 0, {}, [], None))
    assert balance_main(["--quick", "--minutes", "0", "--wrestlers", "mike,gus", "--games", "8",
                     "--level", "easy", "--workers", "1", "--no-progress", "--no-estimate",
                     "--out", str(tmp_path / "q"), "--games-dir", str(tmp_path / "g")]) == 0
    rep = json.loads((tmp_path / "q" / "quick.json").read_text())
    assert rep["games"] == 1 and {d["verdict"] for d in rep["verdicts"].values()} == {"undecided"}
    assert "not decided yet" in capsys.readouterr().out
