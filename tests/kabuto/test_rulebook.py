"""Every sentence of the rulebook's Setup, Gameplay, 4 Player Team Play and Game End sections, each
quoted in the docstring of a test that shows it holding in the engine.

``test_every_sentence_has_a_test`` fails if a sentence below is not quoted by some test here.
"""
from __future__ import annotations

import inspect
import math
import re
import sys
from collections import Counter

import pytest

from kabuto import Game, IllegalMove
from kabuto.rules.inventory import BOARD, SUPPLY
from physics import Materials, shapes
from tests.kabuto.scenarios import EDGE, arena, check_conservation, empty, give, line_up, put, radius, shove

SENTENCES = {
    "Setup": [
        "Place the sumo ring in the center of the table.",
        "Each player selects one wrestler card to be their persona for the game, by personal "
        "preference or at random.",
        "Find the signature pieces shown on the Wrestler cards and set them aside in the general "
        "supply, they may come into play later.",
        "You do NOT start with your wrestler's signature pieces in your inventory.",
        "Each player chooses a wrestler piece and places the matching reference token in front of them.",
        "Place the wrestler pieces, and the small, medium, and large discs in the spaces according "
        "to the Wrestler Count Diagrams.",
        "Set the remaining discs aside near the play area as a general supply.",
        "In front of each player or team, place the specified discs to create their inventory.",
        "The youngest player goes first, or randomly choose a starting player.",
        "Only the 3rd player starts with 2 Medium Discs.",
        "Each team gets 1 Medium Disc and 2 Small Discs.",
    ],
    "Gameplay": [
        "Players take turns sliding any piece from their inventory onto the board in a straight line.",
        "The first player to push an opposing wrestler piece out of the ring wins.",
        "Each player or team takes a turn, continuing clockwise around the table until the end of "
        "the game.",
        "Push one piece from your inventory in a straight line onto the board.",
        "You do not need to push towards the center of the ring.",
        "Any standard discs that fall out of the ring as a result of your push are added to your "
        "inventory, signature pieces return to the supply.",
        "Signature Moves: Before or after your push, you may perform some or all of your wrestler's "
        "signature moves.",
        "Each signature move may be used at most once per turn.",
        "Note: If any pieces accidentally fall out of the ring NOT as the result of a player pushing "
        "a piece onto the board, return those pieces to the general supply.",
        "Position the pushing platform anywhere you like against the outside of the ring.",
        "Place your piece on the platform.",
        "Carefully push from the rear of the piece in a straight line with consistent pressure.",
        "No changing direction or flicking allowed!",
        "Immediately stop pushing when the piece completely enters the ring.",
    ],
    "4 Player Team Play": [
        "Teams alternate turns.",
        "One teammate pushes per turn, on the next turn the other pushes.",
        "Players on a team share an inventory.",
        "A player may push any piece in the team inventory (including a teammate's signature piece), "
        "but can only use their own wrestler's signature moves.",
    ],
    "Game End": [
        "The first player or team that pushes an opponent's wrestler piece out of the ring instantly wins.",
        "Example: In a 3 player game, if Player A knocks out Player C, the game is over - even if "
        "Player B is in the ring.",
        "If you knock out your own wrestler piece (even if you knock out another wrestler), you lose "
        "the match.",
        "In a 2 or 4 player game, the game can end once a player or team runs out of pieces in their "
        "inventory and cannot take their turn.",
        "The other team wins!",
        "In a 3 wrestler game, if a player runs out of pieces in their inventory they are eliminated.",
        "Keep their wrestler piece on the board as it will continue to be in play and can be knocked "
        "out by a remaining player for the win.",
    ],
}


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_every_sentence_has_a_test():
    docs = [_flat(inspect.getdoc(f) or "") for name, f in inspect.getmembers(sys.modules[__name__])
            if name.startswith("test_") and callable(f)]
    missing = [s for section in SENTENCES.values() for s in section
               if not any(_flat(s) in d for d in docs)]
    assert not missing, f"sentences without a test: {missing}"


