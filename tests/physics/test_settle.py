"""A preview that stops once settled (``World.preview(push, settle_within=...)``, the AI's quick
look) foresees exactly the falls of the whole run, and leaves every piece within the promised
distance of where the whole run brings it to rest: checked against the whole run itself, push by
push, over seeded pushes into the starting crowd and into a crowd with stacks."""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from physics import Push, World
from tests.physics.helpers import board_2p, random_push, stacked_crowd

WITHIN = 1e-3  # the AI's sketch_settle_mm


def _settled_crowd() -> World:
    world = board_2p()
    world.settle()
    return world


CROWD = _settled_crowd()


def _compare(world: World, push: Push) -> tuple[int, int]:
    """Assert the settled preview agrees with the whole run; return both step counts."""
    full = world.preview(push)
    quick = world.preview(push, settle_within=WITHIN)
    assert quick.fell_ids == full.fell_ids
    assert [f.carried_by for f in quick.fell] == [f.carried_by for f in full.fell]
    rest = {d["id"]: (d["x"], d["y"]) for d in full.snapshot["pieces"]}
    near = {d["id"]: (d["x"], d["y"]) for d in quick.snapshot["pieces"]}
    assert near.keys() == rest.keys()
    for pid, spot in rest.items():
        assert math.dist(spot, near[pid]) <= WITHIN + 1e-4, pid  # + Chipmunk's last push-out
    assert quick.steps <= full.steps
    return quick.steps, full.steps


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_a_settled_preview_foresees_the_whole_runs_falls_and_rests_close(seed):
    push = random_push(CROWD, random.Random(seed))
    try:
        _compare(CROWD, push)
    except ValueError:  # a platform spot the crowd blocks: refused both ways alike
        with pytest.raises(ValueError):
            CROWD.preview(push)


def test_it_saves_steps_on_pushes_into_the_crowd():
    """Seeded pushes at the hand's speeds: the quick look stops before the whole run, on average
    (the last crawl to rest and the push-out of overlaps are what it skips: about an eighth of the
    steps of these pushes)."""
    rng = random.Random(5)
    quick = full = 0
    for _ in range(24):
        q, f = _compare(CROWD, random_push(CROWD, rng))
        quick, full = quick + q, full + f
    assert quick < 0.95 * full


def test_with_stacks_on_the_ring_it_runs_to_rest():
    """A rider's drop changes what holds it, so the bound is not trusted while pieces ride on
    others: the quick look is then the whole run, step for step."""
    world = stacked_crowd()
    rng = random.Random(2)
    for i in range(4):
        push = random_push(world, rng, pid=f"P{i}", top=0.5)
        try:
            q, f = _compare(world, push)
        except ValueError:
            continue
        assert q == f
