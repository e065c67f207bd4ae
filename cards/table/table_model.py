"""The card table's state between the match and the screen: what is picked, what was said, what the
screen shows now, and what a click on it means. No pyglet, so every click path is testable.

:meth:`TableModel.display` is the current picture: the pass screen in hot-seat while the screen
changes hands, otherwise the game's view of the viewer's observation (plus a summary pop-up while
one is open). :meth:`TableModel.press` takes a click in design pixels, finds what is under it and
acts: pick a card, play an action (showing the engine's refusal in plain words if it is not legal),
dismiss a summary, rematch, or ask the scene to leave (``"menu"``).
"""
from __future__ import annotations

from cards.table.config import TableConfig, table_data
from cards.table.display import Display, Item
from cards.table.match import BotFactory, Match, new_match
from cards.table.views import view_for
from cards.table.views.common import Intent, ViewContext, pass_screen, summary_items
from kabuto_ui import theme


class TableModel:
    """See the module docstring. ``revision`` grows with every change the screen should show."""

    def __init__(self, config: TableConfig, bot_factory: BotFactory | None = None,
                 match: Match | None = None) -> None:
        self.match = match if match is not None else new_match(config, bot_factory)
        self.view = view_for(self.match.mode.game)
        self.selection: list[str] = []
        self.message = ""
        self.message_bad = False
        self.log_scroll = 0
        self.thinking = False
        self.revision = 0
        self._display: Display | None = None
        self._display_rev = -1

    @property
    def title(self) -> str:
        return self.match.mode.title

    def changed(self) -> None:
        self.revision += 1

    # ----- the picture -------------------------------------------------------------------------------
    def context(self) -> ViewContext:
        m = self.match
        extra: list[tuple[str, str]] = []
        if m.over and not m.pending:
            extra = [("Results", "ui:results"), ("Rematch", "ui:rematch")]
        ctx = ViewContext(
            game=m.mode.game, title=self.title, obs=m.observation(), viewer=m.viewer, names=list(m.names),
            labels=[m.seat_label(s) for s in range(len(m.names))], bots=[m.is_bot(s) for s in range(len(m.names))],
            current=m.current, legal=m.legal_for_viewer(), selection=list(self.selection),
            message=self.message, message_bad=self.message_bad, log=m.log(), log_scroll=self.log_scroll,
            over=m.over, hot_seat=m.hot_seat, thinking=self.thinking, extra=extra,
        )
        return ctx

    def display(self) -> Display:
        """The picture for the current state (built once per revision)."""
        if self._display is not None and self._display_rev == self.revision:
            return self._display
        m = self.match
        if m.pass_to is not None:
            seat = m.pass_to
            note = "" if not m.pending else "A summary is waiting for you."
            d = pass_screen(self.title, m.names[seat], theme.seat_colour(seat), note)
        else:
            d = self.view.build(self.context())
            if m.summary is not None:
                d.extend(summary_items(m.summary, rematch=True))
        self._display, self._display_rev = d, self.revision
        return d

    # ----- input -------------------------------------------------------------------------------------
    def item_at(self, x: float, y: float) -> Item | None:
        return self.display().hit(x, y)

    def press(self, x: float, y: float) -> str | None:
        """A click at design pixel (x, y). Returns "menu" when the player asks to leave the table."""
        item = self.item_at(x, y)
        if item is None or not item.target:
            return None
        enabled = getattr(item, "enabled", True)
        if not enabled:
            reason = getattr(item, "reason", "")
            if reason:
                self._say(reason, bad=True)
            return None
        return self.handle(item.target)

    def handle(self, target: str) -> str | None:
        m = self.match
        kind, _, arg = target.partition(":")
        if kind == "ui":
            if arg == "menu":
                return "menu"
            if arg == "pass":
                m.confirm_pass()
                self.selection = []
                self.message = ""
                self.log_scroll = 0
            elif arg == "dismiss":
                m.dismiss_summary()
            elif arg == "rematch":
                again = m.rematch()
                if again is m:  # a match that cannot deal again here (online: a new room) leaves
                    return "menu"
                self.match = again
                self.selection, self.message, self.log_scroll = [], "", 0
            elif arg == "results":
                s = m.final_summary()
                if s is not None:
                    m.pending.append(s)
            elif arg == "clear":
                self.selection = []
            elif arg == "log":
                return None
            self.changed()
            return None
        if m.pass_to is not None or m.summary is not None:
            return None
        intent = self.view.click(target, self.context())
        self.perform(intent)
        return None

    def drop(self, key: str) -> None:
        """A hand card dragged onto the table."""
        m = self.match
        if m.pass_to is not None or m.summary is not None:
            return
        self.perform(self.view.drop(key, self.context()))

    def perform(self, intent: Intent) -> None:
        if intent.kind == "select":
            self.selection = list(intent.selection)
            self.message = ""
        elif intent.kind == "explain":
            self._say(intent.message, bad=True)
            return
        elif intent.kind == "apply":
            self.play(intent.action)
            return
        self.changed()

    def play(self, action: str) -> bool:
        """Play the viewer's action; on refusal show the engine's reason (state unchanged)."""
        reason = self.match.try_action(action)
        if reason is not None:
            self._say(_sentence(reason), bad=True)
            return False
        self.selection = []
        self.message = ""
        self.changed()
        return True

    def _say(self, text: str, bad: bool) -> None:
        self.message = text
        self.message_bad = bad
        self.changed()

    def scroll_log(self, lines: int) -> None:
        """Mouse wheel over the log: positive looks back at older moves."""
        total = len(self.match.log())
        self.log_scroll = max(0, min(max(0, total - 1), self.log_scroll + lines))
        self.changed()

    # ----- bots --------------------------------------------------------------------------------------
    def bot_slow(self) -> bool:
        """Whether the bot to act thinks long enough to be run off the window's thread."""
        m = self.match
        seat = m.current
        spec = m.config.seats[seat]
        return spec.is_bot and table_data().strength(spec.strength).slow

    def bot_step(self) -> str:
        """Let the bot to act choose and play now."""
        action = self.match.step_bot()
        self._after_bot()
        return action

    def apply_bot(self, action: str) -> None:
        self.match.apply_bot(action)
        self._after_bot()

    def _after_bot(self) -> None:
        self.thinking = False
        self.message = ""  # a refusal is stale once the table has moved on
        self.changed()


def _sentence(reason: str) -> str:
    """The engine's words, as a sentence on screen ("You must follow suit: you hold a heart.")."""
    reason = reason.strip()
    if not reason:
        return "That is not allowed now."
    s = reason[0].upper() + reason[1:]
    return s if s.endswith((".", "!", "?", ")")) else s + "."
