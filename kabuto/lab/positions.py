"""Positions the benchmarks and tests share: the game's starting boards as bare physics worlds (large
discs standing in for the wrestlers), a settled board with stacks, seeded pushes the platform allows,
the same world under other names, and positions from seeded AI games.

    >>> import random
    >>> world = board(2)
    >>> push = random_push(world, random.Random(1))
    >>> allowed(world, push)
    True
"""
from __future__ import annotations

import math
import random

from kabuto.rules.boards import stand_in_wrestlers, starting_board
from kabuto.rules.game import Game
from kabuto.rules.wrestlers import load_wrestlers, wrestler
from physics import Materials, PieceState, Push, World


def materials(**overrides: float) -> Materials:
    """The default materials, with ``overrides`` (keys as :meth:`Materials.with_overrides` takes)."""
    return Materials.load().with_overrides(overrides)


def materials_set(settings: list[str]) -> Materials | None:
    """The materials a tool's ``--set KEY=VALUE`` options ask for (None: none given, the assets'
    as they are); ValueError naming the first setting that is not a known key with a number.

    >>> materials_set([]) is None, materials_set(["simulation.max_speed=0.45"]).sim.max_speed
    (True, 0.45)
    """
    overrides: dict[str, float] = {}
    for s in settings:
        key, sep, value = s.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not sep or not math.isfinite(number):
            raise ValueError(f"--set {s}: expected KEY=NUMBER, for example simulation.max_speed=0.45")
        overrides[key] = number
    if not overrides:
        return None
    try:
        return Materials.load().with_overrides(overrides)
    except (KeyError, ValueError) as e:
        raise ValueError(f"--set: {e}") from None


def board_2p(m: Materials | None = None) -> World:
    """The game's 2-player starting board, with large discs standing in for the two wrestlers."""
    return World(m or materials(), starting_board(2, stand_in_wrestlers(2, "large")))


def board(players: int, m: Materials | None = None) -> World:
    """The game's starting board for 2, 3 or 4 players, large discs standing in for wrestlers."""
    return World(m or materials(), starting_board(players, stand_in_wrestlers(players, "large")))


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


def compare_relabelled(world: World, push: Push, rng: random.Random) -> tuple[bool, float]:
    """``push`` in ``world`` and in the same world relabelled (:func:`relabelled`): (the same pieces
    fell, the largest distance between a piece's two ends). Outcomes must not depend on names."""
    other, old_of = relabelled(world, rng)
    a = world.preview(push)
    b = other.preview(push)
    fell_a = sorted(a.fell_ids)
    fell_b = sorted(old_of.get(f, f) for f in b.fell_ids)
    ends_a = {d["id"]: d for d in a.snapshot["pieces"]}
    worst = 0.0
    for d in b.snapshot["pieces"]:
        e = ends_a.get(old_of.get(d["id"], d["id"]))
        if e is not None:
            worst = max(worst, math.hypot(d["x"] - e["x"], d["y"] - e["y"]))
    return fell_a == fell_b, worst


def free_entry(game: Game, piece_or_kind: str, start: float, heading: float = 0.0, speed: float = 0.3,
               step: float = 10.0) -> float:
    """The first platform spot from ``start`` degrees round the ring (``step`` degrees at a time)
    where the seat to move may push ``piece_or_kind`` so (the rules' own check, no simulation): on
    the crammed boards pieces overhang the rim and block spots. ValueError when there is none."""
    for k in range(round(360.0 / step)):
        entry = start + k * step
        try:
            game.check_push(piece_or_kind, entry, heading, speed)
        except ValueError:       # IllegalMove is a ValueError
            continue
        return entry
    raise ValueError(f"no free platform spot for {piece_or_kind}")


def game_positions(n: int, seed: int) -> list[Game]:
    """``n`` positions from seeded medium-against-medium games: every turn's start, game after game
    (the positions real play reaches, not only starting boards)."""
    from kabuto.ai import choose, play_turn

    keys = [w.key for w in load_wrestlers()]
    rng = random.Random(f"bench-ai-games-{seed}")
    out: list[Game] = []
    while len(out) < n:
        a, b = rng.sample(keys, 2)
        game = Game.new(players=2, wrestlers=[a, b], seed=rng.randrange(10**6),
                        first_player=rng.randrange(2))
        k = 0
        while not game.is_over and len(out) < n and k < 30:
            out.append(game.clone())
            play_turn(game, choose(game, "medium", seed=seed * 1000 + k, workers=1))
            k += 1
    return out
