"""The four things a player (or an editor) can do to a game, as values.

An action is a frozen record, like python-chess's ``Move``: made once, checked once when it is
made, handed to :meth:`kabuto.Game.apply` (the one way a game changes), kept in
:attr:`kabuto.Game.actions`, written to replays and sent over the network as the same JSON::

    >>> from kabuto.rules.actions import Push, EndTurn, action_from_json
    >>> p = Push("small", entry_deg=180.0)
    >>> p.to_json()
    {'type': 'push', 'piece': 'small', 'entry_deg': 180.0, 'heading_deg': 0.0, 'speed': 0.3, 'spin_deg': 0.0}
    >>> action_from_json(p.to_json()) == p
    True
    >>> action_from_json({"type": "end_turn"})
    EndTurn(seat=None)

* :class:`Push` - push a piece (an id, or a kind: the lowest id of that kind) from the platform.
* :class:`Move` - a signature move by name, with its targets.
* :class:`EndTurn` - end the turn after a push.
* :class:`Edit` - put a piece anywhere (tests, puzzles, the arrange mode): not a game action, but
  recorded so a replay stays exact.

What a player asks for carries no record fields (``seat``, ``kind``, ``hash`` are None). The game's
history holds the same types with them filled in: whose action it was, which kind was pushed, and
the :func:`physics.state_hash` of the ring after it, which a replay checks. :meth:`Push.request`
and friends drop them again.

A malformed action raises :class:`~kabuto.rules.errors.IllegalMove` naming the field (it is a
``ValueError``), so a bad file or message is refused before any rule looks at it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeAlias

from kabuto.rules.errors import IllegalMove
from kabuto_base.numbers import finite_number

#: A move target's value: a number, a piece id, a seat (an int) or nothing.
Target: TypeAlias = "str | int | float | bool | None"


def _num(v: Any, where: str) -> float:
    return finite_number(v, where, IllegalMove)


def _text(v: Any, where: str, what: str) -> str:
    if not isinstance(v, str) or not v:
        raise IllegalMove(f"{where}: expected {what}, got {_shown(v)}")
    return v


def _seat(v: Any, where: str) -> int | None:
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise IllegalMove(f"{where}: expected a seat number, got {_shown(v)}")
    return v


def _hash(v: Any, where: str) -> str | None:
    if v is not None and not isinstance(v, str):
        raise IllegalMove(f"{where}: expected a state hash, got {_shown(v)}")
    return v


def _shown(v: Any) -> str:
    return repr(v[:40]) if isinstance(v, str) else repr(v) if isinstance(v, (int, float)) else type(v).__name__


def _set(obj: object, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)  # normalising a frozen dataclass in __post_init__


@dataclass(frozen=True)
class Push:
    """Push ``piece`` (an id, or a kind such as ``"small"`` or ``"hank_bar"``) from the platform at
    ``entry_deg`` on the ring, aimed ``heading_deg`` off the inward normal, at ``speed`` m/s, the
    piece turned ``spin_deg`` on the platform. ``seat``, ``kind`` and ``hash`` are filled in by the
    game's history (which seat pushed, the kind pushed, the ring's state hash after)."""

    type: ClassVar[str] = "push"
    piece: str
    entry_deg: float
    heading_deg: float = 0.0
    speed: float = 0.3
    spin_deg: float = 0.0
    seat: int | None = None
    kind: str | None = None
    hash: str | None = None

    def __post_init__(self) -> None:
        _text(self.piece, "piece", "a piece id or kind")
        for name in ("entry_deg", "heading_deg", "speed", "spin_deg"):
            _set(self, name, _num(getattr(self, name), name))
        _seat(self.seat, "seat")
        if self.kind is not None:
            _text(self.kind, "kind", "a piece kind")
        _hash(self.hash, "hash")

    def request(self) -> Push:
        """The push as a player asks for it (no record fields)."""
        return replace(self, seat=None, kind=None, hash=None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        out["piece"] = self.piece
        if self.kind is not None:
            out["kind"] = self.kind
        out.update(entry_deg=self.entry_deg, heading_deg=self.heading_deg, speed=self.speed,
                   spin_deg=self.spin_deg)
        if self.hash is not None:
            out["hash"] = self.hash
        return out


@dataclass(frozen=True)
class Move:
    """Use the signature move ``name`` with its ``targets`` (target name -> a number, a piece id or
    a seat; :meth:`kabuto.Game.available_moves` lists what each move takes). ``seat`` and ``hash``
    are filled in by the game's history; a request's ``seat`` (if given) must be the seat to play."""

    type: ClassVar[str] = "move"
    name: str
    targets: Mapping[str, Target] = field(default_factory=dict)
    seat: int | None = None
    hash: str | None = None

    def __post_init__(self) -> None:
        _text(self.name, "name", "a move name")
        if not isinstance(self.targets, Mapping):
            raise IllegalMove(f"targets: expected an object, got {_shown(self.targets)}")
        for k, v in self.targets.items():
            if not isinstance(k, str):
                raise IllegalMove(f"targets: a target name must be text, got {_shown(k)}")
            if v is not None and not isinstance(v, (str, int, float, bool)):
                raise IllegalMove(f"{k}: expected a number, a string or a seat, got {v!r}")
            if isinstance(v, float):
                _num(v, f"targets.{k}")
        _set(self, "targets", _FrozenTargets(self.targets))
        _seat(self.seat, "seat")
        _hash(self.hash, "hash")

    def request(self) -> Move:
        return replace(self, seat=None, hash=None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        out.update(name=self.name, targets=dict(self.targets))
        if self.hash is not None:
            out["hash"] = self.hash
        return out


class _FrozenTargets(dict[str, Any]):
    """A move's targets: a dict that refuses change, so a Move stays a value (and hashes)."""

    def _refuse(self, *_: Any, **__: Any) -> None:
        raise TypeError("a Move's targets cannot change")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:  # pickling re-creates it whole (worker processes)
        return (_FrozenTargets, (dict(self),))

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=lambda kv: kv[0])))


