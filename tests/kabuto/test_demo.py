"""`kabuto demo`: one legal push into a fresh game, headless."""
from __future__ import annotations

from kabuto import cli
from physics import Materials


def test_the_demo_pushes_at_the_rules_limit_and_passes_the_turn(capsys):
    assert cli.main(["demo"]) == 0
    out = capsys.readouterr().out
    top = Materials.load().sim.max_speed
    assert "pushed a medium disc from 180 deg" in out and f"at {top:g} m/s" in out
    assert "Turn 2: seat 1" in out                # the push ended the first player's turn


def test_the_demo_refuses_a_flick_in_one_line(capsys):
    assert cli.main(["demo", "--speed", "3"]) == 2
    err = capsys.readouterr().err
    sim = Materials.load().sim
    assert err.strip() == ("kabuto demo: hand speed 3 m/s is a flick, not a push: "
                           f"push at {sim.min_speed:g} to {sim.max_speed:g} m/s")
