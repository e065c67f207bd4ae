"""Where knocked-out pieces go, and who wins when several wrestlers fall at once, in 2, 3 and 4P.

Every knock-out here is a legal push (at most the rules' hand speed) along a line of touching discs
(:func:`~tests.kabuto.scenarios.line_up`) that ends with the pieces near the far edge."""
from __future__ import annotations

import math

import pytest

from kabuto import IllegalMove
from kabuto.rules.inventory import BOARD, SUPPLY
from tests.kabuto.scenarios import (
    EDGE,
    FAST_SPEED,
    arena,
    check_conservation,
    empty,
    fast_hands,
    give,
    line_up,
    put,
    shove,
    wide_circle,
)


def _routes(outcome) -> dict[str, str]:
    return {k.piece: k.to for k in outcome.knocked_out}


@pytest.mark.parametrize("players, pusher, inventory", [
    (2, 0, "seat:0"), (2, 1, "seat:1"),
    (3, 1, "seat:1"), (3, 2, "seat:2"),
    (4, 2, "team:0"), (4, 3, "team:1"),
])
def test_standard_discs_go_to_the_pushers_inventory(players, pusher, inventory):
    g = arena(players, first_player=pusher)
    put(g, "M01", EDGE, 0.0)
    put(g, "S01", EDGE - 0.005, 0.030)      # off the line: stays
    line_up(g, "M01")
    o = shove(g)
    assert _routes(o).get("M01") == inventory
    assert g.locations()["M01"] == inventory and g.locations()["S01"] == BOARD
    assert "M01" in o.gained[inventory]
    check_conservation(g)


def test_the_pushed_piece_itself_falling_returns_to_the_pusher():
    # A legal push stops well inside the ring, so the pushed piece itself only falls when it is
    # shoved harder than the rules allow: fast hands, straight across the empty middle.
    g = arena(2, materials=fast_hands())
    o = g.push("medium", 180.0, 0.0, FAST_SPEED)
    assert _routes(o) == {o.piece: "seat:0"}
    assert g.locations()[o.piece] == "seat:0"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_signature_pieces_return_to_the_supply(players):
    g = arena(players, ["hank", "mike", "annie", "rita"][:players])
    put(g, "hank:bar1", EDGE - 0.022, 0.0, math.pi / 2)
    put(g, "M01", EDGE, 0.0)
    line_up(g, "hank:bar1")
    o = shove(g)
    assert _routes(o)["hank:bar1"] == SUPPLY
    assert _routes(o)["M01"] == g.seat_inventory(0)


@pytest.mark.parametrize("players, wrestlers, bar_home", [
    (2, ["jade", "hank"], "seat:1"),                    # the opponent's Horn Bar goes back to them
    (4, ["jade", "hank", "dora", "gus"], "team:1"),     # ... to Hank's team
])
def test_junior_league_signature_pieces_return_to_their_wrestler(players, wrestlers, bar_home):
    """Junior League: "If a signature piece ever falls out of the sumo ring, immediately return it to
    its wrestler's inventory." """
    g = arena(players, wrestlers, junior=True)
    put(g, "hank:bar1", EDGE - 0.022, 0.0, math.pi / 2)
    put(g, "M01", EDGE, 0.0)
    give(g, "seat:0" if players == 2 else "team:0", "medium")
    line_up(g, "hank:bar1")
    o = shove(g)
    assert _routes(o)["hank:bar1"] == bar_home
    assert _routes(o)["M01"] == g.seat_inventory(0)     # standard discs as usual


def test_junior_league_pushing_your_own_signature_piece_out_returns_it():
    g = arena(2, ["dora", "hank"], junior=True, materials=fast_hands())
    # Shoved harder than the rules allow, straight across the empty middle and off the far edge.
    o = g.push("dora:ball1", 180.0, 0.0, FAST_SPEED)
    assert _routes(o) == {"dora:ball1": "seat:0"}


def test_knocked_out_wrestler_pieces_go_to_the_supply():
    g = arena(2)
    put(g, "hank:wrestler", EDGE, 0.0)
    line_up(g, "hank:wrestler")
    o = shove(g)
    assert _routes(o)["hank:wrestler"] == SUPPLY and o.wrestlers_out == [1]
    check_conservation(g)


def test_a_push_that_knocks_out_nothing_changes_no_inventory():
    g = arena(2)
    before = {p: pl for p, pl in g.locations().items()}
    o = g.push("small", 180.0, 0.0, 0.2)
    after = g.locations()
    assert o.knocked_out == []
    assert {p for p in after if after[p] != before[p]} == {o.piece}


# ----- several wrestlers at once ------------------------------------------------------------------
def test_3p_knocking_out_two_opponents_wins():
    g = arena(3)
    give(g, "seat:0", "large")
    put(g, "annie:wrestler", 0.080, 0.0)
    put(g, "hank:wrestler", 0.045, 0.0)
    line_up(g, "hank:wrestler")
    o = shove(g, "large")
    assert {"annie:wrestler", "hank:wrestler"} <= set(_routes(o))
    assert g.winner == 0 and g.result.reason == "knockout"


