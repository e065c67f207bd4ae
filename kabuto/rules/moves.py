"""Signature moves as named effects, acting on a game through its public methods.

A move's card data (:class:`kabuto.rules.specs.MoveSpec`) names an *effect* here (a key of
:data:`EFFECTS`) and its cost. Using a move (:meth:`kabuto.Game.use_move`) runs, on the game:

1. the rules every move shares (your turn, at most once per turn, "replaces your turn"),
2. :meth:`Effect.precheck` - can it be performed at all now (e.g. "If the piece is not in the
   supply, the move cannot be performed"),
3. the cost: **Pay** (give the pieces to an opponent's inventory), **Stack** (stack them on a board
   piece their size or larger) or **Discard** (return them to the supply),
4. :meth:`Effect.perform` on the world.

The game takes a checkpoint first and puts everything back if any step raises
:class:`~kabuto.rules.errors.IllegalMove`, so a refused move changes nothing.

Effects see the game as a :class:`MoveContext`: the public :class:`kabuto.Game` methods listed
there, its :class:`physics.World` (``world``) and its :class:`~kabuto.rules.inventory.Ledger`
(``ledger``), and nothing else. This module imports neither the game nor the wrestler cards (the
card parser imports :data:`EFFECTS` to check the effect names a card uses).

Targets are keyword arguments of ``use_move``; :func:`target_specs` lists them with their kinds
(``seat``, ``piece``, ``angle_deg``, ``distance_mm``) and, where they can be listed, their choices:

* ``opponent`` (seat) - who is paid, or whose inventory Smokescreen pushes from (asked only in 3P;
  2P has one opponent and in 4P the opposing team is paid);
* ``base`` (piece) - what a Stack cost or a stacking effect goes on;
* ``piece`` (piece) - the piece an effect acts on;
* ``angle_deg`` - a direction on the ring (0 = +x, counter-clockwise);
* ``distance_mm`` - how far to slide.

Touching is :meth:`physics.World.touching` (contact in the world), the centre circle is
:meth:`physics.World.in_circle`, stacking is :meth:`kabuto.Game.stack` (the stacking rule, then
:meth:`physics.World.place` with ``base``), moving and turning is :meth:`physics.World.move`.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from kabuto.rules.actions import Target
from kabuto.rules.errors import IllegalMove
from kabuto.rules.inventory import BOARD, STANDARD_KINDS, SUPPLY, LedgerView
from kabuto.rules.outcomes import Knockout, TurnState
from kabuto.rules.specs import MoveSpec
from kabuto_base.numbers import finite_number
from physics import Materials, World, shapes
from physics.numeric import bisect

#: A move's targets as its :class:`~kabuto.rules.actions.Move` action carries them.
Targets = Mapping[str, Target]


class MoveContext(Protocol):
    """What a move's checks, cost and effect are handed: the game to read, and the only changes a
    move may make. :class:`kabuto.Game` hands one to a move inside ``use_move``'s checkpoint, so
    every change lands in the history with the move's state hash (or is undone if it is refused);
    the game itself has no public method that changes pieces outside an action."""

    @property
    def players(self) -> int: ...
    @property
    def world(self) -> World: ...
    @property
    def ledger(self) -> LedgerView: ...
    @property
    def materials(self) -> Materials: ...
    @property
    def turn(self) -> TurnState: ...
    def side_of(self, seat: int) -> int: ...
    def active_seats(self) -> list[int]: ...
    def seat_inventory(self, seat: int) -> str: ...
    def inventory_place(self, side: int) -> str: ...
    def kind_name(self, kind: str) -> str: ...
    def is_wrestler_piece(self, pid: str) -> bool: ...
    def wrestler_piece(self, seat: int) -> str: ...
    def signature_kind(self, seat: int, key: str) -> str: ...
    def push_source(self) -> str: ...
    # ----- the changes a move may make ---------------------------------------------------------
    def move_pieces(self, pids: Iterable[str] | str, to: str) -> None: ...
    def grant_extra_push(self, kind: str | None = None) -> None: ...
    def take_pushes_from(self, side: int) -> None: ...
    def stack_refusal(self, kind: str, base: str) -> str | None: ...
    def stack(self, pid: str, base: str) -> None: ...
    def knock_out(self, seat: int, pid: str, gain: bool) -> list[Knockout]: ...


#: Slides are swept in steps this long, then the stopping point is found by bisection.
SLIDE_STEP = 0.0005


@dataclass(frozen=True)
class TargetSpec:
    """One target a move needs: the keyword, what kind of value, and the allowed values now.
    ``origin``: for a direction or a distance, the board piece it is measured from (what a front
    end draws the direction out of), when there is one: the piece the effect names, else (filled
    in by :meth:`kabuto.Game.available_moves`) the mover's wrestler piece."""

    name: str
    kind: str
    text: str
    choices: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None
    origin: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "text": self.text, "choices": list(self.choices),
                "low": self.low, "high": self.high, "origin": self.origin}