def _driven_samples(result, pid):
    """(x, y) of the pushed piece at each 60 Hz sample while the hand still drove it."""
    traj = result.trajectory
    col = traj.ids.index(pid)
    n = int(result.released_at * traj.rate)
    return [tuple(traj.poses[t, col, :2]) for t in range(n + 1)]


def _line_distance(p, origin, direction):
    dx, dy = p[0] - origin[0], p[1] - origin[1]
    return abs(dx * direction[1] - dy * direction[0])


# ===== Setup ======================================================================================
def test_setup_the_ring_is_in_the_centre():
    """Place the sumo ring in the center of the table.

    The ring is the physics world's, centred on the origin: every piece is on it, and the pushing
    platform sits against its edge at the ring's radius."""
    g = Game.new(players=2, seed=0)
    R = g.materials.ring.radius
    assert all(math.hypot(p.x, p.y) < R for p in g.world.pieces)
    push = g.preview_push("small", 33.0).push
    assert math.isclose(math.hypot(*push.entry_point(R)), R)


def test_setup_wrestler_cards_by_preference_or_at_random():
    """Each player selects one wrestler card to be their persona for the game, by personal
    preference or at random."""
    g = Game.new(players=3, wrestlers=["Hercules Hank", "mike", "DORA"])
    assert [s.wrestler.key for s in g.seats] == ["hank", "mike", "dora"]
    drawn = [Game.new(players=4, seed=s).setup.wrestlers for s in range(6)]
    assert all(len(set(w)) == 4 for w in drawn)                          # one card per player
    assert len(set(drawn)) > 1                                           # the draw varies
    assert Game.new(players=4, seed=3).setup.wrestlers == drawn[3]       # and is reproducible
    with pytest.raises(ValueError, match="one player only"):
        Game.new(players=2, wrestlers=["mike", "mike"])


def test_setup_signature_pieces_start_in_the_supply():
    """Find the signature pieces shown on the Wrestler cards and set them aside in the general
    supply, they may come into play later."""
    g = Game.new(players=4, wrestlers=["hank", "jade", "dora", "mike"])
    sig = [pid for s in g.seats for pid in s.wrestler.signature_ids()]
    assert sorted(sig) == ["dora:ball1", "hank:bar1", "jade:gem1", "jade:gem2", "jade:gem3"]
    assert all(g.locations()[pid] == SUPPLY for pid in sig)


def test_setup_no_signature_piece_in_a_starting_inventory():
    """You do NOT start with your wrestler's signature pieces in your inventory."""
    for players in (2, 3, 4):
        g = Game.new(players=players, wrestlers=["hank", "jade", "dora", "gus"][:players])
        for side in range(len(g.sides)):
            assert {g.kind_of(p) for p in g.inventory(side)} <= {"small", "medium", "large"}


def test_setup_each_player_has_their_own_wrestler_piece():
    """Each player chooses a wrestler piece and places the matching reference token in front of them."""
    g = Game.new(players=4, seed=5)
    ids = [s.piece_id for s in g.seats]
    assert len(set(ids)) == 4
    for s in g.seats:
        assert g.locations()[s.piece_id] == BOARD
        assert g.owner_of(s.piece_id) == s.index
        assert g.world.piece(s.piece_id).kind == s.wrestler.piece_kind


def test_setup_board_follows_the_wrestler_count_diagram():
    """Place the wrestler pieces, and the small, medium, and large discs in the spaces according to
    the Wrestler Count Diagrams."""
    diagram = {2: (2, 3, 8, 14), 3: (3, 3, 10, 12), 4: (4, 3, 6, 14)}
    for players, (w, large, medium, small) in diagram.items():
        g = Game.new(players=players, seed=1)
        c = Counter("wrestler" if g.is_wrestler_piece(p.id) else p.kind for p in g.world.pieces)
        assert c == {"wrestler": w, "large": large, "medium": medium, "small": small}


