"""tools/early_wins.py: the search for a win on a player's first turn (issue 16, point 3).

The positions are set up directly (pieces placed where needed), so the physics may change without
these tests depending on where one recorded push ends up."""
from __future__ import annotations

import math
import random
import shutil

import pytest

from kabuto import Game
from kabuto.ai.levels import config
from kabuto.rules.errors import IllegalMove
from physics import state_hash
from tests.kabuto.scenarios import arena
from tests.tools.conftest import load_tool


@pytest.fixture(scope="module")
def early_wins():
    """The search itself (tools/early_wins.py is its command line)."""
    from kabuto.lab import early_wins as search

    return search


@pytest.mark.usefixtures("grip_takes_wrestlers")
def test_the_search_finds_a_first_turn_win_when_there_is_one(early_wins):
    """Hank's wrestler set down touching the centre circle: Mike's Vice Grip ("If any part of a piece
    is inside and touching the center circle, immediately knock out that piece") wins on turn 1,
    and the search must say so, with the line that does it."""
    g = arena(2, ["mike", "hank"])                             # the ring cleared to the wrestlers
    r = g.world.ring.centre_radius
    g.edit("hank:wrestler", "board", -(r + 0.005), 0.0, 0.0)   # the beetle's back reaches the circle
    assert "hank:wrestler" in g.world.in_circle()
    (push,) = early_wins.sample_pushes(g, 1, random.Random(0))
    line = early_wins.winning_line(g, push, config().search)
    assert line is not None and {"move": "Vice Grip", "targets": {"piece": "hank:wrestler"}} in line
    assert not g.is_over                                       # the search played on copies


@pytest.mark.usefixtures("grip_takes_wrestlers")
def test_the_moves_before_a_push_are_worked_out_once_per_position_and_search_the_same(early_wins):
    """The positions the moves before a push leave do not depend on the push, so the search works
    them out once per position (``starts_of``) and every sampled push starts from them: the same
    lines win, a move that wins alone wins whatever the push, and the positions stay as they were."""
    search = config().search
    g = arena(2, ["mike", "hank"])
    r = g.world.ring.centre_radius
    g.edit("hank:wrestler", "board", -(r + 0.005), 0.0, 0.0)   # Vice Grip wins on its own
    gripped = early_wins.starts_of(g, search)
    assert gripped.won is not None and gripped.won[0]["move"] == "Vice Grip"
    g = arena(2, ["rita", "hank"])                             # Rita's Horn Hook turns her first
    starts = early_wins.starts_of(g, search)
    assert starts.won is None and len(starts.games) > 1        # the position, and after each move
    before = [state_hash(h.world.snapshot()) for h, _ in starts.games]
    for push in early_wins.sample_pushes(g, 4, random.Random(3)):
        assert early_wins.winning_line(g, push, search, starts=starts) == \
            early_wins.winning_line(g, push, search)
    assert [state_hash(h.world.snapshot()) for h, _ in starts.games] == before


def test_the_search_finds_nothing_where_no_move_or_push_can_win(early_wins):
    """Nothing in the circle and no wrestler near the edge: no line of turn 1 wins."""
    g = arena(2, ["mike", "hank"])
    assert not g.world.in_circle()
    pushes = early_wins.sample_pushes(g, 2, random.Random(1))
    assert all(early_wins.winning_line(g, s, config().search) is None for s in pushes)


def test_a_seeded_sample_of_the_search_finds_no_early_win(early_wins):
    """A few seconds of the full search (tools/early_wins.py runs 2,000 pushes per ordered pair):
    neither the first player on turn 1 nor the second on its first turn wins."""
    pairs = [("mike", "hank"), ("hank", "mike"), ("bea", "gus"), ("rita", "dora")]
    summary = early_wins.run(pairs, pushes=2, seed=0, workers=1, chunk=2)
    assert summary["tried_first"] == 8 and summary["tried_second"] > 0
    assert summary["wins_first"] == 0 and summary["wins_second"] == 0, summary["pairs_with_wins"]