@dataclass(frozen=True)
class MoveOption:
    """A signature move a seat could use, with its targets, and why not if it cannot now."""

    seat: int
    wrestler: str
    name: str
    text: str
    replaces_turn: bool
    targets: tuple[TargetSpec, ...]
    usable: bool
    reason: str | None
    #: The rules' refusal behind ``reason`` (its code and fields, for a front end's own words).
    refusal: IllegalMove | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "wrestler": self.wrestler, "name": self.name, "text": self.text,
                "replaces_turn": self.replaces_turn, "targets": [t.to_json() for t in self.targets],
                "usable": self.usable, "reason": self.reason}


@dataclass
class MoveReport:
    """What a move did, filled in while it runs."""

    paid: dict[str, str] = field(default_factory=dict)
    gained: list[str] = field(default_factory=list)
    placed: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    knocked_out: list[Knockout] = field(default_factory=list)


# ----- helpers ------------------------------------------------------------------------------------
def _kind_of(game: MoveContext, seat: int, piece: str) -> str:
    """The kind an effect's ``piece`` parameter names: a standard kind, or the seat's signature piece."""
    if piece in STANDARD_KINDS:
        return piece
    return game.signature_kind(seat, piece)


def _number(v: Any, name: str) -> float:
    return finite_number(v, name, IllegalMove)


def opponent_side(game: MoveContext, seat: int, targets: Targets) -> int:
    """The opposing side a Pay goes to (and Smokescreen pushes from).

    2P: the other seat. 4P: the other team. 3P: the ``opponent`` target, a player still in the game.
    """
    side = game.side_of(seat)
    if game.players != 3:
        return 1 - side
    if "opponent" not in targets:
        raise IllegalMove("choose which opponent: opponent=<seat>", "choose_target", target="opponent",
                          choose="which opponent")
    opp = targets["opponent"]
    choices = _opponent_choices(game, seat)
    if not isinstance(opp, int) or isinstance(opp, bool) or opp not in choices:
        raise IllegalMove(f"opponent={opp!r}: choose one of the seats still playing against you "
                          f"({', '.join(map(str, choices))})", "choose_target", target="opponent",
                          choose="an opponent still playing")
    return game.side_of(opp)


def _slide_distance(targets: Targets, move: MoveSpec) -> float:
    """The ``distance_mm`` target of a slide "up to ``max_mm``": more than 0, at most the card's."""
    dist = _number(targets.get("distance_mm"), "distance_mm")
    if not 0.0 < dist <= move.params["max_mm"]:
        raise IllegalMove(f"{move.name} slides more than 0 and up to {move.params['max_mm']:g} mm "
                          f"(asked for {dist:g} mm)", "slide_range", move=move.name,
                          max_mm=move.params["max_mm"])
    return dist


def _opponent_choices(game: MoveContext, seat: int) -> tuple[int, ...]:
    return tuple(q for q in game.active_seats() if q != seat)


def _needs_opponent(move: MoveSpec) -> bool:
    return any(c.action == "pay" for c in move.cost) or move.effect == "push_from_opponent"


