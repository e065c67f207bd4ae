"""The search for early forced wins: can a player win on their very first turn? (issue 16, point 3)

``tools/early_wins.py`` is its command line.

For every ordered pair of wrestlers on a standard board (``--players 2``, 3 or 4; ``all`` runs the
three), the seat moving first (seat 0) gets ``--pushes`` seeded first pushes (entry, heading, speed, piece kind: drawn uniformly within
what the rules allow). Each push is tried in every *line* a turn allows:

* the push alone, then each usable signature move after it (every target combination the AI would
  try, :func:`kabuto.ai.signature.target_combos`), and a second push from the same platform spot
  when a move (Charge) grants one;
* each usable move (with each target combination) before the push, then the push (also made with
  each piece the move brought in: the Horn Bar, the Atlas Pillar ...), then each move still usable
  after it.

Uniform headings almost never draw the steepest ones, and a push down the ring's edge at the
steepest heading a kind can be aimed is a line of its own (docs/rules-notes.md: on the seed-28 2P
board it won turn 1 from 54-63 degrees round above a wrestler, at that heading only). So the search
also makes an *edge share* of pushes (``--edge-share``, default 20 per 100 uniform pushes; their
own seeded streams, so the uniform samples stay the same): :func:`edge_pushes`, aimed along the
edge at an opposing wrestler, within a few degrees of the steepest heading, searched in the same
lines. ``--sweep`` runs instead a deterministic grid of such pushes from each board's start
(:func:`edge_sweep`, the first seat of each side moving first) and the finer ridge of pushes at
exactly the steepest heading (:func:`steepest_ridge`).

A line that ends the game with seat 0 winning is an **early win on turn 1**. For the second
player, the first player makes one quiet opening plainly (:func:`opening`), and seat 1 then
searches its own pushes in the same lines: a win there is an **early win on turn 2** (the second
player's first turn), but a forced one only if the first player cannot avoid it, so the replies are
then searched again after the first player's next quiet openings (:data:`OPENINGS`); the pair is
cleared once one opening leaves no winning reply (``pairs_not_cleared`` in the summary).
``--blunders`` searches instead reply *i* after first push *i* (how often a first push hands the
game over).

    python tools/early_wins.py                       # the whole search: 56 pairs x 2,000 pushes, 2P
    python tools/early_wins.py --players all --resume runs/early.jsonl   # every board, resumable
    python tools/early_wins.py --players all --resume runs/early.jsonl --so-far   # what it found so far
    python tools/early_wins.py --players all --resume results/early-wins.jsonl --so-far --write results/early-wins.md
    python tools/early_wins.py --pushes 50 --pairs mike:hank,bea:gus --seed 3
    python tools/early_wins.py --edge 30 --pushes 20    # aimed pushes up the edge (edge_wins)
    python tools/early_wins.py --sweep --players all    # the edge grid and ridge from every board's start

On the 3- and 4-player boards the pair takes seats 0 and 1 and the other seats are filled with the
wrestlers after the second in card order (skipping the pair), so every wrestler meets every other
in the first two seats; the first turns of seats 0 and 1 are searched (the issue's "the first player
on turn 1, nor the second player on its first turn"). Junior League cards have no signature moves,
and a first-turn win there could only be a push knock-out; the Junior boards are not searched.

**Run time.** Resting bodies sleep and the crammed boards settle fast, so on the current boards
one process searches 100 pushes of a pair (both seats' lines) in about 4.4 s on the 2P board, 9 s
on the 4P and 16 s on the 3P board (two opponents' lines): the whole search, every board at 2,000
pushes a pair, is about 5 hours of two idle cores. The units go round every board and pair before
the next 25 pushes of any, so a search stopped part way has searched every pair alike.
``--resume FILE`` appends each finished unit of work to FILE (JSON lines) and skips the units
already there, so a long search can be stopped and continued; the progress bar shows the time
left.

The search is seeded (push samples from ``early-wins-<seed>-<first>-<second>``), runs over
``--workers`` processes (default: the machine's cores), shows a progress bar on a terminal and
prints one JSON summary: per pair the pushes tried and wins found for each seat, and the first few
winning lines so they can be replayed (``Game.new(players=2, wrestlers=[first, second], seed=0,
first_player=0)`` and the listed actions).
"""
from __future__ import annotations

import itertools
import math
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from kabuto.ai.levels import SearchSettings, config
from kabuto.ai.signature import target_combos
from kabuto.lab import LabError
from kabuto.lab.fingerprint import search_fingerprint
from kabuto.lab.ledger import Ledger, LedgerError
from kabuto.rules.errors import IllegalMove
from kabuto.rules.game import Game
from kabuto.rules.moves import grips_wrestlers
from kabuto.rules.wrestlers import load_wrestlers
from kabuto.tuning.stopping import ignore_sigint
from kabuto_base import processes
from physics import Materials

#: Winning lines kept per pair and seat (the counts cover them all).
EXAMPLES = 3


@dataclass(frozen=True)
class PushSample:
    """One first push: which kind, where the platform touches the ring, its aim and speed."""

    kind: str
    entry_deg: float
    heading_deg: float
    speed: float


@dataclass
class PairResult:
    """What the search found for one ordered pair (``first`` moves first)."""

    first: str
    second: str
    players: int = 2
    tried_first: int = 0
    wins_first: int = 0
    tried_second: int = 0
    wins_second: int = 0
    examples_first: list[list[dict[str, Any]]] = field(default_factory=list)
    examples_second: list[list[dict[str, Any]]] = field(default_factory=list)
    #: Of the counts above, the edge share's (:func:`edge_pushes`).
    edge_tried_first: int = 0
    edge_wins_first: int = 0
    edge_tried_second: int = 0
    edge_wins_second: int = 0

    def add(self, other: PairResult) -> None:
        self.tried_first += other.tried_first
        self.wins_first += other.wins_first
        self.tried_second += other.tried_second
        self.wins_second += other.wins_second
        self.edge_tried_first += other.edge_tried_first
        self.edge_wins_first += other.edge_wins_first
        self.edge_tried_second += other.edge_tried_second
        self.edge_wins_second += other.edge_wins_second
        self.examples_first = (self.examples_first + other.examples_first)[:EXAMPLES]
        self.examples_second = (self.examples_second + other.examples_second)[:EXAMPLES]

    def count(self, turn: int, line: list[dict[str, Any]] | None, edge: bool = False,
              first_push: PushSample | None = None) -> None:
        """Count one push searched on ``turn`` (1: the first player's, 2: the second player's; an
        ``edge`` push counts in the edge share's fields too) and keep the first few winning lines
        (a turn-2 line with the first player's plain push before it)."""
        tag = "first" if turn == 1 else "second"
        for name, add in ((f"tried_{tag}", True), (f"wins_{tag}", line is not None),
                          (f"edge_tried_{tag}", edge), (f"edge_wins_{tag}", edge and line is not None)):
            setattr(self, name, getattr(self, name) + add)
        examples = self.examples_first if turn == 1 else self.examples_second
        if line is not None and len(examples) < EXAMPLES:
            examples.append(line if first_push is None else [{"first_push": asdict(first_push)}, *line])


