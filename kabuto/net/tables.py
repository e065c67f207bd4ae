"""The game a room holds, behind one small interface for Kabuto Sumo and every card game.

A :class:`Table` is what the server needs of a game and no more: who is to play, whether it is
over, applying one seat's action with the game's own engine (:class:`kabuto.Game` or a
:class:`cards.api.CardGame`), what each seat may see, the result, and how to save and restore it.

* :class:`CardTable` - a card game. A seat sees ``observation(seat)``; a spectator sees only what
  every seat sees alike (:func:`public_view`). Its record is a small JSON file: the deal's seed
  (256 bits, as decimal text), the options and every action, from which :meth:`CardTable.restore`
  deals and plays the game again.
* :class:`KabutoTable` - Kabuto Sumo (2, 3 or 4 players, or Junior League). Nothing is hidden, so
  every seat and spectator sees the at-rest state (:meth:`kabuto.Game.to_json`) and, after a push,
  its trajectory (:func:`trajectory_json`). It is recorded by :mod:`kabuto.replay.recorder`, and
  restored from that replay with :func:`kabuto.replay.format.resume_game`. On a server its pushes
  are simulated in worker processes (:meth:`KabutoTable.apply_in`).

An action the rules refuse raises :class:`ActionError` and leaves the game as it was (both engines
promise it). ``step`` counts the actions applied; a client's ``act`` names the step it was made
for, so a late or repeated action is refused instead of applied twice.
"""
from __future__ import annotations

import datetime as _dt
import json
import math
import os
import secrets
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kabuto_base.errors import IllegalMove
from kabuto_base.fileio import write_atomic

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from cards.api import CardGame
    from kabuto.replay.recorder import Recorder
    from kabuto.rules.game import Game

#: The game name of Kabuto Sumo in rooms (card games use their registry names).
KABUTO = "kabuto"
#: Card records are named ``<when>-<game>-<room>.cards.json`` in the replays folder.
CARD_SUFFIX = ".cards.json"
CARD_FORMAT = "kabuto-card-record"
CARD_VERSION = 1
#: Kabuto Sumo options a room may be created with.
KABUTO_OPTIONS = ("junior", "wrestlers")


