"""Pieces of the one way untrusted JSON (replays, network messages) is read.

A JSON object that names one key twice is refused: which value counts is not defined by the
standard, so two readers of one file could disagree about it (one sees a push, the other another).

    >>> import json
    >>> json.loads('{"a": 1, "a": 2}', object_pairs_hook=unique_keys)
    Traceback (most recent call last):
    ...
    kabuto_base.safejson.DuplicateKey: the key 'a' appears twice in one object (which one counts is not defined)
"""
from __future__ import annotations

from typing import Any


class DuplicateKey(ValueError):
    """A JSON object holding one key twice; ``key`` is the key (raised from inside the parser)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key[:40]!r} appears twice in one object (which one counts is "
                         f"not defined)")
        self.key = key


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``' ``object_pairs_hook`` that refuses an object naming one key twice."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        raise DuplicateKey(next(k for k, _ in pairs if k in seen or seen.add(k)))  # type: ignore[func-returns-value]
    return obj