def lineup(players: int, first: str, second: str) -> list[str]:
    """The wrestlers of a ``players`` game for the pair: ``first``, ``second``, then the wrestlers
    after ``second`` in card order (skipping the pair)."""
    keys = [w.key for w in load_wrestlers()]
    i = keys.index(second)
    rest = [k for k in keys[i + 1:] + keys[:i] if k not in (first, second)]
    return [first, second, *rest[:players - 2]]


def unit_fingerprint(task: Task) -> str:
    """The fingerprint a unit of work is kept under: :func:`kabuto.lab.fingerprint.search_fingerprint`
    of its board and the wrestlers of its game."""
    players, first, second = task[0], task[1], task[2]
    return search_fingerprint(players, tuple(lineup(players, first, second)))


def new_game(first: str, second: str, players: int = 2) -> Game:
    return Game.new(players=players, wrestlers=lineup(players, first, second), seed=0, first_player=0)


def sample_pushes(game: Game, n: int, rng: random.Random, tries: int = 20) -> list[PushSample]:
    """``n`` pushes the rules accept for the side to move now, drawn uniformly (kind among what it
    holds, entry all round the ring, heading within what that kind can reach, speed within the
    hand's limits); a draw the rules refuse (a blocked platform spot) is drawn again."""
    sim = game.materials.sim
    kinds = game.legal_kinds()
    out: list[PushSample] = []
    while len(out) < n:
        for _ in range(tries):
            kind = rng.choice(kinds)
            lim = game.world.steepest_heading(kind)
            s = PushSample(kind, rng.uniform(0.0, 360.0), rng.uniform(-lim, lim),
                           rng.uniform(sim.min_speed, sim.max_speed))
            try:
                game.check_push(s.kind, s.entry_deg, s.heading_deg, s.speed)
            except IllegalMove:
                continue
            out.append(s)
            break
        else:
            out.append(s)  # kept, and counted as tried: the line search refuses it cleanly
    return out


def _usable(game: Game, seat: int, search: SearchSettings) -> list[tuple[str, dict[str, Any]]]:
    """Every (move, targets) the seat could use now."""
    out: list[tuple[str, dict[str, Any]]] = []
    for opt in game.available_moves(seat):
        if opt.usable:
            out.extend((opt.name, t) for t in (target_combos(opt, search) if opt.targets else [{}]))
    return out


def _won(game: Game, seat: int) -> bool:
    return game.winner == game.side_of(seat)


def _push(game: Game, s: PushSample) -> dict[str, Any] | None:
    """Push ``s`` (the turn left open); None if the rules refuse it."""
    try:
        game.push(s.kind, s.entry_deg, s.heading_deg, s.speed, end_turn=False)
    except IllegalMove:
        return None
    return {"push": asdict(s)}


def _move(game: Game, seat: int, name: str, targets: dict[str, Any]) -> dict[str, Any] | None:
    try:
        game.use_move(seat, name, **targets)
    except IllegalMove:
        return None
    return {"move": name, "targets": targets}


#: Effects of moves that can still win once the push is made: another push (Charge); and Vice Grip
#: where it takes wrestlers (:func:`kabuto.rules.moves.grips_wrestlers`). Every other move of the
#: cards either replaces the turn (so cannot follow a push) or cannot move an opposing wrestler
#: (slides stop at the first piece in their way, placements must fit, the rest change
#: inventories), so after the push the search skips wrestlers that have neither: no line of theirs
#: can win there.
WINNING_AFTER_PUSH = frozenset({"extra_push"})


def _may_still_win(game: Game, seat: int) -> bool:
    """Whether a move after the push could still win this turn for ``seat``."""
    if game.pushes_left:
        return True
    used = set(game.turn.moves_used)
    return any((m.effect in WINNING_AFTER_PUSH or grips_wrestlers(m)) and m.name not in used
               for m in game.seats[seat].wrestler.moves)


def _after_push(game: Game, seat: int, s: PushSample, line: list[dict[str, Any]],
                search: SearchSettings, depth: int = 0) -> list[dict[str, Any]] | None:
    """A winning continuation of ``line`` (the push made) by moves after it, or None."""
    if _won(game, seat):
        return line
    if game.is_over or depth > 1 or not _may_still_win(game, seat):
        return None
    if game.pushes_left:  # a move granted a second push: from the same platform spot
        for kind in game.legal_kinds():
            g = game.clone()
            again = _again(game, kind, s)
            step = _push(g, again)
            if step is not None and (found := _after_push(g, seat, again, [*line, step], search,
                                                          depth + 1)):
                return found
    for name, targets in _usable(game, seat, search):
        g = game.clone()
        step = _move(g, seat, name, targets)
        if step is not None and (found := _after_push(g, seat, s, [*line, step], search, depth + 1)):
            return found
    return None


def _again(game: Game, kind: str, s: PushSample) -> PushSample:
    """The second push a move (Charge) grants after push ``s``: ``kind`` from the platform spot
    and aim the rules hold it to (``s``'s if they do not say), at ``s``'s speed."""
    return PushSample(kind, *(game.locked_platform() or (s.entry_deg, s.heading_deg)), s.speed)


def _after_plain(base: Game, first: PushSample, pushed: Game | None = None) -> Game | None:
    """The second player's first position: a copy of ``base`` after the first player's plain push
    ``first`` (``pushed``: that copy, already pushed, turn open), or None if the rules refuse it or
    the game ends."""
    g = pushed
    if g is None:
        g = base.clone()
        if _push(g, first) is None:
            return None
    if g.is_over:
        return None
    g.end_turn()
    return None if g.is_over else g


@dataclass
class Starts:
    """Where the side to move in one position can start its push from: the position itself and
    each position a usable move before the push leaves (with the move made), or the line of a move
    that wins on its own. None of it depends on the push, so :func:`search_pair` works it out once
    per position and every sampled push of the position starts from it (each push is made on a
    copy: the positions here are never changed)."""

    won: list[dict[str, Any]] | None
    games: list[tuple[Game, list[dict[str, Any]]]]


def starts_of(game: Game, search: SearchSettings) -> Starts:
    """The :class:`Starts` of the side to move in ``game``."""
    seat = game.current_seat
    starts: list[tuple[Game, list[dict[str, Any]]]] = [(game, [])]
    for name, targets in _usable(game, seat, search):
        g = game.clone()
        step = _move(g, seat, name, targets)
        if step is None:
            continue
        if _won(g, seat):
            return Starts([step], [])
        if not g.is_over and g.pushes_left:
            starts.append((g, [step]))
    return Starts(None, starts)


def winning_line(game: Game, s: PushSample, search: SearchSettings,
                 plain: list[Game] | None = None, starts: Starts | None = None
                 ) -> list[dict[str, Any]] | None:
    """A line of the side to move's turn built on push ``s`` that wins at once, or None.

    ``plain``, if given, receives the position after push ``s`` alone with the turn still open,
    when the search makes it (it is the next player's position after a plain push: the search of
    the second player's turn starts from it instead of making that push again). ``starts``: the
    :func:`starts_of` ``game``, if already worked out (the same lines are searched either way)."""
    seat = game.current_seat
    begin = starts_of(game, search) if starts is None else starts
    if begin.won is not None:
        return begin.won
    base_kinds = set(game.legal_kinds())
    for g, line in begin.games:
        for push in [s, *_new_kinds(g, s, base_kinds)]:
            h = g.clone()
            step = _push(h, push)
            if step is None:
                continue
            if plain is not None and not line and push is s:
                plain.append(h)  # _after_push leaves h as it is: it tries each move on a copy
            if found := _after_push(h, seat, push, [*line, step], search):
                return found
    return None