def test_the_horn_bar_no_longer_wins_hanks_first_turn_against_gus(early_wins):
    """Issue 16: with the 48 mm Horn Bar, Hank's seeded first push 29 against Gus won on turn 1
    (Horn Toss, then the bar pushed from beside his own wrestler); the bar is now 40 mm and the
    search of that push, in every line the turn allows, finds no win for either seat."""
    result = early_wins.search_pair((2, "hank", "gus", 0, 29, 30, 0))
    assert result.tried_first == 1
    assert result.wins_first == 0 and result.wins_second == 0, result.examples_first


def test_a_sample_on_the_three_and_four_player_boards_finds_no_early_win(early_wins):
    """The same search on the 3P and 4P starting boards (Mike first and Mike second)."""
    pairs = [("mike", "gus"), ("bea", "mike")]
    summary = early_wins.run(pairs, pushes=2, seed=0, workers=1, chunk=2, players=(3, 4))
    assert set(summary["boards"]) == {"3P", "4P"}
    assert summary["tried_first"] == 8 and summary["tried_second"] > 0
    assert summary["wins_first"] == 0 and summary["wins_second"] == 0, summary["pairs_with_wins"]


def test_lineups_put_the_pair_first_and_fill_the_other_seats_with_other_wrestlers(early_wins):
    assert early_wins.lineup(2, "mike", "hank") == ["mike", "hank"]
    four = early_wins.lineup(4, "bea", "mike")
    assert four[:2] == ["bea", "mike"] and len(set(four)) == 4


def test_a_resumed_search_skips_the_work_already_done_and_adds_it_in(early_wins, tmp_path):
    log = tmp_path / "early.jsonl"
    first = early_wins.run([("mike", "hank")], pushes=2, seed=0, chunk=1, resume=log)
    assert first["resumed_units"] == 0 and len(log.read_text().splitlines()) == 2
    again = early_wins.run([("mike", "hank")], pushes=2, seed=0, chunk=1, resume=log)
    assert again["resumed_units"] == 2
    assert (again["tried_first"], again["tried_second"]) == (first["tried_first"], first["tried_second"])


def test_the_search_so_far_sums_up_the_file_and_searches_nothing(early_wins, tmp_path):
    """``--so-far``: what a search that grows over several runs has found until now, with how
    much of it is done, and the file left as it was."""
    log = tmp_path / "early.jsonl"
    part = early_wins.run([("mike", "hank")], pushes=2, seed=0, chunk=1, resume=log)
    before = log.read_bytes()
    summary = early_wins.run([("mike", "hank"), ("hank", "mike")], pushes=3, seed=0, chunk=1,
                             resume=log, so_far=True)
    assert log.read_bytes() == before
    assert summary["boards"]["2P"]["units_done"] == 2 and summary["boards"]["2P"]["units"] == 6
    assert (summary["tried_first"], summary["tried_second"]) == (part["tried_first"], part["tried_second"])
    with pytest.raises(SystemExit):  # --so-far reads a file: without one it is a usage error
        load_tool("early_wins").main(["--pushes", "3", "--so-far"])


def test_work_done_by_other_code_or_boards_is_searched_again(early_wins, tmp_path):
    """A resume file committed while the full search grows over several runs: a unit searched
    before the board (or the rules, the physics, the data) changed must not count for the new one."""
    import json

    log = tmp_path / "early.jsonl"
    early_wins.run([("mike", "hank")], pushes=2, seed=0, chunk=1, resume=log)
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    rows[0]["code"] = "0" * 16  # searched on another design
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    again = early_wins.run([("mike", "hank")], pushes=2, seed=0, chunk=1, resume=log)
    assert again["resumed_units"] == 1
    assert len(log.read_text().splitlines()) == 3  # the unit was searched and logged again


def test_the_search_is_kept_when_the_ai_scores_otherwise_and_not_when_its_targets_change(monkeypatch):
    """The search asks the AI only which targets to try: retuning how the AI scores (as a design
    change of ai.toml's [scoring] does) keeps its units, a finer angle step for the moves does not."""
    from dataclasses import replace

    from kabuto.ai import levels
    from kabuto.lab import fingerprint as fp

    shipped = levels.config()
    before = {n: fp.search_targets_digest(n) for n in (2, 3, 4)}
    rescored = replace(shipped, weights=replace(shipped.weights, own_piece=0.0, opponent_piece=0.0))
    monkeypatch.setattr(levels, "config", lambda: rescored)
    assert {n: fp.search_targets_digest(n) for n in (2, 3, 4)} == before
    step = shipped.search.move_angle_step_deg / 2
    finer = replace(shipped, search=replace(shipped.search, move_angle_step_deg=step))
    monkeypatch.setattr(levels, "config", lambda: finer)
    assert all(fp.search_targets_digest(n) != before[n] for n in (2, 3, 4))


