"""Design the starting boards in assets/setups.toml (a developer script; its output is data).

The rulebook's Wrestler Count Diagrams give only the counts, so the positions are our design
(docs/rules-notes.md, "Kabuto Sumo plays like the real game"): crammed like the real ring, the
wrestlers in its middle (2P: a little to one side of the line through the centre), and fair by
symmetry - the 2P board its own mirror image with the wrestlers swapped (x -> -x), 3P symmetric
under a third of a turn, and the 4P board's mirror line y = -x mapping each team onto the other;
a medium disc on the centre. The 3P wrestlers then stand side-on nearer the centre and the crowd
is gathered round them (:data:`PINWHEEL`). The boards of earlier design rounds are kept with
their figures in results/round-N/ and in the history of this file.

    python tools/gen_setups.py            # prints the TOML
    python tools/gen_setups.py --write    # rewrites assets/setups.toml's boards
    python tools/gen_setups.py --write --players 2   # rewrites only the 2P board
    python tools/gen_setups.py --players 2 --seed 32 --wrestler-out 47 --centre large --outset 0
                                          # a variant, to try in a copy of assets/ (KABUTO_ASSETS)
"""
from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from kabuto_base.fileio import write_atomic

# # The real ring is crammed, the wrestlers in its middle. The boards above left about half the ring
# bare (47, 50 and 45%) and could not be packed much tighter by pushing overlapping pairs apart:
# with every piece nominally a circle the 3P board's 3 wrestlers, 3 large, 10 medium and 12 small
# discs fill 80% of a ring small enough for the 4P board to cover 65%. So the crammed boards (a)
# stand each wrestler's spot for the union of every wrestler's outline facing the centre, two
# circles along the facing line (:data:`WRESTLER_PADS`: 729 mm^2, where a 17 mm circle is 908),
# and (b) pack the discs by minimising their overlap energy (L-BFGS, positions of one piece per
# symmetry orbit) while they grow from 60% of their size, then relocating a piece at a time at
# full size until nothing overlaps (``anneal``). Symmetry as before: 2P mirror x -> -x, 3P a
# third of a turn, 4P the mirror y = -x between the teams; a medium disc on the centre.

#: The crammed ring and disc sizes (assets/materials.toml; mm): ring 85 (170 across), discs 24,
#: 29 and 38 mm across. docs/rules-notes.md (issue 42) says why.
CRAMMED_RING = 85.0
CRAMMED_RADIUS = {"large": 19.0, "medium": 14.5, "small": 12.0}
#: The wrestlers stand this far from the centre (mm), by the number of players: clear of the centre
#: disc with every outline (Hank's horn reaches 16.6 mm forward), in the middle of the ring.
WRESTLER_OUT = {2: 33.0, 3: 33.0, 4: 33.0}
#: How far to one side of the line through the centre the 2P wrestlers stand (mm): both at
#: (+-out, aside). On that line (aside 0) a push from right behind the first player's wrestler
#: drove it, the centre disc and the second player's wrestler along it like a row of coins, and
#: left the second wrestler as little as 1 mm from the edge before its player's first turn: the
#: first player won 68 of the 69 hard games over by turn 3 (docs/rules-notes.md, "The 2P
#: wrestlers stand aside").
WRESTLER_ASIDE = 10.0
#: The boards whose wrestlers, once the discs are packed round their spots, stand nearer the centre
#: turned from facing it: players -> (distance from the centre, mm; turn, degrees anticlockwise).
#: On the 3-player board the point opposite each wrestler is the gap between the other two, and a
#: push from there drove the crowd through the centre disc into the far wrestler, which glided off
#: (docs/rules-notes.md, "The 3P wrestlers stand in a pinwheel"): turned a quarter, its narrow side
#: (at most 12 mm) faces the centre disc instead of its horn (up to 16.6 mm), so it stands 28 mm
#: out, 5 mm more ring behind it, and the gather (:data:`GATHER`) closes the crowd round it.
PINWHEEL = {3: (28.0, 90.0)}
#: The disc standing on the centre circle, by the number of players.
CENTRE = {2: "medium", 3: "medium", 4: "medium"}
#: Every wrestler outline facing the centre lies inside these circles: (distance towards the
#: centre from the spot, radius), mm, found by a grid search over the 8 outlines.
WRESTLER_PADS = ((-2.25, 13.05), (6.5, 13.05))
#: How much farther out (mm) the 2P wrestler of the side that moves second stands (``second_outset``
#: in setups.toml): the board pads its spot that far out too.
SECOND_OUTSET = 4.0
#: Gaps kept between neighbours and to the ring's edge (mm): crammed, not touching.
CRAMMED_GAP = 0.15
#: The seed of each board, the first that packs with nothing overlapping.
CRAMMED_SEEDS = {2: 1, 3: 0, 4: 0}
#: The boards whose crowd is pushed together once the pieces are on their spots (``gather``,
#: :func:`kabuto.rules.boards.gathered`): their lines of setups.toml, comment first.
GATHER = {3: ["# The wrestlers stand in a pinwheel nearer the centre, each a quarter turn from facing it, and the",
              "# crowd is pushed together from the rim round them (docs/rules-notes.md, \"The 3P wrestlers stand",
              "# in a pinwheel\"): every disc 50 mm or more from the centre is drawn in at 0.2 m/s^2 for 0.3 s.",
              "gather = { pull = 0.2, seconds = 0.3, from = 0.050 }"],
          4: ["# Teammates stand opposite each other, and once the pieces are on their spots the crowd is pushed",
              "# together from the rim (docs/rules-notes.md, \"The 4P board: teammates opposite, the crowd pushed",
              "# together\"): every disc 50 mm or more from the centre is drawn in at 0.3 m/s^2 for 0.3 s, gliding,",
              "# while the wrestlers stand (kabuto.rules.boards.gathered).",
              "gather = { pull = 0.3, seconds = 0.3, from = 0.050 }"]}


