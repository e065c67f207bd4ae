"""The start menu: what to play (the registered modes), and for Kabuto Sumo the players, each
seat human or AI, each seat's wrestler card (its text shown), and the Junior League variant."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from pyglet import shapes
from pyglet.graphics import Group
from pyglet.window import key

from kabuto.ai.levels import level_names
from kabuto.app.catalogue import CardInfo, junior_cards, level_line, wrestler_cards
from kabuto.app.game_config import GameConfig
from kabuto_ui import theme
from kabuto_ui.geometry import Rect
from kabuto_ui.modes import Mode, ModeRegistry
from kabuto_ui.overlay import confirm
from kabuto_ui.scene import WidgetScene
from kabuto_ui.widgets import Button, label
from kabuto_ui.window import Window


class MenuScene(WidgetScene):
    """Lists ``modes``; ``on_start(mode, config)`` is called by Start (or Enter)."""

    def __init__(self, app: Window, modes: ModeRegistry, on_start: Callable[[Mode, GameConfig], None],
                 config: GameConfig | None = None, mode_key: str = "kabuto", *,
                 on_continue: Callable[[], None] | None = None,
                 on_rules: Callable[[], None] | None = None):
        """``on_continue``: goes on with the last unfinished game (None: there is none, and no
        Continue button shows); ``on_rules``: shows the rules pages."""
        super().__init__(app)
        self.on_continue = on_continue
        self.on_rules = on_rules
        self.modes = modes
        self.on_start = on_start
        self.config = config or GameConfig()
        self.mode_key = mode_key
        self.focus_seat = 0
        self.compact = False  # a narrow window's columns (set by rebuild)
        self.message = ""
        self.g_bg, self.g_fg = Group(order=0), Group(order=1)
        self._cards: dict[bool, tuple[list[CardInfo], str]] = {}
        self._fill_wrestlers()

    # ----- data --------------------------------------------------------------------------------------
    def cards(self) -> tuple[list[CardInfo], str]:
        j = self.config.junior
        if j not in self._cards:
            self._cards[j] = junior_cards() if j else wrestler_cards()
        return self._cards[j]

    def _fill_wrestlers(self) -> None:
        """Give every seat a distinct card (keeping valid choices)."""
        cards, _ = self.cards()
        keys = [c.key for c in cards]
        chosen: list[str] = []
        for i in range(self.config.players):
            want = self.config.wrestlers[i] if i < len(self.config.wrestlers) else ""
            if want not in keys or want in chosen:
                want = next((k for k in keys if k not in chosen), "")
            chosen.append(want)
        self.config = replace(self.config, wrestlers=tuple(chosen))

    def mode(self) -> Mode | None:
        return self.modes.get(self.mode_key)

    # ----- layout ------------------------------------------------------------------------------------
    def rebuild(self) -> None:
        self.clear_page()
        W, H = self.app.width, self.app.height
        b, fg = self.batch, self.g_fg
        add = self.items.append
        add(label("KABUTO SUMO", 40, H - 70, b, fg, size=theme.FONT_TITLE + 6, bold=True,
                  color=theme.ACCENT))
        add(label("push your rival's beetle out of the ring", 44, H - 98, b, fg, color=theme.TEXT_DIM))
        # Modes.
        # A narrow window (below 1200 px) gets narrower columns, so the card still has room.
        self.compact = W < 1200
        mode_w = 200 if self.compact else 250
        y = H - 160
        step, bh = (46, 38) if H < 700 else (52, 42)
        add(label("Play", 40, y + 10, b, fg, size=theme.FONT_HEADING, bold=True))
        if self.on_continue is not None:
            y -= step
            self.widgets.add(Button(Rect(40, y, mode_w, bh), "Continue last game", self._continue, b,
                                    fg, name="continue"))
        for m in self.modes.ordered():
            y -= step
            self.widgets.add(Button(Rect(40, y, mode_w, bh), m.title, partial(self._pick_mode, m), b,
                                    fg, selected=(m.key == self.mode_key), name=f"mode:{m.key}"))
        if self.on_rules is not None:
            y -= step
            self.widgets.add(Button(Rect(40, y, mode_w // 2 - 4, bh), "Rules", self.on_rules, b, fg,
                                    name="rules"))
            self.widgets.add(Button(Rect(40 + mode_w // 2 + 4, y, mode_w // 2 - 4, bh), "Quit",
                                    self.ask_quit, b, fg, name="quit"))
        mode = self.mode()
        if mode is not None:
            y -= 12
            add(label(mode.blurb, 40, y, b, fg, size=theme.FONT_SMALL, color=theme.TEXT_DIM,
                      width=mode_w, multiline=True, anchor_y="top"))
        col = 40 + mode_w + 30
        if mode is not None and mode.uses_menu_setup:
            self._build_setup(col, H, W)
        self.widgets.add(Button(Rect(W - 220, 40, 180, 52), "Start  (Enter)", self._start, b, fg,
                                size=theme.FONT_HEADING, name="start", enabled=mode is not None))
        if self.message:
            add(label(self.message, 40, 30, b, fg, size=theme.FONT_SMALL, color=theme.TEXT_BAD,
                      width=int(W - 300), multiline=True))

    def _build_setup(self, col: float, H: float, W: float) -> None:
        b, fg = self.batch, self.g_fg
        add = self.items.append
        cfg = self.config
        y = H - 150
        add(label("Players", col, y, b, fg, size=theme.FONT_HEADING, bold=True))
        for i, n in enumerate((2, 3, 4)):
            self.widgets.add(Button(Rect(col + 90 + i * 50, y - 10, 42, 30), str(n),
                                    partial(self._players, n), b, fg, selected=(cfg.players == n),
                                    name=f"players:{n}"))
        self.widgets.add(Button(Rect(col + 260, y - 10, 170 if self.compact else 190, 30),
                                "Junior League: " + ("on" if cfg.junior else "off"), self._junior, b, fg,
                                selected=cfg.junior, name="junior"))
        self.widgets.add(Button(Rect(col + 90, y - 50, 172, 30), f"AI level: {cfg.ai_level}",
                                self._ai_level, b, fg, name="ai-level"))
        about = level_line(cfg.ai_level)
        if about:
            add(label(about, col + 90, y - 66, b, fg, size=theme.FONT_SMALL - 1, color=theme.TEXT_DIM))
        first = "random" if cfg.first_player is None else theme.seat_name(cfg.first_player)
        self.widgets.add(Button(Rect(col + 270, y - 50, 160, 30), f"First: {first}",
                                self._first, b, fg, name="first"))
        cards, problem = self.cards()
        by_key = {c.key: c for c in cards}
        name_w = 150 if self.compact else 200  # the card-name button; the row is 260 px + this
        row_w = 260 + name_w
        y -= 60
        for seat in range(cfg.players):
            y -= 50
            if seat == self.focus_seat:
                add(shapes.Rectangle(col - 8, y - 8, row_w + 20, 44, color=(48, 52, 64), batch=b,
                                     group=self.g_bg))
            add(shapes.Circle(col + 10, y + 14, 10, segments=24, color=theme.seat_colour(seat),
                              batch=b, group=fg))
            add(label(theme.seat_name(seat), col + 28, y + 8, b, fg, bold=True))
            who = cfg.seats[seat]
            self.widgets.add(Button(Rect(col + 100, y, 80, 30), "Human" if who == "human" else "AI",
                                    partial(self._toggle_seat, seat), b, fg, selected=(who == "ai"),
                                    name=f"seat:{seat}"))
            self.widgets.add(Button(Rect(col + 190, y, 30, 30), "<",
                                    partial(self._cycle, seat, -1), b, fg, name=f"prev:{seat}"))
            card = by_key.get(cfg.wrestlers[seat] if seat < len(cfg.wrestlers) else "")
            self.widgets.add(Button(Rect(col + 224, y, name_w, 30), card.name if card else "-",
                                    partial(self._focus, seat), b, fg, size=theme.FONT_SMALL,
                                    name=f"card:{seat}"))
            self.widgets.add(Button(Rect(col + 228 + name_w, y, 30, 30), ">",
                                    partial(self._cycle, seat, 1), b, fg, name=f"next:{seat}"))
        if cfg.players == 4:
            add(label("Teams: Red & Green against Blue & Purple. Teammates share an inventory and "
                      "take turns to push.", col, y - 20, b, fg, size=theme.FONT_SMALL,
                      color=theme.TEXT_DIM, width=row_w + 10, multiline=True, anchor_y="top"))
        # The focused seat's card, in full, in a panel above the Start button.
        x = col + row_w + 40
        panel = Rect(x - 12, 110, min(W - x - 28, 600), H - 250)
        add(shapes.Rectangle(panel.x, panel.y, panel.w, panel.h, color=theme.PANEL, batch=b,
                             group=self.g_bg))
        seat = min(self.focus_seat, cfg.players - 1)
        card = by_key.get(cfg.wrestlers[seat] if seat < len(cfg.wrestlers) else "")
        add(label(f"{theme.seat_name(seat)}'s card", x, H - 160, b, fg, size=theme.FONT_SMALL,
                  color=theme.TEXT_DIM))
        text = card.text if card else (problem or "no card")
        room = H - 176 - (panel.y + 8)
        for size in (theme.FONT_SMALL, theme.FONT_SMALL - 1, theme.FONT_SMALL - 2):
            body = label(text, x, H - 176, b, fg, size=size, width=int(panel.w - 24), multiline=True,
                         anchor_y="top", color=theme.TEXT if card else theme.TEXT_BAD)
            if body.content_height <= room or size == theme.FONT_SMALL - 2:
                break
            body.delete()  # a long card in a small window: a size smaller
        add(body)

    # ----- actions -----------------------------------------------------------------------------------
    def _pick_mode(self, m: Mode) -> None:
        self.mode_key = m.key
        self.rebuild()

    def _players(self, n: int) -> None:
        self.config = self.config.with_players(n)
        self.focus_seat = min(self.focus_seat, n - 1)
        self._fill_wrestlers()
        self.rebuild()

    def _junior(self) -> None:
        self.config = replace(self.config, junior=not self.config.junior)
        self._fill_wrestlers()
        self.rebuild()

    def _ai_level(self) -> None:
        levels = level_names()
        nxt = levels[(levels.index(self.config.ai_level) + 1) % len(levels)]
        self.config = replace(self.config, ai_level=nxt)
        self.rebuild()

    def _first(self) -> None:
        """Who pushes first: at random (the rulebook's way), or a chosen seat."""
        order: list[int | None] = [None, *range(self.config.players)]
        nxt = order[(order.index(self.config.first_player) + 1) % len(order)]
        self.config = replace(self.config, first_player=nxt)
        self.rebuild()

    def _toggle_seat(self, seat: int) -> None:
        seats = list(self.config.seats)
        seats[seat] = "ai" if seats[seat] == "human" else "human"
        self.config = replace(self.config, seats=tuple(seats))
        self.rebuild()

    def _focus(self, seat: int) -> None:
        self.focus_seat = seat
        self.rebuild()

    def _cycle(self, seat: int, step: int) -> None:
        """The next card not taken by another seat."""
        cards, _ = self.cards()
        if not cards:
            return
        keys = [c.key for c in cards]
        taken = {w for i, w in enumerate(self.config.wrestlers) if i != seat}
        cur = self.config.wrestlers[seat]
        i = keys.index(cur) if cur in keys else -1
        for _ in range(len(keys)):
            i = (i + step) % len(keys)
            if keys[i] not in taken:
                break
        ws = list(self.config.wrestlers)
        ws[seat] = keys[i]
        self.config = replace(self.config, wrestlers=tuple(ws))
        self.focus_seat = seat
        self.rebuild()

    def _continue(self) -> None:
        if self.on_continue is None:
            return
        try:
            self.on_continue()
        except ValueError as exc:  # the file went missing or bad since the menu opened
            self.message = str(exc)
            self.on_continue = None
            self.rebuild()

    def _start(self) -> None:
        mode = self.mode()
        if mode is None:
            return
        try:
            self.on_start(mode, self.config)
        except ValueError as exc:  # a game that cannot be set up says why, here
            self.message = str(exc)
            self.rebuild()

    def ask_quit(self) -> None:
        """Escape on the start menu: quit, after asking (Enter keeps the app open)."""
        confirm(self.app, "Quit Kabuto Sumo?", "Unfinished games are saved; Continue goes on with "
                "the last one next time.", "Quit", self.app.on_close, no="Stay", name="quit")

    # ----- input -------------------------------------------------------------------------------------
    def on_key_press(self, symbol, modifiers) -> bool:
        if symbol in (key.ENTER, key.RETURN):
            self._start()
            return True
        if symbol == key.ESCAPE:
            self.ask_quit()
            return True
        return False
