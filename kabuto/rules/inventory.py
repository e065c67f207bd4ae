"""Where every piece is: on the board, in one inventory, or in the general supply.

Every piece of a game has an id and is, at every moment, in exactly one *place*:

* ``"board"`` - on the ring (its position is in the game's :class:`physics.World`);
* ``"seat:N"`` - seat N's inventory (2 and 3 players);
* ``"team:T"`` - team T's shared inventory (4 players);
* ``"supply"`` - the general supply beside the ring.

A knocked-out wrestler piece goes to the supply too (the game is then usually over). The
:class:`Ledger` is the single record of places; the game keeps it in step with its World.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple, Protocol

from kabuto.rules.errors import IllegalMove

BOARD = "board"
SUPPLY = "supply"

#: The standard discs in the box and the prefix and width of their ids (L1..L5, M01..M15, S01..S20).
STANDARD_KINDS = ("large", "medium", "small")
_ID_FORMAT = {"large": ("L", 1), "medium": ("M", 2), "small": ("S", 2)}


# ----- piece ids: the one scheme every board, game, replay and scenario uses ------------------------
def standard_ids(kind: str, count: int) -> list[str]:
    """The ids of the first ``count`` standard discs of ``kind``: ``L1..L5``, ``M01..M15``,
    ``S01..S20``. A starting board takes the first ids of each kind, in the order of its spots.

    >>> standard_ids("large", 2), standard_ids("small", 3)
    (['L1', 'L2'], ['S01', 'S02', 'S03'])
    """
    prefix, width = _ID_FORMAT[kind]
    return [f"{prefix}{i:0{width}d}" for i in range(1, count + 1)]


def wrestler_id(owner: str) -> str:
    """The id of a wrestler piece: ``<wrestler key>:wrestler`` (``hank:wrestler``). A board with
    no wrestler cards (the physics sandbox, tuning scenarios) names its stand-ins by seat instead:
    ``wrestler_id(f"seat{n}")`` (``seat0:wrestler``)."""
    return f"{owner}:wrestler"


def signature_ids(wrestler_key: str, piece_key: str, count: int) -> list[str]:
    """The ids of a wrestler's ``count`` signature pieces of one kind: ``jade:gem1..3``."""
    return [f"{wrestler_key}:{piece_key}{i}" for i in range(1, count + 1)]


def seat_place(seat: int) -> str:
    return f"seat:{seat}"


def team_place(team: int) -> str:
    return f"team:{team}"


def is_inventory(place: str) -> bool:
    return place.startswith("seat:") or place.startswith("team:")


class Place(NamedTuple):
    """A place string taken apart: ``kind`` is "board", "supply", "seat" or "team"; ``number`` the
    seat or team number of an inventory (None for the board and the supply)."""

    kind: str
    number: int | None = None


def parse_place(place: str) -> Place:
    """The one reader of place strings (the module docstring lists them).

    >>> parse_place("team:1"), parse_place("supply")
    (Place(kind='team', number=1), Place(kind='supply', number=None))
    """
    if place in (BOARD, SUPPLY):
        return Place(place)
    kind, _, number = place.partition(":")
    if kind in ("seat", "team") and number.isdigit():
        return Place(kind, int(number))
    raise ValueError(f"place: {place!r} is not board, supply, seat:N or team:T")


class LedgerView(Protocol):
    """A ledger to read: what :attr:`kabuto.Game.ledger` hands out (pieces change place only
    through the game's actions, so every change is in its history)."""

    def copy(self) -> Ledger: ...
    def kind(self, pid: str) -> str: ...
    def place(self, pid: str) -> str: ...
    def __contains__(self, pid: object) -> bool: ...
    def places(self) -> dict[str, str]: ...
    def kinds(self) -> dict[str, str]: ...
    def pieces_in(self, place: str, kind: str | None = None) -> list[str]: ...
    def count(self, place: str, kind: str | None = None) -> int: ...
    def contents(self, place: str) -> Counter[str]: ...
    def pick(self, place: str, kind: str, count: int, what: str = "") -> list[str]: ...


class Ledger:
    """The place of every piece (and its kind). Ids are never created or lost, only moved."""

    def __init__(self, kinds: dict[str, str], places: dict[str, str]):
        if set(kinds) != set(places):
            missing = sorted(set(kinds) ^ set(places))
            raise ValueError(f"pieces without both a kind and a place: {', '.join(missing[:5])}")
        self._kinds = dict(kinds)
        self._places = dict(places)

    def copy(self) -> Ledger:
        return Ledger(self._kinds, self._places)

    # ----- reading -------------------------------------------------------------------------------
    def kind(self, pid: str) -> str:
        try:
            return self._kinds[pid]
        except KeyError:
            raise IllegalMove(f"there is no piece {pid!r} in this game", "no_such_piece", piece=pid) from None

    def place(self, pid: str) -> str:
        self.kind(pid)
        return self._places[pid]

    def __contains__(self, pid: object) -> bool:
        return pid in self._kinds

    def places(self) -> dict[str, str]:
        """{piece id: place} for every piece, in id order."""
        return {pid: self._places[pid] for pid in sorted(self._places)}

    def kinds(self) -> dict[str, str]:
        return dict(sorted(self._kinds.items()))

    def pieces_in(self, place: str, kind: str | None = None) -> list[str]:
        """Ids in ``place`` (optionally only of ``kind``), sorted."""
        return sorted(pid for pid, pl in self._places.items()
                      if pl == place and (kind is None or self._kinds[pid] == kind))

    def count(self, place: str, kind: str | None = None) -> int:
        return len(self.pieces_in(place, kind))

    def contents(self, place: str) -> Counter[str]:
        """How many pieces of each kind ``place`` holds."""
        return Counter(self._kinds[pid] for pid, pl in self._places.items() if pl == place)

    def pick(self, place: str, kind: str, count: int, what: str = "") -> list[str]:
        """The ``count`` lowest ids of ``kind`` in ``place``; IllegalMove if there are fewer."""
        have = self.pieces_in(place, kind)
        if len(have) < count:
            where = what or place
            raise IllegalMove(f"{where} has {len(have)} {kind} piece(s), {count} needed", "too_few",
                              place=place, kind=kind, count=count, have=len(have))
        return have[:count]

    # ----- changing ------------------------------------------------------------------------------
    def move(self, pids: Iterable[str] | str, to: str) -> None:
        for pid in [pids] if isinstance(pids, str) else pids:
            self.kind(pid)
            self._places[pid] = to