class ActionError(ValueError):
    """An action refused: ``code`` is a protocol error code (``illegal``, ``not-your-turn``).
    A refusal by the rules also carries the rules' own ``rule`` code and its ``fields``
    (:class:`kabuto_base.errors.IllegalMove`), so a client says it in its own words."""

    def __init__(self, code: str, message: str, rule: str | None = None,
                 fields: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.fields = fields or {}

    @classmethod
    def illegal(cls, exc: IllegalMove) -> ActionError:
        """The rules' refusal ``exc``, as the protocol sends it."""
        return cls("illegal", str(exc), exc.code, exc.fields)


@dataclass
class Applied:
    """What one applied action did. ``detail`` is extra for the state messages (a Kabuto push's
    trajectory and knock-outs); ``done_at`` is ``time.monotonic()`` when the engine finished."""

    seat: int
    action: Any
    detail: dict[str, Any] | None = None
    done_at: float = field(default_factory=time.monotonic)


def game_names() -> list[str]:
    """Every game a room may hold: ``kabuto`` and each card game's registry name."""
    import cards

    return [KABUTO, *sorted(cards.GAMES)]


def player_counts(game: str) -> tuple[int, ...]:
    if game == KABUTO:
        from kabuto.rules.game import PLAYER_COUNTS

        return PLAYER_COUNTS
    import cards

    return cards.GAMES[game].player_counts


class Table(ABC):
    """One game in a room (see the module docstring)."""

    game: str
    players: int

    @property
    @abstractmethod
    def to_play(self) -> int | None:
        """The seat to act, None once the game is over."""

    @property
    def is_over(self) -> bool:
        return self.to_play is None

    @property
    @abstractmethod
    def step(self) -> int:
        """How many actions have been applied."""

    @abstractmethod
    def apply(self, seat: int, action: Any) -> Applied:
        """Apply ``seat``'s action with the engine; ActionError (nothing changed) if refused."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator, who sees public information only)."""

    def legal(self, seat: int) -> list[Any] | None:
        """The actions ``seat`` may choose among now, when the game lists them (card games)."""
        return None

    @abstractmethod
    def result(self) -> dict[str, Any] | None:
        """How the game ended: ``winners`` (seats) and ``text``; None while it goes on."""

    @abstractmethod
    def save(self) -> Path | None:
        """Write the record now (atomically); the file."""

    @abstractmethod
    def record_name(self) -> str:
        """The record's file name in the replays folder."""

    @abstractmethod
    def clone_game(self) -> Any:
        """An independent copy of the game, for a bot to think on."""


# ----- card games -----------------------------------------------------------------------------------
_MISSING = object()


def _common(values: list[Any]) -> Any:
    """What every seat's view holds alike: dictionaries key by key, anything else only if equal.
    A seat's own hand and ``my_...`` fields are never common knowledge, even when equal."""
    if all(isinstance(v, dict) for v in values):
        out = {}
        for k in values[0]:
            if k == "hand" or k.startswith("my_") or not all(k in v for v in values):
                continue
            c = _common([v[k] for v in values])
            if c is not _MISSING:
                out[k] = c
        return out
    first = values[0]
    return first if all(v == first for v in values[1:]) else _MISSING


def public_view(game: CardGame) -> dict[str, Any]:
    """A spectator's view of a card game: only what every seat's observation shows alike, and only
    the events shown to everyone. Nothing a single seat sees alone can appear in it."""
    views = [game.observation(s) for s in range(game.num_players)]
    for v in views:
        v.pop("events", None)
    out = _common(views)
    out["seat"] = None
    out["events"] = [e for e in game.events if "to" not in e]
    # How many cards each seat holds is in plain sight at a real table (each seat's observation
    # gives the others' counts), though no two observations put it alike.
    zones = game.card_zones()
    sizes = [zones.get(f"hand{s}", zones.get(f"hand:{s}")) for s in range(game.num_players)]
    if all(z is not None for z in sizes):
        out["hand_sizes"] = [len(z) for z in sizes if z is not None]
    return out


def card_setups() -> list[tuple[str, int, dict[str, Any]]]:
    """The card games' set-ups a room may hold: (game, players, options), as the card table's
    start menu offers them (assets/cards/table.toml). Options outside these (such as a dealt hand)
    never come from the network."""
    from cards.table.config import table_data

    return [(m.game, m.players, dict(m.options)) for m in table_data().modes]


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).astimezone().isoformat(timespec="seconds")


