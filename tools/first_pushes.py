"""What one first push can do to a wrestler on each starting board, counted (issues 16 and 42).

A design change (the boards in assets/setups.toml, the hand's limits or the pieces' friction in
assets/materials.toml and assets/wrestlers.toml) is judged first by its first turn: no first push
may win. This prints, for every starting board under the assets in force, one JSON line of counts:

* ``from_behind``: of the pushes from right behind each wrestler at the hand's top speed (18 a
  wrestler), how many leave a wrestler touching the centre circle, where Mighty Jaw Mike's Vice
  Grip would take it if its card said ``wrestlers = true`` (the shipped card grips discs only),
  or end the game;
* ``flank``: of seeded flank pushes at each wrestler (the AI's push from 15-65 degrees round), how
  many knock a wrestler out;
* ``across``: of the pushes from across the ring at each wrestler (the platform within 12 degrees
  of the point opposite it, a small or a medium at the hand's top speed, 126 a wrestler), how many
  knock a wrestler out;
* ``exposed``: of those pushes from across the ring, the ones at a wrestler of a side that did not
  move, how many leave it with its centre 30 mm or less from the ring's edge (or knock it out): a
  first push that sets up the mover's side's next push (in a 4-player game, the teammate's on
  turn 3) to finish it;
* ``edge_grid``: of the edge grid's pushes along the ring's edge at each opposing wrestler (the
  search's ``--sweep``), how many win, each side moving first.
* ``window`` (with ``--window``): of a finer grid of pushes of a medium round the point opposite
  each wrestler of the sides that do not move, at 0.94-1.0 of the hand's top speed (612 a
  wrestler), how many knock a wrestler out, in total and by the wrestler aimed at, over lineups
  that put every wrestler in a seat that does not move: the window where the crowd's glide
  carried Goliath Gus off the 3-player board on turn 1 (about half a minute a board).

The tests hold the shipped boards to zero (tests/kabuto/test_setups.py, tests/tools/test_early_wins.py;
the 3-player board's ``across`` to at most one push in fifty);
this gives the counts, so two designs can be compared in a minute or two. Point it at a copy of
the assets folder to try a design without touching the shipped one:

    python tools/first_pushes.py
    KABUTO_ASSETS=/tmp/my-assets python tools/first_pushes.py --players 2 --flank 32
    python tools/first_pushes.py --set simulation.max_speed=0.45 --no-edge
    python tools/first_pushes.py --players 3 --no-edge --window
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time

from kabuto.lab.early_wins import sweep_boards
from kabuto.lab.first_pushes import (
    across_the_ring,
    flank_knockouts,
    gripped_from_behind,
    left_exposed,
    opposite_window,
)
from kabuto.lab.positions import materials_set
from kabuto.rules.game import Game
from kabuto.rules.wrestlers import load_wrestlers
from physics import Materials


def cards(players: int) -> list[str]:
    """The wrestler cards in their order, one a seat."""
    return [w.key for w in load_wrestlers()][:players]


def window_counts(players: int, materials: Materials | None = None) -> dict[str, object]:
    """The window opposite (:func:`kabuto.lab.first_pushes.opposite_window`) over lineups of the
    cards in their order, each starting ``players - 1`` cards after the last, so every wrestler
    sits in a seat that does not move (the first player's seat is never aimed at)."""
    keys = [w.key for w in load_wrestlers()]
    by: dict[str, int] = {}
    made = 0
    for start in range(0, len(keys), players - 1):
        table = [keys[(start + i) % len(keys)] for i in range(players)]
        game = Game.new(players=players, wrestlers=table, seed=0, first_player=0, materials=materials)
        for key, (bad, n) in opposite_window(game).items():
            by[key] = by.get(key, 0) + len(bad)
            made += n
    return {"made": made, "knock_outs": sum(by.values()), "by_wrestler": by}


def board_counts(players: int, flank: int, edge: bool, seed: int,
                 materials: Materials | None = None, window: bool = False) -> dict[str, object]:
    """The counts of one board (see the module's text) as a JSON-ready dict: the wrestler cards
    in their order take the seats, as in tests/kabuto/test_setups.py, whose seeded flank sample
    (16 a wrestler) seed 0 repeats."""
    game = Game.new(players=players, wrestlers=cards(players), seed=0, first_player=0,
                    materials=materials)
    behind, pushed = gripped_from_behind(game)
    stream = f"flank-{players}" if seed == 0 else f"flank-{players}-{seed}"
    bad, made = flank_knockouts(game, flank, random.Random(stream))
    across, crossed = across_the_ring(game)
    exposed, aimed = left_exposed(game)
    line: dict[str, object] = {
        "board": f"{players}P",
        "from_behind": {"made": pushed, "bad": len(behind)},
        "flank": {"made": made, "knock_outs": len(bad)},
        "across": {"made": crossed, "knock_outs": len(across)},
        "exposed": {"made": aimed, "exposed": len(exposed)}}
    if edge:
        grid = sweep_boards((players,), ridge=False, materials=materials,
                            wrestlers=cards)[f"{players}P"]["grid"]
        line["edge_grid"] = {"tried": grid["tried"], "wins": grid["wins"]}
    if window:
        line["window"] = window_counts(players, materials)
    return line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=(2, 3, 4),
                    help="which boards (default 2 3 4)")
    ap.add_argument("--flank", type=int, default=16, help="flank pushes a wrestler (default 16)")
    ap.add_argument("--no-edge", action="store_true", help="skip the edge grid (the slowest part)")
    ap.add_argument("--seed", type=int, default=0, help="the seed of the flank pushes (0)")
    ap.add_argument("--window", action="store_true",
                    help="also count the window opposite each wrestler (a finer grid at the top speeds)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a materials override, as `kabuto tune` takes them (simulation.max_speed=0.45)")
    args = ap.parse_args(argv)
    if args.flank < 0:
        ap.error("--flank: 0 or more")
    try:
        materials = materials_set(args.set)
    except ValueError as e:
        ap.error(str(e))
    started = time.perf_counter()
    for players in args.players:
        print(json.dumps(board_counts(players, args.flank, not args.no_edge, args.seed, materials, args.window)),
              flush=True)
    print(json.dumps({"seconds": round(time.perf_counter() - started, 1)}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
