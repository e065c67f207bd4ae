"""Worlds for the physics tests."""
from __future__ import annotations

import math
import random

from kabuto.rules.boards import stand_in_wrestlers, starting_board
from kabuto.rules.wrestlers import wrestler
from physics import Materials, PieceState, Push, World


def materials(**overrides: float) -> Materials:
    """The default materials, with ``overrides`` (keys as :meth:`Materials.with_overrides` takes).

    Physics simulates any forward speed (the game's "no flicking" limit is a rule of
    :mod:`kabuto.rules`), so these tests shove hard as well: the simulation is good to about 5 m/s.
    """
    return Materials.load().with_overrides(overrides)


def board_2p(m: Materials | None = None) -> World:
    """The game's 2-player starting board, with large discs standing in for the two wrestlers."""
    return World(m or materials(), starting_board(2, stand_in_wrestlers(2, "large")))


def board(players: int, m: Materials | None = None) -> World:
    """The game's starting board for 2, 3 or 4 players, large discs standing in for wrestlers."""
    return World(m or materials(), starting_board(players, stand_in_wrestlers(players, "large")))


def max_overlap(world: World) -> float:
    """Deepest overlap between two pieces on the same level (metres)."""
    return world.max_overlap()


def relabelled(world: World, rng: random.Random) -> tuple[World, dict[str, str]]:
    """The same pieces in the same places under other names (ids swapped at random within each
    kind) and handed over in a shuffled order; returns the world and new id -> old id."""
    by_kind: dict[str, list[str]] = {}
    for p in world.pieces:
        by_kind.setdefault(p.kind, []).append(p.id)
    new_of: dict[str, str] = {}
    for ids in by_kind.values():
        shuffled = ids[:]
        rng.shuffle(shuffled)
        new_of.update(zip(ids, shuffled, strict=True))
    pieces = [PieceState(new_of[p.id], p.kind, p.x, p.y, p.angle,
                         None if p.base is None else new_of[p.base]) for p in world.pieces]
    rng.shuffle(pieces)
    return World(world.materials, pieces), {v: k for k, v in new_of.items()}


def random_push(world: World, rng: random.Random, pid: str = "P", top: float | None = None) -> Push:
    """A push the platform allows, anywhere round the ring, up to the game's speed limit."""
    kind = rng.choice(["small", "medium", "large"])
    steepest = world.steepest_heading(kind)
    top = top if top is not None else world.materials.sim.max_speed
    for _ in range(50):  # a crammed ring's rim has pieces hanging over it: find a free spot
        push = Push(pid, kind, entry_deg=rng.uniform(0, 360),
                    heading_deg=rng.uniform(-steepest, steepest), speed=rng.uniform(0.05, top))
        try:
            world.check_push(push)
        except ValueError:
            continue
        return push
    return push


def allowed(world: World, push: Push) -> bool:
    """Whether the platform may make ``push`` in ``world`` (a spot blocked by a piece hanging over
    the edge, or an aim too steep for the piece, is refused): seeded samples skip the rest."""
    try:
        world.check_push(push)
    except ValueError:
        return False
    return True


def stacked_crowd(m: Materials | None = None) -> World:
    """The 2-player board at rest with stacks on it: a Tower (two small discs on a medium), the
    Boulder (Rhino Rita's heavy octagon) on a large disc, and a 3-high stack (small on medium on
    large)."""
    boulder = wrestler("Goliath Gus").signature_piece("boulder")
    m = (m or materials()).with_kinds({boulder.kind: boulder.type})
    world = board(2, m)
    world.settle()
    spots = {p.id: p for p in world.pieces}
    tower, rock, high = spots["M01"], spots["L2"], spots["L3"]
    world.place("T1", "small", tower.x, tower.y, base="M01")
    world.place("T2", "small", tower.x, tower.y, base="T1")
    world.place("B1", boulder.kind, rock.x, rock.y, base="L2")
    world.place("H1", "medium", high.x, high.y, base="L3")
    world.place("H2", "small", high.x, high.y, base="H1")
    return world


def slide_distance(v: float, mu: float, g: float = 9.81) -> float:
    return v * v / (2 * mu * g)


def stop_distance(v: float, stop: float) -> float:
    """How far a hand moving at ``v`` carries its piece while it slows at ``stop`` (m/s^2)."""
    return v * v / (2 * stop)


#: The 200 mm ring the mechanism tests' worlds are laid out on (the game's ring is 170 mm since
#: issue 42; what these tests check does not depend on the ring's size).
RING_200 = {"ring.radius": 0.100}


def dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
