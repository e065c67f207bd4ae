"""The Kabuto table's turn flow without a window: which phase the table is in, what each input
means in it, and what the screen should show. No pyglet, so every path is testable (the
table scene, :mod:`kabuto.app.scene.table`, only draws what this says and routes input to it).

The phases (:class:`Phase`)::

    AIM          a person aims and pushes (or, in the sandbox, anyone)
    TARGETS      a signature move waits for the clicks that choose its targets (Esc cancels)
    CONFIRM      a signature move, its targets chosen, shows what it would do (its preview) and
                 waits for Confirm (Enter) or Cancel (Esc); nothing has changed yet
    PLAYING      an outcome is being animated; the screen calls landed() when it has shown it
    AI_THINKING  an AI seat's plan is being made: the screen takes the plan request, runs
                 Session.ai_plan in a thread and hands the steps back with ai_planned()
    AI_SHOWING   the aim of the AI's next push is on show for ``ai_delay`` seconds (tick())
    OVER         the game has a winner
    SHOWING      a push made elsewhere (a replay's step) shows its aim for a moment before it
                 plays (tick()), as an AI's push does

The transitions, each a method that returns whether it was taken (one that is not changes
nothing but :attr:`TableFlow.message`, which may say why)::

    push()              AIM -> PLAYING
    pick_move(m)        AIM | TARGETS | CONFIRM -> TARGETS (m asks for clicks) | CONFIRM (it does not)
    click(x, y, piece)  TARGETS -> TARGETS (more clicks to come) | CONFIRM (the last);
                        CONFIRM -> CONFIRM (the last click chosen again: a new preview)
    confirm()           CONFIRM -> PLAYING (the move is made)
    cancel()            TARGETS | CONFIRM -> AIM (the game as it was)
    end_turn()          AIM | TARGETS -> the next turn
    landed()            PLAYING -> the next AI step, or the next turn
    ai_planned(t, s)    AI_THINKING -> AI_SHOWING | PLAYING (a move) | the next turn
    ai_failed(t, e)     AI_THINKING -> AIM (the AI's seat stays stuck until an undo)
    tick(dt)            AI_SHOWING -> PLAYING (the push is made) once ai_delay has run out
    undo()              any but PLAYING -> the turn the undo goes back to
    reset(text)         any -> the turn the session is in now (the replay viewer moved it)
    play(outcome, s)    AIM | OVER -> PLAYING (an outcome made elsewhere: a replay's step), or
                        SHOWING first when it is a push and ``s`` (seconds to show its aim) > 0
    tick(dt)            SHOWING -> PLAYING once its ``s`` have run out

"The next turn" is OVER when the session has a winner, AI_THINKING when an AI seat is to play,
else AIM. Aiming (set_aim, pick_choice, ...) is not a transition: it is open to a person in AIM and
TARGETS.
"""
from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from kabuto.app.aim import Aim, Limits
from kabuto.app.session import (
    AIStep,
    MoveView,
    PanelSnapshot,
    PanelSource,
    PieceChoice,
    Prompt,
    Session,
    ShownPreview,
    TableOutcome,
    Winner,
)
from kabuto_ui import theme

log = logging.getLogger(__name__)

#: A click while a move waits for targets: a piece id, or a point (x, y) on the ring in metres.
Click = str | tuple[float, float]


class Phase(StrEnum):
    """What the table is doing (the values are the words tests and tools print)."""

    AIM = "aim"
    TARGETS = "targets"
    PLAYING = "playing"
    AI_THINKING = "ai-thinking"
    AI_SHOWING = "ai-showing"
    OVER = "over"
    CONFIRM = "confirm"
    SHOWING = "showing"


#: Where a person may aim, pick a piece and end the turn.
AIMING = (Phase.AIM, Phase.TARGETS)
#: Where an undo is taken (not while an outcome plays: its pieces are still flying).
UNDOABLE = (Phase.AIM, Phase.TARGETS, Phase.CONFIRM, Phase.OVER, Phase.AI_THINKING,
            Phase.AI_SHOWING)
