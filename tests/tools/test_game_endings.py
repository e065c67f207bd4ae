"""tools/game_endings.py: why a balance run's games ended, read back from the saved replays.

The games are played here by hand (seeded, no AI), and what the tool reads back is compared with
what the game itself showed while it was played: where each wrestler stood at each turn end, what
each side held, what a signature move gained."""
from __future__ import annotations

import math

import pytest

from kabuto.ai.scoring import inventories
from kabuto.lab import match
from kabuto.lab import tournament as tm
from kabuto.lab.match import GameRecord, GameSpec
from kabuto.rules.errors import IllegalMove
from kabuto.rules.game import Game
from tests.tools.conftest import load_tool


@pytest.fixture(scope="module")
def endings():
    return load_tool("game_endings")


def _seen(game: Game) -> tuple[tuple[float | None, ...], tuple[int, ...]]:
    """Where the wrestlers stand (mm from the centre) and what each side holds, as the game has it."""
    where = {p.id: p for p in game.world.pieces}
    dist = tuple(None if s.piece_id not in where else
                 math.hypot(where[s.piece_id].x, where[s.piece_id].y) * 1000.0 for s in game.seats)
    inv = inventories(game)
    return dist, tuple(sum(inv[k].values()) for k in sorted(inv))


def play(index: int, turns: int, grip_first: bool) -> tuple[GameRecord, list, list[int]]:
    """A game of Mike against Hank stopped after ``turns`` turns of plain pushes (Mike's first turn
    opening with Vice Grip when ``grip_first``): its record as ``kabuto balance`` keeps it, what the
    game showed at each turn end, and what each Vice Grip gained Mike's side."""
    spec = GameSpec(index, ("mike", "hank"), 0, ("hard", "hard"), index, turns)
    game = Game.new(players=2, wrestlers=list(spec.wrestlers), seed=spec.seed, first_player=0)
    rec = match._recorder(game, spec)
    shown, gains = [], []
    for turn in range(turns):
        if grip_first and turn == 0:
            before = sum(inventories(game)[0].values())
            game.use_move(0, "Vice Grip", piece=sorted(game.world.in_circle())[0])
            rec.sync(game)
            gains.append(sum(inventories(game)[0].values()) - before)
        held = inventories(game)[game.side_of(game.current_seat)]
        kind, entry = min(k for k in held if held[k]), 37.0 * turn + 11.0
        while True:
            try:
                game.push(kind, entry, 15.0 if turn % 2 else -20.0, 0.2, end_turn=False)
                break
            except IllegalMove:  # a spot blocked by a piece hanging over the rim: the next one round
                entry += 5.0
        rec.sync(game)
        if game.is_over:
            break
        shown.append(_seen(game))
        game.end_turn()
        rec.sync(game)
    assert not game.is_over  # pushes this slow knock nobody out: the game meets the cap
    record = GameRecord(spec, None, "max_turns", turns, 0, rec.to_json(game), [], None)
    return record, shown, gains


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("games")
    games = [play(0, 3, True), play(1, 2, False)]
    for record, _, _ in games:
        tm.save_replay(out, record)
    return out, games


def test_each_turn_end_is_read_back_as_the_game_showed_it(endings, folder):
    out, games = folder
    records = endings.load_records(out)
    assert [r.spec.index for r in records] == [0, 1]
    for record, (_, shown, gains) in zip(records, games, strict=True):
        reading = endings.read_game(record)
        got = [(t.distances_mm, t.pieces) for t in reading.turn_ends]
        assert got == shown
        assert [g for name, g in reading.move_gains if name == "Vice Grip"] == gains


def test_the_summary_counts_the_cap_and_where_the_wrestlers_stood(endings, folder):
    out, games = folder
    s = endings.summary([endings.read_game(r) for r in endings.load_records(out)])
    assert s["games"] == 2 and s["end_reasons"]["turn_limit"]["count"] == 2
    assert s["push_knockout"]["count"] == 0 and s["wins_by_ending"] == {}  # a stopped game is no win
    everything = [d for _, shown, _ in games for dist, _ in shown for d in dist]
    assert s["turn_end_distance_mm"]["turn_ends"] == len(everything)
    assert s["turn_end_distance_mm"]["within_middle"]["count"] == sum(d < 40 for d in everything)
    last = [games[0][1][-1], games[1][1][-1]]
    held = [p for _, pieces in last for p in pieces]
    assert s["at_cap"]["pieces_in_hand"] == [min(held), max(held)]
    assert s["move_gain"]["Vice Grip"]["uses"] == 1
    assert "turn_limit 2 (100%" in endings.text("run", s)
    # The opening, by who moved first (seat 0 in both games): after turn 1 both games count, after
    # turn 3 only the one still going; the medians are the distances the games showed.
    assert sorted(s["opening"]) == [1, 2, 3]
    assert s["opening"][1]["games"] == 2 and s["opening"][3]["games"] == 1
    firsts = sorted(g[1][0][0][0] for g in games)
    assert s["opening"][1]["first"]["median_mm"] == pytest.approx(sum(firsts) / 2)
    assert s["opening"][3]["second"]["median_mm"] == pytest.approx(games[0][1][2][0][1])
    assert "turn  1 (2 games)" in endings.text("run", s)


def test_a_folder_it_cannot_read_is_one_line(endings, tmp_path, capsys):
    (tmp_path / "games.jsonl").write_text("{not json\n{}\n", encoding="utf-8")
    assert endings.main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "games.jsonl, line 1" in err


def test_a_folder_without_finished_games_is_one_line_not_a_crash(endings, tmp_path, capsys):
    (tmp_path / "game-0000.replay.json").write_text("{}", encoding="utf-8")  # a replay, no result
    assert endings.main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no finished games" in err
