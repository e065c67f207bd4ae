"""Every game's observation has the same core shape, so a table view or bot reads them alike."""
from __future__ import annotations

import json
import random

import pytest

import cards

CORE = {"game", "seat", "to_play", "phase", "hand", "events"}


@pytest.mark.parametrize("name", sorted(cards.GAMES))
def test_every_observation_has_the_core_keys_at_every_step(name):
    cls = cards.GAMES[name]
    game = cls.new(players=cls.player_counts[-1], seed=3)
    rng = random.Random(3)
    for _ in range(400):
        for seat in range(game.num_players):
            obs = game.observation(seat)
            assert CORE <= obs.keys()
            assert obs["game"] == name and obs["seat"] == seat
            assert obs["to_play"] == game.to_play
            json.dumps(obs)
            for event in obs["events"]:
                assert "player" not in event  # the acting seat is always called "seat"
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
