"""The AI's choices on arranged boards: it takes a sure win, does not throw its own wrestler out,
uses a signature move that wins, and its plans are deterministic and replay exactly."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kabuto import Game
from kabuto.ai import MoveChoice, Plan, PushChoice, choose, level, play_turn
from kabuto.ai.candidates import wrap_deg
from kabuto.rules.inventory import BOARD
from tests.ai.helpers import STEADY, WIDE, cleared, small_level, teetering
from tests.kabuto.scenarios import first_round


def snapshot(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def test_pushes_out_an_opposing_wrestler_at_the_edge():
    """Three seeds of four at least find the winning push, a narrow line down the crowd (half the
    pushes aimed at a wrestler come from its flank since issue 16, so fewer come down the line),
    and the hand's wobble spoils at most one more (seeded: the wobble drawn depends on the
    position, the ring's data included)."""
    found = won = 0
    for seed in range(4):
        g = cleared(["hank", "gus"])
        g.edit("hank:wrestler", BOARD, 0.0, -0.06, 0.0)
        teetering(g, "gus:wrestler", 0.078, 0.0)        # Gus teeters on the right edge of a crowd
        plan = choose(g, WIDE, seed=seed, workers=1)
        found += plan.predicted.winner == 0
        play_turn(g, plan)
        assert "hank:wrestler" in g.world
        won += g.is_over and g.winner == 0 and "gus:wrestler" not in g.world
    assert found >= 3
    assert won >= 2


def test_knocks_out_the_opponent_but_not_its_own_wrestler_beside_it():
    # Both wrestlers side by side at the right edge, each at the end of a line of discs: about as
    # many pushes drive Hank's line (a loss: knocking out your own wrestler) as Gus's (a win).
    results = []
    for seed in range(24):
        g = cleared(["hank", "gus"])
        g.edit("gus:wrestler", BOARD, 0.0, -0.07, 0.0)     # out of the way of the lines
        teetering(g, "hank:wrestler", 0.074, 0.017)
        teetering(g, "gus:wrestler", 0.074, -0.017)
        play_turn(g, choose(g, WIDE, seed=seed, workers=1))
        assert "hank:wrestler" in g.world, f"seed {seed}: the AI knocked out its own wrestler"
        results.append(g.winner)
    # Never its own, and the win for at least a third of the seeds. Seeded: the seeds the AI draws
    # depend on the position, the game's data included, so a change of board or circle redraws them
    # (4 of the first 6 seeds on the earlier data, 2 of 6 on the earlier 2P board, 7 of 12 and 10
    # of 16 there; 5 of 12 and 12 of 24 on design round 3's): 24 seeds keep the check about the AI,
    # not about the draw (at the AI's rate of about a half, fewer than 8 of 24 is a 3% chance).
    assert results.count(0) >= 8


@pytest.mark.usefixtures("grip_takes_wrestlers")
def test_vice_grip_wins_without_a_push_when_the_opponent_is_in_the_centre():
    g = cleared(["mike", "hank"])
    g.edit("hank:wrestler", BOARD, 0.0, 0.0, 0.0)    # inside the centre circle
    g.edit("mike:wrestler", BOARD, 0.0, -0.06, 0.0)
    plan = choose(g, "easy", seed=0, workers=1)
    assert plan.steps == (MoveChoice("Vice Grip", {"piece": "hank:wrestler"}),)
    assert plan.push is None
    play_turn(g, plan)
    assert g.winner == 0
    assert [a["type"] for a in g.history if a["type"] in ("push", "move")][-1] == "move"


def test_choosing_leaves_the_game_as_it_was():
    g = Game.new(players=2, wrestlers=["dora", "bea"], seed=4, first_player=1)
    before = snapshot(g)
    choose(g, STEADY, seed=3, workers=1)
    assert snapshot(g) == before


