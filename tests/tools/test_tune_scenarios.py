"""The shipped scenarios, run under physics, checked against what physics says should happen."""
from __future__ import annotations

import math
from dataclasses import replace

import pytest

from kabuto.rules.boards import load_setups
from kabuto.tuning import TuneError
from kabuto.tuning.params import Grid, Range
from kabuto.tuning.scenario import (
    build_world,
    list_scenarios,
    load_scenario,
    run_scenario,
    scenario_from_dict,
)
from kabuto.tuning.sweep import run_sweep

G = 9.81
REQUIRED = {"free-slide", "head-on", "line-of-three", "crowd-2p", "stack-jolt"}


def test_the_required_scenarios_are_shipped_and_the_targets_example_is_not_listed():
    names = set(list_scenarios())
    assert REQUIRED <= names
    assert "calibration-example" not in names


@pytest.mark.parametrize("name", sorted(list_scenarios()))
def test_every_scenario_runs_to_rest_with_a_finite_number_for_each_metric(name, materials):
    scenario = load_scenario(name)
    outcome = run_scenario(scenario, materials)
    assert list(outcome.metrics) == scenario.metric_names
    assert all(math.isfinite(v) for v in outcome.metrics.values())
    assert not outcome.stalled and not outcome.capped


def test_free_slide_distance_matches_v2_over_2_mu_g_across_a_friction_sweep(materials):
    # A disc sliding on its own decelerates at mu*g: it stops v^2/(2 mu g) further on. The
    # simulation adds up to a step of travel (half a step from Chipmunk integrating position
    # before friction acts).
    scenario = load_scenario("free-slide")
    assert scenario.launches == {"P"}  # no hand: the game's hand would stop with the disc
    frictions = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
    speeds = (0.2, 0.45)
    grid = Grid((Range("table_friction", frictions), Range("push.speed", speeds)))
    result = run_sweep(scenario, materials, grid, workers=1, progress=False)
    dt = materials.sim.dt
    for point, slide in zip(result.points, result.metric("slide_mm"), strict=True):
        mu, v = point["table_friction"], point["push.speed"]
        theory = 1000 * v * v / (2 * mu * G)
        assert theory <= slide <= theory + 1000 * v * dt, (mu, v, slide, theory)


def test_the_same_disc_pushed_by_the_hand_stops_with_it_at_v2_over_2_hand_stop(materials):
    # The game's push: once the disc is wholly on the ring the hand, still on it, slows at
    # simulation.hand_stop (a) and stops, so the disc goes v^2/(2 a) on, not v^2/(2 mu g). The
    # simulation adds up to two steps of travel: one because the hand starts stopping on the first
    # step after the disc is wholly in, half a step from stepping the hand's slowing, half a step
    # from Chipmunk integrating position before friction acts.
    scenario = replace(load_scenario("free-slide"), launches=frozenset())
    dt = materials.sim.dt
    for a in (12.0, 25.0):
        m = materials.with_overrides({"simulation.hand_stop": a})
        for v in (0.1, 0.3, 0.5):
            slide = run_scenario(scenario, m, {"push.speed": v}).metrics["slide_mm"]
            theory = 1000 * v * v / (2 * a)
            assert theory <= slide <= theory + 1000 * 2 * v * dt, (a, v, slide, theory)
            assert slide < 1000 * v * v / (2 * m.kinds["small"].table_friction * G)


def test_head_on_hit_hands_on_the_share_of_speed_restitution_says(materials):
    # An equal disc at rest takes u(1+e)/2 of the pusher's speed u at the hit, so it slides
    # ((1+e)/2)^2 times as far as the pusher would have from the hit with nothing in its way.
    head_on, free = load_scenario("head-on"), load_scenario("free-slide")
    target = head_on.pieces[0]
    push = head_on.pushes[0]
    r = materials.kinds["small"].shape.radius
    entry_x = -materials.ring.radius + r          # the pusher is wholly in the ring here
    hit_x = target.x - 2 * r                      # and touches the target here
    for e in (0.1, 0.4, 0.7):
        m = materials.with_overrides({"restitution": e})
        moved = run_scenario(head_on, m).metrics["target_mm"]
        free_slide = run_scenario(free, m, {"push.speed": push.speed}).metrics["slide_mm"]
        unhindered = free_slide - 1000 * (hit_x - entry_x)
        estimate = 2 * math.sqrt(moved / unhindered) - 1
        assert estimate == pytest.approx(e, abs=0.04)


def test_a_small_hitting_a_large_moves_it_by_the_mass_ratio(materials):
    # The large takes u m (1+e)/(m+M) of the small's speed u at the hit: doubling the small's mass
    # changes the large's slide by the square of the ratio of those shares.
    scenario = load_scenario("small-hits-large")
    M = materials.kinds["large"].mass
    e = materials.kinds["small"].restitution
    out = {}
    for m in (0.001, 0.002):
        mat = materials.with_overrides({"mass.small": m})
        out[m] = run_scenario(scenario, mat).metrics["target_mm"]
    share = {m: m * (1 + e) / (m + M) for m in out}
    assert out[0.002] / out[0.001] == pytest.approx((share[0.002] / share[0.001]) ** 2, rel=0.05)


