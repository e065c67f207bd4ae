"""The games' ledgers (:class:`kabuto_base.ledger.Ledger`, the one resumable ledger): the balance
report's (``balance-games.jsonl``: one short line a game, enough to remake the report) and a
folder of kept games' (``games.jsonl`` beside their replays: the tournament's, the report's
``--games-dir``). A line is only as good as the code and data that played it, so each carries
their fingerprint as ``"code"`` (:mod:`kabuto.lab.fingerprint`), and a line of another
fingerprint is a game of another design, played again; the fingerprint follows behaviour, not
source text, so a refactor keeps the games.

The games' lines (:func:`compact_line`, :func:`load`) hold what the reports read: who played, who
won, why, how many turns, and which signature moves each seat used; any game can be played again,
bit for bit, from its seed.

>>> import json
>>> text = compact_line(GameRecord(GameSpec(0, ("mike", "hank"), 0, ("hard", "hard"), 7, 40), 1,
...     "knockout", 9, 120, {"actions": [{"type": "push", "seat": 0, "kind": "small"},
...     {"type": "move", "seat": 1, "name": "Pitchfork", "target": {}}]}), "f00d")
>>> record_of(json.loads(text)).replay["actions"][1]
{'name': 'Pitchfork', 'seat': 1, 'type': 'move'}
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from kabuto.lab.fingerprint import code_of, fingerprint
from kabuto.lab.match import GameRecord, GameSpec
from kabuto_base.ledger import Ledger, LedgerError, line

#: The ledger's name, in the report's folder.
NAME = "balance-games.jsonl"

T = TypeVar("T")


def compact_entry(record: GameRecord, code: str) -> dict[str, Any]:
    """The ledger entry of ``record``: its result and the actions the reports read."""
    d = record.to_json()
    actions = [{k: a[k] for k in ("type", "seat", "name") if k in a}
               for a in record.replay.get("actions", []) if a.get("type") in ("push", "move")]
    d["replay"], d["plans"] = {"actions": actions}, []
    return {"code": code, **d}


def compact_line(record: GameRecord, code: str) -> str:
    """One ledger line for ``record`` (no newline)."""
    return line(compact_entry(record, code))


def record_of(d: dict[str, Any]) -> GameRecord:
    """The (compact) record a ledger line holds."""
    d = dict(d)
    d.pop("code", None)
    return GameRecord.from_json(d)


def read(path: Path, parse: Callable[[dict[str, Any]], T]) -> Iterator[tuple[int, T]]:
    """:meth:`Ledger.entries` of the ledger at ``path``."""
    return Ledger(path).entries(parse)


def load(path: Path, specs: Iterable[GameSpec], run: str = "report") -> tuple[dict[int, GameRecord], int]:
    """The games of ``specs`` the ledger at ``path`` holds that were played by the code and data here
    (:func:`code_of`), and how many of its lines were played by other code or data (stale: to be
    played again).

    A last line cut short (a run stopped while writing it) is left out; any other unreadable line,
    or a line naming a game of these indices with other settings (of another ``run``), is a
    :class:`LedgerError`."""
    wanted = {s.index: s for s in specs}
    out: dict[int, GameRecord] = {}
    stale = 0
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
            raise LedgerError(f"{path}, line {number}: game {record.spec.index} of another {run} "
                              f"(other settings); use another --out folder")
        else:
            out[spec.index] = record
    return out, stale


def rewrite(path: Path, records: Iterable[GameRecord]) -> None:
    """Replace the games' ledger at ``path`` with ``records``' lines, atomically."""
    Ledger(path).rewrite(compact_entry(r, code_of(r.spec)) for r in records)


def append(path: Path, record: GameRecord) -> None:
    """Add ``record``'s line to the games' ledger at ``path`` (:meth:`Ledger.append`)."""
    Ledger(path).append(compact_entry(record, code_of(record.spec)))


__all__ = ["NAME", "Ledger", "LedgerError", "append", "compact_entry", "compact_line", "load", "read",
           "record_of", "rewrite"]
