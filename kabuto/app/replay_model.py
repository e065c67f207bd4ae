"""Stepping through a recorded game for the replay viewer, forward and back. No pyglet.

Two kinds of file are read by :func:`open_recording`:

* replay files (``kabuto-replay``, written by :mod:`kabuto.replay.recorder` for every game): loaded and
  validated by :func:`kabuto.replay.format.load` and stepped with
  :class:`kabuto.replay.format.ReplayStepper`, which switches the materials tables, re-plays undo entries and checks every recorded state hash;
* a bare saved game (``Game.to_json()``, format ``kabuto-game``): its setup and history.

A *step* is one entry that changes the board (a push, a signature move, an edit, an undo) with the
``end_turn`` entries that follow it. Forward re-applies it with the rules engine (a push is
simulated again and returned, so it can be animated). Back restores the state kept when that step
was first reached (``Game.clone`` keeps the at-rest state exactly).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kabuto.rules.inventory import parse_place
from kabuto_ui import theme

STEP_TYPES = ("push", "move", "edit", "undo")


def is_replay_file(path: Path) -> bool:
    """True for a replay file (its first 4 KiB name the ``kabuto-replay`` format), False for any
    other file (perhaps a bare saved game); ValueError (one line) if the file cannot be read."""
    try:
        head = Path(path).read_bytes()[:4096]
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror})") from None
    return b"kabuto-replay" in head


def read_saved_game(path: Path) -> Any:
    """The JSON in a file that is not a replay file; ValueError (one line) if it is not JSON."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: neither a replay nor a saved game ({exc})") from None


def open_recording(path: Path) -> ReplayModel:
    """The model for a replay file or a saved game; ValueError (one line) if it is neither."""
    path = Path(path)
    if is_replay_file(path):
        from kabuto.replay import format as rp

        return ReplayFileModel(rp.load(path), path.name)
    data = read_saved_game(path)
    if not isinstance(data, dict) or "setup" not in data or not isinstance(data.get("history"), list):
        raise ValueError(f"{path}: not a Kabuto replay or saved game (no setup and history in it)")
    return HistoryModel(data["setup"], data["history"], path.name)


