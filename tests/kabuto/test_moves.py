"""Each wrestler's signature moves, shown in the world: what moved, what fell, who got what; and
that a move which cannot be paid or performed says why and changes nothing."""
from __future__ import annotations

import json
import math

import pytest

from kabuto import Game, IllegalMove
from kabuto.rules.inventory import BOARD, SUPPLY
from physics import shapes
from tests.kabuto.scenarios import (
    arena,
    beside,
    check_conservation,
    empty,
    first_round,
    give,
    line_up,
    put,
    radius,
    shove,
    wide_circle,
)


def snap(g) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def refused(g, match: str, *args, **kw) -> None:
    """use_move(*args, **kw) is refused with ``match`` in the reason and changes nothing."""
    before = snap(g)
    with pytest.raises(IllegalMove, match=match):
        g.use_move(*args, **kw)
    assert snap(g) == before


# ----- Mighty Jaw Mike ----------------------------------------------------------------------------
def test_mandible_claw_pays_three_small_and_adds_the_large_disc():
    g = arena(2, ["mike", "hank"])
    give(g, "seat:0", "small", 1)                  # 3 small, 1 medium
    smalls = g.ledger.pieces_in("seat:0", "small")
    large_in_supply = g.ledger.count(SUPPLY, "large")
    o = g.use_move(0, "Mandible Claw")
    assert sorted(o.paid) == smalls and set(o.paid.values()) == {"seat:1"}
    assert all(g.locations()[s] == "seat:1" for s in smalls)
    assert g.ledger.contents("seat:0") == {"medium": 1, "large": 1}
    assert g.ledger.count(SUPPLY, "large") == large_in_supply - 1
    assert g.kind_of(o.gained[0]) == "large"
    check_conservation(g)


def test_mandible_claw_fails_cleanly_without_a_large_disc_in_the_supply():
    g = arena(2, ["mike", "hank"])
    give(g, "seat:0", "small", 1)
    for pid in g.ledger.pieces_in(SUPPLY, "large"):
        g.edit(pid, "seat:1")
    refused(g, "supply has no large disc", 0, "Mandible Claw")
    assert g.ledger.count("seat:0", "small") == 3


def test_mandible_claw_needs_three_small_discs():
    g = arena(2, ["mike", "hank"])
    refused(g, "costs 3 small", 0, "Mandible Claw")


def test_mandible_claw_in_3p_pays_the_chosen_opponent():
    g = arena(3, ["mike", "hank", "annie"])
    give(g, "seat:0", "small", 1)
    refused(g, "opponent", 0, "Mandible Claw")
    refused(g, "opponent", 0, "Mandible Claw", opponent=0)
    refused(g, "opponent", 0, "Mandible Claw", opponent="2")
    refused(g, "opponent", 0, "Mandible Claw", opponent=True)
    g.use_move(0, "Mandible Claw", opponent=2)
    assert g.ledger.count("seat:2", "small") == 2 + 3 and g.ledger.count("seat:1", "small") == 2


def _grip_circle(g):
    c = g.materials.ring.centre_radius
    rs, rl = radius(g, "small"), radius(g, "large")
    put(g, "S04", 0.0, 0.0)                                 # wholly inside
    put(g, "S01", c + rs - 0.002, 0.0)                   # 2 mm of it inside
    put(g, "S02", 0.0, -(c + rs + 0.001))                # 1 mm clear of the circle
    put(g, "L1", -(c + rl - 0.003), 0.0)                 # its rim 3 mm inside
    put(g, "S03", -(c + rl - 0.003), 0.0, base="L1")     # stacked on it, wholly outside
    half = max(x for part in g.materials.kinds["hank_bar"].shape.parts for x, _ in part)
    put(g, "hank:bar1", 0.0, c + half - 0.003, math.pi / 2)  # a signature piece poking in 3 mm


@pytest.mark.parametrize(("picked", "out_to"), [
    ("S04", {"S04": "seat:0"}), ("S01", {"S01": "seat:0"}),
    ("L1", {"L1": "seat:0", "S03": "seat:0"}),               # with the piece stacked on it
    ("hank:bar1", {"hank:bar1": SUPPLY}),                    # not a standard disc: not Mike's
])
def test_vice_grip_knocks_out_the_centre_circle_piece_mike_picks_with_its_stack(picked, out_to):
    """"If any part of a piece is inside and touching the center circle, immediately knock out that
    piece and all pieces stacked on it. Add all standard discs knocked out this way to your
    inventory." Mike may pick exactly the pieces touching the circle (the physics' own judgement);
    the one he picks goes with its stack, and everything else stays."""
    g = arena(2, ["mike", "hank"], materials=wide_circle())
    _grip_circle(g)
    inside = set(g.world.in_circle())
    assert inside == {"S04", "S01", "L1", "hank:bar1"}
    grip = {o.name: o for o in g.available_moves(0)}["Vice Grip"]
    assert {c for t in grip.targets if t.name == "piece" for c in t.choices} == inside
    o = g.use_move(0, "Vice Grip", piece=picked)
    assert {k.piece: k.to for k in o.knocked_out} == out_to
    assert all(g.locations()[p] == BOARD for p in ({"S02", "S03", *inside} - set(out_to)))
    assert o.paid and set(o.paid.values()) == {"seat:1"}
    # the turn counts the discs that went to Mike's hand (the AI credits them: ai.toml)
    assert g.turn.gained == sum(1 for to in out_to.values() if to == "seat:0")
    check_conservation(g)