def _beside_own_wrestler(game: MoveContext, seat: int) -> list[str]:
    """Pieces on the ring surface touching ``seat``'s wrestler piece (none if it is off the ring)."""
    wid = game.wrestler_piece(seat)
    if wid not in game.world:
        return []
    return [q for q in game.world.touching(wid) if game.world.piece(q).base is None]


def _stack_base_choices(game: MoveContext, kind: str) -> tuple[str, ...]:
    """Board pieces the rules let a ``kind`` be stacked on (the same size or larger, no wrestler)."""
    return tuple(p.id for p in game.world.pieces if game.stack_refusal(kind, p.id) is None)


def target_specs(game: MoveContext, seat: int, move: MoveSpec) -> list[TargetSpec]:
    """Every target ``move`` needs from ``seat`` now: the cost's, then the effect's."""
    out: list[TargetSpec] = []
    if game.players == 3 and _needs_opponent(move):
        out.append(TargetSpec("opponent", "seat", "the opponent who is paid",
                              _opponent_choices(game, seat)))
    for c in move.cost:
        if c.action == "stack":
            out.append(TargetSpec("base", "piece", f"the board piece the {c.kind} discs are stacked on",
                                  _stack_base_choices(game, c.kind)))
    out.extend(EFFECTS[move.effect].targets(game, seat, move))
    return out


def check_cost(game: MoveContext, seat: int, move: MoveSpec) -> None:
    """IllegalMove unless the seat's inventory holds everything the cost lists."""
    place = game.seat_inventory(seat)
    need: dict[str, int] = {}
    for c in move.cost:
        need[c.kind] = need.get(c.kind, 0) + c.count
    for kind, n in need.items():
        have = game.ledger.count(place, kind)
        if have < n:
            raise IllegalMove(f"{move.name} costs {n} {kind} disc(s) and your inventory has {have}",
                              "cannot_pay", move=move.name, kind=kind, count=n, have=have)


def pay_cost(game: MoveContext, seat: int, move: MoveSpec, targets: Targets, report: MoveReport) -> None:
    """Pay, stack and discard the cost (lowest ids of each kind first)."""
    check_cost(game, seat, move)
    place = game.seat_inventory(seat)
    for c in move.cost:
        ids = game.ledger.pick(place, c.kind, c.count, "your inventory")
        if c.action == "pay":
            to = game.inventory_place(opponent_side(game, seat, targets))
            game.move_pieces(ids, to)
            report.paid.update({pid: to for pid in ids})
        elif c.action == "discard":
            game.move_pieces(ids, SUPPLY)
            report.paid.update({pid: SUPPLY for pid in ids})
        else:  # stack: the first on the base, each next one on the one before
            base = targets.get("base")
            if not isinstance(base, str) or base not in game.world:
                raise IllegalMove(f"base={base!r}: choose a piece on the board to stack on", "choose_target",
                                  target="base", choose="a piece on the board to stack on")
            under = base
            for pid in ids:
                game.stack(pid, under)
                report.paid[pid] = BOARD
                report.placed.append(pid)
                under = pid


def slide(game: MoveContext, seat: int, pid: str, ux: float, uy: float, max_d: float,
          report: MoveReport) -> float:
    """Slide ``pid`` (and what is stacked on it) up to ``max_d`` metres along (ux, uy).

    It stops just short of the first piece in its way. If its centre crosses the ring's edge first,
    it falls: knocked out, not by a push, so it goes to the supply (signature pieces in the Junior
    League to their wrestler's inventory). Returns the distance it travelled.
    """
    world = game.world
    p = world.piece(pid)
    x0, y0 = p.x, p.y
    R = world.ring.radius
    carried = [pid, *world.riders(pid)]
    done = 0.0
    steps = max(1, math.ceil(max_d / SLIDE_STEP))
    for i in range(1, steps + 1):
        d = min(i * SLIDE_STEP, max_d)
        x, y = x0 + ux * d, y0 + uy * d
        if math.hypot(x, y) > R:
            report.knocked_out.extend(game.knock_out(seat, pid, gain=False))
            return d
        try:
            world.move(pid, x, y)
        except ValueError:
            def blocked(s: float) -> bool:  # a move that fits is kept: the piece ends at ``done``
                try:
                    world.move(pid, x0 + ux * s, y0 + uy * s)
                    return False
                except ValueError:
                    return True

            done, _ = bisect(blocked, done, d, 14)
            break
        done = d
    if done > 0:
        report.moved.extend(q for q in carried if q not in report.moved)
    return done