class ReplayModel:
    """The game at step ``pos`` (0 = the start) of a list of entries."""

    def __init__(self, entries: list[dict[str, Any]], source: str, seats: tuple[str, ...] = ()):
        self.entries = entries
        self.source = source
        self.seats = seats
        starts = [i for i, a in enumerate(entries) if a.get("type") in STEP_TYPES]
        # Step k (1-based) covers entries[bounds[k - 1]:bounds[k]]; end_turn entries go with the
        # step before them.
        self.bounds = [0] + [starts[j + 1] if j + 1 < len(starts) else len(entries)
                             for j in range(len(starts))]
        self.pos = 0
        self._kept: dict[int, Any] = {}
        #: One line to show when the game went on from recorded states (a replay made on another
        #: Python, processor or build), else None.
        self.notice: str | None = None

    # To fill in: the game now, applying one entry, and keeping / restoring the whole state.
    game: Any

    def _apply(self, i: int) -> Any:
        raise NotImplementedError

    def _keep(self) -> Any:
        raise NotImplementedError

    def _restore(self, kept: Any) -> None:
        raise NotImplementedError

    @property
    def steps(self) -> int:
        return len(self.bounds) - 1

    def entry(self, k: int | None = None) -> dict[str, Any]:
        """The board-changing entry of step ``k`` (default: the one last played)."""
        k = self.pos if k is None else k
        for i in range(self.bounds[k - 1], self.bounds[k]) if k > 0 else ():
            if self.entries[i].get("type") in STEP_TYPES:
                return self.entries[i]
        return {}

    def describe(self, k: int | None = None) -> str:
        """What step ``k`` (default: the one last played) did, in words."""
        k = self.pos if k is None else k
        if k == 0:
            return "the start"
        a = self.entry(k)
        # Seats by colour, as the table names them.
        seat = a.get("seat")
        who = theme.seat_name(seat) if isinstance(seat, int) else ""
        t = a.get("type")
        if t == "push":
            return (f"{who} pushed {self._piece_words(str(a.get('kind', '')))} from "
                    f"{a.get('entry_deg', 0):.1f}°, heading {a.get('heading_deg', 0):+.1f}° at "
                    f"{a.get('speed', 0) * 1000:.0f} mm/s")
        if t == "move":
            return f"{who} used {a.get('name')}"
        if t == "undo":
            n = a.get("undone", 1)
            return f"undo: the last {n} action{'s' * (n != 1)} taken back"
        piece = str(a.get("piece", ""))
        try:
            what = self._piece_words(self.game.kind_of(piece))
        except (KeyError, ValueError):
            what = "a piece"
        return f"edit: {what} put on {self._place_words(str(a.get('place', '')))}"

    @staticmethod
    def _place_words(place: str) -> str:
        """ "the ring", "the supply", "Blue's inventory", "team B's inventory"."""
        try:
            p = parse_place(place)
        except ValueError:
            return "another place"
        if p.number is None:
            return "the ring" if p.kind == "board" else f"the {p.kind}"
        if p.kind == "team":
            return f"{theme.TEAM_NAMES[p.number % len(theme.TEAM_NAMES)]}'s inventory"
        return f"{theme.seat_name(p.number)}'s inventory"

    def _piece_words(self, kind: str) -> str:
        """ "a small disc", "the Boulder": a kind as the table names it."""
        name = self.game.kind_name(kind)
        return f"a {name}" if name.endswith(" disc") else f"the {name}"

    def forward(self):
        """Play the next step; the push's outcome (to animate) or None. ValueError (ReplayError)
        if the rules refuse it or it does not reach the recorded state."""
        if self.pos >= self.steps:
            return None
        if self.pos not in self._kept:
            self._kept[self.pos] = self._keep()
        outcome = None
        for i in range(self.bounds[self.pos], self.bounds[self.pos + 1]):
            out = self._apply(i)
            if self.entries[i].get("type") == "push":
                outcome = out
        self.pos += 1
        return outcome

    def seek(self, k: int) -> None:
        """Jump to step ``k`` without animation (back from a kept state, forward by playing)."""
        k = max(0, min(self.steps, k))
        if k < self.pos or (k != self.pos and k in self._kept):
            best = max(j for j in self._kept if j <= k)
            self._restore(self._kept[best])
            self.pos = best
        while self.pos < k:
            self.forward()


class ReplayFileModel(ReplayModel):
    """A ``kabuto-replay`` file through :class:`kabuto.replay.format.ReplayStepper`."""

    def __init__(self, replay, source: str):
        from kabuto.replay.format import ReplayStepper

        seats = tuple((replay.meta or {}).get("seats") or ())
        super().__init__(replay.timeline, source, seats)
        self.replay = replay
        self.pb = ReplayStepper(replay)
        self._resynced: dict[int, Any] = {}  # timeline index -> its StepReport

    @property
    def game(self):
        return self.pb.game

    def _apply(self, i: int):
        from kabuto.rules.errors import ReplayError

        assert self.pb.index == i, "the playback is out of step with the viewer"
        report = self.pb.step()
        if report.resynced:  # shown from the recorded state, and the viewer says so
            from kabuto.replay.format import continued_text

            self._resynced[i] = report
            self.notice = continued_text(list(self._resynced.values()))
        elif not report.ok:
            raise ReplayError(f"{report.label} ({report.where()}) re-simulates to another state "
                              f"than recorded: {report.difference_text(3)}")
        return report.outcome

    def _keep(self):
        return self.pb.checkpoint()

    def _restore(self, kept) -> None:
        self.pb.restore(kept)


class HistoryModel(ReplayModel):
    """A bare saved game: its setup and history, re-applied with the rules engine."""

    def __init__(self, setup: dict[str, Any], history: list[dict[str, Any]], source: str):
        from kabuto.rules.game import Game

        super().__init__(history, source)
        self.game = Game.from_setup(setup)

    def _apply(self, i: int):
        from kabuto.replay.format import action_of
        from kabuto.rules.errors import ReplayError
        from kabuto.rules.outcomes import PushOutcome

        try:
            out = self.game.apply(action_of(self.entries[i]), verify=True)
        except ValueError as exc:
            raise ReplayError(f"step {self.pos + 1} (history[{i}]): {exc}") from None
        return out if isinstance(out, PushOutcome) else None

    def _keep(self):
        return self.game.clone()

    def _restore(self, kept) -> None:
        self.game = kept.clone()
