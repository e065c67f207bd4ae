"""The one resumable ledger: long runs keep each finished unit of work as one line of a JSON-lines
file, on disk before the run goes on, so a run stopped by Ctrl-C, ``kill`` or a crash goes on
where it stopped (``--resume``), on this machine or another.

:class:`Ledger` is the file: bounded reading (a hostile or damaged file costs little; a last line
cut short as a run was stopped is left out, any other unreadable line is a :class:`LedgerError`
naming it), appending with ``fsync``, atomic rewriting. What a line holds is its user's: the
balance report's and the tournament's games (:mod:`kabuto.lab.ledger`), the early-wins search's
units, a tuning sweep's runs. Standard library only.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from kabuto_base.fileio import write_atomic

T = TypeVar("T")

#: The most lines a ledger may hold, and the longest line: a hostile or damaged file costs bounded
#: time and memory (the full balance report is 1,640 games of about 1 kB).
MAX_LINES = 100_000
MAX_LINE = 64_000


class LedgerError(ValueError):
    """A ledger that cannot be read (its path and line are in the message)."""


class Ledger:
    """A resumable ledger at ``path``: one JSON object a line, each a finished unit of work."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def entries(self, parse: Callable[[dict[str, Any]], T]) -> Iterator[tuple[int, T]]:
        """(line number, ``parse(line's JSON object)``) for every line; none if there is no file.

        Bounded (at most :data:`MAX_LINES` lines of :data:`MAX_LINE` characters). A last line cut
        short (a run stopped while writing it) is left out; any other line that is not a JSON
        object, or that ``parse`` refuses (ValueError, KeyError, TypeError, AttributeError), is a
        :class:`LedgerError` naming it."""
        path = self.path
        if not path.is_file():
            return
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
                    return  # cut short as it was written: that work is done again
                raise LedgerError(f"{path}, line {i + 1}: unreadable ({exc}); delete the line to do "
                                  f"that work again") from None
            yield i + 1, value

    def append(self, entry: dict[str, Any]) -> None:
        """Add ``entry``'s line, on disk before this returns (a crash can cut only this line
        short, and :meth:`entries` leaves a cut last line out)."""
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line(entry) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def rewrite(self, entries: Iterable[dict[str, Any]]) -> None:
        """Replace the ledger with ``entries``' lines, atomically."""
        write_atomic(self.path, "".join(line(e) + "\n" for e in entries).encode())


def _line(entry: dict[str, Any]) -> str:
    return json.dumps(entry, separators=(",", ":"), sort_keys=True)


def line(entry: dict[str, Any]) -> str:
    """``entry`` as a ledger writes it: one line of compact JSON, keys sorted (no newline)."""
    return json.dumps(entry, separators=(",", ":"), sort_keys=True)


__all__ = ["MAX_LINE", "MAX_LINES", "Ledger", "LedgerError", "line"]
