"""Benchmark: how often a plain push sets off a chain reaction that knocks pieces out (issue 42).

The real game's push is a slow shove that stops the moment the piece is wholly on the ring, so what
a push achieves comes from displacing a crammed crowd. For every starting board (2, 3 and 4
players) and for positions taken from the middle of AI games, this tool makes seeded *plain
pushes* and prints the share that knock out at least one piece and at least three, with 95%
(Wilson) intervals, one JSON line per board. A plain push is:

* an entry anywhere round the ring (uniform), a heading within +-20 degrees of straight in (within
  the kind's steepest heading), any speed in the upper half of the hand's range
  (``simulation.min_speed`` .. ``max_speed``), and a random piece of the pushing side's inventory.

The starting boards' pushes are shared among ``--starts`` games of different seeds, so with other
wrestlers (whose outlines differ) and other inventories: one draw can move a board's share of
three or more by several points. Each line also gives the board's coverage (the pieces' area over
the ring's, from the shapes) and the median gap between a piece and the ring's edge (mm).

Mid-game positions depend on who played the game, so they come from each AI level named in
``--mid-levels``, one line a level. Every push adds a piece to the ring and takes off the pieces it
knocks out, so a game's ring drains until the pushes its players choose knock out one piece on
average. A player who finds the rare push that does (the levels that search) drains it until plain
pushes seldom do anything; a player who pushes about as well as a plain push (the beginner level,
like a person who cannot foresee a chain) keeps it crammed. What the players want decides it too:
an AI that counts every piece it holds picks, among pushes equal for the wrestlers, the one that
knocks out most (docs/rules-notes.md, "Why the searching levels drain the ring").

    python tools/bench_chains.py                      # 150 pushes a board, 4 mid-game positions a level
    python tools/bench_chains.py --pushes 20 --mid 1 --mid-levels beginner  # a quick look
    python tools/bench_chains.py --set ring.radius=0.09 --players 2   # a variant, quickly
    KABUTO_ASSETS=/tmp/my-assets python tools/bench_chains.py --players 2 --mid 24 --mid-levels hard  # an AI setting

Targets (issue 42): coverage >= 0.65 on every starting board; >= 1 knocked out in >= 35% of plain
pushes and >= 3 in >= 5%, from every board and from mid-game positions.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from typing import Any

from kabuto.ai.levels import level_names
from kabuto.ai.play import play_turn
from kabuto.ai.search import choose
from kabuto.lab.positions import materials_set
from kabuto.lab.stats import wilson
from kabuto.rules.game import Game
from physics import Materials, Push, World, shapes

#: A plain push's heading: within this of straight in (degrees).
HEADING_DEG = 20.0
#: A quick look is enough to count falls: a preview stops once no piece can fall any more.
SETTLE_WITHIN = 0.001


def coverage(world: World) -> float:
    """The area the pieces on the ring surface cover, over the ring's area (stacked pieces cover
    no more of the ring than their base)."""
    area = sum(shapes.area(world.materials.kinds[p.kind].shape) for p in world.pieces if p.base is None)
    return area / (math.pi * world.ring.radius ** 2)


def edge_gaps_mm(world: World) -> list[float]:
    """Each piece's gap to the ring's edge (mm): the ring's radius less its farthest reach."""
    R = world.ring.radius
    out = []
    for p in world.pieces:
        if p.base is None:
            far = shapes.extent_from_origin(world.materials.kinds[p.kind].shape, p.x, p.y, p.angle)[1]
            out.append((R - far) * 1000.0)
    return out


def plain_push(world: World, kinds: list[str], rng: random.Random) -> Push:
    """A plain push (see the module's docstring) of one of ``kinds``, from a platform spot not
    blocked by a piece hanging over the edge."""
    sim = world.materials.sim
    lo = (sim.min_speed + sim.max_speed) / 2
    kind = rng.choice(kinds)
    steep = min(HEADING_DEG, world.steepest_heading(kind))
    for _ in range(100):
        push = Push("push", kind, entry_deg=rng.uniform(0.0, 360.0),
                    heading_deg=rng.uniform(-steep, steep), speed=rng.uniform(lo, sim.max_speed))
        try:
            world.check_push(push)
        except ValueError:
            continue
        return push
    raise RuntimeError("no free platform spot in 100 tries")


def knock_outs(world: World, kinds: list[str], pushes: int, rng: random.Random) -> list[int]:
    """How many pieces each of ``pushes`` plain pushes into ``world`` knocks out."""
    return [len(world.preview(plain_push(world, kinds, rng), settle_within=SETTLE_WITHIN).fell)
            for _ in range(pushes)]


def inventory_kinds(game: Game) -> list[str]:
    """The kinds in the inventory of the side to play (each piece once, so a kind held twice is
    drawn twice as often); the standard inventory if it is empty."""
    kinds = [game.kind_of(pid) for pid in game.inventory(game.current_side)]
    return kinds or ["medium", "small", "small"]


