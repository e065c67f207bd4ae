"""The game log: every push and signature move of every seat, in the words the table says them
("Blue (Goliath Gus) pushed a medium disc: knocked out Red's small disc"). No pyglet.

An entry is held back while its push plays and joins the log when the animation ends
(:meth:`GameLog.landed`), so the log never tells what fell before the player has seen it fall.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kabuto_ui import theme


@dataclass(frozen=True)
class LogEntry:
    """One line of the log: the seat that acted (None: not a seat's action) and what happened."""

    seat: int | None
    text: str
    at: int = 0   # the replay step it belongs to (the viewer drops later ones when it steps back)


def seat_of(text: str) -> int | None:
    """The seat whose name a table sentence starts with ("Blue (Gus) pushed ..." -> 1).

    >>> seat_of("Blue (Goliath Gus) pushed a small disc: nothing fell"), seat_of("Game over")
    (1, None)
    """
    for i, name in enumerate(theme.SEAT_NAMES):
        if text.startswith(name + " ") or text.startswith(name + ":"):
            return i
    return None


@dataclass
class GameLog:
    """The entries shown so far, and the one whose push is still playing."""

    entries: list[LogEntry] = field(default_factory=list)
    pending: LogEntry | None = None

    def started(self, message: str, at: int = 0) -> None:
        """A push or move started playing; its sentence waits for :meth:`landed`."""
        self.landed()  # (an earlier one cut short by a skip or a jump)
        text = message.strip()
        if text:
            self.pending = LogEntry(seat_of(text), text, at)

    def landed(self) -> bool:
        """The playing push or move came to rest: its sentence joins the log (True if one did)."""
        if self.pending is None:
            return False
        self.entries.append(self.pending)
        self.pending = None
        return True

    def drop_last(self) -> None:
        """Forget the newest entry (an undo, a replay stepped back)."""
        self.pending = None
        if self.entries:
            self.entries.pop()

    def keep_until(self, step: int) -> None:
        """Keep only what happened up to replay step ``step`` (the viewer stepped back or jumped)."""
        if self.pending is not None and self.pending.at > step:
            self.pending = None
        self.entries = [e for e in self.entries if e.at <= step]