def _new_kinds(game: Game, s: PushSample, before: set[str]) -> list[PushSample]:
    """Push ``s`` made with each kind a move before it brought into the inventory (Hank's Horn
    Bar, Annie's Pillar, ...): the same platform spot, aim (within what the kind can reach) and
    speed. Without these a move that adds a piece to push would never be searched with it."""
    out = []
    for kind in game.legal_kinds():
        if kind not in before:
            lim = game.world.steepest_heading(kind)
            out.append(PushSample(kind, s.entry_deg, max(-lim, min(lim, s.heading_deg)), s.speed))
    return out


def near_wins(game: Game, s: PushSample, entry: float = 8.0, heading: float = 8.0,
              speeds: tuple[float, ...] | None = None, entry_step: float = 2.0,
              heading_step: float = 4.0) -> tuple[int, int]:
    """(wins, pushes tried) of plain pushes of ``s``'s kind near ``s`` by the side to move: the entry
    within ``entry`` degrees and the heading within ``heading`` (held within what the kind can
    reach) of ``s``'s, at each of ``speeds`` (m/s; default :data:`NEAR_SPEEDS` of the hand's top
    speed). A found line that wins alone is a needle; one with many winning neighbours is a
    weakness of the position (docs/rules-notes.md)."""
    speeds = top_speeds(game, NEAR_SPEEDS) if speeds is None else speeds
    lim = game.world.steepest_heading(s.kind)
    wins, tried = _tally(game, (PushSample(s.kind, s.entry_deg + de,
                                           max(-lim, min(lim, s.heading_deg + dh)), v)
                                for de in _steps(entry, entry_step)
                                for dh in _steps(heading, heading_step) for v in speeds))
    return len(wins), tried


def near_sample(game: Game, first: PushSample, second: PushSample, n: int, stream: str,
                entry: float = 4.0, heading: float = 6.0,
                speeds: tuple[float, float] | None = None) -> tuple[int, int, list[PushSample]]:
    """(wins, pushes tried, the winning pushes) of ``n`` seeded plain pushes of ``second``'s kind
    near ``second`` by the second side, after the first side's plain push ``first`` from ``game``
    (its turn then ended): the entry within ``entry`` degrees and the heading within ``heading``
    (held within what the kind can reach) of ``second``'s, drawn uniformly, the speed uniformly
    in ``speeds`` (m/s; default 0.8 to 1.0 of the hand's top speed), from the stream ``stream``.
    How broad a found turn-2 line is (the 3P board's Rita-then-Dora line, docs/rules-notes.md:
    stream ``near-3p-rita-dora``); a push the rules refuse is not counted."""
    after = _after_plain(game, first)
    if after is None:
        raise ValueError(f"the first push {first} ends the game or is refused")
    lim = after.world.steepest_heading(second.kind)
    low, high = top_speeds(game, (0.8, 1.0)) if speeds is None else speeds
    rng = random.Random(stream)
    wins, tried = _tally(after, (
        PushSample(second.kind, (second.entry_deg + rng.uniform(-entry, entry)) % 360.0,
                   max(-lim, min(lim, second.heading_deg + rng.uniform(-heading, heading))),
                   rng.uniform(low, high)) for _ in range(n)))
    return len(wins), tried, wins


def _tally(game: Game, pushes: Iterable[PushSample]) -> tuple[list[PushSample], int]:
    """(the pushes that win at once for the side to move, pushes the rules allow) of ``pushes``,
    each made plainly on a copy of ``game``."""
    seat = game.current_seat
    wins: list[PushSample] = []
    tried = 0
    for s in pushes:
        g = game.clone()
        if _push(g, s) is None:
            continue
        tried += 1
        if _won(g, seat):
            wins.append(s)
    return wins, tried


#: The 3P board's second-turn line earlier (docs/rules-notes.md, "near-3p-rita-dora"): Rhino
#: Rita's slow medium onto the edge, then Dung Dora's plain medium across the right of the ring.
RITA_DORA_3P = (PushSample("medium", 42.4, 38.1, 0.07), PushSample("medium", 40.5, 20.1, 0.5))


#: The pairs of :func:`edge_wins`: each wrestler once as the first player.
EDGE_PAIRS = (("jade", "dora"), ("bea", "hank"), ("mike", "annie"), ("hank", "gus"),
              ("annie", "rita"), ("rita", "jade"), ("gus", "bea"), ("dora", "mike"))


def edge_wins(first: str, second: str, positions: int, aims: int) -> tuple[int, int, list[int]]:
    """(wins, pushes tried, the side of each win) of the second player's pushes up the ring's edge
    at the first player's wrestler, after each of the first player's ``positions`` seeded plain
    first pushes (the search's own samples): ``aims`` each, entering 50-100 degrees round the ring
    from the wrestler on either side (side -1: from below, clockwise of it), aimed 35 degrees or
    more off the inward normal towards it, at :data:`EDGE_SLOWEST` to all of the hand's top speed
    (0.35-0.5 m/s at 0.5), with any kind it holds that can be aimed
    so steeply. The two second-turn wins of the seed-8 2P board were such pushes; the uniform
    search meets one about once in 2,800 second turns, this aimed sample far more often, so it
    tells boards apart in minutes (docs/rules-notes.md)."""
    base = new_game(first, second)
    rng = random.Random(f"edge-{first}-{second}")
    slowest, top = top_speeds(base, (EDGE_SLOWEST, 1.0))
    wins = tried = 0
    sides: list[int] = []
    for s in sample_pushes(base, positions, random.Random(_stream(2, 0, first, second))):
        g = base.clone()
        if _push(g, s) is None or g.is_over:
            continue
        g.end_turn()
        if g.is_over:
            continue
        seat = g.current_seat
        w = g.world.piece(g.seats[0].piece_id)
        bearing = math.degrees(math.atan2(w.y, w.x))
        kinds = g.legal_kinds()
        for _ in range(aims):
            kind = rng.choice(kinds)
            lim = g.world.steepest_heading(kind)
            side = rng.choice((-1, 1))
            if lim < 35.0:
                continue
            entry = bearing + side * rng.uniform(50.0, 100.0)
            heading = side * rng.uniform(35.0, lim)
            try:
                o = g.preview_push(kind, entry, heading, rng.uniform(slowest, top))
            except IllegalMove:
                continue
            tried += 1
            if o.result is not None and o.result.winner == g.side_of(seat):
                wins += 1
                sides.append(side)
    return wins, tried, sides


#: Where the edge pushes start and how steeply they are aimed (see :func:`edge_pushes`).
EDGE_ROUND = (40.0, 100.0)   # degrees round the ring from the target wrestler's bearing
EDGE_STEEP = 35.0            # degrees off the inward normal at the least
#: The edge share's aim: within this many degrees of the steepest heading, a third of them at it.
EDGE_NEAR = 6.0
#: The edge share's slowest push, as a share of the hand's top speed (the fastest is all of it):
#: slower pushes along the edge stop in the crowd there (the found lines were 0.80-0.96 of it).
EDGE_SLOWEST = 0.7
#: The sweeps' speeds as shares of the hand's top speed (``simulation.max_speed``), so that a
#: design with another top speed is swept at its own: the edge grid's, the steepest ridge's and
#: :func:`near_wins`'s (at a 0.5 m/s hand: 0.4-0.5, 0.45-0.5 and 0.35-0.5 m/s).
GRID_SPEEDS = (0.8, 0.9, 1.0)
RIDGE_SPEEDS = (0.9, 1.0)
NEAR_SPEEDS = (0.7, 0.8, 0.9, 1.0)