#: Where a signature move is being chosen (its targets, then its confirmation).
CHOOSING = (Phase.TARGETS, Phase.CONFIRM)


@dataclass(frozen=True)
class PlanRequest:
    """An AI turn to plan: ``Session.ai_plan(seat)``, answered with ``ai_planned(token, steps)``.
    An undo or a reset makes older tokens stale (their answers are refused)."""

    token: int
    seat: int


@dataclass(frozen=True)
class AimPreview:
    """The aim to draw: the platform at ``aim``, the piece of ``kind`` waiting on it at ``start``
    (a :meth:`physics.World.platform_pose`; None when no push can be made there), whose aim it is,
    and the readout and the reason (if ``blocked``) for the aim bar."""

    aim: Aim
    kind: str | None
    start: tuple[float, float, float] | None
    by_ai: bool
    blocked: bool
    readout: str
    reason: str


@dataclass(frozen=True)
class Marks:
    """Pieces to ring while a move waits for clicks: those already chosen, those the next click
    may choose, and the piece a direction is measured from."""

    chosen: tuple[str, ...]
    offered: tuple[str, ...]
    origin: str | None
    sides: tuple[Side, ...] = ()  # a side prompt's accepted sides


@dataclass(frozen=True)
class Side:
    """A side of a piece a move may use: where the piece it places would stand (x, y, and its
    reach ``r``), and the click that chooses it."""

    x: float
    y: float
    r: float
    click: tuple[float, float]


#: Sides tried round a piece for a side prompt (every 15 degrees).
SIDE_STEPS = 24


@dataclass(frozen=True)
class OverView:
    """The win screen: its title, the result in words, and the winner's colour."""

    title: str
    reason: str
    colour: theme.RGBA


@dataclass(frozen=True)
class TableView:
    """Everything the panels and bars show, as data (rebuilt after each transition)."""

    phase: Phase
    status: str                    # the top bar's line
    message: str                   # the event line over the ring
    may_aim: bool                  # the aim bar's pieces take clicks
    choices: tuple[PieceChoice, ...]    # the pieces in the aim bar
    choice_key: str | None
    idle: str                      # the aim bar's line when it has no pieces to show
    can_undo: bool
    can_end_turn: bool
    speed_slider: bool
    selected_move: str | None      # the move button shown pressed
    panels: PanelSource            # what the side panel shows (the state before, while playing)
    preview: ShownPreview | None = None  # what the move waiting for Confirm would do (CONFIRM)


def fmt_signed(v: float) -> str:
    """An angle for the readout: "+12.5", "-3.0", and "0.0" for anything that rounds to it."""
    return f"{v:+.1f}" if not math.isclose(v, 0.0, abs_tol=0.05) else "0.0"


#: Between the parts of the aim readout (a narrow aim bar drops its last parts whole).
READOUT_SEP = "  ·  "


def readout(aim: Aim, choice: PieceChoice | None) -> str:
    piece = choice.label if choice else "-"
    return READOUT_SEP.join((piece, f"platform at {aim.entry_deg:.1f}°",
                             f"heading {fmt_signed(aim.heading_deg)}°", f"speed {aim.speed * 1000:.0f} mm/s"))