def test_vice_grip_with_nothing_in_the_circle_is_refused():
    g = arena(2, ["mike", "hank"])
    refused(g, "no piece other than a wrestler is inside the centre circle", 0, "Vice Grip")


# ----- Hercules Hank ------------------------------------------------------------------------------
def test_horn_toss_adds_the_horn_bar_which_can_be_pushed_from_hanks_next_turn():
    """Horn Toss replaces Hank's turn (issue 16: tossed and pushed in one turn it won his first
    turn in 3P), so the bar waits in his inventory while the opponent plays."""
    g = arena(2, ["hank", "mike"])
    o = g.use_move(0, "Horn Toss")
    assert o.gained == ["hank:bar1"] and g.locations()["hank:bar1"] == "seat:0"
    assert list(o.paid.values()) == [SUPPLY]
    assert g.to_play == 1                                   # the toss was Hank's whole turn
    with pytest.raises(IllegalMove):
        g.push("hank:bar1", 180.0, 0.0, 0.3, spin_deg=90.0)
    g.push("small", 0.0, 0.0, 0.2)                          # Mike's turn
    p = g.push("hank:bar1", 180.0, 0.0, 0.3, spin_deg=90.0)
    assert g.locations()["hank:bar1"] == BOARD and p.kind == "hank_bar"
    g.push("small", 0.0, 0.0, 0.2)
    refused(g, "not in the supply|supply has no", 0, "Horn Toss")


def _hank_with_disc(blocker_gap: float | None = None):
    g = arena(2, ["hank", "mike"])
    put(g, "hank:wrestler", 0.0, 0.0, 0.0)
    x, y = beside(g, "hank:wrestler", "medium", 0.0)
    put(g, "M01", x, y)
    if blocker_gap is not None:
        put(g, "M02", x + 0.029 + blocker_gap, y)
    return g, (x, y)


def test_pitchfork_slides_a_touching_piece_20_mm_away():
    g, (x, y) = _hank_with_disc()
    assert "M01" in g.world.touching("hank:wrestler")
    o = g.use_move(0, "Pitchfork", piece="M01", distance_mm=20.0)
    p = g.world.piece("M01")
    assert math.isclose(p.x - x, 0.020, abs_tol=1e-9) and math.isclose(p.y, y, abs_tol=1e-12)
    assert o.moved == ["M01"] and "M01" not in g.world.touching("hank:wrestler")


def test_pitchfork_stops_at_the_first_piece_in_the_way():
    g, (x, y) = _hank_with_disc(blocker_gap=0.008)
    g.use_move(0, "Pitchfork", piece="M01", distance_mm=20.0)
    p = g.world.piece("M01")
    slop = g.materials.sim.collision_slop       # "touching": in contact within the slop
    assert 0.008 - slop < p.x - x <= 0.008 + slop
    assert "M02" in g.world.touching("M01")
    assert g.world.piece("M02").x == pytest.approx(x + 0.037)    # the blocker did not move


def test_pitchfork_needs_a_touching_piece_and_not_a_wrestler():
    g, _ = _hank_with_disc()
    put(g, "M03", -0.05, -0.05)
    refused(g, "choose a piece touching", 0, "Pitchfork", piece="M03", distance_mm=20.0)
    x, y = beside(g, "hank:wrestler", "mike_wrestler", 180.0, angle=math.pi)
    put(g, "mike:wrestler", x, y, math.pi)
    assert "mike:wrestler" in g.world.touching("hank:wrestler")
    refused(g, "choose a piece touching", 0, "Pitchfork", piece="mike:wrestler", distance_mm=20.0)


