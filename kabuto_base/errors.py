"""The refusal every game in the box raises: one exception for Kabuto Sumo and the card games.

A refusal is data. ``code`` names the rule that refused (a stable key, the same in every
language), ``fields`` what it is about (piece ids, seats, counts), and ``str(exc)`` is the engine's
own sentence, for logs, programs and the command line. A front end says it again in its own words
from ``code`` and ``fields`` (colours for seats, the names players give pieces) instead of
parsing the sentence:

    >>> from kabuto_base.errors import IllegalMove
    >>> exc = IllegalMove("it is seat 1's turn", "not_your_turn", seat=1)
    >>> exc.code, exc.fields, str(exc)
    ('not_your_turn', {'seat': 1}, "it is seat 1's turn")
    >>> isinstance(exc, ValueError)
    True

``kabuto.rules.errors.IllegalMove`` and ``cards.api.IllegalMove`` are this class, so catching
either catches every game's refusals. It is a ``ValueError``: callers that treat bad input
generally can catch that.
"""
from __future__ import annotations

from typing import Any


class IllegalMove(ValueError):
    """An action the rules do not allow now; the game is unchanged. ``code`` says which refusal
    (``"illegal"`` when none more precise applies), ``fields`` what it concerns."""

    def __init__(self, message: str = "", code: str = "illegal", **fields: Any) -> None:
        super().__init__(message)
        self.code = code
        self.fields = fields

    def __reduce__(self) -> tuple[Any, ...]:  # worker processes hand refusals back whole
        return (type(self), (str(self), self.code), {"fields": self.fields})


__all__ = ["IllegalMove"]