# ----- effects ------------------------------------------------------------------------------------
class Effect:
    """A kind of move effect. Subclasses say which targets they need and what they do."""

    type = ""

    def targets(self, game: MoveContext, seat: int, move: MoveSpec) -> list[TargetSpec]:
        return []

    def precheck(self, game: MoveContext, seat: int, move: MoveSpec) -> None:
        """Raise IllegalMove if the move cannot be performed now, whatever the targets."""

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        raise NotImplementedError


class PickPiece(Effect):
    """An effect on one board piece the player picks (target ``piece``) from those the effect
    lists in ``_choices``; subclasses say what the choices are and what ``_act`` does with one."""

    #: How the target reads ("a piece touching ..."), what is said when there is nothing to pick,
    #: and what a wrong pick is told to choose.
    what = ""
    nothing = ""
    pick = ""

    def _choices(self, game: MoveContext, seat: int) -> tuple[str, ...]:
        raise NotImplementedError

    def _act(self, game: MoveContext, seat: int, move: MoveSpec, pid: str,
             report: MoveReport) -> None:
        raise NotImplementedError

    def targets(self, game: MoveContext, seat: int, move: MoveSpec) -> list[TargetSpec]:
        return [TargetSpec("piece", "piece", self.what, self._choices(game, seat))]

    def precheck(self, game: MoveContext, seat: int, move: MoveSpec) -> None:
        if not self._choices(game, seat):
            raise IllegalMove(self.nothing, "nothing_to_pick", move=move.name, nothing=self.nothing)

    def _picked(self, game: MoveContext, seat: int, targets: Targets) -> str:
        """The ``piece`` target, checked against the choices."""
        pid = targets.get("piece")
        choices = self._choices(game, seat)
        if not isinstance(pid, str) or pid not in choices:
            raise IllegalMove(f"piece={pid!r}: choose {self.pick} ({', '.join(choices) or 'none'})",
                              "choose_target", target="piece", choose=self.pick)
        return pid

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        self._act(game, seat, move, self._picked(game, seat, targets), report)


class Gain(Effect):
    """Add/Gain: take one piece of the listed kind from the supply into your inventory."""

    type = "gain"

    def precheck(self, game: MoveContext, seat: int, move: MoveSpec) -> None:
        kind = _kind_of(game, seat, move.params["piece"])
        if not game.ledger.pieces_in(SUPPLY, kind):
            raise IllegalMove(f"the supply has no {game.kind_name(kind)}, so {move.name} "
                              f"cannot be performed", "not_in_supply", move=move.name, kind=kind)

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        self.precheck(game, seat, move)
        kind = _kind_of(game, seat, move.params["piece"])
        pid = game.ledger.pieces_in(SUPPLY, kind)[0]
        game.move_pieces(pid, game.seat_inventory(seat))
        report.gained.append(pid)


