"""Properties of random legal games (hypothesis): every piece always in exactly one place, games end.

Random games use pushes at modest speeds (so a game lasts tens of actions, not hundreds), random
signature moves with random targets, and sometimes a deliberately refused action, which must change
nothing. Raise KABUTO_PROPERTY_EXAMPLES for a deeper run.
"""
from __future__ import annotations

import json
import math
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kabuto import Game, IllegalMove
from tests.kabuto.scenarios import check_conservation

EXAMPLES = int(os.environ.get("KABUTO_PROPERTY_EXAMPLES", "4"))
#: No random game of ours came near this many actions (the longest of 120 measured: 63).
ACTION_CAP = 300
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _random_targets(rng: random.Random, option) -> dict:
    out = {}
    for t in option.targets:
        if t.choices:
            out[t.name] = rng.choice(t.choices)
        elif t.kind == "distance_mm":
            out[t.name] = rng.uniform(0.5, t.high)
        else:
            out[t.name] = rng.uniform(t.low, t.high)
    return out


def _refused_attempt(rng: random.Random, g: Game) -> None:
    """Something the rules refuse now; it must raise IllegalMove and change nothing."""
    other = (g.current_seat + 1) % g.players
    attempts = [
        lambda: g.push("small", 90.0, 89.0, 0.3),                       # aimed beyond the platform
        lambda: g.push(g.ledger.pieces_in("supply")[0], 90.0),          # a piece from the supply
        lambda: g.use_move(other, g.seats[other].wrestler.moves[0].name),  # not their turn
    ]
    if not g.can_end_turn:
        attempts.append(lambda: g.end_turn())
    before = json.dumps(g.to_json(), sort_keys=True)
    with pytest.raises(IllegalMove):
        rng.choice(attempts)()
    assert json.dumps(g.to_json(), sort_keys=True) == before


def play_random(g: Game, rng: random.Random, max_speed: float) -> int:
    """Play random legal actions to the end, checking conservation after each. Returns actions."""
    ids = set(g.locations())
    R = g.materials.ring.radius
    for n in range(ACTION_CAP):
        if g.is_over:
            return n
        roll = rng.random()
        if roll < 0.1 and g.ledger.pieces_in("supply"):
            _refused_attempt(rng, g)
        elif roll < 0.35 and not g.junior:
            usable = [o for o in g.available_moves() if o.usable]
            if usable:
                o = rng.choice(usable)
                try:
                    g.use_move(g.current_seat, o.name, **_random_targets(rng, o))
                except IllegalMove:
                    pass  # a target that does not work out: refused, nothing changed
        elif g.legal_pieces():
            lock = g.locked_platform()
            entry, heading = lock if lock else (rng.uniform(0, 360), rng.uniform(-60, 60))
            try:
                g.push(rng.choice(g.legal_kinds()), entry, heading, rng.uniform(0.05, max_speed),
                       rng.uniform(-180, 180), end_turn=rng.random() < 0.8)
            except IllegalMove as exc:
                assert "blocked" in str(exc)   # the only refusal a legal-looking push meets
        else:
            g.end_turn()
        check_conservation(g, ids)
        assert all(math.hypot(p.x, p.y) <= R for p in g.world.pieces)
    pytest.fail(f"a random game did not end within {ACTION_CAP} actions")


@pytest.mark.parametrize("players", [2, 3, 4])
@SETTINGS
@given(seed=st.integers(0, 2**31 - 1))
def test_random_games_conserve_pieces_and_end(players, seed):
    rng = random.Random(seed)
    g = Game.new(players=players, seed=seed)
    play_random(g, rng, max_speed=0.8)
    assert g.is_over and g.result.text
    if g.winner is not None:
        assert set(g.result.seats) <= set(g.sides[g.winner])
    loaded = Game.from_json(json.loads(json.dumps(g.to_json())))
    assert loaded.to_json() == g.to_json()


@pytest.mark.parametrize("players", [2, 4])
@SETTINGS
@given(seed=st.integers(0, 2**31 - 1))
def test_random_junior_league_games_conserve_pieces_and_end(players, seed):
    rng = random.Random(seed)
    g = Game.new(players=players, seed=seed, junior=True)
    play_random(g, rng, max_speed=0.8)
    assert g.is_over


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_a_random_game_replays_from_its_history(seed):
    rng = random.Random(seed)
    g = Game.new(players=3, seed=seed)
    play_random(g, rng, max_speed=0.8)
    assert json.dumps(Game.replay(g.setup, g.history).to_json()) == json.dumps(g.to_json())