def test_setup_remaining_discs_are_the_supply():
    """Set the remaining discs aside near the play area as a general supply.

    The box holds 5 large, 15 medium and 20 small discs; the supply is what the board (the Wrestler
    Count Diagram) and the starting inventories do not take."""
    expected = {2: {"large": 5 - 3, "medium": 15 - 8 - 2, "small": 20 - 14 - 4},
                3: {"large": 5 - 3, "medium": 15 - 10 - 4, "small": 20 - 12 - 6},
                4: {"large": 5 - 3, "medium": 15 - 6 - 2, "small": 20 - 14 - 4}}
    for players, want in expected.items():
        g = Game.new(players=players, seed=players)
        discs = {k: n for k, n in g.ledger.contents(SUPPLY).items() if k in want}
        assert discs == want
        check_conservation(g)


def test_setup_inventories_as_specified():
    """In front of each player or team, place the specified discs to create their inventory."""
    g = Game.new(players=2, seed=0)
    for side in (0, 1):
        assert g.ledger.contents(g.inventory_place(side)) == {"medium": 1, "small": 2}


def test_setup_first_player_chosen_or_random():
    """The youngest player goes first, or randomly choose a starting player."""
    assert Game.new(players=3, first_player=2).current_seat == 2
    firsts = {Game.new(players=4, seed=s).current_seat for s in range(20)}
    assert len(firsts) > 1
    assert Game.new(players=4, seed=7).current_seat == Game.new(players=4, seed=7).current_seat
    with pytest.raises(ValueError):
        Game.new(players=2, first_player=2)


def test_setup_third_player_has_two_medium_discs():
    """Only the 3rd player starts with 2 Medium Discs.

    The third player is the third to play: with seat 1 starting, that is seat 0."""
    for first, third in ((0, 2), (1, 0), (2, 1)):
        g = Game.new(players=3, first_player=first)
        for seat in range(3):
            want = {"medium": 2 if seat == third else 1, "small": 2}
            assert g.ledger.contents(g.inventory_place(seat)) == want


def test_setup_each_team_gets_one_medium_and_two_small():
    """Each team gets 1 Medium Disc and 2 Small Discs."""
    g = Game.new(players=4, seed=0)
    assert g.teams == ((0, 2), (1, 3))
    for team in (0, 1):
        assert g.ledger.contents(g.inventory_place(team)) == {"medium": 1, "small": 2}
    assert {pl for pl in g.locations().values() if pl.startswith("seat:")} == set()


# ===== Gameplay ===================================================================================
def test_gameplay_take_turns_sliding_pieces_in_a_straight_line():
    """Players take turns sliding any piece from their inventory onto the board in a straight line."""
    g = arena(2)
    o = g.push("small", 180.0, 0.0, 0.4)
    assert g.locations()[o.piece] == BOARD and g.current_seat == 1
    direction = o.push.direction()
    start = _driven_samples(o.physics, o.piece)[0]
    assert max(_line_distance(p, start, direction) for p in _driven_samples(o.physics, o.piece)) < 2e-4
    o2 = g.push("medium", 90.0, 0.0, 0.4)
    assert o2.seat == 1 and g.current_seat == 0


def test_gameplay_knocking_out_an_opposing_wrestler_wins():
    """The first player to push an opposing wrestler piece out of the ring wins."""
    g = arena(2)
    put(g, "hank:wrestler", EDGE, 0.0)
    line_up(g, "hank:wrestler")              # a legal push reaches the far edge through a crowd
    o = shove(g)
    assert "hank:wrestler" in [k.piece for k in o.knocked_out]
    assert g.is_over and g.winner == 0 and g.result.reason == "knockout"
    with pytest.raises(IllegalMove, match="over"):
        g.push("small", 0.0)


