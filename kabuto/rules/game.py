"""A game of Kabuto Sumo: seats, inventories, turns, pushes, signature moves, knock-outs, the end.

    >>> from kabuto import Game
    >>> game = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    >>> game.current_seat, game.legal_kinds()
    (0, ['medium', 'small'])
    >>> outcome = game.push("small", entry_deg=180.0, heading_deg=0.0, speed=0.3)
    >>> outcome.committed, game.current_seat       # the push ended seat 0's turn
    (True, 1)

The rules are data and functions on a :class:`physics.World` (the pieces on the ring) and a
:class:`~kabuto.rules.inventory.Ledger` (where every piece is). The app and the bots only call this API:

* **Setup**: :meth:`Game.new` (``players`` 2-4, ``wrestlers`` by key or name, ``junior``, ``seed``,
  ``first_player``, ``materials``); :attr:`Game.setup` is the record that restarts the same game.
* **Whose turn**: :attr:`current_seat`, :attr:`current_side` (a side is a seat in 2P and 3P, a team
  in 4P), :attr:`turn` (the turn in progress), :attr:`seats`, :attr:`sides`, :attr:`teams`.
* **Actions**: every change is an action value (:mod:`kabuto.rules.actions`: ``Push``, ``Move``,
  ``EndTurn``, ``Edit``) made by :meth:`apply`, the one way in; :meth:`push`, :meth:`use_move`,
  :meth:`end_turn` and :meth:`edit` build one and apply it. :attr:`actions` lists them.
* **A turn**: :meth:`legal_pieces` / :meth:`legal_kinds`, then :meth:`push` (ends the turn unless
  ``end_turn=False``), :meth:`available_moves` and :meth:`use_move` before or after the push, and
  :meth:`end_turn`. :meth:`preview_push` simulates a push and its consequences without changing
  anything (cheap: no copy of the game is made); :meth:`preview_move` does the same for a
  signature move (what it would pay, move, place and knock out, and the ring after it).
* **The end**: :attr:`is_over`, :attr:`winner` (a side), :attr:`result` (a :class:`GameResult`).
* **State as data**: :meth:`to_json` / :meth:`from_json` (a loaded game continues bit-identically),
  :meth:`clone`, :attr:`history` (every action as JSON with its parameters and, after each push,
  move and edit, the world's :func:`physics.state_hash`), :meth:`replay` (re-apply a history).

Every action validates first and raises :class:`~kabuto.rules.errors.IllegalMove` (a ``ValueError``) that
says why, leaving the game exactly as it was. :attr:`world` may be a new World object after a
signature move; read it from the game each time instead of keeping it.

Rulebook readings (simultaneous knock-outs in 3P and 4P, submission timing, team play, ...) are
written down in ``docs/rules-notes.md`` (section Kabuto Sumo).
"""
from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from kabuto.rules.actions import Action, Edit, EndTurn, Move, action_from_json
from kabuto.rules.actions import Push as PushAction
from kabuto.rules.boards import inventory_place, load_setups, set_up, sides_of, starting_layout
from kabuto.rules.errors import IllegalMove, ReplayError
from kabuto.rules.hand import push_speed_refusal, stack_refusal
from kabuto.rules.inventory import (
    BOARD,
    STANDARD_KINDS,
    SUPPLY,
    Ledger,
    LedgerView,
    parse_place,
    standard_ids,
)
from kabuto.rules.junior import JuniorCard, junior_card, load_junior
from kabuto.rules.moves import (
    EFFECTS,
    MoveOption,
    MoveReport,
    TargetSpec,
    check_cost,
    pay_cost,
    target_specs,
)
from kabuto.rules.naming import ENGINE_NAMES, SeatNames
from kabuto.rules.outcomes import (
    DRAW,
    KNOCKOUT,
    LAST_STANDING,
    OWN_KNOCKOUT,
    SUBMISSION,
    GameResult,
    Knockout,
    MoveOutcome,
    PushOutcome,
    Reason,
    TurnState,
    pieces_added,
)
from kabuto.rules.specs import MoveSpec
from kabuto.rules.wrestlers import Wrestler, load_wrestlers, wrestler
from kabuto_base.numbers import finite_number
from physics import Materials, PieceState, Push, PushRefused, World, state_hash
from physics.shapes import shape_from_json


@dataclass(frozen=True)
class MovePreview:
    """A signature move not made (:meth:`Game.preview_move`): what :meth:`Game.use_move` would
    report, and the ring after it (a world of its own: the game still has the one before)."""

    outcome: MoveOutcome
    world: World


FORMAT = "kabuto-game"
VERSION = 1
PLAYER_COUNTS = (2, 3, 4)


#: Ordinal words for a move's first usable turn (MoveSpec.from_turn is 1..9).
_ORDINALS = ("", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


@functools.lru_cache(maxsize=1)
def _default_materials() -> Materials:
    return Materials.load()


def exact_materials(data: Any) -> Materials:
    """``Materials.from_dict(data)`` with every outline exactly as written in ``data``.

    ``Materials.from_dict`` re-centres each polygon outline on its centre of mass. Outlines in our
    saved data (``Materials.to_dict`` output) are centred already, so they are taken exactly as
    written: a saved game then continues bit-identically whatever the re-centring's rounding does
    (an earlier physics version moved centred outlines by ~1e-19 m on every load).
    """
    mats = Materials.from_dict(data)
    kinds = {name: replace(t, shape=shape_from_json(data["kinds"][name]["shape"], f"kinds.{name}.shape"))
             for name, t in mats.kinds.items()}
    return replace(mats, kinds=kinds)


def _exact_world(snapshot: Any) -> World:
    world = World.from_snapshot(snapshot)  # validates every field
    return World(exact_materials(snapshot["materials"]), world.pieces)


@dataclass(frozen=True)
class GameSetup:
    """Everything needed to start a game again exactly: the wrestlers, the first player and the
    materials in force (with the wrestlers' piece kinds) are resolved, so nothing is left to the
    seed or to files that may change."""

    players: int
    wrestlers: tuple[str, ...]
    junior: bool
    seed: int
    first_player: int
    materials: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "wrestlers": list(self.wrestlers), "junior": self.junior,
                "seed": self.seed, "first_player": self.first_player, "materials": self.materials}

    @classmethod
    def from_json(cls, d: Any) -> GameSetup:
        if not isinstance(d, dict):
            raise ValueError("setup: expected an object")
        for k in ("players", "wrestlers", "first_player", "materials"):
            if k not in d:
                raise ValueError(f"setup.{k}: missing")
        players = d["players"]
        if players not in PLAYER_COUNTS or isinstance(players, bool):
            raise ValueError(f"setup.players: expected 2, 3 or 4, got {players!r}")
        ws = d["wrestlers"]
        if not isinstance(ws, list) or len(ws) != players or not all(isinstance(w, str) for w in ws):
            raise ValueError(f"setup.wrestlers: expected {players} wrestler keys")
        fp = d["first_player"]
        if not isinstance(fp, int) or isinstance(fp, bool) or not 0 <= fp < players:
            raise ValueError(f"setup.first_player: expected a seat 0..{players - 1}, got {fp!r}")
        if not isinstance(d["materials"], dict):
            raise ValueError("setup.materials: expected an object")
        seed = d.get("seed", 0)
        return cls(players, tuple(ws), bool(d.get("junior", False)), seed, fp, d["materials"])