def _mat_rot(deg: float):
    import numpy as np
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


@dataclass(frozen=True)
class Design:
    """What a board is packed from: the wrestlers' distance from the centre (mm), the disc on the
    centre circle, the 2P second player's outset (mm), the packer's seed and how far to one side
    of the line through the centre the 2P wrestlers (4P: each team's) stand (mm)."""

    players: int
    wrestler_out: float
    centre: str
    outset: float
    seed: int
    aside: float = 0.0

    @classmethod
    def shipped(cls, players: int) -> Design:
        return cls(players, WRESTLER_OUT[players], CENTRE[players],
                   SECOND_OUTSET if players == 2 else 0.0, CRAMMED_SEEDS[players],
                   WRESTLER_ASIDE if players == 2 else 0.0)


def _crammed_layout(design: Design) -> tuple[list, list, list]:
    """(fixed circles (x, y, r), orbits (kind, maps from the representative), wrestler spots), mm.
    The 2P board's spots are padded ``design.outset`` farther out too (``second_outset``)."""
    import numpy as np
    players = design.players
    counts = {k: n for k, n in zip(("large", "medium", "small"),
                                   {2: (3, 8, 14), 3: (3, 10, 12), 4: (3, 6, 14)}[players], strict=True)}
    counts[design.centre] -= 1  # the centre one
    wr = design.wrestler_out
    if players == 2:
        spots = [(wr, design.aside), (-wr, design.aside)]
        ref = np.array([[-1.0, 0.0], [0.0, 1.0]])
        full, line = [np.eye(2), ref], [np.array([[0.0, 0.0], [0.0, 1.0]])]
    elif players == 3:
        spots = [tuple(_mat_rot(90 + 120 * k) @ [wr, 0.0]) for k in range(3)]
        full, line = [_mat_rot(120 * k) for k in range(3)], None
    else:  # seats 0 (0 deg) and 2 (180) are a team, 1 (90) and 3 (270) the other: teammates opposite,
        # seats 0 and 2 ``aside`` to one side of their line through the centre, the reflection
        # putting the other team as far to the other side of its own (0.0 - a: never -0.0)
        a = design.aside
        spots = [(wr, a), (0.0 - a, wr), (-wr, a), (0.0 - a, -wr)]
        ref = np.array([[0.0, -1.0], [-1.0, 0.0]])  # (x, y) -> (-y, -x)
        full, line = [np.eye(2), ref], [np.array([[0.5, -0.5], [-0.5, 0.5]])]
    fixed = [(0.0, 0.0, CRAMMED_RADIUS[design.centre])]
    pads = WRESTLER_PADS + (((-2.25 - design.outset, 13.05),) if design.outset else ())
    for x, y in spots:
        d = math.hypot(x, y)
        fixed += [(x - x / d * t, y - y / d * t, r) for t, r in pads]
    orbits = []
    for kind, n in counts.items():
        k, odd = divmod(n, len(full))
        orbits += [(kind, full)] * k
        if odd:
            if line is None:
                raise ValueError(f"{kind}: {n} discs are not whole orbits")
            orbits += [(kind, line)] * odd
    return fixed, orbits, spots


