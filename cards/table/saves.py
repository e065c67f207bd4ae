"""Unfinished card games, saved and taken up again: one small JSON file per game in a folder the
host gives (the app: ``cards/`` in its data folder), written whenever the table is left or paused.

A save holds the table set-up (game, seats, deal number) and the engine's own state
(``CardGame.to_json``), never pickle; reading a save checks its shape and size first, and a file
that is not one is refused with one line (:class:`BadSave`). No pyglet here.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards import GAMES
from cards.table.config import SeatSpec, TableConfig
from kabuto_base.fileio import write_atomic

FORMAT = "kabuto-card-table-save"
VERSION = 1
MAX_BYTES = 4_000_000  # an engine state is a few kB; anything bigger is not a save


class BadSave(ValueError):
    """A file that is not a card-table save (one line, naming the file)."""


@dataclass(frozen=True)
class Saved:
    """A save as read back: where it is, the set-up, the engine state, when it was written."""

    path: Path
    config: TableConfig
    state: dict[str, Any]
    saved_at: float
    moves: int


def save(folder: Path, config: TableConfig, state: dict[str, Any], moves: int,
         name: str | None = None) -> Path:
    """Write (atomically) the save of a game: ``state`` is its engine's ``to_json()``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (name or f"{config.mode}-{time.strftime('%Y%m%d-%H%M%S')}-{config.seed}.json")
    data = {"format": FORMAT, "version": VERSION, "saved_at": time.time(), "moves": moves,
            "config": {"mode": config.mode, "seed": config.seed,
                       "seats": [{"kind": s.kind, "strength": s.strength} for s in config.seats]},
            "state": state}
    return write_atomic(path, json.dumps(data))


def load(path: Path) -> Saved:
    """Read a save; :class:`BadSave` if it is not one (too big, not JSON, wrong shape)."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise BadSave(f"{path.name}: too big to be a card-table save")
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BadSave(f"{path.name}: not a card-table save")
        cfg = data["config"]
        config = TableConfig(str(cfg["mode"]),
                             tuple(SeatSpec(str(s["kind"]), str(s["strength"])) for s in cfg["seats"]),
                             int(cfg["seed"]))
        config.validate()
        state = data["state"]
        if not isinstance(state, dict):
            raise BadSave(f"{path.name}: the game state is missing")
        return Saved(path, config, state, float(data.get("saved_at", 0.0)), int(data.get("moves", 0)))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        if isinstance(exc, BadSave):
            raise
        raise BadSave(f"{path.name}: not a card-table save ({exc.__class__.__name__})") from None


def unfinished(folder: Path) -> list[Saved]:
    """The saves in ``folder`` whose game is not over, newest first (bad files are skipped)."""
    from cards.table.config import table_data

    out = []
    for p in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            s = load(p)
            game = GAMES[table_data().mode(s.config.mode).game].from_json(s.state)
        except (BadSave, ValueError, KeyError, TypeError):
            continue
        if not game.is_over:
            out.append(s)
    return sorted(out, key=lambda s: s.saved_at, reverse=True)