def test_retuning_one_wrestler_searches_again_only_the_lineups_it_stands_in(early_wins, tmp_path, monkeypatch):
    """A unit is kept under its own lineup's wrestler cards: a grippier Goliath Gus (a design
    change of one card) makes the units he plays in stale and keeps every other, on every board."""
    import kabuto_assets
    from kabuto.lab import fingerprint as fp

    assets = tmp_path / "assets"
    shutil.copytree(kabuto_assets.path("."), assets)
    tasks = [(n, a, b, 0, 0, 30, 20, "quiet") for n in (2, 3, 4)
             for a, b in (("mike", "hank"), ("gus", "jade"), ("annie", "bea"))]
    before = {t: early_wins.unit_fingerprint(t) for t in tasks}
    cards = assets / "wrestlers.toml"
    text = cards.read_text(encoding="utf-8")
    gus = text.index('key = "gus"')
    grip = text.index("table_friction = ", gus)
    cards.write_text(text[:grip] + "table_friction = 0.61" + text[text.index("\n", grip):], encoding="utf-8")
    monkeypatch.setenv("KABUTO_ASSETS", str(assets))
    fp.search_fingerprint.cache_clear()
    try:
        after = {t: early_wins.unit_fingerprint(t) for t in tasks}
    finally:
        fp.search_fingerprint.cache_clear()
    stale = {t for t in tasks if after[t] != before[t]}
    assert stale == {t for t in tasks if "gus" in early_wins.lineup(*t[:3])}
    assert stale and len(stale) < len(tasks)


def test_a_piece_a_move_brings_in_is_pushed_too(early_wins):
    """Annie's Raise the Pillar ("Add the Atlas Pillar to your inventory") before the push: the
    search also makes the sampled push with the pillar (a first turn on the 72 mm boards was won so,
    with Hank's Horn Bar, when Horn Toss did not yet replace the turn), with its aim held within
    what the pillar can reach."""
    g = arena(2, ["annie", "gus"])
    before = set(g.legal_kinds())
    s = early_wins.PushSample("small", 30.0, 59.0, 0.4)
    g.use_move(0, "Raise the Pillar")
    (pillar,) = early_wins._new_kinds(g, s, before)
    assert pillar.kind == g.signature_kind(0, "pillar")
    assert (pillar.entry_deg, pillar.speed) == (30.0, 0.4)
    assert abs(pillar.heading_deg) <= g.world.steepest_heading(pillar.kind)


#: Issue 16: on the 3P board Goliath Gus's seeded first push 2 against Hercules Hank (a small at
#: 65.9 degrees), then Hank's Horn Toss and the Horn Bar from Annie's flank (entry 293.1 degrees,
#: heading -52.8, 0.49 m/s) knocked out Atlas Annie: a win on Hank's first turn.
GUS_FIRST = ("small", 65.8525844339177, 34.49630137809196, 0.31918355808505905)
HANK_BAR = (293.07408339354157, -52.75352301327598, 0.4885282112783707)


def test_hanks_three_player_horn_bar_line_no_longer_wins(early_wins):
    """Horn Toss now replaces Hank's turn, so the bar the line needs cannot be pushed until his
    next turn: the search of that seeded push, in every line the turn allows, finds no win for
    either seat, and the found line itself stops at the toss."""
    result = early_wins.search_pair((3, "gus", "hank", 0, 2, 3, 0))
    assert result.tried_second == 1
    assert result.wins_first == 0 and result.wins_second == 0, result.examples_second
    g = early_wins.new_game("gus", "hank", 3)
    g.push(*GUS_FIRST)
    hank = g.to_play
    g.use_move(hank, "Horn Toss")
    assert g.to_play != hank and not g.is_over
    with pytest.raises(IllegalMove):
        g.push(g.signature_kind(hank, "bar"), *HANK_BAR)