def test_same_plan_whatever_the_number_of_workers():
    lvl = small_level("test-pool", broad=16, refine_top=2, refine_rounds=1, refine_per=3,
                      robust_top=2, robust_samples=1)
    g = Game.new(players=2, wrestlers=["annie", "rita"], seed=5, first_player=0)
    one = choose(g, lvl, seed=9, workers=1)
    two = choose(g, lvl, seed=9, workers=2)
    assert one.to_json() == two.to_json()
    assert one.previews == two.previews >= 16 + 2 * 3 + 2


def test_same_seed_same_plan_and_the_seed_matters():
    g = Game.new(players=2, wrestlers=["jade", "gus"], seed=6, first_player=0)
    a = choose(g, "easy", seed=1, workers=1)
    assert choose(g, "easy", seed=1, workers=1) == a
    assert any(choose(g, "easy", seed=s, workers=1).push != a.push for s in (2, 3, 4))


def test_the_executed_push_is_the_wobbled_aim_and_the_history_replays_exactly():
    g = Game.new(players=2, wrestlers=["mike", "rita"], seed=7, first_player=0)
    plan = choose(g, "easy", seed=5, workers=1)
    assert plan.push is not None and plan.aim is not None
    assert (plan.push.entry_deg, plan.push.heading_deg, plan.push.speed) != \
        (plan.aim.entry_deg, plan.aim.heading_deg, plan.aim.speed)   # easy's hand wobbles
    play_turn(g, plan)
    pushed = [a for a in g.history if a["type"] == "push"]
    assert len(pushed) == 1
    assert PushChoice(pushed[0]["kind"], pushed[0]["entry_deg"], pushed[0]["heading_deg"],
                      pushed[0]["speed"], pushed[0]["spin_deg"]) == plan.push
    again = Game.replay(g.setup, g.history)
    assert snapshot(again) == snapshot(g)


def test_a_stale_plan_is_refused_and_changes_nothing():
    g = Game.new(players=2, wrestlers=["hank", "jade"], seed=8, first_player=0)
    plan = choose(g, "easy", seed=0, workers=1)
    play_turn(g, plan)
    before = snapshot(g)
    with pytest.raises(ValueError, match="another position"):
        play_turn(g, plan)
    assert snapshot(g) == before


def test_plans_survive_json():
    g = Game.new(players=2, wrestlers=["bea", "annie"], seed=9, first_player=1)
    plan = choose(g, "easy", seed=3, workers=1)
    assert Plan.from_json(json.loads(json.dumps(plan.to_json()))) == plan


@pytest.mark.parametrize("wrestler", ["mike", "hank", "annie", "rita", "gus", "jade", "dora", "bea"])
def test_every_wrestler_gets_a_turn_the_rules_accept(wrestler):
    other = "gus" if wrestler != "gus" else "mike"
    g = Game.new(players=2, wrestlers=[wrestler, other], seed=10, first_player=0)
    lvl = small_level("test-moves", broad=8, refine_rounds=0, move_prefixes=3)
    plan = choose(g, lvl, seed=1, workers=1)
    outcomes = play_turn(g, plan)
    assert len(outcomes) == len(plan.steps)
    assert g.is_over or g.current_seat == 1
    assert [a["name"] for a in g.history if a["type"] == "move"] == \
        [s.name for s in plan.steps if isinstance(s, MoveChoice)]


def test_easy_hands_wobble_more_than_hard_hands():
    g = Game.new(players=2, wrestlers=["dora", "hank"], seed=11, first_player=0)

    def mean_error(name: str) -> float:
        lvl = level(name).with_changes(name=f"{name}-cheap", broad=4, refine_rounds=0, robust_top=0,
                                       move_prefixes=0)
        errors = []
        for seed in range(6):
            p = choose(g, lvl, seed=seed, workers=1)
            # The platform's place round the ring: the one aim the wobble never pushes against a
            # limit (a heading near the platform's range, or a speed near the hand's, is clamped).
            errors.append(abs(wrap_deg(p.push.entry_deg - p.aim.entry_deg)))
        return sum(errors) / len(errors)

    assert mean_error("easy") > 3 * mean_error("hard")