@dataclass(frozen=True)
class EndTurn:
    """End the turn (after a push, or when a move left nothing more to do)."""

    type: ClassVar[str] = "end_turn"
    seat: int | None = None

    def __post_init__(self) -> None:
        _seat(self.seat, "seat")

    def request(self) -> EndTurn:
        return EndTurn()

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type} if self.seat is None else {"type": self.type, "seat": self.seat}


@dataclass(frozen=True)
class Edit:
    """Put ``piece`` in ``place``: "board" (then ``x``, ``y`` in metres, ``angle`` in radians, an
    optional ``base`` to stack on), "supply" or an inventory ("seat:N" / "team:T"). ``hash`` is
    filled in by the game's history."""

    type: ClassVar[str] = "edit"
    piece: str
    place: str
    x: float | None = None
    y: float | None = None
    angle: float = 0.0
    base: str | None = None
    allow_overlap: bool = False
    hash: str | None = None

    def __post_init__(self) -> None:
        _text(self.piece, "piece", "a piece id")
        _text(self.place, "place", "a place")
        for name in ("x", "y"):
            if getattr(self, name) is not None:
                _set(self, name, _num(getattr(self, name), name))
        _set(self, "angle", _num(self.angle, "angle"))
        if self.base is not None:
            _text(self.base, "base", "a piece id")
        if not isinstance(self.allow_overlap, bool):
            raise IllegalMove(f"allow_overlap: expected true or false, got {_shown(self.allow_overlap)}")
        _hash(self.hash, "hash")

    def request(self) -> Edit:
        return replace(self, hash=None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "piece": self.piece, "place": self.place, "x": self.x,
                               "y": self.y, "angle": self.angle, "base": self.base,
                               "allow_overlap": self.allow_overlap}
        if self.hash is not None:
            out["hash"] = self.hash
        return out


Action: TypeAlias = "Push | Move | EndTurn | Edit"

#: type -> (the action class, its required fields, its optional fields)
_SHAPES: dict[str, tuple[type, tuple[str, ...], tuple[str, ...]]] = {
    "push": (Push, ("piece", "entry_deg"), ("heading_deg", "speed", "spin_deg", "seat", "kind", "hash")),
    "move": (Move, ("name",), ("targets", "seat", "hash")),
    "end_turn": (EndTurn, (), ("seat",)),
    "edit": (Edit, ("piece", "place"), ("x", "y", "angle", "base", "allow_overlap", "hash")),
}
ACTION_TYPES = tuple(_SHAPES)


def action_from_json(data: Any) -> Action:
    """The action ``data`` (an :meth:`Push.to_json`-style object) stands for. IllegalMove names
    the first field that is missing, unknown or of the wrong kind.

        >>> action_from_json({"type": "move", "name": "Charge", "targets": {}})
        Move(name='Charge', targets={}, seat=None, hash=None)
        >>> action_from_json({"type": "jump"})
        Traceback (most recent call last):
        ...
        kabuto_base.errors.IllegalMove: type: 'jump' is not one of push, move, end_turn, edit
    """
    if not isinstance(data, dict):
        raise IllegalMove(f"an action must be an object, got {_shown(data)}")
    kind = data.get("type")
    if kind not in _SHAPES:
        raise IllegalMove(f"type: {_shown(kind)} is not one of {', '.join(ACTION_TYPES)}")
    cls, required, optional = _SHAPES[kind]
    for k in required:
        if k not in data:
            raise IllegalMove(f"{kind} action: {k} missing")
    for k in data:
        if k != "type" and k not in required and k not in optional:
            raise IllegalMove(f"{kind} action: unknown field {_shown(k)}")
    action: Action = cls(**{k: v for k, v in data.items() if k != "type"})
    return action


__all__ = ["ACTION_TYPES", "Action", "Edit", "EndTurn", "Move", "Push", "Target", "action_from_json"]
