"""Scoring candidate pushes, in this process or over a pool of worker processes.

The search hands :func:`evaluate` a *base* game (as the JSON text of :meth:`kabuto.Game.to_json`:
never a pickled pymunk Space), the signature-move openings ("prefixes") it wants tried, and a list of
candidate pushes, each tagged with its prefix. The list is cut into contiguous chunks; each chunk is
scored by :func:`score_chunk` - in this process with one worker, or in a worker process - and the
results come back in candidate order. A push's outcome depends only on the at-rest state and the
push (physics determinism), so the scores, and therefore the AI's choice, are the same whatever the
number of workers.

A preview may be a *sketch* (:class:`Sketch`): the same push simulated with a coarser time step
and a looser test of rest, about half the work, for the AI's broad look (its sampling, refinement,
wobble re-scoring and the opponent's replies). A sketch foresees the same falls in about 98 pushes of
100 and leaves the pieces within a few millimetres of where the exact simulation leaves them; the
pushes the AI may play are scored again exactly (``Sketch`` None), so the prediction it plays on is
the push's own. The push a game plays is never a sketch.

Worker processes start with the ``forkserver`` method (never ``fork``: the desktop app has GL and
other threads that a fork would copy half-way) and live for the whole program, so the start-up
cost (about half a second) is paid once, not per decision. :func:`shutdown` stops them.
"""
from __future__ import annotations

import atexit
import hashlib
import json
import os
import threading
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from kabuto_base import processes
from physics.state import Push, PushResult
from physics.world import World

if TYPE_CHECKING:
    from kabuto.ai.levels import Level, SearchSettings

#: One candidate push: (prefix index, kind, entry_deg, heading_deg, speed, spin_deg).
Candidate = tuple[int, str, float, float, float, float]
#: A signature-move opening: ((move name, {targets}), ...).
Prefix = tuple[tuple[str, dict[str, Any]], ...]


@dataclass(frozen=True)
class Scored:
    """What one candidate did: its score, the pieces it knocked out, the side that won (if any),
    and the wrestler pieces it left in the centre circle."""

    score: float
    knocked_out: tuple[str, ...]
    winner: int | None
    in_circle: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sketch:
    """A coarser simulation for previews only: ``steps_per_second`` instead of the materials' own
    (the rest test's count of quiet steps scaled to the same time), and overlaps up to
    ``rest_overlap`` metres accepted at rest, where the exact test waits for 0.1 mm - Chipmunk
    closes the last tenths of a millimetre slowly, over a fifth of an exact push's steps while every
    fall is long decided (issue 16 point 6; ``assets/ai.toml``, ``sketch_rate``)."""

    steps_per_second: int
    rest_overlap: float
    #: Stop once no piece can fall any more nor move farther than this (m): World.preview's
    #: ``settle_within``.
    settle_within: float = 0.0

    @classmethod
    def of(cls, level: Level, search: SearchSettings) -> Sketch | None:
        """The sketch ``level`` previews with (its ``sketch_rate``, the search's sketch
        tolerances in mm), or None when its previews are all exact."""
        if not level.sketch_rate:
            return None
        return cls(level.sketch_rate, search.sketch_rest_overlap_mm / 1000.0,
                   search.sketch_settle_mm / 1000.0)

    def materials(self, m: Any) -> Any:
        """``m`` (a :class:`physics.Materials`) with this sketch's simulation settings."""
        sim = m.sim
        rest_steps = max(2, round(sim.rest_steps * self.steps_per_second / sim.steps_per_second))
        return replace(m, sim=replace(sim, steps_per_second=self.steps_per_second, rest_steps=rest_steps,
                                      rest_overlap=max(sim.rest_overlap, self.rest_overlap)))


@dataclass(frozen=True)
class Base:
    """A position to search from, as JSON text, with a key that names it in the workers' caches."""

    key: str
    text: str

    @classmethod
    def of(cls, game: Any) -> Base:
        text = json.dumps(game.to_json(), sort_keys=True, separators=(",", ":"))
        return cls(hashlib.sha256(text.encode()).hexdigest(), text)


