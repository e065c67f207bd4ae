"""Design the starting boards in assets/setups.toml (a developer script; its output is data).

The rulebook's Wrestler Count Diagrams give only the counts. We design positions that are fair by
symmetry: the 2P board is its own mirror image with the two wrestlers swapped (x -> -x; one medium
disc on the centre, every large disc out of the centre circle: :func:`design_mirror`), 3P is
symmetric under a third of a turn (one medium disc on the centre), and the 4P board's mirror line
y = -x maps each team onto the other (one medium on the centre, large discs out of the circle).
``--rotation`` prints the first 2P and 4P designs instead (a half turn, which with the printed three
large discs must stand one on the centre). Pieces are placed by orbit (one
representative and its rotated copies) and relaxed until no two overlap and all lie wholly inside
the ring with a margin. Wrestler spots keep room for any wrestler outline (RADIUS["wrestler"]).

    python tools/gen_setups.py            # prints the TOML
    python tools/gen_setups.py --write    # rewrites assets/setups.toml's boards
"""
from __future__ import annotations

import argparse
import math
import random
from collections.abc import Iterator
from pathlib import Path

from physics.fileio import write_atomic

RING = 0.100
MARGIN = 0.002          # every piece at least 2 mm inside the edge
GAP = 0.0008            # and 0.8 mm from its neighbours
RADIUS = {"large": 0.019, "medium": 0.0145, "small": 0.011, "wrestler": 0.017}
#: The printed centre circle's radius (assets/materials.toml ``centre_radius``); every piece but the
#: centre one starts ``clear`` of it.
CIRCLE = 0.015

# players -> (symmetry order, wrestler representative positions (r, angle deg) per orbit,
#             centre piece kind or None, orbit counts per kind)
#
# Issue 16. First (no first-turn win): a push made right behind a wrestler near the edge drives it
# inwards at the hand's speed and it coasts on (about 40 mm at the limit), which on the first boards
# (52 mm out, 10 mm from the 50 mm centre circle) put it into the circle for a Vice Grip; the circle
# is now 30 mm across. Then (pushes decide): a wrestler 56 mm out was almost never pushed out (a push
# from across the ring moves it by nothing, one from its flank at most 7 mm), and one driven into
# the middle stayed safe for the rest of the game. The wrestlers now stand 68 mm out on every board:
# no sampled first push knocks one out, and one that a push has moved nearer the edge can be pushed
# out from its flank. At 72 mm the medium AI won a game on turn 1 and games lasted 4-6 turns; at
# 78 mm 7 of 600 flank pushes knocked a wrestler out on turn 1. docs/rules-notes.md has the figures.
# (The 4P mirror board's stand 66.5 mm out since session 11: MIRROR_4P.)
DESIGNS = {
    2: dict(order=2, wrestlers=[(0.068, 0.0)], centre="large",
            orbits={"large": 1, "medium": 4, "small": 7}),
    3: dict(order=3, wrestlers=[(0.068, 90.0)], centre="medium",
            orbits={"large": 1, "medium": 3, "small": 4}),
    4: dict(order=2, wrestlers=[(0.068, 0.0), (0.068, 90.0)], centre="large",
            orbits={"large": 1, "medium": 3, "small": 7}),
}


def rot(x: float, y: float, k: int, order: int) -> tuple[float, float]:
    a = 2 * math.pi * k / order
    return x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)


def overlapping(pieces: list) -> Iterator[tuple[int, int, float, float, float]]:
    """Each pair of ``pieces`` ((kind, x, y, ...) each) nearer than their radii and GAP allow:
    (a, b, ux, uy, over), with (ux, uy) the unit vector from a to b and ``over`` half the overlap,
    how far each of the two must move apart."""
    for a in range(len(pieces)):
        ka, xa, ya = pieces[a][:3]
        for b in range(a + 1, len(pieces)):
            kb, xb, yb = pieces[b][:3]
            dx, dy = xb - xa, yb - ya
            dist = math.hypot(dx, dy) or 1e-9
            need = RADIUS[ka] + RADIUS[kb] + GAP
            if dist < need:
                yield a, b, dx / dist, dy / dist, (need - dist) / 2