# ----- Atlas Annie --------------------------------------------------------------------------------
def test_tower_stacks_two_small_discs_and_gains_a_medium():
    """"Stack 2 small discs. Gain 1 medium disc." (docs/rules-notes.md, "Moves are credited what
    they gain"): the smalls go on the base, her hand trades them for a medium."""
    g = arena(2, ["annie", "hank"])
    put(g, "M01", 0.0, 0.0)
    smalls = g.ledger.pieces_in("seat:0", "small")[:2]
    o = g.use_move(0, "Tower", base="M01")
    assert {g.world.piece(s).base for s in smalls} <= {"M01", *smalls}
    assert sorted(g.world.levels()[s] for s in smalls) == [1, 2]
    assert g.kind_of(o.gained[0]) == "medium"
    assert g.ledger.contents("seat:0") == {"medium": 2}   # a piece fewer than before
    assert g.turn.gained == 1
    saved = g.to_json()  # a game saved mid-turn keeps the count
    assert Game.from_json(json.loads(json.dumps(saved))).turn.gained == 1
    saved["turn"]["gained"] = "lots"
    with pytest.raises(ValueError, match="gained"):
        Game.from_json(saved)
    check_conservation(g)


def test_tower_never_stacks_on_a_wrestler_piece():
    g = arena(2, ["annie", "hank"])
    put(g, "M01", 0.0, 0.0)
    opts = {o.name: o for o in g.available_moves(0)}
    assert "hank:wrestler" not in opts["Tower"].targets[0].choices
    refused(g, "nothing may be stacked", 0, "Tower", base="hank:wrestler")


def test_pieces_stack_only_on_the_same_size_or_larger_and_never_on_a_wrestler():
    """"Stack ... on top of another piece their same size or larger ... Pieces can never be stacked
    on a wrestler piece." The rules refuse any other stack - by a move or by arranging the board -
    saying why in words (no piece ids), and nothing changes. (Physically such a stack would stand:
    this is the game's rule, not the physics'.)"""
    g = arena(2, ["annie", "hank"])
    put(g, "S01", 0.0, 0.0)
    put(g, "M01", 0.0, 0.04)
    before = snap(g)
    with pytest.raises(IllegalMove, match="only on pieces of the same size or larger") as why:
        put(g, "L1", 0.0, 0.0, base="S01")
    assert "S01" not in str(why.value) and "L1" not in str(why.value) and "large disc" in str(why.value)
    with pytest.raises(IllegalMove, match="nothing may be stacked on a wrestler piece") as why:
        put(g, "S02", 0.035, -0.065, base="hank:wrestler")
    assert "hank" not in str(why.value)
    assert snap(g) == before
    put(g, "S02", 0.0, 0.0, base="S01")                   # the same size: allowed
    put(g, "S03", 0.0, 0.04, base="M01")                  # smaller on larger: allowed
    assert g.world.piece("S02").base == "S01" and g.world.piece("S03").base == "M01"
    opts = {o.name: o for o in g.available_moves(0)}
    assert set(opts["Tower"].targets[0].choices) == {"S01", "S02", "M01", "S03"}


def test_a_saved_game_with_a_stack_the_rules_forbid_does_not_load():
    g = arena(2, ["annie", "hank"])
    put(g, "S01", 0.0, 0.0)
    data = g.to_json()
    data["world"]["pieces"].append({"id": "L1", "kind": "large", "x": 0.0, "y": 0.0, "angle": 0.0,
                                    "base": "S01"})
    data["pieces"]["L1"]["place"] = BOARD
    with pytest.raises(ValueError, match="L1 is stacked on S01, but pieces stack only on pieces of "
                                         "the same size or larger"):
        type(g).from_json(data)


def test_raise_the_pillar_discards_a_medium_and_adds_the_pillar():
    g = arena(2, ["annie", "hank"])
    o = g.use_move(0, "Raise the Pillar")
    assert o.gained == ["annie:pillar1"] and g.ledger.contents("seat:0") == {"small": 2, "annie_pillar": 1}
    assert g.ledger.count(SUPPLY, "medium") >= 1


# ----- Rhino Rita ---------------------------------------------------------------------------------
def test_charge_allows_a_second_push_from_the_same_platform():
    g = first_round(arena(2, ["rita", "hank"]))             # Charge waits for Rita's second turn
    give(g, "seat:0", "medium")
    g.push("small", 200.0, 10.0, 0.3, end_turn=False)
    g.use_move(0, "Charge")
    assert g.locked_platform() == (200.0, 10.0)
    with pytest.raises(IllegalMove, match="platform must stay"):
        g.push("small", 150.0, 10.0, 0.3)
    second = g.push("small", 200.0, 10.0, 0.45, end_turn=False)
    assert second.seat == 0 and g.turn.pushes == 2
    with pytest.raises(IllegalMove, match="all 2 pushes"):
        g.push("medium", 200.0, 10.0, 0.3)
    g.end_turn()
    assert g.current_seat == 1


