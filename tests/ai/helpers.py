"""Small boards and budgets for the AI tests."""
from __future__ import annotations

from kabuto import Game
from kabuto.ai import Level, level
from kabuto.rules.inventory import BOARD, SUPPLY
from tests.kabuto.scenarios import line_up

#: A small, steady search: enough to find an easy knock-out, cheap enough for tests (one ply: the
#: look-ahead has its own tests, tests/ai/test_lookahead.py).
STEADY = level("hard").with_changes(name="test-steady", broad=24, refine_top=1, refine_rounds=1,
                                    refine_per=4, robust_top=0, robust_samples=0, move_prefixes=2,
                                    wobble_entry_deg=0.3, wobble_heading_deg=0.3,
                                    wobble_speed_frac=0.02, reply_top=0, reply_broad=0)


def cleared(wrestlers: list[str], first_player: int = 0, seed: int = 0) -> Game:
    """A 2-player game whose ring holds only the two wrestler pieces, on the y axis near the centre
    (seat 0 below, seat 1 above); tests move them and add discs with Game.edit."""
    g = Game.new(players=2, wrestlers=wrestlers, first_player=first_player, seed=seed)
    for p in g.world.pieces:
        if not g.is_wrestler_piece(p.id):
            g.edit(p.id, SUPPLY)
    for s in g.seats:
        g.edit(s.piece_id, SUPPLY)
    for s in g.seats:
        g.edit(s.piece_id, BOARD, 0.0, -0.03 if s.index == 0 else 0.03, 0.0)
    return g


def small_level(name: str, **changes) -> Level:
    return STEADY.with_changes(name=name, **changes)


#: :data:`STEADY` with a broader first look (60 candidates), for boards with one narrow winning line.
WIDE = small_level("test-wide", broad=60)


def teetering(g: Game, piece: str, x: float, y: float) -> list[str]:
    """Put ``piece`` at ``(x, y)`` near the right edge with a line of touching medium discs behind it
    to the left edge. A legal push (0.5 m/s at most) carries a lone piece only ~70 mm into the ring,
    so a wrestler at the far edge is knocked out as at the table: by driving the crowd into it."""
    g.edit(piece, BOARD, x, y, 0.0)
    return line_up(g, piece)


def hank_lined_up_before_mike(hank_x: float = -0.047, first_player: int = 0) -> Game:
    """Hercules Hank's wrestler at (``hank_x``, 0), left of the centre circle, at the end of a line
    of discs that reaches the left edge; Mighty Jaw Mike's stands right of the circle. Driving the
    line from the left pushes Hank towards the centre and into the circle, where Vice Grip takes
    him ("If any part of a piece is inside and touching the center circle, immediately knock out
    that piece"). (-47 mm: with Hank's piece at 4.6 g a one-ply search is tempted into the circle
    from 46-48 mm out; at 50, where his 4.3 g piece stood, it no longer is.)"""
    g = cleared(["hank", "mike"], first_player=first_player)
    g.edit("mike:wrestler", BOARD, 0.06, 0.0, 180.0)
    g.edit("hank:wrestler", BOARD, hank_x, 0.0, 0.0)
    line_up(g, "hank:wrestler")
    assert not g.world.in_circle()
    return g
