"""What the rules tell a front end so that it never re-implements a rule: the checks of a push
before it is made, whether a turn still has a push in it, the place strings, where a move's
direction is measured from, and texts that name seats the front end's way."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kabuto.rules.errors import IllegalMove
from kabuto.rules.inventory import BOARD, SUPPLY, Place, parse_place, seat_place, team_place
from kabuto.rules.naming import SeatNames
from tests.kabuto.scenarios import EDGE, arena, empty, first_round, give, line_up, put, shove

TABLE = SeatNames(("Red", "Blue", "Green", "Purple"), ("team A", "team B"))


@given(st.integers(0, 10_000))
def test_every_place_string_reads_back_as_the_place_it_names(n):
    assert parse_place(seat_place(n)) == Place("seat", n)
    assert parse_place(team_place(n)) == Place("team", n)


@pytest.mark.parametrize("bad", ["seat:", "seat:-1", "team:x", "Seat:1", "supply:0", "", "hand"])
def test_a_string_that_is_no_place_is_refused(bad):
    with pytest.raises(ValueError, match="place"):
        parse_place(bad)
    assert parse_place(BOARD).kind == "board" and parse_place(SUPPLY).number is None


def test_check_push_refuses_exactly_what_push_refuses_and_changes_nothing():
    g = first_round(arena(2, ["rita", "hank"]))             # Charge waits for Rita's second turn
    give(g, "seat:0", "medium")
    before = g.to_json()
    checked = g.check_push("small", 200.0, 10.0, 0.3)
    assert g.to_json() == before                          # asking is not acting
    assert g.push("small", 200.0, 10.0, 0.3, end_turn=False).push == checked
    g.use_move(0, "Charge")
    for args in [("small", 150.0, 10.0, 0.3),            # the platform must stay for push two
                 ("large", 200.0, 10.0, 0.3),             # nothing of that kind to push
                 ("small", 200.0, 10.0, 9.0)]:            # faster than a hand may push
        with pytest.raises(IllegalMove) as asked:
            g.check_push(*args)
        with pytest.raises(IllegalMove) as done:
            g.push(*args)
        assert str(asked.value) == str(done.value)
    assert "platform must stay" in str(pytest.raises(IllegalMove, g.check_push, "small", 0.0).value)


def test_a_turn_has_a_push_left_until_it_is_made_and_charge_adds_one():
    g = first_round(arena(2, ["rita", "hank"]))             # Charge waits for Rita's second turn
    give(g, "seat:0", "medium")
    assert g.pushes_left == 1 and g.can_push
    g.push("small", 200.0, 10.0, 0.3, end_turn=False)
    assert g.pushes_left == 0 and not g.can_push and g.can_end_turn
    g.use_move(0, "Charge")
    assert g.pushes_left == 1 and g.can_push
    empty(g, "seat:0")                                    # a push left, but nothing to push
    assert g.pushes_left == 1 and not g.can_push


def test_a_direction_is_measured_from_the_piece_the_move_acts_on():
    g = arena(2, ["dora", "hank"])
    (roll_up,) = [m for m in g.available_moves(0) if m.name == "Roll Up"]
    assert [t.origin for t in roll_up.targets] == ["dora:wrestler"]
    give(g, "seat:0", "small", 2)
    g.use_move(0, "Roll Up", angle_deg=-45.0)               # towards the middle of the ring
    (ball,) = [p.id for p in g.world.pieces if p.kind == g.seats[0].wrestler.signature[0].kind]
    g.push("small", 200.0, 0.0, 0.3)
    g.push("small", 20.0, 0.0, 0.3)
    (roll,) = [m for m in g.available_moves(0) if m.name == "Roll"]
    assert roll.usable
    assert [t.origin for t in roll.targets] == [ball, ball]   # the ball rolls, not the wrestler


def test_results_and_places_read_in_the_names_the_game_is_given():
    g = arena(4)
    put(g, "hank:wrestler", EDGE, 0.0)                   # seat 1's wrestler (team 1)
    line_up(g, "hank:wrestler")
    shove(g, end_turn=False)                              # seat 0 (team 0) knocks it out
    engine = g.result_text()
    assert engine == g.result.text == "seat 0 (Mighty Jaw Mike) knocked out Hercules Hank and won"
    g.names = TABLE
    assert g.result_text() == "Red (Mighty Jaw Mike) knocked out Hercules Hank and won"
    assert g.result.text == engine                        # the record keeps the engine's words
    assert g.describe_place("team:1") == "team B's inventory"
    assert g.clone().result_text() == g.result_text()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_submission_is_told_in_either_words(players):
    g = arena(players)
    empty(g, g.seat_inventory(1))
    g.push("small", 180.0, 0.0, 0.3)
    if players == 3:                                       # seat 1 is out; seat 2 plays on
        empty(g, g.seat_inventory(0))
        g.push("small", 180.0, 0.0, 0.3)
    engine = g.result.text
    g.names = TABLE
    table = g.result_text()
    for i in range(players):
        engine = engine.replace(f"seat {i} (", f"{TABLE.seat(i)} (")
    assert table == engine.replace("team 1", "team B")
    assert "seat" not in table and g.is_over
