"""Reading a saved game back: the field checks every engine's ``from_json`` shares.

A save is untrusted input (a file somebody may have edited), so ``from_json`` checks every field
before it builds anything, and a refusal is one clear line that starts with the field's name::

    >>> saved = SavedGame({"game": "sumo", "version": 1, "turn": 2}, "sumo")
    >>> saved.integer("turn", 0, 1)
    Traceback (most recent call last):
    ...
    ValueError: turn: expected an integer from 0 to 1

The checks here are the generic ones (presence, type, range, membership); what only one game
knows (that the cards form one deck, whose turn it can be) stays in that engine's ``from_json``.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar

from cards.api import rng_from_json

T = TypeVar("T")

#: "No value given": read the field of that name instead.
_FIELD: Any = object()


class SavedGame:
    """The fields of one saved game, each read with a check that names it when it fails.

    ``SavedGame(data, game)`` refuses anything but a JSON object, a ``"game"`` other than
    ``game`` and a ``"version"`` other than ``version``. Every reader takes the field's name; the
    readers that check a value found inside another field also take that ``value``.
    """

    __slots__ = ("data",)

    def __init__(self, data: Any, game: str, version: int = 1) -> None:
        if not isinstance(data, dict):
            raise ValueError(f"{game}: a saved game must be a JSON object")
        self.data: dict[str, Any] = data
        if self.get("game") != game:
            raise ValueError(f"game: expected {game!r}")
        if self.get("version") != version:
            raise ValueError(f"version: only version {version} is understood")

    def get(self, name: str) -> Any:
        """The raw value of a field that must be present."""
        if name not in self.data:
            raise ValueError(f"{name}: missing")
        return self.data[name]

    def _value(self, name: str, value: Any) -> Any:
        return self.get(name) if value is _FIELD else value

    def integer(self, name: str, lo: int, hi: int, value: Any = _FIELD) -> int:
        """An integer (never a bool) from ``lo`` to ``hi``."""
        v = self._value(name, value)
        if type(v) is not int or not lo <= v <= hi:
            raise ValueError(f"{name}: expected an integer from {lo} to {hi}")
        return v

    def boolean(self, name: str) -> bool:
        v = self.get(name)
        if not isinstance(v, bool):
            raise ValueError(f"{name}: expected true or false")
        return v

    def one_of(self, name: str, options: Sequence[T], value: Any = _FIELD) -> T:
        """One of ``options`` (compared by equality and type, so ``True`` is not ``1``)."""
        v = self._value(name, value)
        for o in options:
            if type(o) is type(v) and o == v:
                return o
        shown = ", ".join("null" if o is None else str(o) for o in options)
        raise ValueError(f"{name}: must be one of {shown}")

    def seq(self, name: str, length: int | None = None, value: Any = _FIELD) -> list[Any]:
        """A list (of exactly ``length`` entries, if given)."""
        v = self._value(name, value)
        if not isinstance(v, list) or (length is not None and len(v) != length):
            raise ValueError(f"{name}: expected a list" + (f" of {length} entries" if length is not None else ""))
        return v

    def integers(self, name: str, length: int | None, lo: int, hi: int, value: Any = _FIELD) -> list[int]:
        """A list of integers from ``lo`` to ``hi``."""
        return [self.integer(name, lo, hi, x) for x in self.seq(name, length, value)]

    def cards(self, name: str, deck: Collection[Any], value: Any = _FIELD) -> list[Any]:
        """A list of cards, each one of ``deck`` (names), returned as a new list."""
        v = self.seq(name, None, value)
        for c in v:
            if not isinstance(c, str) or c not in deck:
                raise ValueError(f"{name}: {c!r} is not a card")
        return list(v)

    def card_ids(self, name: str, ids: dict[str, int], value: Any = _FIELD) -> list[int]:
        """A list of card names turned into the engine's card ids by ``ids``."""
        return [ids[c] for c in self.cards(name, ids, value)]

    def optional(self, name: str, read: Callable[[Any], T], value: Any = _FIELD) -> T | None:
        """``None`` (JSON null), or whatever ``read(value)`` makes of the value."""
        v = self._value(name, value)
        return None if v is None else read(v)

    def rng(self) -> random.Random:
        """The game's saved generator (field ``rng``)."""
        return rng_from_json(self.get("rng"))

    def events(self) -> list[dict[str, Any]]:
        """The event log (field ``events``): a list of objects, each with a string ``type``; copied
        one level deep so the loaded game shares nothing with ``data``."""
        v = self.get("events")
        if not isinstance(v, list) or not all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in v):
            raise ValueError("events: expected a list of event objects, each with a 'type'")
        return [{k: (list(x) if isinstance(x, list) else x) for k, x in e.items()} for e in v]
