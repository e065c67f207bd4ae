"""The app's AI seats (:func:`kabuto.app.bot.plan_turn`, the Kabuto AI underneath) play within the
rules: the turn they plan is one the game accepts, carried out the way the table carries it out."""
from __future__ import annotations

import pytest

from kabuto import Game
from kabuto.app.bot import plan_turn
from physics import Materials


@pytest.mark.parametrize("limit", [None, 2.0])
def test_an_ai_seat_pushes_within_the_hands_limit_and_the_rules_accept_its_turn(limit):
    """Its speeds follow the game's materials (never faster than the hand allows, also when a
    tuning gives the hand more speed), and the turn plays through :meth:`Game.apply`."""
    mats = Materials.load()
    if limit is not None:
        mats = mats.with_overrides({"simulation.max_speed": limit})
    g = Game.new(players=2, wrestlers=["mike", "hank"], seed=3, first_player=0, materials=mats)
    sim = g.materials.sim
    plan = plan_turn(g, 0, "easy", seed=4, workers=1)
    assert plan is not None and plan.pushes
    assert all(sim.min_speed <= p.speed <= sim.max_speed for p in plan.pushes)
    for action in plan.actions:
        if g.is_over or g.current_seat != 0:
            break
        g.apply(action)
    assert g.is_over or g.current_seat == 1


def test_an_ai_seat_plans_nothing_out_of_its_turn():
    g = Game.new(players=2, wrestlers=["mike", "hank"], seed=3, first_player=0)
    assert plan_turn(g, 1, "easy", seed=0, workers=1) is None
