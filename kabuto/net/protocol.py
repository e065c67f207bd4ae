"""The wire format of ``kabuto serve``: versioned JSON messages, and the checks every one passes.

Every message is one WebSocket *text* frame holding one JSON object with ``"v"`` (the protocol
version, :data:`VERSION`) and ``"type"``. ``docs/protocol.md`` lists every message; this module is
the one place that knows their shapes, so the server, the ``kabuto join`` client and the tests all
agree.

Reading a client's message (:func:`parse_client`) is defensive, as reading a shared replay file
is: the size is capped before parsing, deep nesting is refused before parsing, NaN, infinities and
huge integers are refused, and every field's type and range is checked against :data:`SCHEMAS`
before anything acts on it. Each problem is a :class:`ProtocolError` whose ``code`` is one of
:data:`ERROR_CODES` and whose message is one plain line naming the field. No pickle anywhere.

    >>> parse_client('{"v": 1, "type": "ping"}')
    {'v': 1, 'type': 'ping'}
    >>> parse_client('{"v": 1, "type": "join", "seat": "one"}')
    Traceback (most recent call last):
    ...
    kabuto.net.protocol.ProtocolError: seat: expected a whole number, got a string
"""
from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

from kabuto.replay.format import nesting_depth
from kabuto.rules.actions import Action, EndTurn, Move, Push, action_from_json
from kabuto.rules.errors import IllegalMove
from kabuto_base.safejson import DuplicateKey, unique_keys
from kabuto_base.schema import (
    Check,
    SchemaError,
    boolean,
    integer,
    mapping,
    number,
    obj,
    one_of,
    scalar,
    text,
    type_name,
)

#: The protocol version every message carries as ``"v"``.
VERSION = 1
#: The largest client message the server reads (bytes of its UTF-8 text). Bigger ones get a
#: ``too-big`` error back; the connection stays open.
MAX_MESSAGE = 16 * 1024
#: Frames above this are not even received: the WebSocket library closes the connection (1009).
HARD_LIMIT = 1024 * 1024
#: Server messages (a Kabuto push's trajectory, a card game's log) may be larger; the client's cap.
MAX_SERVER_MESSAGE = 16 * 1024 * 1024
#: How deeply a client message may nest (the deepest legal one, an action's targets, is 3).
MAX_DEPTH = 6
#: Refused messages after which the server disconnects a client (close code 1008). Accepted
#: messages do not reset the count; each refusal is forgotten after a while
#: (:class:`kabuto.net.limits.Limits`).
MAX_STRIKES = 20
#: Longest text field (names, actions).
MAX_TEXT = 200

#: Every error ``code`` the server sends, with what it means (docs/protocol.md repeats them).
ERROR_CODES = {
    "bad-json": "the frame is not a JSON object (or is binary, or not UTF-8)",
    "too-big": "the message is larger than the server reads",
    "bad-version": "the message's v is not this server's protocol version",
    "bad-message": "unknown type, missing or unknown field, or a field of the wrong type or range",
    "no-room": "no room has that code",
    "room-full": "every seat of that room is taken",
    "bad-token": "the token does not hold any seat of that room",
    "not-seated": "only a seated player may do that",
    "not-your-turn": "it is another seat's turn, or the game is over",
    "stale": "the action was made for an earlier state (its step is not the room's step)",
    "illegal": "the rules refuse the action",
    "busy": "the server is full or shutting down",
    "server-error": "the server failed to handle the message (it logs why and goes on)",
}

ROOM_RE = re.compile(r"[A-Z2-9]{4,12}")
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{20,100}")
GAME_RE = re.compile(r"[a-z][a-z0-9-]{0,40}")
OPTION_RE = re.compile(r"[a-z_][a-z0-9_]{0,30}")
#: Characters allowed in a seat's display name.
NAME_RE = re.compile(r"[\w .'-]{1,20}")