#: Issue 16 found wins along the ring's edge on the older 2P boards for these pairs (first,
#: second): two on the second player's first turn, up the edge past a wrestler's open flank, and
#: one on turn 1, down the edge at the steepest heading a medium can be aimed. On the crammed board
#: (issue 42) Jade's medium down the edge from 95-98 degrees round from Mike's wrestler at 0.5 m/s
#: still knocked it out on turn 1, until the platform's 45 degrees and the 0.45 m/s hand.
EDGE_PAIRS_2P = [pytest.param("jade", "dora", id="jade-dora"), pytest.param("bea", "hank", id="bea-hank"),
                 pytest.param("jade", "mike", id="jade-mike")]


@pytest.mark.parametrize("first, second", EDGE_PAIRS_2P)
def test_the_edge_grid_wins_neither_players_first_turn_on_the_2p_board(early_wins, first, second):
    """The same property on the crammed board (issue 42): the grid of plain pushes along the edge
    at the opposing wrestler from both sides (:func:`edge_sweep`: small and medium, 40-100
    degrees round, 35 degrees to the steepest heading, 0.8-1 of the hand's top speed) wins nothing
    on turn 1, and after the first player's quiet opening (the one the search makes) nothing on the
    second player's first turn."""
    base = early_wins.new_game(first, second)
    wins, tried = early_wins.edge_sweep(base)
    assert tried > 500 and wins == []
    firsts = early_wins.sample_pushes(base, early_wins.OPENING_DRAWS,
                                      random.Random(early_wins._stream(2, 0, first, second)))
    _, after = early_wins.opening(base, firsts)
    assert after is not None and after.current_seat == 1
    wins, tried = early_wins.edge_sweep(after)
    assert tried > 300 and wins == []


def test_the_edge_share_draws_pushes_at_the_steepest_headings_along_the_edge(early_wins):
    """The search's edge share (issue 16 point 3): every push the rules accept, aimed along the edge
    towards the opposing wrestler from 40-100 degrees round the ring, within a few degrees of the
    steepest heading its kind can be aimed, a third exactly at it. The turn-1 line of the seed-28
    board (a medium at the steepest heading from 54-63 degrees round above the wrestler, 0.9 of the
    hand's top speed or more: 0.45 m/s of the 0.5 it was found with) is in its reach often; a
    uniform draw of the same count all but never meets it."""
    g = early_wins.new_game("jade", "mike")
    target = g.world.piece(g.seats[1].piece_id)
    bearing = math.degrees(math.atan2(target.y, target.x))
    pushes = early_wins.edge_pushes(g, 3000, random.Random(5))
    steepest = {k: g.world.steepest_heading(k) for k in g.legal_kinds()}
    fast = 0.9 * g.materials.sim.max_speed

    def round_from(s):
        return (s.entry_deg - bearing + 180.0) % 360.0 - 180.0

    for s in pushes:
        g.check_push(s.kind, s.entry_deg, s.heading_deg, s.speed)
        side = 1 if round_from(s) > 0 else -1
        assert 40.0 - 1e-9 <= abs(round_from(s)) <= 100.0 + 1e-9
        assert side * s.heading_deg >= steepest[s.kind] - early_wins.EDGE_NEAR - 1e-9

    def like_the_line(s):  # seat 1's wrestler: "above" it is clockwise of its bearing (side -1)
        return (s.kind == "medium" and -63.0 <= round_from(s) <= -54.0 and s.speed >= fast
                and s.heading_deg == -steepest["medium"])
    at_steepest = sum(abs(s.heading_deg) == steepest[s.kind] for s in pushes)
    assert 0.25 < at_steepest / len(pushes) < 0.42
    uniform = early_wins.sample_pushes(g, 3000, random.Random(5))
    assert sum(map(like_the_line, pushes)) >= 5 > sum(map(like_the_line, uniform))


def test_the_edge_share_is_searched_for_both_seats(early_wins):
    """A unit of work with a share of 100 per 100 makes one edge push for each seat per uniform
    push, counted apart as well as in the totals."""
    r = early_wins.search_pair((2, "jade", "mike", 0, 0, 1, 100))
    assert (r.edge_tried_first, r.edge_tried_second) == (1, 1)
    assert (r.tried_first, r.tried_second) == (2, 2)
    assert r.wins_first == r.wins_second == 0