def test_3p_own_knock_out_eliminates_the_pusher_and_the_others_play_on():
    g = arena(3)
    put(g, "mike:wrestler", EDGE, 0.0)
    line_up(g, "mike:wrestler")
    o = shove(g)
    assert "mike:wrestler" in _routes(o)
    assert not g.is_over and g.out == {0: "own_knockout"} and o.eliminated == [0]
    assert g.current_seat == 1 and o.turn_ended
    g.push("small", 90.0, 0.0, 0.3)
    g.push("small", 90.0, 0.0, 0.3)
    assert g.current_seat == 1                # seat 0 never plays again


def test_3p_own_knock_out_with_another_leaves_the_third_player_the_winner():
    g = arena(3)
    give(g, "seat:0", "large")
    put(g, "mike:wrestler", 0.080, 0.0)       # the pusher's own
    put(g, "hank:wrestler", 0.045, 0.0)       # seat 1's
    line_up(g, "hank:wrestler")
    o = shove(g, "large")
    assert {"mike:wrestler", "hank:wrestler"} <= set(_routes(o))
    assert g.is_over and g.winner == 2 and g.result.reason == "last_standing"
    assert set(o.eliminated) == {0, 1}


def test_3p_own_knock_out_after_an_elimination_ends_it():
    g = arena(3)
    empty(g, "seat:1")
    g.push("small", 90.0, 0.0, 0.3)           # seat 0; seat 1 cannot play and is eliminated
    g.push("small", 90.0, 0.0, 0.3)           # seat 2
    put(g, "mike:wrestler", EDGE, 0.0)
    line_up(g, "mike:wrestler")
    shove(g)                                  # seat 0 knocks out their own wrestler
    assert g.is_over and g.winner == 2 and g.result.reason == "last_standing"


@pytest.mark.usefixtures("grip_takes_wrestlers")
@pytest.mark.parametrize("picked", ["hank:wrestler", "mike:wrestler"])
def test_3p_vice_grip_with_every_wrestler_in_the_circle_takes_only_the_one_picked(picked):
    """All three wrestlers touch the circle; Mighty Jaw Mike's Vice Grip knocks out the one he picks
    ("that piece") and no other. An opponent's wins him the game; his own puts him out, and the
    other two play on."""
    g = arena(3, ["mike", "hank", "annie"], materials=wide_circle())
    d = g.materials.ring.centre_radius + 0.006             # 6 mm outside the circle: each outline
    for key, deg in (("mike", 90), ("hank", 210), ("annie", 330)):   # reaches further than that
        put(g, f"{key}:wrestler", d * math.cos(math.radians(deg)), d * math.sin(math.radians(deg)))
    assert set(g.world.in_circle()) == {"mike:wrestler", "hank:wrestler", "annie:wrestler"}
    o = g.use_move(0, "Vice Grip", opponent=1, piece=picked)
    assert [k.piece for k in o.knocked_out] == [picked]
    if picked == "hank:wrestler":
        assert g.is_over and g.winner == 0 and g.result.reason == "knockout"
    else:
        assert not g.is_over and g.current_seat == 1
        assert {"hank:wrestler", "annie:wrestler"} <= set(g.world.in_circle())


def test_4p_knocking_out_your_teammates_wrestler_loses():
    g = arena(4)                              # team 0: seats 0 and 2 (Annie is seat 2)
    put(g, "annie:wrestler", EDGE, 0.0)
    line_up(g, "annie:wrestler")
    shove(g)
    assert g.is_over and g.winner == 1 and g.result.seats == (1, 3)
    assert g.result.reason == "own_knockout"


def test_4p_own_team_and_opponent_falling_together_loses():
    g = arena(4)
    give(g, "team:0", "large")
    put(g, "annie:wrestler", 0.080, 0.0)      # teammate's
    put(g, "hank:wrestler", 0.045, 0.0)       # an opponent's
    line_up(g, "hank:wrestler")
    o = shove(g, "large")
    assert {"annie:wrestler", "hank:wrestler"} <= set(_routes(o))
    assert g.winner == 1


@pytest.mark.usefixtures("grip_takes_wrestlers")
def test_vice_grip_knocking_out_an_opponents_wrestler_wins():
    g = arena(2, ["mike", "hank"])
    # Hank faces along x, his outline 7 mm to either side: 2 mm of it inside the circle.
    put(g, "hank:wrestler", 0.0, g.materials.ring.centre_radius + 0.005)
    assert "hank:wrestler" in g.world.in_circle()
    g.use_move(0, "Vice Grip", piece="hank:wrestler")
    assert g.is_over and g.winner == 0 and g.result.reason == "knockout"
    with pytest.raises(IllegalMove, match="over"):
        g.push("small", 0.0)
