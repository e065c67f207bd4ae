"""The ledger of a balance report's finished games: one short line a game, enough to remake the
report and to go on with it on another machine.

The full report (1,568 hard two-player games and 72 samples) takes longer than one run on two
cores, and a game's replay and plans (about 60 kB) are too big to keep by the thousand in the
repository. The report reads only a little of each game: who played, who won, why, how many turns,
and which signature moves each seat used and whether the last action was a push or a move. The
ledger (``balance-games.jsonl`` beside ``balance.json``) keeps exactly that, a line as each game
finishes, so it can be committed and ``kabuto balance --resume`` goes on from it anywhere; any game
can be played again, bit for bit, from its seed.

A line is only as good as the code and data that played it, so each carries their fingerprint
(:mod:`kabuto.lab.fingerprint`); a line of another fingerprint is a game of another design, and is
played again.

>>> line = compact_line(GameRecord(GameSpec(0, ("mike", "hank"), 0, ("hard", "hard"), 7, 40), 1,
...     "knockout", 9, 120, {"actions": [{"type": "push", "seat": 0, "kind": "small"},
...     {"type": "move", "seat": 1, "name": "Pitchfork", "target": {}}]}), "f00d")
>>> record_of(json.loads(line)).replay["actions"][1]
{'name': 'Pitchfork', 'seat': 1, 'type': 'move'}
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from kabuto.lab.fingerprint import code_of, fingerprint
from kabuto.lab.match import GameRecord, GameSpec
from kabuto_base.fileio import write_atomic

#: The ledger's name, in the report's folder.
NAME = "balance-games.jsonl"

T = TypeVar("T")

#: The most lines a ledger may hold, and the longest line: a hostile or damaged file costs bounded
#: time and memory (the full report is 1,640 games of about 1 kB).
MAX_LINES = 100_000
MAX_LINE = 64_000


def compact_line(record: GameRecord, code: str) -> str:
    """One ledger line for ``record`` (no newline): its result and the actions the report reads."""
    d = record.to_json()
    actions = [{k: a[k] for k in ("type", "seat", "name") if k in a}
               for a in record.replay.get("actions", []) if a.get("type") in ("push", "move")]
    d["replay"], d["plans"] = {"actions": actions}, []
    return json.dumps({"code": code, **d}, separators=(",", ":"), sort_keys=True)


def record_of(d: dict[str, Any]) -> GameRecord:
    """The (compact) record a ledger line holds."""
    d = dict(d)
    d.pop("code", None)
    return GameRecord.from_json(d)


class LedgerError(ValueError):
    """A ledger that cannot be read (its path and line are in the message)."""


def read(path: Path, parse: Callable[[dict[str, Any]], T]) -> Iterator[tuple[int, T]]:
    """(line number, ``parse(line's JSON object)``) for every line of the ledger at ``path``.

    Bounded (at most :data:`MAX_LINES` lines of :data:`MAX_LINE` characters), so a hostile or
    damaged file costs little. A last line cut short (a run stopped while writing it) is left out;
    any other line that is not a JSON object, or that ``parse`` refuses (ValueError, KeyError,
    TypeError, AttributeError), is a :class:`LedgerError` naming it."""
    if path.stat().st_size > MAX_LINES * MAX_LINE:
        raise LedgerError(f"{path}: {path.stat().st_size:,} bytes is too big for a ledger")
    with path.open(encoding="utf-8") as f:
        lines = f.read().split("\n")
    if len(lines) > MAX_LINES + 1:
        raise LedgerError(f"{path}: more than {MAX_LINES:,} lines")
    cut = len(lines) - 1  # after the last newline: a line cut short, if anything
    for i, text in enumerate(lines):
        if not text.strip():
            continue
        try:
            if len(text) > MAX_LINE:
                raise ValueError(f"longer than {MAX_LINE:,} characters")
            d = json.loads(text)
            if not isinstance(d, dict):
                raise ValueError("not a JSON object")
            value = parse(d)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            if i == cut:
                return  # cut short as it was written: that game is played again
            raise LedgerError(f"{path}, line {i + 1}: unreadable ({exc}); delete the line to play "
                              f"that game again") from None
        yield i + 1, value


def load(path: Path, specs: Iterable[GameSpec]) -> tuple[dict[int, GameRecord], int]:
    """The games of ``specs`` the ledger at ``path`` holds that were played by the code and data here
    (:func:`code_of`), and how many of its lines were played by other code or data (stale: to be
    played again).

    A last line cut short (a run stopped while writing it) is left out; any other unreadable line,
    or a line naming a game of these indices with other settings, is a :class:`LedgerError`."""
    wanted = {s.index: s for s in specs}
    out: dict[int, GameRecord] = {}
    stale = 0
    if not path.is_file():
        return out, 0
    here = {fingerprint(n) for n in {s.players for s in wanted.values()}}

    def parse(d: dict[str, Any]) -> tuple[Any, GameRecord | None]:
        # another design's game, perhaps in another format, is not read further
        return d.get("code"), (record_of(d) if d.get("code") in here else None)

    for number, (code, record) in read(path, parse):
        if record is None:
            stale += 1
            continue
        spec = wanted.get(record.spec.index)
        if spec is None or code != code_of(record.spec):
            stale += 1
        elif record.spec != spec:
            raise LedgerError(f"{path}, line {number}: game {record.spec.index} of another report "
                              f"(other settings); use another --out folder")
        else:
            out[spec.index] = record
    return out, stale


def rewrite(path: Path, records: Iterable[GameRecord]) -> None:
    """Replace the ledger at ``path`` with ``records``' lines, atomically."""
    text = "".join(compact_line(r, code_of(r.spec)) + "\n" for r in records)
    write_atomic(path, text.encode())


def append(path: Path, record: GameRecord) -> None:
    """Add ``record``'s line to the ledger, on disk before this returns (a crash can cut only
    this line short, and :func:`load` leaves a cut last line out)."""
    with path.open("a", encoding="utf-8") as f:
        f.write(compact_line(record, code_of(record.spec)) + "\n")
        f.flush()
        os.fsync(f.fileno())
