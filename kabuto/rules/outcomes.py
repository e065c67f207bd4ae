"""Plain records a Kabuto Sumo game hands back: what a push or a move did, the turn, the result."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from kabuto.rules.inventory import is_inventory
from physics import Push, PushResult


class Reason(StrEnum):
    """Why a game ended (:attr:`GameResult.reason`); the value is what saved games hold."""

    KNOCKOUT = "knockout"            # an opponent's wrestler piece was knocked out
    OWN_KNOCKOUT = "own_knockout"    # the acting side knocked out its own wrestler piece and lost
    SUBMISSION = "submission"        # a side could not take its turn (2P, 4P)
    LAST_STANDING = "last_standing"  # 3P: every other player was eliminated
    DRAW = "draw"                    # 3P: one push knocked out every wrestler still in contention


KNOCKOUT, OWN_KNOCKOUT, SUBMISSION, LAST_STANDING, DRAW = Reason


@dataclass(frozen=True)
class GameResult:
    """How the game ended. ``winner`` is the winning side (a seat in 2P/3P, a team in 4P), or None
    for a draw; ``seats`` are the winning seats. ``text`` says it in the engine's words;
    :meth:`kabuto.Game.result_text` says it again in the game's current :attr:`~kabuto.Game.names`
    from ``actor`` (the seat whose action, or whose empty inventory, ended the game) and ``fallen``
    (the seats whose wrestler pieces that action knocked out). Results saved before ``actor``
    existed have it None, and keep their ``text``."""

    winner: int | None
    seats: tuple[int, ...]
    reason: Reason
    text: str
    actor: int | None = None
    fallen: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "seats": list(self.seats), "reason": self.reason.value, "text": self.text,
                "actor": self.actor, "fallen": list(self.fallen)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameResult:
        actor, fallen = d.get("actor"), tuple(d.get("fallen") or ())
        named = fallen if actor is None else (actor, *fallen)
        if not all(isinstance(q, int) and not isinstance(q, bool) for q in named):
            raise ValueError("result.actor and result.fallen: expected seat numbers")
        return cls(d["winner"], tuple(d["seats"]), Reason(d["reason"]), d["text"], actor, fallen)


@dataclass
class TurnState:
    """The turn in progress.

    * ``pushes`` made so far, of ``pushes_allowed`` (2 after Rhino Rita's Charge);
    * ``platform``: (entry_deg, heading_deg) of the turn's first push - later pushes this turn must
      keep it ("without moving the pushing platform");
    * ``moves_used``: the signature moves used this turn (each at most once per turn);
    * ``push_from``: the side whose inventory this turn's pushes come from when a move says so
      (Bombardier Bea's Smokescreen), else None (your own);
    * ``replaced``: a move that "replaces your turn" was used;
    * ``later_kind``: the kind every push after the first must be, when a move says so (Rhino
      Rita's Charge: a small disc), else None (any);
    * ``gained``: the pieces this turn's signature moves added to the mover's inventory (Atlas
      Annie's Tower: its medium; Mighty Jaw Mike's Vice Grip: the discs it knocked out).
    """

    number: int
    seat: int
    pushes: int = 0
    pushes_allowed: int = 1
    platform: tuple[float, float] | None = None
    moves_used: list[str] = field(default_factory=list)
    push_from: int | None = None
    replaced: bool = False
    later_kind: str | None = None
    gained: int = 0

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["platform"] = list(self.platform) if self.platform else None
        # a turn without them reads as before, to older readers too
        if self.later_kind is None:
            del d["later_kind"]
        if not self.gained:
            del d["gained"]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TurnState:
        d = dict(d)
        d["platform"] = tuple(d["platform"]) if d.get("platform") else None
        d["moves_used"] = list(d.get("moves_used", []))
        if not isinstance(d.get("later_kind"), (str, type(None))):
            raise ValueError("later_kind: expected a piece kind or null")
        gained = d.get("gained", 0)
        if not isinstance(gained, int) or isinstance(gained, bool) or not 0 <= gained <= 1000:
            raise ValueError("gained: expected a count of pieces")
        return cls(**d)


@dataclass(frozen=True)
class Knockout:
    """A piece that left the ring and where it went.

    ``to`` is its new place ("seat:N", "team:T" or "supply"); ``carried_by`` the piece it was
    stacked on if it fell with it; ``wrestler_of`` the seat whose wrestler piece it is, if one.
    """

    piece: str
    kind: str
    to: str
    carried_by: str | None = None
    wrestler_of: int | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _gained(knocked_out: list[Knockout]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for k in knocked_out:
        if is_inventory(k.to):
            out.setdefault(k.to, []).append(k.piece)
    return out


def pieces_added(place: str, gained: list[str], knocked_out: list[Knockout]) -> int:
    """How many pieces a signature move added to the inventory ``place``: the ``gained`` ones from
    the supply ("Gain 1 medium disc") and those it ``knocked_out`` into it (Vice Grip)."""
    return len(gained) + len(_gained(knocked_out).get(place, []))


@dataclass
class PushOutcome:
    """What one push did: the physics, and the rules' consequences.

    ``committed`` is False for :meth:`kabuto.Game.preview_push` (nothing changed); ``result`` is the
    game's result after the push (None while it goes on); ``eliminated`` lists seats put out of a 3P
    game by it; ``turn_ended`` says whether the turn passed on.
    """

    seat: int
    piece: str
    kind: str
    push: Push
    physics: PushResult
    knocked_out: list[Knockout]
    state_hash: str
    result: GameResult | None
    eliminated: list[int]
    committed: bool
    turn_ended: bool = False

    @property
    def gained(self) -> dict[str, list[str]]:
        """{inventory place: piece ids it gained from this push}."""
        return _gained(self.knocked_out)

    @property
    def winner(self) -> int | None:
        return self.result.winner if self.result else None

    @property
    def wrestlers_out(self) -> list[int]:
        """Seats whose wrestler piece this push knocked out."""
        return [k.wrestler_of for k in self.knocked_out if k.wrestler_of is not None]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "piece": self.piece, "kind": self.kind, "push": self.push.to_json(),
            "knocked_out": [k.to_json() for k in self.knocked_out], "state_hash": self.state_hash,
            "result": self.result.to_json() if self.result else None, "eliminated": self.eliminated,
            "stalled": self.physics.stalled, "capped": self.physics.capped,
            "time": self.physics.time, "turn_ended": self.turn_ended,
        }


@dataclass
class MoveOutcome:
    """What a signature move did.

    ``paid``: {piece id: where it went} for the cost; ``gained``: ids added to the mover's
    inventory from the supply; ``placed``: ids put on the board; ``moved``: ids whose position or
    angle changed; ``knocked_out``: pieces it knocked out and where they went.
    """

    seat: int
    name: str
    targets: dict[str, Any]
    paid: dict[str, str]
    gained: list[str]
    placed: list[str]
    moved: list[str]
    knocked_out: list[Knockout]
    state_hash: str
    result: GameResult | None
    eliminated: list[int]
    turn_ended: bool

    @property
    def winner(self) -> int | None:
        return self.result.winner if self.result else None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "name": self.name, "targets": self.targets, "paid": self.paid,
            "gained": self.gained, "placed": self.placed, "moved": self.moved,
            "knocked_out": [k.to_json() for k in self.knocked_out], "state_hash": self.state_hash,
            "result": self.result.to_json() if self.result else None, "eliminated": self.eliminated,
            "turn_ended": self.turn_ended,
        }
