"""Aimed search for one early line: Mike's Vice Grip, then a flank push (issue 16, point 3).

tools/early_wins.py samples pushes uniformly, so a line that needs a push aimed at a wrestler's
flank turns up rarely there. This tool aims at it: for each opponent of Mighty Jaw Mike on the 2P
board it takes that opponent's seeded first pushes (the same samples as early_wins, made plainly),
then Mike uses Vice Grip where he can (it knocks out what is in the centre circle and adds the
standard discs to his inventory: on the half-turn 2P board, the centre large disc) and makes
``--aims`` flank pushes with each kind he holds (without Vice Grip where nothing is in the circle:
the mirror 2P board starts with the circle empty): the platform 15-65 degrees round the ring from the
opposing wrestler's bearing, the line passing its inner side 0-13.5 mm off its centre (as the AI's
flank pushes, ``kabuto/ai/candidates.py``), 0.6-1.0 of the speed limit. ``--first`` makes Mike the
first player on the starting board instead. It prints the wins per opponent and kind as JSON, and
how many positions let Mike use Vice Grip (``gripped``, of ``positions``) and the wins of each.

    python tools/flank_lines.py --pushes 50 --aims 8      # Mike second (his first turn is turn 2)
    python tools/flank_lines.py --first --aims 200         # Mike first, on the starting board
"""
from __future__ import annotations

import argparse
import json
import math
import random

from kabuto.ai.candidates import flank_heading
from kabuto.lab.early_wins import _push, _stream, new_game, sample_pushes
from kabuto.rules.errors import IllegalMove
from kabuto.rules.game import Game

OPPONENTS = ("hank", "annie", "rita", "gus", "jade", "dora", "bea")


def positions(opp: str, pushes: int, mike_first: bool) -> list[tuple[Game, bool]]:
    """The positions where Mike is to move, Vice Grip already used where the rules let him (with
    whether he did)."""
    if mike_first:
        starts = [new_game("mike", opp)]
    else:
        base = new_game(opp, "mike")
        starts = []
        for s in sample_pushes(base, pushes, random.Random(_stream(2, 0, opp, "mike"))):
            g = base.clone()
            if _push(g, s) is None or g.is_over:
                continue
            g.end_turn()
            if not g.is_over:
                starts.append(g)
    out = []
    for g in starts:
        inside = sorted(g.world.in_circle())
        if not inside:  # nothing in the circle: the flank push alone
            out.append((g, False))
            continue
        for piece in inside:  # "that piece": each one Mike could pick is a position of its own
            h = g.clone()
            try:
                h.use_move(h.current_seat, "Vice Grip", piece=piece)
            except IllegalMove:
                continue
            if not h.is_over:
                out.append((h, True))
    return out


def aimed(g: Game, opp: str, aims: int, rng: random.Random) -> dict[str, list[int]]:
    """kind -> [wins, pushes tried] for ``aims`` flank pushes per kind at ``opp``'s wrestler."""
    seat = g.current_seat
    w = g.world.piece(f"{opp}:wrestler")
    bearing = math.degrees(math.atan2(w.y, w.x))
    R, sim = g.materials.ring.radius, g.materials.sim
    out: dict[str, list[int]] = {}
    for kind in g.legal_kinds():
        lim = g.world.steepest_heading(kind)
        st = out.setdefault(kind, [0, 0])
        for _ in range(aims):
            entry = bearing + rng.choice((-1.0, 1.0)) * rng.uniform(15.0, 65.0)
            heading = flank_heading(entry, (w.x, w.y), rng.uniform(0.0, 0.0135), R)
            if abs(heading) > lim:
                continue
            h = g.clone()
            try:
                h.push(kind, entry, heading, rng.uniform(0.6, 1.0) * sim.max_speed, end_turn=False)
            except IllegalMove:
                continue
            st[1] += 1
            st[0] += h.winner == h.side_of(seat)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pushes", type=int, default=50, help="opponent's first pushes (50)")
    ap.add_argument("--aims", type=int, default=8, help="flank pushes per position and kind (8)")
    ap.add_argument("--first", action="store_true", help="Mike moves first, on the starting board")
    args = ap.parse_args(argv)
    table: dict[str, dict[str, list[int]]] = {}
    gripped = {"positions": 0, "gripped": 0}
    grips: dict[str, list[int]] = {}
    for opp in OPPONENTS:
        rng = random.Random(f"flank-lines-{opp}-{args.first}")
        for g, grip in positions(opp, args.pushes, args.first):
            gripped["positions"] += 1
            gripped["gripped"] += grip
            by_grip = grips.setdefault("after Vice Grip" if grip else "without it", [0, 0])
            for kind, (won, tried) in aimed(g, opp, args.aims, rng).items():
                st = table.setdefault(opp, {}).setdefault(kind, [0, 0])
                st[0] += won
                st[1] += tried
                by_grip[0] += won
                by_grip[1] += tried
    kinds: dict[str, list[int]] = {}
    for per in table.values():
        for kind, (won, tried) in per.items():
            st = kinds.setdefault(kind, [0, 0])
            st[0] += won
            st[1] += tried
    print(json.dumps({"mike_first": args.first, "vice_grip": gripped, "by_grip": grips,
                      "by_opponent": table,
                      "by_kind": kinds}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