class CentreKnockout(Effect):
    """Vice Grip: knock out a piece any part of which is inside (or touching) the centre circle,
    with everything stacked on it; standard discs knocked out join your inventory.

    The card leaves two things open, and its effect data says how they are read:

    * ``pick``: "immediately knock out that piece" is each such piece (``"every"``, the default)
      or one the player picks (``"one"``, the shipped card since issue 16): the ``piece`` target
      is one piece in the circle, and only it (with its stack) is knocked out;
    * ``wrestlers``: whether "a piece" takes in wrestler pieces. The shipped card says ``false``
      (issue 42): the rulebook wins a game by *pushing* a wrestler out, the card's pay-off is the
      standard discs, and with wrestlers gripped one push from behind the opposing wrestler and a
      grip won most games on turn 1 or 2 on every board tried (docs/rules-notes.md, "Vice Grip
      grips discs"). ``true`` is the reading before; :func:`grips_wrestlers` tells the AI which
      is in force."""

    type = "centre_knockout"

    @staticmethod
    def _picks_one(move: MoveSpec) -> bool:
        pick = move.params.get("pick", "every")
        if pick not in ("every", "one"):
            raise ValueError(f"{move.name}: effect.pick must be 'every' or 'one', got {pick!r}")
        return pick == "one"

    @staticmethod
    def _inside(game: MoveContext, move: MoveSpec) -> list[str]:
        """The pieces in the circle the move may take, in id order."""
        inside = game.world.in_circle()
        if not grips_wrestlers(move):
            inside = [q for q in inside if not game.is_wrestler_piece(q)]
        return sorted(inside)

    def targets(self, game: MoveContext, seat: int, move: MoveSpec) -> list[TargetSpec]:
        if not self._picks_one(move):
            return []
        return [TargetSpec("piece", "piece", self._what(move), tuple(self._inside(game, move)))]

    @staticmethod
    def _what(move: MoveSpec) -> str:
        return ("a piece inside the centre circle" if grips_wrestlers(move)
                else "a piece inside the centre circle (not a wrestler)")

    def precheck(self, game: MoveContext, seat: int, move: MoveSpec) -> None:
        if not self._inside(game, move):
            what = "piece" if grips_wrestlers(move) else "piece other than a wrestler"
            raise IllegalMove(f"no {what} is inside the centre circle, so {move.name} would do nothing",
                              "centre_empty", move=move.name)

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        self.precheck(game, seat, move)
        inside = self._inside(game, move)
        if self._picks_one(move):
            pid = targets.get("piece")
            if not isinstance(pid, str) or pid not in inside:
                raise IllegalMove(f"piece={pid!r}: choose {self._what(move)} ({', '.join(inside)})",
                                  "choose_target", target="piece", choose=self._what(move))
            report.knocked_out.extend(game.knock_out(seat, pid, gain=True))
            return
        levels = game.world.levels()
        for pid in sorted(inside, key=lambda q: (levels[q], q)):
            if pid in game.world:  # not already gone with a piece it was stacked on
                report.knocked_out.extend(game.knock_out(seat, pid, gain=True))


def grips_wrestlers(move: MoveSpec) -> bool:
    """Whether ``move`` knocks out a wrestler piece in the centre circle (Vice Grip read with
    ``wrestlers = true``): a push that drives an opposing wrestler in is then a threat to win."""
    if move.effect != CentreKnockout.type:
        return False
    took = move.params.get("wrestlers", False)
    if not isinstance(took, bool):
        raise ValueError(f"{move.name}: effect.wrestlers must be true or false, got {took!r}")
    return took


class SlideFromWrestler(PickPiece):
    """Pitchfork: slide a piece touching your wrestler straight away from it."""

    type = "slide_from_wrestler"
    what = "a piece touching your wrestler piece (not a wrestler)"
    nothing = "no piece (other than a wrestler) is touching your wrestler piece"
    pick = "a piece touching your wrestler piece"

    def _choices(self, game: MoveContext, seat: int) -> tuple[str, ...]:
        return tuple(q for q in _beside_own_wrestler(game, seat) if not game.is_wrestler_piece(q))

    def targets(self, game: MoveContext, seat: int, move: MoveSpec) -> list[TargetSpec]:
        # "Slide it ... up to 20 mm": the player says how far, as with Roll (docs/rules-notes.md).
        return [*super().targets(game, seat, move),
                TargetSpec("distance_mm", "distance_mm", "how far to slide it (mm)", low=0.0,
                           high=float(move.params["max_mm"]))]

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        pid = self._picked(game, seat, targets)
        dist = _slide_distance(targets, move)
        w = game.world.piece(game.wrestler_piece(seat))
        p = game.world.piece(pid)
        dx, dy = p.x - w.x, p.y - w.y
        n = math.hypot(dx, dy) or 1.0
        moved = slide(game, seat, pid, dx / n, dy / n, dist / 1000.0, report)
        if moved <= 0.0:
            raise IllegalMove(f"{pid} cannot slide: another piece is right behind it", "slide_blocked",
                              piece=pid)