def test_charges_second_push_is_a_small_disc():
    g = first_round(arena(2, ["rita", "hank"]))
    give(g, "seat:0", "medium")
    give(g, "seat:0", "medium")
    g.push("medium", 200.0, 10.0, 0.3, end_turn=False)      # the first push may be any piece
    g.use_move(0, "Charge")
    assert g.legal_kinds() == ["small"]
    with pytest.raises(IllegalMove, match="this push must be a small disc"):
        g.push("medium", 200.0, 10.0, 0.3)
    assert g.turn.pushes == 1 and g.ledger.count("seat:0", "medium") == 1
    g.push("small", 200.0, 10.0, 0.3)
    assert g.current_seat == 1


def test_charge_needs_a_small_disc_for_its_second_push():
    g = first_round(arena(2, ["rita", "hank"]))
    give(g, "seat:0", "medium")
    give(g, "seat:0", "medium")
    for pid in g.ledger.pieces_in("seat:0", "small"):
        g.edit(pid, SUPPLY)
    (charge,) = [m for m in g.available_moves(0) if m.name == "Charge"]
    assert not charge.usable and "no small disc" in (charge.reason or "")
    with pytest.raises(IllegalMove, match="no small disc to push a second time"):
        g.use_move(0, "Charge")


@pytest.mark.parametrize("first_player", [0, 1])
def test_charge_waits_for_ritas_second_turn(first_player):
    # Two pushes down one line won on turn 1 on the 2P and 4P boards; Charge is not for a first
    # turn, whether Rita opens the game or replies.
    g = arena(2, ["rita", "hank"], first_player=first_player)
    give(g, "seat:0", "medium")
    if first_player == 1:
        g.push("small", 330.0, 0.0, 0.2)
    (charge,) = [m for m in g.available_moves(0) if m.name == "Charge"]
    assert not charge.usable and charge.reason == "Charge can be used from your second turn on"
    with pytest.raises(IllegalMove, match="from your second turn on"):
        g.use_move(0, "Charge")
    g.push("small", 30.0, 0.0, 0.2)
    g.push("small", 330.0, 0.0, 0.2)
    assert g.current_seat == 0 and g.turns_taken(0) == 1
    (charge,) = [m for m in g.available_moves(0) if m.name == "Charge"]
    assert charge.usable, charge.reason
    g.use_move(0, "Charge")
    assert g.pushes_left == 2


def test_a_turn_a_move_replaced_is_a_turn_taken():
    g = arena(2, ["hank", "mike"])
    assert g.turns_taken(0) == 0
    g.use_move(0, "Horn Toss")                            # "Replaces your turn."
    assert g.current_seat == 1 and g.turns_taken(0) == 1 and g.turns_taken(1) == 0
    g.push("small", 30.0, 0.0, 0.2)
    assert g.turns_taken(1) == 1


def test_without_charge_a_second_push_is_refused():
    g = arena(2, ["rita", "hank"])
    g.push("small", 200.0, 10.0, 0.3, end_turn=False)
    with pytest.raises(IllegalMove, match="already pushed"):
        g.push("small", 200.0, 10.0, 0.3)


def test_horn_hook_turns_the_wrestler_piece():
    g = arena(2, ["rita", "hank"])
    g.use_move(0, "Horn Hook", angle_deg=-90.0)
    assert g.world.piece("rita:wrestler").angle == pytest.approx(-math.pi / 2)


def test_horn_hook_pays_a_small_to_the_opponent():
    """"Pay 1 small disc to your opponent" (issue 42: free, Rita turned on almost every turn and won
    63% of her games): the small goes to the opponent, and nothing else changes hands."""
    g = arena(2, ["rita", "hank"])
    mine, theirs = len(g.inventory(0)), len(g.inventory(1))
    o = g.use_move(0, "Horn Hook", angle_deg=45.0)
    assert [g.kind_of(pid) for pid in o.paid] == ["small"] and list(o.paid.values()) == ["seat:1"]
    assert (len(g.inventory(0)), len(g.inventory(1))) == (mine - 1, theirs + 1)
    check_conservation(g)


def test_horn_hook_is_not_offered_without_a_small():
    g = arena(2, ["rita", "hank"])
    empty(g, "seat:0")
    give(g, "seat:0", "medium", 2)
    (hook,) = [o for o in g.available_moves(0) if o.name == "Horn Hook"]
    assert not hook.usable
    refused(g, "small", 0, "Horn Hook", angle_deg=45.0)
    give(g, "seat:0", "small", 1)
    (hook,) = [o for o in g.available_moves(0) if o.name == "Horn Hook"]
    assert hook.usable