def _clamp(rep: list, inner: float, outer: float) -> None:
    """Move a relaxed disc ``rep`` = [kind, x, y, ...] along its bearing into the band ``inner`` to
    ``outer`` metres from the centre (off the circle, wholly on the ring)."""
    dist = math.hypot(rep[1], rep[2]) or 1e-9
    if dist > outer or dist < inner:
        scale = (outer if dist > outer else inner) / dist
        rep[1] *= scale
        rep[2] *= scale


def design(players: int, seed: int = 7, iters: int = 4000, spec: dict | None = None
           ) -> dict[str, list[tuple[float, float]]]:
    """A board symmetric under a turn of 1/``order`` (:data:`DESIGNS`, or ``spec``: a dict of
    the same keys, as :data:`ROTATION_3P`). With ``guards`` (kind, distance from the centre,
    bearing in degrees from the representative wrestler's), discs set down as fixed as the
    wrestlers with their rotated copies; with ``clear`` every piece but the centre one is kept
    that far off the centre circle, and the seed must keep the large discs ``large_clear`` off it
    (as :func:`design_mirror`)."""
    d = DESIGNS[players] if spec is None else spec
    order = d["order"]
    seed = d.get("seed", seed)
    clear = d.get("clear")
    rng = random.Random(seed)
    reps: list[list] = []  # [kind, x, y, fixed]
    for r, deg in d["wrestlers"]:
        reps.append(["wrestler", r * math.cos(math.radians(deg)), r * math.sin(math.radians(deg)), True])
    w_deg = d["wrestlers"][0][1]
    for kind, r, deg in d.get("guards", ()):
        reps.append([kind, r * math.cos(math.radians(w_deg + deg)), r * math.sin(math.radians(w_deg + deg)),
                     True])
    centre = d["centre"]
    shake = _shaking(d.get("shake"), iters)

    def expand():
        out = [(centre, 0.0, 0.0, -1)] if centre else []
        for i, (kind, x, y, _) in enumerate(reps):
            for k in range(order):
                out.append((kind, *rot(x, y, k, order), i))
        return out

    def outer(kind: str) -> float:
        """The farthest out a ``kind`` disc's centre may stand: its ``within`` (the large discs
        off the edge), else wholly inside the ring with the margin."""
        return min(d.get("within", {}).get(kind, RING), RING - RADIUS[kind] - MARGIN)

    def draw(kind: str) -> tuple[float, float]:
        """A random spot for a ``kind`` disc; with ``redraws``, one clear of every piece placed
        (a few hundred tries)."""
        lo = 0.02 if clear is None else CIRCLE + RADIUS[kind] + clear
        placed = expand() if d.get("redraws") else []
        for _ in range(400):
            a = rng.uniform(0, 2 * math.pi)
            rr = rng.uniform(lo, outer(kind))
            x, y = rr * math.cos(a), rr * math.sin(a)
            if not any(math.hypot(px - qx, py - qy) < RADIUS[kind] + RADIUS[qk] + GAP
                       for qk, qx, qy, _ in placed for px, py in (rot(x, y, k, order) for k in range(order))):
                break
        return x, y

    for kind, n in d["orbits"].items():
        for _ in range(n):
            reps.append([kind, *draw(kind), False])

    def relax() -> None:
        for it in range(iters):
            pieces = expand()
            moved = 0.0
            push = [[0.0, 0.0] for _ in reps]
            for a, b, ux, uy, over in overlapping(pieces):
                (_, xa, ya, ia), (_, xb, yb, ib) = pieces[a], pieces[b]
                # move representatives (undo the rotation of the image)
                for idx, sgn, (px, py) in ((ia, -1, (xa, ya)), (ib, 1, (xb, yb))):
                    if idx < 0:
                        continue
                    # rotate the displacement back into the representative's frame
                    kk = [k for k in range(order)
                          if math.isclose(rot(reps[idx][1], reps[idx][2], k, order)[0], px, abs_tol=1e-12)
                          and math.isclose(rot(reps[idx][1], reps[idx][2], k, order)[1], py, abs_tol=1e-12)][0]
                    mx, my = rot(sgn * ux * over, sgn * uy * over, -kk, order)
                    push[idx][0] += mx
                    push[idx][1] += my
                moved = max(moved, over)
            for i, rep in enumerate(reps):
                if rep[3]:
                    continue
                rep[1] += push[i][0] * 1.0 + rng.gauss(0, shake(it)) * (it < iters // 2)
                rep[2] += push[i][1] * 1.0 + rng.gauss(0, shake(it)) * (it < iters // 2)
                _clamp(rep, 0.0 if clear is None else CIRCLE + RADIUS[rep[0]] + clear, outer(rep[0]))
            if moved == 0.0 and it > iters // 2:
                break

    # ``redraws``: round fixed guards the crowd can jam (a disc wedged between a wrestler, its guard
    # and the edge is pushed outwards by both into the edge, and stays); a disc still overlapping
    # another after the relaxation is drawn again at a free spot and the whole relaxed again.
    relax()
    for _ in range(d.get("redraws", 0)):
        pieces = expand()
        jammed = sorted({pieces[i][3] for a, b, *_ in overlapping(pieces) for i in (a, b)
                         if pieces[i][3] >= 0 and not reps[pieces[i][3]][3]})
        if not jammed:
            break
        for i in jammed:
            reps[i][1:3] = draw(reps[i][0])
        relax()
    if clear is not None:
        _check_settled([(kind, x, y) for kind, x, y, _ in expand()], seed, d.get("large_clear", 0.0))
    result: dict[str, list[tuple[float, float]]] = {k: [] for k in ("wrestler", "large", "medium", "small")}
    if players == 4:
        # Team order: seats 0 and 2 are team A, 1 and 3 team B; a half turn maps A onto B.
        (w0x, w0y), (w1x, w1y) = [(r[1], r[2]) for r in reps[:2]]
        result["wrestler"] = [(w0x, w0y), (w1x, w1y), (-w0x, -w0y), (-w1x, -w1y)]
        result["wrestler"] = [result["wrestler"][0], result["wrestler"][2],
                              result["wrestler"][1], result["wrestler"][3]]
    for kind, x, y, _i in expand():
        if kind == "wrestler" and players == 4:
            continue
        result[kind].append((x, y))
    return result


#: The 2P board's mirror design (issue 16): symmetric under the reflection x -> -x, which swaps
#: the two wrestlers at (+-68 mm, 0), so each seat's world is the other's mirror image (the physics
#: is mirror-symmetric: tests/kabuto/test_setups.py mirrors pushes on it). Pieces come in pairs, or stand on
#: the mirror line (x = 0) as their own image; ``line`` counts those per kind, ``centre`` is the kind
#: standing on the centre (None: nothing). No other piece touches the centre circle at the start.
#:
#: Which piece stands on the centre was decided with the aimed search of Mike's line
#: (tools/flank_lines.py: his Vice Grip takes what is in the circle, then he pushes from the
#: opponent's flank; docs/rules-notes.md has the figures). A small there, or nothing (pieces 1 mm
#: off the circle, which the first push often nudges in), left lines that win his first turn; a
#: medium, which Vice Grip hands him as a second medium, left fewest, and only against a wrestler its
#: own first push had moved outwards. ``large_clear``: the seed must keep every large disc that far
#: off the circle (see design_mirror).
#:
#: ``guards``: a small disc on each side of each wrestler between it and the edge (80 mm out, 26.5
#: degrees round from it). The seed-8 board had one below each wrestler and none above, and the
#: seeded search's two second-turn wins came up the ring's edge from below, drove a chain of discs
#: into the wrestler's lower inner side and carried it out over the open edge above (95 and 14 of
#: 180 pushes round the two lines won). With a disc in that path on both sides, the seed (28) was
#: chosen as 8 was, and by the edge pushes of docs/rules-notes.md. The large pair is fixed too,
#: 62 mm out at 50 degrees (seed 7): on seed 28 it stood on the edge above each wrestler (79 mm
#: out) and a medium at the steepest heading, down the edge from above, drove it and the guard into
#: the wrestler on turn 1 (tools/early_wins.py --sweep: 4 of 624 pushes; now 0).
#:
#: ``within``: the odd large disc, on the mirror line, stands within 70 mm of the centre (session
#: 10). It stood 78.8 mm out, on the edge above both wrestlers, and with the hand's limit at 0.6 m/s
#: a medium at the steepest heading from 97.5 degrees drove it down the edge into Jade's upper
#: guard and her; the relaxation from the same seed also moves the pieces below the wrestlers, and
#: the medium at the steepest heading from 262-267 degrees (266 won at 0.5 m/s too), which drove
#: the medium on the edge there up into Dora, no longer wins (tools/lever_sweeps.py at 0.5 and 0.6
#: m/s: 0 grid and 0 ridge wins; docs/rules-notes.md).
MIRROR_2P = dict(wrestler=0.068, centre="medium", line={"large": 1, "medium": 1, "small": 0},
                 total={"large": 3, "medium": 8, "small": 14}, seed=7, clear=0.001,
                 large_clear=0.010, guards=(("small", 0.080, 26.5), ("small", 0.080, -26.5),
                                            ("large", 0.062, 50.0)),
                 within={"large": 0.070})


def _shaking(shake: float | None, iters: int):
    """The relaxation's noise (metres, one standard deviation) at iteration ``it``: 0.01 mm
    throughout the first half without ``shake`` (the first boards), else ``shake`` falling to
    nothing by the half. Crowded round fixed guards, pieces jam where pushing each off its
    neighbours only presses it on another (or on the edge); shaking them hard at first, then
    less, lets them find room (an annealing)."""
    if shake is None:
        return lambda it: 1e-5
    return lambda it: shake * max(0.0, 1.0 - 2.0 * it / iters)


def _check_settled(pieces: list[tuple[str, float, float]], seed: int, large_clear: float) -> None:
    """Refuse a seed whose ``pieces`` (kind, x, y) did not settle apart, or that leaves a large disc
    within ``large_clear`` of the centre circle: a large disc near the circle is one push from
    Vice Grip, which hands it to Mike (with seed 10 of the 2P mirror board, large discs 1 mm off
    the circle: 28 of the aimed search's 37 wins). A check on the seed, not a force in the
    relaxation."""
    for a, (ka, xa, ya) in enumerate(pieces):
        for kb, xb, yb in pieces[a + 1:]:
            if math.hypot(xb - xa, yb - ya) < RADIUS[ka] + RADIUS[kb] + GAP / 2:
                raise ValueError(f"seed {seed}: the pieces did not settle apart; try another seed")
    near = [(x, y) for kind, x, y in pieces if kind == "large"
            and math.hypot(x, y) < CIRCLE + RADIUS["large"] + large_clear]
    if near:
        raise ValueError(f"seed {seed}: a large disc stands within {large_clear * 1000:.0f} mm of the "
                         f"centre circle at {near[0]}; try another seed")


def design_mirror(wrestler: float = 0.068, centre: str | None = None,
                  line: dict[str, int] | None = None, total: dict[str, int] | None = None,
                  seed: int = 7, clear: float = 0.001, large_clear: float = 0.010,
                  iters: int = 4000, wrestler_deg: tuple[float, ...] = (0.0,),
                  turn_deg: float = 0.0,
                  guards: tuple[tuple[str, float, float], ...] = (),
                  shake: float | None = None, within: dict[str, float] | None = None,
                  redraws: int = 0) -> dict[str, list[tuple[float, float]]]:
    """A board symmetric under x -> -x (see :data:`MIRROR_2P`), relaxed as :func:`design`, then
    turned ``turn_deg`` round the centre (so the mirror line is the y axis turned that far).

    The representatives' wrestlers stand ``wrestler`` out at the bearings ``wrestler_deg`` (on the
    x > 0 side; their images are the other seats' wrestlers). ``guards`` are discs set down as
    fixed as the wrestlers, (kind, distance from the centre, bearing in degrees) each on the x > 0
    side, with their mirror images; they count in ``total``. A piece and its mirror image push on
    each other as any two pieces do; the push felt by the image is mirrored back onto its
    representative, and a piece on the mirror line moves along it."""
    line = dict(MIRROR_2P["line"] if line is None else line)  # type: ignore[arg-type]
    total = dict(MIRROR_2P["total"] if total is None else total)  # type: ignore[arg-type]
    rng = random.Random(seed)
    reps: list[list] = [  # [kind, x, y, "fixed"|"pair"|"line"]
        ["wrestler", wrestler * math.cos(math.radians(d)), wrestler * math.sin(math.radians(d)), "fixed"]
        for d in wrestler_deg]
    # A guard on the mirror line (bearing +-90 degrees) is its own image.
    reps += [[kind, r * math.cos(math.radians(d)), r * math.sin(math.radians(d)),
              "fixed line" if abs(math.cos(math.radians(d))) < 1e-9 else "fixed"]
             for kind, r, d in guards]
    for rep in reps:
        if rep[3] == "fixed line":
            rep[1] = 0.0
    shaken = _shaking(shake, iters)

    def expand() -> list[tuple[str, float, float, int, int]]:
        """Every piece: (kind, x, y, representative or -1 for the centre, +1 itself / -1 image)."""
        out = [(centre, 0.0, 0.0, -1, 1)] if centre else []
        for i, (kind, x, y, mode) in enumerate(reps):
            out.append((kind, x, y, i, 1))
            if mode not in ("line", "fixed line"):
                out.append((kind, -x, y, i, -1))
        return out

    def outer(kind: str) -> float:
        return min((within or {}).get(kind, RING), RING - RADIUS[kind] - MARGIN)

    def draw(kind: str, mode: str) -> tuple[float, float]:
        """A random spot for a ``kind`` disc on the line or (``mode`` "pair") on the x >= 0 side;
        with ``redraws``, one clear of every piece placed and its image (a few hundred tries)."""
        lo, hi = CIRCLE + RADIUS[kind] + clear, outer(kind)
        placed = expand() if redraws else []
        for _ in range(400):
            if mode == "line":
                x, y = 0.0, rng.choice((-1, 1)) * rng.uniform(lo, hi)
            else:
                a = rng.uniform(-math.pi / 2, math.pi / 2)
                rr = rng.uniform(lo, hi)
                x, y = rr * math.cos(a), rr * math.sin(a)
            if not any(math.hypot(px - qx, y - qy) < RADIUS[kind] + RADIUS[qk] + GAP
                       for qk, qx, qy, _, _ in placed for px in (x, -x)):
                break
        return x, y
    for kind in ("large", "medium", "small"):
        on_line = line.get(kind, 0)
        guarded = sum(1 if abs(math.cos(math.radians(g[2]))) < 1e-9 else 2 for g in guards if g[0] == kind)
        pairs, odd = divmod(total[kind] - on_line - (kind == centre) - guarded, 2)
        if odd:
            raise ValueError(f"{kind}: {total[kind]} discs cannot be mirror pairs with {on_line} on "
                             f"the line and {'one' if kind == centre else 'none'} on the centre")
        for _ in range(on_line):
            reps.append([kind, *draw(kind, "line"), "line"])
        for _ in range(pairs):
            reps.append([kind, *draw(kind, "pair"), "pair"])

    def relax() -> None:
        for it in range(iters):
            pieces = expand()
            moved = 0.0
            push = [[0.0, 0.0] for _ in reps]
            for a, b, ux, uy, over in overlapping(pieces):
                for idx, sgn, mirror in ((pieces[a][3], -1, pieces[a][4]), (pieces[b][3], 1, pieces[b][4])):
                    if idx >= 0:   # an image's push, mirrored back onto its representative
                        push[idx][0] += mirror * sgn * ux * over
                        push[idx][1] += sgn * uy * over
                moved = max(moved, over)
            for i, rep in enumerate(reps):
                if rep[3].startswith("fixed"):
                    continue
                noise = it < iters // 2
                if rep[3] == "pair":
                    rep[1] += push[i][0] + rng.gauss(0, shaken(it)) * noise
                rep[2] += push[i][1] + rng.gauss(0, shaken(it)) * noise
                _clamp(rep, CIRCLE + RADIUS[rep[0]] + clear, outer(rep[0]))
            if moved == 0.0 and it > iters // 2:
                break

    relax()
    for _ in range(redraws):  # as in design(): a disc still jammed is drawn again, then relaxed
        pieces = expand()
        jammed = sorted({pieces[i][3] for a, b, *_ in overlapping(pieces) for i in (a, b)
                         if pieces[i][3] >= 0 and not reps[pieces[i][3]][3].startswith("fixed")})
        if not jammed:
            break
        for i in jammed:
            reps[i][1:3] = draw(reps[i][0], reps[i][3])
        relax()
    pieces = expand()
    _check_settled([(kind, x, y) for kind, x, y, _, _ in pieces], seed, large_clear)
    result: dict[str, list[tuple[float, float]]] = {k: [] for k in ("wrestler", "large", "medium", "small")}
    for kind, x, y, _i, _s in pieces:
        result[kind].append(rot(x, y, 1, 360.0 / turn_deg) if turn_deg else (x, y))
    return result


#: The 4P board's mirror design: as :data:`MIRROR_2P`, with the mirror line y = -x, which maps
#: each team onto the other (seat 0's wrestler at 0 degrees onto seat 3's at 270, seat 2's at 90
#: onto seat 1's at 180). Designed in a frame turned 45 degrees back, where the line is the y axis
#: and team A's wrestlers stand at -45 and +45 degrees. The odd large disc stands on the line, out
#: of the centre circle (on the half-turn board it stood on the centre, and Mike's Vice Grip took
#: it: docs/rules-notes.md).
#:
#: As on the 2P board, each wrestler has a small guard on each side towards the edge (80 mm out,
#: 26.5 degrees round), and the large discs stay within 65 mm of the centre (``within``), off the
#: edge: on the seed-20 board smalls on the edge beside Jade and Mike and large discs 79 mm out
#: beside Bea and Dora made chains that a medium pushed down the edge at the steepest heading
#: drove into the wrestler (the edge grid: 74 of 4,992 turn-1 wins). Crowded round the fixed
#: guards, the relaxation jams, so it shakes the pieces (``shake``) and draws a still-jammed disc
#: again (``redraws``); seed 22 was chosen by the edge grid and ridge (docs/rules-notes.md).
#:
#: The wrestlers stand 66.5 mm out (session 11; 68 on the other boards). At 68 mm the seed-22
#: board let Rhino Rita win turn 1 with Charge (tools/early_wins.py --charge: 54 of 2,016 lines
#: round the found one): a small set down on the edge beside her team-mate and a second one from
#: the same spot drove the first into the team-mate, who was shoved through the two mediums 48 mm
#: out between the teams, and the second medium knocked the opponent beyond out. At 66.5 mm the
#: same seed relaxes to mediums 33 mm out there and smalls 57 mm out: 0 of 2,016, and the edge
#: grid, ridge, behind-push test and seeded search (20 a pair) stay at 0; the large discs stand
#: 45 mm out (57 before), so more first pushes from behind one leave it touching the centre circle
#: (168 of 450, 123 before) and none knocks one out (10 before). docs/rules-notes.md, session 11.
MIRROR_4P = dict(wrestler=0.0665, centre="medium", line={"large": 1, "medium": 1, "small": 0},
                 total={"large": 3, "medium": 6, "small": 14}, seed=22, clear=0.001,
                 large_clear=0.010, wrestler_deg=(-45.0, 45.0), turn_deg=45.0,
                 within={"large": 0.065}, shake=0.001, redraws=5,
                 guards=(("small", 0.080, -71.5), ("small", 0.080, -18.5), ("small", 0.080, 18.5),
                         ("small", 0.080, 71.5)))

#: The 3P board's design: symmetric under a third of a turn (:func:`design`), one medium on the
#: centre the only piece in the circle (every other piece 1 mm off it), a small guard on each side
#: of each wrestler towards the edge and the large discs within 65 mm of the centre, as on the 4P
#: board (the first 3P board stood a large disc on the edge 28 degrees round from each wrestler,
#: and a medium pushed down the edge at the steepest heading drove it into the wrestler: 10 of
#: 3,744 edge-grid pushes won turn 1). The seed was chosen by the edge grid and ridge, and then
#: (session 11) by the seeded search's second turn: on seed 43 Rhino Rita's slow medium onto the
#: edge beside M06, then Dung Dora's medium from 40.5 degrees drove three mediums across the right
#: of the ring into Bombardier Bea's wrestler (19 of 120 seeded pushes round it won at 0.5 m/s).
#: Seed 32 (screened with the settled seeds of 0-102) passes the edge grid, the ridge and the
#: behind-push test at 0.5 m/s, no push from behind a large disc leaves one touching the circle
#: (0 of 450; seed 43: 46) and its seeded search finds no first- or second-turn win (seed 43: one
#: second-turn line); docs/rules-notes.md.
ROTATION_3P = dict(order=3, wrestlers=[(0.068, 90.0)], centre="medium",
                   orbits={"large": 1, "medium": 3, "small": 2}, seed=32, clear=0.001,
                   large_clear=0.010, within={"large": 0.065}, shake=0.001, redraws=5,
                   guards=(("small", 0.080, 26.5), ("small", 0.080, -26.5)))


# ----- issue 42: the crammed boards ------------------------------------------------------------
#
# The real ring is crammed, the wrestlers in its middle. The boards above left about half the ring
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
#: The wrestlers stand this far from the centre (mm): clear of the centre medium with every
#: outline (Hank's horn reaches 16.6 mm forward), in the middle of the ring.
CRAMMED_WRESTLER = 33.0
#: Every wrestler outline facing the centre lies inside these circles: (distance towards the
#: centre from the spot, radius), mm, found by a grid search over the 8 outlines.
WRESTLER_PADS = ((-2.25, 13.05), (6.5, 13.05))
#: Gaps kept between neighbours and to the ring's edge (mm): crammed, not touching.
CRAMMED_GAP = 0.15
#: The seed of each board, the first that packs with nothing overlapping.
CRAMMED_SEEDS = {2: 0, 3: 0, 4: 0}


def _mat_rot(deg: float):
    import numpy as np
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _crammed_layout(players: int) -> tuple[list, list, list]:
    """(fixed circles (x, y, r), orbits (kind, maps from the representative), wrestler spots), mm.
    The 2P board's spots are padded 4 mm farther out too (``second_outset``)."""
    import numpy as np
    counts = {k: n for k, n in zip(("large", "medium", "small"),
                                   {2: (3, 8, 14), 3: (3, 10, 12), 4: (3, 6, 14)}[players], strict=True)}
    counts["medium"] -= 1  # the centre one
    wr = CRAMMED_WRESTLER
    if players == 2:
        spots = [(wr, 0.0), (-wr, 0.0)]
        ref = np.array([[-1.0, 0.0], [0.0, 1.0]])
        full, line = [np.eye(2), ref], [np.array([[0.0, 0.0], [0.0, 1.0]])]
    elif players == 3:
        spots = [tuple(_mat_rot(90 + 120 * k) @ [wr, 0.0]) for k in range(3)]
        full, line = [_mat_rot(120 * k) for k in range(3)], None
    else:  # seats 0 (0 deg) and 2 (90) are a team, 1 (180) and 3 (270) the other
        spots = [(wr, 0.0), (-wr, 0.0), (0.0, wr), (0.0, -wr)]
        ref = np.array([[0.0, -1.0], [-1.0, 0.0]])  # (x, y) -> (-y, -x)
        full, line = [np.eye(2), ref], [np.array([[0.5, -0.5], [-0.5, 0.5]])]
    fixed = [(0.0, 0.0, CRAMMED_RADIUS["medium"])]
    pads = WRESTLER_PADS + (((-2.25 - 4.0, 13.05),) if players == 2 else ())
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


def design_crammed(players: int, seed: int | None = None, steps: int = 400
                   ) -> dict[str, list[tuple[float, float]]]:
    """The crammed board for ``players`` (see the comment above); ValueError if the seed does
    not pack without overlaps."""
    import numpy as np
    from scipy.optimize import minimize

    seed = CRAMMED_SEEDS[players] if seed is None else seed
    ring, gap = CRAMMED_RING, CRAMMED_GAP
    fixed, orbits, spots = _crammed_layout(players)
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
        """A random start outside the wrestlers (a disc started among them cannot get out)."""
        hi = ring - CRAMMED_RADIUS[kind]
        rr = math.sqrt(rng.uniform(min(0.9, (CRAMMED_WRESTLER + 12.0) / hi) ** 2, 1.0)) * hi
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
        "wrestler": [(u / 1000.0, v / 1000.0) for u, v in spots], "large": [],
        "medium": [(0.0, 0.0)], "small": []}
    for (i, _), (u, v) in zip(owner, pos, strict=True):
        result[orbits[i][0]].append((float(u) + 0.0, float(v) + 0.0))
    return result


def _seat_order(wrestlers: list[tuple[float, float]], bearings: tuple[float, ...]) -> list[tuple[float, float]]:
    """``wrestlers`` in seat order: the one at each of ``bearings`` (degrees), in turn."""
    def bearing(p: tuple[float, float]) -> float:
        return math.degrees(math.atan2(p[1], p[0])) % 360.0
    return [min(wrestlers, key=lambda p: abs((bearing(p) - b + 180.0) % 360.0 - 180.0)) for b in bearings]


def design_board(players: int, mirror: bool = False, crammed: bool = False
                 ) -> dict[str, list[tuple[float, float]]]:
    """The board written for ``players``: the crammed design (issue 42) when ``crammed``, else
    the 2P and 4P boards are the mirror designs when ``mirror``."""
    if crammed:
        return design_crammed(players)
    if players == 2 and mirror:
        return design_mirror(**MIRROR_2P)  # type: ignore[arg-type]
    if players == 4 and mirror:
        board = design_mirror(**MIRROR_4P)  # type: ignore[arg-type]
        # Seats 0 and 2 are team A, 1 and 3 team B (boards.toml's seat order).
        board["wrestler"] = _seat_order(board["wrestler"], (0.0, 180.0, 90.0, 270.0))
        return board
    if players == 3 and mirror:
        return design(3, spec=ROTATION_3P)
    return design(players)


def to_toml(players: int, boards: dict[str, list[tuple[float, float]]]) -> str:
    lines = [f"[boards.{players}]"]
    for kind in ("wrestler", "large", "medium", "small"):
        pts = ", ".join(f"[{x:.5f}, {y:.5f}]" for x, y in boards[kind])
        lines.append(f"{kind} = [{pts}]")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true",
                    help="replace the [boards.N] tables of assets/setups.toml (everything from the "
                         "first [boards.N] on) instead of printing")
    ap.add_argument("--rotation", action="store_true",
                    help="the 2P and 4P boards symmetric under a half turn (the first designs, a "
                         "large disc on the centre) instead of the mirror designs")
    ap.add_argument("--issue16", action="store_true",
                    help="the boards of issue 16 (wrestlers 68 mm out on a 200 mm ring) instead of "
                         "the crammed boards of issue 42")
    args = ap.parse_args()
    crammed = not (args.issue16 or args.rotation)
    text = "\n\n".join(to_toml(n, design_board(n, mirror=not args.rotation, crammed=crammed))
                       for n in (2, 3, 4)) + "\n"
    if crammed:
        text = text.replace("[boards.2]\n", "[boards.2]\nsecond_outset = 0.004\n")
    if not args.write:
        print(text)
        return
    path = Path(__file__).resolve().parent.parent / "assets" / "setups.toml"
    old = path.read_text()
    head = old[: old.index("[boards.")] if "[boards." in old else old + "\n"
    write_atomic(path, head + text)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
