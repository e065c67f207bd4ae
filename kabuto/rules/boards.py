"""Starting boards, inventories and the supply, from ``assets/setups.toml``.

:func:`starting_board` is the one builder of the starting board: the game, the physics sandbox, the
tuning scenarios and the tests all put their first pieces on the ring with it, so every board uses
the one piece-id scheme of :mod:`kabuto.rules.inventory` (standard discs ``L1``, ``M01``, ``S01``
...; wrestler pieces ``<key>:wrestler``, or ``seat<N>:wrestler`` for a stand-in):

    >>> board = starting_board(2, stand_in_wrestlers(2, "large"))
    >>> [p.id for p in board if p.kind == "large"]
    ['L1', 'L2', 'L3', 'seat0:wrestler', 'seat1:wrestler']
    >>> len(starting_board(2))          # 3 large, 8 medium, 14 small; the wrestler spots empty
    25

The rulebook's Setup section, step by step, is :func:`starting_layout`:

1. the ring is the :class:`physics.World`;
2. each seat has a wrestler card; its signature pieces go to the general supply;
3. wrestler pieces and the standard discs go on the spots of the Wrestler Count Diagram
   (``[boards.N]``: ``wrestler`` lists one spot per seat, facing the centre or turned from it by
   ``wrestler_turn``), and where the board says so (``gather``) the players push the crowd
   together from the rim: :func:`set_up`, which needs the physics and so follows
   :func:`starting_layout` in :meth:`kabuto.Game.from_setup`;
4. the remaining discs are the general supply;
5. each seat (4 players: each team) gets its inventory (``[inventory.N]``), or, in the Junior League,
   the pieces on its Junior League card;
6. the first player is chosen by the caller (at random from the seed by default).

Standard discs are handed out in id order: the board takes the first ids of each kind in the order of
the board's spots, then the inventories in turn order, and the rest are the supply.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kabuto_assets
from kabuto.rules.inventory import (
    BOARD,
    STANDARD_KINDS,
    SUPPLY,
    seat_place,
    standard_ids,
    team_place,
    wrestler_id,
)
from kabuto.rules.junior import JuniorCard
from kabuto.rules.wrestlers import Wrestler
from kabuto_base.fileio import read_toml
from kabuto_base.numbers import is_finite_number
from physics import PieceState, World

Point = tuple[float, float]
#: "a team cannot start with more than three small discs" (Junior League rule 1).
JUNIOR_TEAM_SMALL_LIMIT = 3


@dataclass(frozen=True)
class Gather:
    """Setting the ring up, the players push the crowd together from the rim (``gather`` in a
    ``[boards.N]`` table; docs/rules-notes.md, "The 4P board: teammates opposite, the crowd pushed
    together"): every
    standard disc standing ``start`` metres or more from the centre is drawn towards it at ``pull``
    (m/s^2) for ``seconds``, gliding on the ring as under a hand and rubbing on its neighbours,
    while the wrestlers stand on the ring as in play. See :func:`gathered`."""

    pull: float
    seconds: float
    start: float


@dataclass(frozen=True)
class Board:
    """One player count's starting board: a spot per seat's wrestler, and the discs' spots."""

    players: int
    wrestlers: tuple[Point, ...]
    discs: dict[str, tuple[Point, ...]]
    #: How much farther out (metres) the wrestler of the seat that moves second stands than its
    #: seat's spot (two players): the second player answers the first push, and without it wins
    #: more (docs/rules-notes.md, design round 3).
    second_outset: float = 0.0
    #: How the players push the crowd together once the pieces are on their spots (None: not).
    gather: Gather | None = None
    #: How far (degrees, anticlockwise) each wrestler stands turned from facing the centre: on the
    #: 3-player board a quarter turn, so its narrow side, not its horn, faces the centre disc and it
    #: stands nearer the middle (docs/rules-notes.md, "The 3P wrestlers stand in a pinwheel").
    wrestler_turn: float = 0.0

    def count(self, kind: str) -> int:
        return len(self.discs.get(kind, ()))

    def wrestler_spots(self, first_player: int | None = None) -> tuple[Point, ...]:
        """Each seat's wrestler spot when ``first_player`` moves first (None: the seats' spots)."""
        if first_player is None or not self.second_outset or self.players != 2:
            return self.wrestlers
        spots = list(self.wrestlers)
        second = 1 - first_player
        x, y = spots[second]
        scale = (math.hypot(x, y) + self.second_outset) / math.hypot(x, y)
        spots[second] = (x * scale, y * scale)
        return tuple(spots)


@dataclass(frozen=True)
class Setups:
    """Everything in setups.toml: the box's standard discs, boards and starting inventories."""

    supply: dict[str, int]
    boards: dict[int, Board]
    #: Per player count, the starting inventories: per seat in turn order (2P, 3P: the first
    #: player's, then the next ...), or per team (4P: team 0, team 1).
    inventories: dict[int, tuple[dict[str, int], ...]]


def _points(v: Any, where: str) -> tuple[Point, ...]:
    if not isinstance(v, list):
        raise ValueError(f"{where}: expected a list of [x, y]")
    out = []
    for i, p in enumerate(v):
        if not isinstance(p, list) or len(p) != 2 or not all(is_finite_number(c) for c in p):
            raise ValueError(f"{where}[{i}]: expected [x, y] in metres")
        out.append((float(p[0]), float(p[1])))
    return tuple(out)


#: Each key of a ``gather`` table and its largest value (every value must be above zero).
_GATHER_KEYS = {"pull": 2.0, "seconds": 2.0, "from": 0.2}


def _gather(v: Any, where: str) -> Gather:
    if not isinstance(v, dict) or set(v) != set(_GATHER_KEYS):
        raise ValueError(f"{where}: expected {{ pull = m/s^2, seconds = s, from = metres }}")
    for key, most in _GATHER_KEYS.items():
        if not is_finite_number(v[key]) or not 0.0 < v[key] <= most:
            raise ValueError(f"{where}.{key}: expected more than 0 and at most {most:g}, got {v[key]!r}")
    return Gather(float(v["pull"]), float(v["seconds"]), float(v["from"]))


def _counts(v: Any, where: str) -> dict[str, int]:
    if not isinstance(v, dict):
        raise ValueError(f"{where}: expected a table of disc counts")
    out = {}
    for k, n in v.items():
        if k not in STANDARD_KINDS:
            raise ValueError(f"{where}.{k}: not a standard disc kind (small, medium, large)")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError(f"{where}.{k}: expected a count, got {n!r}")
        out[k] = n
    return out


@functools.lru_cache(maxsize=8)
def _load(path: Path) -> Setups:
    data = read_toml(path)
    name = path.name
    supply = _counts(data.get("supply"), f"{name}: supply")
    boards: dict[int, Board] = {}
    inventories: dict[int, tuple[dict[str, int], ...]] = {}
    for players in (2, 3, 4):
        b = data.get("boards", {}).get(str(players))
        if not isinstance(b, dict):
            raise ValueError(f"{name}: boards.{players}: missing")
        where = f"{name}: boards.{players}"
        wrestlers = _points(b.get("wrestler"), f"{where}.wrestler")
        if len(wrestlers) != players:
            raise ValueError(f"{where}.wrestler: expected {players} spots, got {len(wrestlers)}")
        discs = {k: _points(b.get(k, []), f"{where}.{k}") for k in STANDARD_KINDS}
        for k, pts in discs.items():
            if len(pts) > supply.get(k, 0):
                raise ValueError(f"{where}.{k}: {len(pts)} spots but only {supply.get(k, 0)} in the box")
        outset = b.get("second_outset", 0.0)
        if players != 2 and "second_outset" in b:
            raise ValueError(f"{where}.second_outset: only the two-player board has one")
        if not is_finite_number(outset) or not 0.0 <= outset <= 0.02:
            raise ValueError(f"{where}.second_outset: expected 0 to 0.02 metres, got {outset!r}")
        gather = _gather(b["gather"], f"{where}.gather") if "gather" in b else None
        turn = b.get("wrestler_turn", 0.0)
        if not is_finite_number(turn) or not -180.0 <= turn <= 180.0:
            raise ValueError(f"{where}.wrestler_turn: expected -180 to 180 degrees, got {turn!r}")
        boards[players] = Board(players, wrestlers, discs, float(outset), gather, float(turn))
        inv = data.get("inventory", {}).get(str(players))
        key, n = ("teams", 2) if players == 4 else ("seats", players)
        if not isinstance(inv, dict) or not isinstance(inv.get(key), list) or len(inv[key]) != n:
            raise ValueError(f"{name}: inventory.{players}.{key}: expected a list of {n} tables")
        inventories[players] = tuple(_counts(c, f"{name}: inventory.{players}.{key}[{i}]")
                                     for i, c in enumerate(inv[key]))
    return Setups(supply, boards, inventories)


def load_setups(path: str | Path | None = None) -> Setups:
    """``assets/setups.toml`` (or ``path``), validated (cached)."""
    return _load(Path(path) if path else kabuto_assets.path("setups.toml"))


def sides_of(players: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each side: one seat per side in 2P and 3P, two teams of two in 4P.

    4 players: team 0 is seats 0 and 2, team 1 seats 1 and 3, so turns going round the seats
    0, 1, 2, 3 alternate teams, and within a team the teammates alternate.
    """
    if players == 4:
        return ((0, 2), (1, 3))
    return tuple((s,) for s in range(players))


def inventory_place(players: int, side: int) -> str:
    return team_place(side) if players == 4 else seat_place(side)


def stand_in_wrestlers(players: int, kind: str) -> list[tuple[str, str]]:
    """One stand-in wrestler piece of ``kind`` per seat, for :func:`starting_board` on a ring
    without wrestler cards: ids ``seat0:wrestler``, ``seat1:wrestler`` ..."""
    return [(wrestler_id(f"seat{seat}"), kind) for seat in range(players)]


def _facing(x: float, y: float, turn_deg: float) -> float:
    """The angle of a wrestler standing at (x, y) facing the centre, turned ``turn_deg``. Without
    a turn nothing is added: on a line through the centre atan2 gives -0.0 and adding 0.0 would
    make it +0.0, an angle that reads the same but can tip an atan2 elsewhere from -pi to pi."""
    angle = math.atan2(-y, -x)
    return angle + math.radians(turn_deg) if turn_deg else angle


def starting_board(players: int, wrestlers: Sequence[tuple[str, str]] = (),
                   setups: Setups | None = None, first_player: int | None = None) -> list[PieceState]:
    """The pieces on the ring at the start of a ``players`` game, in id order.

    The standard discs stand on their spots of the Wrestler Count Diagram, the first ids of each
    kind in the order of the spots. ``wrestlers`` gives one (piece id, kind) per seat, in seat
    order, stood on the wrestler spots facing the centre (turned from it by
    :attr:`Board.wrestler_turn`): :attr:`Wrestler.piece_id` and
    :attr:`Wrestler.piece_kind` in a game, :func:`stand_in_wrestlers` elsewhere. Without
    ``wrestlers`` those spots stay empty. With ``first_player``, the wrestler of the seat that moves
    second stands :attr:`Board.second_outset` farther out.
    """
    setups = setups or load_setups()
    board = setups.boards[players]
    if wrestlers and len(wrestlers) != players:
        raise ValueError(f"wrestlers: expected one per seat ({players}), got {len(wrestlers)}")
    pieces = [PieceState(pid, kind, x, y, 0.0)
              for kind in STANDARD_KINDS
              for (x, y), pid in zip(board.discs[kind], standard_ids(kind, board.count(kind)),
                                     strict=True)]
    pieces += [PieceState(pid, kind, x, y, _facing(x, y, board.wrestler_turn))
               for (pid, kind), (x, y) in zip(wrestlers, board.wrestler_spots(first_player), strict=False)]
    return sorted(pieces, key=lambda p: p.id)


def gathered(world: World, gather: Gather) -> World:
    """``world``, a board set on its spots with the wrestlers standing on theirs, after the players
    push its crowd together (:class:`Gather`).

    A hand slides a disc over the ring without the ring's friction holding it back, so the discs
    glide while drawn in (the ring's friction set to none for them, the wrestlers keeping theirs);
    then the hands stop, the discs with them, and the crowd settles on the ring as in play, which
    also eases apart any two pieces the pull left pressed into each other."""
    glide = world.materials.with_overrides(
        {**{f"table_friction.{k}": 0.0 for k in STANDARD_KINDS}, "simulation.max_time": gather.seconds})
    drawn = World(glide, world.pieces)
    forces = {}
    for p in drawn.pieces:
        r = math.hypot(p.x, p.y)
        if p.kind in STANDARD_KINDS and r >= gather.start:
            f = glide.kinds[p.kind].mass * gather.pull / r
            forces[p.id] = (-f * p.x, -f * p.y, 0.0)
    drawn.press(forces, gather.seconds)  # stops when max_time runs out: the hands let go there
    out = World(world.materials, drawn.pieces)
    out.settle()
    return out


def set_up(world: World, players: int, setups: Setups | None = None) -> World:
    """The starting board ``world`` (:func:`starting_board` with every wrestler on its spot) as
    the players leave it: gathered (:func:`gathered`) if the board of ``players`` has a gather."""
    gather = (setups or load_setups()).boards[players].gather
    return world if gather is None else gathered(world, gather)


@dataclass
class Layout:
    """A game's starting position: the pieces on the board and every piece's kind and place."""

    board: list[PieceState]
    kinds: dict[str, str]
    places: dict[str, str]


def starting_layout(players: int, wrestlers: list[Wrestler], first_player: int,
                    junior_cards: list[JuniorCard] | None = None,
                    setups: Setups | None = None) -> Layout:
    """Set the ring up for ``players`` with these wrestlers (one per seat, in seat order)."""
    setups = setups or load_setups()
    pieces = starting_board(players, [(w.piece_id, w.piece_kind) for w in wrestlers], setups, first_player)
    kinds: dict[str, str] = {p.id: p.kind for p in pieces}
    places: dict[str, str] = {p.id: BOARD for p in pieces}
    # Standard discs: every one in the box; those not on the board wait in the pool, ids in order.
    pool: dict[str, list[str]] = {}
    for kind in STANDARD_KINDS:
        ids = standard_ids(kind, setups.supply.get(kind, 0))
        pool[kind] = [pid for pid in ids if pid not in places]
        for pid in pool[kind]:
            kinds[pid] = kind
            places[pid] = SUPPLY
    # Signature pieces start in the supply.
    for w in wrestlers:
        for sig in w.signature:
            for pid in sig.ids(w.key):
                kinds[pid] = sig.kind
                places[pid] = SUPPLY
    # Inventories.
    n_sides = len(sides_of(players))

    def give(side: int, kind: str, count: int) -> None:
        if len(pool[kind]) < count:
            raise ValueError(f"the supply has {len(pool[kind])} {kind} discs left, "
                             f"{count} needed for a starting inventory")
        for pid in pool[kind][:count]:
            places[pid] = inventory_place(players, side)
        del pool[kind][:count]

    if junior_cards is None:
        for i, counts in enumerate(setups.inventories[players]):
            # 2P/3P: the table lists seats in turn order ("only the 3rd player starts with 2
            # medium discs" means the third to play); 4P lists teams.
            side = i if players == 4 else (first_player + i) % players
            for kind in STANDARD_KINDS:
                give(side, kind, counts.get(kind, 0))
    else:
        for side in range(n_sides):
            seats = sides_of(players)[side]
            total = {k: sum(junior_cards[s].discs.get(k, 0) for s in seats) for k in STANDARD_KINDS}
            if len(seats) > 1:
                total["small"] = min(total["small"], JUNIOR_TEAM_SMALL_LIMIT)
            for kind in STANDARD_KINDS:
                give(side, kind, total[kind])
            for s in seats:
                for pid in junior_cards[s].signature_ids():
                    places[pid] = inventory_place(players, side)
    return Layout(pieces, kinds, places)