def standing_spots(players: int, spots: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Where the wrestlers of ``players`` stand (mm): the spots the discs are packed round, or on a
    :data:`PINWHEEL` board the same bearings that board's distance out."""
    if players not in PINWHEEL:
        return spots
    out = PINWHEEL[players][0]
    return [(x / math.hypot(x, y) * out, y / math.hypot(x, y) * out) for x, y in spots]


def design_crammed(design: Design, steps: int = 400) -> dict[str, list[tuple[float, float]]]:
    """The crammed board ``design`` packs to (see the comment above); ValueError if its seed does
    not pack without overlaps."""
    import numpy as np
    from scipy.optimize import minimize

    players, seed = design.players, design.seed
    ring, gap = CRAMMED_RING, CRAMMED_GAP
    fixed, orbits, spots = _crammed_layout(design)
    nf = len(fixed)
    owner = [(i, m) for i, (_, maps) in enumerate(orbits) for m in maps]
    ms = np.array([m for _, m in owner])
    oi = np.array([i for i, _ in owner])
    fpos = np.array([(x, y) for x, y, _ in fixed])
    radius = np.array([r for _, _, r in fixed] + [CRAMMED_RADIUS[orbits[i][0]] for i, _ in owner])
    iu = np.triu_indices(len(radius), 1)
    both_fixed = (iu[0] < nf) & (iu[1] < nf)
    is_fixed = np.arange(len(radius)) < nf
    rng = np.random.default_rng(seed)
    line_deg = 90.0 if players == 2 else 135.0

    def positions(x):
        return np.vstack([fpos, np.einsum("kab,kb->ka", ms, x.reshape(-1, 2)[oi])])

    def energy(x, s):
        """Sum of squared overlaps (pairs, and past the edge) with the discs at ``s`` times their
        size, and its gradient in the representatives' coordinates."""
        pos = positions(x)
        rad = np.where(is_fixed, radius, radius * s)
        d = pos[iu[0]] - pos[iu[1]]
        dist = np.sqrt((d ** 2).sum(1)) + 1e-12
        over = np.clip(rad[iu[0]] + rad[iu[1]] + gap - dist, 0, None)
        over[both_fixed] = 0
        g = np.zeros_like(pos)
        coef = (-2 * over / dist)[:, None] * d
        np.add.at(g, iu[0], coef)
        np.add.at(g, iu[1], -coef)
        rr = np.sqrt((pos ** 2).sum(1)) + 1e-12
        wall = np.where(is_fixed, 0.0, np.clip(rr + rad + gap - ring, 0, None))
        g += (2 * wall / rr)[:, None] * pos
        gx = np.zeros((len(orbits), 2))
        np.add.at(gx, oi, np.einsum("kba,kb->ka", ms, g[nf:]))
        return (over ** 2).sum() + (wall ** 2).sum(), gx.ravel()

    def spot(kind: str, maps) -> tuple[float, float]:
        """A random start: outside the wrestlers when they stand near the middle (a disc started
        among them cannot get out), anywhere when they stand farther out."""
        hi = ring - CRAMMED_RADIUS[kind]
        inner = 0.0 if design.wrestler_out >= 40.0 else (design.wrestler_out + 12.0) / hi
        rr = math.sqrt(rng.uniform(min(0.9, inner) ** 2, 1.0)) * hi
        a = rng.uniform(0, 2 * math.pi)
        if len(maps) == 1:  # on the mirror line, by the edge
            rr, a = hi - 1.0, math.radians(line_deg) + math.pi * int(rng.integers(2))
        return rr * math.cos(a), rr * math.sin(a)

    def settle(x, s):
        return minimize(energy, x, args=(s,), jac=True, method="L-BFGS-B",
                        options={"maxiter": 4000}).x

    # Grow: raise the size while the pieces still fit, shaking them when they jam.
    x = np.array([c for kind, maps in orbits for c in spot(kind, maps)])
    s, ds, best, fails = 0.6, 0.04, (0.0, x), 0
    while ds > 0.002 and best[0] < 1.0:
        y = settle(x, s)
        if energy(y, s)[0] < 1e-8:
            x, best, fails = y, (s, y), 0
            s = min(1.0, s + ds)
        else:
            fails += 1
            x = best[1] + rng.normal(0, 1.0, x.shape)
            if fails >= 3:
                s, ds, fails = best[0] + ds / 2, ds / 2, 0
    # Then at full size, move one orbit at a time to a fresh spot while that lowers the overlap.
    x = settle(best[1], 1.0)
    e = energy(x, 1.0)[0]
    for _ in range(steps):
        if e < 1e-8:
            break
        y = x.copy()
        i = int(rng.integers(len(orbits)))
        y[2 * i:2 * i + 2] = spot(*orbits[i])
        y = settle(y + rng.normal(0, 0.2, y.shape), 1.0)
        if (ey := energy(y, 1.0)[0]) < e:
            x, e = y, ey
    if e >= 1e-8:
        raise ValueError(f"seed {seed}: the {players}P board did not pack; try another seed")
    pos = positions(x)[nf:] / 1000.0
    result: dict[str, list[tuple[float, float]]] = {
        "wrestler": [(u / 1000.0, v / 1000.0) for u, v in standing_spots(players, spots)], "large": [],
        "medium": [], "small": []}
    result[design.centre].append((0.0, 0.0))
    for (i, _), (u, v) in zip(owner, pos, strict=True):
        result[orbits[i][0]].append((float(u) + 0.0, float(v) + 0.0))
    return result


def to_toml(design: Design, boards: dict[str, list[tuple[float, float]]]) -> str:
    lines = [f"[boards.{design.players}]"]
    if design.players == 2:
        lines.append(f"second_outset = {design.outset / 1000.0:g}")
    if design.players in GATHER:
        lines += GATHER[design.players]
    if design.players in PINWHEEL:
        lines.append(f"wrestler_turn = {PINWHEEL[design.players][1]:g}")
    for kind in ("wrestler", "large", "medium", "small"):
        pts = ", ".join(f"[{x:.5f}, {y:.5f}]" for x, y in boards[kind])
        lines.append(f"{kind} = [{pts}]")
    return "\n".join(lines)


def _replace_table(text: str, players: int, table: str) -> str:
    """``text`` (setups.toml) with its ``[boards.<players>]`` table, up to the next ``[boards.``
    table or the end, replaced by ``table`` (appended if it has none)."""
    head = f"[boards.{players}]"
    if head not in text:
        return text.rstrip("\n") + "\n\n" + table + "\n"
    i = text.index(head)
    j = text.find("[boards.", i + len(head))
    return text[:i] + table + ("\n\n" + text[j:] if j >= 0 else "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true",
                    help="replace the [boards.N] tables of assets/setups.toml of the boards made "
                         "(the others stay as they are) instead of printing; only for the shipped "
                         "designs")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=(2, 3, 4),
                    help="which boards (default 2 3 4)")
    ap.add_argument("--seed", type=int, help="the packer's seed instead of the board's own")
    ap.add_argument("--wrestler-out", type=float, metavar="MM",
                    help="the wrestlers' distance from the centre (2P: from the mirror line) the discs are "
                         "packed round, mm (shipped: "
                         + ", ".join(f"{n}P {WRESTLER_OUT[n]:g}" for n in (2, 3, 4))
                         + "; the 3P wrestlers then stand side-on "
                         + f"{PINWHEEL[3][0]:g} mm out)")
    ap.add_argument("--centre", choices=tuple(CRAMMED_RADIUS), help="the disc on the centre circle")
    ap.add_argument("--outset", type=float, metavar="MM",
                    help=f"the 2P second player's outset, mm (shipped {SECOND_OUTSET:g})")
    ap.add_argument("--aside", type=float, metavar="MM",
                    help="how far to one side of the line through the centre the 2P wrestlers "
                         f"stand, mm (shipped {WRESTLER_ASIDE:g}); on the 4P board each team's "
                         "(shipped 0: docs/rules-notes.md, \"The 4P board's opening\")")
    args = ap.parse_args(argv)
    changes = {k: v for k, v in (("seed", args.seed), ("wrestler_out", args.wrestler_out),
                                  ("centre", args.centre), ("outset", args.outset),
                                  ("aside", args.aside)) if v is not None}
    if args.write and changes:
        ap.error("--write writes the shipped designs; print a variant instead")
    if args.wrestler_out is not None and not 20.0 <= args.wrestler_out <= 60.0:
        ap.error("--wrestler-out: 20 to 60 mm")
    if args.outset is not None and not 0.0 <= args.outset <= 20.0:
        ap.error("--outset: 0 to 20 mm")
    if args.aside is not None and not 0.0 <= args.aside <= 20.0:
        ap.error("--aside: 0 to 20 mm")
    tables = []
    for n in args.players:
        design = replace(Design.shipped(n), **changes)
        if n != 2:
            design = replace(design, outset=0.0, aside=design.aside if n == 4 else 0.0)
        try:
            tables.append(to_toml(design, design_crammed(design)))
        except ValueError as e:
            print(f"gen_setups.py: {e}", file=sys.stderr)
            return 1
    text = "\n\n".join(tables) + "\n"
    if not args.write:
        print(text)
        return 0
    path = Path(__file__).resolve().parent.parent / "assets" / "setups.toml"
    setups = path.read_text()
    for n, table in zip(args.players, tables, strict=True):
        setups = _replace_table(setups, n, table)
    write_atomic(path, setups)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
