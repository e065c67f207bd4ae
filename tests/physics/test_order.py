"""Outcomes do not depend on what the pieces are called or in which order they are handed over.

The same pieces in the same places under other names (ids swapped within each kind), given in a
shuffled order, must lose the same pieces and end in the same places (to 0.5 mm; the simulator
builds its Space in an order of positions, not ids, so in fact exactly). ``tools/bench_fidelity.py``
runs the issue's 400 pushes and reports the figure.
"""
from __future__ import annotations

import random

import pytest

from kabuto.lab.positions import compare_relabelled as compare
from tests.physics.helpers import allowed, board, random_push


@pytest.mark.parametrize("players", [2, 3, 4])
def test_relabelled_and_reordered_pieces_give_the_same_outcome(players):
    rng = random.Random(1500 + players)
    world = board(players)
    world.settle()
    for i in range(6):
        push = random_push(world, rng)
        if not allowed(world, push):
            continue
        same_falls, worst = compare(world, push, rng)
        assert same_falls, push
        assert worst <= 5e-4, push
        world.push(push if i % 2 else push)   # move on, so later pushes meet other crowds
        if push.piece in world:
            world.remove(push.piece)