def test_gameplay_turns_go_round_the_table():
    """Each player or team takes a turn, continuing clockwise around the table until the end of the
    game."""
    g = arena(3, first_player=2)
    seen = []
    for entry in (180.0, 90.0, 0.0, 270.0):
        seen.append(g.current_seat)
        g.push("small", entry, 0.0, 0.3)
    assert seen == [2, 0, 1, 2]


def test_gameplay_push_one_piece_from_your_inventory():
    """Push one piece from your inventory in a straight line onto the board."""
    g = arena(2)
    before = g.to_json()
    supply_disc = g.ledger.pieces_in(SUPPLY, "large")[0]
    their_disc = g.inventory(1)[0]
    for piece, why in ((supply_disc, "supply"), (their_disc, "seat:1"), ("large", "no large")):
        with pytest.raises(IllegalMove, match=why):
            g.push(piece, 180.0)
        assert g.to_json() == before
    g.push("small", 180.0, 0.0, 0.3, end_turn=False)
    with pytest.raises(IllegalMove, match="already pushed"):
        g.push("small", 90.0, 0.0, 0.3)


def test_gameplay_push_need_not_aim_at_the_centre():
    """You do not need to push towards the center of the ring."""
    g = arena(2)
    o = g.push("small", 200.0, 45.0, 0.3)
    samples = _driven_samples(o.physics, o.piece)
    # The push line passes R*sin(45 deg) from the centre (60 mm on a 170 mm ring), and the piece
    # followed it.
    d = o.push.direction()
    off_centre = g.materials.ring.radius * math.sin(math.radians(45.0))
    assert _line_distance((0.0, 0.0), samples[0], d) > 0.98 * off_centre
    assert max(_line_distance(p, samples[0], d) for p in samples) < 2e-4
    assert g.locations()[o.piece] == BOARD


def test_gameplay_knocked_out_discs_join_your_inventory_signature_pieces_the_supply():
    """Any standard discs that fall out of the ring as a result of your push are added to your
    inventory, signature pieces return to the supply."""
    g = arena(2)
    put(g, "hank:bar1", EDGE - 0.022, 0.0, math.pi / 2)
    put(g, "M01", EDGE, 0.0)
    line_up(g, "hank:bar1")
    o = shove(g)
    where = {k.piece: k.to for k in o.knocked_out}
    assert where.get("M01") == "seat:0" and where.get("hank:bar1") == SUPPLY
    assert g.locations()["M01"] == "seat:0" and g.locations()["hank:bar1"] == SUPPLY


def test_gameplay_signature_moves_before_and_after_the_push():
    """Signature Moves: Before or after your push, you may perform some or all of your wrestler's
    signature moves."""
    g = arena(2, ["mike", "hank"])
    give(g, "seat:0", "small", 2)          # 4 small, 1 medium
    put(g, "M01", 0.0, 0.0)                # in the centre circle, for Vice Grip
    g.use_move(0, "Mandible Claw")         # before the push
    g.push("large", 90.0, 0.0, 0.2, end_turn=False)
    assert "M01" in g.world.in_circle()
    g.use_move(0, "Vice Grip", piece="M01")  # after the push
    assert g.locations()["M01"] == "seat:0"
    g.end_turn()
    assert g.current_seat == 1


def test_gameplay_each_move_at_most_once_per_turn():
    """Each signature move may be used at most once per turn."""
    g = arena(2, ["mike", "hank"])
    give(g, "seat:0", "small", 6)
    g.use_move(0, "Mandible Claw")
    before = g.to_json()
    with pytest.raises(IllegalMove, match="once per turn"):
        g.use_move(0, "Mandible Claw")
    assert g.to_json() == before
    g.push("small", 180.0, 0.0, 0.3)
    g.push("small", 90.0, 0.0, 0.3)
    g.use_move(0, "Mandible Claw")         # a new turn: allowed again


