"""How the AI values the end of a turn: wrestlers near the edge (kabuto.ai.scoring)."""
from __future__ import annotations

import dataclasses
import math

import pytest

from kabuto import Game
from kabuto.ai.levels import config
from kabuto.ai.scoring import score_game
from kabuto.ai.signature import try_moves
from kabuto.rules.inventory import BOARD, SUPPLY
from tests.ai.helpers import cleared

CENTRE_MM = 30.0   # well inside: nobody's wrestler is in danger
EDGE_MM = 80.0     # 20 mm inside the ring's edge: one push from falling


def three_wrestlers(names: tuple[str, str, str] = ("gus", "jade", "dora")) -> Game:
    """A 3-player game, seat 0 to move (then seat 1, then seat 2), with only the three wrestlers on
    the ring, each 30 mm from the centre, 120 degrees apart."""
    g = Game.new(players=3, wrestlers=list(names), first_player=0, seed=0)
    for p in g.world.pieces:
        g.edit(p.id, SUPPLY)
    for s in g.seats:
        place(g, s.index, CENTRE_MM)
    assert g.current_seat == 0
    return g


def place(g: Game, seat: int, mm: float) -> None:
    bearing = math.radians(90.0 + 120.0 * seat)
    g.edit(g.seats[seat].piece_id, BOARD, mm / 1000 * math.cos(bearing), mm / 1000 * math.sin(bearing), 0.0)


def test_with_three_players_a_wrestler_left_at_the_edge_counts_for_the_next_player():
    """Whoever knocks out any wrestler wins, and the next player (seat 1) moves first: seat 0 ending
    its turn with seat 2's wrestler at the edge hands seat 1 the win, as much as leaving its own
    there would; seat 1's wrestler at the edge is a threat seat 1 must answer."""
    g = three_wrestlers()
    even = score_game(g, 0)
    place(g, 2, EDGE_MM)
    handed = score_game(g, 0)
    place(g, 2, CENTRE_MM)
    place(g, 1, EDGE_MM)
    threat = score_game(g, 0)
    place(g, 1, CENTRE_MM)
    place(g, 0, EDGE_MM)
    own = score_game(g, 0)
    assert handed < even < threat
    assert own < even


def test_with_three_players_whose_wrestler_is_handed_over_depends_on_who_moves_next():
    """Seat 0's wrestler at the edge: after seat 1's turn seat 2 moves, and could take it (a loss
    for seat 1 too); after seat 2's turn seat 0 moves, and will save it (a threat for seat 2)."""
    g = three_wrestlers()
    place(g, 0, EDGE_MM)
    assert score_game(g, 1) < score_game(g, 2)


def test_the_handed_edge_weight_is_what_makes_the_difference():
    """With the weight at zero the third player's wrestler at the edge counts as any opponent's did
    before (a threat), so the behaviour comes from ai.toml's ``handed_edge``."""
    w = config().weights
    assert w.handed_edge > 0
    g = three_wrestlers()
    even = score_game(g, 0)
    place(g, 2, EDGE_MM)
    assert score_game(g, 0, dataclasses.replace(w, handed_edge=0.0)) > even
    assert score_game(g, 0) < even


@pytest.mark.parametrize("players", [2, 4])
def test_with_two_sides_an_opposing_wrestler_at_the_edge_is_a_threat(players: int):
    """In 2 players and in 2 v 2 the next player is always an opponent, who never knocks out its own
    side's wrestler: every opposing wrestler near the edge counts for the side that left it there."""
    names = ["gus", "jade", "dora", "mike"][:players]
    g = Game.new(players=players, wrestlers=names, first_player=0, seed=0)
    for p in g.world.pieces:
        g.edit(p.id, SUPPLY)
    for s in g.seats:
        bearing = math.radians(360.0 / players * s.index)
        g.edit(s.piece_id, BOARD, 0.03 * math.cos(bearing), 0.03 * math.sin(bearing), 0.0)
    foe = next(s for s in g.seats if g.side_of(s.index) != g.side_of(0))
    even = score_game(g, 0)
    bearing = math.radians(360.0 / players * foe.index)
    g.edit(foe.piece_id, BOARD, EDGE_MM / 1000 * math.cos(bearing), EDGE_MM / 1000 * math.sin(bearing), 0.0)
    assert score_game(g, 0) > even