def top_speeds(hand: Game | float, shares: tuple[float, ...]) -> tuple[float, ...]:
    """``shares`` of the hand's top speed (``hand``: a game, whose materials say it, or the speed
    in m/s), in m/s to the nanometre per second, so that shares of a 0.5 m/s hand are the round
    speeds the sweeps always used.

    >>> top_speeds(0.5, GRID_SPEEDS), top_speeds(0.7, RIDGE_SPEEDS)
    ((0.4, 0.45, 0.5), (0.63, 0.7))
    """
    top = hand.materials.sim.max_speed if isinstance(hand, Game) else hand
    return tuple(round(f * top, 9) for f in shares)


def _edge_aims(game: Game) -> list[tuple[float, str, float]]:
    """(bearing of an opposing wrestler, kind, steepest heading of that kind) for every opposing
    wrestler of the side to move and every kind it holds that can be aimed :data:`EDGE_STEEP` or
    more off the normal."""
    seat = game.current_seat
    mine = game.side_of(seat)
    bearings = []
    for s in game.seats:
        if game.side_of(s.index) != mine and s.piece_id in game.world:
            w = game.world.piece(s.piece_id)
            bearings.append(math.degrees(math.atan2(w.y, w.x)))
    return [(b, kind, lim) for b in bearings for kind in game.legal_kinds()
            if (lim := game.world.steepest_heading(kind)) >= EDGE_STEEP]


def edge_pushes(game: Game, n: int, rng: random.Random) -> list[PushSample]:
    """``n`` pushes along the ring's edge at an opposing wrestler, for the side to move now: the
    search's share of pushes that uniform headings almost never draw (docs/rules-notes.md: on the
    seed-28 2P board a medium at the steepest heading it can be aimed, from 56 degrees round the
    ring above a wrestler, came down the edge and knocked it out on turn 1). Each: a wrestler and
    a side (+1: entering counter-clockwise of it, -1: clockwise), a kind that can be aimed so
    steeply, entry 40-100 degrees round from the wrestler's bearing, heading towards it within
    :data:`EDGE_NEAR` degrees of the kind's steepest (a third exactly at it), speed from
    :data:`EDGE_SLOWEST` to the hand's limit. Empty if no kind held can be aimed so steeply."""
    aims = _edge_aims(game)
    if not aims:
        return []
    sim = game.materials.sim
    (slowest,) = top_speeds(game, (EDGE_SLOWEST,))
    out = []
    for _ in range(n):
        bearing, kind, lim = rng.choice(aims)
        side = rng.choice((-1, 1))
        entry = (bearing + side * rng.uniform(*EDGE_ROUND)) % 360.0
        heading = side * min(lim, rng.uniform(lim - EDGE_NEAR, lim + EDGE_NEAR / 2))
        out.append(PushSample(kind, entry, heading, rng.uniform(slowest, sim.max_speed)))
    return out


def edge_sweep(game: Game, kinds: tuple[str, ...] = ("small", "medium"), entries: int = 13,
               headings: int = 4, speeds: tuple[float, ...] | None = None,
               rounds: tuple[float, float] = EDGE_ROUND) -> tuple[list[PushSample], int]:
    """(the winning pushes, pushes tried) of a grid of plain pushes along the edge at each opposing
    wrestler of the side to move, on both sides of it: ``entries`` entries evenly 40-100 degrees
    round from its bearing, ``headings`` headings evenly from 35 degrees to the kind's steepest
    towards it, each of ``kinds`` it holds and each of ``speeds`` (m/s; default
    :data:`GRID_SPEEDS` of the hand's top speed): from the 2P starting board
    2 sides x 2 kinds x 13 x 4 x 3 = 624 pushes at the one opposing wrestler (entries every 5
    degrees: on the seed-28 board the turn-1 line wins from 54-63 degrees round, at the steepest
    heading only, so the notes' first grid of 10-degree steps met it once). Deterministic: it
    tells boards apart without a seed. ``rounds``: the entries' span (degrees round from the
    wrestler's bearing; :func:`robustness` starts it nearer)."""
    speeds = top_speeds(game, GRID_SPEEDS) if speeds is None else speeds

    def grid(bearing: float, kind: str, lim: float, side: int) -> Iterator[PushSample]:
        for i in range(entries):
            entry = bearing + side * (rounds[0] + (rounds[1] - rounds[0]) * i
                                      / max(1, entries - 1))
            for j in range(headings):
                heading = side * min(lim, EDGE_STEEP + (lim - EDGE_STEEP) * j / max(1, headings - 1))
                for v in speeds:
                    yield PushSample(kind, entry % 360.0, heading, v)

    return _sweep(game, kinds, grid)


def _sweep(game: Game, kinds: tuple[str, ...],
           pushes: Callable[[float, str, float, int], Iterable[PushSample]]
           ) -> tuple[list[PushSample], int]:
    """(the winning pushes, pushes tried) of the plain pushes ``pushes(bearing, kind, steepest,
    side)`` gives for each opposing wrestler's bearing, each of ``kinds`` the side to move holds
    that can be aimed along the edge (:func:`_edge_aims`) and each side of the wrestler (+1, -1),
    each made on a copy of ``game``."""
    held = set(game.legal_kinds())
    return _tally(game, (s for bearing, kind, lim in _edge_aims(game)
                         if kind in kinds and kind in held
                         for side in (1, -1) for s in pushes(bearing, kind, lim, side)))


def steepest_ridge(game: Game, kinds: tuple[str, ...] = ("small", "medium"), step: float = 0.5,
                   speeds: tuple[float, ...] | None = None,
                   rounds: tuple[float, float] = EDGE_ROUND) -> tuple[list[PushSample], int]:
    """(the winning pushes, pushes tried) of plain pushes at exactly the steepest heading each of
    ``kinds`` (held) can be aimed, along the edge at each opposing wrestler of the side to move
    from both sides, entering every ``step`` degrees 40-100 round from its bearing, at each of
    ``speeds`` (m/s; default :data:`RIDGE_SPEEDS` of the hand's top speed). The turn-1 lines of the edge are a ridge there (docs/rules-notes.md: on the seed-28
    2P board a medium won from 54-63 degrees round, and a degree off the steepest heading nothing
    won), finer in the entry than :func:`edge_sweep`'s grid: from the 2P starting board 2 sides x
    121 entries x 2 speeds = 484 pushes a kind. ``rounds``: the entries' span (as
    :func:`edge_sweep`'s)."""
    n = int(round((rounds[1] - rounds[0]) / step))
    at = top_speeds(game, RIDGE_SPEEDS) if speeds is None else speeds

    def ridge(bearing: float, kind: str, lim: float, side: int) -> Iterator[PushSample]:
        for i in range(n + 1):
            for v in at:
                yield PushSample(kind, (bearing + side * (rounds[0] + i * step)) % 360.0,
                                 side * lim, v)

    return _sweep(game, kinds, ridge)


