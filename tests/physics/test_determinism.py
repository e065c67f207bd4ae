"""A push's outcome depends only on the at-rest state before it and the push, in any process."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from physics import Push, World, state_hash
from tests.physics.helpers import allowed, board_2p

#: Three pushes (kind, entry, heading, speed) from spots the 2P board leaves free.
PUSHES = [("medium", 20, 5, 0.7), ("large", 250, -30, 1.1), ("small", 130, 40, 0.4)]
SCRIPT = textwrap.dedent(f"""
    import json, sys
    from physics import Push, World, state_hash
    snap = json.loads(sys.stdin.read())
    world = World.from_snapshot(snap)
    for i, (kind, e, h, v) in enumerate({PUSHES!r}):
        world.push(Push(f"P{{i}}", kind, e, h, v))
    print(state_hash(world.snapshot()))
""")


def _pushes(world: World) -> World:
    for i, (kind, e, h, v) in enumerate(PUSHES):
        world.push(Push(f"P{i}", kind, e, h, v))
    return world


def test_the_same_pushes_from_the_same_snapshot_are_bit_identical_in_two_processes():
    snap = board_2p().snapshot()
    here = state_hash(_pushes(World.from_snapshot(snap)).snapshot())
    outs = [subprocess.run([sys.executable, "-c", SCRIPT], input=json.dumps(snap), text=True,
                           capture_output=True, check=True).stdout.strip() for _ in range(2)]
    assert outs == [here, here]


def test_a_snapshot_round_trips_through_json_exactly():
    world = _pushes(board_2p())
    snap = world.snapshot()
    again = World.from_snapshot(json.loads(json.dumps(snap)))
    assert again.snapshot() == snap
    assert state_hash(again.snapshot()) == state_hash(snap)


def test_a_resumed_world_continues_exactly_like_the_uninterrupted_one():
    straight = board_2p()
    straight.push(Push("A", "medium", 10, 0, 0.8))
    resumed = World.from_snapshot(json.loads(json.dumps(straight.snapshot())))
    # The first platform spot that no piece overhangs after the first push.
    second = next(p for p in (Push("B", "large", e, 10, 0.9) for e in (150, 200, 250, 300))
                  if allowed(straight, p))
    r1 = straight.push(second)
    r2 = resumed.push(second)
    assert r1.fell == r2.fell and r1.steps == r2.steps
    assert state_hash(r1.snapshot) == state_hash(r2.snapshot)


def test_the_hash_sees_the_last_bit_of_a_coordinate():
    snap = board_2p().snapshot()
    tweaked = json.loads(json.dumps(snap))
    x = tweaked["pieces"][3]["x"]
    import math
    tweaked["pieces"][3]["x"] = math.nextafter(x, math.inf)
    assert state_hash(tweaked) != state_hash(snap)


def test_preview_leaves_the_world_unchanged():
    world = board_2p()
    before = world.snapshot()
    world.preview(Push("P", "large", 0, 0, 1.2))
    assert world.snapshot() == before
