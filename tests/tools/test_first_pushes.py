"""kabuto.lab.first_pushes and tools/first_pushes.py: the first-push board checks, as counts."""
from __future__ import annotations

import math
import random

import pytest

from kabuto import Game
from kabuto.lab.first_pushes import (
    EXPOSED_MM,
    across_the_ring,
    flank_knockouts,
    gripped_from_behind,
    left_exposed,
)
from physics import Materials
from tests.kabuto.scenarios import arena, put
from tests.tools.conftest import load_tool


def _board(centre_radius: float) -> Game:
    return Game.new(players=2, wrestlers=["mike", "hank"], seed=0, first_player=0,
                    materials=Materials.load().with_overrides({"ring.centre_radius": centre_radius}))


def test_a_wider_centre_circle_catches_every_wrestler_a_narrower_one_does():
    """The printed circle does not touch the physics, so the same pushes move the same pieces
    whatever its size: a wrestler a push leaves touching a narrow circle touches every wider one
    round the same centre. A circle wider than the wrestlers' inner sides (60 mm across; they
    stand 33 mm out, 13 mm of beetle inwards) catches all 36 pushes. The game is left as it was."""
    counts = []
    sets = []
    for r in (0.001, 0.005, 0.03):
        g = _board(r)
        before = g.to_json()
        bad, _ = gripped_from_behind(g)
        assert g.to_json() == before
        counts.append(len(bad))
        sets.append({(b.wrestler, b.kind, b.entry_deg, b.heading_deg) for b in bad})
    assert sets[0] <= sets[1] <= sets[2] and counts[2] == 36


def _wrestlers_at_the_edge(g: Game) -> Game:
    """Each wrestler moved straight out to 14 mm from the rim, its back on it."""
    R = g.materials.ring.radius
    for s in g.seats:
        p = g.world.piece(s.piece_id)
        a = math.atan2(p.y, p.x)
        put(g, s.piece_id, (R - 0.014) * math.cos(a), (R - 0.014) * math.sin(a))
    return g


@pytest.mark.parametrize("platform_deg, knocks_out", [(60.0, True), (45.0, False)])
def test_a_flank_push_reaches_a_wrestler_at_the_edge_only_on_a_steep_platform(platform_deg, knocks_out):
    """The hand drives its piece only until it is wholly on the ring (about its own width) and it
    stops a few mm on, so on a ring cleared to the wrestlers a flank push never reaches a wrestler
    33 mm from the centre (39 mm of open ring in front of it). Set at the edge, its back on the
    rim, the same sample knocks it out from the nearer entries on a platform that aims up to 60
    degrees off straight in, so the check sees a knock-out where there is one; on the game's
    45-degree platform those lines are too steep to make, and none does."""
    mats = Materials.load().with_overrides({"simulation.heading_limit_deg": platform_deg})
    g = arena(2, ["mike", "hank"], materials=mats)
    bad, made = flank_knockouts(g, 16, random.Random(3))
    assert made > 16 and bad == []
    bad, made = flank_knockouts(_wrestlers_at_the_edge(g), 16, random.Random(3))
    assert made > 0 and bool(bad) is knocks_out
    assert {b.wrestler for b in bad} <= {s.piece_id for s in g.seats}