@pytest.mark.usefixtures("grip_takes_wrestlers")
@pytest.mark.parametrize("next_player", ["mike", "gus"])
def test_with_three_players_a_wrestler_by_the_circle_is_handed_to_a_next_vice_grip(next_player: str):
    """Seat 2's wrestler touching the centre circle is Mighty Jaw Mike's to grip when he moves next:
    worse for seat 0 than leaving it 30 mm out. With Goliath Gus next it is only farther from the
    edge."""
    g = three_wrestlers(("jade", next_player, "dora"))
    out = score_game(g, 0)
    circle_mm = g.materials.ring.centre_radius * 1000
    place(g, 2, circle_mm + 4.0)  # a wrestler is wider than 8 mm every way: it overlaps the circle
    assert "dora:wrestler" in g.world.in_circle()
    by_circle = score_game(g, 0)
    assert (by_circle < out) == (next_player == "mike")


def test_late_in_a_long_game_the_ai_threatens_before_it_saves():
    """Both wrestlers at the edge, against both in the middle. Early on, its own wrestler's danger
    counts for more than the threat to the other's; from ai.toml's ``press_from_turn`` the AI presses
    for the win and the threat counts for more, so a game where each side only saves its own wrestler
    does not go on for ever (issue 42)."""
    w = config().weights
    g = Game.new(players=2, wrestlers=["gus", "jade"], first_player=0, seed=0)
    for p in g.world.pieces:
        g.edit(p.id, SUPPLY)
    assert g.turn.number < w.press_from_turn
    pressing = dataclasses.replace(w, press_from_turn=g.turn.number)

    def stand(mm: float) -> None:
        for s in g.seats:
            bearing = math.pi * s.index
            g.edit(s.piece_id, BOARD, mm / 1000 * math.cos(bearing), mm / 1000 * math.sin(bearing), 0.0)

    stand(CENTRE_MM)
    middle, middle_pressing = score_game(g, 0), score_game(g, 0, pressing)
    stand(EDGE_MM)
    assert score_game(g, 0) < middle
    assert score_game(g, 0, pressing) > middle_pressing


def test_pieces_beyond_enough_are_worth_no_more():
    """A piece in the inventory is a future turn, but a side that already holds enough gains nothing
    from another: with ai.toml's ``piece_enough`` at 2, holding 2, 3 or 4 pieces scores the same and
    1 scores less; with no limit (0) every piece adds. The opposing side's pieces count the same way."""
    w = dataclasses.replace(config().weights, own_piece=8.0, opponent_piece=6.0)
    g = cleared(["gus", "jade"])
    for side in (0, 1):
        for p in g.ledger.pieces_in(g.inventory_place(side)):
            g.edit(p, SUPPLY)
    smalls = g.ledger.pieces_in(SUPPLY, "small")
    assert len(smalls) >= 7

    def holding(own: int, theirs: int, enough: float) -> float:
        for p in smalls:
            g.edit(p, SUPPLY)
        for p in smalls[:own]:
            g.edit(p, g.inventory_place(0))
        for p in smalls[own:own + theirs]:
            g.edit(p, g.inventory_place(1))
        return score_game(g, 0, dataclasses.replace(w, piece_enough=enough))

    assert holding(1, 3, 2.0) < holding(2, 3, 2.0) == holding(3, 3, 2.0) == holding(4, 3, 2.0)
    assert holding(2, 1, 2.0) > holding(2, 2, 2.0) == holding(2, 4, 2.0)
    assert holding(1, 3, 0.0) < holding(2, 3, 0.0) < holding(3, 3, 0.0) < holding(4, 3, 0.0)
    assert holding(2, 1, 0.0) > holding(2, 2, 0.0) > holding(2, 4, 0.0)