#: :func:`robustness`: the entries' span (degrees round from the wrestler's bearing: the session-11
#: gus:mike line entered 36.6-38.6 round, nearer than the sweeps' 40), the grid's entries over it
#: (every 5 degrees) and the ridge's speeds.
ROBUST_ROUNDS = (20.0, 100.0)
ROBUST_ENTRIES = 17
ROBUST_RIDGE_SPEEDS = (0.8, 0.9, 1.0)  # shares of the hand's top speed
#: :func:`robustness`'s ordered pairs: each wrestler once first and once second (a cycle), with the
#: two lines earlier (Gus first, Mike second; Annie first, Gus second) among them.
ROBUST_PAIRS = (("annie", "gus"), ("gus", "mike"), ("mike", "jade"), ("jade", "dora"),
                ("dora", "bea"), ("bea", "hank"), ("hank", "rita"), ("rita", "annie"))
#: How far each piece of a jittered starting board is moved at most (metres).
JITTER = 0.0015


def jittered(game: Game, rng: random.Random, most: float = JITTER, tries: int = 50) -> Game:
    """A copy of ``game`` with every piece moved up to ``most`` (a uniform spot in that disc round
    where it stood, one piece after another, by :meth:`kabuto.Game.edit`; a spot that would overlap
    a piece is drawn again, up to ``tries`` times, then the piece stays, as does a piece that others
    are stacked on)."""
    g = game.clone()
    for p in sorted(g.world.pieces, key=lambda q: q.id):
        for _ in range(tries):
            a, r = rng.uniform(0.0, 2 * math.pi), most * math.sqrt(rng.random())
            try:
                g.edit(p.id, "board", p.x + r * math.cos(a), p.y + r * math.sin(a), p.angle, p.base)
            except ValueError:
                continue
            break
    return g


def robust_positions(players: int = 2, pairs: Iterable[tuple[str, str]] = ROBUST_PAIRS,
                     extra: int = 3, boards: int = 4) -> Iterator[tuple[str, Game]]:
    """The second player's positions :func:`robustness` sweeps, (label, position) each: (a) after
    the opening (:func:`opening`) of each ordered pair of ``pairs`` (:data:`ROBUST_PAIRS`: every
    wrestler once first, once second), (b) after each of the first player's seeded plain first
    pushes 1..``extra`` of the same sample instead (those the rules allow that leave the game
    going), (c) ``boards`` seeded jittered starting boards (:func:`jittered`, the pairs of ``pairs``
    in turn) with seat 1 to move."""
    pairs = list(pairs)
    for a, b in pairs:
        base = new_game(a, b, players)
        firsts = sample_pushes(base, max(OPENING_DRAWS, extra + 1),
                               random.Random(_stream(players, 0, a, b)))
        k, g = opening(base, firsts)
        if g is not None:
            yield f"{a}:{b} opening {k}", g
        for i in range(1, extra + 1):
            if i != k and (g := _after_plain(base, firsts[i])) is not None:
                yield f"{a}:{b} first {i}", g
    for j in range(boards):
        a, b = pairs[j % len(pairs)]
        start = Game.new(players=players, wrestlers=lineup(players, a, b), seed=0, first_player=1)
        yield f"jitter {j} {a}:{b}", jittered(start, random.Random(f"robust-jitter-{players}-{j}"))


def robustness(players: int = 2, extra: int = 3, boards: int = 4,
               pairs: Iterable[tuple[str, str]] = ROBUST_PAIRS,
               positions: Iterable[tuple[str, Game]] | None = None) -> dict[str, Any]:
    """Whether the board's edge holds after an opening (issue 16, point 3): the edge
    grid and the steepest ridge (:func:`edge_sweep`, :func:`steepest_ridge`, with the entries from
    :data:`ROBUST_ROUNDS` round and the ridge at :data:`ROBUST_RIDGE_SPEEDS`) for the side to move
    in each of :func:`robust_positions` (or ``positions``). The starting-board sweeps see one
    position; a board whose edge wins as soon as a far first push has moved a disc a millimetre
    is on a knife edge. ``{"positions", "tried", "wins", "by_position": {label: [grid wins, ridge
    wins, tried]}, "winning": [{"position", "sweep", push...}]}``."""
    def grid(g: Game) -> tuple[list[PushSample], int]:
        return edge_sweep(g, entries=ROBUST_ENTRIES, rounds=ROBUST_ROUNDS)

    def ridge(g: Game) -> tuple[list[PushSample], int]:
        return steepest_ridge(g, speeds=top_speeds(g, ROBUST_RIDGE_SPEEDS), rounds=ROBUST_ROUNDS)

    by: dict[str, list[int]] = {}
    winning: list[dict[str, Any]] = []
    tried = 0
    for label, g in (robust_positions(players, pairs, extra, boards) if positions is None
                     else positions):
        row = [0, 0, 0]
        for col, (name, sweep) in enumerate((("grid", grid), ("ridge", ridge))):
            wins, t = sweep(g)
            row[col] += len(wins)
            row[2] += t
            winning += [{"position": label, "sweep": name, **asdict(w)} for w in wins]
        tried += row[2]
        by[label] = row
    return {"positions": len(by), "tried": tried, "wins": len(winning), "by_position": by,
            "winning": winning}


def _steps(half: float, step: float) -> list[float]:
    """-half .. +half in ``step``s (0 included)."""
    n = int(round(half / step))
    return [k * step for k in range(-n, n + 1)]


#: players, first, second, seed, lo, hi, edge (edge pushes per 100 uniform ones: :func:`search_pair`)
#: and, as an eighth item, how the second player's positions are made (:data:`OPENING`, a later
#: opening :func:`opening_mode`, or :data:`AFTER_EACH`; a unit of seven items, as the search logged
#: them earlier, is :data:`AFTER_EACH`).
Task = tuple[Any, ...]

#: The second player's turn is searched after one *quiet opening* of the first player
#: (:func:`opening`: the slowest of its seeded pushes entering well between the wrestlers, made
#: plainly). A forced win on the second player's first turn is one the first player cannot avoid,
#: so one opening after which none of the second player's pushes (in every line) wins shows there
#: is none (docs/rules-notes.md, "Which second-turn wins count"). (Units logged as "opening", on
#: the first allowed push however hard, and "quiet-opening", entering far from the mover's own
#: wrestlers only, were searched by earlier drafts.)
OPENING = "quiet"
#: A reply that wins after the quiet opening shows only that this opening loses, not that every
#: opening does: the pair's replies are then searched again after the first player's next quiet
#: opening (the next slowest entering well between the wrestlers), up to this many openings in all.
#: The second turn holds no forced win for the pair once one opening has all its replies searched
#: and none wins; it looks forced only if every one of these openings loses. (Three until session
#: 20: on the 3P board a reply knocked out the third wrestler after each of Hercules Hank's first
#: three openings against Jewel Jade, 7 of 7,200 replies, and none of 2,800 after his fourth.)
OPENINGS = 5
#: The quiet opening enters at least this share of the way from any wrestler's bearing to the
#: middle of the gap between two wrestlers (2P: 60 degrees round from either wrestler, 3P 40, 4P
#: 30): a disc set down on the edge beside a wrestler, its own or an opponent's, is the next
#: push's ammunition.
QUIET_CLEAR = 2.0 / 3.0
#: The second player's push ``i`` is searched after the first player's plain push ``i``: every
#: position a first push can leave, one reply each. A win there may be the first player's blunder
#: (a disc of its own set down on the edge beside its wrestler); this finds how often a first push
#: hands the game over (``--blunders``), which a board should make rare.
AFTER_EACH = "after-each"
#: How many of the first player's seeded pushes the opening is looked for in.
OPENING_DRAWS = 50