class CardTable(Table):
    """A card game (see the module docstring)."""

    def __init__(self, game: CardGame, seed: int, options: dict[str, Any], folder: Path, room: str,
                 actions: list[dict[str, Any]] | None = None, name: str | None = None):
        self.engine = game
        self.game = game.name
        self.players = game.num_players
        self.seed = seed
        self.options = dict(options)
        self.folder = Path(folder)
        self.room = room
        self.actions: list[dict[str, Any]] = list(actions or [])
        self.created = _now()
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        self._name = name or f"{stamp}-{self.game}-{room}{CARD_SUFFIX}"
        self.seats: list[str] = []

    @classmethod
    def new(cls, game: str, players: int, options: dict[str, Any], seed: int, folder: Path,
            room: str) -> CardTable:
        import cards

        engine = cards.GAMES[game].new(players, seed, **options)
        return cls(engine, seed, options, folder, room)

    @classmethod
    def restore(cls, record: dict[str, Any], folder: Path) -> CardTable:
        """Deal the recorded game again and replay its actions; ValueError if it is not the same
        game (an action the engine now refuses)."""
        import cards

        try:
            game = cards.GAMES[record["game"]].new(record["players"], record_seed(record), **record["options"])
            for i, a in enumerate(record["actions"]):
                if game.to_play != a["seat"]:
                    raise ValueError(f"actions[{i}]: recorded for seat {a['seat']}, but it is "
                                     f"seat {game.to_play}'s turn")
                game.apply(a["action"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a card record ({exc})") from None
        table = cls(game, record_seed(record), record["options"], folder, record["room"], record["actions"],
                    name=record.get("name"))
        table.created = str(record.get("created", table.created))
        return table

    @property
    def to_play(self) -> int | None:
        return self.engine.to_play

    @property
    def step(self) -> int:
        return len(self.actions)

    def apply(self, seat: int, action: Any) -> Applied:
        # The turn first: an example of an action is one of the seat's own, never another seat's
        # (whose legal actions name the cards it holds).
        if self.to_play != seat:
            raise ActionError("not-your-turn", "it is not your turn")
        if not isinstance(action, str):
            raise ActionError("illegal", f"a {self.game} action is a string: one of the legal actions you "
                                         f"were sent, such as {self.engine.legal_actions()[0]!r}")
        try:
            self.engine.apply(action)
        except IllegalMove as exc:
            raise ActionError.illegal(exc) from None
        self.actions.append({"seat": seat, "action": action})
        return Applied(seat, action)

    def view(self, seat: int | None) -> dict[str, Any]:
        return public_view(self.engine) if seat is None else self.engine.observation(seat)

    def legal(self, seat: int) -> list[Any] | None:
        return self.engine.legal_actions() if self.to_play == seat else []

    def result(self) -> dict[str, Any] | None:
        if not self.engine.is_over:
            return None
        winners = self.engine.winners()
        returns = self.engine.returns()
        who = " and ".join(self.seat_name(w) for w in winners)
        text = f"{who} {'win' if len(winners) > 1 else 'wins'}" if winners else "no winner"
        return {"winners": winners, "returns": returns, "text": text}

    def seat_name(self, seat: int) -> str:
        return self.seats[seat] if seat < len(self.seats) and self.seats[seat] else f"seat {seat}"

    def record(self) -> dict[str, Any]:
        return {"format": CARD_FORMAT, "version": CARD_VERSION, "game": self.game,
                "players": self.players, "seed": str(self.seed), "options": self.options,
                "room": self.room, "name": self._name, "created": self.created, "saved": _now(),
                "seats": list(self.seats), "actions": self.actions, "result": self.result()}

    def record_name(self) -> str:
        return self._name

    def snapshot(self) -> tuple[Path, str]:
        """Where the record goes and its text now (written later, off the event loop)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder / self._name, json.dumps(self.record(), separators=(",", ":"))

    def save(self) -> Path:
        return write_atomic(*self.snapshot())

    def clone_game(self) -> CardGame:
        return self.engine.clone()


def record_seed(record: dict[str, Any]) -> int:
    """The deal's seed of a card record: written as decimal text (a room's deal seed has 256 bits,
    more than a JSON reader need keep exactly), or a number in records from before."""
    seed = record["seed"]
    if isinstance(seed, str) and seed.isdigit() and len(seed) <= 80:
        return int(seed)
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed
    raise ValueError(f"seed: {seed!r} is not a deal's seed")


def load_card_record(path: Path) -> dict[str, Any]:
    """A card record file (our own, but read defensively: JSON only, size capped)."""
    from kabuto.net.protocol import loads

    raw = path.read_bytes()
    rec = loads(raw.decode("utf-8"), limit=64 * 1024 * 1024, depth=16)
    if rec.get("format") != CARD_FORMAT or rec.get("version") != CARD_VERSION:
        raise ValueError(f"{path.name}: not a card record of version {CARD_VERSION}")
    return rec


# ----- Kabuto Sumo ----------------------------------------------------------------------------------
def _rounded(v: float, digits: int) -> float | None:
    return None if math.isnan(v) else round(v, digits)


def trajectory_json(outcome: Any) -> dict[str, Any]:
    """A push's trajectory for the wire: the 60 Hz poses ``[x, y, angle, level]`` (metres to the
    hundredth of a millimetre, radians to 1e-4) of every piece that moved, ``null`` from a piece's
    fall on. Pieces not listed stayed where the previous at-rest state had them."""
    tr = outcome.physics.trajectory
    poses = tr.poses
    pieces: dict[str, list[list[float | None] | None]] = {}
    for i, pid in enumerate(tr.ids):
        track = poses[:, i]
        first = track[0]
        if len(track) and all((row == first).all() for row in track):
            continue  # never moved: the at-rest state has it
        frames: list[list[float | None] | None] = []
        for row in track:
            if math.isnan(row[0]):
                frames.append(None)
            else:
                frames.append([_rounded(float(row[0]), 5), _rounded(float(row[1]), 5),
                               _rounded(float(row[2]), 4), int(row[3])])
        pieces[pid] = frames
    return {"rate": tr.rate, "frames": len(poses), "pieces": pieces}


def trajectory_from_json(data: dict[str, Any], before: Any) -> Any:
    """The :class:`physics.Trajectory` a :func:`trajectory_json` describes, on the at-rest world
    ``before`` the push (a :class:`physics.World`): the pieces it does not list stay where
    ``before`` has them; the pieces it lists that ``before`` lacks (the pushed one, from the
    platform) come after them. A client plays a push it was sent back with this, exactly as the
    app plays one it simulated. ValueError if ``data`` does not have the shape of one."""
    import numpy as np

    from physics import Trajectory

    try:
        rate, frames, tracks = float(data["rate"]), int(data["frames"]), data["pieces"]
        if not (0 < rate <= 10_000 and 0 <= frames <= 10**6 and isinstance(tracks, dict)):
            raise ValueError("rate, frames or pieces out of range")
        levels = before.levels()
        ids = [p.id for p in before.pieces] + [pid for pid in tracks if pid not in before]
        poses = np.full((frames, len(ids), 4), np.nan)
        for i, p in enumerate(before.pieces):
            poses[:, i] = (p.x, p.y, p.angle, levels.get(p.id, 0))
        index = {pid: i for i, pid in enumerate(ids)}
        for pid, track in tracks.items():
            if len(track) != frames:
                raise ValueError(f"{pid}: {len(track)} poses for {frames} frames")
            col = index[pid]
            poses[:, col] = np.nan  # null: gone from the ring (a fall)
            for t, row in enumerate(track):
                if row is not None:
                    poses[t, col] = [float(v) if v is not None else np.nan for v in row]
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"not a trajectory ({exc})") from None
    return Trajectory(ids, rate, poses)


def kabuto_options(options: dict[str, Any]) -> dict[str, Any]:
    """Kabuto Sumo room options checked: ``junior`` (true/false), ``wrestlers`` ("mike,hank")."""
    for k in options:
        if k not in KABUTO_OPTIONS:
            raise ActionError("illegal", f"options.{k}: Kabuto Sumo rooms take {', '.join(KABUTO_OPTIONS)}")
    out: dict[str, Any] = {}
    if "junior" in options:
        if not isinstance(options["junior"], bool):
            raise ActionError("illegal", "options.junior: expected true or false")
        out["junior"] = options["junior"]
    if "wrestlers" in options:
        if not isinstance(options["wrestlers"], str):
            raise ActionError("illegal", "options.wrestlers: expected wrestler keys such as \"mike,hank\"")
        out["wrestlers"] = options["wrestlers"]
    return out


class KabutoTable(Table):
    """Kabuto Sumo (see the module docstring)."""

    game = KABUTO

    def __init__(self, engine: Game, recorder: Recorder, seats: list[str] | None = None):
        from kabuto.rules.naming import SeatNames

        self.engine = engine
        self.recorder = recorder
        self.players = engine.players
        self.seat_names = tuple(seats or ())
        #: The JSON text of ``engine.to_json()`` as a worker sent it (for :meth:`message_text`).
        self._view_text: tuple[Game, JSONText] | None = None
        if seats:  # results and refusals name the players as the room does
            engine.names = SeatNames(tuple(seats))

    @classmethod
    def new(cls, players: int, options: dict[str, Any], seed: int, data_dir: Path,
            seats: list[str], game: Game | None = None) -> KabutoTable:
        """A new game, recorded into ``data_dir``'s replays; ``game``: set up already (by
        :func:`new_kabuto_game` in a worker) from the same arguments."""
        from kabuto.replay.recorder import record

        if game is None:
            game = setup_kabuto_game(players, options, seed)
        return cls(game, record(game, data_dir, seats=seats), seats)

    @classmethod
    def restore(cls, path: Path, data_dir: Path, seats: list[str]) -> KabutoTable:
        """The game a room's replay ends in, recorded on into the same file (its timeline only
        grows, so the file stays one complete replay of the room)."""
        from kabuto.replay.format import load, resume_game
        from kabuto.replay.recorder import record

        game = resume_game(load(path))
        rec = record(game, data_dir, seats=seats)
        rec.path = path
        return cls(game, rec, seats)

    @property
    def to_play(self) -> int | None:
        return None if self.engine.is_over else self.engine.current_seat

    @property
    def step(self) -> int:
        return len(self.engine.history)

    def apply(self, seat: int, action: Any) -> Applied:
        from kabuto.net.protocol import kabuto_action
        from kabuto.rules.actions import EndTurn
        from kabuto.rules.outcomes import MoveOutcome, PushOutcome

        self._view_text = None  # the engine changes in place
        if self.to_play != seat:
            raise ActionError("not-your-turn", "it is not your turn")
        if not isinstance(action, dict):
            raise ActionError("illegal", "a Kabuto Sumo action is an object: push, move or end_turn")
        g = self.engine
        detail: dict[str, Any] | None = None
        try:
            act, ends_turn = kabuto_action(action)
            turn = g.turn.number
            o = g.apply(act)
            if isinstance(o, PushOutcome):
                detail = {"trajectory": trajectory_json(o),
                          "fell": [f.piece for f in o.physics.fell],
                          "knocked_out": [{"piece": k.piece, "to": k.to} for k in o.knocked_out]}
                if ends_turn and not g.is_over and g.turn.number == turn:
                    g.apply(EndTurn())
            elif isinstance(o, MoveOutcome):
                detail = {"move": action["name"], "summary": getattr(o, "text", None)}
        except IllegalMove as exc:
            raise ActionError.illegal(exc) from None
        except TypeError as exc:  # a move target the effect does not take
            raise ActionError("illegal", f"that move does not take those targets ({exc})") from None
        done = time.monotonic()
        self.recorder.update(g)
        if detail is not None and not isinstance(detail.get("summary"), (str, type(None))):
            detail.pop("summary")
        return Applied(seat, action, detail, done)

    async def apply_in(self, pool: Executor, seat: int, action: Any) -> Applied:
        """:meth:`apply` with the simulation in a worker process of ``pool``: the worker gets a
        copy of the game and the action (the pool pickles them: a game holds its at-rest state as
        plain data, never a pymunk Space, and the copy continues exactly as the game would), plays
        it as :meth:`apply` does and sends the game back, with the push's detail. The event loop
        waits for none of the simulation; the action is recorded but not saved (:meth:`save` writes
        it: the server does so in a thread before it tells anyone). BrokenProcessPool if a worker
        died."""
        import asyncio

        if self.to_play != seat:
            raise ActionError("not-your-turn", "it is not your turn")
        code, message, done = await asyncio.get_running_loop().run_in_executor(
            pool, apply_kabuto_action, self.engine, self.seat_names, seat, action)
        if done is None:
            raise ActionError(code or "illegal", message)
        done.game.names = self.engine.names
        self.engine = done.game
        self._view_text = (done.game, done.view)
        self.recorder.sync(done.game)  # recorded, not saved: the server saves it before telling anyone
        return Applied(seat, action, done.detail, done.done_at)

    def message_text(self, base: dict[str, Any]) -> str:
        """The text of a ``state`` message: ``base`` with the view. Parts a worker sent already
        encoded (:class:`JSONText`: the at-rest state, a push's trajectory) go in as they are: the
        server's process, which every room waits on, does not encode them again."""
        from kabuto.net import protocol as pr

        parts: dict[str, str] = {}

        def slot(text: str) -> str:
            mark = f"\0{_MARK}{len(parts)}\0"
            parts[json.dumps(mark)] = text
            return mark

        msg = dict(base)
        last = msg.get("last")
        if isinstance(last, dict) and any(isinstance(v, JSONText) for v in last.values()):
            msg["last"] = {k: slot(v) if isinstance(v, JSONText) else v for k, v in last.items()}
        known = self._view_text
        msg["view"] = slot(known[1]) if known is not None and known[0] is self.engine else self.view(None)
        text = pr.dumps(msg)
        for quoted, raw in parts.items():
            text = text.replace(quoted, raw, 1)
        return text

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.engine.to_json()

    def result(self) -> dict[str, Any] | None:
        r = self.engine.result
        if r is None:
            return None
        return {"winners": list(r.seats), "side": r.winner, "text": self.engine.result_text()}

    def save(self) -> Path | None:
        return self.recorder.close(self.engine) or self.recorder.save(self.engine)

    def record_name(self) -> str:
        return self.recorder.path.name

    def clone_game(self) -> Game:
        return self.engine.clone()


class _Unrecorded:
    """A worker's game is not recorded: the server's table records what the worker did."""

    def update(self, game: Game) -> None:
        return None


class JSONText(str):
    """A value already encoded as JSON text, to go into a message as it is."""


#: Marks where :meth:`KabutoTable.message_text` puts JSON text (random: nothing else can hold it).
_MARK = secrets.token_hex(8)


@dataclass
class WorkerPush:
    """What a worker sends back for an action it played: the game after it, its at-rest state as
    JSON text, the action's detail (a push's trajectory as JSON text), and when it finished."""

    game: Game
    view: JSONText
    detail: dict[str, Any] | None
    done_at: float


def _encode(value: Any) -> JSONText:
    return JSONText(json.dumps(value, separators=(",", ":"), allow_nan=False))


def apply_kabuto_action(game: Game, seats: tuple[str, ...], seat: int, action: Any
                        ) -> tuple[str | None, str, WorkerPush | None]:
    """In a worker process: ``seat``'s ``action`` on ``game`` (the worker's copy), exactly as
    :meth:`KabutoTable.apply` plays it: ``(None, "", what it did)``, or ``(code, message, None)``
    if the rules refuse it (an :class:`ActionError` does not cross processes whole)."""
    table = KabutoTable(game, _Unrecorded(), list(seats))  # type: ignore[arg-type]
    try:
        outcome = table.apply(seat, action)
    except ActionError as exc:
        return exc.code, str(exc), None
    detail = outcome.detail
    if detail is not None and "trajectory" in detail:
        detail = {**detail, "trajectory": _encode(detail["trajectory"])}
    return None, "", WorkerPush(table.engine, _encode(table.engine.to_json()), detail, outcome.done_at)


def setup_kabuto_game(players: int, options: dict[str, Any], seed: int) -> Game:
    """A new Kabuto Sumo game of a room's set-up; ActionError if the options do not make one."""
    from kabuto.rules.game import Game

    opts = kabuto_options(options)
    wrestlers = opts["wrestlers"].split(",") if "wrestlers" in opts else None
    try:
        return Game.new(players=players, wrestlers=wrestlers, junior=opts.get("junior", False), seed=seed)
    except ValueError as exc:
        raise ActionError("illegal", str(exc)) from None


def new_kabuto_game(players: int, options: dict[str, Any], seed: int) -> Game:
    """:func:`setup_kabuto_game` in a worker process (ValueError if it cannot: an
    :class:`ActionError` does not cross processes whole)."""
    try:
        return setup_kabuto_game(players, options, seed)
    except ActionError as exc:
        raise ValueError(str(exc)) from None


def warm_worker() -> int:
    """In a worker process: import what :func:`apply_kabuto_action` and the bots need; its pid."""
    import kabuto.ai.search  # noqa: F401
    import kabuto.rules.game  # noqa: F401

    return os.getpid()


def replays_folder(data_dir: str | os.PathLike[str] | None) -> Path:
    from kabuto.replay.userdata import ensure_dir, replays_dir

    return ensure_dir(replays_dir(data_dir))


__all__ = ["KABUTO", "ActionError", "CardTable", "KabutoTable", "Applied", "Table", "card_setups",
           "game_names", "player_counts", "public_view", "record_seed", "trajectory_from_json", "trajectory_json"]