def test_a_signature_moves_price_counts_even_with_pieces_to_spare():
    """Mandible Claw pays 3 small discs for the large one. With ``piece_enough`` at 1 and both sides
    holding plenty, the pieces themselves no longer tell the AI it paid anything; ``move_piece_cost``
    does, against Mike's side and for Hank's, whatever the inventories hold."""
    w = dataclasses.replace(config().weights, own_piece=8.0, opponent_piece=6.0, large_bonus=0.0,
                            piece_enough=1.0, move_gain_piece=0.0)
    g = cleared(["mike", "hank"])
    for side in (0, 1):
        for p in g.ledger.pieces_in(g.inventory_place(side)):
            g.edit(p, SUPPLY)
    smalls = g.ledger.pieces_in(SUPPLY, "small")
    for i, p in enumerate(smalls[:8]):
        g.edit(p, g.inventory_place(i % 2))
    clawed = g.clone()
    clawed.use_move(0, "Mandible Claw")
    assert clawed.ledger.count(clawed.inventory_place(1), "small") == 7

    def change(seat: int, cost: float, gain: float = 0.0) -> float:
        priced = dataclasses.replace(w, move_piece_cost=cost, move_gain_piece=gain)
        return score_game(clawed, seat, priced) - score_game(g, seat, priced)

    assert change(0, 0.0) == 0.0 and change(1, 0.0) == 0.0
    assert change(0, 5.0) == -15.0 and change(1, 5.0) == 15.0
    # the large disc it adds is credited back: three for one is two pieces down
    assert change(0, 5.0, 5.0) == -10.0 and change(1, 5.0, 5.0) == 10.0


def test_a_move_that_trades_a_piece_for_a_piece_is_credited_what_it_gains():
    """Atlas Annie's Raise the Pillar discards a medium disc and adds the Pillar; her Tower stacks
    two small discs and gains a medium. With ``piece_enough`` at 1 and plenty in hand, her
    inventory shows neither gain, so priced by what they spend alone both look like pure losses;
    ``move_gain_piece`` credits the piece each adds: at the price of a piece spent the Pillar
    comes out even, and the Tower a piece down, as at the table."""
    w = dataclasses.replace(config().weights, piece_enough=1.0, large_bonus=0.0, move_piece_cost=8.0)
    g = cleared(["annie", "gus"])
    g.edit(g.ledger.pieces_in(SUPPLY, "medium")[0], BOARD, 0.05, 0.0, 0.0)  # something to stack on
    for p in g.ledger.pieces_in(SUPPLY, "small")[:2]:
        g.edit(p, g.inventory_place(0))
    assert g.ledger.count(g.inventory_place(0), "small") >= 2

    def change(move: str, gain: float) -> float:
        weights = dataclasses.replace(w, move_gain_piece=gain)
        (t,) = try_moves(g, 0, config().search, weights, only={move})
        assert t.game.turn.gained == 1
        return t.score - score_game(g, 0, weights)

    assert change("Raise the Pillar", 0.0) == pytest.approx(-8.0)
    assert change("Raise the Pillar", 8.0) == pytest.approx(0.0)
    assert change("Tower", 0.0) == pytest.approx(-16.0)
    assert change("Tower", 8.0) == pytest.approx(-8.0)
    assert change("Tower", 3.0) == pytest.approx(-13.0)


def test_the_discs_vice_grip_takes_are_credited_like_a_gain():
    """Vice Grip pays a small disc and adds the disc it knocks out of the centre circle to Mike's
    hand: one for one, so with every piece spent or gained weighed alike it costs Mike nothing,
    where priced by what it spends alone it would look like a small disc thrown away."""
    w = dataclasses.replace(config().weights, piece_enough=1.0, large_bonus=0.0, move_piece_cost=8.0,
                            grip_danger=0.0)
    g = cleared(["mike", "hank"])
    g.edit(g.ledger.pieces_in(SUPPLY, "medium")[0], BOARD, 0.0, 0.0, 0.0)  # on the centre circle

    def gripped(gain: float) -> float:
        weights = dataclasses.replace(w, move_gain_piece=gain)
        (t,) = try_moves(g, 0, config().search, weights, only={"Vice Grip"})
        assert t.game.turn.gained == 1
        return t.score - score_game(g, 0, weights)

    assert gripped(0.0) == pytest.approx(-8.0)
    assert gripped(8.0) == pytest.approx(0.0)


def test_a_move_that_replaces_the_turn_is_priced_too():
    """Horn Toss replaces Hank's turn, which passes it to the opponent at once, so the turn no
    longer shows what it cost: the AI's look at its moves charges the discarded disc itself."""
    g = cleared(["hank", "gus"])
    assert g.ledger.count(g.inventory_place(0), "small") >= 1

    def tossed(cost: float, gain: float = 0.0) -> float:
        w = dataclasses.replace(config().weights, move_piece_cost=cost, move_gain_piece=gain)
        (t,) = try_moves(g, 0, config().search, w, only={"Horn Toss"})
        assert t.game.current_seat == 1
        return t.score

    assert tossed(5.0) == tossed(0.0) - 5.0
    assert tossed(5.0, 5.0) == pytest.approx(tossed(0.0))  # a disc for the Horn Bar: even