class TableFlow:
    """One table's turn flow over ``session`` (see the module docstring)."""

    def __init__(self, session: Session, ai_delay: float = 0.9) -> None:
        self.session = session
        self.ai_delay = ai_delay
        self.limits = Limits.from_materials(session.materials)
        self.phase = Phase.AIM
        self._message = ""
        self.pushes = 0                       # pushes made at this table (a person's or the AI's)
        self._aim = self.limits.clamp(Aim())
        self._choice_key: str | None = None
        self._move: MoveView | None = None    # the move waiting for clicks (TARGETS)
        self._clicks: list[Click] = []
        self._preview: ShownPreview | None = None  # the move's preview (CONFIRM)
        self._sides_for: tuple[tuple, tuple[Side, ...]] | None = None  # (move, clicks) -> sides
        self._outcome: TableOutcome | None = None  # the one playing (PLAYING)
        self._unshown: TableOutcome | None = None  # ... until the screen takes it
        self._frozen: PanelSnapshot | None = None
        self._token = 0
        self._request: PlanRequest | None = None
        self._ai_seat: int | None = None
        self._ai_steps: list[AIStep] | None = None   # the AI turn being carried out
        self._ai_shown: tuple[Aim, PieceChoice | None] | None = None
        self._ai_wait = 0.0
        self._showing: tuple[TableOutcome, AimPreview] | None = None  # (SHOWING) what, and its aim
        self._stuck = False                   # the AI failed; its seat waits for an undo
        self._next_turn()

    # ----- reading -----------------------------------------------------------------------------
    @property
    def human_turn(self) -> bool:
        """A person is to play (the sandbox counts: it has nobody to play)."""
        s = self.session
        return s.interactive and not s.seat_is_ai(s.current_seat())

    @property
    def may_aim(self) -> bool:
        return self.phase in AIMING and self.human_turn

    @property
    def can_undo(self) -> bool:
        return self.phase in UNDOABLE and self.session.can_undo()

    @property
    def can_end_turn(self) -> bool:
        return self.may_aim and self.session.can_end_turn()

    @property
    def aim(self) -> Aim:
        """The aim a push would be made with: the person's, but where the rules hold the platform
        still (a turn's second push) exactly there."""
        lock = self.session.locked_aim()
        if lock is None:
            return self._aim
        return Aim(lock[0], lock[1], self._aim.speed, self._aim.spin_deg)

    @property
    def choice_key(self) -> str | None:
        return self._choice_key

    @property
    def choice(self) -> PieceChoice | None:
        return next((c for c in self.session.choices() if c.key == self._choice_key), None)

    @property
    def outcome(self) -> TableOutcome | None:
        """The outcome being played (PLAYING), else None."""
        return self._outcome

    @property
    def selected_move(self) -> MoveView | None:
        return self._move

    @property
    def clicks(self) -> tuple[Click, ...]:
        return tuple(self._clicks)

    @property
    def preview(self) -> ShownPreview | None:
        """What the move waiting for Confirm would do (CONFIRM), else None."""
        return self._preview if self.phase is Phase.CONFIRM else None

    def take_outcome(self) -> TableOutcome | None:
        """The outcome the screen is to animate now (once; then it waits for :meth:`landed`)."""
        out, self._unshown = self._unshown, None
        return out

    def take_plan_request(self) -> PlanRequest | None:
        """The AI plan the screen is to have made now (once)."""
        req, self._request = self._request, None
        return req

    # ----- what to show ------------------------------------------------------------------------
    def view(self) -> TableView:
        s = self.session
        playing = self.phase is Phase.PLAYING
        frozen = playing or self.phase is Phase.SHOWING
        panels: PanelSource = self._frozen if frozen and self._frozen is not None else s
        status = panels.status()
        if self._move is not None and self.phase is Phase.CONFIRM:
            status = f"{self._move.name}: Confirm (Enter) or Cancel (Esc)"
        elif self._move is not None:
            status = f"{self._move.name}: {self._move.prompts[len(self._clicks)].hint}  (Esc cancels)"
        seat = s.current_seat()
        name = next((sv.name for sv in s.seats() if sv.seat == seat), "the AI")
        if self.phase is Phase.AI_THINKING:
            status = s.waiting_words(name)[0]
        if not s.interactive:
            idle = ""
        elif s.winner() is not None:
            idle = "the game is over"
        elif playing:
            idle = "..."
        elif not self.human_turn:
            idle = s.waiting_words(name)[1]
        elif s.can_end_turn():
            idle = "pushed: use a signature move, or End turn (E)"
        else:
            idle = "nothing to push"
        may = self.may_aim
        choices = tuple(s.choices()) if may or not s.has_turns else ()
        if self.phase is Phase.CONFIRM:
            idle = ""
        return TableView(self.phase, status, self.message, may, choices, self._choice_key, idle,
                         self.can_undo, self.can_end_turn, may and s.locked_aim() is None,
                         self._move.key if self._move else None, panels, self.preview)

    def aim_preview(self) -> AimPreview | None:
        """The aim to draw now: the AI's on show, a replayed push's, or the person's; None when
        there is none."""
        if self.phase is Phase.SHOWING and self._showing is not None:
            return self._showing[1]
        if self.phase is Phase.AI_SHOWING and self._ai_shown is not None:
            (aim, choice), by_ai = self._ai_shown, True
        elif self.may_aim:
            aim, choice, by_ai = self.aim, self.choice, False
        else:
            return None
        if choice is None:
            return AimPreview(aim, None, None, by_ai, False, readout(aim, None), "choose a piece to push")
        push, reason = self.session.check(aim, choice)
        start = self.session.world().platform_pose(push) if push is not None else None
        return AimPreview(aim, choice.kind, start, by_ai, push is None, readout(aim, choice),
                          reason)

    def marks(self) -> Marks | None:
        """The pieces to ring while a move waits for clicks (TARGETS), else None."""
        if self._move is None:
            return None
        chosen = tuple(c for c in self._clicks if isinstance(c, str))
        if self.phase is Phase.CONFIRM:
            return Marks(chosen, (), None)
        prompt = self._move.prompts[len(self._clicks)]
        return Marks(chosen, tuple(p for p in prompt.choices if p not in chosen), prompt.origin,
                     self._sides(self._move, prompt, self._clicks))

    def _sides(self, move: MoveView, prompt: Prompt, clicks: list[Click]) -> tuple[Side, ...]:
        """The sides of the prompt's piece the rules accept for the move's last click, found by
        previewing each (once per prompt; a click outside them is refused as before)."""
        if not prompt.side or prompt.origin is None or len(clicks) + 1 != len(move.prompts):
            return ()
        key = (move.key, tuple(clicks))
        if self._sides_for is not None and self._sides_for[0] == key:
            return self._sides_for[1]
        world = self.session.world()
        sides: list[Side] = []
        if prompt.origin in world:
            o = world.piece(prompt.origin)
            kinds = self.session.materials.kinds
            for k in range(SIDE_STEPS):
                a = 2 * math.pi * k / SIDE_STEPS
                click = (o.x + 0.01 * math.cos(a), o.y + 0.01 * math.sin(a))
                try:
                    pv = self.session.preview_move(move.key, [*clicks, click])
                except ValueError:
                    continue
                for _pid, kind, pose in pv.ghosts[:1]:
                    r = kinds[kind].size if kind in kinds else 0.01
                    sides.append(Side(pose[0], pose[1], r, click))
        self._sides_for = (key, tuple(sides))
        return self._sides_for[1]

    def over_view(self) -> OverView | None:
        win: Winner | None = self.session.winner() if self.phase is Phase.OVER else None
        if win is None:
            return None
        seats = {s.seat: s for s in self.session.seats()}
        colour = seats[win.seats[0]].colour if win.seats and win.seats[0] in seats else theme.ACCENT
        return OverView(win.title or ("A draw!" if not win.seats else "The game is over"),
                        win.reason, colour)

    @property
    def message(self) -> str:
        """The event line: the last thing that happened or was refused, in a player's words."""
        return self._message

    @message.setter
    def message(self, text: str) -> None:
        self._message = text

    # ----- aiming (open to a person in AIM and TARGETS) ------------------------------------------
    def say(self, text: str) -> None:
        """Put ``text`` on the event line (a save, a screenshot, a tuning change)."""
        self.message = text

    def set_aim(self, aim: Aim) -> bool:
        if not self.may_aim:
            return False
        self._aim = self._clamped(aim)
        return True

    def _clamped(self, aim: Aim) -> Aim:
        """``aim`` within the platform's range, and no steeper than the chosen piece can be turned
        and still get wholly onto the ring (a big disc less than the platform allows): a drag past
        it holds there instead of being refused."""
        aim = self.limits.clamp(aim)
        choice = self.choice
        if choice is None:
            return aim
        try:
            steep = self.session.world().steepest_heading(choice.kind)
        except ValueError:   # not a piece kind the world knows: the push will say so
            return aim
        return replace(aim, heading_deg=max(-steep, min(steep, aim.heading_deg)))

    def retune(self) -> None:
        """The materials changed (the tuning panel): the hand's limits with them."""
        self.limits = Limits.from_materials(self.session.materials)
        self._aim = self._clamped(self._aim)

    def pick_choice(self, key: str) -> bool:
        if self.phase not in AIMING or key not in [c.key for c in self.session.choices()]:
            return False
        self._choice_key = key
        self._aim = self._clamped(self._aim)
        return True

    def cycle_choice(self) -> bool:
        """The next piece in the aim bar (Tab)."""
        keys = [c.key for c in self.session.choices()]
        if not self.may_aim or not keys:
            return False
        i = keys.index(self._choice_key) if self._choice_key in keys else -1
        return self.pick_choice(keys[(i + 1) % len(keys)])

    def choose_nth(self, i: int) -> bool:
        """The ``i``-th piece in the aim bar (keys 1-9)."""
        choices = self.session.choices()
        return self.may_aim and 0 <= i < len(choices) and self.pick_choice(choices[i].key)

    # ----- a person's actions --------------------------------------------------------------------
    def push(self) -> bool:
        """Push with :attr:`aim` and the chosen piece (the release of a drag, Enter, Space)."""
        if self.phase is not Phase.AIM or not self.human_turn:
            return False
        choice = self.choice
        if choice is None:
            self.message = "choose a piece to push"
            return False
        push, reason = self.session.check(self.aim, choice)
        if push is None:
            self.message = reason
            return False
        before = PanelSnapshot(self.session)
        try:
            outcome = self.session.push(self.aim, choice)
        except ValueError as exc:
            self.message = self.session.refused(exc)
            return False
        self.pushes += 1
        self._play_or_wait(outcome, before)
        return True

    def pick_move(self, move: MoveView) -> bool:
        """A signature move's button: its preview waiting for Confirm (CONFIRM), or first the
        clicks that choose its targets (TARGETS). A move whose preview the rules refuse says why
        and is not picked."""
        if not move.enabled or not (self.may_aim or self.phase is Phase.CONFIRM):
            self.message = move.reason
            return False
        self._sides_for = None  # the ring may have changed since the move was last picked
        if not move.prompts:
            preview = self._preview_of(move, [])
            if preview is None:
                return False
            self._move, self._clicks, self._preview = move, [], preview
            self.message = ""
            self.phase = Phase.CONFIRM
            return True
        only = move.prompts[0]
        if len(move.prompts) == 1 and only.side and not self._sides(move, only, []):
            # Every side refused: say so now rather than refuse each side clicked.
            self.message = (f"{move.name}: no side has room now (each one is blocked by a piece "
                            "or would hang over the edge)")
            return False
        self._move, self._clicks, self._preview = move, [], None
        self.message = ""
        self.phase = Phase.TARGETS
        return True

    def _preview_of(self, move: MoveView, clicks: list[Click]) -> ShownPreview | None:
        """The move's preview with these clicks; None (and the reason said) if refused."""
        try:
            return self.session.preview_move(move.key, list(clicks))
        except ValueError as exc:
            self.message = self.session.refused(exc)
            return None

    def click(self, x: float, y: float, piece: str | None) -> bool:
        """A click on the ring at world point (x, y), on ``piece`` (None: no piece there), while a
        move waits for targets: taken if it is what the move's next prompt asks for. The last
        one shows the move's preview (CONFIRM); a click while it shows chooses the last target
        again. A target the rules refuse (the preview says why) is not taken."""
        move = self._move
        if move is None or self.phase not in CHOOSING:
            return False
        if self.phase is Phase.CONFIRM:
            if not move.prompts:
                self.message = "Confirm (Enter) or Cancel (Esc)"
                return False
            last = self._clicks.pop()
            self.phase = Phase.TARGETS
            if self._click(move, x, y, piece):
                return True
            self._clicks.append(last)
            self.phase = Phase.CONFIRM
            return False
        return self._click(move, x, y, piece)

    def _click(self, move: MoveView, x: float, y: float, piece: str | None) -> bool:
        prompt = move.prompts[len(self._clicks)]
        lit = self._sides(move, prompt, self._clicks)
        near = [s for s in lit if math.hypot(x - s.x, y - s.y) <= s.r * 1.2]
        if near:  # a click on a lit side chooses exactly that side
            x, y = min(near, key=lambda s: math.hypot(x - s.x, y - s.y)).click
        if prompt.kind == "point":
            if math.hypot(x, y) > self.session.materials.ring.radius:
                self.message = "click a point on the ring"
                return False
            self._clicks.append((x, y))
        else:
            if piece is None or (prompt.choices and piece not in prompt.choices):
                self.message = "not a target for this move: click one of the ringed pieces"
                return False
            self._clicks.append(piece)
        self.message = ""
        if len(self._clicks) >= len(move.prompts):
            preview = self._preview_of(move, self._clicks)
            if preview is None:  # refused: this click is not taken (the reason is said)
                self._clicks.pop()
                return False
            self._preview = preview
            self.phase = Phase.CONFIRM
        return True

    def confirm(self) -> bool:
        """Confirm (Enter) the move whose preview is on show: it is made."""
        if self.phase is not Phase.CONFIRM or self._move is None:
            return False
        return self._use_move(self._move, list(self._clicks))

    def cancel(self) -> bool:
        """Esc while a move waits for targets or for Confirm: nothing was changed."""
        if self.phase not in CHOOSING:
            return False
        self._move, self._clicks, self._preview = None, [], None
        self.message = ""
        self.phase = Phase.AIM
        return True

    def end_turn(self) -> bool:
        if not self.can_end_turn:
            return False
        try:
            self.session.end_turn()
        except ValueError as exc:
            self.message = self.session.refused(exc)
        else:
            self.message = ""
        self._next_turn()
        return True

    def undo(self) -> bool:
        """Back to before the last person's push or move (the AI's turns after it go too)."""
        if not self.can_undo:
            return False
        try:
            self.session.undo()
        except ValueError as exc:
            self.message = self.session.refused(exc)
            return False
        self._forget_ai()
        self.message = "undone"
        self._next_turn()
        return True

    def _use_move(self, move: MoveView, clicks: list[Click]) -> bool:
        before = PanelSnapshot(self.session)
        try:
            outcome = self.session.use_move(move.key, clicks)
        except ValueError as exc:  # the rules refused it: nothing happened to the game
            self._move, self._clicks, self._preview = None, [], None
            self.message = self.session.refused(exc)
            self.phase = Phase.AIM
            return True  # the move that waited for Confirm is dropped (a change)
        self._play_or_wait(outcome, before)
        return True

    def _play_or_wait(self, outcome: TableOutcome | None, before: PanelSnapshot) -> None:
        """Play what an action did; an action only sent (None: an online table) is played when
        its answer comes, as the other seats' steps are, and the table waits for it meanwhile."""
        if outcome is not None:
            self._play(outcome, before)
            return
        self.message = ""
        self._next_turn()  # it drops the move that was waiting, as after any action

    # ----- the screen's side ---------------------------------------------------------------------
    def landed(self) -> bool:
        """The screen has shown the outcome (every piece at rest, every flight arrived)."""
        if self.phase is not Phase.PLAYING:
            return False
        if self._outcome is not None:
            self.message = self._outcome.message
        self._outcome = self._unshown = None
        if (self._ai_steps is not None and self.session.winner() is None
                and self.session.current_seat() == self._ai_seat):  # a move may end the turn
            self._next_ai_step()
        else:
            self._next_turn()
        return True

    def play(self, outcome: TableOutcome, show_aim: float = 0.0,
             before: PanelSnapshot | None = None) -> bool:
        """Animate an outcome made elsewhere (the replay viewer's step forward); a push shows
        its aim for ``show_aim`` seconds first (SHOWING), as the AI's pushes do. ``before``: the
        panels as they were before it (the session has already moved on), shown until it lands."""
        if self.phase not in (Phase.AIM, Phase.OVER):
            return False
        before = before or PanelSnapshot(self.session)
        push = outcome.result.push if outcome.result is not None else None
        traj = outcome.result.trajectory if outcome.result is not None else None
        if show_aim > 0 and push is not None and traj is not None and push.piece in traj.ids \
                and len(traj.poses):
            x, y, angle, _ = (float(v) for v in traj.poses[0, traj.ids.index(push.piece)])
            aim = Aim.from_push(push)
            choice = PieceChoice(push.kind, push.kind, self.session.kind_label(push.kind), 1)
            self._showing = (outcome, AimPreview(aim, push.kind, (x, y, angle), True, False,
                                                 readout(aim, choice), ""))
            self._ai_wait = show_aim
            self._frozen = before
            self.phase = Phase.SHOWING
            return True
        self._play(outcome, before)
        return True

    def reset(self, message: str = "") -> None:
        """The session changed under the table (the replay viewer moved): drop whatever was going
        on and pick up from the session's turn."""
        self._forget_ai()
        self.message = message
        self._next_turn()

    # ----- AI seats ------------------------------------------------------------------------------
    # An AI turn: the plan is made (in the screen's thread), then carried out step by step -
    # signature moves played like a person's, each push after showing its aim for ai_delay
    # seconds - and the turn is ended.
    def ai_planned(self, token: int, steps: Sequence[AIStep] | None) -> bool:
        if self.phase is not Phase.AI_THINKING or token != self._token:
            return False  # an undo or a reset made this plan stale
        self._ai_seat = self.session.current_seat()
        self._ai_steps = list(steps or [])
        self._next_ai_step()
        return True

    def ai_failed(self, token: int, error: BaseException) -> bool:
        """The AI's planning raised: say so; its seat waits (an undo goes back past it)."""
        if self.phase is not Phase.AI_THINKING or token != self._token:
            return False
        # The error is the program's, not the game's: the log keeps it, the table says what to do.
        log.warning("the AI could not plan its turn: %r", error)
        self.message = "the AI could not plan its turn: Undo (U) goes back before it"
        self._stuck = True
        self.phase = Phase.AIM
        return True

    def tick(self, dt: float) -> bool:
        """Time passes (``dt`` seconds): an AI aim (or a replayed push's) on show for long enough
        is pushed (played). True when that happened."""
        if self.phase is Phase.SHOWING and self._showing is not None:
            self._ai_wait -= dt
            if self._ai_wait > 0:
                return False
            outcome, self._showing = self._showing[0], None
            self._play(outcome, self._frozen or PanelSnapshot(self.session))
            return True
        if self.phase is not Phase.AI_SHOWING:
            return False
        self._ai_wait -= dt
        if self._ai_wait > 0:
            return False
        assert self._ai_steps  # AI_SHOWING shows the first of them
        step = self._ai_steps.pop(0)
        self._ai_shown = None
        before = PanelSnapshot(self.session)
        try:
            outcome = self.session.ai_push(step)
        except ValueError as exc:
            self.message = "the AI's push was refused: " + self.session.refused(exc)
            self._ai_steps = []
            self._next_ai_step()
            return True
        self.pushes += 1
        self._play(outcome, before)
        return True

    def _next_ai_step(self) -> None:
        while True:
            if not self._ai_steps:
                self._ai_steps = None
                self.session.ai_finish(self._ai_seat)
                self._next_turn()
                return
            step = self._ai_steps[0]
            if step.kind == "push":
                self._ai_shown = (step.shown or step.aim or Aim(), step.choice)
                self._ai_wait = self.ai_delay
                self.phase = Phase.AI_SHOWING
                return
            self._ai_steps.pop(0)
            before = PanelSnapshot(self.session)
            try:
                outcome = self.session.ai_move(step)
            except ValueError as exc:
                self.message = "the AI's move was refused: " + self.session.refused(exc)
                self._ai_steps = []
                continue
            self._play(outcome, before)
            return

    def _forget_ai(self) -> None:
        self._token += 1  # a plan being made now is stale
        self._request = None
        self._ai_steps = None
        self._ai_shown = None
        self._stuck = False

    # ----- the phases' entries -------------------------------------------------------------------
    def _play(self, outcome: TableOutcome, before: PanelSnapshot) -> None:
        self._move, self._clicks, self._preview = None, [], None
        self._showing = None
        self._outcome = self._unshown = outcome
        self._frozen = before
        # What fell is said when the player has seen it fall (landed), not while it plays.
        self.message = outcome.message.split(": ", 1)[0] + ("..." if ": " in outcome.message else "")
        self.phase = Phase.PLAYING

    def _next_turn(self) -> None:
        """OVER, an AI seat's turn starting (AI_THINKING), or a person's (AIM)."""
        self._move, self._clicks, self._preview = None, [], None
        self._showing = None
        self._outcome = self._unshown = None
        self._ai_steps = None
        self._ai_shown = None
        if self.session.winner() is not None:
            self.phase = Phase.OVER
            return
        keys = [c.key for c in self.session.choices()]
        if self._choice_key not in keys:  # the medium disc if there is one: a steady push
            self._choice_key = "medium" if "medium" in keys else (keys[0] if keys else None)
        seat = self.session.current_seat()
        if seat is not None and self.session.seat_is_ai(seat):
            self._token += 1
            self._request = PlanRequest(self._token, seat)
            self.phase = Phase.AI_THINKING
        else:
            self.phase = Phase.AIM

    def problems(self) -> list[str]:
        """What is wrong with the state (never anything: the tests hold the flow to it)."""
        wrong = []
        winner = self.session.winner()
        seat = self.session.current_seat()
        ai_turn = seat is not None and self.session.seat_is_ai(seat)
        if (self.phase is Phase.OVER) != (winner is not None) and \
                self.phase not in (Phase.PLAYING, Phase.SHOWING):
            wrong.append(f"{self.phase} with winner {winner}")
        if (self.phase in CHOOSING) != (self._move is not None):
            wrong.append(f"{self.phase} with a move waiting: {self._move}")
        if (self.phase is Phase.TARGETS and self._move is not None
                and len(self._clicks) >= len(self._move.prompts)):
            wrong.append("a move waiting for clicks it has")
        if (self.phase is Phase.SHOWING) != (self._showing is not None):
            wrong.append(f"{self.phase} with a push to show {self._showing}")
        if (self.phase is Phase.CONFIRM) != (self._preview is not None):
            wrong.append(f"{self.phase} with a preview {self._preview}")
        if (self.phase is Phase.CONFIRM and self._move is not None
                and len(self._clicks) != len(self._move.prompts)):
            wrong.append("a move waiting for Confirm without all its targets")
        if (self.phase is Phase.PLAYING) != (self._outcome is not None):
            wrong.append(f"{self.phase} with outcome {self._outcome}")
        if self.phase in (Phase.AI_THINKING, Phase.AI_SHOWING) and not ai_turn:
            wrong.append(f"{self.phase} on a person's turn")
        if (self.phase is Phase.AI_SHOWING) != (self._ai_shown is not None):
            wrong.append(f"{self.phase} with an AI aim {self._ai_shown}")
        if self.phase is Phase.AIM and ai_turn and not self._stuck:
            wrong.append("an AI seat's turn waiting for nobody")
        if self.phase in AIMING and self._choice_key is not None and self.choice is None and \
                self.session.choices():
            wrong.append(f"the chosen piece {self._choice_key} cannot be pushed")
        return wrong