def test_no_push_down_the_edge_at_the_steepest_heading_wins_turn_1_on_the_2p_board(early_wins):
    """Issue 16: on an older 2P board a plain medium at the steepest heading a medium can be aimed,
    from about 56 degrees round above a wrestler, came down the edge, drove the large disc there
    into the wrestler and knocked it out on turn 1, at that heading only. On the crammed board
    the finer ridge of such pushes (:func:`steepest_ridge`: small and medium at exactly their
    steepest heading, every half degree 40-100 round from the opposing wrestler on both sides,
    0.9 and all of the hand's top speed) wins nothing."""
    g = early_wins.new_game("jade", "mike")
    wins, tried = early_wins.steepest_ridge(g)
    assert tried > 500 and wins == []


#: Issue 16: the turn-1 wins the edge grid (``--sweep``) found on the 3P and 4P boards before
#: each wrestler had a disc beside it on both sides and the large discs stood off the edge (3P 10
#: of 3,744 grid pushes, 4P 74 of 4,992): (players, seat moving first, kind, entry, heading), each
#: won at one or more of 0.4, 0.45 and 0.5 m/s (58.8 degrees: the steepest a medium can be aimed;
#: 4P team-mates aim the same pushes, so seat 1 stands for seat 3 and seat 0 for seat 2). Almost
#: all came down the edge at the steepest heading and drove a large disc or a medium standing on
#: the edge beside the wrestler into it.
OLD_EDGE_WINS = [
    (3, 0, "medium", 10.0, 58.8), (3, 0, "medium", 255.0, 58.8), (3, 1, "medium", 10.0, 58.8),
    (3, 1, "medium", 135.0, 58.8), (3, 2, "medium", 135.0, 58.8), (3, 2, "medium", 255.0, 58.8),
    (4, 0, "medium", 195.0, -58.8), (4, 0, "medium", 220.0, 58.8), (4, 0, "medium", 225.0, -58.8),
    (4, 0, "medium", 225.0, 58.8), (4, 0, "medium", 230.0, -58.8), (4, 0, "medium", 230.0, 58.8),
    (4, 1, "medium", 35.0, -58.8), (4, 1, "medium", 35.0, -50.8), (4, 1, "medium", 35.0, -42.9),
    (4, 1, "medium", 35.0, -35.0), (4, 1, "medium", 40.0, -58.8), (4, 1, "medium", 40.0, 58.8),
    (4, 1, "medium", 45.0, -58.8), (4, 1, "medium", 45.0, 58.8), (4, 1, "medium", 50.0, -58.8),
    (4, 1, "medium", 70.0, 58.8), (4, 1, "medium", 75.0, 58.8), (4, 1, "medium", 80.0, 58.8),
    (4, 1, "small", 35.0, -60.0), (4, 1, "small", 35.0, -43.3),
]


@pytest.mark.parametrize("players", [3, 4])
def test_the_edge_pushes_found_on_the_3p_and_4p_boards_no_longer_win_turn_1(early_wins, players):
    """The 3P and 4P boards now stand a small disc on each side of each wrestler towards the edge
    and keep the large discs off the edge (as the 2P board): from the starting board each push
    the edge grid found, at the grid's speeds (0.4, 0.45 and 0.5 m/s for a 0.5 m/s hand; its
    heading held within what its kind can reach), leaves every wrestler on the ring, and so do the
    pushes round one of each side's (entry within 8 degrees, heading within 8)."""
    won = []
    rounds = {}
    for n, seat, kind, entry, heading in OLD_EDGE_WINS:
        if n != players:
            continue
        g = early_wins.Game.new(players=n, wrestlers=early_wins.lineup(n, "jade", "dora"), seed=0,
                                first_player=seat)
        lim = g.world.steepest_heading(kind)
        for v in early_wins.top_speeds(g, early_wins.GRID_SPEEDS):
            s = early_wins.PushSample(kind, entry, max(-lim, min(lim, heading)), v)
            o = g.preview_push(s.kind, s.entry_deg, s.heading_deg, s.speed)
            if o.result is not None or any(g.is_wrestler_piece(k.piece) for k in o.knocked_out):
                won.append((seat, s))
        rounds.setdefault(seat, (g, early_wins.PushSample(kind, entry, max(-lim, min(lim, heading)),
                                                          early_wins.top_speeds(g, (0.9,))[0])))
    assert not won, won
    for g, s in rounds.values():
        wins, tried = early_wins.near_wins(g, s, entry_step=4.0,
                                           speeds=early_wins.top_speeds(g, early_wins.RIDGE_SPEEDS))
        assert tried > 20 and wins == 0, (s, wins)