@dataclass(frozen=True)
class Seat:
    """A player at the table: their wrestler card and which side (seat or team) they play for."""

    index: int
    wrestler: Wrestler
    side: int
    junior_card: JuniorCard | None = None

    @property
    def piece_id(self) -> str:
        return self.wrestler.piece_id

    @property
    def label(self) -> str:
        return f"seat {self.index} ({self.wrestler.name})"


def _finite(v: Any, name: str) -> float:
    return finite_number(v, name, IllegalMove)


def _check_box(setup: GameSetup, kinds: dict[str, Any]) -> None:
    """ValueError unless a saved game's pieces are pieces of its box: no more standard discs of a
    kind than the box holds (``[supply]`` in ``assets/setups.toml``) and no id the game's own setup
    does not make (the wrestlers' pieces and signature pieces included)."""
    box = load_setups().supply
    for kind in STANDARD_KINDS:
        n = sum(1 for k in kinds.values() if k == kind)
        if n > box.get(kind, 0):
            raise ValueError(f"pieces: {n} {kind} discs, but the box holds only {box.get(kind, 0)}")
    if setup.junior:
        ws = [junior_card(k).wrestler for k in setup.wrestlers]
    else:
        ws = [wrestler(k) for k in setup.wrestlers]
    discs = _standard_disc_ids(box)
    for pid, kind in discs.items():
        if pid in kinds and kinds[pid] != kind:
            raise ValueError(f"pieces.{pid}.kind: {kinds[pid]!r}, but {pid} is a {kind} disc")
    known = set(discs)
    for w in ws:
        known.add(w.piece_id)
        known.update(w.signature_ids())
    unknown = sorted(pid for pid in kinds if pid not in known)
    if unknown:
        raise ValueError(f"pieces: {', '.join(map(repr, unknown[:5]))} "
                         f"{'is not a piece' if len(unknown) == 1 else 'are not pieces'} of this game")


def _standard_disc_ids(box: dict[str, int]) -> dict[str, str]:
    """{id: kind} of every standard disc in a box holding ``box`` discs of each kind."""
    return {pid: kind for kind in STANDARD_KINDS for pid in standard_ids(kind, box.get(kind, 0))}


