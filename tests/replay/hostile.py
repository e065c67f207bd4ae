"""A corpus of hostile replay files, built from a normal recorded replay.

Each entry is well-formed where it matters (materials hashes recomputed, as docs/replay-format.md
describes and as a careful forger would), so the file gets past the cheap checks and reaches the
one it is aimed at: physical bounds, the compute budget, the parser's cost, the minor points of
issue 17. :func:`corpus` returns ``(name, file bytes, words the one-line error must contain)``.

Used by ``tests/replay/test_hostile.py`` and ``tools/bench_parse.py``.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from kabuto.replay import format as rp

Data = dict[str, Any]


def rehash(data: Data) -> None:
    for t in data["materials"]:
        t["hash"] = rp.materials_hash(t["data"])


def _in_all_tables(edit: Callable[[Data], None]) -> Callable[[Data], None]:
    """Apply a materials edit to every table (so the game's pushes all run under it)."""
    def run(data: Data) -> None:
        for t in data["materials"]:
            edit(t["data"])
        rehash(data)
    return run


def _sim(**values: float) -> Callable[[Data], None]:
    return _in_all_tables(lambda d: d["simulation"].update(values))


def _scale_polygon(factor: float) -> Callable[[Data], None]:
    def edit(d: Data) -> None:
        kind = next(k for k, v in d["kinds"].items() if "polygons" in v["shape"])
        parts = d["kinds"][kind]["shape"]["polygons"]
        d["kinds"][kind]["shape"]["polygons"] = [[[x * factor, y * factor] for x, y in p] for p in parts]
    return _in_all_tables(edit)


def _circle(radius: float) -> Callable[[Data], None]:
    def edit(d: Data) -> None:
        kind = next(k for k, v in d["kinds"].items() if "circle" in v["shape"])
        d["kinds"][kind]["shape"] = {"circle": radius}
    return _in_all_tables(edit)


def _many_vertices(n: int) -> Callable[[Data], None]:
    import math

    def edit(d: Data) -> None:
        kind = next(k for k, v in d["kinds"].items() if "polygons" in v["shape"])
        ring = [[0.01 * math.cos(2 * math.pi * i / n), 0.01 * math.sin(2 * math.pi * i / n)]
                for i in range(n)]
        d["kinds"][kind]["shape"] = {"polygons": [ring]}

    def first_table(data: Data) -> None:  # one table only: 100,000 vertices are 4 MB of JSON
        edit(data["materials"][0]["data"])
        rehash(data)
    return first_table


def _many_parts(n: int) -> Callable[[Data], None]:
    def edit(d: Data) -> None:
        kind = next(k for k, v in d["kinds"].items() if "polygons" in v["shape"])
        d["kinds"][kind]["shape"] = {"polygons": [[[0.0, 0.0], [0.002, 0.0], [0.002, 0.002]]] * n}
    return _in_all_tables(edit)


def _kind_field(field: str, value: Any) -> Callable[[Data], None]:
    def edit(d: Data) -> None:
        kind = next(iter(d["kinds"]))
        d["kinds"][kind].pop("density", None)
        d["kinds"][kind][field] = value
    return _in_all_tables(edit)


def _top(key: str, value: Any) -> Callable[[Data], None]:
    return lambda data: data.__setitem__(key, value)


def _meta(key: str, value: Any) -> Callable[[Data], None]:
    return lambda data: data.setdefault("meta", {}).__setitem__(key, value)


#: (name, edit of the parsed file, words the error line must contain)
EDITS: list[tuple[str, Callable[[Data], None], list[str]]] = [
    # physical bounds (issue 17, point 1)
    ("vertices at 1e300", _scale_polygon(1e302), ["shape", "between"]),
    ("vertices at 1e-300", _scale_polygon(1e-298), ["shape", "no area"]),
    ("circle of radius 1e-300", _circle(1e-300), ["circle", "between"]),
    ("circle of radius 1e300", _circle(1e300), ["circle", "between"]),
    ("100,000 vertices", _many_vertices(100_000), ["number of vertices", "between"]),
    ("17 vertices", _many_vertices(17), ["number of vertices", "16"]),
    ("1000 parts", _many_parts(1000), ["number of parts", "between"]),
    ("mass 1e-300", _kind_field("mass", 1e-300), ["mass", "between"]),
    ("mass 1e300", _kind_field("mass", 1e300), ["mass", "between"]),
    ("thickness 0", _kind_field("thickness", 0.0), ["thickness", "between"]),
    ("friction 1e300", _kind_field("table_friction", 1e300), ["table_friction", "between"]),
    ("steps per second 10000", _sim(steps_per_second=10000), ["steps_per_second", "between"]),
    ("steps per second 1e-300", _sim(steps_per_second=1e-300), ["steps_per_second"]),
    ("iterations 200", _sim(iterations=200), ["iterations", "between"]),
    ("hand force 0", _sim(hand_force=0.0), ["hand_force", "between"]),
    ("max time 600", _sim(max_time=600.0), ["max_time", "between"]),
    ("gravity 1e300", _sim(gravity=1e300), ["gravity", "between"]),
    ("ring radius 1e-300", _in_all_tables(lambda d: d["ring"].update(radius=1e-300)),
     ["ring.radius", "between"]),
    # the compute budget (point 2): every value within its bounds, together far too costly
    ("the 4 KB hang, within bounds", _sim(steps_per_second=4800, iterations=100, hand_force=0.001,
                                         max_time=120.0, max_drive_time=120.0),
     ["simulation", "at most 4 times"]),
    ("5x the default cost", _sim(steps_per_second=2400), ["simulation", "at most 4 times"]),
    # minor points (point 7)
    ("version 1.0", _top("version", 1.0), ["version", "1.0"]),
    ("version '1'", _top("version", "1"), ["version", "'1'"]),
    ("version true", _top("version", True), ["version", "True"]),
    ("meta.created not a time", _meta("created", "yesterday"), ["meta.created", "ISO 8601"]),
    ("meta.created without offset", _meta("created", "2026-11-30T06:55:30"), ["meta.created"]),
    # text that would drive a terminal or split the line (point 5): the error shows it escaped
    ("escape sequence in a field name", _top("\x1b[2J\nforged line", 1), ["unknown field", "\\x1b"]),
]


def _raw_edits(normal: bytes) -> list[tuple[str, bytes, list[str]]]:
    """Hostile texts that are not edits of the parsed data."""
    size = len(normal)
    text = normal.decode()
    out = []
    # The quadratic-regex file: an unterminated string of \" as big as the normal file.
    out.append(("unterminated string of \\\"", b'{"format": "' + b'\\"' * (size // 2),
                ["Unterminated string starting at line"]))
    # A duplicate key (which of the two counts is not defined): the setup said twice.
    i = text.index('"setup":')
    dup = text[:i] + '"setup":{"players":9},' + text[i:]
    out.append(("duplicate key", dup.encode(), ["setup", "twice"]))
    return out


def corpus(normal: bytes) -> list[tuple[str, bytes, list[str]]]:
    """Every hostile file, made from the bytes of a normal replay."""
    base = json.loads(normal)
    out = []
    for name, edit, words in EDITS:
        data = copy.deepcopy(base)
        edit(data)
        out.append((name, json.dumps(data).encode(), words))
    return out + _raw_edits(normal)