class ProtocolError(ValueError):
    """A message the server refuses: ``code`` (one of :data:`ERROR_CODES`) and one plain line."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        #: The ``id`` of the message refused, when it had a well-formed one (the error's ``re``).
        self.re: str | None = None


# ----- reading JSON ---------------------------------------------------------------------------------
def _refuse_constant(token: str) -> Any:
    raise ProtocolError("bad-json", f"{token} is not allowed (finite numbers only)")


def _real(token: str) -> float:
    value = float(token)
    if math.isinf(value):
        raise ProtocolError("bad-json", f"{token[:20]} is too large a number (finite numbers only)")
    return value


def _integer(token: str) -> int:
    if len(token.lstrip("-")) > 15:
        raise ProtocolError("bad-json", "a whole number of more than 15 digits is not allowed")
    return int(token)


def loads(raw: str | bytes, limit: int = MAX_MESSAGE, depth: int = MAX_DEPTH) -> dict[str, Any]:
    """One message's JSON object, read within ``limit`` bytes and ``depth`` levels of nesting."""
    if isinstance(raw, bytes):
        raise ProtocolError("bad-json", "binary frames are not part of the protocol: send JSON text")
    data = raw.encode("utf-8", "surrogatepass")
    if len(data) > limit:
        raise ProtocolError("too-big", f"the message is {len(data)} bytes; the server reads at most {limit}")
    if nesting_depth(data) > depth:
        raise ProtocolError("bad-json", f"the message nests more than {depth} levels deep")
    try:
        msg = json.loads(raw, parse_constant=_refuse_constant, parse_int=_integer, parse_float=_real,
                         object_pairs_hook=unique_keys)
    except DuplicateKey as exc:
        raise ProtocolError("bad-json", str(exc)) from None
    except json.JSONDecodeError as exc:
        raise ProtocolError("bad-json", f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, ProtocolError):
            raise
        raise ProtocolError("bad-json", f"not valid JSON ({exc})") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad-json", "a message is a JSON object")
    return msg


def dumps(msg: dict[str, Any]) -> str:
    """The text of a message (compact; NaN never written)."""
    return json.dumps({"v": VERSION, **msg}, separators=(",", ":"), allow_nan=False)


# ----- field checks ---------------------------------------------------------------------------------
def _bad(where: str, what: str) -> ProtocolError:
    return ProtocolError("bad-message", f"{where}: {what}")


def action(v: Any, where: str) -> Any:
    """An action's shape (its meaning is the game's to judge): a card game's action is a string,
    a Kabuto Sumo action one of the objects of :data:`KABUTO_ACTIONS`."""
    if isinstance(v, str):
        return text(limit=MAX_TEXT)(v, where)
    if not isinstance(v, dict):
        raise SchemaError(where, f"expected a string or an object, got {type_name(v)}")
    kind = v.get("type")
    if kind not in KABUTO_ACTIONS:
        raise SchemaError(f"{where}.type", f"expected one of {', '.join(KABUTO_ACTIONS)}")
    KABUTO_ACTIONS[kind](v, where)
    try:
        kabuto_action(v)
    except IllegalMove as exc:
        raise SchemaError(where, str(exc)) from None
    return v


def kabuto_action(v: dict[str, Any]) -> tuple[Action, bool]:
    """A Kabuto Sumo action message as the game's action (:mod:`kabuto.rules.actions`), and
    whether the turn ends after it: a push ends it unless it says ``"end_turn": false``, as
    :meth:`kabuto.Game.push` does. IllegalMove names a malformed field."""
    ends = v.get("type") == "push" and v.get("end_turn", True) is not False
    act = action_from_json({k: x for k, x in v.items() if k != "end_turn"})
    if not isinstance(act, (Push, Move, EndTurn)):
        raise IllegalMove(f"type: {act.type!r} is not one of {', '.join(KABUTO_ACTIONS)}")
    return act, ends


def wire_action(action: Action) -> dict[str, Any]:
    """The message a seat sends for ``action`` (its request fields): a push keeps the turn open
    (``"end_turn": false``) so signature moves may follow it; :class:`EndTurn` ends the turn.

        >>> wire_action(Push("small", 180.0))["end_turn"], wire_action(EndTurn())
        (False, {'type': 'end_turn'})
    """
    if action.type not in KABUTO_ACTIONS:
        raise ValueError(f"a {action.type} action cannot be sent to a table")
    out = action.request().to_json()
    if isinstance(action, Push):
        out["end_turn"] = False
    return out


_ANGLE = number(-3600.0, 3600.0)
_PIECE = re.compile(r"[A-Za-z0-9_:.-]{1,40}")
#: The Kabuto Sumo actions a seat may send (the same fields as :meth:`kabuto.Game.push`,
#: :meth:`kabuto.Game.use_move` and :meth:`kabuto.Game.end_turn`).
KABUTO_ACTIONS: dict[str, Check] = {
    "push": obj({"type": one_of("push"), "piece": text(_PIECE, 40, "a piece id or kind"),
                 "entry_deg": _ANGLE},
                {"heading_deg": _ANGLE, "speed": number(0.0, 100.0), "spin_deg": _ANGLE,
                 "end_turn": boolean}),
    "move": obj({"type": one_of("move"), "name": text(limit=60)},
                {"targets": mapping(OPTION_RE, scalar, 8)}),
    "end_turn": obj({"type": one_of("end_turn")}),
}

