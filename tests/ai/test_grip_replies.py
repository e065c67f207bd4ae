"""Pushes that drive a wrestler in towards Mighty Jaw Mike's circle (issue 16): the side with Vice
Grip samples them, and the look-ahead answers with them on its behalf, so the AI sees the real
threat of a push in and a grip instead of fleeing the middle of the ring for the edge. All of it
under the reading where Vice Grip takes wrestlers; the shipped card grips discs only."""
from __future__ import annotations

import dataclasses
import math
import random

import pytest

from kabuto import Game
from kabuto.ai.candidates import broad, inward, wrap_deg
from kabuto.ai.levels import config
from kabuto.ai.lookahead import after_reply
from kabuto.ai.plan import PushChoice
from tests.ai.helpers import hank_lined_up_before_mike

#: The push in and the grip are a threat only where Vice Grip takes wrestlers (not the shipped
#: card since issue 42: docs/rules-notes.md, "Vice Grip grips discs").
pytestmark = pytest.mark.usefixtures("grip_takes_wrestlers")


def distance_mm(g: Game, pid: str) -> float:
    p = g.world.piece(pid)
    return math.hypot(p.x, p.y) * 1000.0


def test_inward_pushes_drive_the_opposing_wrestler_towards_the_centre():
    """On the starting board, Mike's pushes from behind Hank's wrestler leave it nearer the centre
    than it stood (the pushed piece, or the crowd it drives, strikes it from the outside)."""
    g = Game.new(players=2, wrestlers=["mike", "hank"], seed=0, first_player=0)
    before = distance_mm(g, "hank:wrestler")
    cands = inward(g, 0, 12, random.Random(1), config().search)
    assert len(cands) == 12
    nearer = farther = 0
    for _, kind, entry, heading, speed, spin in cands:
        after = g.clone()
        after.push(*PushChoice(kind, entry, heading, speed, spin).args(), end_turn=False)
        nearer += distance_mm(after, "hank:wrestler") < before - 5.0
        farther += distance_mm(after, "hank:wrestler") > before + 1.0
    # Half by 5 mm or more: on the crammed board the crowd between the edge and the wrestler
    # takes some of a push, and a slow small may stop short of it; none drives it outwards.
    assert nearer >= 6 and farther == 0, (nearer, farther)


def test_only_a_side_with_vice_grip_samples_them():
    """Hank's broad sample is the same with or without a grip share; Mike's holds pushes started
    within ``grip_spread_deg`` of Hank's own bearing (a flank push starts at least 15 degrees round)."""
    search = config().search
    none = dataclasses.replace(search, grip_share=0.0)
    g = Game.new(players=2, wrestlers=["hank", "mike"], seed=0, first_player=0)
    assert broad(g, 0, 60, random.Random(3), search) == broad(g, 0, 60, random.Random(3), none)
    g = Game.new(players=2, wrestlers=["mike", "hank"], seed=0, first_player=0)
    p = g.world.piece("hank:wrestler")
    bearing = math.degrees(math.atan2(p.y, p.x))
    behind = [c for c in broad(g, 0, 60, random.Random(3), search)
              if abs(wrap_deg(c[2] - bearing)) <= search.grip_spread_deg]
    expected = round(round(round(60 * search.aimed_share) * search.wrestler_share) * search.grip_share)
    assert expected > 0 and len(behind) >= expected


def hank_by_the_circle() -> Game:
    """Hank's wrestler a few millimetres outside the centre circle at the end of a line of discs
    from the left edge, Mike to move: a push down the line drives Hank into the circle, and Vice
    Grip after the push takes him."""
    return hank_lined_up_before_mike(hank_x=-0.035, first_player=1)


def test_the_look_ahead_sees_a_push_in_and_a_grip():
    """With no sampled replies, only the inward ones can find the threat: with them the position
    is lost for Hank, without them it is not."""
    cfg = config()
    assert cfg.search.grip_replies > 0
    blind = dataclasses.replace(cfg.search, grip_replies=0)
    seen, _ = after_reply(hank_by_the_circle(), 0, 0, random.Random(0), cfg.search, cfg.weights, 1)
    missed, _ = after_reply(hank_by_the_circle(), 0, 0, random.Random(0), blind, cfg.weights, 1)
    assert seen == cfg.weights.loss
    assert missed > cfg.weights.loss


def test_a_push_in_and_a_grip_win_mikes_turn():
    """The line the look-ahead fears, played by hand: Mike shoves the line of discs from the left
    edge at a moderate speed (at the top speed Hank glides on through the circle and out of it),
    Hank's wrestler stops in the circle, and Vice Grip after the push knocks it out."""
    g = hank_by_the_circle()
    g.push("medium", 180.0, 0.0, 0.3, end_turn=False)
    assert "hank:wrestler" in g.world.in_circle()
    g.use_move(1, "Vice Grip", piece="hank:wrestler")
    assert g.is_over and g.winner == g.side_of(1)


@pytest.mark.parametrize("seed", [1, 2])
def test_mike_moving_first_finds_the_push_in_and_the_grip(seed):
    """A push that sets up the grip leaves Hank nearer the centre, a worse position by the push's
    own score; the hard AI tries the pushes from behind him with every move after each, and
    wins (its hand wobbles, but a push down the line is forgiving)."""
    from kabuto.ai import choose, play_turn

    g = hank_by_the_circle()
    play_turn(g, choose(g, "hard", seed=seed, workers=1))
    assert g.is_over and g.winner == g.side_of(1)
