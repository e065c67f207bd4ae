"""Replay files: a Kabuto Sumo game as its setup, its materials and its ordered actions.

A replay reproduces a game bit for bit: every push, signature move and edit carries the
:func:`physics.state_hash` of the at-rest world after it, and :func:`verify` re-simulates the game
headless and checks each one. The format (JSON, versioned) is documented in
``docs/replay-format.md``; in short::

    {"format": "kabuto-replay", "version": 1,
     "setup": {"players": 2, "wrestlers": ["mike", "hank"], "junior": false, "seed": 1,
               "first_player": 0},
     "materials": [{"hash": "<sha256 of data>", "data": {<physics.Materials.to_dict()>}}, ...],
     "actions": [{"type": "push", "turn": 1, "seat": 0, "piece": "M09", "kind": "medium",
                  "entry_deg": 85.6, "heading_deg": 2.6, "speed": 0.42, "spin_deg": 0.0,
                  "materials": 0, "hash": "<state hash>", "changes": {...}},
                 {"type": "end_turn", "turn": 1, "seat": 0},
                 {"type": "undo", "undone": 2}, ...],
     "meta": {...}}

The materials table is stored once; each push (move, edit) names the table in force by index, so a
tuning change mid-game adds one table and a replay made under tuned materials replays under them,
whatever ``assets/materials.toml`` says today.

Reading a file is defensive, because replays are shared: :func:`load` caps the size before
reading, rejects deep nesting before parsing, refuses NaN, infinities and huge numbers, and checks
every field's type and range before anything is simulated. Every problem is a
:class:`BadReplayFile` whose one-line message names the field (``actions[3].speed: ...``). No pickle
is used anywhere: files are JSON, written atomically (:func:`write_atomic`).

Python API:

* :func:`load` / :func:`loads` -> :class:`Replay`; :meth:`Replay.to_json`, :func:`dumps`,
  :func:`save`.
* :func:`verify` re-simulates and reports each action (:class:`StepReport`); it stops at the first
  divergence and says which pieces differ and by how much.
* :func:`resume_game` / :func:`load_for_resume` give the :class:`kabuto.Game` at the end of a replay,
  ready to go on (``kabuto play --resume``, ``kabuto sim --resume``); recording it again with
  :func:`kabuto.replay.recorder.record` continues the same replay into a new file.
* :class:`ReplayStepper` steps through a replay one action at a time (what a viewer needs: undo entries
  and materials changes are handled, each push's outcome is returned for animation).
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from kabuto.replay import drift
from kabuto.rules.actions import Action, action_from_json
from kabuto.rules.errors import ReplayError
from kabuto_base import schema
from kabuto_base.fileio import write_atomic
from kabuto_base.safejson import DuplicateKey, unique_keys
from kabuto_base.schema import Check, SchemaError
from physics import Materials, PieceState, World
from physics.versions import model_mismatch

if TYPE_CHECKING:  # the rules engine is imported lazily: loading a file must stay cheap
    from kabuto.rules.game import Game, GameSetup
    from kabuto.rules.junior import JuniorCard
    from kabuto.rules.wrestlers import Wrestler

FORMAT = "kabuto-replay"
VERSION = 1
#: Recorded files are named ``<when>-<wrestlers>-<id>.replay.json``.
SUFFIX = ".replay.json"

# Limits on what a file may hold. A real game is far below every one of them (a 40-push game with
# positions is about 100 kB); they keep a hostile file from costing memory, time or the stack.
MAX_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 32
MAX_ACTIONS = 20_000
MAX_TABLES = 1_000
MAX_PIECES = 500
MAX_TEXT = 200
MAX_INT_DIGITS = 19            # |n| < 10**19: seeds, counts and indices all fit
MAX_COORD = 100.0              # metres: far outside any ring (its radius is at most 10 m)
MAX_ANGLE = 1e6                # degrees or radians
MAX_TARGET = 1e9
#: The compute budget: a materials table of a replay may make one push cost at most this many
#: times what it costs with the default settings (``physics.SimSettings.push_cost``). Together
#: with MAX_ACTIONS and the outline bounds of ``physics.bounds``, verifying or resuming a replay
#: then costs at most this multiple of simulating the same actions with the default settings.
MAX_PUSH_COST = 4.0

HASH_RE = re.compile(r"[0-9a-f]{64}")
ID_RE = re.compile(r"[A-Za-z0-9_:.\-]{1,40}")
PLACE_RE = re.compile(r"board|supply|seat:\d|team:\d")

ACTION_TYPES = ("push", "move", "edit", "end_turn", "undo")
#: Actions that change the world and carry a state hash.
STATE_ACTIONS = ("push", "move", "edit")

# type -> (required fields, optional fields)
_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "push": (("type", "seat", "piece", "kind", "entry_deg", "heading_deg", "speed", "spin_deg",
              "materials", "hash"), ("turn", "changes")),
    "move": (("type", "seat", "name", "targets", "materials", "hash"), ("turn", "changes")),
    "edit": (("type", "piece", "place", "x", "y", "angle", "base", "allow_overlap", "materials",
              "hash"), ("turn", "changes")),
    "end_turn": (("type", "seat"), ("turn",)),
    "undo": (("type", "undone"), ()),
}
#: The fields a replay adds to a game's action (the rest is :mod:`kabuto.rules.actions` JSON).
REPLAY_FIELDS = ("materials", "turn", "changes")


def action_of(entry: dict[str, Any]) -> Action:
    """The game's action a replay entry records (the entry without :data:`REPLAY_FIELDS`)."""
    return action_from_json({k: v for k, v in entry.items() if k not in REPLAY_FIELDS})


_META_KEYS = ("game_id", "created", "saved", "kabuto", "engine", "seats", "resumed_from", "result",
              "note", "physics_model", "start_hash")


class BadReplayFile(ReplayError):
    """A replay file that cannot be used: the one-line message names the file and the field.

    Also raised when the rules refuse a recorded action (an impossible push): the file, not the
    simulation, is wrong then. A replay that is well-formed but re-simulates to another state is not
    an error here; :func:`verify` reports it as a divergence.
    """