def test_horn_hook_cannot_turn_into_a_neighbour():
    g = arena(2, ["rita", "hank"])
    put(g, "rita:wrestler", 0.0, 0.0, 0.0)
    put(g, "S01", *beside(g, "rita:wrestler", "small", 80.0))   # beside her, in the horn's path
    refused(g, "cannot turn", 0, "Horn Hook", angle_deg=90.0)


# ----- Goliath Gus --------------------------------------------------------------------------------
def test_body_slam_knocks_out_a_disc_touching_an_opponent_and_replaces_the_turn():
    g = arena(2, ["gus", "hank"])
    give(g, "seat:0", "small", 1)
    x, y = beside(g, "hank:wrestler", "large", 90.0)
    put(g, "L1", x, y)
    put(g, "S01", x, y, base="L1")
    o = g.use_move(0, "Body Slam", piece="L1")
    assert {k.piece: k.to for k in o.knocked_out} == {"L1": "seat:0", "S01": "seat:0"}
    assert o.turn_ended and g.current_seat == 1
    assert not any(a["type"] == "push" for a in g.history)


def test_body_slam_must_come_before_any_push_or_other_move():
    g = arena(2, ["gus", "hank"])
    give(g, "seat:0", "small", 2)
    x, y = beside(g, "hank:wrestler", "large", 90.0)
    put(g, "L1", x, y)
    g.push("medium", 200.0, 0.0, 0.2, end_turn=False)
    refused(g, "replaces your turn", 0, "Body Slam", piece="L1")


def test_body_slam_only_standard_discs_touching_an_opponent():
    g = arena(2, ["gus", "hank"])
    put(g, "L1", 0.0, 0.0)
    refused(g, "no standard disc is touching", 0, "Body Slam", piece="L1")


def test_boulder_drop_stacks_the_boulder_on_a_large_disc():
    g = arena(2, ["gus", "hank"])
    put(g, "L1", 0.0, 0.0)
    put(g, "M01", 0.0, 0.04)
    refused(g, "choose a large disc", 0, "Boulder Drop", base="M01")
    o = g.use_move(0, "Boulder Drop", base="L1")
    assert o.placed == ["gus:boulder1"]
    b = g.world.piece("gus:boulder1")
    assert b.base == "L1" and g.world.levels()["gus:boulder1"] == 1
    assert g.locations()["gus:boulder1"] == BOARD


def test_boulder_drop_needs_a_large_disc_on_the_board():
    g = arena(2, ["gus", "hank"])
    refused(g, "no large disc on the board", 0, "Boulder Drop", base="L1")


# ----- Jewel Jade ---------------------------------------------------------------------------------
def test_sparkle_adds_one_gem_at_a_time_until_none_is_left():
    g = arena(2, ["jade", "hank"])
    give(g, "seat:0", "small", 4)
    give(g, "seat:1", "small", 2)
    gained = []
    for _ in range(3):
        gained += g.use_move(0, "Sparkle").gained
        g.push("small", 200.0, 0.0, 0.2)
        g.push("small", 20.0, 0.0, 0.2)
    assert gained == ["jade:gem1", "jade:gem2", "jade:gem3"]
    refused(g, "no Gem", 0, "Sparkle")


def test_sparkle_is_free():
    """Design round 2 (issue 16): a Gem costs Jade nothing; her inventory keeps every disc."""
    g = arena(2, ["jade", "hank"])
    before = g.ledger.pieces_in("seat:0")
    o = g.use_move(0, "Sparkle")
    assert o.gained == ["jade:gem1"] and not o.paid
    assert sorted(g.ledger.pieces_in("seat:0")) == sorted([*before, "jade:gem1"])
    check_conservation(g)


def test_mirror_shell_swaps_the_wrestler_and_a_touching_disc():
    g = arena(2, ["jade", "hank"])
    put(g, "jade:wrestler", 0.0, 0.0, 0.0)
    x, y = beside(g, "jade:wrestler", "large", 90.0)
    put(g, "L1", x, y)
    o = g.use_move(0, "Mirror Shell", piece="L1")
    w, d = g.world.piece("jade:wrestler"), g.world.piece("L1")
    assert (w.x, w.y) == (pytest.approx(x), pytest.approx(y)) and (d.x, d.y) == (0.0, 0.0)
    assert o.turn_ended and g.current_seat == 1


def test_mirror_shell_refused_when_the_wrestler_does_not_fit():
    g = arena(2, ["jade", "hank"])
    put(g, "jade:wrestler", 0.0, 0.0, 0.0)
    x, y = beside(g, "jade:wrestler", "small", 90.0)
    put(g, "S01", x, y)
    put(g, "M01", x + radius(g, "small") + radius(g, "medium") + 0.0005, y)   # crowds the small disc's spot: the jewel beetle won't fit
    refused(g, "does not fit", 0, "Mirror Shell", piece="S01")


