"""The ledger of a balance report's finished games: one short line a game, enough to remake the
report and to go on with it on another machine.

The full report (1,568 hard two-player games and 72 samples) takes longer than one sitting on two
cores, and a game's replay and plans (about 60 kB) are too big to keep by the thousand in the
repository. The report reads only a little of each game: who played, who won, why, how many turns,
and which signature moves each seat used and whether the last action was a push or a move. The
ledger (``balance-games.jsonl`` beside ``balance.json``) keeps exactly that, a line as each game
finishes, so it can be committed and ``kabuto balance --resume`` goes on from it anywhere; any game
can be played again, bit for bit, from its seed.

A line is only as good as the code and data that played it, so each carries a *fingerprint* of
them: the data that decide a game (``materials.toml``, ``wrestlers.toml``, ``ai.toml``,
``junior.toml``, and of ``setups.toml`` the supply and the board and inventories of the game's
number of players), the source of the physics, the rules, the AI and the game loop
(``kabuto/cli/tournament.py``), and pymunk's version. Comments, docstrings and layout are left out
of both (:func:`source_digest`, :func:`data_digest`: only a change the game can see counts), and so
is every other board: a change to the 3-player board leaves the two-player games standing. A line
of another fingerprint is a game of another design, and is played again.

The early-wins search (``tools/early_wins.py``) keeps its units of work the same way under
:func:`search_fingerprint`: the same data, physics and rules, but of the AI only the move targets
the search tries, so retuning how the AI plays replays the report's games and not the search.

>>> line = compact_line(GameRecord(GameSpec(0, ("mike", "hank"), 0, ("hard", "hard"), 7, 40), 1,
...     "knockout", 9, 120, {"actions": [{"type": "push", "seat": 0, "kind": "small"},
...     {"type": "move", "seat": 1, "name": "Pitchfork", "target": {}}]}), "f00d")
>>> record_of(json.loads(line)).replay["actions"][1]
{'name': 'Pitchfork', 'seat': 1, 'type': 'move'}
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import tomllib
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from kabuto.cli import tournament
from kabuto.cli.tournament import GameRecord, GameSpec
from physics.fileio import write_atomic

#: The ledger's name, in the report's folder.
NAME = "balance-games.jsonl"

T = TypeVar("T")

#: The data files that decide how a game goes (the rest of assets/ is help, sounds, card faces).
GAME_DATA = ("materials.toml", "setups.toml", "wrestlers.toml", "ai.toml", "junior.toml")

#: The most lines a ledger may hold, and the longest line: a hostile or damaged file costs bounded
#: time and memory (the full report is 1,640 games of about 1 kB).
MAX_LINES = 100_000
MAX_LINE = 64_000


def source_digest(text: str) -> str:
    """What the interpreter sees of a module: its syntax tree with docstrings dropped (comments and
    layout are not in the tree), so editing prose never makes a ledger's games stale.

    >>> source_digest('def f():\\n    "Why."\\n    return 1  # one') == source_digest('def f():\\n  return 1')
    True
    """
    tree = ast.parse(text)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


def data_digest(name: str, text: str, players: int, table: str | None = None) -> str:
    """What a game of ``players`` sees of the data file ``name``: its values (comments and layout
    are not data), and of ``setups.toml`` only the supply and the sections for that many players;
    ``table``: only that top-level table of the file.

    >>> a = '[supply]\\nlarge = 5\\n[boards.3]\\nlarge = [[0.0, 0.1]]\\n[boards.2]\\nlarge = []\\n'
    >>> b = a.replace('0.1', '0.2') + '# a note\\n'
    >>> data_digest('setups.toml', a, 2) == data_digest('setups.toml', b, 2)
    True
    >>> data_digest('setups.toml', a, 3) == data_digest('setups.toml', b, 3)
    False
    """
    data = tomllib.loads(text)
    if table is not None:
        data = {table: data.get(table)}
    if name == "setups.toml":
        data = {key: section.get(str(players)) if key != "supply" and isinstance(section, dict)
                else section for key, section in data.items()}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


@cache
def fingerprint(players: int) -> str:
    """The fingerprint of the code and data that play a game of ``players`` here (16 hex digits)."""
    import kabuto.ai

    # The tournament's module plays the games; the AI decides every move of them.
    return _fingerprint(players, {}, [_module(tournament), *_package(kabuto.ai)])


#: What the early-wins search (``tools/early_wins.py``) uses of the AI: the move targets it tries
#: (:func:`kabuto.ai.signature.target_combos`, its plan records and settings), and of ``ai.toml``
#: only the ``[search]`` table those settings come from.
SEARCH_AI_MODULES = ("signature.py", "levels.py", "plan.py")


@cache
def search_fingerprint(players: int) -> str:
    """The fingerprint of what decides the early-wins search's units on the board of ``players``:
    the data, the physics, the rules and the AI's move targets - not how the AI scores, searches
    or looks ahead, which the search never asks (so a change there, which replays every report
    game, leaves the search's ten CPU hours standing)."""
    import kabuto.ai

    root = Path(kabuto.ai.__file__ or "").parent
    ai = [(root / name, f"kabuto/ai/{name}") for name in SEARCH_AI_MODULES]
    return _fingerprint(players, {"ai.toml": "search"}, ai)


def _module(module: Any) -> tuple[Path, str]:
    path = Path(module.__file__ or "")
    return path, f"{module.__name__.replace('.', '/')}.py"


def _package(package: Any) -> list[tuple[Path, str]]:
    root = Path(package.__file__ or "").parent
    return [(path, path.relative_to(root.parent).as_posix()) for path in sorted(root.rglob("*.py"))]


def _fingerprint(players: int, tables: dict[str, str], extra: list[tuple[Path, str]]) -> str:
    """pymunk's version, the game data (of a file named in ``tables``, only that table), the
    physics, the rules and the sources ``extra`` (path, name), hashed."""
    import pymunk

    import kabuto.rules
    import kabuto_assets
    import physics

    h = hashlib.sha256(f"pymunk {pymunk.version}\n".encode())
    for name in GAME_DATA:
        text = kabuto_assets.path(name).read_text(encoding="utf-8")
        h.update(f"{name} {data_digest(name, text, players, tables.get(name))}\n".encode())
    for path, rel in [*_package(physics), *_package(kabuto.rules), *extra]:
        h.update(f"{rel} {source_digest(path.read_text(encoding='utf-8'))}\n".encode())
    return h.hexdigest()[:16]


def code_of(spec: GameSpec) -> str:
    """The fingerprint a game of ``spec`` is played under here."""
    return fingerprint(spec.players)


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