def mid_game(players: int, seed: int, level: str, turns: int) -> Game | None:
    """An AI game (``level`` on every seat) played ``turns`` turns from its start, or None if it
    ended first."""
    game = Game.new(players, seed=seed, materials=_MATERIALS)
    for t in range(turns):
        if game.is_over:
            return None
        play_turn(game, choose(game, level, seed=seed * 1000 + t, workers=1))
    return None if game.is_over else game


def summary(label: str, counts: list[int], cov: float | None, gaps: list[float]) -> dict[str, Any]:
    n = len(counts)
    one = sum(c >= 1 for c in counts)
    three = sum(c >= 3 for c in counts)
    out: dict[str, Any] = {"board": label, "pushes": n}
    if cov is not None:
        out["coverage"] = round(cov, 4)
    out["edge_gap_mm_median"] = round(statistics.median(gaps), 1) if gaps else None
    out["ko1_share"] = round(one / n, 4)
    out["ko1_ci95"] = [round(v, 4) for v in wilson(one, n)]
    out["ko3_share"] = round(three / n, 4)
    out["ko3_ci95"] = [round(v, 4) for v in wilson(three, n)]
    out["mean_knocked_out"] = round(sum(counts) / n, 3)
    return out


def share(pushes: int, parts: int, i: int) -> int:
    """Part ``i`` of ``pushes`` shared as evenly as can be among ``parts``.

    >>> [share(10, 4, i) for i in range(4)]
    [3, 3, 2, 2]
    """
    return pushes // parts + (i < pushes % parts)


def pooled(games: list[Game], pushes: int, rng: random.Random) -> tuple[list[int], list[float], float]:
    """``pushes`` plain pushes shared among the positions ``games`` stand in: how many each knocked
    out, every piece's gap to the edge (mm) and the positions' mean coverage."""
    counts: list[int] = []
    for i, g in enumerate(games):
        counts += knock_outs(g.world, inventory_kinds(g), share(pushes, len(games), i), rng)
    gaps = [gap for g in games for gap in edge_gaps_mm(g.world)]
    return counts, gaps, sum(coverage(g.world) for g in games) / len(games)


_MATERIALS: Materials | None = None


def main(argv: list[str] | None = None) -> int:
    global _MATERIALS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pushes", type=int, default=150, help="plain pushes a board (default 150)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=(2, 3, 4),
                    help="which boards (default 2 3 4)")
    ap.add_argument("--starts", type=int, default=4,
                    help="starting positions a board, each from its own seed, so with its own wrestlers"
                         " and inventories (default 4); the pushes are shared among them")
    ap.add_argument("--mid", type=int, default=4,
                    help="mid-game positions a player count, each from its own AI game (default 4; "
                         "0: starting boards only); the pushes are shared among them")
    ap.add_argument("--mid-levels", default="beginner,easy,hard",
                    help="the AI levels whose games give the mid-game positions, comma-separated; every"
                         " seat of a game plays the same level (default beginner,easy,hard)")
    ap.add_argument("--mid-turns", type=int, default=8,
                    help="how many turns those games are played before the position is taken (default"
                         " 8: near the middle of a game of median length between hard players)")
    ap.add_argument("--seed", type=int, default=0, help="the seed of the pushes and games (0)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a materials override, as `kabuto tune` takes them (ring.radius=0.09)")
    args = ap.parse_args(argv)
    if args.pushes < 1 or args.starts < 1:
        ap.error("--pushes and --starts: at least 1")
    levels = [lv.strip() for lv in args.mid_levels.split(",") if lv.strip()]
    unknown = [lv for lv in levels if lv not in level_names()]
    if unknown or not levels:
        ap.error(f"--mid-levels: {', '.join(unknown) or 'none given'} is not an AI level"
                 f" (one of {', '.join(level_names())})")
    try:
        _MATERIALS = materials_set(args.set)
    except ValueError as e:
        ap.error(str(e))
    started = time.perf_counter()
    for players in args.players:
        rng = random.Random(f"bench-chains-{args.seed}-{players}")
        starts = [Game.new(players, seed=args.seed * 100 + i, materials=_MATERIALS)
                  for i in range(args.starts)]
        counts, gaps, cov = pooled(starts, args.pushes, rng)
        print(json.dumps(summary(f"{players}P start", counts, cov, gaps)), flush=True)
        if args.mid <= 0:
            continue
        for level in levels:
            games = [g for g in (mid_game(players, args.seed * 100 + i, level, args.mid_turns)
                                 for i in range(args.mid)) if g is not None]
            if not games:  # said, not skipped: a missing line would read as a tool that forgot
                print(json.dumps({"board": f"{players}P mid-game ({level})", "positions": 0,
                                  "note": ("the game" if args.mid == 1 else f"all {args.mid} games")
                                  + f" ended before turn {args.mid_turns}"}),
                      flush=True)
                continue
            counts, gaps, cov = pooled(games, args.pushes, rng)
            line = summary(f"{players}P mid-game ({level})", counts, None, gaps)
            line["positions"] = len(games)
            line["coverage_mean"] = round(cov, 4)
            print(json.dumps(line), flush=True)
    print(json.dumps({"seconds": round(time.perf_counter() - started, 1)}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