# ----- Dung Dora ----------------------------------------------------------------------------------
def test_roll_up_places_the_dung_ball_touching_the_wrestler():
    g = arena(2, ["dora", "hank"])
    put(g, "dora:wrestler", 0.0, 0.0, 0.0)
    o = g.use_move(0, "Roll Up", angle_deg=135.0)
    assert o.placed == ["dora:ball1"]
    ball = g.world.piece("dora:ball1")
    assert "dora:wrestler" in g.world.touching("dora:ball1")
    assert math.degrees(math.atan2(ball.y, ball.x)) == pytest.approx(135.0)


def test_roll_up_refused_when_the_side_is_blocked():
    g = arena(2, ["dora", "hank"])
    put(g, "dora:wrestler", 0.0, 0.0, 0.0)
    x, y = beside(g, "dora:wrestler", "medium", 0.0)
    put(g, "M01", x, y)
    refused(g, "does not fit", 0, "Roll Up", angle_deg=0.0)


def _ball_on_board():
    g = arena(2, ["dora", "hank"])
    g.edit("dora:ball1", BOARD, 0.0, 0.0, 0.0)
    return g


def test_roll_slides_the_dung_ball():
    g = _ball_on_board()
    g.use_move(0, "Roll", angle_deg=0.0, distance_mm=12.0)
    b = g.world.piece("dora:ball1")
    assert b.x == pytest.approx(0.012) and b.y == pytest.approx(0.0, abs=1e-12)


def test_roll_stops_at_the_first_piece_in_its_way():
    g = _ball_on_board()
    ball = g.materials.kinds["dora_ball"].size
    ahead = ball + radius(g, "small") + 0.005
    put(g, "S01", ahead, 0.0)                    # 5 mm ahead of the ball
    g.use_move(0, "Roll", angle_deg=0.0, distance_mm=25.0)
    slop = g.materials.sim.collision_slop
    assert 0.005 - slop < g.world.piece("dora:ball1").x <= 0.005 + slop
    assert g.world.piece("S01").x == pytest.approx(ahead)


def test_roll_off_the_edge_knocks_the_ball_out_to_the_supply():
    g = arena(2, ["dora", "hank"])
    g.edit("dora:ball1", BOARD, g.materials.ring.radius - 0.010, 0.0, 0.0)   # 10 mm from the edge
    o = g.use_move(0, "Roll", angle_deg=0.0, distance_mm=20.0)
    assert [(k.piece, k.to) for k in o.knocked_out] == [("dora:ball1", SUPPLY)]


def test_roll_needs_the_ball_on_the_ring():
    g = arena(2, ["dora", "hank"])
    refused(g, "not on the ring", 0, "Roll", angle_deg=0.0, distance_mm=5.0)


# ----- Bombardier Bea -----------------------------------------------------------------------------
def test_smokescreen_pushes_from_the_opponents_inventory():
    g = arena(2, ["bea", "hank"])
    put(g, "M01", 0.082, 0.0)
    line_up(g, "M01")
    g.use_move(0, "Smokescreen")
    assert g.legal_pieces() == g.inventory(1)
    theirs = g.ledger.pieces_in("seat:1", "medium")[0]
    with pytest.raises(IllegalMove, match="not in that opponent's inventory"):
        g.push(g.inventory(0)[0], 180.0)
    o = shove(g, theirs)
    assert o.piece == theirs
    assert ("M01", "seat:0") in [(k.piece, k.to) for k in o.knocked_out]   # still Bea's gain


def test_smokescreen_pays_two_smalls_so_the_opponent_ends_a_piece_up():
    """"Pay 2 small discs to your opponent. This turn, push a piece from your opponent's
    inventory" (issue 16 made it a payment; issue 42 raised it from one small, Bea winning 61% of
    her games): the opponent gains Bea's two smalls and loses only the piece pushed."""
    g = arena(2, ["bea", "hank"])
    mine, theirs = len(g.inventory(0)), len(g.inventory(1))
    g.use_move(0, "Smokescreen")
    assert (len(g.inventory(0)), len(g.inventory(1))) == (mine - 2, theirs + 2)
    g.push(g.ledger.pieces_in("seat:1", "medium")[0], 90.0, 0.0, 0.1)
    assert len(g.inventory(1)) == theirs + 1


def test_smokescreen_is_not_offered_with_a_single_small_in_hand():
    g = arena(2, ["bea", "hank"])
    empty(g, "seat:0")
    give(g, "seat:0", "small", 1)
    give(g, "seat:0", "medium", 1)
    (smoke,) = [o for o in g.available_moves(0) if o.name == "Smokescreen"]
    assert not smoke.usable
    refused(g, "small", 0, "Smokescreen")
    give(g, "seat:0", "small", 1)
    (smoke,) = [o for o in g.available_moves(0) if o.name == "Smokescreen"]
    assert smoke.usable


