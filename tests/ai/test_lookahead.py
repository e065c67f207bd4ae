"""The look-ahead (hard, expert): the AI does not play a push that leaves its own wrestler to be
knocked out on the next turn (issue 16, point 5: "the AI defends")."""
from __future__ import annotations

import dataclasses
import random

import pytest

from kabuto import Game
from kabuto.ai import choose, level, play_turn, scoring, search
from kabuto.ai.levels import config
from kabuto.ai.lookahead import after_reply, turn_ended
from kabuto.ai.plan import PushChoice
from kabuto.rules.inventory import BOARD
from tests.ai.helpers import cleared, hank_lined_up_before_mike, small_level, teetering
from tests.kabuto.scenarios import line_up

FLAT = small_level("test-flat", broad=40)                       # one ply (as STEADY)
LOOKS = small_level("test-looks", broad=40, reply_top=4, reply_broad=16)


def hank_in_front_of_mike() -> Game:
    """Hank (seat 0, to move) at the end of a line of discs, left of the centre circle, Mike right
    of it: driving the line pushes Hank towards the centre (which a 1-ply score likes: away from
    the edge) and into the circle, where Mike's Vice Grip wins on his turn."""
    return hank_lined_up_before_mike()


@pytest.mark.usefixtures("grip_takes_wrestlers")
def test_a_push_that_drives_the_own_wrestler_into_mikes_circle_is_seen_as_lost():
    """The same push and the same board against Goliath Gus (no Vice Grip) is not a loss."""
    cfg = config()
    values = {}
    for foe in ("mike", "gus"):
        g = hank_in_front_of_mike()
        if foe == "gus":
            g = cleared(["hank", "gus"])
            g.edit("gus:wrestler", BOARD, 0.06, 0.0, 180.0)
            g.edit("hank:wrestler", BOARD, -0.047, 0.0, 0.0)
            line_up(g, "hank:wrestler")
        after = turn_ended(g, PushChoice("medium", 180.0, 0.0, 0.4))   # straight down the line
        assert after is not None and "hank:wrestler" in after.world.in_circle()
        values[foe], spent = after_reply(after, 0, 8, random.Random(0), cfg.search, cfg.weights, 1)
    assert values["mike"] == cfg.weights.loss
    assert values["gus"] > cfg.weights.loss


def blind_to_vice_grip(monkeypatch) -> None:
    """The search's scoring without its ``grip_danger`` term (the static penalty for a wrestler by
    the circle in front of Vice Grip), so that only the look-ahead can see the trap."""
    cfg = config()
    blind = dataclasses.replace(cfg, weights=dataclasses.replace(cfg.weights, grip_danger=0.0))
    for module in (search, scoring):   # workers=1: every score is made in this process
        monkeypatch.setattr(module, "config", lambda: blind)


@pytest.mark.usefixtures("grip_takes_wrestlers")
def test_the_look_ahead_keeps_its_wrestler_out_of_the_circle_where_one_ply_does_not(monkeypatch):
    """Seeded decisions, scored without the static Vice Grip term: without the look-ahead the AI
    drives its own wrestler into the circle (the test's position is a real trap); with it, never."""
    blind_to_vice_grip(monkeypatch)
    flat, looks = [], []
    for seed in range(3):
        g = hank_in_front_of_mike()
        play_turn(g, choose(g, FLAT, seed=seed, workers=1))
        flat.append("hank:wrestler" in g.world.in_circle())
        g = hank_in_front_of_mike()
        play_turn(g, choose(g, LOOKS, seed=seed, workers=1))
        looks.append("hank:wrestler" in g.world.in_circle())
        assert not g.is_over
    assert any(flat), "the position no longer tempts a 1-ply search: the test checks nothing"
    assert not any(looks)


@pytest.mark.usefixtures("grip_takes_wrestlers")
def test_one_ply_with_the_vice_grip_term_also_stays_out_of_the_circle():
    """With the shipped scoring (``grip_danger``) even a level without look-ahead (easy, medium)
    keeps its wrestler out of the trap above: a wrestler touching the circle in front of Mike
    scores far below one a push's drive away."""
    for seed in range(3):
        g = hank_in_front_of_mike()
        play_turn(g, choose(g, FLAT, seed=seed, workers=1))
        assert "hank:wrestler" not in g.world.in_circle(), f"seed {seed}"


def test_hard_and_expert_look_ahead_and_expert_searches_more():
    assert not level("medium").looks_ahead
    assert level("hard").looks_ahead and level("expert").looks_ahead
    assert level("expert").budget > level("hard").budget
    assert level("expert").reply_broad >= level("hard").reply_broad


def test_refining_the_replies_finds_a_narrow_knock_out_the_broad_sample_misses():
    """Hank teeters on the right edge at the end of a line of discs: one push straight down the line
    knocks him out, a narrow aim that a few sampled replies seldom meet. Refining the most damaging
    replies (expert's ``reply_refine_top``) can only add replies, never take one away, so it never
    thinks the position safer; seeded, it finds the knock-out in more positions' samples."""
    cfg = config()
    g = cleared(["hank", "gus"], first_player=1)   # Gus to move: the reply to Hank's turn
    teetering(g, "hank:wrestler", g.materials.ring.radius - 0.012, 0.0)
    plain, refined = [], []
    for seed in range(12):
        a, spent_a = after_reply(g, 0, 4, random.Random(seed), cfg.search, cfg.weights, 1)
        b, spent_b = after_reply(g, 0, 4, random.Random(seed), cfg.search, cfg.weights, 1,
                                 refine=(2, 6, 2))
        assert b <= a, f"seed {seed}: refining made a reply disappear"
        assert spent_b > spent_a or b == cfg.weights.loss
        plain.append(a == cfg.weights.loss)
        refined.append(b == cfg.weights.loss)
    assert sum(refined) > sum(plain)


def test_a_levels_refined_replies_count_in_its_budget():
    hard = level("hard")
    more = hard.with_changes(name="test-refined", reply_refine_top=2, reply_refine_per=5)
    assert more.budget - hard.budget == hard.reply_top * 2 * 5 * hard.refine_rounds