class ExtraPush(Effect):
    """Charge: one more push this turn, from the same platform position; with ``kind``, the second
    push must be a piece of that kind ("a small disc")."""

    type = "extra_push"

    def precheck(self, game: MoveContext, seat: int, move: MoveSpec) -> None:
        kind = move.params.get("kind")
        if not game.ledger.pieces_in(game.push_source(), kind):
            if kind:
                raise IllegalMove(f"you have no {game.kind_name(kind)} to push a second time",
                                  "no_second_push", move=move.name, kind=kind)
            raise IllegalMove("you have nothing left to push a second time", "no_second_push",
                              move=move.name)

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        self.precheck(game, seat, move)
        game.grant_extra_push(move.params.get("kind"))


class TurnWrestler(Effect):
    """Horn Hook: turn your wrestler piece to face ``angle_deg``."""

    type = "turn_wrestler"

    def targets(self, game: MoveContext, seat: int, move: MoveSpec) -> list[TargetSpec]:
        return [TargetSpec("angle_deg", "angle_deg", "the direction your wrestler piece faces",
                           low=-180.0, high=180.0)]

    def precheck(self, game: MoveContext, seat: int, move: MoveSpec) -> None:
        if game.wrestler_piece(seat) not in game.world:
            raise IllegalMove("your wrestler piece is not on the ring", "wrestler_off_ring", move=move.name)

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        angle = math.radians(_number(targets.get("angle_deg"), "angle_deg"))
        wid = game.wrestler_piece(seat)
        w = game.world.piece(wid)
        try:
            game.world.move(wid, w.x, w.y, angle)
        except ValueError as exc:
            raise IllegalMove(f"your wrestler piece cannot turn that way: {exc}", "does_not_fit",
                              move=move.name) from None
        report.moved.append(wid)


class KnockoutTouchingOpponent(PickPiece):
    """Body Slam: knock out one standard disc touching an opponent's wrestler piece (with what is
    stacked on it); standard discs knocked out join your inventory."""

    type = "knockout_touching_opponent"
    what = "a standard disc touching an opponent's wrestler piece"
    nothing = "no standard disc is touching an opponent's wrestler piece"
    pick = what

    def _choices(self, game: MoveContext, seat: int) -> tuple[str, ...]:
        side = game.side_of(seat)
        found: set[str] = set()
        for other in range(game.players):
            wid = game.wrestler_piece(other)
            if game.side_of(other) != side and wid in game.world:
                found |= {q for q in game.world.touching(wid) if game.ledger.kind(q) in STANDARD_KINDS}
        return tuple(sorted(found))

    def _act(self, game: MoveContext, seat: int, move: MoveSpec, pid: str,
             report: MoveReport) -> None:
        report.knocked_out.extend(game.knock_out(seat, pid, gain=True))


class PlaceOn(Effect):
    """Boulder Drop: take a signature piece from the supply and stack it on a board piece of
    ``base_kind``."""

    type = "place_on"

    def _choices(self, game: MoveContext, seat: int, move: MoveSpec) -> tuple[str, ...]:
        kind = _kind_of(game, seat, move.params["piece"])
        ok = set(_stack_base_choices(game, kind))
        return tuple(p.id for p in game.world.pieces if p.kind == move.params["base_kind"] and p.id in ok)

    def targets(self, game: MoveContext, seat: int, move: MoveSpec) -> list[TargetSpec]:
        return [TargetSpec("base", "piece", f"a {move.params['base_kind']} disc on the board",
                           self._choices(game, seat, move))]

    def precheck(self, game: MoveContext, seat: int, move: MoveSpec) -> None:
        kind = _kind_of(game, seat, move.params["piece"])
        if not game.ledger.pieces_in(SUPPLY, kind):
            raise IllegalMove(f"the {game.kind_name(kind)} is not in the supply", "not_in_supply",
                              move=move.name, kind=kind)
        if not self._choices(game, seat, move):
            raise IllegalMove(f"there is no {move.params['base_kind']} disc on the board to stack on",
                              "no_base", move=move.name, kind=move.params["base_kind"])

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        self.precheck(game, seat, move)
        base = targets.get("base")
        if base not in self._choices(game, seat, move):
            raise IllegalMove(f"base={base!r}: choose a {move.params['base_kind']} disc on the board",
                              "choose_target", target="base", choose=f"a {move.params['base_kind']} disc on the board")
        kind = _kind_of(game, seat, move.params["piece"])
        pid = game.ledger.pieces_in(SUPPLY, kind)[0]
        game.stack(pid, base)
        report.placed.append(pid)


