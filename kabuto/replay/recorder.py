"""Every game is recorded: a :class:`Recorder` keeps a game's replay and saves it after each turn.

::

    from kabuto import Game
    from kabuto.replay.recorder import record

    game = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    rec = record(game)                   # into the per-user data folder (kabuto.replay.userdata)
    game.push("small", entry_deg=180.0)  # ... play ...
    rec.update(game)                     # after every action: saves when a turn has ended
    rec.close(game)                      # at the end (or on quit): saves what is left

The hook is one call, :meth:`Recorder.update`, made after anything that changes the game (a push,
a signature move, an end of turn, an edit, an undo, a tuning change). It reads the game's
:attr:`~kabuto.Game.history` and works out what happened since the last call:

* new actions are appended, each tagged with the materials table in force (a tuning change adds a
  table to the replay's materials list);
* an undo is noticed when the history is shorter than, or differs from, what was seen: the undone
  actions stay in the replay and an ``{"type": "undo", "undone": N}`` entry follows them, so a
  replay reproduces the undo (see ``docs/replay-format.md``). ``update`` may be given a different
  Game object than before - the app's undo builds a new one.

Saving is atomic (:func:`kabuto.replay.format.write_atomic`: temp file in the same folder, fsync,
``os.replace``) and happens when a turn has ended since the last save, when the game is over, and
after an undo. A process killed at any moment loses at most the turn in flight, and the file on
disk is always a complete, valid replay.

Call ``update`` after every action, not once per turn: the positions each action leaves (used by
``kabuto replay --verify`` to say what differs) and each action's turn number are recorded only
when they are certain, which they are when each call sees one action at a time.
"""
from __future__ import annotations

import datetime as _dt
import importlib.metadata
import os
import threading
import uuid
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kabuto.replay import format as rp
from kabuto.replay.userdata import ensure_dir, replays_dir
from physics import Materials, PieceState
from physics.versions import PHYSICS_MODEL, engine

if TYPE_CHECKING:
    from kabuto.rules.game import Game, GameSetup

#: History entry types the game may use for a tuning change (``Game.set_materials``), whatever it
#: calls them: they switch the materials table, they are not actions of their own in a replay.
TUNING_TYPES = ("materials", "set_materials", "tuning")


class RecordingError(OSError):
    """The replay could not be written (disk full, folder removed, ...)."""


def _is_tuning(entry: dict[str, Any]) -> bool:
    kind = entry.get("type")
    return kind in TUNING_TYPES or (kind not in rp.ACTION_TYPES and isinstance(entry.get("materials"), dict))


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).astimezone().isoformat(timespec="seconds")


def _version() -> str:
    try:
        return importlib.metadata.version("kabuto")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _start_hash(setup: GameSetup) -> str:
    """The hash of the board ``setup`` starts on here (a replay checks it before re-simulating)."""
    from kabuto.rules.game import Game

    return rp.start_hash(Game.from_setup(setup))


def _file_name(setup: GameSetup, game_id: str) -> str:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    who = "-".join(setup.wrestlers)
    return f"{stamp}-{who}-{game_id[:8]}{rp.SUFFIX}"


