"""The set-up screen before a card game: which game, and for each seat a person or a bot of a
chosen strength. No pyglet: it builds a :class:`~cards.table.display.Display` and reads clicks.

Two or more people at the screen play hot-seat (a pass screen hides each hand from the others);
one person plays against bots with their hand open and the bots' hidden.
"""
from __future__ import annotations

import time

from cards.table.config import SeatSpec, TableConfig, table_data
from cards.table.display import DESIGN_H, DESIGN_W, LAYER_TABLE, BoxItem, Display
from cards.table.views.common import button, text, wrap
from kabuto_ui import theme
from kabuto_ui.geometry import Rect

#: Characters of a strength's blurb a line (the room from x = 882 to the screen's edge in the small
#: font); a blurb should fit in three lines.
BLURB_CHARS = 56


def fresh_seed() -> int:
    """A deal number for a new game: shown on screen, so a deal can be played again."""
    return time.time_ns() // 1000 % 1_000_000


class SetupModel:
    """The choices on the set-up screen (see the module docstring)."""

    def __init__(self, mode: str | None = None, back: bool = False, seed: int | None = None) -> None:
        data = table_data()
        self.mode = data.mode(mode).key if mode else data.modes[0].key
        self.back = back
        self.seed = fresh_seed() if seed is None else seed
        self.seats: list[SeatSpec] = []
        self._fit_seats()
        self.revision = 0

    def _fit_seats(self) -> None:
        n = table_data().mode(self.mode).players
        seats = self.seats[:n]
        while len(seats) < n:
            seats.append(SeatSpec("human") if not seats else SeatSpec("bot", "heuristic"))
        self.seats = seats

    def config(self) -> TableConfig:
        cfg = TableConfig(self.mode, tuple(self.seats), self.seed)
        cfg.validate()
        return cfg

    # ----- the picture -------------------------------------------------------------------------------
    def display(self) -> Display:
        data = table_data()
        d = Display()
        d.add(BoxItem(key="bg", rect=Rect(0, 0, DESIGN_W, DESIGN_H), fill=theme.BACKGROUND, layer=LAYER_TABLE))
        d.add(text("title", 60, 660, "Card table", theme.FONT_TITLE, bold=True))
        d.add(text("subtitle", 60, 632, "Choose a game, then who sits in each seat.", theme.FONT_SIZE, theme.TEXT_DIM))
        d.add(text("games", 60, 580, "Game", theme.FONT_HEADING, theme.TEXT_DIM, bold=True))
        y = 530
        for m in data.modes:
            d.add(button(f"mode:{m.key}", Rect(60, y, 380, 40), m.title, f"mode:{m.key}",
                         selected=m.key == self.mode, size=theme.FONT_HEADING))
            y -= 50
        blurb = data.mode(self.mode).blurb
        for i, line in enumerate(wrap(blurb, 52)):
            d.add(text(f"blurb:{i}", 60, y - 10 - 20 * i, line, theme.FONT_SIZE, theme.TEXT_DIM))
        d.add(text("seats", 520, 580, "Seats", theme.FONT_HEADING, theme.TEXT_DIM, bold=True))
        y = 530
        for i, seat in enumerate(self.seats):
            d.add(BoxItem(key=f"dot:{i}", rect=Rect(520, y + 13, 14, 14), fill=theme.seat_colour(i), radius=7,
                          layer=3))
            d.add(text(f"name:{i}", 542, y + 14, theme.seat_name(i), theme.FONT_HEADING, bold=True))
            d.add(button(f"seat:{i}:human", Rect(640, y, 110, 40), "Person", f"seat:{i}:human",
                         selected=not seat.is_bot))
            d.add(button(f"seat:{i}:bot", Rect(760, y, 110, 40), "Bot", f"seat:{i}:bot", selected=seat.is_bot))
            if seat.is_bot:
                x: float = 640
                for s in data.strengths:
                    w = 30 + 7.2 * len(s.label)
                    d.add(button(f"strength:{i}:{s.key}", Rect(x, y - 34, w, 28), s.label, f"strength:{i}:{s.key}",
                                 selected=seat.strength == s.key, size=theme.FONT_SMALL))
                    x += w + 8
                # The strength's blurb beside the seat, wrapped to the room right of the Bot
                # button and stacked upwards so its last line sits level with the seat's name
                # (the strength buttons are below it, the seat above starts a row higher).
                lines = wrap(data.strength(seat.strength).blurb, BLURB_CHARS)
                for k, line in enumerate(lines):
                    d.add(text(f"sblurb:{i}:{k}", 882, y + 14 + 16 * (len(lines) - 1 - k), line,
                               theme.FONT_SMALL, theme.TEXT_DIM))
            y -= 96
        humans = sum(1 for s in self.seats if not s.is_bot)
        note = ("Hot-seat: a pass screen hides each player's hand from the others." if humans >= 2 else
                "You play against the bots: your hand is open, theirs hidden." if humans == 1 else
                "Bots only: watch them play (from the first seat's view).")
        d.add(text("note", 520, 128, note, theme.FONT_SIZE, theme.TEXT_DIM))
        d.add(text("deal", 520, 96, f"Deal number {self.seed}", theme.FONT_SIZE, theme.TEXT_DIM))
        d.add(button("ui:deal", Rect(700, 86, 110, 28), "New deal", "ui:deal", size=theme.FONT_SMALL))
        d.add(button("ui:start", Rect(520, 24, 240, 48), "Start", "ui:start", primary=True, size=theme.FONT_HEADING))
        if self.back:
            d.add(button("ui:back", Rect(60, 24, 140, 40), "Back", "ui:back"))
        return d

    # ----- clicks ------------------------------------------------------------------------------------
    def press(self, x: float, y: float) -> tuple[str, TableConfig | None] | None:
        """A click; returns ("start", config) or ("back", None) when the screen should change."""
        item = self.display().hit(x, y)
        if item is None or not item.target:
            return None
        return self.handle(item.target)

    def handle(self, target: str) -> tuple[str, TableConfig | None] | None:
        kind, _, arg = target.partition(":")
        if kind == "mode":
            self.mode = table_data().mode(arg).key
            self._fit_seats()
        elif kind == "seat":
            i, _, what = arg.partition(":")
            idx = int(i)
            old = self.seats[idx]
            self.seats[idx] = SeatSpec(what, old.strength)
        elif kind == "strength":
            i, _, key = arg.partition(":")
            table_data().strength(key)
            self.seats[int(i)] = SeatSpec("bot", key)
        elif target == "ui:deal":
            self.seed = (self.seed * 7919 + 104729) % 1_000_000
        elif target == "ui:start":
            return ("start", self.config())
        elif target == "ui:back":
            return ("back", None)
        self.revision += 1
        return None