def test_the_tool_counts_the_boards_as_the_tests_hold_them():
    """The tool's counts come from the same seats and the same seeded flank sample as
    tests/kabuto/test_setups.py, for every board it is asked for."""
    tool = load_tool("first_pushes")
    lines = [tool.board_counts(n, 16, False, 0) for n in (2, 3, 4)]
    assert [x["board"] for x in lines] == ["2P", "3P", "4P"]
    assert [x["from_behind"]["made"] for x in lines] == [36, 54, 72]
    assert all(x["flank"]["made"] > 8 * n for x, n in zip(lines, (2, 3, 4), strict=True))
    assert all(x["across"]["made"] > 100 * n for x, n in zip(lines, (2, 3, 4), strict=True))
    # only the wrestlers of the sides that do not move are aimed at: one in 2P, two in 3P and 4P
    assert all(x["exposed"]["made"] > 100 * aimed for x, aimed in zip(lines, (1, 2, 2), strict=True))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_push_of_the_edge_grid_wins_the_first_turn_whoever_moves_first(players):
    """The edge grid along the ring's edge at each opposing wrestler (small and medium, 40-100
    degrees round, 35 degrees to the steepest heading, the top of the hand's range) wins nothing on
    turn 1, each side moving first, with the wrestler cards in order in the seats (on the crammed
    2P and 3P boards (issue 42) a medium or a small down the edge at 0.5 m/s won the first turn,
    until the platform's 45 degrees and the 0.45 m/s hand)."""
    tool = load_tool("first_pushes")
    grid = tool.board_counts(players, 0, True, 0)["edge_grid"]
    assert grid["tried"] > 1000 and grid["wins"] == 0


def test_a_piece_hanging_over_the_edge_behind_a_wrestler_takes_those_pushes_away():
    """The platform cannot stand where a piece hangs over the edge, so the pushes from behind a
    wrestler that would need that spot are not made (and the check goes on with the rest): with a
    medium hanging half over the rim straight behind the first wrestler, fewer than its 18 pushes
    are made and the second wrestler's 18 all are."""
    g = arena(2, ["mike", "hank"])
    assert gripped_from_behind(g)[1] == 36
    R = g.materials.ring.radius
    first = g.world.piece(g.seats[0].piece_id)
    a = math.atan2(first.y, first.x)
    put(g, first.id, 0.03 * math.cos(a), 0.03 * math.sin(a), first.angle)
    disc = next(p for p, place in g.locations().items() if place == "supply" and g.kind_of(p) == "medium")
    put(g, disc, (R - 0.004) * math.cos(a), (R - 0.004) * math.sin(a))
    _, made = gripped_from_behind(g)
    assert 18 <= made < 36


def test_a_push_from_across_the_ring_still_carries_gus_off_the_3p_board():
    """The crowd a push from across the ring sets moving glides on after the hand stops, and a
    wrestler beyond the centre disc can glide off with it. The 3-player pinwheel (each wrestler a
    quarter turn from facing the centre, 28 mm out) stops this for every wrestler the check tried
    but Gus, whose broad side almost touches the centre disc: a medium from across the ring at the
    hand's top speed still carries him off (docs/rules-notes.md, "The 3P wrestlers stand in a
    pinwheel"), and the check finds those pushes and only those."""
    g = Game.new(players=3, wrestlers=["gus", "jade", "dora"], seed=0, first_player=0)
    bad, made = across_the_ring(g)
    assert made > 300 and bad
    assert {(b.wrestler, b.kind) for b in bad} == {("gus:wrestler", "medium")}


def test_a_wrestler_left_near_the_edge_counts_as_exposed_and_one_in_the_middle_does_not():
    """On a ring bare but for the wrestlers, no push from across reaches the second player's
    wrestler 33 mm from the centre (the hand drives its piece about its own width), so none leaves
    it exposed. Moved out to 20 mm from the edge, it stays there, and every push aimed at it counts.
    The first player's own wrestler is never aimed at, and the game is left as it was."""
    g = arena(2, ["mike", "hank"])
    second = g.world.piece(g.seats[1].piece_id)
    a = math.atan2(second.y, second.x)
    R = g.materials.ring.radius
    for out, all_exposed in ((0.033, False), (R - 0.020, True)):
        put(g, second.id, out * math.cos(a), out * math.sin(a), second.angle)
        before = g.to_json()
        exposed, made = left_exposed(g)
        assert g.to_json() == before
        assert made > 100 and len(exposed) == (made if all_exposed else 0)
        assert {e.wrestler for e in exposed} <= {second.id}
    assert 20.0 < EXPOSED_MM < 52.0
