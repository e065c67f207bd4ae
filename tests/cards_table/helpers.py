"""Test helpers: turn a game action into the clicks a person would make on the table's picture.

:func:`targets_for` reads the current :class:`~cards.table.display.Display` (what is on screen) and
returns, in order, the click targets that play ``action``: the hand cards to pick, then the button.
The window tests click those items' centres with real window events; the model tests press them.
"""
from __future__ import annotations

from cards.table.display import CardItem, Display, Item


def find_target(display: Display, target: str) -> Item:
    for it in display.ordered()[::-1]:
        if it.target == target:
            return it
    raise AssertionError(f"nothing on screen takes the click {target!r}; buttons: "
                         f"{[b.target for b in display.buttons()]}")


def centre(item: Item) -> tuple[float, float]:
    """A point that hits ``item`` and nothing above it (cards in a fan overlap to the right, so
    aim at the visible left strip)."""
    r = item.rect  # type: ignore[attr-defined]
    if isinstance(item, CardItem):
        return (r.x + min(8.0, r.w / 2), r.y + r.h * 0.6)
    return (r.cx, r.cy)


def hand_key_for(display: Display, card: str, taken: set[str]) -> str:
    """The hand key of ``card`` (A cards are numbered: the first one not yet taken)."""
    for it in display.cards():
        if it.target and it.target.startswith("card:") and it.face == card:
            key = it.target[5:]
            if key not in taken:
                return key
    raise AssertionError(f"{card} is not in the hand on screen")


def targets_for(game: str, action: str, display: Display) -> list[str]:
    """The click targets that play ``action`` from what ``display`` shows (selection empty)."""
    if game == "sumo":
        return [f"card:{action.split(' ', 1)[1]}"]
    if game == "sumo-card-game":
        if action.startswith("play "):
            return [f"card:{c}" for c in action[5:].split("+")] + ["act:attack"]
        return [f"act:{action}"]
    # Sumida River
    if action.startswith("meld "):
        taken: set[str] = set()
        out = []
        for c in action.split(" ")[2].split(","):
            k = hand_key_for(display, c, taken)
            taken.add(k)
            out.append(f"card:{k}")
        return out + [f"act:{action}"]
    if action.startswith("discard ") and action != "discard none":
        card = action.split(" ", 1)[1]
        return [f"card:{hand_key_for(display, card, set())}", f"act:{action}"]
    return [f"act:{action}"]