class Game:
    """One game of Kabuto Sumo. Build it with :meth:`new`, :meth:`from_setup` or :meth:`from_json`."""

    def __init__(self, setup: GameSetup, world: World, ledger: Ledger, turn: TurnState,
                 out: dict[int, str], result: GameResult | None, history: list[Action]):
        self._setup = setup
        cards: list[JuniorCard | None]
        if setup.junior:
            cards = [junior_card(k) for k in setup.wrestlers]
            ws = [c.wrestler for c in cards if c is not None]
        else:
            cards = [None] * setup.players
            ws = [wrestler(k) for k in setup.wrestlers]
        sides = sides_of(setup.players)
        side_of = {s: i for i, seats in enumerate(sides) for s in seats}
        self._seats = tuple(Seat(i, w, side_of[i], c)
                            for i, (w, c) in enumerate(zip(ws, cards, strict=True)))
        self._sides = sides
        self._wrestler_seat = {s.piece_id: s.index for s in self._seats}
        self._signature_seat = {pid: s.index for s in self._seats for pid in s.wrestler.signature_ids()}
        self._kind_names: dict[str, str] = {k: f"{k} disc" for k in STANDARD_KINDS}
        for s in self._seats:
            self._kind_names[s.wrestler.piece_kind] = f"{s.wrestler.name}'s wrestler piece"
            for sp in s.wrestler.signature:
                self._kind_names[sp.kind] = sp.name
        self._world = world
        self._ledger = ledger
        self._turn = turn
        self._out = dict(out)
        self._result = result
        self._history = history

    # ----- building ------------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int = 2, wrestlers: list[str] | tuple[str, ...] | None = None,
            junior: bool = False, seed: int = 0, first_player: int | None = None,
            materials: Materials | dict[str, Any] | None = None) -> Game:
        """A new game, set up as the rulebook's Setup section says.

        ``wrestlers``: one per seat, by key or name (Junior League: wrestlers with a Junior League
        card); by default drawn at random from the seed. ``first_player``: a seat, by default drawn
        at random from the seed ("randomly choose a starting player"). ``materials``: the physics
        data (default ``assets/materials.toml``); the wrestlers' piece kinds are added unless
        already present (so a tuned copy keeps its tuning). ValueError names any bad argument.
        """
        if players not in PLAYER_COUNTS or isinstance(players, bool):
            raise ValueError(f"players: Kabuto Sumo is for 2, 3 or 4 players, got {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed: expected a whole number, got {seed!r}")
        if not isinstance(junior, bool):
            raise ValueError(f"junior: expected true or false, got {junior!r}")
        if wrestlers is None:
            pool = [c.key for c in load_junior()] if junior else [w.key for w in load_wrestlers()]
            keys = random.Random(f"kabuto-wrestlers-{seed}").sample(pool, players)
        else:
            if isinstance(wrestlers, str) or len(wrestlers) != players:
                raise ValueError(f"wrestlers: expected {players} wrestlers, one per seat")
            keys = [junior_card(w).key if junior else wrestler(w).key for w in wrestlers]
            if len(set(keys)) != len(keys):
                raise ValueError("wrestlers: each wrestler card can be chosen by one player only")
        if first_player is None:
            first_player = random.Random(f"kabuto-first-{seed}").randrange(players)
        elif (not isinstance(first_player, int) or isinstance(first_player, bool)
              or not 0 <= first_player < players):
            raise ValueError(f"first_player: expected a seat 0..{players - 1}, got {first_player!r}")
        if materials is None:
            base = _default_materials()
        elif isinstance(materials, Materials):
            base = materials
        elif isinstance(materials, dict):
            base = Materials.from_dict(materials)
        else:
            raise ValueError("materials: expected a physics.Materials or its to_dict() data")
        ws = [junior_card(k).wrestler if junior else wrestler(k) for k in keys]
        extra = {k: t for w in ws for k, t in w.kinds().items() if k not in base.kinds}
        mats = base.with_kinds(extra)
        setup = GameSetup(players, tuple(keys), junior, seed, first_player, mats.to_dict())
        return cls.from_setup(setup)

    @classmethod
    def from_setup(cls, setup: GameSetup | dict[str, Any]) -> Game:
        """The game at its start, from a :class:`GameSetup` (or its JSON)."""
        if not isinstance(setup, GameSetup):
            setup = GameSetup.from_json(setup)
        materials = exact_materials(setup.materials)
        if setup.junior:
            cards = [junior_card(k) for k in setup.wrestlers]
            ws = [c.wrestler for c in cards]
        else:
            cards = None
            ws = [wrestler(k) for k in setup.wrestlers]
        for w in ws:
            for k in w.kinds():
                if k not in materials.kinds:
                    raise ValueError(f"setup.materials: no piece kind {k!r} for {w.name}")
        layout = starting_layout(setup.players, ws, setup.first_player, cards)
        world = set_up(World(materials, layout.board), setup.players)
        return cls(setup, world, Ledger(layout.kinds, layout.places),
                   TurnState(number=1, seat=setup.first_player), {}, None, [])

    # ----- reading -------------------------------------------------------------------------------
    @property
    def setup(self) -> GameSetup:
        return self._setup

    @property
    def players(self) -> int:
        return self._setup.players

    @property
    def junior(self) -> bool:
        return self._setup.junior

    @property
    def world(self) -> World:
        """The pieces on the ring (read it; it changes only through actions, and may be a new
        World object after a signature move: read it from the game each time)."""
        return self._world

    @property
    def materials(self) -> Materials:
        return self._world.materials

    def set_materials(self, materials: Materials) -> None:
        """Make ``materials`` (friction, mass, ...: a tuning) the physics of the next push. Not an
        action: a replay records the materials in force with each action."""
        self._world = World(materials, self._world.pieces)

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self._seats

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side: ((0,), (1,)) in 2P, ((0, 2), (1, 3)) in 4P."""
        return self._sides

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The two teams in a 4-player game, else ()."""
        return self._sides if self.players == 4 else ()

    def side_of(self, seat: int) -> int:
        return self._seats[seat].side

    @property
    def to_play(self) -> int | None:
        """The seat to act, or None once the game is over (the same word as the card games').

        >>> game = Game.new(players=2, wrestlers=["mike", "hank"], first_player=1)
        >>> game.to_play, game.is_over
        (1, False)
        """
        return None if self._result is not None else self._turn.seat

    @property
    def current_seat(self) -> int:
        """The seat of the turn in progress; once the game is over, of the turn it ended on (what
        the end screen and the records name). :attr:`to_play` is the seat that may act."""
        return self._turn.seat

    @property
    def current_side(self) -> int:
        return self.side_of(self._turn.seat)

    @property
    def turn(self) -> TurnState:
        """A copy of the turn in progress."""
        return replace(self._turn, moves_used=list(self._turn.moves_used))

    @property
    def result(self) -> GameResult | None:
        return self._result

    @property
    def winner(self) -> int | None:
        """The winning side (a seat in 2P/3P, a team in 4P); None while playing or after a draw."""
        return self._result.winner if self._result else None

    @property
    def is_over(self) -> bool:
        """True once the game has a result (then :attr:`to_play` is None)."""
        return self._result is not None

    @property
    def out(self) -> dict[int, str]:
        """3P: seats out of the game and why ("submission", "own_knockout", "knocked_out")."""
        return dict(self._out)

    def active_seats(self) -> list[int]:
        """Seats still playing (3P: not eliminated)."""
        return [s.index for s in self._seats if s.index not in self._out]

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action so far, each with its record fields (seat, kind, state hash) filled in."""
        return tuple(self._history)

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every action so far, as plain data (:meth:`replay` re-applies it)."""
        return [a.to_json() for a in self._history]

    @property
    def ledger(self) -> LedgerView:
        """Where every piece is (read it; change pieces only through actions)."""
        return self._ledger

    def inventory_place(self, side: int) -> str:
        """The place name of a side's inventory: "seat:N" (2P, 3P) or "team:T" (4P)."""
        return inventory_place(self.players, side)

    def seat_inventory(self, seat: int) -> str:
        """The inventory a seat uses (its team's in 4P)."""
        return self.inventory_place(self.side_of(seat))

    def inventory(self, side: int) -> list[str]:
        """The piece ids in a side's inventory."""
        return self._ledger.pieces_in(self.inventory_place(side))

    def supply(self) -> list[str]:
        return self._ledger.pieces_in(SUPPLY)

    def locations(self) -> dict[str, str]:
        """{piece id: place} for every piece of the game: "board", "seat:N", "team:T" or "supply"."""
        return self._ledger.places()

    def kind_of(self, pid: str) -> str:
        return self._ledger.kind(pid)

    def kind_name(self, kind: str) -> str:
        """A readable name of a piece kind ("small disc", "Horn Bar", ...)."""
        return self._kind_names.get(kind, kind)

    def is_wrestler_piece(self, pid: str) -> bool:
        return pid in self._wrestler_seat

    def owner_of(self, pid: str) -> int | None:
        """The seat whose wrestler piece or signature piece this is (None for standard discs)."""
        if pid in self._wrestler_seat:
            return self._wrestler_seat[pid]
        return self._signature_seat.get(pid)

    def wrestler_piece(self, seat: int) -> str:
        """The id of ``seat``'s wrestler piece (on the ring or not)."""
        return self._seats[seat].piece_id

    def signature_kind(self, seat: int, key: str) -> str:
        """The piece kind of ``seat``'s signature piece ``key`` (``"bar"`` -> ``"hank_bar"``)."""
        return self._seats[seat].wrestler.signature_piece(key).kind

    # ----- stacking ------------------------------------------------------------------------------
    def stack_refusal(self, kind: str, base: str) -> str | None:
        """Why the rules do not let a ``kind`` piece be stacked on the board piece ``base``, or None
        if they do: only on the same size or larger, never on a wrestler piece
        (:func:`kabuto.rules.hand.stack_refusal`)."""
        if base not in self.world:
            return "there is no such piece on the ring to stack on"
        kinds = self.materials.kinds
        return stack_refusal(kinds[kind], kinds[self.world.piece(base).kind])

    def _stack(self, pid: str, base: str) -> None:
        """For move effects and costs (through their context): stack ``pid`` (from wherever it is) centred on the board
        piece ``base``. IllegalMove, changing nothing, if the rules or the ring refuse it."""
        kind = self._ledger.kind(pid)
        self._check_stack(kind, base)
        b = self.world.piece(base)
        try:
            self.world.place(pid, kind, b.x, b.y, b.angle, base=base)
        except ValueError as exc:
            raise IllegalMove(f"the {self.kind_name(kind)} does not fit there: {exc}", "does_not_fit",
                              kind=kind) from None
        self._ledger.move(pid, BOARD)

    def _check_stack(self, kind: str, base: str) -> None:
        reason = self.stack_refusal(kind, base)
        if reason:
            raise IllegalMove(f"cannot stack that {self.kind_name(kind)} there: {reason}", "cannot_stack",
                              kind=kind, reason=reason)

    # ----- pushing -------------------------------------------------------------------------------
    def push_source(self) -> str:
        """The inventory this turn's pushes come from (your side's, unless a move changed it)."""
        side = self._turn.push_from if self._turn.push_from is not None else self.current_side
        return self.inventory_place(side)

    def _push_refusal(self) -> IllegalMove | None:
        t = self._turn
        if self.is_over:
            return IllegalMove("the game is over", "game_over")
        if t.replaced:
            return IllegalMove("this turn was replaced by a signature move", "turn_replaced")
        if t.pushes >= t.pushes_allowed:
            return IllegalMove("you have already pushed this turn" if t.pushes_allowed == 1
                               else f"you have already made all {t.pushes_allowed} pushes this turn",
                               "pushed_already", pushes=t.pushes_allowed)
        return None

    def legal_pieces(self) -> list[str]:
        """Ids of the pieces the side to move may push now (empty when no push is allowed)."""
        if self._push_refusal():
            return []
        return self._ledger.pieces_in(self.push_source(), self._later_kind())

    def _later_kind(self) -> str | None:
        """The kind this push must be: a move may restrict the pushes after the turn's first."""
        t = self._turn
        return t.later_kind if t.pushes >= 1 else None

    def legal_kinds(self) -> list[str]:
        """The distinct kinds among :meth:`legal_pieces` (pieces of a kind are interchangeable)."""
        return sorted({self._ledger.kind(p) for p in self.legal_pieces()})

    def locked_platform(self) -> tuple[float, float] | None:
        """(entry_deg, heading_deg) a further push this turn must use, or None if it is free."""
        t = self._turn
        return t.platform if t.pushes >= 1 and t.pushes < t.pushes_allowed else None

    def _prepare_push(self, piece_or_kind: str, entry_deg: Any, heading_deg: Any, speed: Any,
                      spin_deg: Any) -> tuple[str, Push]:
        refusal = self._push_refusal()
        if refusal:
            raise refusal
        entry = _finite(entry_deg, "entry_deg")
        heading = _finite(heading_deg, "heading_deg")
        spd = _finite(speed, "speed")
        spin = _finite(spin_deg, "spin_deg")
        source = self.push_source()
        whose = "your inventory" if self._turn.push_from is None else "that opponent's inventory"
        if not isinstance(piece_or_kind, str):
            raise IllegalMove(f"piece: expected a piece id or kind, got {piece_or_kind!r}", "bad_field",
                              field="piece")
        if piece_or_kind in self._ledger:
            pid = piece_or_kind
            place = self._ledger.place(pid)
            if place != source:
                raise IllegalMove(f"{pid} is in {place}, not in {whose} ({source})", "not_in_inventory",
                                  piece=pid, place=place, source=source)
        else:
            have = self._ledger.pieces_in(source, piece_or_kind)
            if not have:
                if piece_or_kind not in self.materials.kinds:
                    raise IllegalMove(f"unknown piece or kind {piece_or_kind!r}", "no_such_piece",
                                      piece=piece_or_kind)
                raise IllegalMove(f"there is no {self.kind_name(piece_or_kind)} in {whose}", "none_left",
                                  kind=piece_or_kind, source=source)
            pid = have[0]
        must = self._later_kind()
        if must is not None and self._ledger.kind(pid) != must:
            raise IllegalMove(f"this push must be a {self.kind_name(must)}", "wrong_kind", kind=must)
        lock = self.locked_platform()
        if lock is not None and (entry, heading) != lock:
            raise IllegalMove(f"the pushing platform must stay where it is this turn: entry_deg="
                              f"{lock[0]:g}, heading_deg={lock[1]:g}", "platform_locked",
                              entry_deg=lock[0], heading_deg=lock[1])
        flick = push_speed_refusal(spd, self.materials.sim)  # the rules' "no flicking"
        if flick:
            raise IllegalMove(flick, "too_fast", speed=spd)
        push = Push(pid, self._ledger.kind(pid), entry, heading, spd, spin)
        try:
            self.world.check_push(push)  # what physics cannot do: a blocked spot, a hopeless aim
        except ValueError as exc:
            if isinstance(exc, PushRefused):     # its reason and fields, for the front end's words
                raise IllegalMove(str(exc), exc.reason, **exc.fields) from None
            raise IllegalMove(str(exc), "ring_refuses") from None
        return pid, push

    def _destination(self, seat: int, pid: str, by_player: bool) -> str:
        """Where a piece knocked out by ``seat`` goes.

        Wrestler pieces: the supply (the knock-out itself decides the game). Signature pieces: the
        supply, or in the Junior League their wrestler's inventory. Standard discs: the acting side's
        inventory when a push (or a move that says so) knocked them out, else the supply.
        """
        if pid in self._wrestler_seat:
            return SUPPLY
        owner = self._signature_seat.get(pid)
        if owner is not None:
            return self.seat_inventory(owner) if self.junior else SUPPLY
        return self.seat_inventory(seat) if by_player else SUPPLY

    def _resolve(self, seat: int, fallen: list[int]) -> tuple[GameResult | None, dict[int, str]]:
        """The result of ``seat``'s action knocking out the wrestler pieces of ``fallen`` seats.

        Knocking out an opponent's wrestler wins at once; knocking out your own (your team's in 4P)
        loses even if others fell too. In 3P "lose" is elimination: the others play on, and every
        seat whose wrestler fell in that action is out; one seat left wins, none left is a draw.
        """
        if not fallen:
            return None, {}
        side = self.side_of(seat)
        own = sorted(q for q in fallen if self.side_of(q) == side)
        opp = sorted(q for q in fallen if self.side_of(q) != side)
        if self.players != 3:
            if own:
                other = 1 - side
                return self._ending(other, self._sides[other], OWN_KNOCKOUT, seat, own), {}
            return self._ending(side, self._sides[side], KNOCKOUT, seat, opp), {}
        if not own:
            return self._ending(side, (seat,), KNOCKOUT, seat, opp), {}
        newly = {seat: "own_knockout"}
        newly.update({q: "knocked_out" for q in opp if q not in self._out})
        remaining = [q for q in range(3) if q not in self._out and q not in newly]
        if len(remaining) == 1:
            w = remaining[0]
            return self._ending(w, (w,), LAST_STANDING, seat, own + opp), newly
        if not remaining:
            return self._ending(None, (), DRAW, seat, own + opp), newly
        return None, newly

    def _consequences(self, seat: int, fell: list[tuple[str, str, str | None]]
                      ) -> tuple[list[Knockout], GameResult | None, dict[int, str]]:
        kos = []
        fallen = []
        for pid, kind, carried in fell:
            w = self._wrestler_seat.get(pid)
            kos.append(Knockout(pid, kind, self._destination(seat, pid, True), carried, w))
            if w is not None:
                fallen.append(w)
        result, newly = self._resolve(seat, fallen)
        return kos, result, newly

    def preview_push(self, piece_or_kind: str, entry_deg: float, heading_deg: float = 0.0,
                     speed: float = 0.3, spin_deg: float = 0.0) -> PushOutcome:
        """What :meth:`push` would do, without changing the game (``committed`` is False).

        Cheap: it simulates on the game's own at-rest state (each simulation builds a fresh pymunk
        Space anyway) and copies nothing. ``result`` is the result the push would give; a
        submission at the next turn's start is not foreseen.
        """
        pid, push = self._prepare_push(piece_or_kind, entry_deg, heading_deg, speed, spin_deg)
        res = self.world.preview(push)
        seat = self.current_seat
        kos, result, newly = self._consequences(seat, [(f.piece, f.kind, f.carried_by) for f in res.fell])
        return PushOutcome(seat, pid, push.kind, push, res, kos, state_hash(res.snapshot), result,
                           sorted(newly), committed=False)

    def push(self, piece_or_kind: str, entry_deg: float, heading_deg: float = 0.0, speed: float = 0.3,
             spin_deg: float = 0.0, *, end_turn: bool = True) -> PushOutcome:
        """Push a piece from the side's inventory onto the ring (a :class:`physics.Push`).

        ``piece_or_kind``: a piece id, or a kind ("small", "medium", "large", "hank_bar", ...) -
        the lowest id of that kind is pushed. ``entry_deg`` is where the platform touches the ring,
        ``heading_deg`` the aim relative to the inward normal, ``speed`` the hand's speed (m/s),
        ``spin_deg`` how a shaped piece is turned on the platform. Knocked-out standard discs join
        the pusher's (team's) inventory, signature pieces return to the supply (Junior League: to
        their wrestler's inventory), and a knocked-out wrestler decides the game.

        With ``end_turn`` (the default) the turn ends after the push; pass False to use signature
        moves after it, then call :meth:`end_turn`.
        """
        o = self.apply(PushAction(piece_or_kind, entry_deg, heading_deg, speed, spin_deg))
        assert isinstance(o, PushOutcome)
        if end_turn and o.result is None and not o.turn_ended:
            self.end_turn()
            o.turn_ended = True
        return o

    def _push(self, action: PushAction) -> PushOutcome:
        pid, push = self._prepare_push(action.piece, action.entry_deg, action.heading_deg, action.speed,
                                       action.spin_deg)
        seat = self.current_seat
        out_before = set(self._out)
        res = self.world.push(push)
        kos, result, newly = self._consequences(seat, [(f.piece, f.kind, f.carried_by) for f in res.fell])
        self._ledger.move(pid, BOARD)
        for k in kos:
            self._ledger.move(k.piece, k.to)
        t = self._turn
        t.pushes += 1
        if t.platform is None:
            t.platform = (push.entry_deg, push.heading_deg)
        self._out.update(newly)
        self._result = result
        h = state_hash(res.snapshot)
        self._history.append(PushAction(pid, push.entry_deg, push.heading_deg, push.speed, push.spin_deg,
                                        seat=seat, kind=push.kind, hash=h))
        turn_ended = False
        if self._result is None and seat in self._out:
            self._advance()
            turn_ended = True
        return PushOutcome(seat, pid, push.kind, push, res, kos, h, self._result,
                           sorted(set(self._out) - out_before), committed=True, turn_ended=turn_ended)

    # ----- turns ---------------------------------------------------------------------------------
    @property
    def can_end_turn(self) -> bool:
        """Whether :meth:`end_turn` is allowed now (after a push, while the game goes on)."""
        return not self.is_over and (self._turn.pushes >= 1 or self._turn.replaced)

    def end_turn(self) -> None:
        """End the turn (after at least one push) and pass it on; a side that then cannot take its
        turn (nothing in its inventory) submits."""
        self.apply(EndTurn())

    def _end_turn(self) -> None:
        if self.is_over:
            raise IllegalMove("the game is over", "game_over")
        if not self.can_end_turn:
            raise IllegalMove("push a piece before ending your turn", "push_first")
        self._history.append(EndTurn(self.current_seat))
        self._advance()

    def _advance(self) -> None:
        """Start the next turn: the next seat round the table that is still in the game. A side
        with an empty inventory cannot take its turn: it loses (2P, 4P) or is eliminated (3P)."""
        n = self.players
        s = self._turn.seat
        for k in range(1, n + 1):
            q = (s + k) % n
            if q in self._out:
                continue
            if not self._ledger.pieces_in(self.seat_inventory(q)):
                if n == 3:
                    self._out[q] = "submission"
                    remaining = self.active_seats()
                    if len(remaining) == 1:
                        w = remaining[0]
                        self._turn = TurnState(number=self._turn.number + 1, seat=q)
                        self._result = self._ending(w, (w,), LAST_STANDING, q, [])
                        return
                    continue
                other = 1 - self.side_of(q)
                self._turn = TurnState(number=self._turn.number + 1, seat=q)
                self._result = self._ending(other, self._sides[other], SUBMISSION, q, [])
                return
            self._turn = TurnState(number=self._turn.number + 1, seat=q)
            return
        # Unreachable: _resolve ends the game before no seat is left.
        raise AssertionError("no seat left to play")

    # ----- signature moves -----------------------------------------------------------------------
    def _check_may_move(self, player: Any) -> int:
        if self.is_over:
            raise IllegalMove("the game is over", "game_over")
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.players:
            raise IllegalMove(f"player: expected a seat 0..{self.players - 1}, got {player!r}", "bad_field",
                              field="player")
        if player != self.current_seat:
            raise IllegalMove(f"it is {self.names.seat(self.current_seat)}'s turn: only they may use "
                              f"signature moves now", "not_your_turn", seat=self.current_seat)
        if self.junior:
            raise IllegalMove("Junior League wrestlers have no signature moves", "junior_no_moves")
        return player

    def turns_taken(self, seat: int) -> int:
        """How many turns ``seat`` has finished: its ended turns and its turns a signature move
        replaced (the turn in progress is not counted)."""
        moves = {m.name: m for m in self._seats[seat].wrestler.moves}
        return sum(1 for a in self._history if getattr(a, "seat", None) == seat and (
            isinstance(a, EndTurn) or (isinstance(a, Move) and a.name in moves
                                       and moves[a.name].replaces_turn)))

    def _check_move_allowed(self, move: MoveSpec) -> None:
        t = self._turn
        if move.from_turn > 1 and self.turns_taken(t.seat) + 1 < move.from_turn:
            raise IllegalMove(f"{move.name} can be used from your {_ORDINALS[move.from_turn]} turn on",
                              "too_early", move=move.name, turn=move.from_turn)
        if t.replaced:
            raise IllegalMove("this turn was replaced by a signature move", "turn_replaced")
        if move.name in t.moves_used:
            raise IllegalMove(f"{move.name} was already used this turn (each signature move at most "
                              f"once per turn)", "move_used", move=move.name)
        if move.replaces_turn and (t.pushes or t.moves_used):
            raise IllegalMove(f"{move.name} replaces your turn: use it before pushing or using any "
                              f"other signature move", "replaces_turn", move=move.name)

    def _find_move(self, seat: int, name: Any) -> MoveSpec:
        w = self._seats[seat].wrestler
        if not isinstance(name, str):
            raise IllegalMove(f"name: expected a move name, got {name!r}", "no_such_move", move=str(name),
                              wrestler=w.key)
        try:
            return w.move(name)
        except KeyError:
            raise IllegalMove(f"{w.name} has no move {name!r} (moves: "
                              f"{', '.join(m.name for m in w.moves)})", "no_such_move",
                              move=name, wrestler=w.key) from None

    def available_moves(self, player: int | None = None) -> list[MoveOption]:
        """The player's signature moves with their targets; ``usable`` False comes with a reason.

        ``usable`` covers everything but the targets' values (e.g. a Stack base that turns out to
        be too small is refused by :meth:`use_move`).
        """
        seat = self.current_seat if player is None else player
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalMove(f"player: expected a seat 0..{self.players - 1}, got {player!r}", "bad_field",
                              field="player")
        if self.junior:
            return []
        ctx = _EffectContext(self)
        out = []
        for m in self._seats[seat].wrestler.moves:
            reason, refusal = None, None
            try:
                self._check_may_move(seat)
                self._check_move_allowed(m)
                EFFECTS[m.effect].precheck(ctx, seat, m)
                check_cost(ctx, seat, m)
                if not m.replaces_turn and self._turn.pushes == 0:
                    if m.effect == "push_from_opponent":
                        left = 1
                    else:
                        left = (len(self._ledger.pieces_in(self.push_source()))
                                - sum(c.count for c in m.cost) + (1 if m.effect == "gain" else 0))
                    if left <= 0:
                        raise IllegalMove(f"{m.name} would leave you nothing to push this turn",
                                          "nothing_to_push", move=m.name)
            except IllegalMove as exc:
                reason, refusal = str(exc), exc
            specs = self._measured_from(seat, target_specs(ctx, seat, m))
            if reason is None:
                for sp in specs:
                    if sp.kind in ("piece", "seat") and not sp.choices:
                        reason = f"nothing to choose for {sp.name}: {sp.text}"
                        break
            out.append(MoveOption(seat, self._seats[seat].wrestler.key, m.name, m.text,
                                  m.replaces_turn, specs, reason is None, reason, refusal))
        return out

    def use_move(self, player: int, name: str, **targets: Any) -> MoveOutcome:
        """Perform ``player``'s signature move ``name`` with its targets (see
        :meth:`available_moves`). Checks, pays the cost and applies the effect atomically: a move
        that cannot be paid or performed raises IllegalMove and changes nothing. A move that
        "replaces your turn" ends the turn."""
        self._check_may_move(player)
        o = self.apply(Move(name, targets, seat=player))
        assert isinstance(o, MoveOutcome)
        return o

    def _use_move(self, action: Move) -> MoveOutcome:
        seat = self._check_may_move(self.current_seat if action.seat is None else action.seat)
        move = self._find_move(seat, action.name)
        self._check_move_allowed(move)
        targets = dict(action.targets)
        cp = self._checkpoint()
        report = MoveReport()
        try:
            self._world = self._world.copy()  # the checkpoint keeps the untouched one
            effect = EFFECTS[move.effect]
            ctx = _EffectContext(self)
            effect.precheck(ctx, seat, move)
            check_cost(ctx, seat, move)
            specs = target_specs(ctx, seat, move)
            wanted = {sp.name for sp in specs}
            unknown = sorted(set(targets) - wanted)
            if unknown:
                raise IllegalMove(f"{move.name} takes no target {unknown[0]!r}"
                                  + (f" (targets: {', '.join(sorted(wanted))})" if wanted else ""),
                                  "no_such_target", move=move.name, target=unknown[0])
            missing = [sp for sp in specs if sp.name not in targets]
            if missing:
                sp = missing[0]
                choices = f" (one of {', '.join(map(str, sp.choices))})" if sp.choices else ""
                raise IllegalMove(f"{move.name} needs {sp.name}=...: {sp.text}{choices}", "choose_target",
                                  target=sp.name, choose=sp.text)
            pay_cost(ctx, seat, move, targets, report)
            effect.perform(ctx, seat, move, targets, report)
            if (not move.replaces_turn and self._turn.pushes == 0
                    and not self._ledger.pieces_in(self.push_source())):
                raise IllegalMove(f"{move.name} would leave you nothing to push this turn",
                                  "nothing_to_push", move=move.name)
        except BaseException:
            self._restore(cp)
            raise
        out_before = set(self._out)
        self._turn.moves_used.append(move.name)
        self._turn.gained += pieces_added(self.inventory_place(self.side_of(seat)), report.gained,
                                          report.knocked_out)
        fallen = [k.wrestler_of for k in report.knocked_out if k.wrestler_of is not None]
        result, newly = self._resolve(seat, fallen)
        self._out.update(newly)
        self._result = result
        h = state_hash(self.world.snapshot())
        self._history.append(Move(move.name, targets, seat=seat, hash=h))
        turn_ended = False
        if self._result is None:
            if move.replaces_turn:
                self._turn.replaced = True
            if move.replaces_turn or seat in self._out:
                self._advance()
                turn_ended = True
        return MoveOutcome(seat, move.name, dict(targets), report.paid, report.gained, report.placed,
                           report.moved, report.knocked_out, h, self._result,
                           sorted(set(self._out) - out_before), turn_ended)

    def preview_move(self, player: int, name: str, **targets: Any) -> MovePreview:
        """What :meth:`use_move` would do with these targets, without changing the game: the
        outcome it would report and the ring as it would leave it. IllegalMove (the same refusal
        ``use_move`` would give) when it cannot be made. Cheap: the move runs on the game itself
        between a checkpoint and its restore, as a refused move does."""
        cp = self._checkpoint()
        try:
            outcome = self.use_move(player, name, **targets)
            after = self.world
        finally:
            self._restore(cp)
        return MovePreview(outcome, after)

    def _knock_out(self, seat: int, pid: str, gain: bool) -> list[Knockout]:
        """For move effects (through their context): knock ``pid`` and everything stacked on it
        off the ring by ``seat``'s move. ``gain``: the move adds the standard discs knocked out to
        the mover's inventory (else they go to the supply, as falls not caused by a push do)."""
        world = self.world
        bases = {q.id: q.base for q in world.pieces}
        out = []
        for g in world.remove(pid):
            to = self._destination(seat, g, gain)
            self._ledger.move(g, to)
            out.append(Knockout(g, self._ledger.kind(g), to, bases[g] if g != pid else None,
                                self._wrestler_seat.get(g)))
        return out

    def _checkpoint(self) -> tuple:
        return (self.world, self._ledger.copy(), TurnState.from_json(self._turn.to_json()),
                dict(self._out), self._result, len(self._history))

    def _restore(self, cp: tuple) -> None:
        world, ledger, turn, out, result, n = cp
        self._world, self._ledger, self._turn, self._out, self._result = world, ledger, turn, out, result
        del self._history[n:]

    # ----- scenario editing ----------------------------------------------------------------------
    def edit(self, piece: str, place: str, x: float | None = None, y: float | None = None,
             angle: float = 0.0, base: str | None = None, allow_overlap: bool = False) -> None:
        """Put a piece anywhere (tests, puzzles, the app's arrange mode). Not a game action: it
        ignores turns and costs, but it is recorded in the history so a replay stays exact.

        ``place``: "board" (then ``x``, ``y`` in metres, ``angle`` in radians, optional ``base``),
        "supply" or an inventory ("seat:N" / "team:T"). A piece with others stacked on it cannot
        be taken off or moved by an edit, and a stack must follow the stacking rule (only on the
        same size or larger, never on a wrestler piece).
        """
        self.apply(Edit(piece, place, x, y, angle, base, allow_overlap))

    def _edit(self, action: Edit) -> str:
        piece, place, x, y = action.piece, action.place, action.x, action.y
        angle, base, allow_overlap = action.angle, action.base, action.allow_overlap
        if self.is_over:
            raise IllegalMove("the game is over", "game_over")
        valid = {BOARD, SUPPLY, *(self.inventory_place(s) for s in range(len(self._sides)))}
        if place not in valid:
            raise IllegalMove(f"place: {place!r} is not one of {', '.join(sorted(valid))}", "bad_field",
                              field="place")
        kind = self._ledger.kind(piece)
        cp = self._checkpoint()
        try:
            self._world = self._world.copy()
            if self._ledger.place(piece) == BOARD:
                if self.world.riders(piece):
                    raise IllegalMove(f"{piece} has pieces stacked on it; edit those first", "stacked_on",
                                      piece=piece)
                self.world.remove(piece)
            if place == BOARD:
                if x is None or y is None:
                    raise IllegalMove("x and y are needed to put a piece on the board", "bad_field",
                                      field="x")
                if base is not None:
                    self._check_stack(kind, base)
                self.world.place(piece, kind, x, y, angle, base=base, allow_overlap=allow_overlap)
            self._ledger.move(piece, place)
        except IllegalMove:
            self._restore(cp)
            raise
        except ValueError as exc:
            self._restore(cp)
            raise IllegalMove(str(exc), "does_not_fit", kind=kind) from None
        h = state_hash(self.world.snapshot())
        self._history.append(replace(action, hash=h))
        return h

    # ----- state as data -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON-able data; :meth:`from_json` continues it bit-identically."""
        kinds = self._ledger.kinds()
        places = self._ledger.places()
        return {
            "format": FORMAT,
            "version": VERSION,
            "setup": self._setup.to_json(),
            "world": self.world.snapshot(),
            "pieces": {pid: {"kind": kinds[pid], "place": places[pid]} for pid in places},
            "turn": self._turn.to_json(),
            "out": {str(s): r for s, r in sorted(self._out.items())},
            "result": self._result.to_json() if self._result else None,
            "history": self.history,
        }

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """A game saved by :meth:`to_json`. ValueError names the first inconsistent field."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a saved {FORMAT} (format field missing or different)")
        if data.get("version") != VERSION:
            raise ValueError(f"version: expected {VERSION}, got {data.get('version')!r}")
        setup = GameSetup.from_json(data.get("setup"))
        world = _exact_world(data.get("world"))
        raw = data.get("pieces")
        if not isinstance(raw, dict):
            raise ValueError("pieces: expected an object")
        try:
            kinds = {pid: d["kind"] for pid, d in raw.items()}
            places = {pid: d["place"] for pid, d in raw.items()}
        except (KeyError, TypeError):
            raise ValueError("pieces: each piece needs a kind and a place") from None
        _check_box(setup, kinds)
        board = {pid for pid, pl in places.items() if pl == BOARD}
        on_world = {p.id for p in world.pieces}
        if board != on_world:
            diff = sorted(board ^ on_world)
            raise ValueError(f"pieces: board and world disagree about {', '.join(diff[:5])}")
        for p in world.pieces:
            if kinds[p.id] != p.kind:
                raise ValueError(f"pieces.{p.id}.kind: {kinds[p.id]!r} but the world has {p.kind!r}")
            if p.base is not None:
                refused = stack_refusal(world.materials.kinds[p.kind],
                                        world.materials.kinds[world.piece(p.base).kind])
                if refused:
                    raise ValueError(f"world: {p.id} is stacked on {p.base}, but {refused}")
        valid = {BOARD, SUPPLY, *(inventory_place(setup.players, s)
                                  for s in range(len(sides_of(setup.players))))}
        for pid, pl in places.items():
            if pl not in valid:
                raise ValueError(f"pieces.{pid}.place: {pl!r} is not a place in this game")
        try:
            turn = TurnState.from_json(data["turn"])
            out = {int(s): str(r) for s, r in data.get("out", {}).items()}
            result = GameResult.from_json(data["result"]) if data.get("result") else None
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"turn/out/result: malformed ({exc})") from None
        raw_history = data.get("history", [])
        if not isinstance(raw_history, list):
            raise ValueError("history: expected a list")
        history = []
        for i, a in enumerate(raw_history):
            try:
                history.append(action_from_json(a))
            except IllegalMove as exc:
                raise ValueError(f"history[{i}]: {exc}") from None
        game = cls(setup, world, Ledger(kinds, places), turn, out, result, history)
        missing = [pid for s in game.seats for pid in [s.piece_id, *s.wrestler.signature_ids()]
                   if pid not in kinds]
        if missing:
            raise ValueError(f"pieces: missing {', '.join(missing[:5])}")
        return game

    def clone(self, world: World | None = None) -> Game:
        """An independent copy (for search bots): the world is rebuilt from its at-rest state.
        ``world``: a World of the same pieces to use instead (the AI's sketched previews)."""
        if world is not None and {p.id for p in world.pieces} != {p.id for p in self._world.pieces}:
            raise ValueError("clone: the world given holds other pieces than the game's ring")
        twin = Game(self._setup, world or World(self.world.materials, self.world.pieces), self._ledger.copy(),
                    TurnState.from_json(self._turn.to_json()), self._out, self._result,
                    list(self._history))
        twin.names = self.names
        return twin

    def apply(self, action: Action, *, verify: bool = False) -> PushOutcome | MoveOutcome | None:
        """Make ``action`` (a :mod:`kabuto.rules.actions` value): the one way the game changes,
        as python-chess's ``Board.push(move)``. Returns the push's or the move's outcome (None for
        the end of a turn or an edit), and records the action in :attr:`actions` with its seat and
        the ring's state hash. A push never ends the turn by itself: :class:`EndTurn` does (or a
        push that ends the game or puts its seat out).

        IllegalMove, changing nothing, when the rules refuse it. A ``seat`` in the action must be
        the seat to play. With ``verify``, an action carrying a recorded ``hash`` must reach that
        state (ReplayError otherwise).
        """
        seat = getattr(action, "seat", None)
        if seat is not None and not isinstance(action, Move) and seat != self.current_seat:
            raise IllegalMove(f"recorded for seat {seat}, but it is seat {self.current_seat}'s turn",
                              "not_your_turn", seat=self.current_seat)
        got: str | None = None
        outcome: PushOutcome | MoveOutcome | None = None
        if isinstance(action, PushAction):
            outcome = self._push(action)
            got = outcome.state_hash
        elif isinstance(action, Move):
            outcome = self._use_move(action)
            got = outcome.state_hash
        elif isinstance(action, EndTurn):
            self._end_turn()
        elif isinstance(action, Edit):
            got = self._edit(action)
        else:
            raise IllegalMove(f"not an action: {type(action).__name__}", "bad_field", field="action")
        want = getattr(action, "hash", None)
        if verify and got is not None and want is not None and want != got:
            raise ReplayError(f"{action.type} action: the world differs from the recording "
                              f"(hash {got[:12]} != {want[:12]})")
        return outcome

    def adopt_state(self, pieces: list[PieceState]) -> str:
        """Put the pieces exactly where a recording says the last action left them, and return the
        new state hash (the last history entry that has one takes it).

        For a replay played on another CPython, CPU or build, whose pushes land a rounding error
        away from the recording: the game goes on from the recorded state, so the next push starts
        where it started when it was played. Only poses may differ: the same pieces on the ring,
        of the same kinds, on the same bases (ValueError otherwise, nothing changed), since what
        fell and who scored follow from the push as the rules saw it.
        """
        now = {p.id: (p.kind, p.base) for p in self.world.pieces}
        if {p.id: (p.kind, p.base) for p in pieces} != now or len(pieces) != len(now):
            raise ValueError("the recorded state has other pieces, kinds or stacks than this one")
        by_id = {p.id: p for p in pieces}
        world = World(self.world.materials, [by_id[pid] for pid in now])  # the same order
        h = state_hash(world.snapshot())
        self._world = world
        # The action's own entry: a move that ends the turn is followed by an end_turn (no hash).
        for i in range(len(self._history) - 1, -1, -1):
            entry = self._history[i]
            if isinstance(entry, (PushAction, Move, Edit)) and entry.hash is not None:
                self._history[i] = replace(entry, hash=h)
                break
        return h


    @classmethod
    def replay(cls, setup: GameSetup | dict[str, Any], actions: list[Action] | list[dict[str, Any]],
               verify: bool = True) -> Game:
        """The game ``setup`` leads to after ``actions`` (a :attr:`history`). Raises ReplayError
        naming the first action that is refused or, with ``verify``, reaches another state."""
        game = cls.from_setup(setup)
        for i, a in enumerate(actions):
            try:
                game.apply(a if not isinstance(a, dict) else action_from_json(a), verify=verify)
            except ValueError as exc:
                raise ReplayError(f"action {i}: {exc}") from None
        return game

    # ----- asking before acting (front ends) ------------------------------------------------------
    @property
    def pushes_left(self) -> int:
        """Pushes the turn still allows (0 once made, after a move that replaced the turn, or at the
        end). More than one is left only after a move like Rhino Rita's Charge."""
        t = self._turn
        return 0 if self._push_refusal() else t.pushes_allowed - t.pushes

    @property
    def can_push(self) -> bool:
        """Whether the side to move may push now and has something to push: while this holds, its
        turn is not done (a second push after Charge is still to come)."""
        return bool(self.legal_pieces())

    def check_push(self, piece_or_kind: str, entry_deg: float, heading_deg: float = 0.0,
                   speed: float = 0.3, spin_deg: float = 0.0) -> Push:
        """The push :meth:`push` would make, checked as it checks it (whose turn, the inventory,
        the platform kept for a second push, the platform's spot on the ring) but not simulated:
        cheap enough for every aim change. IllegalMove says why not."""
        return self._prepare_push(piece_or_kind, entry_deg, heading_deg, speed, spin_deg)[1]

    def _measured_from(self, seat: int, specs: list[TargetSpec]) -> tuple[TargetSpec, ...]:
        """Directions and distances an effect does not measure from a piece of its own are measured
        from the mover's wrestler piece (while it is on the ring)."""
        wid = self._seats[seat].piece_id
        home = wid if wid in self.world else None
        return tuple(replace(sp, origin=home) if sp.kind in ("angle_deg", "distance_mm")
                     and sp.origin is None else sp for sp in specs)

    # ----- text ----------------------------------------------------------------------------------
    def count_text(self, kind: str, n: int) -> str:
        """'2 small discs', '1 Horn Bar', '3 Gems'."""
        name = self.kind_name(kind)
        return f"{n} {name}" + ("s" if n != 1 and not name.endswith("s") else "")

    def describe_place(self, place: str) -> str:
        """A place in words: "seat 0 (Goliath Gus)'s inventory", "team 1's inventory", "the
        supply", "the board" (seats and teams as :attr:`names` calls them)."""
        try:
            p = parse_place(place)
        except ValueError:
            return place
        if p.number is None:
            return f"the {p.kind}"
        if p.kind == "team":
            return f"{self.names.team(p.number)}'s inventory"
        return f"{self.seat_label(p.number)}'s inventory" if p.number < self.players else place

    def status(self) -> str:
        """A few lines on the state: whose turn, inventories, the result."""
        lines = []
        if self._result:
            lines.append(f"Game over: {self._result.text}.")
        else:
            t = self._turn
            lines.append(f"Turn {t.number}: {self.seat_label(t.seat)} to play.")
        for side in range(len(self._sides)):
            c = self._ledger.contents(self.inventory_place(side))
            inv = ", ".join(self.count_text(k, n) for k, n in sorted(c.items())) or "empty"
            lines.append(f"  {self.describe_place(self.inventory_place(side))}: {inv}")
        return "\n".join(lines)

    #: How texts name seats and teams (a front end's own words; the engine's by default). Words
    #: only: not saved, and no rule depends on them (:mod:`kabuto.rules.naming`).
    names: SeatNames = ENGINE_NAMES

    def seat_label(self, seat: int) -> str:
        """A seat in texts: "seat 0 (Goliath Gus)", or "Red (Goliath Gus)" with the table's names."""
        return f"{self.names.seat(seat)} ({self._seats[seat].wrestler.name})"

    def result_text(self, result: GameResult | None = None) -> str:
        """How the game ended (default: this game's result; "" while it goes on), in the current
        :attr:`names`; :attr:`GameResult.text` keeps the engine's words."""
        r = self._result if result is None else result
        if r is None:
            return ""
        named = (*r.seats, *r.fallen, *(() if r.actor is None else (r.actor,)))
        if r.actor is None or not all(0 <= q < self.players for q in named):
            return r.text  # saved before results named their seats
        return self._result_words(r.reason, r.seats, r.actor, r.fallen, self.names)

    def _ending(self, winner: int | None, seats: tuple[int, ...], reason: Reason, actor: int,
                fallen: list[int]) -> GameResult:
        """The result ``actor``'s action (or empty inventory) gives, its text in the engine's words."""
        text = self._result_words(reason, seats, actor, tuple(fallen), ENGINE_NAMES)
        return GameResult(winner, seats, reason, text, actor, tuple(fallen))

    def _result_words(self, reason: Reason, seats: tuple[int, ...], actor: int, fallen: tuple[int, ...],
                      names: SeatNames) -> str:
        me = f"{names.seat(actor)} ({self._seats[actor].wrestler.name})"
        if reason == SUBMISSION:
            who = names.team(self.side_of(actor)) if self.players == 4 else me
            return f"{who} has no pieces left and cannot take a turn: submission"
        if reason == LAST_STANDING:
            how = "knocked out their own wrestler" if fallen else "ran out of pieces"
            last = f"{names.seat(seats[0])} ({self._seats[seats[0]].wrestler.name})"
            return f"{me} {how}; {last} is the last one standing and wins"
        if reason == DRAW:
            return f"{me} knocked out their own wrestler and every other still in the game: a draw"
        if reason == OWN_KNOCKOUT:
            whose = "their own wrestler" if fallen == (actor,) else "their team's wrestler"
            return f"{me} knocked out {whose} and lost"
        return f"{me} knocked out {', '.join(self._seats[q].wrestler.name for q in fallen)} and won"

    def __repr__(self) -> str:
        state = self._result.text if self._result else f"turn {self._turn.number}, seat {self.current_seat}"
        return f"<kabuto.Game {self.players}P {'/'.join(self._setup.wrestlers)}: {state}>"


class _EffectContext:
    """The :class:`~kabuto.rules.moves.MoveContext` a game hands its moves' checks and effects:
    reading passes through to the game; the changes are the game's private ones, which only an
    action's checkpoint (and so the history) surrounds."""

    def __init__(self, game: Game):
        self._game = game

    @property
    def players(self) -> int:
        return self._game.players

    @property
    def world(self) -> World:
        return self._game.world

    @property
    def ledger(self) -> LedgerView:
        return self._game.ledger

    @property
    def materials(self) -> Materials:
        return self._game.materials

    @property
    def turn(self) -> TurnState:
        return self._game.turn

    def side_of(self, seat: int) -> int:
        return self._game.side_of(seat)

    def active_seats(self) -> list[int]:
        return self._game.active_seats()

    def seat_inventory(self, seat: int) -> str:
        return self._game.seat_inventory(seat)

    def inventory_place(self, side: int) -> str:
        return self._game.inventory_place(side)

    def kind_name(self, kind: str) -> str:
        return self._game.kind_name(kind)

    def is_wrestler_piece(self, pid: str) -> bool:
        return self._game.is_wrestler_piece(pid)

    def wrestler_piece(self, seat: int) -> str:
        return self._game.wrestler_piece(seat)

    def signature_kind(self, seat: int, key: str) -> str:
        return self._game.signature_kind(seat, key)

    def push_source(self) -> str:
        return self._game.push_source()

    def stack_refusal(self, kind: str, base: str) -> str | None:
        return self._game.stack_refusal(kind, base)

    # ----- the changes a move may make -------------------------------------------------------------
    def move_pieces(self, pids: Iterable[str] | str, to: str) -> None:
        self._game._ledger.move(pids, to)

    def grant_extra_push(self, kind: str | None = None) -> None:
        """One more push this turn (Rhino Rita's Charge); with ``kind``, the pushes after the
        turn's first must be of that kind."""
        self._game._turn.pushes_allowed += 1
        self._game._turn.later_kind = kind

    def take_pushes_from(self, side: int) -> None:
        """This turn's pushes come from ``side``'s inventory (Smokescreen)."""
        self._game._turn.push_from = side

    def stack(self, pid: str, base: str) -> None:
        self._game._stack(pid, base)

    def knock_out(self, seat: int, pid: str, gain: bool) -> list[Knockout]:
        return self._game._knock_out(seat, pid, gain)


__all__ = ["Game", "GameSetup", "MovePreview", "Seat", "IllegalMove", "ReplayError", "exact_materials"]