#: The edge share of the search: edge pushes per 100 uniform pushes (``--edge-share``).
EDGE_SHARE = 20


def opening_mode(rank: int) -> str:
    """The unit mode (a task's eighth item) of the first player's quiet opening number ``rank``
    (0: the quiet opening itself, :data:`OPENING`; 1: the next, ``"quiet-2"`` ...)."""
    return OPENING if rank == 0 else f"{OPENING}-{rank + 1}"


def opening_rank(mode: str) -> int | None:
    """Which quiet opening a unit's ``mode`` searches after (0 for :data:`OPENING`), or None for a
    mode of no single opening (:data:`AFTER_EACH`).

    >>> [opening_rank(m) for m in ("quiet", "quiet-2", "quiet-3", "after-each", "quiet-x")]
    [0, 1, 2, None, None]
    """
    if mode == OPENING:
        return 0
    head, _, number = mode.rpartition("-")
    return int(number) - 1 if head == OPENING and number.isdigit() and int(number) >= 2 else None


def _stream(players: int, seed: int, first: str, second: str) -> str:
    # 2P keeps the stream names the first figures were measured with.
    return f"early-wins-{seed}-{first}-{second}" if players == 2 else \
        f"early-wins-{players}p-{seed}-{first}-{second}"


def search_pair(task: Task) -> PairResult:
    """Pushes ``lo..hi`` of the pair's seeded samples, for both seats (a worker's unit of work),
    and the edge share's pushes ``lo * edge // 100 .. hi * edge // 100`` (so a pair's ``n`` pushes
    come with ``n * edge // 100`` edge pushes, however the work is cut into units).

    Edge push ``j`` is drawn by :func:`edge_pushes` from its own stream on the position it is made
    in: on the starting board for the first player, and for the second player after the first
    player's plain push ``lo + (j - lo * edge // 100)`` of the unit (aimed at the first player's
    wrestler where that push left it). Each is searched in every line, as the uniform ones.

    A unit after a later quiet opening (:func:`opening_mode` 1, 2 ...) searches only the second
    player's replies: the first turn is the quiet opening's units' to search."""
    players, first, second, seed, lo, hi, edge = task[:7]
    mode = task[7] if len(task) > 7 else AFTER_EACH
    rank = opening_rank(mode)
    search = config().search
    base = new_game(first, second, players)
    stream = _stream(players, seed, first, second)
    n = hi
    # The draws are a prefix of one stream, so a unit's pushes are the same however many are
    # drawn; the opening is looked for among the first OPENING_DRAWS in every unit alike.
    firsts = sample_pushes(base, max(n, OPENING_DRAWS) if rank is not None else n,
                           random.Random(stream))
    res = PairResult(first, second, players)
    # The second player's position for each push i of the unit, and the first push before it.
    after: dict[int, tuple[PushSample, Game | None]] = {}
    first_starts = starts_of(base, search)
    if rank is not None:
        k, g = opening(base, firsts[:OPENING_DRAWS], rank)
        for i in range(lo, hi) if rank == 0 else ():
            res.count(1, winning_line(base, firsts[i], search, starts=first_starts))
        after = {i: (firsts[min(k, len(firsts) - 1)], g) for i in range(lo, hi)}
        if g is not None:  # every reply in the one position the opening leaves
            replies = sample_pushes(g, n, random.Random(stream + "-2"))
            reply_starts = starts_of(g, search)
            for i in range(lo, hi):
                res.count(2, winning_line(g, replies[i], search, starts=reply_starts),
                          first_push=firsts[k])
    else:
        seconds: list[PushSample] | None = None
        for i in range(lo, hi):
            made: list[Game] = []
            res.count(1, winning_line(base, firsts[i], search, plain=made, starts=first_starts))
            # The second player's first turn, after the first player's plain push i.
            g = _after_plain(base, firsts[i], made[0] if made else None)
            after[i] = (firsts[i], g)
            if g is None:
                continue
            if seconds is None:  # one stream for seat 1, drawn on the first position it meets
                seconds = sample_pushes(g, n, random.Random(stream + "-2"))
            res.count(2, winning_line(g, seconds[i], search), first_push=firsts[i])
    _search_edge(res, base, stream, lo, hi, edge, search, after, first_turn=not rank,
                 first_starts=first_starts)
    return res


def opening(base: Game, firsts: list[PushSample], rank: int = 0) -> tuple[int, Game | None]:
    """The first player's quiet opening (:data:`OPENING`): of its seeded pushes ``firsts`` (the
    first :data:`OPENING_DRAWS`), the slowest that enters well between the wrestlers (at least
    :data:`QUIET_CLEAR` of half the gap between neighbouring wrestlers round from every one; if
    none does, the slowest of all), the rules allow and leaves the game going (ties: the first).
    Its index in ``firsts`` and the second player's position after it; None if no push in
    ``firsts`` will do. ``rank`` 1, 2 ...: the next such push, and the next (:data:`OPENINGS`).

    A careful first player can always open so: a disc set down slowly far from every wrestler
    changes the board least and arms no one, and the second player's replies then meet the board
    it was dealt."""
    bearings = [math.degrees(math.atan2(p.y, p.x)) for p in (
        base.world.piece(s.piece_id) for s in base.seats if s.piece_id in base.world)]
    least = QUIET_CLEAR * 180.0 / max(1, len(bearings))

    def clear(s: PushSample) -> bool:
        return all(abs((s.entry_deg - b + 180.0) % 360.0 - 180.0) >= least for b in bearings)

    order = sorted(range(len(firsts)), key=lambda k: (not clear(firsts[k]), firsts[k].speed, k))
    for k in order:
        g = _after_plain(base, firsts[k])
        if g is not None:
            if rank == 0:
                return k, g
            rank -= 1
    return len(firsts), None