def test_gameplay_falls_not_caused_by_a_push_go_to_the_supply():
    """Note: If any pieces accidentally fall out of the ring NOT as the result of a player pushing a
    piece onto the board, return those pieces to the general supply.

    Hercules Hank's Pitchfork slides a disc off the edge: not a push, so it goes to the supply."""
    g = arena(2, ["hank", "mike"])
    # A small disc against the horn's tip, its centre 1 mm from the edge of the ring.
    tip = max(x for part in g.materials.kinds["hank_wrestler"].shape.parts for x, _ in part)
    edge = g.materials.ring.radius - 0.001
    put(g, "S01", edge, 0.0)
    g.edit("hank:wrestler", BOARD, edge - radius(g, "small") - tip - 0.00005, 0.0, 0.0)
    assert "S01" in g.world.touching("hank:wrestler")
    out = g.use_move(0, "Pitchfork", piece="S01", distance_mm=20.0)
    assert [k.piece for k in out.knocked_out] == ["S01"]
    assert g.locations()["S01"] == SUPPLY


def test_how_to_push_platform_anywhere_against_the_ring():
    """Position the pushing platform anywhere you like against the outside of the ring."""
    g = arena(2)
    R = g.materials.ring.radius
    for entry in (0.0, 37.5, 123.0, 250.0, 359.9):
        o = g.preview_push("small", entry, 0.0, 0.2)
        x, y, a = g.world.platform_pose(o.push)
        near, _ = shapes.extent_from_origin(g.materials.kinds["small"].shape, x, y, a)
        assert math.isclose(near, R, abs_tol=1e-6)          # against the outside of the ring
    assert g.to_json()["history"] == arena(2).to_json()["history"]  # previews changed nothing


def test_how_to_push_piece_starts_on_the_platform():
    """Place your piece on the platform."""
    g = arena(2)
    o = g.push("medium", 300.0, 20.0, 0.3)
    x0, y0 = _driven_samples(o.physics, o.piece)[0]
    px, py, _ = g.world.platform_pose(o.push)
    assert math.isclose(x0, px, abs_tol=1e-9) and math.isclose(y0, py, abs_tol=1e-9)
    assert math.hypot(x0, y0) > g.materials.ring.radius


def test_how_to_push_straight_line_consistent_pressure():
    """Carefully push from the rear of the piece in a straight line with consistent pressure."""
    g = arena(2)
    o = g.push("small", 180.0, 0.0, 0.25)
    samples = _driven_samples(o.physics, o.piece)
    rate = o.physics.trajectory.rate
    steps = [math.dist(a, b) * rate for a, b in zip(samples[1:], samples[2:], strict=False)]
    assert steps and all(abs(v - 0.25) < 0.025 for v in steps)   # steady hand speed


def test_how_to_push_no_changing_direction_or_flicking():
    """No changing direction or flicking allowed!

    A push is one straight line at one speed; aims beyond the platform's range and flicks faster
    than the hand's limit are refused."""
    g = arena(2)
    sim = g.materials.sim
    with pytest.raises(IllegalMove, match="heading"):
        g.push("small", 0.0, sim.heading_limit_deg + 1, 0.3)
    with pytest.raises(IllegalMove, match="speed"):
        g.push("small", 0.0, 0.0, sim.max_speed * 1.5)
    assert g.history[-1]["type"] == "edit"


def test_a_push_faster_than_the_hands_limit_is_a_flick_and_is_refused():
    """"No changing direction or flicking allowed!" - a flick is a push faster than the hand's limit
    (``simulation.max_speed`` in assets/materials.toml). It is refused with a message that names the
    speed and the limit, and the game is exactly as it was: same turn, same ring, same history."""
    g = arena(2)
    limit = g.materials.sim.max_speed
    assert limit == Materials.load().sim.max_speed       # a new game plays under the rules' limit
    before = g.to_json()
    too_fast = round(limit * 1.2, 3)
    for attempt in (g.push, g.preview_push):
        with pytest.raises(IllegalMove) as refused:
            attempt("small", 180.0, 0.0, too_fast)
        assert re.search(rf"speed.*\b{too_fast:g} m/s.*\b{limit:g} m/s", str(refused.value)), \
            str(refused.value)
        assert g.to_json() == before
    o = g.push("small", 180.0, 0.0, limit)               # the limit itself is a push
    assert g.locations()[o.piece] == BOARD and g.current_seat == 1


