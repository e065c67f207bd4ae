"""The tutorial at the table: the real table scene, with the lesson's card in a column on its left.

:class:`TutorialScene` is a :class:`~kabuto.app.scene.table.TableScene` playing the tutorial's game
(:mod:`kabuto.app.tutorial`: the real rules, the AI at the tutorial's level) against Blue. It adds
only what a lesson needs: after each action has been shown (the table's ``_landed``) it asks the
tutorial whether the step was done; it sets each step up when the player's turn comes; Try again
takes the game back to the step's start with the table's own undo. The card (:class:`TutorialCard`)
says the step, what to do, and how it went, with its buttons: Next (N), Try again (R), Leave.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyglet import shapes
from pyglet.graphics import Batch, Group
from pyglet.window import key

from kabuto.app.game_session import GameSession
from kabuto.app.scene.table import AIM_BAR, TOP_BAR, TableScene
from kabuto.app.table_flow import Phase
from kabuto.app.tutorial import YOU, Tutorial
from kabuto.rules.game import Game
from kabuto_ui import theme
from kabuto_ui.geometry import Rect
from kabuto_ui.widgets import Button, Widgets, fit_text, label

#: The card column's width: this share of what the side panel leaves, within these bounds.
CARD_SHARE, CARD_MIN, CARD_MAX = 0.27, 236, 360
#: The game log's height in the card's free room (none below the least).
LOG_MIN, LOG_MAX = 70, 260


class TutorialCard:
    """The lesson's card: the step, its text, how it went, and its buttons."""

    def __init__(self, batch: Batch, group: Group):
        self.batch = batch
        self.g_bg, self.g_fg = Group(0, group), Group(1, group)
        self.rect = Rect(0, 0, 0, 0)
        self._items: list = []

    def clear(self) -> None:
        for it in self._items:
            it.delete()
        self._items = []

    def build(self, rect: Rect, tut: Tutorial, waiting: str, widgets: Widgets,
              actions: dict[str, Callable[[], None]]) -> Rect:
        """Draw the card into ``rect``; ``waiting``: a line while the step waits for the table (the
        AI's turn); ``actions``: what Next, Try again and Leave do. Returns the room left between
        its words and its buttons (the game log goes there)."""
        self.clear()
        self.rect = rect
        b, bg, fg = self.batch, self.g_bg, self.g_fg
        add = self._items.append
        add(shapes.Rectangle(rect.x, rect.y, rect.w, rect.h, color=theme.PANEL, batch=b, group=bg))
        add(shapes.Rectangle(rect.right - 1, rect.y, 1, rect.h, color=theme.PANEL_EDGE, batch=b,
                             group=bg))
        pad = 14
        x, w = rect.x + pad, int(rect.w - 2 * pad)
        y = rect.top - 24
        add(label("Tutorial  \u00b7  " + tut.counter(), x, y, b, fg, size=theme.FONT_SMALL,
                  color=theme.TEXT_DIM))
        y -= 30
        step = tut.step
        add(label(step.title, x, y, b, fg, size=theme.FONT_HEADING + 2, bold=True, color=theme.ACCENT))
        y -= 14
        size = theme.FONT_SMALL + 1 if rect.h < 560 else theme.FONT_SIZE
        body = label(step.text, x, y, b, fg, size=size, width=w, multiline=True, anchor_y="top")
        add(body)
        y -= body.content_height + 14
        verdict = tut.verdict
        if verdict is not None:
            text, colour = ((step.done, theme.TEXT_GOOD) if verdict.passed
                            else (verdict.why, theme.TEXT_BAD))
            mark = "\u2714 " if verdict.passed else "\u2716 "
            said = label(mark + text, x, y, b, fg, size=size, width=w, multiline=True,
                         anchor_y="top", color=colour, bold=verdict.passed)
            add(said)
            y -= said.content_height + 10
        elif waiting:
            add(label(waiting, x, y - 12, b, fg, size=theme.FONT_SMALL, color=theme.TEXT_DIM,
                      width=w, multiline=True, anchor_y="baseline"))
            y -= 24
        # The buttons, from the card's foot up: Leave always; Next or Try again as it went.
        bh, by = 34, rect.y + 14
        widgets.add(Button(Rect(x, by, w, bh), "Leave the tutorial", actions["leave"], b, fg,
                           size=theme.FONT_SMALL, name="tutorial:leave"))
        by += bh + 10
        if verdict is not None and verdict.passed:
            last = tut.finished
            widgets.add(Button(Rect(x, by, w, bh + 6), "Finish (N)" if last else "Next (N)",
                               actions["next"], b, fg, size=theme.FONT_HEADING, selected=True,
                               name="tutorial:next"))
        elif verdict is not None:
            widgets.add(Button(Rect(x, by, w, bh + 6), "Try again (R)", actions["retry"], b, fg,
                               size=theme.FONT_HEADING, selected=True, name="tutorial:retry"))
        top = by + bh + 16
        return Rect(rect.x + 6, top, rect.w - 12, max(0.0, y - 6 - top))