_NAME_TEXT = text(NAME_RE, 20, "a name of letters, digits, spaces and . ' -")


def _name(v: Any, where: str) -> str:
    """A display name, checked as it will be shown: in its NFKC form (fullwidth letters are
    letters, an ideographic space a space). The server refuses look-alikes (kabuto.net.names)."""
    return _NAME_TEXT(unicodedata.normalize("NFKC", v) if isinstance(v, str) else v, where)


_NAME = _name
_GAME = text(GAME_RE, 40, "a game name")
_ROOM = text(ROOM_RE, 12, "a room code")
_ID = text(limit=40)

#: The messages a client may send: type -> (required fields, optional fields). Every message may
#: also carry ``"id"`` (a short string), which the server's reply echoes as ``"re"``.
SCHEMAS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "ping": ({}, {}),
    "list": ({}, {"game": _GAME}),
    "create": ({"game": _GAME}, {"players": integer(1, 8), "options": mapping(OPTION_RE, scalar, 4),
                                 "name": _NAME, "seat": integer(0, 7), "private": boolean}),
    "join": ({}, {"game": _GAME, "room": _ROOM, "players": integer(1, 8), "seat": integer(0, 7),
                  "name": _NAME, "options": mapping(OPTION_RE, scalar, 4)}),
    "resume": ({"room": _ROOM, "token": text(TOKEN_RE, 100, "a seat token")}, {}),
    "watch": ({"room": _ROOM}, {}),
    "fill": ({}, {"bot": text(limit=60)}),
    "act": ({"step": integer(0, 10**9), "action": action}, {}),
    "leave": ({}, {}),
}


def parse_client(raw: str | bytes, limit: int = MAX_MESSAGE) -> dict[str, Any]:
    """A client's message, read and checked; :class:`ProtocolError` says what is wrong (and, when
    the message was a JSON object with a well-formed ``id``, carries it as ``re``)."""
    msg = loads(raw, limit)
    try:
        try:
            _check_client(msg)
        except SchemaError as exc:  # a field of the wrong shape, in the schema's words
            raise ProtocolError("bad-message", str(exc)) from None
    except ProtocolError as exc:  # its answer names the message it answers, as any reply does
        rid = msg.get("id")
        if isinstance(rid, str) and len(rid) <= 40:
            exc.re = rid
        raise
    return msg


def _check_client(msg: dict[str, Any]) -> None:
    if msg.get("v") != VERSION:
        shown = msg.get("v")
        raise ProtocolError("bad-version", f"v: this server speaks protocol version {VERSION}, "
                                           f"not {shown if isinstance(shown, int) else type_name(shown)}")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        shown = kind[:40] if isinstance(kind, str) else type_name(kind)
        raise _bad("type", f"{shown!r} is not a message type ({', '.join(SCHEMAS)})")
    required, optional = SCHEMAS[kind]
    obj({"v": integer(VERSION, VERSION), "type": one_of(kind), **required},
        {"id": _ID, **optional})(msg, "")


def error(code: str, message: str, re_id: str | None = None, rule: str | None = None,
          fields: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``error`` message for ``code`` (one of :data:`ERROR_CODES`). A refusal by the rules
    adds the rules' ``rule`` code and its ``fields`` (ids, seats, counts: only what the action
    itself named), so a client can say it in its own words."""
    assert code in ERROR_CODES, code
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if re_id is not None:
        out["re"] = re_id
    if rule is not None:
        out["rule"] = rule
        out["fields"] = {k: v for k, v in (fields or {}).items()
                         if isinstance(v, (str, int, float, bool)) or v is None}
    return out


def parse_server(raw: str | bytes) -> dict[str, Any]:
    """A server's message (what a client reads): a JSON object of this protocol's version. The
    WebSocket layer caps its size (:data:`MAX_SERVER_MESSAGE`); the plain C parser reads it."""
    if isinstance(raw, bytes):
        raise ProtocolError("bad-json", "the server sent a binary frame")
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("bad-json", f"the server sent something that is not JSON ({exc})") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad-json", "the server sent something that is not a message")
    if msg.get("v") != VERSION:
        raise ProtocolError("bad-version", f"the server speaks protocol version {msg.get('v')!r}, "
                                           f"this client {VERSION}")
    if not isinstance(msg.get("type"), str):
        raise ProtocolError("bad-message", "type: missing")
    return msg


__all__ = ["ERROR_CODES", "HARD_LIMIT", "MAX_MESSAGE", "MAX_SERVER_MESSAGE", "MAX_STRIKES", "SCHEMAS",
           "VERSION", "ProtocolError", "dumps", "error", "loads", "parse_client", "parse_server"]
