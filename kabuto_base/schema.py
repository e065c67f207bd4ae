"""Checks for untrusted JSON: one schema style for replays and network messages.

A *check* is a function ``check(value, where)`` that returns the value when it has the expected
shape and raises :class:`SchemaError` otherwise, naming the field (``where``, a dotted path such
as ``actions[3].speed``) and what is wrong with it in words a player can read ("expected a
number, got a string", "2.5 is out of range (0..1)"). Checks compose: :func:`obj` checks an
object's fields with a check each, :func:`mapping` and :func:`listing` check every entry.

    >>> check = obj({"speed": number(0.0, 0.5)}, {"note": text(limit=20)})
    >>> check({"speed": 0.3}, "push")
    {'speed': 0.3}
    >>> check({"speed": 0.9}, "push")
    Traceback (most recent call last):
    ...
    kabuto_base.schema.SchemaError: push.speed: 0.9 is out of range (0..0.5)

Each reader turns a :class:`SchemaError` into its own refusal (a replay's ``BadReplayFile``, a
message's ``bad-message`` error) with the same words. Values are returned as given, never
converted, so a checked replay hashes as it was written. Standard library only.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: A check: ``check(value, where)`` -> the value, or :class:`SchemaError`.
Check = Callable[[Any, str], Any]

#: The longest text a check shows of a bad value or key.
SHOWN = 40


class SchemaError(ValueError):
    """A value of the wrong shape: ``where`` is the field's path, ``what`` what is wrong."""

    def __init__(self, where: str, what: str):
        super().__init__(f"{where}: {what}")
        self.where = where
        self.what = what


def type_name(v: Any) -> str:
    """How an error names a JSON value's type ("a string", "true/false")."""
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            type(None): "null", int: "a number", float: "a number"}.get(type(v), type(v).__name__)


def field(where: str, key: Any) -> str:
    """The path of ``key`` inside ``where`` (a key of the top level is its own path)."""
    return f"{where}.{key}" if where else str(key)[:SHOWN]


def integer(lo: int, hi: int) -> Check:
    """A whole number from ``lo`` to ``hi`` (true and false are not numbers)."""
    def check(v: Any, where: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise SchemaError(where, f"expected a whole number, got {type_name(v)}")
        if not lo <= v <= hi:
            raise SchemaError(where, f"{v} is out of range ({lo}..{hi})")
        return v
    return check


def number(lo: float, hi: float) -> Check:
    """A number from ``lo`` to ``hi`` (whole or not; true and false are not numbers)."""
    def check(v: Any, where: str) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise SchemaError(where, f"expected a number, got {type_name(v)}")
        if not lo <= v <= hi:
            raise SchemaError(where, f"{v!r} is out of range ({lo:g}..{hi:g})")
        return v
    return check


def text(pattern: re.Pattern[str] | None = None, limit: int = 200, what: str = "") -> Check:
    """A string of at most ``limit`` characters, all of it matching ``pattern`` if given
    (``what`` says in words what it must be: "a room code")."""
    def check(v: Any, where: str) -> str:
        if not isinstance(v, str):
            raise SchemaError(where, f"expected a string, got {type_name(v)}")
        if len(v) > limit:
            raise SchemaError(where, f"longer than {limit} characters")
        if pattern is not None and not pattern.fullmatch(v):
            raise SchemaError(where, f"{v[:SHOWN]!r} is not {what or 'a valid value here'}")
        return v
    return check


def boolean(v: Any, where: str) -> bool:
    """true or false."""
    if not isinstance(v, bool):
        raise SchemaError(where, f"expected true or false, got {type_name(v)}")
    return v


def scalar(v: Any, where: str) -> Any:
    """A short JSON scalar (an option's or a move target's value)."""
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return number(-1e9, 1e9)(v, where)
    return text(limit=60)(v, where)


def one_of(*values: str) -> Check:
    """One of ``values``."""
    def check(v: Any, where: str) -> str:
        if v not in values:
            shown = v[:SHOWN] if isinstance(v, str) else type_name(v)
            raise SchemaError(where, f"{shown!r} is not one of {', '.join(values)}")
        return v
    return check


def listing(limit: int, item: Check | None = None) -> Check:
    """A list of at most ``limit`` entries, each checked by ``item`` if given."""
    def check(v: Any, where: str) -> list[Any]:
        if not isinstance(v, list):
            raise SchemaError(where, f"expected a list, got {type_name(v)}")
        if len(v) > limit:
            raise SchemaError(where, f"{len(v)} entries (at most {limit})")
        if item is not None:
            for i, x in enumerate(v):
                item(x, f"{where}[{i}]")
        return v
    return check


def mapping(key: re.Pattern[str], value: Check, limit: int) -> Check:
    """An object of at most ``limit`` entries, each key a name matching ``key``, each value
    checked by ``value``."""
    def check(v: Any, where: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise SchemaError(where, f"expected an object, got {type_name(v)}")
        if len(v) > limit:
            raise SchemaError(where, f"{len(v)} entries (at most {limit})")
        for k, x in v.items():
            text(key, 30, "a name")(k, f"{where}.{k}"[:60])
            value(x, f"{where}.{k}"[:60])
        return v
    return check


def fields(v: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object with every field of ``required``, perhaps some of ``optional``, and no other
    (the fields' values are checked by the caller)."""
    if not isinstance(v, dict):
        raise SchemaError(where, f"expected an object, got {type_name(v)}")
    for k in required:
        if k not in v:
            raise SchemaError(field(where, k), "missing")
    for k in v:
        if k not in required and k not in optional:
            raise SchemaError(field(where, k), "unknown field")
    return v


def obj(required: dict[str, Check], optional: dict[str, Check] | None = None) -> Check:
    """An object with exactly these fields (each checked by its check), no others."""
    optional = optional or {}

    def check(v: Any, where: str) -> dict[str, Any]:
        fields(v, where, tuple(required), tuple(optional))
        for k, c in required.items():
            c(v[k], field(where, k))
        for k, x in v.items():
            if k not in required:
                optional[k](x, field(where, k))
        return v
    return check


__all__ = ["SHOWN", "Check", "SchemaError", "boolean", "field", "fields", "integer", "listing",
           "mapping", "number", "obj", "one_of", "scalar", "text", "type_name"]