def test_how_to_push_stop_when_the_piece_is_in():
    """Immediately stop pushing when the piece completely enters the ring.

    Where the hand let go the piece is wholly inside the ring; one simulation step earlier on its
    line it was not yet."""
    g = arena(2)
    fastest = g.materials.sim.max_speed
    for kind, entry, heading, speed in (("medium", 180.0, 0.0, 0.3), ("small", 40.0, -30.0, fastest)):
        o = g.push(kind, entry, heading, speed)
        res = o.physics
        shape = g.materials.kinds[kind].shape
        R = g.materials.ring.radius
        x, y, a = res.released_pose
        assert not res.stalled
        assert shapes.extent_from_origin(shape, x, y, a)[1] <= R
        dx, dy = o.push.direction()
        step = speed * g.materials.sim.dt
        assert shapes.extent_from_origin(shape, x - dx * step, y - dy * step, a)[1] > R


# ===== 4 Player Team Play =========================================================================
def test_team_play_teams_alternate():
    """Teams alternate turns."""
    g = arena(4)
    give(g, "team:0", "small", 2)
    give(g, "team:1", "small", 2)
    sides = []
    for entry in (180.0, 90.0, 0.0, 270.0, 45.0):
        sides.append(g.current_side)
        g.push("small", entry, 0.0, 0.25)
    assert sides == [0, 1, 0, 1, 0]


def test_team_play_teammates_take_turns_pushing():
    """One teammate pushes per turn, on the next turn the other pushes."""
    g = arena(4)
    give(g, "team:0", "small", 2)
    give(g, "team:1", "small", 2)
    pushers = []
    for entry in (180.0, 90.0, 0.0, 270.0, 45.0):
        pushers.append(g.current_seat)
        g.push("small", entry, 0.0, 0.25)
    team0 = [s for s in pushers if s in g.teams[0]]
    assert team0 == [0, 2, 0]


def test_team_play_shared_inventory():
    """Players on a team share an inventory."""
    g = arena(4)
    assert g.seat_inventory(0) == g.seat_inventory(2) == "team:0"
    put(g, "M01", EDGE, 0.0)
    g.push("small", 45.0, 0.0, 0.25)         # seat 0
    g.push("small", 110.0, 0.0, 0.25)        # seat 1
    line_up(g, "M01")
    o = shove(g, "medium")                   # seat 2 knocks M01 out ...
    assert ("M01", "team:0") in [(k.piece, k.to) for k in o.knocked_out]
    g.push("small", 135.0, 0.0, 0.25)        # seat 3
    assert g.current_seat == 0
    g.push("M01", 200.0, 0.0, 0.3)           # ... and seat 0 pushes it


def test_team_play_teammates_pieces_but_own_moves():
    """A player may push any piece in the team inventory (including a teammate's signature piece),
    but can only use their own wrestler's signature moves."""
    g = arena(4, ["mike", "hank", "annie", "rita"])   # team 0: Mike (seat 0) and Annie (seat 2)
    g.edit("annie:pillar1", "team:0")
    with pytest.raises(IllegalMove, match="no move"):
        g.use_move(0, "Raise the Pillar")              # Annie's move, not Mike's
    with pytest.raises(IllegalMove, match="seat 0's turn"):
        g.use_move(2, "Raise the Pillar")              # Annie, but it is Mike's turn
    o = g.push("annie:pillar1", 180.0, 0.0, 0.3)      # Mike pushes his teammate's piece
    assert o.kind == "annie_pillar" and g.locations()["annie:pillar1"] == BOARD