class TutorialScene(TableScene):
    """The tutorial's game at the table; ``on_menu`` leaves it (Leave, Finish, the pause menu)."""

    def __init__(self, app, tut: Tutorial, session: GameSession, **kw: Any):
        tut.begin(session.game)  # the first step's board, before the table first shows it
        super().__init__(app, session, **kw)
        self.game_session = session
        self.tutorial = tut
        self.card = TutorialCard(self.batch, Group(order=11))
        self._choose()

    @classmethod
    def open(cls, host: Any, tut: Tutorial | None = None) -> TutorialScene:
        """The tutorial, started by the app ``host`` (:class:`kabuto.app.main.App`): its window,
        options and pace; the standard materials (the lessons are set for them, not a tuning)."""
        tut = tut or Tutorial.load()
        o = host.options
        session = GameSession(tut.new_game(), ("human", "ai"), tut.ai_level, tut.seed,
                              ai_workers=o.ai_workers, record=False)
        def menu() -> None:
            host.last_mode = "kabuto"   # the menu comes back on a real game, not the tutorial
            host.open_menu()

        return cls(host.window, tut, session, on_menu=menu, ai_delay=o.ai_delay,
                   pace=host.settings.pace, on_pace=host.set_pace, data_dir=host.data_dir)

    @property
    def game(self) -> Game:
        """The game as it is now (an undo replaces the object)."""
        return self.game_session.game

    # ----- the table's hooks -----------------------------------------------------------------------
    def left_column(self, width: int) -> int:
        free = width - self.panel_rect.w if self.panel_rect.w > 1 else width * 0.7
        return int(min(CARD_MAX, max(CARD_MIN, free * CARD_SHARE)))

    def rebuild(self) -> None:
        super().rebuild()
        H = self.app.height
        rect = Rect(0, AIM_BAR, self.ring_area.x, H - TOP_BAR - AIM_BAR)
        room = self.card.build(rect, self.tutorial, self._waiting(), self.widgets,
                               {"next": self.next_step, "retry": self.try_again,
                                "leave": self._to_menu})
        if not self.log_panel.expanded:
            # The game log goes in the card's free room, under its words: the ring area, narrowed
            # by the card, has no corner the ring leaves free.
            h = min(room.h, LOG_MAX)
            self.log_panel.build(Rect(room.x, room.top - h, room.w, h) if h >= LOG_MIN
                                 else Rect(0, 0, 0, 0))
        if self.tutorial.mark is not None and self.tutorial.verdict is None and self.mode is Phase.AIM:
            for pid in self.tutorial.focus:   # the piece the lesson is about
                if pid in self.game.world:
                    self.ring.set_mark(pid, theme.HIGHLIGHT)
        if self.tutorial.verdict is not None and self.mode is Phase.AI_THINKING:
            fit_text(self.status_label, "Blue plays its turn when you go on", self._status_width)

    def _landed(self) -> None:
        # Judged before the table goes on (super() starts Blue's turn, which waits on a verdict).
        self.tutorial.rewound(self.game)   # (an undo may have taken the step back)
        if self.tutorial.mark is not None:
            self.tutorial.observe(self.game)
        super()._landed()
        self._follow()

    def _start_ai(self) -> None:
        """Blue waits while the card shows how a step went: the player reads it, then Next (or
        Try again, which takes the turn back) lets the game go on."""
        if self.tutorial.verdict is None:
            super()._start_ai()

    def _build_over(self) -> None:
        """No win box over the ring: the card says how the game ended and what comes next."""
        self._clear_over()

    def toggle_tuning(self) -> None:
        self.flow.say("the tutorial plays with the standard physics: tune it in a game of your own")
        self._refresh_status()

    def _saved_where(self) -> str:
        return "The tutorial is not saved: leaving ends it. The start menu opens it again."

    def _leave_words(self) -> str:
        return "Leave the tutorial"

    # ----- the lesson ------------------------------------------------------------------------------
    def _waiting(self) -> str:
        if self.tutorial.verdict is not None:
            return ""
        if self.mode in (Phase.AI_THINKING, Phase.AI_SHOWING):
            return "Blue is taking its turn..."
        if self.flow.can_end_turn and self.game.current_seat == YOU:
            return "Pushed: end your turn (E) when you are done."
        return ""

    def _follow(self) -> None:
        """After each action has been shown: set up a step waiting for the player's turn, or ask
        the step whether it was done."""
        tut, game = self.tutorial, self.game
        if tut.mark is None:
            if self.mode is Phase.AIM and tut.ready(game):
                self._begin()
            return
        before = tut.verdict
        tut.observe(game)
        if tut.verdict != before:
            self.rebuild()

    def _begin(self) -> None:
        self.tutorial.begin(self.game)
        self.coach.clear()
        self.ring.show_world(self.session.world())
        self.flow.reset()
        self._choose()
        self.rebuild()

    def _choose(self) -> None:
        kind = self.tutorial.step.choose
        if kind is not None:
            self.flow.pick_choice(kind)

    def try_again(self) -> None:
        """Back to the step's start (the table's undo, as often as it takes), to do it again."""
        tut = self.tutorial
        if tut.mark is None or tut.verdict is None or tut.verdict.passed:
            return
        if self.mode is Phase.PLAYING:
            self.skip()
            return  # it lands on the next frame; Try again is still there
        self._rewind()
        tut.retry()
        self._choose()
        self.rebuild()

    def _rewind(self) -> None:
        """The table's undo, as often as it takes to be back at the step's start."""
        mark = self.tutorial.mark
        while mark is not None and len(self.game.history) > mark.history and self.flow.can_undo:
            self._undo()

    def next_step(self) -> None:
        """On to the next lesson; after the last, back to the menu. A lesson that ended the game
        (a win by submission) is taken back first, so the game goes on for the next one."""
        tut = self.tutorial
        if tut.verdict is None or not tut.verdict.passed:
            return
        if tut.finished:
            self._to_menu()
            return
        if self.game.is_over:
            self._rewind()
        tut.next_step()
        if self.flow.can_end_turn and self.game.current_seat == YOU:
            self._end_turn()   # the lesson's turn is over: Blue plays, then the next one begins
        else:
            self._start_ai()   # Blue's turn, held while the card showed the result
            self._follow()     # set up now if the player's turn is starting, else when it comes
        self.rebuild()

    def on_key_press(self, symbol, modifiers) -> bool:
        if symbol == key.N and not modifiers & key.MOD_CTRL:
            self.next_step()
            return True
        if symbol == key.R and not modifiers & key.MOD_CTRL:
            self.try_again()
            return True
        return super().on_key_press(symbol, modifiers)

    def close(self) -> None:
        self.card.clear()
        super().close()
