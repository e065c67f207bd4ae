"""What a wrestler card prints about a signature move, and how names on cards are matched.

These records sit below both the card parser (:mod:`kabuto.rules.wrestlers`) and the move effects
(:mod:`kabuto.rules.moves`), so each can use them without importing the other: the effects act on a
:class:`MoveSpec`, and the parser checks that each card names an effect that exists.

    >>> norm_name("Mighty_Jaw  Mike "), norm_name("mighty-jaw-mike")
    ('mighty jaw mike', 'mighty jaw mike')
    >>> Cost("pay", "small", 2).text()
    'Pay 2 small discs to your opponent'
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: What a cost does with its discs: give them to an opponent, stack them on a board piece, or
#: return them to the supply.
COST_ACTIONS = ("pay", "stack", "discard")


def norm_name(s: str) -> str:
    """A name as cards and players may write it, folded for comparing: case, spaces, ``_`` and
    ``-`` do not matter."""
    return re.sub(r"[\s_\-]+", " ", s.strip().lower())


@dataclass(frozen=True)
class Cost:
    """One part of a move's cost: pay (to an opponent), stack (on a board piece) or discard."""

    action: str
    kind: str
    count: int

    def text(self) -> str:
        unit = "disc" if self.count == 1 else "discs"
        verb = self.action.capitalize()
        tail = " to your opponent" if self.action == "pay" else ""
        return f"{verb} {self.count} {self.kind} {unit}{tail}"


@dataclass(frozen=True)
class MoveSpec:
    """A signature move as printed: name, card text, cost, and the effect that performs it."""

    name: str
    text: str
    cost: tuple[Cost, ...]
    effect: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    replaces_turn: bool = False
    #: The mover's own turn from which the move may be used (1: any turn; 2: not on their first).
    from_turn: int = 1