class SwapWithTouching(PickPiece):
    """Mirror Shell: your wrestler piece and a standard disc touching it swap places."""

    type = "swap_with_touching"
    what = "a standard disc touching your wrestler piece, with nothing stacked on it"
    nothing = "no standard disc (with nothing stacked on it) is touching your wrestler piece"
    pick = "a standard disc touching your wrestler piece"

    def _choices(self, game: MoveContext, seat: int) -> tuple[str, ...]:
        return tuple(q for q in _beside_own_wrestler(game, seat)
                     if game.ledger.kind(q) in STANDARD_KINDS and not game.world.riders(q))

    def _act(self, game: MoveContext, seat: int, move: MoveSpec, pid: str,
             report: MoveReport) -> None:
        world = game.world
        wid = game.wrestler_piece(seat)
        w, d = world.piece(wid), world.piece(pid)
        world.remove(wid)
        world.remove(pid)
        try:
            world.place(wid, w.kind, d.x, d.y, w.angle)
            world.place(pid, d.kind, w.x, w.y, d.angle)
        except ValueError as exc:
            raise IllegalMove(f"the swap does not fit: {exc}", "does_not_fit", move=move.name) from None
        report.moved.extend([wid, pid])


class PlaceTouchingWrestler(Effect):
    """Roll Up: put a signature piece from the supply on the ring, touching your wrestler piece, on
    the side ``angle_deg`` points to (measured from the wrestler piece's centre)."""

    type = "place_touching_wrestler"

    def targets(self, game: MoveContext, seat: int, move: MoveSpec) -> list[TargetSpec]:
        return [TargetSpec("angle_deg", "angle_deg", "the side of your wrestler piece to place it on",
                           low=-180.0, high=180.0)]

    def precheck(self, game: MoveContext, seat: int, move: MoveSpec) -> None:
        kind = _kind_of(game, seat, move.params["piece"])
        if not game.ledger.pieces_in(SUPPLY, kind):
            raise IllegalMove(f"the {game.kind_name(kind)} is not in the supply", "not_in_supply",
                              move=move.name, kind=kind)
        if game.wrestler_piece(seat) not in game.world:
            raise IllegalMove("your wrestler piece is not on the ring", "wrestler_off_ring", move=move.name)

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        self.precheck(game, seat, move)
        a = math.radians(_number(targets.get("angle_deg"), "angle_deg"))
        ux, uy = math.cos(a), math.sin(a)
        kind = _kind_of(game, seat, move.params["piece"])
        pid = game.ledger.pieces_in(SUPPLY, kind)[0]
        world = game.world
        w = world.piece(game.wrestler_piece(seat))
        d = world.clear_distance(w.id, kind, ux, uy, a)  # the closest spot that clears it
        x, y = w.x + ux * d, w.y + uy * d
        # "Place it on the ring": wholly on it, not hanging over the edge (docs/rules-notes.md).
        _, far = shapes.extent_from_origin(game.materials.kinds[kind].shape, x, y, a)
        if far > world.ring.radius:
            raise IllegalMove(f"the {game.kind_name(kind)} would hang over the edge of the ring on "
                              f"that side: choose a side towards the middle", "hangs_over",
                              move=move.name, kind=kind)
        try:
            world.place(pid, kind, x, y, a)
        except ValueError as exc:
            raise IllegalMove(f"the {game.kind_name(kind)} does not fit on that side: {exc}", "does_not_fit",
                              move=move.name) from None
        game.move_pieces(pid, BOARD)
        report.placed.append(pid)


