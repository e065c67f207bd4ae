"""What the table scene plays: a *session* answers "what is on the ring, who may push what, what
happens when they do". The scene never touches game rules itself.

Two kinds of session exist:

* :class:`SandboxSession` (physics only): the starting board, an endless supply of every piece kind,
  no turns and no winner. For trying pushes and tuning materials.
* ``kabuto.app.game_session.GameSession``: a real Kabuto Sumo game through :mod:`kabuto.rules.game`.

Both implement the :class:`Session` interface below. Nothing here imports pyglet.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Protocol

from kabuto.app.aim import Aim
from kabuto.app.words import and_list
from kabuto.rules.boards import load_setups, set_up, stand_in_wrestlers, starting_board
from kabuto_ui import theme
from physics import Materials, Push, PushResult, World


@dataclass(frozen=True)
class PieceChoice:
    """A piece the seat to play may push: ``key`` identifies it to :meth:`Session.push`."""

    key: str
    kind: str
    label: str
    count: int


@dataclass(frozen=True)
class SeatView:
    """One seat as the side panel shows it."""

    seat: int
    name: str
    colour: theme.RGBA
    is_ai: bool = False
    wrestler: str = ""
    inventory: tuple[tuple[str, str, int], ...] = ()  # (kind, label, count)
    eliminated: bool = False
    note: str = ""
    #: Set when this seat uses another row's inventory (4 players: the team's), shown instead.
    shares: str = ""


@dataclass(frozen=True)
class Prompt:
    """One click a signature move asks for: a piece on the ring (one of ``choices`` if given), or a
    point on the ring (a direction, and a distance, measured from the piece ``origin``)."""

    kind: str  # "piece" or "point"
    hint: str
    choices: tuple[str, ...] = ()
    origin: str | None = None
    #: A point that only chooses a direction from ``origin`` (a side of it, as Roll Up's): the
    #: table lights the sides the rules accept, as it rings the pieces a click may choose.
    side: bool = False


@dataclass(frozen=True)
class MoveView:
    """A signature move as a button: disabled moves say why in ``reason``; ``prompts`` are the
    clicks that choose its targets, in order."""

    key: str
    name: str
    text: str
    enabled: bool
    reason: str = ""
    prompts: tuple[Prompt, ...] = ()


@dataclass(frozen=True)
class TableOutcome:
    """What a push or move did, for the scene to animate and announce.

    ``destinations`` says where each piece that left the ring went: ``"seat:N"`` (an inventory),
    ``"supply"``, or ``"gone"``.
    """

    result: PushResult | None
    destinations: dict[str, str] = field(default_factory=dict)
    message: str = ""
    #: Pieces a move took off the ring without a push: (id, kind, x, y) where they were.
    vanished: tuple[tuple[str, str, float, float], ...] = ()


#: A piece drawn where a move would leave it: (id, kind, (x, y, angle, stack level)).
Ghost = tuple[str, str, tuple[float, float, float, int]]


@dataclass(frozen=True)
class ShownPreview:
    """What a signature move would do, shown before the player confirms it: ``lines`` say it in a
    player's words (what it does and what that decides, then what it costs), ``ghosts`` are the
    pieces it moves or places, at the poses it would leave them in, and ``falls`` the pieces on
    the ring it would knock out."""

    lines: tuple[str, ...]
    ghosts: tuple[Ghost, ...] = ()
    falls: tuple[str, ...] = ()


@dataclass(frozen=True)
class AIStep:
    """One step of an AI turn: a signature move with its targets, or a push. For a push, ``shown``
    is the aim the AI meant (drawn before it pushes) and ``aim`` the push it makes (the AI's hand
    may wobble)."""

    kind: str  # "move" or "push"
    move: str = ""
    targets: dict = field(default_factory=dict, hash=False)
    aim: Aim | None = None
    shown: Aim | None = None
    choice: PieceChoice | None = None


@dataclass(frozen=True)
class Winner:
    """How a game ended: the winning seats, the result in words, and the win screen's title
    (empty: the table makes one up from the seats)."""

    seats: tuple[int, ...]
    reason: str
    title: str = ""


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... as a player reads a place in a stack.

    >>> [_ordinal(n) for n in (1, 2, 3, 4, 11, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '22nd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return str(n) + suffix


class PanelSource(Protocol):
    """What the side panel reads (:mod:`kabuto.app.panels`): a live :class:`Session`, or a
    :class:`PanelSnapshot` of one taken before a push, shown until its pieces have flown."""

    interactive: bool

    @property
    def materials(self) -> Materials: ...

    def seats(self) -> list[SeatView]: ...

    def supply(self) -> list[tuple[str, str, int]]: ...

    def current_seat(self) -> int | None: ...

    def status(self) -> str: ...

    def moves(self) -> list[MoveView]: ...

    def kind_label(self, kind: str) -> str: ...

    def piece_colour(self, pid: str, kind: str) -> theme.RGBA: ...


class Session(ABC):
    """The interface the table scene uses: what is on the ring (:attr:`materials`,
    :meth:`world`, how pieces are named and drawn), the side panel (:class:`PanelSource`), the
    turn (pushes, moves, end of turn, undo, the winner) and the AI's steps. A subclass says what
    is on the ring and how a push is made; the rest has defaults for a table without turns."""

    title = "Kabuto Sumo"
    #: Whether pushes alternate between seats (the sandbox has no turns).
    has_turns = True
    #: False for the replay viewer: nobody aims or pushes, the recording does.
    interactive = True

    @property
    @abstractmethod
    def materials(self) -> Materials: ...

    @abstractmethod
    def set_materials(self, materials: Materials) -> None:
        """Materials for the next push on (the tuning panel); recorded by the game's replay."""

    @abstractmethod
    def world(self) -> World: ...

    def kind_label(self, kind: str) -> str:
        """A piece kind in a player's words ("medium disc", "Horn Bar")."""
        return f"{kind} disc" if kind in ("small", "medium", "large") else kind.replace("_", " ")

    def name_of(self, word: str) -> str | None:
        """A piece id or kind key in a player's words ("the medium disc", "Horn Bar"), or None."""
        if word in self.materials.kinds:
            return self.kind_label(word)
        for p in self.world().pieces:
            if p.id == word:
                name = self.kind_label(p.kind)
                return f"the {name}" if name.endswith(" disc") else name
        return None

    def owner_name(self, pid: str) -> str | None:
        """Whose piece this is, in the table's words ("Blue"), or None for a standard disc."""
        return None

    def describe_piece(self, pid: str) -> str:
        """The tooltip of a piece on the ring: what it is, whose, and how high its stack is
        ("medium disc, in a stack of 3: 2nd from the bottom")."""
        world = self.world()
        if pid not in world:
            return ""
        name = self.name_of(pid) or pid
        name = name.removeprefix("the ")
        parts = [name[:1].upper() + name[1:]]
        owner = self.owner_name(pid)
        if owner:
            parts.append(f"{owner}'s")
        level = world.levels().get(pid, 0)
        riders = world.riders(pid)
        height = level + 1 + len(riders)
        if height > 1:
            parts.append(f"in a stack of {height}: " + ("on top" if not riders else
                                                        "at the bottom" if level == 0 else
                                                        f"{_ordinal(level + 1)} from the bottom"))
        return ", ".join(parts)

    def refused(self, exc: BaseException) -> str:
        """A refused action in a player's words: said from its code and fields where the words
        know it (:func:`kabuto.app.words.refusal`; every code the rules raise has words, the
        tests see to it), else its own text (the table's and the aim's refusals are words)."""
        from kabuto.app.words import refusal

        return refusal(exc, self._field_words) or str(exc)

    def _field_words(self, kind: str, value: Any) -> str:
        """A refusal's field as the table says it: a seat by its name, a piece or kind by what it is."""
        if kind == "seat":
            return self.seat_word(int(value))
        if kind in ("piece", "kind"):
            return self.name_of(str(value)) or "that piece"
        return str(value)

    def seat_word(self, seat: int) -> str:
        """A seat as the table names it (its colour)."""
        return f"seat {seat + 1}"

    def seats(self) -> list[SeatView]:
        return []

    def current_seat(self) -> int | None:
        return None

    def seat_is_ai(self, seat: int | None) -> bool:
        return False

    def supply(self) -> list[tuple[str, str, int]]:
        return []

    @abstractmethod
    def choices(self) -> list[PieceChoice]: ...

    @abstractmethod
    def check(self, aim: Aim, choice: PieceChoice) -> tuple[Push | None, str]:
        """The push this aim makes, and '' - or None and the reason it cannot be made."""

    @abstractmethod
    def push(self, aim: Aim, choice: PieceChoice) -> TableOutcome | None:
        """Make the push: what it did, or None when it was only sent (an online table: the
        server's answer comes as a later step). ValueError (nothing changed) when refused."""

    def moves(self) -> list[MoveView]:
        return []

    def use_move(self, key: str, clicks: list) -> TableOutcome | None:
        """Perform a move; ``clicks`` answer its prompts: a piece id, or an (x, y) point. None
        when it was only sent, as :meth:`push`."""
        raise ValueError("this table has no signature moves")

    def preview_move(self, key: str, clicks: list) -> ShownPreview:
        """What :meth:`use_move` would do with these clicks, changing nothing; ValueError (the
        reason) when it would be refused."""
        raise ValueError("this table has no signature moves")

    def locked_aim(self) -> tuple[float, float] | None:
        """(entry_deg, heading_deg) the next push must keep (a second push in one turn), or None."""
        return None

    def can_end_turn(self) -> bool:
        return False

    def end_turn(self) -> None:  # noqa: B027 - a table without turns has none to end
        """End the turn (only when :meth:`can_end_turn`)."""

    def can_undo(self) -> bool:
        return False

    def undo(self) -> None:
        raise ValueError("nothing to undo")

    def winner(self) -> Winner | None:
        return None

    def piece_colour(self, pid: str, kind: str) -> theme.RGBA:
        return theme.DISC_COLOURS.get(kind, theme.UNKNOWN_PIECE)

    def status(self) -> str:
        """One line for the top bar: whose turn, what is expected."""
        return ""

    def waiting_words(self, name: str) -> tuple[str, str]:
        """While seat ``name`` plays by itself (an AI; online, another player): the top bar's line
        while it decides, and the aim bar's."""
        return "the AI is thinking...", f"{name} (AI) is choosing a push - watch its aim"

    def ai_plan(self, seat: int) -> list[AIStep] | None:
        """The AI's turn for ``seat``, as steps (None or []: nothing to do). Runs in a thread: it
        must only read the game."""
        return None

    def ai_move(self, step: AIStep) -> TableOutcome:
        raise ValueError("no AI here")

    def ai_push(self, step: AIStep) -> TableOutcome:
        raise ValueError("no AI here")

    def ai_finish(self, seat: int | None) -> None:  # noqa: B027 - a table without AI has nothing to end
        """End the AI's turn if the rules still wait for it."""



