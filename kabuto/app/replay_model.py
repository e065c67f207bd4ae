"""Stepping through a recorded game for the replay viewer. No pyglet.

A recording is a game's setup plus its action history (:attr:`kabuto.Game.history`). It is read
from a file by :func:`load_recording`:

* if :mod:`kabuto.replay` exists and offers ``load(path)``, its loader is used (its answer must
  give ``setup`` and ``actions`` - attributes or keys);
* otherwise the file is a game saved by the app (``kabuto-app-save``) or by ``Game.to_json()``
  (``kabuto-game``): its ``setup`` and ``history`` are the recording.

Each *step* is one acting entry (a push, a signature move, an edit) with the ``end_turn`` entries
that follow it. Going forward re-applies the step with the rules engine, so a push is simulated
again and its trajectory can be animated; every reached state's hash is checked against the
recording. Going back restores the state saved when that step was first reached (JSON, which
continues bit-identically).
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ACTING = ("push", "move", "edit")


@dataclass
class Recording:
    setup: dict[str, Any]
    actions: list[dict[str, Any]]
    seats: tuple[str, ...] = ()
    source: str = ""
    undo_log: tuple = ()


def _get(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def load_recording(path: Path) -> Recording:
    """Read a replay or saved game; ValueError names what is wrong with the file."""
    path = Path(path)
    try:
        mod = importlib.import_module("kabuto.replay")
    except ModuleNotFoundError as exc:
        if exc.name != "kabuto.replay":
            raise
        mod = None
    if mod is not None and hasattr(mod, "load"):
        rec = mod.load(path)
        setup, actions = _get(rec, "setup"), _get(rec, "actions")
        if setup is not None and actions is not None:
            if hasattr(setup, "to_json"):
                setup = setup.to_json()
            return Recording(setup, list(actions), source=f"{path.name} (kabuto.replay)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not a JSON replay or saved game ({exc})") from None
    seats: tuple[str, ...] = ()
    undo_log: tuple = ()
    if isinstance(data, dict) and data.get("format") == "kabuto-app-save":
        seats = tuple(data.get("seats") or ())
        undo_log = tuple(data.get("undo_log") or ())
        data = data.get("game")
    if not isinstance(data, dict) or "setup" not in data:
        raise ValueError(f"{path}: not a Kabuto replay or saved game (no setup in it)")
    actions = data.get("history", data.get("actions"))
    if not isinstance(actions, list):
        raise ValueError(f"{path}: no action history in it")
    return Recording(data["setup"], actions, seats, path.name, undo_log)


class ReplayModel:
    """The game at step ``pos`` of a recording (0 = the start)."""

    def __init__(self, rec: Recording):
        from kabuto.game import Game

        self.rec = rec
        self._Game = Game
        acts = rec.actions
        starts = [i for i, a in enumerate(acts) if isinstance(a, dict) and a.get("type") in ACTING]
        # Step k covers actions[bounds[k]:bounds[k + 1]]. A step runs from after one acting entry to the next acting entry, inclusive: the end_turn
        # entries after an action belong to it.
        self.bounds = [0]
        for j, s in enumerate(starts):
            end = starts[j + 1] if j + 1 < len(starts) else len(acts)
            self.bounds.append(end)
        self.game = Game.from_setup(rec.setup)
        self.pos = 0
        self._saved: dict[int, dict[str, Any]] = {0: self.game.to_json()}

    @property
    def steps(self) -> int:
        return len(self.bounds) - 1

    def describe(self, k: int | None = None) -> str:
        """What step ``k`` (default: the one last played) did, in words."""
        k = self.pos if k is None else k
        if k == 0:
            return "the start"
        a: dict[str, Any] = {}
        for i in range(self.bounds[k - 1], self.bounds[k]):
            if self.rec.actions[i].get("type") in ACTING:
                a = self.rec.actions[i]
                break
        seat = a.get("seat")
        who = f"seat {seat}" if seat is not None else "edit"
        if a.get("type") == "push":
            return (f"{who} pushed a {a.get('kind')} from {a.get('entry_deg', 0):.1f} deg, heading "
                    f"{a.get('heading_deg', 0):+.1f} deg at {a.get('speed', 0):.2f} m/s")
        if a.get("type") == "move":
            return f"{who} used {a.get('name')}"
        return f"{a.get('type')} {a.get('piece', '')}"

    def forward(self):
        """Play the next step; returns the push's :class:`~kabuto.outcomes.PushOutcome` (to
        animate) or None for a move or edit. ReplayError if the game does not reach the recorded
        state."""
        from kabuto.errors import ReplayError

        if self.pos >= self.steps:
            return None
        outcome = None
        for i in range(self.bounds[self.pos], self.bounds[self.pos + 1]):
            a = self.rec.actions[i]
            try:
                if a.get("type") == "push":
                    outcome = self.game.push(a["piece"], a["entry_deg"], a.get("heading_deg", 0.0),
                                             a.get("speed", 0.3), a.get("spin_deg", 0.0), end_turn=False)
                    if a.get("hash") not in (None, outcome.state_hash):
                        raise ReplayError("the push does not reach the recorded state")
                else:
                    self.game.apply_action(a, verify=True)
            except (ValueError, KeyError) as exc:
                raise ReplayError(f"step {self.pos + 1} (action {i}): {exc}") from None
        self.pos += 1
        self._saved.setdefault(self.pos, self.game.to_json())
        return outcome

    def seek(self, k: int) -> None:
        """Jump to step ``k`` without animation (back from a saved state, forward by playing)."""
        k = max(0, min(self.steps, k))
        if k < self.pos or k in self._saved:
            best = max(j for j in self._saved if j <= k)
            self.game = self._Game.from_json(self._saved[best])
            self.pos = best
        while self.pos < k:
            self.forward()