# ===== Game End ===================================================================================
def test_game_end_knock_out_wins_instantly_for_a_team():
    """The first player or team that pushes an opponent's wrestler piece out of the ring instantly
    wins."""
    g = arena(4)
    put(g, "hank:wrestler", EDGE, 0.0)       # seat 1's wrestler (team 1)
    line_up(g, "hank:wrestler")
    o = shove(g, end_turn=False)             # seat 0 (team 0)
    assert "hank:wrestler" in [k.piece for k in o.knocked_out]
    assert g.is_over and g.winner == 0 and g.result.seats == (0, 2)
    assert not g.legal_pieces()
    with pytest.raises(IllegalMove, match="over"):
        g.end_turn()


def test_game_end_three_players_a_knock_out_ends_it():
    """Example: In a 3 player game, if Player A knocks out Player C, the game is over - even if
    Player B is in the ring."""
    g = arena(3)
    put(g, "annie:wrestler", EDGE, 0.0)      # player C (seat 2)
    line_up(g, "annie:wrestler")
    shove(g)                                 # player A (seat 0)
    assert g.world.piece("hank:wrestler")   # player B still in the ring
    assert g.is_over and g.winner == 0 and g.result.reason == "knockout"


def test_game_end_own_knock_out_loses_even_with_another():
    """If you knock out your own wrestler piece (even if you knock out another wrestler), you lose
    the match."""
    g = arena(2)
    give(g, "seat:0", "large")
    put(g, "mike:wrestler", 0.080, 0.0)      # seat 0's own wrestler at the edge
    put(g, "hank:wrestler", 0.045, 0.0)      # the opponent's in front of it
    line_up(g, "hank:wrestler")
    o = shove(g, "large")
    assert {"mike:wrestler", "hank:wrestler"} <= {k.piece for k in o.knocked_out}
    assert g.is_over and g.winner == 1 and g.result.reason == "own_knockout"


def test_game_end_submission_two_players():
    """In a 2 or 4 player game, the game can end once a player or team runs out of pieces in their
    inventory and cannot take their turn."""
    g = arena(2)
    empty(g, "seat:1")
    assert not g.is_over
    g.push("small", 180.0, 0.0, 0.3)
    assert g.is_over and g.winner == 0 and g.result.reason == "submission"


def test_game_end_submission_four_players_other_team_wins():
    """The other team wins!"""
    g = arena(4)
    empty(g, "team:1")
    g.push("small", 180.0, 0.0, 0.3)         # seat 0, team 0; now team 1 cannot take its turn
    assert g.is_over and g.winner == 0 and g.result.seats == (0, 2)


def test_game_end_three_players_out_of_pieces_eliminated():
    """In a 3 wrestler game, if a player runs out of pieces in their inventory they are eliminated."""
    g = arena(3)
    empty(g, "seat:1")
    g.push("small", 180.0, 0.0, 0.3)
    assert not g.is_over
    assert g.out == {1: "submission"} and g.current_seat == 2
    g.push("small", 90.0, 0.0, 0.3)
    assert g.current_seat == 0                # seat 1 is skipped from now on


def test_game_end_eliminated_wrestler_stays_and_can_be_knocked_out():
    """Keep their wrestler piece on the board as it will continue to be in play and can be knocked
    out by a remaining player for the win."""
    g = arena(3)
    empty(g, "seat:1")
    g.push("small", 90.0, 0.0, 0.3)           # seat 0; seat 1 is eliminated
    assert g.locations()["hank:wrestler"] == BOARD
    put(g, "hank:wrestler", EDGE, 0.0)
    line_up(g, "hank:wrestler")
    shove(g)                                  # seat 2 knocks out the eliminated player's wrestler
    assert g.is_over and g.winner == 2 and g.result.reason == "knockout"
