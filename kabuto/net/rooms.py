"""Rooms: a game, its seats and their tokens, and the room file that brings it back after a restart.

A room has a short public **code** (``K7QW2M``: what players tell each other) and one **seat
token** per claimed seat: ``secrets.token_urlsafe(24)``, 192 random bits, handed only to the client
that claimed the seat. The server keeps only each token's SHA-256 (in memory and in the room file),
so a copy of the data folder does not let anyone take a seat, and compares in constant time.

Each room also has a **secret**: ``secrets.token_hex(32)``, 256 random bits, kept only in the
server and its room file. Everything random about the room comes from it through HMAC-SHA256 with a
label (:meth:`Room.derive`): the card deal (all 256 bits), the Kabuto Sumo set-up (drawn wrestlers,
first player: public once the game starts), and every server bot's seed. Nothing a client is sent
says anything about another label's value, so a Kabuto state (which shows its set-up seed) does not
foretell the bots, and a deal cannot be searched for.

A room is ``waiting`` until every seat is taken (by players or by the server's bots), ``playing``
until the game ends, then ``over``; one that everybody left before the end is ``closed`` once it
has been kept for a while. The room file ``<data>/rooms/CODE.json`` says all that, and names the
game's record in ``<data>/replays/``; the server writes it on every change of seats or status, and
at start reads every file whose room is ``waiting`` or ``playing`` back (:func:`load_room_file`).
"""
from __future__ import annotations

import asyncio
import datetime as _dt
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kabuto.net.limits import Guard
from kabuto.net.tables import Table
from kabuto_base.fileio import write_atomic

ROOM_FORMAT = "kabuto-room"
ROOM_VERSION = 1
#: Room codes: letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
WAITING, PLAYING, OVER, CLOSED = "waiting", "playing", "over", "closed"
STATUSES = (WAITING, PLAYING, OVER, CLOSED)


def new_code(taken: set[str] | dict[str, Any], prefix: str = "") -> str:
    """A room code not in ``taken``, starting with ``prefix`` (a server's own letters when several
    servers share rooms behind one address: the router sends a code to the server of its prefix)."""
    while True:
        code = prefix + "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH - len(prefix)))
        if code not in taken:
            return code


def check_prefix(prefix: str) -> str:
    """``prefix`` if it can start room codes (1-2 letters or digits of the code alphabet), else
    ValueError saying what may."""
    if not (len(prefix) <= 2 and all(c in CODE_ALPHABET for c in prefix)):
        raise ValueError(f"{prefix!r}: a code prefix is 1 or 2 of {CODE_ALPHABET}")
    return prefix


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_secret() -> str:
    """A room's secret: 256 bits from :mod:`secrets`."""
    return secrets.token_hex(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class Client:
    """One connection: the WebSocket, and the room and seat it plays in (or watches)."""

    ws: Any
    address: str = ""
    room: Room | None = None
    seat: int | None = None
    #: The connection's quotas (:class:`kabuto.net.limits.Guard`), set by the server.
    guard: Guard | None = None
    #: How many of its seat's (or the public) card-game events it has been sent.
    events_sent: int = 0
    last_event: Any = None


@dataclass
class RoomSeat:
    """One seat: who holds it (a token's hash, or a server bot's level) and who is connected."""

    name: str = ""
    token: str | None = None  # SHA-256 of the seat token
    bot: str | None = None
    client: Client | None = None

    @property
    def taken(self) -> bool:
        return self.token is not None or self.bot is not None

    def holds(self, token: str) -> bool:
        return self.token is not None and hmac.compare_digest(self.token, token_hash(token))

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "taken": self.taken, "bot": self.bot,
                "connected": self.bot is not None or self.client is not None}