# ----- low-level reading ------------------------------------------------------------------------
class _Forbidden:
    """Stands in for a JSON value no replay may hold (NaN, an infinity, a huge integer) until the
    field it sits in is known and can be named in the error."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text if len(text) <= 24 else text[:20] + "..."

    def __repr__(self) -> str:  # what Materials.from_dict and friends print in their errors
        return self.text


# An exponent of three digits or more: a float that may have overflowed to infinity while parsing.
_BIG_EXPONENT = re.compile(rb"[eE]\+?0*[1-9][0-9]{2,}")


# A JSON string literal, or an unterminated one running to the end of the text. Possessive
# quantifiers and the end-of-text alternative make every match attempt succeed where it starts and
# consume what it scanned, so blanking strings is linear: the plain form (``"[^"\\]*(?:\\.
# [^"\\]*)*"``) failed on an unterminated string and restarted at each ``\"`` inside it, which
# made a 65 kB file of ``\"`` cost 17 s.
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def nesting_depth(raw: bytes, strings_blanked: bool = False) -> int:
    """How deeply JSON text nests (0 for a scalar), found without parsing it: string literals are
    blanked, everything but brackets dropped, and the running depth summed in numpy. Linear, no
    recursion, a few milliseconds for a megabyte."""
    bare = raw if strings_blanked else _STRING.sub(b'""', raw)
    brackets = bare.translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    a = np.frombuffer(brackets, dtype=np.uint8)
    steps = np.where((a == ord("[")) | (a == ord("{")), 1, -1).astype(np.int64)
    return int(np.cumsum(steps).max())


def _parse(raw: bytes) -> Any:
    """JSON bytes -> plain data, refusing what a replay may not hold. Raises BadReplayFile."""
    if len(raw) > MAX_BYTES:
        raise BadReplayFile(f"too large ({len(raw)} bytes; a replay is at most {MAX_BYTES} bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadReplayFile(f"not UTF-8 text (byte {exc.start})") from None
    bare = _STRING.sub(b'""', raw)  # the text outside string literals
    depth = nesting_depth(bare, strings_blanked=True)
    if depth > MAX_DEPTH:
        raise BadReplayFile(f"nested {depth} levels deep (a replay nests at most {MAX_DEPTH})")
    flagged: list[str] = []

    def constant(token: str) -> _Forbidden:  # NaN, Infinity, -Infinity
        flagged.append(token)
        return _Forbidden(token)

    def integer(token: str) -> int | _Forbidden:
        if len(token.lstrip("-")) > MAX_INT_DIGITS:
            flagged.append(token)
            return _Forbidden(token)
        return int(token)

    try:
        # Floats are left to the C parser (fast); one that overflowed to infinity can only come
        # from a huge exponent, which the regex below spots, and then the slow walk names it.
        data = json.loads(text, parse_constant=constant, parse_int=integer,
                          object_pairs_hook=unique_keys)
    except DuplicateKey as exc:
        raise BadReplayFile(str(exc)) from None
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()):
            raise BadReplayFile("truncated (the JSON ends too early)") from None
        # json's messages end in "at" when they name a position ("Unterminated string starting
        # at"); the position follows here.
        raise BadReplayFile(f"not valid JSON ({exc.msg.removesuffix(' at')} at line {exc.lineno} "
                            f"column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # belt and braces: the checks above come first
        raise BadReplayFile(f"not valid JSON ({exc})") from None
    if flagged or _BIG_EXPONENT.search(bare):
        _reject_forbidden(data)
    return data


def _reject_forbidden(data: Any) -> None:
    """Find any NaN / infinity / huge integer and name its field (iteratively: no recursion)."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        where, v = stack.pop()
        if isinstance(v, _Forbidden) or (isinstance(v, float) and not math.isfinite(v)):
            text = v.text if isinstance(v, _Forbidden) else "a number too large to be finite"
            raise BadReplayFile(f"{where or 'the file'}: {text} is not allowed "
                                f"(replays hold finite numbers of at most {MAX_INT_DIGITS} digits)")
        if isinstance(v, dict):
            stack.extend((f"{where}.{k}" if where else str(k), x) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((f"{where}[{i}]", x) for i, x in enumerate(v))


# ----- field checks --------------------------------------------------------------------------------
def _fail(where: str, what: str) -> BadReplayFile:
    return BadReplayFile(f"{where}: {what}")


def _checked(check: Check, v: Any, where: str) -> Any:
    """``check(v, where)``, its complaint a :class:`BadReplayFile` (the schema's words)."""
    try:
        return check(v, where)
    except SchemaError as exc:
        raise BadReplayFile(str(exc)) from None


def _obj(v: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    return _checked(lambda x, w: schema.fields(x, w, required, optional), v, where)


def _int(v: Any, where: str, lo: int, hi: int) -> int:
    return _checked(schema.integer(lo, hi), v, where)


def _num(v: Any, where: str, lo: float, hi: float) -> float:
    return _checked(schema.number(lo, hi), v, where)


#: What each pattern's text must be, in words.
_PATTERN_TEXT: dict[re.Pattern[str] | None, str] = {
    HASH_RE: "64 lowercase hex digits",
    ID_RE: "a piece id or kind (letters, digits, _ : . -)",
    PLACE_RE: "board, supply, seat:N or team:N",
}


def _str(v: Any, where: str, pattern: re.Pattern | None = None, limit: int = MAX_TEXT) -> str:
    return _checked(schema.text(pattern, limit, _PATTERN_TEXT.get(pattern, "")), v, where)


def _bool(v: Any, where: str) -> bool:
    return _checked(schema.boolean, v, where)


def _list(v: Any, where: str, limit: int) -> list:
    return _checked(schema.listing(limit), v, where)


# ----- materials ---------------------------------------------------------------------------------
def canonical_json(data: Any) -> str:
    """The one text of ``data`` that hashes are taken of (sorted keys, no spaces, exact floats)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)


def materials_hash(data: dict[str, Any]) -> str:
    """SHA-256 of a materials table's canonical JSON: the table's identity in a replay."""
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()


@dataclass(frozen=True)
class MaterialsTable:
    """One entry of a replay's materials table: the data as stored, its hash, and the validated
    :class:`physics.Materials` (every outline exactly as written, so a push re-simulates
    bit-identically)."""

    hash: str
    data: dict[str, Any] = field(repr=False)
    materials: Materials = field(repr=False)

    @classmethod
    def of(cls, materials: Materials) -> MaterialsTable:
        data = materials.to_dict()
        return cls(materials_hash(data), data, materials)

    def to_json(self) -> dict[str, Any]:
        return {"hash": self.hash, "data": self.data}


def use_materials(game: Game, materials: Materials) -> None:
    """Make ``materials`` the ones in force for ``game``'s next push.

    The world is rebuilt with the new materials around the same at-rest pieces (which is all a
    push depends on): :meth:`kabuto.Game.set_materials`.
    """
    if game.world.materials is not materials:
        game.set_materials(materials)


# ----- the replay --------------------------------------------------------------------------------
@dataclass
class Replay:
    """A validated replay.

    * ``setup``: the :class:`kabuto.GameSetup` (its ``materials`` are table 0);
    * ``materials``: the table of :class:`MaterialsTable`, each referenced by index from actions;
    * ``timeline``: every recorded action in order, undo entries included (the file's ``actions``);
    * ``materials_in_force``: the table in force when the file was last saved (for resuming);
    * ``meta``: informational fields (never trusted for anything the game depends on).

    :attr:`actions` is the game as it stands: the timeline with undone actions taken out, each a
    :attr:`kabuto.Game.history`-style entry plus the replay's own fields; :attr:`game_actions`
    gives them as the game's actions (:func:`action_of`), which ``Game.apply`` accepts.
    """

    setup: GameSetup
    materials: list[MaterialsTable]
    timeline: list[dict[str, Any]]
    meta: dict[str, Any] = field(default_factory=dict)
    materials_in_force: int = 0
    name: str = "replay"

    @property
    def actions(self) -> list[dict[str, Any]]:
        live: list[dict[str, Any]] = []
        for a in self.timeline:
            if a["type"] == "undo":
                del live[len(live) - a["undone"]:]
            else:
                live.append(a)
        return live

    @property
    def game_actions(self) -> list[Action]:
        """The live actions as the game's actions (what :meth:`kabuto.Game.replay` re-applies)."""
        return [action_of(a) for a in self.actions]

    @property
    def pushes(self) -> int:
        """Pushes in the timeline (undone ones included: they were played)."""
        return sum(1 for a in self.timeline if a["type"] == "push")

    def table(self, action: dict[str, Any]) -> MaterialsTable:
        """The materials table in force for ``action`` (a push, move or edit)."""
        return self.materials[action["materials"]]

    def undo_targets(self) -> set[int]:
        """The numbers of live actions that undo entries go back to (where :class:`ReplayStepper`
        keeps a copy of the game)."""
        live, out = 0, set()
        for a in self.timeline:
            if a["type"] == "undo":
                live -= a["undone"]
                out.add(live)
            else:
                live += 1
        return out

    def to_json(self) -> dict[str, Any]:
        s = self.setup
        return {
            "format": FORMAT,
            "version": VERSION,
            "setup": {"players": s.players, "wrestlers": list(s.wrestlers), "junior": s.junior,
                      "seed": s.seed, "first_player": s.first_player},
            "materials": [t.to_json() for t in self.materials],
            "materials_in_force": self.materials_in_force,
            "actions": self.timeline,
            "meta": self.meta,
        }

    def describe(self) -> str:
        """One line: players, wrestlers, seed, first player, how much was played."""
        from kabuto.rules.game import Game

        try:
            names = " vs ".join(s.wrestler.name for s in Game.from_setup(self.setup).seats)
        except ValueError:
            names = " vs ".join(self.setup.wrestlers)
        moves = sum(1 for a in self.timeline if a["type"] == "move")
        undos = sum(1 for a in self.timeline if a["type"] == "undo")
        extra = (f", {moves} signature move{'s' * (moves != 1)}" if moves else "") + \
                (f", {undos} undo{'s' * (undos != 1)}" if undos else "")
        return (f"{self.setup.players}P{' Junior League' if self.setup.junior else ''} {names}, "
                f"seed {self.setup.seed}, seat {self.setup.first_player} first: {self.pushes} "
                f"push{'es' * (self.pushes != 1)}{extra}, {len(self.materials)} materials "
                f"table{'s' * (len(self.materials) != 1)}")


def dumps(replay: Replay | dict[str, Any]) -> str:
    """The file text: compact JSON with one action per line (readable, diff-friendly, small)."""
    data = replay.to_json() if isinstance(replay, Replay) else replay
    head = {k: v for k, v in data.items() if k != "actions"}
    parts = [json.dumps(head, separators=(",", ":"), allow_nan=False)[:-1], ',\n"actions":[']
    acts = data.get("actions", [])
    parts.append(",".join("\n" + json.dumps(a, separators=(",", ":"), allow_nan=False) for a in acts))
    parts.append("\n]}\n")
    return "".join(parts)


def save(replay: Replay, path: str | os.PathLike[str]) -> Path:
    """Write a replay atomically (see :func:`write_atomic`)."""
    return write_atomic(path, dumps(replay))


# ----- loading and validating ------------------------------------------------------------------
def load(path: str | os.PathLike[str]) -> Replay:
    """Read and validate a replay file. :class:`BadReplayFile` names the file and the field.

    The size is checked before reading and the nesting before parsing; nothing is simulated.
    """
    path = Path(path)
    try:
        if os.path.isdir(path):
            raise BadReplayFile(f"{path}: is a folder, not a replay file")
        # O_NONBLOCK: a FIFO given by mistake must not hang the open; it is refused below.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise BadReplayFile(f"{path}: not a regular file")
            if st.st_size > MAX_BYTES:
                raise BadReplayFile(f"{path}: too large ({st.st_size} bytes; a replay is at most "
                                    f"{MAX_BYTES} bytes)")
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise BadReplayFile(f"{path}: cannot read ({exc.strerror})") from None
    return loads(raw, name=str(path))


def loads(raw: bytes | str, name: str = "replay") -> Replay:
    """Validate replay text (bytes or str); errors are prefixed with ``name``."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    try:
        replay = from_data(_parse(raw))
    except BadReplayFile as exc:
        raise BadReplayFile(f"{name}: {exc}") from None
    replay.name = name
    return replay


def from_data(data: Any) -> Replay:
    """A :class:`Replay` from parsed JSON data; BadReplayFile names the first bad field."""
    if not isinstance(data, dict):
        raise BadReplayFile(f"not a Kabuto replay (expected a JSON object, got {schema.type_name(data)})")
    if "format" not in data:
        raise BadReplayFile("format: missing (not a Kabuto replay)")
    if data.get("format") != FORMAT:
        got = data.get("format")
        hint = " (a saved game, not a replay: open it with 'kabuto play --resume')" \
            if got in ("kabuto-game", "kabuto-app-save") else ""
        raise BadReplayFile(f"format: expected {FORMAT!r}, got {str(got)[:40]!r}{hint}")
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # not 1.0, "1" or true
        newer = type(version) is int and version > VERSION
        said = repr(version)[:20] if type(version) is not int else str(version)
        raise BadReplayFile(f"version: this kabuto reads replay version {VERSION}, the file says "
                            f"{said}" + (" (made by a newer kabuto)" if newer else ""))
    _obj(data, "", ("format", "version", "setup", "materials", "actions"),
         ("materials_in_force", "meta"))
    tables = _tables(data["materials"])
    setup = _setup(data["setup"], tables[0])
    timeline = _actions(data["actions"], setup, tables)
    in_force = _int(data.get("materials_in_force", 0), "materials_in_force", 0, len(tables) - 1)
    meta = _meta(data.get("meta", {}), setup.players)
    return Replay(setup, tables, timeline, meta, in_force)


#: Materials already validated in this process, by the hash of their data (which was checked to
#: match): the same table met again in another file, or the same file opened again, costs nothing.
_VALID_TABLES: dict[str, Materials] = {}


def _tables(raw: Any) -> list[MaterialsTable]:
    from kabuto.rules.game import exact_materials

    raw = _list(raw, "materials", MAX_TABLES)
    if not raw:
        raise _fail("materials", "empty (table 0 holds the materials the game started with)")
    out: list[MaterialsTable] = []
    seen: dict[str, int] = {}
    for i, t in enumerate(raw):
        where = f"materials[{i}]"
        _obj(t, where, ("hash", "data"))
        h = _str(t["hash"], f"{where}.hash", HASH_RE, 64)
        if not isinstance(t["data"], dict):
            raise _fail(f"{where}.data", f"expected an object, got {schema.type_name(t['data'])}")
        if h in seen:
            raise _fail(f"{where}", f"the same table as materials[{seen[h]}]")
        seen[h] = i
        mats = _VALID_TABLES.get(h)
        if mats is None:
            # Validated before hashing: the bounds refuse a huge outline by its counts, before
            # the canonical JSON of megabytes of vertices is ever written out and hashed.
            try:
                mats = exact_materials(t["data"])
            except (ValueError, TypeError, KeyError) as exc:
                raise _fail(f"{where}.data", str(exc).splitlines()[0] if str(exc) else "malformed") from None
            cost = mats.sim.push_cost()
            if cost > MAX_PUSH_COST:
                raise _fail(f"{where}.data.simulation", f"one push may cost {cost:.3g} times what it "
                            f"does with the default settings (steps_per_second x max_time x "
                            f"iterations); a replay may ask at most {MAX_PUSH_COST:g} times")
        if materials_hash(t["data"]) != h:
            raise _fail(f"{where}.hash", "does not match the table's data (the file was altered "
                        "or damaged)")
        if h not in _VALID_TABLES:
            if len(_VALID_TABLES) >= 64:
                _VALID_TABLES.pop(next(iter(_VALID_TABLES)))
            _VALID_TABLES[h] = mats
        if i and not set(out[0].materials.kinds) <= set(mats.kinds):
            missing = sorted(set(out[0].materials.kinds) - set(mats.kinds))
            raise _fail(f"{where}.data.kinds", f"lacks piece kind {missing[0]!r}, which the game uses")
        out.append(MaterialsTable(h, t["data"], mats))
    return out


def _setup(raw: Any, table0: MaterialsTable) -> GameSetup:
    from kabuto.rules.game import GameSetup
    from kabuto.rules.junior import JuniorCard, junior_card
    from kabuto.rules.wrestlers import wrestler

    s = _obj(raw, "setup", ("players", "wrestlers", "junior", "seed", "first_player"))
    players = _int(s["players"], "setup.players", 2, 4)
    junior = _bool(s["junior"], "setup.junior")
    seed = _int(s["seed"], "setup.seed", -(2 ** 63), 2 ** 63 - 1)
    first = _int(s["first_player"], "setup.first_player", 0, players - 1)
    ws = _list(s["wrestlers"], "setup.wrestlers", 4)
    if len(ws) != players:
        raise _fail("setup.wrestlers", f"{len(ws)} wrestlers for {players} players")
    keys = []
    for i, w in enumerate(ws):
        where = f"setup.wrestlers[{i}]"
        k = _str(w, where, limit=40)
        try:
            card: JuniorCard | Wrestler = junior_card(k) if junior else wrestler(k)
        except ValueError as exc:
            raise _fail(where, str(exc)) from None
        if card.key != k:
            raise _fail(where, f"{k!r}: a replay names wrestlers by key ({card.key!r})")
        if k in keys:
            raise _fail(where, f"{k!r} is chosen twice")
        keys.append(k)
        w_obj = card.wrestler if isinstance(card, JuniorCard) else card
        for kind in w_obj.kinds():
            if kind not in table0.materials.kinds:
                raise _fail("materials[0].data.kinds", f"lacks {kind!r}, the piece kind of {w_obj.name}")
    return GameSetup(players, tuple(keys), junior, seed, first, table0.data)


def _good_piece(pid: Any, v: Any, kinds: dict) -> bool:
    """A well-formed ``[kind, x, y, angle, base]`` entry of floats (what the recorder writes)."""
    return (type(pid) is str and type(v) is list and len(v) == 5 and ID_RE.fullmatch(pid) is not None
            and type(v[0]) is str and v[0] in kinds
            and type(v[1]) is float and -MAX_COORD <= v[1] <= MAX_COORD
            and type(v[2]) is float and -MAX_COORD <= v[2] <= MAX_COORD
            and type(v[3]) is float and -MAX_ANGLE <= v[3] <= MAX_ANGLE
            and (v[4] is None or (type(v[4]) is str and ID_RE.fullmatch(v[4]) is not None)))


def _check_changes(raw: Any, where: str, kinds: dict) -> None:
    c = _obj(raw, where, (), ("set", "gone"))
    if "set" in c:
        st = c["set"]
        if not isinstance(st, dict):
            raise _fail(f"{where}.set", f"expected an object, got {schema.type_name(st)}")
        if len(st) > MAX_PIECES:
            raise _fail(f"{where}.set", f"{len(st)} pieces (at most {MAX_PIECES})")
        for pid, v in st.items():
            if _good_piece(pid, v, kinds):
                continue  # the common case, checked fast; the checks below name the problem
            w = f"{where}.set.{str(pid)[:40]}"
            _str(pid, w, ID_RE, 40)
            v = _list(v, w, 5)
            if len(v) != 5:
                raise _fail(w, "expected [kind, x, y, angle, base]")
            kind = _str(v[0], f"{w}[0]", ID_RE, 40)
            if kind not in kinds:
                raise _fail(f"{w}[0]", f"unknown piece kind {kind!r}")
            _num(v[1], f"{w}[1]", -MAX_COORD, MAX_COORD)
            _num(v[2], f"{w}[2]", -MAX_COORD, MAX_COORD)
            _num(v[3], f"{w}[3]", -MAX_ANGLE, MAX_ANGLE)
            if v[4] is not None:
                _str(v[4], f"{w}[4]", ID_RE, 40)
    if "gone" in c:
        for j, pid in enumerate(_list(c["gone"], f"{where}.gone", MAX_PIECES)):
            _str(pid, f"{where}.gone[{j}]", ID_RE, 40)


def _actions(raw: Any, setup: GameSetup, tables: list[MaterialsTable]) -> list[dict[str, Any]]:
    raw = _list(raw, "actions", MAX_ACTIONS)
    live = 0
    for i, a in enumerate(raw):
        where = f"actions[{i}]"
        if not isinstance(a, dict):
            raise _fail(where, f"expected an object, got {schema.type_name(a)}")
        kind = a.get("type")
        if not isinstance(kind, str) or kind not in _FIELDS:
            raise _fail(f"{where}.type", f"{str(kind)[:40]!r} is not one of {', '.join(ACTION_TYPES)}")
        _obj(a, where, *_FIELDS[kind])
        if kind == "undo":
            if live == 0:
                raise _fail(f"{where}", "an undo with nothing before it to undo")
            _int(a["undone"], f"{where}.undone", 1, live)
            live -= a["undone"]
            continue
        live += 1
        if "turn" in a:
            _int(a["turn"], f"{where}.turn", 1, 10 ** 9)
        if "seat" in a:
            _int(a["seat"], f"{where}.seat", 0, setup.players - 1)
        if kind == "end_turn":
            continue
        t = tables[_int(a["materials"], f"{where}.materials", 0, len(tables) - 1)].materials
        _str(a["hash"], f"{where}.hash", HASH_RE, 64)
        if "changes" in a:
            _check_changes(a["changes"], f"{where}.changes", t.kinds)
        if kind == "push":
            _str(a["piece"], f"{where}.piece", ID_RE, 40)
            k = _str(a["kind"], f"{where}.kind", ID_RE, 40)
            if k not in t.kinds:
                raise _fail(f"{where}.kind", f"unknown piece kind {k!r}")
            _num(a["entry_deg"], f"{where}.entry_deg", -MAX_ANGLE, MAX_ANGLE)
            lim = t.sim.heading_limit_deg
            _num(a["heading_deg"], f"{where}.heading_deg", -lim, lim)
            _num(a["speed"], f"{where}.speed", t.sim.min_speed, t.sim.max_speed)
            _num(a["spin_deg"], f"{where}.spin_deg", -MAX_ANGLE, MAX_ANGLE)
        elif kind == "move":
            _str(a["name"], f"{where}.name", limit=80)
            targets = a["targets"]
            if not isinstance(targets, dict):
                raise _fail(f"{where}.targets", f"expected an object, got {schema.type_name(targets)}")
            if len(targets) > 16:
                raise _fail(f"{where}.targets", "more than 16 targets")
            for k, v in targets.items():
                w = f"{where}.targets.{str(k)[:40]}"
                _str(k, w, limit=40)
                if isinstance(v, str):
                    _str(v, w, limit=80)
                elif isinstance(v, (int, float)) and not isinstance(v, bool):
                    _num(v, w, -MAX_TARGET, MAX_TARGET)
                elif v is not None and not isinstance(v, bool):
                    raise _fail(w, f"expected a number, a string or a seat, got {schema.type_name(v)}")
        else:  # edit
            _str(a["piece"], f"{where}.piece", ID_RE, 40)
            _str(a["place"], f"{where}.place", PLACE_RE, 10)
            for k in ("x", "y"):
                if a[k] is not None:
                    _num(a[k], f"{where}.{k}", -MAX_COORD, MAX_COORD)
            _num(a["angle"], f"{where}.angle", -MAX_ANGLE, MAX_ANGLE)
            if a["base"] is not None:
                _str(a["base"], f"{where}.base", ID_RE, 40)
            _bool(a["allow_overlap"], f"{where}.allow_overlap")
    return raw


def _meta(raw: Any, players: int) -> dict[str, Any]:
    m = _obj(raw, "meta", (), _META_KEYS)
    for k, v in m.items():
        if k == "seats":
            seats = _list(v, "meta.seats", 4)
            if len(seats) != players:
                raise _fail("meta.seats", f"{len(seats)} seats for {players} players")
            for i, s in enumerate(seats):
                _str(s, f"meta.seats[{i}]", limit=20)
        elif k == "engine":
            for part, text in _obj(v, "meta.engine", (), ("pymunk", "chipmunk", "platform")).items():
                _str(text, f"meta.engine.{part}", limit=100)
        elif k in ("created", "saved") and v is not None:
            _when(v, f"meta.{k}")
        elif k == "physics_model":
            if type(v) is not int or not 1 <= v <= 1000:
                raise _fail("meta.physics_model", "expected a whole number from 1 to 1000")
        elif k == "start_hash":
            _str(v, "meta.start_hash", HASH_RE, limit=64)
        elif v is not None:
            _str(v, f"meta.{k}", limit=1000)
    return m


def _when(v: Any, where: str) -> str:
    """An ISO 8601 date and time with its UTC offset (``2026-11-30T06:55:30+00:00``)."""
    from datetime import datetime

    text = _str(v, where, limit=40)
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        when = None
    if when is None or when.tzinfo is None or "T" not in text:
        raise _fail(where, f"{text!r} is not an ISO 8601 time with its UTC offset "
                    f"(like 2026-11-30T06:55:30+00:00)")
    return text


# ----- comparing states --------------------------------------------------------------------------
def pieces_of(world: World) -> dict[str, PieceState]:
    return {p.id: p for p in world.pieces}


def state_changes(before: dict[str, PieceState], after: dict[str, PieceState]) -> dict[str, Any]:
    """What an action did to the at-rest world, as a replay records it: ``set`` holds every piece
    that is new or whose pose, base or kind changed (exact floats), ``gone`` the pieces that left."""
    out: dict[str, Any] = {}
    changed = {pid: [p.kind, p.x, p.y, p.angle, p.base] for pid, p in after.items()
               if before.get(pid) != p}
    gone = sorted(pid for pid in before if pid not in after)
    if changed:
        out["set"] = changed
    if gone:
        out["gone"] = gone
    return out


def apply_changes(before: dict[str, PieceState], changes: dict[str, Any]) -> dict[str, PieceState]:
    """The recorded state after an action: the state before it with its ``changes`` applied."""
    out = dict(before)
    for pid in changes.get("gone", ()):
        out.pop(pid, None)
    for pid, (kind, x, y, angle, base) in changes.get("set", {}).items():
        out[pid] = PieceState(pid, kind, float(x), float(y), float(angle), base)
    return out


@dataclass(frozen=True)
class PieceDiff:
    """How one piece differs between the re-simulated world (``got``) and the recording."""

    piece: str
    got: PieceState | None
    want: PieceState | None

    @property
    def distance(self) -> float:
        """Metres between the two positions (inf when the piece is on the ring in only one)."""
        if self.got is None or self.want is None:
            return math.inf
        return math.hypot(self.got.x - self.want.x, self.got.y - self.want.y)

    def text(self) -> str:
        g, w = self.got, self.want
        if g is None:
            return f"{self.piece}: knocked out here, but on the ring in the recording"
        if w is None:
            return f"{self.piece}: on the ring here, but knocked out in the recording"
        bits = []
        if g.kind != w.kind:
            bits.append(f"a {g.kind} here, a {w.kind} in the recording")
        if (g.x, g.y) != (w.x, w.y):
            dx, dy = (g.x - w.x) * 1000, (g.y - w.y) * 1000
            bits.append(f"{_mm(math.hypot(dx, dy))} mm off (dx {dx:+.3g}, dy {dy:+.3g} mm)")
        if g.angle != w.angle:
            bits.append(f"turned {math.degrees(g.angle - w.angle):+.3g} deg")
        if g.base != w.base:
            bits.append(f"on {g.base or 'the ring'} here, on {w.base or 'the ring'} in the recording")
        return f"{self.piece}: " + ", ".join(bits)


def _mm(v: float) -> str:
    return f"{v:.3f}" if v >= 0.001 else f"{v:.2g}"


def compare_states(got: dict[str, PieceState], want: dict[str, PieceState]) -> list[PieceDiff]:
    """Every piece that differs, the largest difference first."""
    out = [PieceDiff(pid, got.get(pid), want.get(pid)) for pid in sorted(set(got) | set(want))
           if got.get(pid) != want.get(pid)]
    out.sort(key=lambda d: (-d.distance, d.piece))
    return out


# ----- playing a replay back -----------------------------------------------------------------------
@dataclass
class StepReport:
    """What re-playing one action of the timeline gave.

    ``push`` is the push's number in the file (1-based, undone pushes counted: they were played),
    ``ok`` whether the re-simulated state hash is the recorded one. On a mismatch ``differences``
    lists the pieces that differ when the file recorded positions (else None).
    """

    index: int
    action: dict[str, Any]
    push: int | None
    ok: bool
    got: str | None = None
    want: str | None = None
    differences: list[PieceDiff] | None = None
    outcome: Any = None  # the PushOutcome / MoveOutcome (for animation); None for others
    #: Not bit-identical, but every piece within rounding of the recording (kabuto.replay.drift).
    rounding: bool = False
    #: The game went on from the recorded state instead of the re-simulated one.
    resynced: bool = False
    #: (mm, degrees): the largest drift of a piece from the recording, when it was resynced.
    drift: tuple[float, float] = (0.0, 0.0)

    @property
    def label(self) -> str:
        a = self.action
        if a["type"] == "push":
            return f"push {self.push}"
        if a["type"] == "move":
            return f"move {a['name']!r}"
        if a["type"] == "edit":
            return f"edit of {a['piece']}"
        if a["type"] == "undo":
            return f"undo of {a['undone']} action{'s' * (a['undone'] != 1)}"
        return "end of turn"

    def where(self) -> str:
        a = self.action
        bits = [f"actions[{self.index}]"]
        if "turn" in a:
            bits.append(f"turn {a['turn']}")
        if "seat" in a:
            bits.append(f"seat {a['seat']}")
        return ", ".join(bits)

    def difference_text(self, limit: int = 6) -> str:
        if self.ok:
            return ""
        if self.differences is None:
            return "the file did not record positions for this action, so only the hash is known"
        if not self.differences:
            return "no piece differs (only the hash)"
        n = len(self.differences)
        shown = "; ".join(d.text() for d in self.differences[:limit])
        more = f"; and {n - limit} more" if n > limit else ""
        return f"{n} piece{'s' * (n != 1)} differ{'s' * (n == 1)}: {shown}{more}"


def start_hash(game: Game) -> str:
    """The state hash of ``game``'s starting board (a replay's ``meta.start_hash``)."""
    from physics import state_hash

    return state_hash(game.world.snapshot())


class ReplayStepper:
    """Steps through a replay's timeline with the rules engine.

    Each :meth:`step` applies one action: undo entries restore the game kept from before, materials
    switch to the table each action names, the state hash is compared with the recording. It never
    raises on a divergence (the report says ``ok=False``); it raises :class:`BadReplayFile` when the
    rules refuse an action or the file contradicts itself.
    """

    def __init__(self, replay: Replay):
        from kabuto.rules.game import Game

        self.replay = replay
        # Recorded before the physics model was written down: model 1. Under another model the
        # pushes would re-simulate to another game, so the replay is refused, never re-run.
        refusal = model_mismatch(replay.meta.get("physics_model", 1))
        if refusal:
            raise BadReplayFile(f"{replay.name}: {refusal}")
        try:
            self.game: Game = Game.from_setup(replay.setup)
        except ValueError as exc:
            raise BadReplayFile(f"{replay.name}: setup: {exc}") from None
        # The starting board is not stored: it follows from the setup and assets/setups.toml. A
        # replay recorded on another board (the boards changed since) would re-simulate into
        # another game, so it is refused here, as one under another physics model is.
        recorded = replay.meta.get("start_hash")
        if recorded is not None and recorded != start_hash(self.game):
            raise BadReplayFile(f"{replay.name}: recorded on another starting board than this "
                                f"kabuto's (its boards changed since, or the file was altered); "
                                f"it cannot be replayed")
        self.index = 0              # the next timeline entry
        self.live = 0               # actions in force (undone ones not counted)
        self.pushes = 0
        self.table = 0              # the materials table in force
        self._targets = replay.undo_targets()
        self._kept: dict[int, tuple[Game, int]] = {}
        if 0 in self._targets:
            self._kept[0] = (self.game.clone(), 0)

    @property
    def done(self) -> bool:
        return self.index >= len(self.replay.timeline)

    def checkpoint(self) -> tuple:
        """An opaque copy of where the playback is; :meth:`restore` goes back to it (a viewer
        stepping backwards). Cheap: the game is cloned from its at-rest state."""
        return (self.game.clone(), self.index, self.live, self.pushes, self.table, dict(self._kept))

    def restore(self, checkpoint: tuple) -> None:
        """Go back to a :meth:`checkpoint` (it can be restored again later)."""
        game, self.index, self.live, self.pushes, self.table, kept = checkpoint
        self.game = game.clone()
        self._kept = dict(kept)

    def __iter__(self) -> Iterator[StepReport]:
        while not self.done:
            yield self.step()

    def step(self) -> StepReport:
        i = self.index
        a = self.replay.timeline[i]
        self.index += 1
        name = self.replay.name
        if a["type"] == "undo":
            target = self.live - a["undone"]
            game, table = self._kept[target]
            self.game, self.table, self.live = game.clone(), table, target
            return StepReport(i, a, None, True)
        game = self.game
        if a["type"] == "push":
            self.pushes += 1
        report = StepReport(i, a, self.pushes if a["type"] == "push" else None, True)
        if "turn" in a and a["turn"] != game.turn.number:
            raise BadReplayFile(f"{name}: actions[{i}].turn: recorded in turn {a['turn']}, but "
                                f"the game is at turn {game.turn.number}")
        before = None
        if a["type"] in STATE_ACTIONS:
            if a["materials"] != self.table:
                use_materials(game, self.replay.materials[a["materials"]].materials)
                self.table = a["materials"]
            before = pieces_of(game.world)
            n = len(game.history)
        try:
            report.outcome = self._apply(game, a)
        except (ValueError, TypeError, KeyError) as exc:  # TypeError: e.g. a target named "name"
            msg = str(exc).removeprefix(f"{a['type']} action: ")
            raise BadReplayFile(f"{name}: actions[{i}] ({report.label}): the rules refuse it: "
                                f"{msg}") from None
        self.live += 1
        if before is not None:
            entry = game.history[n]
            if a["type"] == "push" and entry.get("kind") != a["kind"]:
                raise BadReplayFile(f"{name}: actions[{i}].kind: {a['piece']} is a "
                                    f"{entry.get('kind')}, the file says {a['kind']}")
            report.got, report.want = entry["hash"], a["hash"]
            report.ok = report.got == report.want
            after = pieces_of(game.world)
            if "changes" in a:
                want = apply_changes(before, a["changes"])
                if report.ok and want != after:
                    raise BadReplayFile(f"{name}: actions[{i}].changes: the recorded positions "
                                        f"disagree with the recorded state hash (the file was altered)")
                if not report.ok:
                    report.differences = compare_states(after, want)
                    self._resync(report, game, after, want)
        if self.live in self._targets:
            self._kept[self.live] = (game.clone(), self.table)
        return report

    @staticmethod
    def _resync(report: StepReport, game: Game, after: dict[str, PieceState],
                want: dict[str, PieceState]) -> None:
        """Go on from the recorded state when the action re-simulated to the same pieces, kinds
        and stacks with other poses (another CPython, CPU or build: see kabuto.replay.drift), so
        the next action starts where it started when it was played."""
        if not drift.same_layout(after, want):
            return  # something fell here and not there: the rules' outcome differs too
        report.rounding = drift.within_rounding(after, want)
        report.drift = drift.largest_drift(after, want)
        if game.adopt_state(list(want.values())) == report.want:
            report.resynced = True
        else:  # the recorded positions do not give the recorded hash: undo the adoption
            game.adopt_state(list(after.values()))
            report.rounding = False

    @staticmethod
    def _apply(game: Game, a: dict[str, Any]) -> Any:
        """Apply one action with the engine's one entry point, :meth:`kabuto.Game.apply` (a push's
        outcome keeps its trajectory, to be animated)."""
        return game.apply(action_of(a))


@dataclass
class VerifyResult:
    """The outcome of :func:`verify`: every step played, and the first divergence if any.

    Three verdicts (:mod:`kabuto.replay.drift`): :attr:`bit_identical`; identical within rounding
    (:attr:`ok` but not bit-identical: :attr:`rounded` lists the actions); diverged
    (:attr:`divergence`).
    """

    replay: Replay
    steps: list[StepReport]
    game: Game
    divergence: StepReport | None = None

    @property
    def ok(self) -> bool:
        return self.divergence is None

    @property
    def rounded(self) -> list[StepReport]:
        """The actions that reached their recorded state only within rounding."""
        return [s for s in self.steps if s.rounding]

    @property
    def bit_identical(self) -> bool:
        return self.ok and not self.rounded

    @property
    def drift(self) -> tuple[float, float]:
        """(mm, degrees): the largest drift from the recording over every action."""
        return (max((s.drift[0] for s in self.steps), default=0.0),
                max((s.drift[1] for s in self.steps), default=0.0))

    @property
    def checked(self) -> int:
        return sum(1 for s in self.steps if s.got is not None)


def verify(replay: Replay, on_step: Callable[[StepReport], None] | None = None) -> VerifyResult:
    """Re-simulate ``replay`` headless, comparing every state hash with the recording.

    An action that lands within rounding of its recorded state is not a divergence: the game goes
    on from the recorded state (:class:`StepReport` ``rounding``). Stops at the first action whose
    state differs by more (``divergence``); BadReplayFile if the rules refuse an action.
    ``on_step`` is called with each :class:`StepReport` as it is made.
    """
    pb = ReplayStepper(replay)
    steps: list[StepReport] = []
    for report in pb:
        steps.append(report)
        if on_step is not None:
            on_step(report)
        if not report.ok and not (report.rounding and report.resynced):
            return VerifyResult(replay, steps, pb.game, report)
    return VerifyResult(replay, steps, pb.game)


# ----- resuming -------------------------------------------------------------------------------------
#: Games built by :func:`resume_game`, with the replay they continue (for the recorder).
_ORIGINS: weakref.WeakKeyDictionary[Game, Replay] = weakref.WeakKeyDictionary()
#: Games that :func:`resume_game` continued from recorded states, with the line that says so.
_NOTICES: weakref.WeakKeyDictionary[Game, str] = weakref.WeakKeyDictionary()


def resume_game(replay: Replay) -> Game:
    """The game at the end of ``replay``, ready to go on exactly as if it had never stopped.

    Every recorded state is checked on the way. Where an action re-simulates to other poses of
    the same pieces (another CPython, CPU or build), the game goes on from the recorded state and
    :func:`resume_notice` has one line that says so. ReplayError (BadReplayFile for a broken file)
    where it cannot: the file holds no positions for that action, or a piece fell here and not
    in the recording (the rules' outcome would differ, so it would not be the same game).
    """
    pb = ReplayStepper(replay)
    resynced: list[StepReport] = []
    for report in pb:
        if report.resynced:
            resynced.append(report)
        elif not report.ok:
            raise ReplayError(f"{replay.name}: cannot resume: {report.label} ({report.where()}) "
                              f"re-simulates to another state than recorded; "
                              f"{report.difference_text(3)}")
    game = pb.game
    if replay.materials_in_force != pb.table:
        use_materials(game, replay.materials[replay.materials_in_force].materials)
    _ORIGINS[game] = replay
    if resynced:
        _NOTICES[game] = continued_text(resynced)
    return game


def continued_text(resynced: list[StepReport]) -> str:
    """The one line that says a game went on from recorded states (viewer, resume)."""
    n = len(resynced)
    lands = f"{n} action{'s' * (n != 1)} land{'s' * (n == 1)}"
    if all(r.rounding for r in resynced):
        return (f"going on from the recorded positions: {lands} within rounding of them here "
                f"(another Python, processor or build)")
    mm = max(r.drift[0] for r in resynced)
    return f"going on from the recorded positions: {lands} up to {mm:.3g} mm from them here"


def resume_notice(game: Game) -> str | None:
    """The line to show when :func:`resume_game` continued ``game`` from recorded states."""
    return _NOTICES.get(game)


def load_for_resume(path: str | os.PathLike[str]) -> Game:
    """``kabuto play --resume FILE`` / ``kabuto sim --resume FILE``: the game a replay file ends
    in. Record it with :func:`kabuto.replay.recorder.record` to continue the same replay (into a new
    file: the file opened is never changed). BadReplayFile / ReplayError with a one-line message."""
    return resume_game(load(path))


def origin_of(game: Game) -> Replay | None:
    """The replay ``game`` was resumed from by :func:`resume_game`, if it was."""
    return _ORIGINS.get(game)


__all__ = ["BadReplayFile", "FORMAT", "MaterialsTable", "PieceDiff", "Replay", "ReplayStepper",
           "StepReport", "VERSION", "VerifyResult", "apply_changes", "compare_states", "dumps",
           "from_data", "load", "load_for_resume", "loads", "materials_hash", "origin_of",
           "resume_game", "resume_notice", "save", "state_changes", "use_materials", "verify", "write_atomic"]
