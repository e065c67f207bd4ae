#!/usr/bin/env python3
"""Checker: this tree's pushes against another revision's, push by push, bit for bit.

The stepping loop and the Space build are rewritten for speed (issue 16 point 6) on one promise:
the game's pushes do not change at all. This tool holds them to it. It makes a corpus of seeded
pushes - random pushes the platform allows (every kind, entries all round, headings across the
range, speeds up to the game's limit) into the starting boards of 2, 3 and 4 players with seeded
real wrestlers, and into positions reached by seeded medium-against-medium games - then simulates
every push twice, in a child process running this tree and in one running ``--against`` (a git
revision, unpacked with ``git archive`` into a temporary folder: its own physics, its own
everything), and compares, exactly:

- the falls (which pieces, in what order, carried by what, at which time), the step count, the
  release time, stalled and capped, the pushed piece's pose when let go,
- the final state (:func:`physics.state_hash`: every coordinate to the last bit),
- the trajectory (every sample's bytes).

Each push is checked exact (the game's own simulation: what a push plays and what replays
reproduce) and sketched (the AI's coarse preview: 240 steps a second, 0.5 mm of overlap accepted,
stopped once settled within 1 mm), so a sketch's speed-up is held to the same standard.

    python3 tools/check_loop.py                         # 600 pushes against main
    python3 tools/check_loop.py --pushes 3000 --against main --json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run in each child process: reads the corpus (JSON on stdin), prints one digest per push a line.
CHILD = r"""
import hashlib, json, sys
from dataclasses import replace
from physics import Push, World, state_hash

def digest(res):
    traj = res.trajectory
    h = hashlib.sha256(traj.poses.tobytes())
    if traj.velocities is not None:
        h.update(traj.velocities.tobytes())
    return [[[f.piece, f.kind, repr(f.time), f.carried_by] for f in res.fell], res.steps,
            repr(res.released_at), res.stalled, res.capped,
            None if res.released_pose is None else [repr(v) for v in res.released_pose],
            state_hash(res.snapshot), h.hexdigest(), list(traj.ids)]

corpus = json.loads(sys.stdin.read())
worlds = {}
for job in corpus["jobs"]:
    key = (job["world"], job["mode"])
    world = worlds.get(key)
    if world is None:
        world = World.from_snapshot(corpus["worlds"][job["world"]])
        if job["mode"] == "sketch":
            m = world.materials
            sim = m.sim
            rate = corpus["sketch_rate"]
            rest_steps = max(2, round(sim.rest_steps * rate / sim.steps_per_second))
            m = replace(m, sim=replace(sim, steps_per_second=rate, rest_steps=rest_steps,
                                       rest_overlap=max(sim.rest_overlap, corpus["sketch_overlap"])))
            world = World(m, world.pieces)
        worlds[key] = world
    push = Push(*job["push"])
    settle = corpus["sketch_settle"] if job["mode"] == "sketch" else None
    res = world.preview(push, settle_within=settle)
    print(json.dumps(digest(res)), flush=True)
"""


def make_corpus(pushes: int, seed: int, game_positions: int) -> dict:
    """Worlds (snapshots) and seeded pushes into them; every push both exact and sketched."""
    from kabuto.lab.positions import game_positions as medium_positions
    from kabuto.lab.positions import random_push
    from kabuto.rules.game import Game
    from kabuto.rules.wrestlers import load_wrestlers

    rng = random.Random(f"check-loop-{seed}")
    keys = [w.key for w in load_wrestlers()]
    worlds = []
    for players in (2, 3, 4):
        for s in range(4):
            game = Game.new(players=players, wrestlers=rng.sample(keys, players), seed=seed * 100 + s,
                            first_player=0)
            worlds.append(game.world)
    worlds += [g.world for g in medium_positions(game_positions, seed)]
    jobs = []
    for i in range(pushes):
        w = i % len(worlds)
        world = worlds[w]
        while True:
            push = random_push(world, rng, pid="P")
            try:
                world.check_push(push)
                break
            except ValueError:  # a platform spot blocked by a piece over the edge: draw again
                continue
        args = [push.piece, push.kind, push.entry_deg, push.heading_deg, push.speed, push.spin_deg]
        for mode in ("exact", "sketch"):
            jobs.append({"world": w, "mode": mode, "push": args})
    return {"worlds": [w.snapshot() for w in worlds], "jobs": jobs, "sketch_rate": 240,
            "sketch_overlap": 0.0005, "sketch_settle": 0.001}


def run_child(tree: Path, corpus_text: str) -> tuple[list, float]:
    env = dict(os.environ, PYTHONPATH=str(tree), KABUTO_ASSETS=str(tree / "assets"))
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD], input=corpus_text, text=True,
                         capture_output=True, check=True, env=env, cwd=tree)
    return [json.loads(line) for line in out.stdout.splitlines()], time.perf_counter() - t0


def unpack(rev: str, into: Path) -> Path:
    """``rev``'s tree, unpacked with git archive (no worktree, no checkout)."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=tar.stdout, check=True)
    return into


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pushes", type=int, default=600, help="distinct pushes (each exact and sketched)")
    ap.add_argument("--against", default="main", help="git revision to compare with (default main)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--positions", type=int, default=24,
                    help="positions from seeded medium games, besides 12 starting boards")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    corpus = make_corpus(args.pushes, args.seed, args.positions)
    text = json.dumps(corpus)
    with tempfile.TemporaryDirectory() as tmp:
        ref = unpack(args.against, Path(tmp))
        theirs, t_ref = run_child(ref, text)
        ours, t_ours = run_child(ROOT, text)
    fields = ["falls", "steps", "released_at", "stalled", "capped", "released_pose", "state",
              "trajectory", "ids"]
    diffs = []
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        bad = [f for f, x, y in zip(fields, a, b, strict=True) if x != y]
        if bad:
            diffs.append({"job": i, "mode": corpus["jobs"][i]["mode"], "differ": bad})
    falls = sum(len(d[0]) for d in ours)
    out = {"against": args.against, "pushes": args.pushes, "simulations": len(ours),
           "worlds": len(corpus["worlds"]), "falls": falls,
           "steps": sum(d[1] for d in ours), "identical": len(ours) - len(diffs),
           "different": len(diffs), "first_differences": diffs[:10],
           "seconds_theirs": round(t_ref, 1), "seconds_ours": round(t_ours, 1),
           "corpus_sha256": hashlib.sha256(text.encode()).hexdigest()[:16]}
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>16}: {v}")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