# ----- the worker side ------------------------------------------------------------------------------
_CACHE: OrderedDict[tuple[str, str, Sketch | None], Any] = OrderedDict()
_CACHE_SIZE = 24


def _game_after(base: Base, prefix: Prefix, sketch: Sketch | None = None) -> Any:
    """The base game with ``prefix`` applied (cached per process); None if the prefix is refused.
    With ``sketch``, a copy whose previews are sketched (its world has the sketch's materials)."""
    from kabuto.rules.errors import IllegalMove
    from kabuto.rules.game import Game

    pkey = json.dumps(prefix, sort_keys=True)
    key = (base.key, pkey, sketch)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    if sketch is not None:
        exact = _game_after(base, prefix)
        game = None
        if exact is not None:
            world = _SketchWorld(sketch.materials(exact.world.materials), exact.world.pieces)
            world.settle_within = sketch.settle_within or None
            game = exact.clone(world)
        _remember(key, game)
        return game
    root_key = (base.key, "[]", None)
    if root_key in _CACHE:
        root = _CACHE[root_key]
    else:
        root = Game.from_json(json.loads(base.text))
        _remember(root_key, root)
    game = root
    if prefix:
        game = root.clone()
        try:
            for name, targets in prefix:
                game.use_move(game.current_seat, name, **targets)
        except IllegalMove:
            game = None
    _remember(key, game)
    return game


class _SketchWorld(World):
    """A world whose previews stop once settled (a sketch's ``settle_within``); only ever
    previewed on, never pushed (a game's pushes are exact)."""

    settle_within: float | None = None

    def preview(self, push: Push, settle_within: float | None = None) -> PushResult:
        return super().preview(push, self.settle_within if settle_within is None else settle_within)


def _remember(key: tuple[str, str, Sketch | None], value: Any) -> None:
    _CACHE[key] = value
    _CACHE.move_to_end(key)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)


def score_chunk(base: Base, prefixes: list[Prefix], chunk: list[Candidate],
                view: int | None = None, sketch: Sketch | None = None) -> list[Scored | None]:
    """Preview and score each candidate of ``chunk`` (None for a push the rules refuse, e.g. a
    platform spot blocked by a piece hanging over the edge), for the pushing seat's side or, with
    ``view``, for that seat's side (the look-ahead scores the opponent's replies for itself);
    ``sketch``: preview coarsely (:class:`Sketch`), else exactly."""
    from kabuto.ai.scoring import score_push
    from kabuto.rules.errors import IllegalMove

    out: list[Scored | None] = []
    for pi, kind, entry, heading, speed, spin in chunk:
        game = _game_after(base, prefixes[pi], sketch)
        if game is None or game.is_over:
            out.append(None)
            continue
        try:
            o = game.preview_push(kind, entry, heading, speed, spin)
        except IllegalMove:
            out.append(None)
            continue
        out.append(Scored(score_push(game, o, seat=view), tuple(k.piece for k in o.knocked_out),
                          o.winner, gripped(game, o)))
    return out


def gripped(game: Any, outcome: Any) -> tuple[str, ...]:
    """Wrestler pieces left inside (or touching) the centre circle after a previewed push: a Vice
    Grip after that push would take them (the look-ahead needs it; the previews return no game)."""
    from kabuto.ai.scoring import positions_of
    from physics.shapes import extent_from_origin

    r = game.materials.ring.centre_radius
    kinds = game.materials.kinds
    pos = positions_of(outcome.physics.snapshot)
    out = []
    for s in game.seats:
        p = pos.get(s.piece_id)
        if p is not None and extent_from_origin(kinds[p[0]].shape, p[1], p[2], p[3])[0] <= r:
            out.append(s.piece_id)
    return tuple(out)


def _score_task(task: tuple[Base, list[Prefix], list[Candidate], int | None, Sketch | None]
                ) -> list[Scored | None]:
    return score_chunk(*task)


# ----- the caller side ------------------------------------------------------------------------------
_POOLS: dict[int, ProcessPoolExecutor] = {}
_LOCK = threading.Lock()


def default_workers() -> int:
    """Worker processes used when the caller does not say: one per core."""
    return max(1, os.cpu_count() or 1)