def _search_edge(res: PairResult, base: Game, stream: str, lo: int, hi: int, edge: int,
                 search: SearchSettings, after: dict[int, tuple[PushSample, Game | None]],
                 first_turn: bool = True, first_starts: Starts | None = None) -> None:
    """The edge share of a unit of work (see :func:`search_pair`), counted into ``res``; ``after``
    holds, for each push ``i`` of the unit, the first push and the second player's position the
    unit made (the searches only copy it; None where the game did not go on). ``first_turn``
    False: the second player's share only. ``first_starts``: :func:`starts_of` ``base``, if known."""
    j0 = lo * edge // 100
    starts: dict[int, Starts] = {}  # by position: after one opening, every reply shares one
    for j in range(j0, hi * edge // 100):
        for s in edge_pushes(base, 1, random.Random(f"{stream}-edge-{j}")) if first_turn else ():
            res.count(1, winning_line(base, s, search, starts=first_starts), edge=True)
        first, g = after[lo + j - j0]
        if g is None:
            continue
        if id(g) not in starts:
            starts[id(g)] = starts_of(g, search)
        for s in edge_pushes(g, 1, random.Random(f"{stream}-edge2-{j}")):
            res.count(2, winning_line(g, s, search, starts=starts[id(g)]), edge=True,
                      first_push=first)


def tasks(pairs: list[tuple[str, str]], pushes: int, seed: int, chunk: int,
          players: tuple[int, ...] = (2,), edge: int = EDGE_SHARE,
          second: str = OPENING) -> list[Task]:
    """The units of work, chunk by chunk across every board and pair (each board's pairs' first
    chunk, then their second ...), so a search stopped part way has covered every board and pair
    about equally."""
    return [(n, a, b, seed, lo, min(pushes, lo + chunk), edge, second)
            for lo in range(0, pushes, chunk) for n in players for a, b in pairs]


def _done(path: Path | None, todo: list[Task]) -> dict[Task, PairResult]:
    """Units of work already finished in the resume file: only those of this search, made by the
    code and data here for their game (:func:`unit_fingerprint`: the board's data, the cards of the
    unit's wrestlers, physics and rules, and the AI's move targets the search tries - not the AI's
    scoring, which it never asks), so a file committed while a long search grows over several
    runs never mixes in units searched on another board, and a change to one board or one
    wrestler leaves the other units standing."""
    out: dict[Task, PairResult] = {}
    if path is None:
        return out
    wanted = set(todo)

    def parse(d: dict[str, Any]) -> tuple[Task, PairResult, Any]:
        task = tuple(d["task"])
        if len(task) == 7:
            task = (*task, AFTER_EACH)  # logged before the opening search
        return task, PairResult(**d["result"]), d.get("code")

    try:
        for _, (task, res, code) in Ledger(path).entries(parse):
            if task in wanted and code == unit_fingerprint(task):
                out[task] = res
    except LedgerError as exc:
        raise LabError(f"--resume: {exc}") from None
    return out


def _work(task: Task) -> tuple[Task, PairResult]:
    return task, search_pair(task)


Key = tuple[int, str, str, int]  # players, first, second, opening rank (0 also for AFTER_EACH)


def _key(task: Task) -> Key:
    return (task[0], task[1], task[2], opening_rank(task[7]) or 0)


def _second_turn(units_of: dict[Key, list[Task]], results: dict[Key, PairResult], have: set[Task],
                 n: int, a: str, b: str, openings: int = OPENINGS) -> dict[str, Any] | None:
    """For a pair whose second player won after the quiet opening: each opening searched (units
    done of all, replies tried, wins) and the verdict: ``"avoided by opening k"`` (all of opening
    k's replies searched, none wins: no forced win), ``"every opening loses"`` (a reply wins after
    each of the first ``openings``), else ``"searching"``. None if no reply won after the quiet
    opening (or the search has no openings)."""
    if (n, a, b, 0) not in results or not results[(n, a, b, 0)].wins_second:
        return None
    rows, verdict = [], "searching"
    for r in range(openings):
        units = units_of.get((n, a, b, r))
        if not units:
            break
        res, done = results[(n, a, b, r)], sum(u in have for u in units)
        rows.append({"opening": r + 1, "units_done": done, "units": len(units),
                     "tried": res.tried_second, "wins": res.wins_second})
        if not res.wins_second:
            if done == len(units):
                verdict = f"avoided by opening {r + 1}"
            break
    else:
        verdict = "every opening loses"
    return {"openings": rows, "verdict": verdict}


def _finish(left: deque[Task], workers: int, handle: Callable[[Task, PairResult], None]) -> None:
    """Search the units in ``left`` in order, in this process (``workers`` 1) or over a pool of
    ``workers`` processes (a few units ahead each), calling ``handle`` with each as it finishes;
    ``handle`` may put more units at the front of ``left``."""
    if workers <= 1:
        while left:
            handle(*_work(left.popleft()))
        return
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(workers, mp_context=processes.context(preload=("kabuto.lab.early_wins",)),
                               initializer=ignore_sigint)
    try:
        running: set[Any] = set()
        while left or running:
            while left and len(running) < 2 * workers:
                running.add(pool.submit(_work, left.popleft()))
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for f in finished:
                handle(*f.result())
    except BaseException:
        # Ctrl-C or SIGTERM: units in flight are dropped (a unit is written only when it is
        # finished), so stop the workers now instead of waiting for them.
        for proc in list(pool._processes.values()):
            proc.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()


def run(pairs: list[tuple[str, str]], pushes: int, seed: int, workers: int = 1, chunk: int = 25,
        progress: bool = False, players: tuple[int, ...] = (2,),
        resume: Path | None = None, edge: int = EDGE_SHARE, so_far: bool = False,
        second: str = OPENING, openings: int = OPENINGS) -> dict[str, Any]:
    """The whole search; the JSON summary as a dict. ``workers`` 1 runs in this process; ``edge``
    edge pushes per 100 uniform ones (0: the uniform search alone); ``so_far``: search nothing, sum
    up the units the ``resume`` file already holds; ``second``: how the second player's positions
    are made (:data:`OPENING`, :data:`AFTER_EACH`).

    With :data:`OPENING`, a unit in which a reply wins puts the pair's units after the first
    player's next quiet opening (up to ``openings`` in all) at the front of the work left, so the
    search settles whether that second-turn win can be avoided before it goes on."""
    todo = tasks(pairs, pushes, seed, chunk, players, edge, second)
    units_of: dict[Key, list[Task]] = {}
    for t in todo:
        for rank in range(openings if second == OPENING else 1):
            units_of.setdefault((t[0], t[1], t[2], rank), []).append(
                t if rank == 0 else (*t[:7], opening_mode(rank)))
    done = _done(resume, [u for units in units_of.values() for u in units])
    results = {key: PairResult(key[1], key[2], key[0]) for key in units_of}
    for task, found in done.items():
        results[_key(task)].add(found)
    left: deque[Task] = deque() if so_far else deque(t for t in todo if t not in done)
    queued = set(left)
    have = set(done)
    t0 = time.perf_counter()
    bar = None
    if progress and left:
        from tqdm import tqdm
        bar = tqdm(total=sum(t[5] - t[4] for t in left), unit="push", file=sys.stderr)

    def next_opening(key: Key) -> None:
        """A reply won after opening ``key[3]``: the pair's next opening's units go first."""
        n, a, b, r = key
        fresh = [u for u in units_of.get((n, a, b, r + 1), []) if u not in have and u not in queued]
        left.extendleft(reversed(fresh))
        queued.update(fresh)
        if bar and fresh:
            bar.total += sum(t[5] - t[4] for t in fresh)
            bar.refresh()

    book = Ledger(resume) if resume and left else None

    def handle(task: Task, r: PairResult) -> None:
        have.add(task)
        results[_key(task)].add(r)
        if book:
            book.append({"task": list(task), "code": unit_fingerprint(task), "result": asdict(r)})
        if bar:
            bar.update(task[5] - task[4])  # the edge share rides along uncounted
        if r.wins_second and second == OPENING:
            next_opening(_key(task))

    try:
        if not so_far:
            for key, found in list(results.items()):
                if found.wins_second:
                    next_opening(key)
        _finish(left, min(workers, len(left)), handle)
    finally:
        if bar:
            bar.close()
    boards: dict[str, Any] = {}
    for n in players:
        rs = [r for key, r in results.items() if key[0] == n and key[3] == 0]
        units = [t for t in todo if t[0] == n]
        seconds = {f"{a}:{b}": v for (m, a, b, rank) in results if m == n and rank == 0
                   if (v := _second_turn(units_of, results, have, n, a, b, openings)) is not None}
        verdicts = [v["verdict"] for v in seconds.values()]
        boards[f"{n}P"] = {
            "pairs": len(rs),
            "units_done": sum(1 for t in units if t in have),
            "units": len(units),
            "tried_first": sum(r.tried_first for r in rs),
            "wins_first": sum(r.wins_first for r in rs),
            "tried_second": sum(r.tried_second for r in rs),
            "wins_second": sum(r.wins_second for r in rs),
            "edge_tried_first": sum(r.edge_tried_first for r in rs),
            "edge_wins_first": sum(r.edge_wins_first for r in rs),
            "edge_tried_second": sum(r.edge_tried_second for r in rs),
            "edge_wins_second": sum(r.edge_wins_second for r in rs),
            "pairs_with_wins": sorted(f"{r.first}:{r.second}" for r in rs if r.wins_first or r.wins_second),
            "second_turn_openings": seconds,
            "second_avoided": sum(v.startswith("avoided") for v in verdicts),
            "second_unavoided": verdicts.count("every opening loses"),
            "second_searching": verdicts.count("searching"),
            # Pairs the search has not cleared: a turn-1 win, or a second-turn win no opening avoids.
            "pairs_not_cleared": sorted(
                f"{r.first}:{r.second}" for r in rs if r.wins_first or not seconds.get(
                    f"{r.first}:{r.second}", {"verdict": "avoided"})["verdict"].startswith("avoided")),
        }
    rows = [{"opening": key[3] + 1, **asdict(r)} for key, r in results.items()
            if key[3] == 0 or any(u in have for u in units_of[key])]
    return {
        "seed": seed, "pushes_per_pair": pushes, "edge_share": edge, "pairs": len(pairs),
        "second_turn": second, "openings": openings,
        "board": ", ".join(f"{n}P standard" for n in players),
        "tried_first": sum(b["tried_first"] for b in boards.values()),
        "wins_first": sum(b["wins_first"] for b in boards.values()),
        "tried_second": sum(b["tried_second"] for b in boards.values()),
        "wins_second": sum(b["wins_second"] for b in boards.values()),
        "edge_wins_first": sum(b["edge_wins_first"] for b in boards.values()),
        "edge_wins_second": sum(b["edge_wins_second"] for b in boards.values()),
        "second_unavoided": sum(b["second_unavoided"] for b in boards.values()),
        "pairs_with_wins": sorted(f"{k}:{p}" for k, b in boards.items() for p in b["pairs_with_wins"]),
        "pairs_not_cleared": sorted(f"{k}:{p}" for k, b in boards.items() for p in b["pairs_not_cleared"]),
        "boards": boards,
        "seconds": round(time.perf_counter() - t0, 1),
        "resumed_units": len(done),
        "results": rows,
    }


def report_md(summary: dict[str, Any]) -> str:
    """The summary of :func:`run` as a short Markdown page (``--write``): each board's units done,
    pushes searched and wins, each second-turn win's openings and verdict, and the pairs not
    cleared; marked partial while units are left."""
    boards = summary["boards"]
    partial = any(b["units_done"] < b["units"] for b in boards.values())
    out = ["# No early forced win: the full search" + (" (partial)" if partial else ""), "",
           f"Issue 16, point 3. `python tools/early_wins.py --players all --resume "
           f"results/early-wins.jsonl` (seed {summary['seed']}, {summary['pushes_per_pair']:,} first "
           f"pushes per ordered pair, edge share {summary['edge_share']} per 100); this page: the "
           f"same with `--so-far --write results/early-wins.md`. A second-turn win after the quiet "
           f"opening is searched again after the first player's next quiet openings (up to "
           f"{summary['openings']}); the pair is cleared once one leaves no winning reply "
           f"(docs/rules-notes.md, \"A win after one opening is not yet forced\").", "",
           "| Board | Units done | First pushes | Turn-1 wins | Replies | Second-turn wins "
           "(quiet opening) | Avoided by a later opening | Not cleared |",
           "|---|---|---|---|---|---|---|---|"]
    for name, b in boards.items():
        out.append(f"| {name} | {b['units_done']:,} of {b['units']:,} | {b['tried_first']:,} | "
                   f"{b['wins_first']} | {b['tried_second']:,} | {b['wins_second']} | "
                   f"{b['second_avoided']} | {len(b['pairs_not_cleared'])} |")
    for name, b in boards.items():
        for pair, v in b["second_turn_openings"].items():
            tried = "; ".join(f"opening {o['opening']}: {o['wins']} of {o['tried']:,} replies win "
                              f"({o['units_done']} of {o['units']} units)" for o in v["openings"])
            out.append(f"\n- {name} {pair.replace(':', ' then ')}: {tried}. **{v['verdict']}**.")
    cleared = "none" if not summary["pairs_not_cleared"] else ", ".join(summary["pairs_not_cleared"])
    out += ["", f"Pairs not cleared: {cleared}." + (" The search goes on." if partial else ""), ""]
    return "\n".join(out)


def sweep_boards(players: tuple[int, ...], ridge: bool = True, materials: Materials | None = None,
                 wrestlers: Callable[[int], list[str]] | None = None) -> dict[str, Any]:
    """:func:`edge_sweep` (and with ``ridge`` :func:`steepest_ridge`) from each board's start, the
    first seat of each side moving first (``wrestlers(players)`` in the seats; by default Jade,
    Dora, then the wrestlers after in card order: plain pushes, so which wrestlers hardly matters;
    4P team-mates aim the same pushes at the same wrestlers, so one seat a team). ``materials``
    (default: the assets') lets ``tools/lever_sweeps.py`` sweep a lever at its own hand's limit:
    the sweeps push at shares of it."""
    sweeps: list[tuple[str, Callable[[Game], tuple[list[PushSample], int]]]] = [("grid", edge_sweep)]
    if ridge:
        sweeps.append(("ridge", steepest_ridge))
    out: dict[str, Any] = {}
    for n in players:
        board: dict[str, Any] = {}
        cards = wrestlers(n) if wrestlers is not None else lineup(n, "jade", "dora")

        def start(seat: int, n: int = n, cards: list[str] = cards) -> Game:
            return Game.new(players=n, wrestlers=cards, seed=0, first_player=seat,
                            materials=materials)

        sides = start(0).sides
        for name, sweep in sweeps:
            found: list[dict[str, Any]] = []
            tried = 0
            for seat in (side[0] for side in sides):
                g = start(seat)
                wins, t = sweep(g)
                tried += t
                found += [{"seat": seat, **asdict(w)} for w in wins]
            board[name] = {"tried": tried, "wins": len(found), "winning": found}
        out[f"{n}P"] = board
    return out


def all_pairs() -> list[tuple[str, str]]:
    keys = [w.key for w in load_wrestlers()]
    return list(itertools.permutations(keys, 2))