class Recorder:
    """The replay of one game, kept up to date by :meth:`update` and saved into ``folder``."""

    def __init__(self, folder: Path, setup: GameSetup, *, seats: tuple[str, ...] | None = None,
                 base: rp.Replay | None = None, seen: list[dict[str, Any]] | None = None,
                 turn: int = 1, pieces: dict[str, PieceState] | None = None):
        self.folder = Path(folder)
        self.setup = setup
        self.game_id = uuid.uuid4().hex
        self.path = self.folder / _file_name(setup, self.game_id)
        self._lock = threading.RLock()
        self._tables: list[rp.MaterialsTable] = []
        self._by_hash: dict[str, int] = {}
        self._by_id: dict[int, tuple[Materials, int]] = {}
        self.timeline: list[dict[str, Any]] = []
        self.meta: dict[str, Any] = {"game_id": self.game_id, "created": _now(), "kabuto": _version(),
                                     "engine": engine(), "physics_model": PHYSICS_MODEL,
                                     "start_hash": _start_hash(setup)}
        if seats:
            self.meta["seats"] = list(seats)
        if base is not None:
            for t in base.materials:
                self._add_table(t)
            self.timeline = [dict(a) for a in base.timeline]
            self.meta["resumed_from"] = str(base.meta.get("game_id") or Path(base.name).name)
            if "seats" in base.meta and not seats:
                self.meta["seats"] = list(base.meta["seats"])
        else:
            from kabuto.rules.game import exact_materials

            self._add_table(rp.MaterialsTable(rp.materials_hash(setup.materials), setup.materials,
                                              exact_materials(setup.materials)))
        # What the game's history looked like at the last update, and for each position in it the
        # turn number and the at-rest pieces after it (None where not known for certain).
        self._seen: list[dict[str, Any]] = list(seen or [])
        self._is_action: list[bool] = [e.get("type") in rp.ACTION_TYPES for e in self._seen]
        self._turn_at: list[int | None] = [*[None] * len(self._seen), turn]
        self._pieces_at: list[dict[str, PieceState] | None] = [*[None] * len(self._seen), pieces]
        self._in_force = 0
        self._saved_turn: int | None = None
        self._dirty = False
        self._undo_pending = False
        self._base_len = len(self.timeline)  # actions taken over from a resumed replay

    # ----- building ------------------------------------------------------------------------------
    @classmethod
    def start(cls, game: Game, data_dir: str | os.PathLike[str] | None = None, *,
              seats: tuple[str, ...] | list[str] | None = None) -> Recorder:
        """A recorder for ``game`` saving into the replays folder of the data folder (created now,
        so a bad folder is reported before play starts; UserDataError). A game made by
        :func:`kabuto.replay.format.resume_game` continues its replay (written to a new file)."""
        folder = ensure_dir(replays_dir(data_dir))
        base = rp.origin_of(game)
        seats_t = tuple(seats) if seats else None
        if base is not None:
            rec = cls(folder, game.setup, seats=seats_t, base=base, seen=game.history,
                      turn=game.turn.number, pieces=rp.pieces_of(game.world))
        elif not game.history:
            rec = cls(folder, game.setup, seats=seats_t, pieces=rp.pieces_of(game.world))
        else:
            # A game loaded from a saved Game.to_json(): its history is taken in as if it had all
            # just been played. Which materials each past push used is not in a saved game; the
            # ones in force now are assumed (verify tells if that was wrong).
            from kabuto.rules.game import Game

            start = Game.from_setup(game.setup)
            rec = cls(folder, game.setup, seats=seats_t, pieces=rp.pieces_of(start.world))
            rec.meta["note"] = (f"turns 1-{game.turn.number} were taken from a saved game; their "
                                f"pushes are assumed to use the materials in force when it was "
                                f"resumed")
            rec._sync(game)
        rec._in_force = rec._table_of(game.materials)
        rec._saved_turn = game.turn.number
        return rec

    # ----- materials -----------------------------------------------------------------------------
    def _add_table(self, t: rp.MaterialsTable) -> int:
        if t.hash not in self._by_hash:
            self._by_hash[t.hash] = len(self._tables)
            self._tables.append(t)
        idx = self._by_hash[t.hash]
        self._by_id[id(t.materials)] = (t.materials, idx)
        return idx

    def _table_of(self, materials: Materials) -> int:
        hit = self._by_id.get(id(materials))
        if hit is not None and hit[0] is materials:
            return hit[1]
        idx = self._add_table(rp.MaterialsTable.of(materials))
        self._by_id[id(materials)] = (materials, idx)
        return idx

    # ----- following the game ----------------------------------------------------------------------
    def update(self, game: Game) -> Path | None:
        """Take in what happened since the last call; save if a turn ended, the game is over or an
        undo was made. Returns the file written, or None. RecordingError if it cannot be written."""
        with self._lock:
            self.sync(game)
            if not self._dirty:
                return None
            if (self._undo_pending or game.is_over or self._saved_turn != game.turn.number):
                return self.save(game)
            return None

    def sync(self, game: Game) -> None:
        """Take in what happened since the last call, without saving."""
        with self._lock:
            self._sync(game)

    def _sync(self, game: Game) -> None:
        hist = game.history
        seen = self._seen
        k = 0
        n = min(len(hist), len(seen))
        while k < n and hist[k] == seen[k]:
            k += 1
        if k < len(seen):  # the history went back: an undo (possibly followed by new actions)
            undone = sum(self._is_action[k:])
            if undone:
                self.timeline.append({"type": "undo", "undone": undone})
                self._undo_pending = self._dirty = True
            del seen[k:], self._is_action[k:], self._turn_at[k + 1:], self._pieces_at[k + 1:]
        new = hist[k:]
        if not new:
            if self._pieces_at[-1] is None:
                self._pieces_at[-1] = rp.pieces_of(game.world)
            if self._turn_at[-1] is None:
                self._turn_at[-1] = game.turn.number
            self._in_force = self._table_of(game.materials)
            return
        tunings = [j for j, e in enumerate(new) if _is_tuning(e)]
        # Actions are tagged with the materials in force now, unless the history itself says the
        # tuning changed within this batch: then the table switches where it says.
        table = self._in_force if tunings else self._table_of(game.materials)
        last_state = max((j for j, e in enumerate(new) if e.get("type") in rp.STATE_ACTIONS), default=-1)
        for j, e in enumerate(new):
            kind = e.get("type")
            turn = self._turn_at[-1]
            pieces = self._pieces_at[-1]
            is_last = j == len(new) - 1
            if j in tunings:
                table = self._tuning_table(e, game)
                seen.append(e)
                self._is_action.append(False)
                self._turn_at.append(turn)
                self._pieces_at.append(pieces)
                continue
            if kind not in rp.ACTION_TYPES or kind == "undo":
                warnings.warn(f"kabuto.replay.recorder: a history entry of type {kind!r} cannot be recorded; "
                              f"the replay may not verify", RuntimeWarning, stacklevel=3)
                seen.append(e)
                self._is_action.append(False)
                self._turn_at.append(None if not is_last else game.turn.number)
                self._pieces_at.append(None if not is_last else rp.pieces_of(game.world))
                continue
            action = self._action(e, turn, table)
            after_pieces: dict[str, PieceState] | None = pieces
            after_turn: int | None = turn
            if kind in rp.STATE_ACTIONS:
                after_pieces = rp.pieces_of(game.world) if j == last_state else None
                if after_pieces is not None and pieces is not None:
                    action["changes"] = rp.state_changes(pieces, after_pieces)
                if kind != "edit":
                    # A push or move may end the turn by itself (a replaced turn, an eliminated
                    # seat); an end_turn right after it proves it did not.
                    nxt = new[j + 1].get("type") if j + 1 < len(new) else None
                    after_turn = turn if nxt == "end_turn" else None
            elif kind == "end_turn":
                after_turn = turn + 1 if turn is not None else None
            if is_last:
                after_turn = game.turn.number
                after_pieces = rp.pieces_of(game.world)
            self.timeline.append(action)
            seen.append(e)
            self._is_action.append(True)
            self._turn_at.append(after_turn)
            self._pieces_at.append(after_pieces)
            self._dirty = True
        self._in_force = self._table_of(game.materials)

    def _tuning_table(self, entry: dict[str, Any], game: Game) -> int:
        """The table a tuning entry of the history switches to (its ``materials`` data when it
        carries them, else the game's materials now)."""
        from kabuto.rules.game import exact_materials

        data = entry.get("materials")
        if isinstance(data, dict):
            try:
                return self._add_table(rp.MaterialsTable(rp.materials_hash(data), data,
                                                         exact_materials(data)))
            except (ValueError, TypeError, KeyError):
                pass
        return self._table_of(game.materials)

    @staticmethod
    def _action(e: dict[str, Any], turn: int | None, table: int) -> dict[str, Any]:
        """A replay action from a Game.history entry: the fields of the format, in its order."""
        kind = e["type"]
        out: dict[str, Any] = {"type": kind}
        if turn is not None:
            out["turn"] = turn
        required, _ = rp._FIELDS[kind]
        for f in required[1:]:
            if f == "materials":
                out[f] = table
            elif f == "targets":
                out[f] = dict(e.get("targets", {}))
            else:
                out[f] = e.get(f)
        return out

    # ----- saving ----------------------------------------------------------------------------------
    def to_json(self, game: Game | None = None) -> dict[str, Any]:
        """The replay as it stands (with the result so far in ``meta`` when ``game`` is given)."""
        with self._lock:
            meta = dict(self.meta, saved=_now())
            if game is not None:
                meta["result"] = game.result.text if game.result else None
            s = self.setup
            return {
                "format": rp.FORMAT,
                "version": rp.VERSION,
                "setup": {"players": s.players, "wrestlers": list(s.wrestlers), "junior": s.junior,
                          "seed": s.seed, "first_player": s.first_player},
                "materials": [t.to_json() for t in self._tables],
                "materials_in_force": self._in_force,
                "actions": list(self.timeline),
                "meta": meta,
            }

    def save(self, game: Game | None = None) -> Path:
        """Write the replay now (atomically). RecordingError says why it could not be written."""
        with self._lock:
            if game is not None:
                self._sync(game)
            text = rp.dumps(self.to_json(game))
            try:
                rp.write_atomic(self.path, text)
            except OSError as exc:
                raise RecordingError(f"{self.path}: cannot save the replay "
                                     f"({exc.strerror or exc})") from None
            self._dirty = self._undo_pending = False
            if game is not None:
                self._saved_turn = game.turn.number
            return self.path

    def close(self, game: Game | None = None) -> Path | None:
        """Save whatever is not saved yet (a turn left open included); the file, or None if
        nothing was played (nothing is written then)."""
        with self._lock:
            if game is not None:
                self._sync(game)
            exists = self.path.exists()
            if not self._dirty and not exists and len(self.timeline) == self._base_len:
                return None  # nothing played (a resumed game left at once): no new file
            if self._dirty or not exists:
                return self.save(game)
            return self.path

    @property
    def saved(self) -> bool:
        """Whether everything recorded so far is on disk."""
        return not self._dirty


def record(game: Game, data_dir: str | os.PathLike[str] | None = None, *,
           seats: tuple[str, ...] | list[str] | None = None) -> Recorder:
    """Start recording ``game`` (see :meth:`Recorder.start`)."""
    return Recorder.start(game, data_dir, seats=seats)


__all__ = ["Recorder", "RecordingError", "record"]