class SlideSignature(Effect):
    """Roll: slide your signature piece on the ring up to ``max_mm`` towards ``angle_deg``."""

    type = "slide_signature"

    def _on_board(self, game: MoveContext, seat: int, move: MoveSpec) -> list[str]:
        kind = _kind_of(game, seat, move.params["piece"])
        return [p.id for p in game.world.pieces if p.kind == kind and p.base is None]

    def targets(self, game: MoveContext, seat: int, move: MoveSpec) -> list[TargetSpec]:
        piece = next(iter(self._on_board(game, seat, move)), None)  # the one perform slides
        return [TargetSpec("angle_deg", "angle_deg", "the direction to slide", low=-180.0, high=180.0,
                           origin=piece),
                TargetSpec("distance_mm", "distance_mm", "how far to slide (mm)", low=0.0,
                           high=float(move.params["max_mm"]), origin=piece)]

    def precheck(self, game: MoveContext, seat: int, move: MoveSpec) -> None:
        if not self._on_board(game, seat, move):
            kind = _kind_of(game, seat, move.params["piece"])
            raise IllegalMove(f"the {game.kind_name(kind)} is not on the ring", "not_on_ring",
                              move=move.name, kind=kind)

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        self.precheck(game, seat, move)
        a = math.radians(_number(targets.get("angle_deg"), "angle_deg"))
        dist = _slide_distance(targets, move)
        pid = self._on_board(game, seat, move)[0]
        moved = slide(game, seat, pid, math.cos(a), math.sin(a), dist / 1000.0, report)
        if moved <= 0.0:
            raise IllegalMove(f"{pid} cannot slide that way: another piece is right in front of it",
                              "slide_blocked", piece=pid)


class PushFromOpponent(Effect):
    """Smokescreen: this turn's pushes come from an opponent's inventory."""

    type = "push_from_opponent"

    def precheck(self, game: MoveContext, seat: int, move: MoveSpec) -> None:
        if game.turn.pushes >= game.turn.pushes_allowed:
            raise IllegalMove("you have no push left this turn", "no_push_left", move=move.name)
        # Offered only when there is something to push: in 3P, some opponent still playing must
        # hold a piece (the chosen one is checked in perform).
        sides = ({game.side_of(q) for q in _opponent_choices(game, seat)} if game.players == 3
                 else {1 - game.side_of(seat)})
        if not any(game.ledger.pieces_in(game.inventory_place(s)) for s in sides):
            whose = "every opponent's inventory is" if len(sides) > 1 else "your opponent's inventory is"
            raise IllegalMove(f"{whose} empty, so {move.name} would leave you nothing to push",
                              "opponent_empty", move=move.name, every=len(sides) > 1)

    def perform(self, game: MoveContext, seat: int, move: MoveSpec, targets: Targets,
                report: MoveReport) -> None:
        self.precheck(game, seat, move)
        side = opponent_side(game, seat, targets)
        # The disc just paid to that opponent does not count: Smokescreen pushes a piece the
        # opponent held, not Bea's own small handed over and taken back.
        held = [p for p in game.ledger.pieces_in(game.inventory_place(side)) if p not in report.paid]
        if not held:
            raise IllegalMove(f"that opponent's inventory is empty, so {move.name} would leave you "
                              f"nothing to push", "opponent_empty", move=move.name, every=False)
        game.take_pushes_from(side)


EFFECTS: dict[str, Effect] = {e.type: e for e in (
    Gain(), CentreKnockout(), SlideFromWrestler(), ExtraPush(), TurnWrestler(),
    KnockoutTouchingOpponent(), PlaceOn(), SwapWithTouching(), PlaceTouchingWrestler(),
    SlideSignature(), PushFromOpponent())}