def test_a_search_stopped_part_way_has_covered_every_pair_about_equally(early_wins):
    """The whole search is longer than one run and grows over several (``--resume``): its units go
    chunk by chunk across every board and pair, so the part done is a fair sample of every pair on
    every board, not all of some and none of the rest."""
    pairs = [("mike", "hank"), ("hank", "mike"), ("bea", "gus")]
    units = early_wins.tasks(pairs, pushes=100, seed=0, chunk=25, players=(2, 3))
    assert len(units) == len(set(units)) == 2 * 4 * len(pairs)
    for start in range(0, len(units), len(pairs)):  # every run of len(pairs) units: one chunk, all pairs
        run = units[start:start + len(pairs)]
        assert {(u[1], u[2]) for u in run} == set(pairs) and len({(u[0], u[4]) for u in run}) == 1
    assert [u[4] for u in units] == sorted(u[4] for u in units)  # every board's first chunk first
    assert {u[0] for u in units[:2 * len(pairs)]} == {2, 3}


def _well_between(base, pushes):
    """The pushes entering 60 degrees or more round the ring from both 2P wrestlers."""
    wrestlers = [base.world.piece(s.piece_id) for s in base.seats]
    bearings = [math.degrees(math.atan2(p.y, p.x)) for p in wrestlers]
    return [s for s in pushes
            if all(abs((s.entry_deg - b + 180.0) % 360.0 - 180.0) >= 60.0 for b in bearings)]


def test_the_second_turn_is_searched_after_one_opening(early_wins, monkeypatch):
    """A forced win on the second player's first turn is one the first player cannot avoid: the
    search makes one quiet opening (the first player's slowest seeded push entering well between
    the wrestlers, made plainly) and tries every reply of the unit in the position it leaves; the
    first turn is searched push by push as before. A unit logged before (seven items) is the older
    search, push i after push i."""
    from physics.world import state_hash

    seen = []
    real = early_wins.winning_line

    def spy(game, s, search, plain=None, starts=None):
        seen.append((game.current_seat, state_hash(game.world.snapshot()), game.turn.number))
        return real(game, s, search, plain, starts)

    monkeypatch.setattr(early_wins, "winning_line", spy)
    r = early_wins.search_pair((2, "mike", "hank", 0, 3, 6, 0, early_wins.OPENING))
    assert (r.tried_first, r.tried_second) == (3, 3)
    first = [h for seat, h, turn in seen if seat == 0]
    replies = [(h, turn) for seat, h, turn in seen if seat == 1]
    assert len(first) == 3 and len(set(first)) == 1  # the starting board, three pushes
    assert len(replies) == 3 and len(set(replies)) == 1 and replies[0][1] == 2  # one position
    base = early_wins.new_game("mike", "hank")
    firsts = early_wins.sample_pushes(base, early_wins.OPENING_DRAWS,
                                      early_wins.random.Random(early_wins._stream(2, 0, "mike", "hank")))
    k, g = early_wins.opening(base, firsts)
    assert g is not None and state_hash(g.world.snapshot()) == replies[0][0]
    # quiet: well between the wrestlers (60 degrees round from both at least), the slowest of the
    # pushes drawn there
    away = _well_between(base, firsts)
    assert firsts[k] in away and firsts[k].speed == min(s.speed for s in away)
    seen.clear()
    early_wins.search_pair((2, "mike", "hank", 0, 3, 6, 0))  # the older search
    assert len({h for seat, h, _ in seen if seat == 1}) == 3  # a position per first push