def test_smokescreen_must_precede_the_push():
    g = arena(2, ["bea", "hank"])
    g.push("small", 200.0, 0.0, 0.2, end_turn=False)
    refused(g, "no push left", 0, "Smokescreen")


def test_stink_bomb_pays_a_small_and_adds_the_bomb():
    g = arena(2, ["bea", "hank"])
    o = g.use_move(0, "Stink Bomb")
    assert o.gained == ["bea:bomb1"] and list(o.paid.values()) == ["seat:1"]
    assert g.ledger.kind(next(iter(o.paid))) == "small"


# ----- rules every move shares --------------------------------------------------------------------
def test_only_the_player_to_move_may_use_moves():
    g = arena(2, ["mike", "hank"])
    refused(g, "seat 0's turn", 1, "Horn Toss")


def test_unknown_moves_and_targets_are_refused():
    g = arena(2, ["hank", "mike"])
    refused(g, "no move 'Vice Grip'", 0, "Vice Grip")
    refused(g, "takes no target", 0, "Horn Toss", piece="S01")
    put(g, "hank:wrestler", 0.0, 0.0, 0.0)
    x, y = beside(g, "hank:wrestler", "medium", 0.0)
    put(g, "M01", x, y)
    refused(g, "needs piece", 0, "Pitchfork")


def test_a_move_that_would_leave_nothing_to_push_is_refused():
    g = arena(2, ["hank", "mike"])
    empty(g, "seat:0")
    give(g, "seat:0", "small", 1)
    x, y = beside(g, "hank:wrestler", "medium", -90.0)
    put(g, "M01", x, y)
    refused(g, "nothing to push", 0, "Pitchfork", piece="M01", distance_mm=20.0)
    opts = {o.name: o for o in g.available_moves(0)}
    assert not opts["Pitchfork"].usable and "nothing to push" in opts["Pitchfork"].reason


def test_available_moves_lists_targets_and_reasons():
    g = arena(3, ["annie", "mike", "gus"])
    put(g, "M01", 0.0, 0.0)
    opts = {o.name: o for o in g.available_moves(0)}
    tower = opts["Tower"]
    assert tower.usable and [t.name for t in tower.targets] == ["base"]
    assert "M01" in tower.targets[0].choices
    assert not any(c.endswith(":wrestler") for c in tower.targets[0].choices)
    assert opts["Raise the Pillar"].usable
    mike = {o.name: o for o in g.available_moves(1)}
    assert not mike["Mandible Claw"].usable and "turn" in mike["Mandible Claw"].reason
    grip = {t.name: t for t in mike["Vice Grip"].targets}
    assert list(grip) == ["opponent", "piece"]                # whom to pay, which piece to take
    assert grip["piece"].choices == ("M01",)                  # the one piece in the circle


def test_moves_are_a_junior_league_absence():
    g = arena(2, junior=True)
    assert g.available_moves(0) == []
    refused(g, "Junior League", 0, "Horn Toss")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_move_is_discoverable_with_kinds_of_targets(players):
    from kabuto.rules.wrestlers import load_wrestlers

    keys = [w.key for w in load_wrestlers()]
    for start in range(0, 8, players):
        ws = [keys[(start + i) % 8] for i in range(players)]
        g = arena(players, ws)
        for seat in range(players):
            for o in g.available_moves(seat):
                assert o.usable or o.reason
                assert all(t.kind in ("seat", "piece", "angle_deg", "distance_mm") for t in o.targets)


def test_shapes_of_placed_signature_pieces_stay_inside_the_ring():
    g = arena(2, ["dora", "hank"])
    put(g, "dora:wrestler", 0.0, 0.0, 0.0)
    g.use_move(0, "Roll Up", angle_deg=45.0)
    b = g.world.piece("dora:ball1")
    _, far = shapes.extent_from_origin(g.materials.kinds["dora_ball"].shape, b.x, b.y, b.angle)
    assert far < g.materials.ring.radius


# ----- issue 16: rules defects a player noticed -----------------------------------------------------
def test_smokescreen_is_not_offered_when_the_opponents_inventory_is_empty():
    """Bea's Smokescreen ("push a piece from your opponent's inventory") is greyed out, with a reason
    in words, when there is nothing there to push, and using it anyway is refused."""
    g = arena(2, ["bea", "hank"])
    empty(g, "seat:1")
    (smoke,) = [o for o in g.available_moves(0) if o.name == "Smokescreen"]
    assert not smoke.usable
    assert "opponent's inventory is empty" in smoke.reason and ":" not in smoke.reason.split(",")[0]
    refused(g, "inventory is empty", 0, "Smokescreen")
    give(g, "seat:1", "small", 1)                   # something to push again: offered again
    (smoke,) = [o for o in g.available_moves(0) if o.name == "Smokescreen"]
    assert smoke.usable and smoke.reason is None


