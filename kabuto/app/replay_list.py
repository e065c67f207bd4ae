"""The recorded games as the replay browser and the start menu's Continue see them: who played
(seats and wrestlers), when, the result or "unfinished", and how long. No pyglet.

Every game is recorded in the replays folder (:mod:`kabuto.replay.recorder`); a resumed game is
recorded in a new file that names the one it went on from (``meta.resumed_from``: resuming never
changes the file resumed), so the older file is "continued", not unfinished, and Continue offers
the newest file of the line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kabuto_ui import theme

MAX_LISTED = 200  # the newest files; an enormous folder still opens at once


@dataclass(frozen=True)
class ReplayEntry:
    """One recorded game, in words a player reads."""

    path: Path
    players: str       # "Red: Mighty Jaw Mike, Blue: Goliath Gus (AI)"
    date: str          # "1 Dec 2026, 08:51"
    result: str        # the result in the game's words, "unfinished" or "continued later"
    pushes: int
    unfinished: bool   # may be resumed (not over, and not continued in a later file)
    saved_at: float    # for sorting: seconds since the epoch

    @property
    def length(self) -> str:
        return "no push yet" if self.pushes == 0 else f"{self.pushes} push" + "es" * (self.pushes != 1)


def _names() -> dict[str, str]:
    from kabuto.app.catalogue import wrestler_cards

    return {c.key: c.name for c in wrestler_cards()[0]}


def _date(stamp: object, fallback: float) -> tuple[str, float]:
    try:
        when = datetime.fromisoformat(str(stamp))
    except ValueError:
        when = datetime.fromtimestamp(fallback)
    return f"{when.day} {when:%b %Y, %H:%M}", when.timestamp()


def _read(path: Path, names: dict[str, str] | None) -> tuple[ReplayEntry, dict]:
    from kabuto.replay import format as rp

    try:
        replay = rp.load(path)
    except (OSError, rp.ReplayError) as exc:
        raise ValueError(f"{path.name}: {exc}") from None
    names = _names() if names is None else names
    setup, meta = replay.setup, replay.meta
    seats = list(meta.get("seats") or ())
    who = []
    for i, key in enumerate(setup.wrestlers):
        ai = " (AI)" if i < len(seats) and seats[i] == "ai" else ""
        who.append(f"{theme.seat_name(i)}: {names.get(key, key.title())}{ai}")
    date, ts = _date(meta.get("saved") or meta.get("created"), path.stat().st_mtime)
    result = meta.get("result")
    return ReplayEntry(path, ", ".join(who), date, table_words(str(result)) if result else "unfinished",
                       replay.pushes, not result, ts), meta


_SEAT = re.compile(r"\bseat (\d)\b")
_TEAM = re.compile(r"\bteam (\d)\b")


def table_words(text: str) -> str:
    """A recorded text (a result, in the engine's words: "seat 0 (Dung Dora)", "team 1") in the
    table's: seats by their colours, teams by their letters.

    >>> table_words("team 1 wins: seat 0 (Dung Dora) has no pieces left")
    'team B wins: Red (Dung Dora) has no pieces left'
    """
    text = _SEAT.sub(lambda m: theme.seat_name(int(m.group(1))), text)
    return _TEAM.sub(lambda m: theme.TEAM_NAMES[int(m.group(1))] if int(m.group(1)) < len(theme.TEAM_NAMES)
                     else m.group(0), text)


def list_replays(folder: Path) -> tuple[list[ReplayEntry], int]:
    """(entries newest first, how many files could not be read) for the replays in ``folder``."""
    try:
        files = sorted((p for p in folder.iterdir() if p.name.endswith(".json") and p.is_file()),
                       key=lambda p: p.stat().st_mtime, reverse=True)[:MAX_LISTED]
    except OSError:
        return [], 0
    names = _names()
    out: list[ReplayEntry] = []
    bad = 0
    continued: set[str] = set()
    ids: dict[Path, str] = {}
    for p in files:
        try:
            e, meta = _read(p, names)
        except ValueError:
            bad += 1
            continue
        if meta.get("resumed_from"):
            continued.add(str(meta["resumed_from"]))
        ids[p] = str(meta.get("game_id") or p.name)
        out.append(e)
    out = [e if not (e.unfinished and ids[e.path] in continued) else
           ReplayEntry(e.path, e.players, e.date, "continued later", e.pushes, False, e.saved_at)
           for e in out]
    return sorted(out, key=lambda e: e.saved_at, reverse=True), bad


def last_unfinished(folder: Path) -> ReplayEntry | None:
    """The newest game that may be continued, or None."""
    return next((e for e in list_replays(folder)[0] if e.unfinished), None)