def test_after_a_losing_opening_the_replies_are_searched_after_the_next_quiet_one(early_wins):
    """A unit of the first player's second quiet opening ("quiet-2") searches the second player's
    replies only, in the position the next slowest quiet push leaves (entering well between the
    wrestlers too)."""
    from physics.world import state_hash

    base = early_wins.new_game("mike", "hank")
    firsts = early_wins.sample_pushes(base, early_wins.OPENING_DRAWS,
                                      early_wins.random.Random(early_wins._stream(2, 0, "mike", "hank")))
    k0, g0 = early_wins.opening(base, firsts)
    k1, g1 = early_wins.opening(base, firsts, 1)
    assert g0 is not None and g1 is not None and k1 != k0
    away = sorted(_well_between(base, firsts), key=lambda s: s.speed)
    assert (firsts[k0], firsts[k1]) == (away[0], away[1])
    assert state_hash(g0.world.snapshot()) != state_hash(g1.world.snapshot())
    r = early_wins.search_pair((2, "mike", "hank", 0, 0, 2, 0, early_wins.opening_mode(1)))
    assert (r.tried_first, r.tried_second) == (0, 2)


def _fake_search(early_wins, monkeypatch, losing):
    """search_pair replaced: a unit's reply wins where ``losing(task)``; the units run, in order."""
    ran = []

    def fake(task):
        ran.append(task)
        won = losing(task)
        return early_wins.PairResult(task[1], task[2], task[0], tried_second=task[5] - task[4],
                                     wins_second=int(won))

    monkeypatch.setattr(early_wins, "search_pair", fake)
    return ran


def test_a_second_turn_win_one_opening_avoids_is_not_forced(early_wins, monkeypatch, tmp_path):
    # mike:hank's reply wins in its second unit after the quiet opening; the pair's units after
    # the next opening run at once, before the rest, and win nowhere: avoided, not forced.
    ran = _fake_search(early_wins, monkeypatch,
                       lambda t: t[1] == "mike" and t[4] == 1 and t[7] == early_wins.OPENING)
    log = tmp_path / "units.jsonl"
    summary = early_wins.run([("mike", "hank"), ("hank", "mike")], pushes=3, seed=0, chunk=1, resume=log)
    modes = [(t[1], t[4], t[7]) for t in ran]
    assert modes[:5] == [("mike", 0, "quiet"), ("hank", 0, "quiet"), ("mike", 1, "quiet"),
                         ("mike", 0, "quiet-2"), ("mike", 1, "quiet-2")]
    assert len(ran) == 6 + 3
    board = summary["boards"]["2P"]
    assert board["wins_second"] == 1 and board["second_avoided"] == 1
    assert board["second_turn_openings"]["mike:hank"]["verdict"] == "avoided by opening 2"
    assert summary["pairs_not_cleared"] == [] and summary["second_unavoided"] == 0
    page = early_wins.report_md(summary)                  # --write: the page committed beside it
    assert "(partial)" not in page and "Pairs not cleared: none." in page
    assert "2P mike then hank: opening 1: 1 of 3 replies win" in page and "**avoided by opening 2**" in page
    # the file holds it all: summed up again, it says the same, and nothing is searched again
    ran.clear()
    again = early_wins.run([("mike", "hank"), ("hank", "mike")], pushes=3, seed=0, chunk=1,
                           resume=log, so_far=True)
    assert ran == [] and again["boards"]["2P"]["second_turn_openings"] == board["second_turn_openings"]


def test_a_second_turn_win_every_opening_loses_to_is_not_cleared(early_wins, monkeypatch):
    ran = _fake_search(early_wins, monkeypatch, lambda t: t[1] == "hank" and t[4] == 0)
    summary = early_wins.run([("mike", "hank"), ("hank", "mike")], pushes=2, seed=0, chunk=1)
    every = ["quiet"] + [f"quiet-{k}" for k in range(2, early_wins.OPENINGS + 1)]
    assert sorted({t[7] for t in ran if t[1] == "hank"}) == every
    assert {t[7] for t in ran if t[1] == "mike"} == {"quiet"}
    verdict = summary["boards"]["2P"]["second_turn_openings"]["hank:mike"]
    assert verdict["verdict"] == "every opening loses"
    assert [o["wins"] for o in verdict["openings"]] == [1] * early_wins.OPENINGS
    assert summary["pairs_not_cleared"] == ["2P:hank:mike"] and summary["second_unavoided"] == 1
    page = early_wins.report_md(summary)
    assert "Pairs not cleared: 2P:hank:mike." in page and f"(up to {early_wins.OPENINGS})" in page