def test_smokescreen_in_3p_is_offered_while_some_opponent_has_pieces():
    g = arena(3, ["bea", "hank", "annie"])
    empty(g, "seat:1")
    (smoke,) = [o for o in g.available_moves(0) if o.name == "Smokescreen"]
    assert smoke.usable
    refused(g, "inventory is empty", 0, "Smokescreen", opponent=1)
    empty(g, "seat:2")
    (smoke,) = [o for o in g.available_moves(0) if o.name == "Smokescreen"]
    assert not smoke.usable and "every opponent's inventory is empty" in smoke.reason


def test_pitchfork_slides_up_to_20_mm_as_far_as_the_player_asks():
    """"Slide it straight away from your wrestler piece up to 20 mm": asked for 7 mm, it moves 7 mm."""
    g, (x, y) = _hank_with_disc()
    (fork,) = [o for o in g.available_moves(0) if o.name == "Pitchfork"]
    (dist,) = [t for t in fork.targets if t.name == "distance_mm"]
    assert dist.high == 20.0                                # what the card prints
    g.use_move(0, "Pitchfork", piece="M01", distance_mm=7.0)
    p = g.world.piece("M01")
    assert math.isclose(p.x - x, 0.007, abs_tol=1e-9) and math.isclose(p.y, y, abs_tol=1e-12)


def test_pitchfork_refuses_a_slide_longer_than_the_card_allows():
    g, _ = _hank_with_disc()
    refused(g, "up to 20 mm", 0, "Pitchfork", piece="M01", distance_mm=25.0)
    refused(g, "up to 20 mm", 0, "Pitchfork", piece="M01", distance_mm=0.0)


def test_pitchfork_asked_for_less_still_stops_at_the_first_piece_in_the_way():
    g, (x, y) = _hank_with_disc(blocker_gap=0.004)
    g.use_move(0, "Pitchfork", piece="M01", distance_mm=10.0)
    slop = g.materials.sim.collision_slop
    assert 0.004 - slop < g.world.piece("M01").x - x <= 0.004 + slop


def test_roll_up_never_leaves_the_dung_ball_hanging_over_the_edge():
    """"Place it on the ring": with the wrestler at the edge, the outward side is refused in words and
    nothing changes; the inward side places the ball wholly on the ring."""
    g = arena(2, ["dora", "hank"])
    R = g.world.ring.radius
    wsize = g.materials.kinds[g.world.piece("dora:wrestler").kind].size
    put(g, "dora:wrestler", R - wsize - 0.001, 0.0, 0.0)      # the wrestler itself wholly on the ring
    refused(g, "hang over the edge", 0, "Roll Up", angle_deg=0.0)
    g.use_move(0, "Roll Up", angle_deg=180.0)
    ball = g.world.piece("dora:ball1")
    _, far = shapes.extent_from_origin(g.materials.kinds[ball.kind].shape, ball.x, ball.y, ball.angle)
    assert far <= R


def _saved_with(g, extra: dict[str, dict[str, str]]) -> dict:
    data = json.loads(json.dumps(g.to_json()))
    data["pieces"].update(extra)
    return data


def test_a_saved_game_with_more_discs_than_the_box_holds_is_refused():
    g = arena(2, ["mike", "hank"])
    box = {"small": 20, "large": 5}
    more = {f"S{i:02d}": {"kind": "small", "place": "seat:0"} for i in range(21, 31)}
    with pytest.raises(ValueError, match=f"30 small discs, but the box holds only {box['small']}"):
        type(g).from_json(_saved_with(g, more))
    more = {"L6": {"kind": "large", "place": "supply"}}
    with pytest.raises(ValueError, match=f"6 large discs, but the box holds only {box['large']}"):
        type(g).from_json(_saved_with(g, more))


def test_a_saved_game_with_an_unknown_piece_is_refused():
    g = arena(2, ["mike", "hank"])
    with pytest.raises(ValueError, match="'jade:gem1' is not a piece of this game"):
        type(g).from_json(_saved_with(g, {"jade:gem1": {"kind": "jade_gem", "place": "supply"}}))
    data = _saved_with(g, {})
    data["pieces"]["S01"]["kind"] = "large"
    data["pieces"]["S02"]["kind"] = "large"
    with pytest.raises(ValueError, match="S0[12] is a small disc|box holds"):
        type(g).from_json(data)