def _pool(workers: int) -> ProcessPoolExecutor:
    with _LOCK:
        pool = _POOLS.get(workers)
        if pool is None:
            # Workers forked from a server that has already imported the rules and physics.
            ctx = processes.context(preload=("kabuto.ai.pool", "kabuto.rules.game", "kabuto.ai.scoring"))
            pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init,
                                       initargs=(os.getpid(),))
            _POOLS[workers] = pool
        return pool


def executor(workers: int | None = None) -> ProcessPoolExecutor:
    """The shared pool of ``workers`` processes (default one per core), started on first use, for
    other work that simulates pushes (the server's games and bots): the same start method and the
    same processes as the AI's previews."""
    return _pool(workers or default_workers())


def discard(pool: ProcessPoolExecutor) -> None:
    """Forget ``pool`` after a worker died (BrokenProcessPool): the next call starts a new one."""
    with _LOCK:
        for n, p in list(_POOLS.items()):
            if p is pool:
                del _POOLS[n]


#: How much lower a worker's scheduling priority is than its owner's (``nice``): the owner - the
#: app's window, the server's event loop - answers people, and the workers' simulations can wait a
#: few milliseconds for a core it needs.
WORKER_NICENESS = 5


def _worker_init(owner: int) -> None:
    """In a new worker: lower its priority (:data:`WORKER_NICENESS`) and watch its owner."""
    if hasattr(os, "nice"):
        try:
            os.nice(WORKER_NICENESS)
        except OSError:
            pass
    _watch_owner(owner)


def _watch_owner(owner: int) -> None:
    """In a worker: exit once the process that made the pool is gone. A pool's workers hold its
    task queue's writing end themselves, so a program killed outright (kill -9) would otherwise
    leave them - and the forkserver, and whatever pipes they inherited - waiting for ever."""
    import time

    def gone() -> bool:
        try:
            os.kill(owner, 0)
        except (ProcessLookupError, PermissionError):  # PermissionError: the number is reused
            return True
        try:  # a killed process is a zombie until its parent reaps it: gone all the same
            with open(f"/proc/{owner}/stat", "rb") as fh:
                return fh.read().rsplit(b")", 1)[1].split()[0] == b"Z"
        except (OSError, IndexError):
            return False

    def watch() -> None:
        while not gone():
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="owner-watch", daemon=True).start()


def warm_up(workers: int) -> None:
    """Start the worker processes now (the first decision would otherwise pay for it)."""
    if workers > 1:
        pool = _pool(workers)
        futures = [pool.submit(_noop) for _ in range(workers * 2)]
        for f in futures:
            f.result()


def _noop() -> int:
    return os.getpid()


def shutdown() -> None:
    """Stop every worker pool (they restart on demand)."""
    with _LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for p in pools:
        p.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown)


def evaluate(base: Base, prefixes: list[Prefix], candidates: list[Candidate],
             workers: int = 1, view: int | None = None, sketch: Sketch | None = None
             ) -> list[Scored | None]:
    """Scores of ``candidates`` in their order, using ``workers`` processes (1: this process);
    ``view``: score for that seat's side instead of the pusher's; ``sketch``: coarse previews
    (:func:`score_chunk`)."""
    if not candidates:
        return []
    if workers <= 1:
        return score_chunk(base, prefixes, candidates, view, sketch)
    # Small chunks balance the load (a slow push can take three times a fast one); how the list is
    # cut changes nothing in the results, which are joined back in candidate order.
    size = max(1, -(-len(candidates) // (workers * 4)))
    chunks = [candidates[i:i + size] for i in range(0, len(candidates), size)]
    pool = _pool(workers)
    results: list[Scored | None] = []
    try:
        for part in pool.map(_score_task, [(base, prefixes, c, view, sketch) for c in chunks]):
            results.extend(part)
    except BrokenProcessPool:
        # A worker died (killed, out of memory). Forget the pool (the next call starts a new one)
        # and score here: the results are the same wherever they are computed.
        with _LOCK:
            if _POOLS.get(workers) is pool:
                del _POOLS[workers]
        return score_chunk(base, prefixes, candidates, view, sketch)
    return results