def load_board(players: int, materials: Materials, wrestler_kind: str | None = None,
               setups_path=None) -> World:
    """The starting board for ``players`` (:func:`kabuto.rules.boards.starting_board`): standard
    discs, and at the wrestler spots a stand-in of ``wrestler_kind`` (left empty when None). With
    the stand-ins the board is set up as a game's (:func:`kabuto.rules.boards.set_up`); without,
    the discs stand on their spots."""
    wrestlers = stand_in_wrestlers(players, wrestler_kind) if wrestler_kind else ()
    setups = load_setups(setups_path) if setups_path else None
    world = World(materials, starting_board(players, wrestlers, setups))
    return set_up(world, players, setups) if wrestlers else world


class SandboxSession(Session):
    """Physics only: push any standard piece kind, as often as you like, from the starting board.

    Undo restores the world before the last push. No rules, turns or winner.
    """

    title = "Free push (physics sandbox)"
    has_turns = False

    def __init__(self, materials: Materials | None = None, players: int = 2, world: World | None = None):
        mats = materials or Materials.load()
        self._world = world if world is not None else load_board(players, mats)
        self._history: list[World] = []
        self._n = 0

    @property
    def materials(self) -> Materials:
        return self._world.materials

    def set_materials(self, materials: Materials) -> None:
        self._world = World(materials, self._world.pieces)  # validates that every kind still exists

    def world(self) -> World:
        return self._world

    def choices(self) -> list[PieceChoice]:
        return [PieceChoice(k, k, k, -1) for k in sorted(self.materials.kinds,
                                                    key=lambda k: self.materials.kinds[k].size)]

    def _next_id(self) -> str:
        n = self._n + 1
        while f"P{n:03d}" in self._world:
            n += 1
        return f"P{n:03d}"

    def check(self, aim: Aim, choice: PieceChoice) -> tuple[Push | None, str]:
        push = aim.push(self._next_id(), choice.kind)
        try:
            self._world.check_push(push)
        except ValueError as exc:
            return None, str(exc)
        return push, ""

    def push(self, aim: Aim, choice: PieceChoice) -> TableOutcome:
        push, reason = self.check(aim, choice)
        if push is None:
            raise ValueError(reason)
        before = self._world.copy()
        result = self._world.push(push)
        self._history.append(before)
        self._n = int(push.piece[1:])
        return TableOutcome(result, {f.piece: "supply" for f in result.fell}, self.fell_words(result))

    def fell_words(self, result: PushResult) -> str:
        """What a push knocked out, counted by kind in a player's words ("knocked out 3 medium
        discs and a small disc"), never by piece id."""
        counts: dict[str, int] = {}
        for f in result.fell:
            label = self.kind_label(f.kind)
            counts[label] = counts.get(label, 0) + 1
        if not counts:
            return "nothing fell"
        parts = [f"a {k}" if n == 1 else f"{n} {_plural(k)}" for k, n in counts.items()]
        return "knocked out " + and_list(parts)

    def can_undo(self) -> bool:
        return bool(self._history)

    def undo(self) -> None:
        if not self._history:
            raise ValueError("nothing to undo")
        prev = self._history.pop()
        self._world = World(self.materials, prev.pieces)  # the tuning in force stays in force

    def status(self) -> str:
        return f"{len(self._world.pieces)} pieces on the ring - push anything"


class PanelSnapshot:
    """The panels' view of a session frozen at one moment: while a push plays, the side panel keeps
    showing the inventories before it, until the knocked-out pieces have flown to them."""

    def __init__(self, live: Session):
        self.live = live
        self.interactive = live.interactive
        self._seats = live.seats()
        self._supply = live.supply()
        self._current = live.current_seat()
        self._status = live.status()

    @property
    def materials(self) -> Materials:
        return self.live.materials

    def seats(self) -> list[SeatView]:
        return self._seats

    def supply(self) -> list[tuple[str, str, int]]:
        return self._supply

    def current_seat(self) -> int | None:
        return self._current

    def status(self) -> str:
        return self._status

    def say(self, status: str) -> None:
        """Show ``status`` in the top bar instead (a replay's step names the step being played)."""
        self._status = status

    def moves(self) -> list[MoveView]:
        return []  # nothing to click while a push plays

    def piece_colour(self, pid: str, kind: str) -> theme.RGBA:
        return self.live.piece_colour(pid, kind)

    def kind_label(self, kind: str) -> str:
        return self.live.kind_label(kind)


def _plural(words: str) -> str:
    """ "medium disc" -> "medium discs" (a piece's name, counted)."""
    return words + "s"