@dataclass
class Room:
    """A room of the server (see the module docstring)."""

    code: str
    game: str
    players: int
    options: dict[str, Any]
    #: 64 hex digits (see the module docstring); never sent to a client.
    secret: str
    private: bool = False
    status: str = WAITING
    seats: list[RoomSeat] = field(default_factory=list)
    table: Table | None = None
    record: str | None = None  # the record's file name in the replays folder
    created: str = field(default_factory=lambda: _now())
    spectators: set[Client] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    linger: asyncio.TimerHandle | None = None
    bot_task: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [RoomSeat() for _ in range(self.players)]

    # ----- seats -------------------------------------------------------------------------------------
    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.taken]

    def seat_of(self, token: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.holds(token)), None)

    def clients(self) -> list[Client]:
        """Everyone connected to the room: seated players, then spectators."""
        return [s.client for s in self.seats if s.client is not None] + sorted(
            self.spectators, key=id)

    def anyone_here(self) -> bool:
        return any(s.client is not None for s in self.seats) or bool(self.spectators)

    def summary(self) -> dict[str, Any]:
        """What the room list shows of a room."""
        return {"room": self.code, "game": self.game, "players": self.players, "options": self.options,
                "status": self.status, "seats": [s.public() for s in self.seats]}

    # ----- the room file -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"format": ROOM_FORMAT, "version": ROOM_VERSION, "room": self.code, "game": self.game,
                "players": self.players, "options": self.options, "secret": self.secret,
                "private": self.private, "status": self.status, "created": self.created,
                "saved": _now(), "record": self.record,
                "seats": [{"name": s.name, "token": s.token, "bot": s.bot} for s in self.seats]}

    def derive(self, label: str, bits: int = 64) -> int:
        """A number of ``bits`` bits (at most 256) for ``label`` ("deal", "bot 12 0"), from the room's
        secret: the same label always gives the same number, and one label's number tells nothing of
        another's."""
        digest = hmac.new(bytes.fromhex(self.secret), label.encode(), hashlib.sha256).digest()
        return int.from_bytes(digest, "big") >> (256 - bits)

    def write(self, folder: Path) -> Path:
        return write_atomic(folder / f"{self.code}.json", json.dumps(self.to_json(), indent=1))


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).astimezone().isoformat(timespec="seconds")


def load_room_file(path: Path) -> Room:
    """A room from its file, seats and all (no table yet: the server restores the game from the
    record). ValueError with one line if the file is not a room file of this version."""
    import re

    from kabuto.net.protocol import ROOM_RE, ProtocolError, loads

    try:
        d = loads(path.read_bytes().decode("utf-8"), limit=1024 * 1024, depth=8)
    except (OSError, UnicodeDecodeError, ProtocolError) as exc:
        raise ValueError(f"{path.name}: cannot read ({exc})") from None
    if d.get("format") != ROOM_FORMAT or d.get("version") != ROOM_VERSION:
        raise ValueError(f"{path.name}: not a room file of version {ROOM_VERSION}")
    try:
        code, game, players = d["room"], d["game"], d["players"]
        secret = d.get("secret")
        if secret is None and isinstance(d.get("seed"), int):  # a room file from before secrets
            secret = hashlib.sha256(f"kabuto-room-{d['seed']}".encode()).hexdigest()
        if not (isinstance(secret, str) and re.fullmatch(r"[0-9a-f]{64}", secret)):
            raise ValueError("secret: not 64 hex digits")
        if not isinstance(code, str) or not ROOM_RE.fullmatch(code) or path.stem != code:
            raise ValueError("room: not this file's room code")
        if not isinstance(game, str) or not isinstance(players, int):
            raise ValueError("game, players: wrong types")
        if d["status"] not in STATUSES:
            raise ValueError(f"status: {d['status']!r}")
        seats = []
        for s in d["seats"]:
            token = s.get("token")
            if token is not None and not (isinstance(token, str) and re.fullmatch(r"[0-9a-f]{64}", token)):
                raise ValueError("seats: a token is not a SHA-256")
            seats.append(RoomSeat(str(s.get("name") or "")[:20], token, s.get("bot")))
        if len(seats) != players:
            raise ValueError(f"seats: {len(seats)} for {players} players")
        record = d.get("record")
        if record is not None and (not isinstance(record, str) or "/" in record or record.startswith(".")):
            raise ValueError("record: not a file name")
        options = d.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("options: expected an object")
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{path.name}: malformed room file ({exc})") from None
    except ValueError as exc:
        raise ValueError(f"{path.name}: {exc}") from None
    return Room(code, game, players, options, secret, bool(d.get("private", False)), d["status"], seats,
                record=record, created=str(d.get("created", "")))


__all__ = ["CLOSED", "OVER", "PLAYING", "WAITING", "Client", "Room", "RoomSeat", "check_prefix", "load_room_file",
           "new_code", "new_secret", "new_token", "token_hash"]