@pytest.mark.parametrize("kwargs, message", [
    ({"level": "impossible"}, "level"),
    ({"seed": "x"}, "seed"),
    ({"workers": 0}, "workers"),
])
def test_bad_arguments_are_named(kwargs, message):
    g = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    with pytest.raises(ValueError, match=message):
        choose(g, **kwargs)


def test_no_plan_for_a_finished_game():
    g = cleared(["hank", "gus"])
    g.edit("hank:wrestler", BOARD, 0.0, -0.06, 0.0)
    teetering(g, "gus:wrestler", 0.078, 0.0)
    for seed in range(8):   # the first seed whose push (wobble and all) wins
        trial = g.clone()
        play_turn(trial, choose(trial, WIDE, seed=seed, workers=1))
        if trial.is_over:
            g = trial
            break
    assert g.is_over
    with pytest.raises(ValueError, match="over"):
        choose(g, "easy")



WRESTLERS = ["mike", "hank", "annie", "rita", "gus", "jade", "dora", "bea"]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=st.lists(st.sampled_from(WRESTLERS), min_size=2, max_size=2, unique=True),
       game_seed=st.integers(0, 10**6), ai_seed=st.integers(0, 10**6), first=st.integers(0, 1))
def test_any_turn_is_played_as_planned_and_replays_exactly(pair, game_seed, ai_seed, first):
    g = Game.new(players=2, wrestlers=pair, seed=game_seed, first_player=first)
    lvl = small_level("test-prop", broad=6, refine_rounds=0, move_prefixes=2)
    before = snapshot(g)
    plan = choose(g, lvl, seed=ai_seed, workers=1)
    assert snapshot(g) == before
    play_turn(g, plan)
    acted = [a for a in g.history if a["type"] in ("push", "move")]
    assert len(acted) == len(plan.steps)
    for a, step in zip(acted, plan.steps, strict=True):
        if isinstance(step, PushChoice):
            assert (a["type"], a["kind"], a["entry_deg"], a["heading_deg"], a["speed"]) == \
                ("push", step.kind, step.entry_deg, step.heading_deg, step.speed)
        else:
            assert (a["type"], a["name"]) == ("move", step.name)
    assert snapshot(Game.replay(g.setup, g.history)) == snapshot(g)


@pytest.mark.parametrize("players, junior", [(3, False), (4, False), (2, True)])
def test_three_four_players_and_junior_league_turns_are_played(players, junior):
    g = Game.new(players=players, junior=junior, seed=12)
    seat = g.current_seat
    plan = choose(g, small_level("test-many", broad=8, refine_rounds=0), seed=0, workers=1)
    assert plan.seat == seat and plan.steps
    play_turn(g, plan)
    assert g.is_over or g.current_seat != seat
    # A push, or a move that replaces the turn (on the 3P board of seed 12 Hank's Horn Toss).
    assert plan.push is not None or [a["type"] for a in g.history] == ["move"]
    if junior:
        assert not any(a["type"] == "move" for a in g.history)


def test_a_charge_after_the_push_is_followed_by_its_second_push():
    # Steps run in order: push, Charge (Rhino Rita pays a medium disc), then the second push from
    # the same platform. Charge waits for Rita's second turn: a quiet first round comes first.
    from kabuto.ai.pool import Base

    g = Game.new(players=2, wrestlers=["rita", "gus"], seed=13, first_player=0)
    first_round(g)
    first = PushChoice("small", 90.0, 0.0, 0.3)
    top = g.materials.sim.max_speed   # the second push harder, at the hand's top speed
    plan = Plan(0, "hand-made", 0, Base.of(g).key, g.turn.number,
                (first, MoveChoice("Charge", {}), PushChoice("small", 90.0, 0.0, top)), (first,))
    play_turn(g, plan)
    kinds = [a["type"] for a in g.history[-4:]]
    assert kinds == ["push", "move", "push", "end_turn"]
    assert g.current_seat == 1