def test_a_jolted_stack_slips_more_the_harder_the_hit_and_falls_apart_when_hit_hard(materials):
    scenario = load_scenario("stack-jolt")
    runs = [run_scenario(scenario, materials, {"push.speed": v}).metrics for v in (0.45, 0.6, 1.2)]
    slips = [r["rider_slip_mm"] for r in runs]
    assert slips == sorted(slips) and slips[0] < slips[-1]
    assert runs[0]["base_mm"] > 0 and runs[0]["stack_survival"] == 1.0  # a gentle hit: it rides along
    # A hard hit: the medium is knocked from under the small (its centre leaves the medium's disc).
    assert runs[-1]["stack_survival"] == 0.0
    assert slips[-1] > 1000 * materials.kinds["medium"].shape.radius


def test_edge_shove_knocks_the_target_off_only_when_hit_hard_enough_to_slide_past_the_edge(materials):
    # The medium slides d to the small, slowing to u_h = sqrt(u^2 - 2 mu g d); the small takes
    # u_h M (1 + e) / (M + m) and falls if it slides on past the edge (its centre beyond R): it must
    # leave at sqrt(2 mu g (R - x)) or more. 15% either side of that launch speed decides it.
    scenario = load_scenario("edge-shove")
    [target], [push] = scenario.pieces, scenario.pushes
    medium, small = materials.kinds[push.kind], materials.kinds[target.kind]
    R = materials.ring.radius
    entry_x = -R + medium.shape.radius            # launched from where it is wholly in
    d = target.x - small.shape.radius - medium.shape.radius - entry_x
    e = math.sqrt(medium.restitution * small.restitution)  # the pair's (physics: sqrt each)
    M, m = medium.mass, small.mass
    leave = math.sqrt(2 * small.table_friction * G * (R - target.x))
    hit = leave * (M + m) / (M * (1 + e))
    threshold = math.sqrt(hit * hit + 2 * medium.table_friction * G * d)
    soft = run_scenario(scenario, materials, {"push.speed": 0.85 * threshold}).metrics
    hard = run_scenario(scenario, materials, {"push.speed": 1.15 * threshold}).metrics
    assert soft["target_fell"] == 0.0 and soft["knocked_out"] == 0.0
    assert hard["target_fell"] == 1.0 and hard["knocked_out"] >= 1.0
    # A fallen piece is measured to where its centre crossed the edge, along the push line.
    assert hard["target_mm"] == pytest.approx(1000 * (R - target.x), abs=1.0)


def test_crowd_2p_puts_the_whole_starting_board_on_with_wrestler_stand_ins(materials):
    scenario = load_scenario("crowd-2p")
    world = build_world(scenario, materials)
    kinds = [p.kind for p in world.pieces]
    board = load_setups().boards[2]
    assert kinds.count("wrestler") == 2
    assert all(kinds.count(k) == board.count(k) > 0 for k in ("large", "medium", "small"))
    standin = world.materials.kinds["wrestler"]
    assert standin.mass == materials.kinds["large"].mass
    # Tuning the large kind tunes its stand-in too.
    tuned = build_world(scenario, materials.with_overrides({"mass.large": 0.009}))
    assert tuned.materials.kinds["wrestler"].mass == 0.009
    out = run_scenario(scenario, materials).metrics
    assert out["wrestler_mm"] > out["other_wrestler_mm"]   # the push was aimed at seat 0's wrestler


def test_a_harder_push_into_the_crowd_moves_the_wrestler_further(materials):
    scenario = load_scenario("crowd-2p")
    moved = [run_scenario(scenario, materials, {"push.speed": v}).metrics["wrestler_mm"]
             for v in (0.2, 1.0)]
    assert moved[0] < moved[1]


@pytest.mark.parametrize("data, problem", [
    ({"push": [{"piece": "P", "kind": "small", "entry_deg": 0}], "metric": [], "colour": 1},
     "colour: unknown key"),
    ({"push": [{"piece": "P", "kind": "small"}], "metric": [{"name": "a", "what": "fell", "piece": "P"}]},
     "entry_deg: missing"),
    ({"push": [{"piece": "P", "kind": "small", "entry_deg": 0}]}, "at least one [[metric]]"),
    ({"push": [{"piece": "P", "kind": "small", "entry_deg": 0}],
      "metric": [{"name": "a", "what": "wobble", "piece": "P"}]}, "unknown metric 'wobble'"),
    ({"push": [{"piece": "P", "kind": "small", "entry_deg": 0}],
      "metric": [{"name": "a", "what": "displacement", "piece": "Q"}]}, "names piece 'Q'"),
    ({"push": [{"piece": "P", "kind": "small", "entry_deg": 0}],
      "metric": [{"name": "a", "what": "slide", "piece": "T"}],
      "piece": [{"id": "T", "kind": "small", "x": 0, "y": 0}]}, "'T' is not pushed"),
    ({"push": [{"piece": "P", "kind": "small", "entry_deg": 0}],
      "metric": [{"name": "a b", "what": "fell", "piece": "P"}]}, "CSV column name"),
    ({"push": [{"piece": "P", "kind": "small", "entry_deg": 0, "hand": "no"}],
      "metric": [{"name": "a", "what": "fell", "piece": "P"}]}, "hand: must be true or false"),
    ({"push": [{"piece": "P", "kind": "small", "entry_deg": "left"}],
      "metric": [{"name": "a", "what": "fell", "piece": "P"}]}, "entry_deg: must be a finite number"),
])
def test_a_malformed_scenario_is_refused_naming_the_problem(data, problem):
    with pytest.raises(TuneError, match=problem.replace("[", r"\[").replace("]", r"\]")):
        scenario_from_dict("bad", data)


def test_an_unknown_scenario_is_refused_listing_the_known_ones():
    with pytest.raises(TuneError, match=r"unknown scenario 'nope' \(known: .*free-slide"):
        load_scenario("nope")
