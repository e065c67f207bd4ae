"""A display list: everything one screen of the card table shows, as plain records (no pyglet).

Views build a :class:`Display` from a game *observation* (what one seat may see) and the table's
UI state; the renderer (:mod:`cards.table.render`) turns it into pyglet shapes, labels and card
sprites; the scene hit-tests clicks against it. Keeping the picture as data means tests can check
what a seat is shown (which card faces, which highlights, which buttons) without a window.

Coordinates are *design pixels* of a 1280 x 720 screen, origin bottom-left (pyglet's convention);
the renderer scales the whole picture to the window.

Every item has a ``key`` unique within its display: the renderer keeps an item's pyglet objects
from one display to the next by key, so a card whose key stays the same *slides* to its new place.
A card may also carry a ``track`` (normally its card name): when a card appears under a new key but
its track was on screen before (a card leaving a hand for the trick), it slides from there; failing
that it slides in from ``enter_from`` (a seat's hand, for a card the seat just played).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kabuto_ui.geometry import Rect
from kabuto_ui.theme import RGBA

#: The design screen: every layout is made for this size and scaled to the window.
DESIGN_W, DESIGN_H = 1280, 720

#: Drawing layers, bottom to top.
LAYER_TABLE, LAYER_CARDS, LAYER_LIFT, LAYER_UI, LAYER_MODAL = 0, 1, 2, 3, 4


@dataclass
class Item:
    key: str
    layer: int = LAYER_TABLE
    #: What a click on this item means to the scene ("card:5H", "act:pass", "ui:menu"), or None.
    target: str | None = None

    def hit(self, x: float, y: float) -> bool:
        return False


@dataclass
class BoxItem(Item):
    """A filled (optionally outlined, optionally rounded) rectangle: panels, zones, dimmers."""

    rect: Rect = Rect(0, 0, 0, 0)
    fill: RGBA = (0, 0, 0, 0)
    border: RGBA | None = None
    radius: float = 0.0

    def hit(self, x: float, y: float) -> bool:
        return self.rect.contains(x, y)


@dataclass
class DiscItem(Item):
    """A round token (SUMO's wrestlers) with an optional text on it."""

    x: float = 0.0
    y: float = 0.0
    r: float = 10.0
    fill: RGBA = (255, 255, 255, 255)
    border: RGBA | None = None
    text: str = ""
    text_colour: RGBA = (0, 0, 0, 255)
    #: Seconds to slide to a new place (a push is slower than a card's slide); None: default.
    slide: str = "slide"

    def hit(self, x: float, y: float) -> bool:
        return (x - self.x) ** 2 + (y - self.y) ** 2 <= self.r ** 2


@dataclass
class TextItem(Item):
    """A line (or, with ``width``, a wrapped paragraph) of text."""

    x: float = 0.0
    y: float = 0.0
    text: str = ""
    size: float = 12.0
    colour: RGBA = (232, 232, 236, 255)
    anchor_x: str = "left"
    anchor_y: str = "baseline"
    width: float | None = None
    bold: bool = False
    layer: int = LAYER_UI


@dataclass
class ButtonItem(Item):
    """A clickable box with a caption. A disabled button ignores clicks (``target`` stays for
    tests to find it) and says why in ``reason``."""

    rect: Rect = Rect(0, 0, 0, 0)
    text: str = ""
    enabled: bool = True
    primary: bool = False
    selected: bool = False
    size: float = 12.0
    reason: str = ""
    layer: int = LAYER_UI

    def hit(self, x: float, y: float) -> bool:
        return self.rect.contains(x, y)


@dataclass
class CardItem(Item):
    """One card: ``face`` is its name when face up, None when its back is shown."""

    rect: Rect = Rect(0, 0, 0, 0)
    face: str | None = None
    game: str = ""
    track: str | None = None
    enter_from: tuple[float, float] | None = None
    highlight: bool = False
    selected: bool = False
    dim: bool = False
    #: A small mark drawn on the card ("face down", a value) - never a hidden card's name.
    badge: str = ""
    #: Shown as it was played earlier (from the public log), wherever the card is now - e.g. the
    #: last round's attack cards, which may since have been shuffled back into the deck.
    history: bool = False
    slide: str = "slide"
    layer: int = LAYER_CARDS

    def hit(self, x: float, y: float) -> bool:
        return self.rect.contains(x, y)


@dataclass
class Display:
    """An ordered list of items: later items draw above earlier ones of the same layer."""

    items: list[Item] = field(default_factory=list)

    def add(self, item: Item) -> Item:
        self.items.append(item)
        return item

    def extend(self, items: Iterable[Item]) -> None:
        self.items.extend(items)

    def __iter__(self) -> Iterator[Item]:
        return iter(self.items)

    def ordered(self) -> list[Item]:
        """Items bottom to top."""
        return sorted(self.items, key=lambda it: it.layer)  # stable: keeps list order per layer

    def hit(self, x: float, y: float) -> Item | None:
        """The topmost item under (x, y) that takes clicks (or blocks them), or None.

        An item with ``target == ""`` is a *blocker* (a modal's dimmer): it swallows the click.
        """
        for it in reversed(self.ordered()):
            if it.target is not None and it.hit(x, y):
                return it
        return None

    def cards(self) -> list[CardItem]:
        return [it for it in self.items if isinstance(it, CardItem)]

    def faces(self) -> list[str]:
        """Names of every face-up card shown (tests check no hidden card is among them)."""
        return [it.face for it in self.cards() if it.face is not None]

    def find(self, key: str) -> Item | None:
        for it in self.items:
            if it.key == key:
                return it
        return None

    def buttons(self) -> list[ButtonItem]:
        return [it for it in self.items if isinstance(it, ButtonItem)]

    def button(self, target: str) -> ButtonItem | None:
        for b in self.buttons():
            if b.target == target:
                return b
        return None

    def texts(self) -> list[str]:
        return [it.text for it in self.items if isinstance(it, TextItem)] + [
            b.text for b in self.buttons()]

    def check_keys(self) -> None:
        """Raise ValueError if two items share a key (the renderer needs them unique)."""
        seen: set[str] = set()
        for it in self.items:
            if it.key in seen:
                raise ValueError(f"display: two items have the key {it.key!r}")
            seen.add(it.key)