def test_a_search_of_fewer_openings_stops_sooner(early_wins, monkeypatch):
    # --openings 2: a reply wins after both openings, so the pair is not cleared after two.
    ran = _fake_search(early_wins, monkeypatch, lambda t: t[1] == "hank" and t[4] == 0)
    summary = early_wins.run([("hank", "mike")], pushes=2, seed=0, chunk=1, openings=2)
    assert sorted({t[7] for t in ran}) == ["quiet", "quiet-2"]
    assert summary["pairs_not_cleared"] == ["2P:hank:mike"]
    assert "(up to 2)" in early_wins.report_md(summary)


def test_the_sampler_round_a_second_turn_line_finds_no_win_round_the_3p_line(early_wins):
    """``near_sample``: after Rita's slow medium onto the edge of the 3P
    board, the seeded mediums round Dora's reply (entry within 4 degrees, heading within 6,
    0.4-0.5 m/s; 19 of 120 won on the seed-43 board) are all made, and none wins; the same stream
    draws the same pushes."""
    base = early_wins.new_game("rita", "dora", 3)
    first, second = early_wins.RITA_DORA_3P
    found = early_wins.near_sample(base, first, second, 40, "near-3p-rita-dora")
    assert found == (0, 40, [])
    assert early_wins.near_sample(base, first, second, 40, "near-3p-rita-dora") == found
    with pytest.raises(ValueError):  # a first push the rules refuse (faster than the hand)
        early_wins.near_sample(base, early_wins.PushSample("medium", 42.4, 38.1, 0.9), second, 1, "x")


#: Issue 16: Rhino Rita's turn-1 Charge lines (players, seat, entry, heading, speed as a share of
#: the hand's top speed; smalls): a small set down on the edge, then Charge and a second small from
#: the same spot, drove the first into a wrestler and knocked a wrestler out. The 4P lines (seed-22
#: board): the found line from seat 0, its mirror image by y = -x (seat 3) and winning neighbours of
#: both; the 2P line (the full search) knocked Bombardier Bea out. Found (in m/s) with a hand of
#: :data:`CHARGE_HAND`, they are made at the same share of the hand in force.
CHARGE_HAND = 0.5
CHARGE_LINES = [
    (4, 0, 75.57352734985268, -10.968954176851959, 0.47456602440287426 / CHARGE_HAND),
    (4, 0, 79.57352734985268, -4.968954176851959, 0.5 / CHARGE_HAND),
    (4, 3, 195.42647265014733, 16.96895417685196, 0.5 / CHARGE_HAND),
    (4, 3, 190.42647265014733, 10.968954176851959, 0.45 / CHARGE_HAND),
    (2, 0, 45.45994377490052, -14.177354718092609, 0.4935528926177551 / CHARGE_HAND),
]


@pytest.mark.parametrize("players, seat, entry, heading, share", CHARGE_LINES)
def test_rhino_ritas_charge_twice_lines_stop_after_one_push_on_her_first_turn(early_wins, players,
                                                                            seat, entry, heading,
                                                                            share):
    """Charge waits for Rita's second turn: on her first, after the line's first push,
    it is refused, saying why, and her turn can only end."""
    found_with = "bea" if players == 2 else "annie"        # the opponent the line was found against
    others = [k for k in early_wins.lineup(players, "rita", found_with) if k != "rita"]
    g = Game.new(players=players, wrestlers=others[:seat] + ["rita"] + others[seat:], seed=0,
                 first_player=seat)
    g.push("small", entry, heading, share * g.materials.sim.max_speed, end_turn=False)
    assert not g.is_over
    (charge,) = [m for m in g.available_moves(seat) if m.name == "Charge"]
    assert not charge.usable and "second turn" in (charge.reason or "")
    assert g.pushes_left == 0 and g.can_end_turn
