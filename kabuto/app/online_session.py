"""A Kabuto Sumo game on a server, behind the table's :class:`~kabuto.app.session.Session` API.

The server is authoritative: it holds the game and sends every seat each at-rest state
(``Game.to_json()``) and each push's trajectory. :class:`OnlineSession` keeps a copy of the last
state it *showed* as a :class:`kabuto.Game` (so the panels, the aim checks and every sentence come
from the rules, as at a hot-seat table) and never changes it itself: a push, a move or an end of
turn made here is only *sent* (:meth:`OnlineSession.push` returns an outcome with nothing to play),
and the game changes when the server's answer is played.

The table drives it like an AI seat (:mod:`kabuto.app.table_flow`): every seat but this player's -
and this player's own while an action of theirs is on its way - "plays by itself". The online table
scene hands the flow, for each state the server sent, one step: another seat's push shows its aim
first, then plays its trajectory at the table's pace; everything else plays at once. Playing the
step adopts the server's state (:meth:`ai_push`, :meth:`ai_move`). A spectator (no seat) only ever
watches. Nothing here does I/O: ``send`` is given, and the scene feeds :meth:`receive`.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from kabuto.app.aim import Aim
from kabuto.app.game_session import GameSession
from kabuto.app.session import AIStep, PieceChoice, SeatView, TableOutcome
from kabuto.net.protocol import wire_action
from kabuto.net.tables import trajectory_from_json
from kabuto.rules import actions
from kabuto.rules.game import Game
from kabuto.rules.outcomes import Knockout
from kabuto_base.errors import IllegalMove
from physics import Fall, Materials, Push, PushResult


class OnlineSession(GameSession):
    """The game of room ``room`` as seat ``seat`` (None: a spectator) sees it; ``view`` is the
    server's state, ``step`` its step, ``seats`` the room's seats (module docstring)."""

    def __init__(self, view: dict[str, Any], step: int, seat: int | None, room: str,
                 seats: list[dict[str, Any]], send: Callable[[dict[str, Any]], Any]):
        game = Game.from_json(view)
        super().__init__(game, ("human",) * game.players, record=False)
        self.me = seat
        self.room = room
        self.step = step
        self.room_seats = list(seats)
        self._send = send
        self.title = ("Junior League" if game.junior else "Online") + f": room {room}"
        self.pending: int | None = None           # the step an action of ours was sent at
        self._queue: deque[dict[str, Any]] = deque()  # states received, not handed to the flow yet
        self._handed: deque[dict[str, Any]] = deque()  # handed as a step, not played yet
        self._latest: dict[str, Any] | None = None    # the newest state received
        self.resync = False         # a state came that does not follow the one shown: jump to it
        self.refusal = ""           # the server refused our action: why (the table says it)
        self.connection = ""        # what is wrong with the connection, if anything
        self._said = ""

    # ----- what the server says ----------------------------------------------------------------------
    def receive(self, msg: dict[str, Any]) -> None:
        """Take in one server message (the scene passes every one it polls)."""
        kind = msg.get("type")
        if kind == "room":
            self.room_seats = list(msg.get("seats", self.room_seats))
        elif kind == "error" and str(msg.get("re", "")).startswith("act-"):
            self.pending = None
            self.refusal = self._refusal_words(msg)
        elif kind == "state":
            known = self._latest["step"] if self._latest is not None else self.step
            self.room_seats = list(msg.get("seats", self.room_seats))
            if "last" in msg and msg["step"] > known:
                self._queue.append(msg)
            elif "last" not in msg and msg["step"] != known:
                self.resync = True  # a full state after a reconnection: what we missed is in it
            else:
                return
            self._latest = msg

    def _refusal_words(self, msg: dict[str, Any]) -> str:
        """The server's refusal of our action in the table's words: from the rules' code and
        fields when it sends them (as a local game says it), else its one line."""
        text = str(msg.get("message", "the server refused that"))
        fields = msg.get("fields")
        if isinstance(msg.get("rule"), str) and isinstance(fields, dict):
            exc = IllegalMove(text, msg["rule"])
            exc.fields = {str(k): v for k, v in fields.items()}
            return self.refused(exc)
        return text

    def has_next(self) -> bool:
        """A state is waiting to be played (the flow's "AI plan" for the seat to play is ready)."""
        return bool(self._queue) and not self.resync

    def next_steps(self) -> list[AIStep]:
        """The next state as the flow's step: another seat's push shows its aim first; the rest
        (our own push, moves, ends of turns) play at once."""
        msg = self._queue.popleft()
        self._handed.append(msg)
        last = msg["last"]
        action = last.get("action") or {}
        if action.get("type") == "push" and last.get("seat") != self.me:
            aim = Aim(float(action["entry_deg"]), float(action.get("heading_deg", 0.0)),
                      float(action.get("speed", 0.3)), float(action.get("spin_deg", 0.0)))
            kind = self._pushed_kind(msg)
            return [AIStep("push", aim=aim, shown=aim, choice=PieceChoice(kind, kind, self._short_name(kind), 1))]
        return [AIStep("move", str(action.get("name", action.get("type", ""))))]

    def jump(self) -> str:
        """Show the newest state at once (after a reconnection); what to tell the player."""
        msg = self._latest
        self._queue.clear()
        self._handed.clear()
        self.resync = False
        if msg is None:
            return ""
        self._take(msg)
        self.pending = None
        return "back in the game"

    def _take(self, msg: dict[str, Any]) -> Game:
        """Adopt a state; the game shown before it."""
        before = self.game
        self.game = Game.from_json(msg["view"])
        self.step = msg["step"]
        last = msg.get("last")
        if last is not None and last.get("seat") == self.me:
            self.pending = None
        return before

    def _pushed_kind(self, msg: dict[str, Any]) -> str:
        entry = self._entry(msg)
        return str(entry.get("kind") or msg["last"]["action"].get("piece", ""))

    def _entry(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The history entry of the state's action (the first the shown game does not have)."""
        history = msg["view"].get("history", [])
        n = len(self.game.history)
        return history[n] if n < len(history) and isinstance(history[n], dict) else {}

    # ----- playing the server's states ----------------------------------------------------------------
    def _play_next(self) -> TableOutcome:
        msg = self._handed.popleft()
        last = msg["last"]
        action = last.get("action") or {}
        seat = int(last.get("seat", 0))
        name = self.seat_name(seat)
        kind = action.get("type")
        if kind == "push":
            entry = self._entry(msg)
            before = self._take(msg).world
            pkind = str(entry.get("kind", action.get("piece", "")))
            pid = str(entry.get("piece", ""))
            traj = trajectory_from_json(last["trajectory"], before)
            fell = [Fall(p, self._kind(before, p, pid, pkind), self._gone_at(traj, p)) for p in last.get("fell", [])]
            push = Push(pid, pkind, float(action["entry_deg"]), float(action.get("heading_deg", 0.0)),
                        float(action.get("speed", 0.3)), float(action.get("spin_deg", 0.0)))
            result = PushResult(push, fell, {}, 0, traj.duration, None, False, False, traj)
            kos = [Knockout(k["piece"], self._kind(before, k["piece"], pid, pkind), k["to"])
                   for k in last.get("knocked_out", [])]
            self._said = f"{name} pushed a {self._short_name(pkind)}: {self._ko_text(kos)}"
            outcome = TableOutcome(result, self.destinations(kos), self._said)
        elif kind == "move":
            before = self._take(msg).world
            gone = [p for p in before.pieces if p.id not in self.game.world]
            kos = [Knockout(p.id, p.kind, self.game.locations().get(p.id, "supply")) for p in gone]
            summary = last.get("summary")
            self._said = f"{name} used {action.get('name', 'a move')}" + (f": {summary}" if summary else "")
            outcome = TableOutcome(None, self.destinations(kos), self._said,
                              tuple((p.id, p.kind, p.x, p.y) for p in gone))
        else:  # the end of a turn: the last thing that happened stays on the event line
            self._take(msg)
            outcome = TableOutcome(None, {}, self._said)
        self._end_turn_if_done()
        return outcome

    @staticmethod
    def _kind(world: Any, pid: str, pushed: str, pushed_kind: str) -> str:
        if pid == pushed:
            return pushed_kind
        return world.piece(pid).kind if pid in world else pushed_kind

    @staticmethod
    def _gone_at(traj: Any, pid: str) -> float:
        import numpy as np

        if pid not in traj.ids:
            return 0.0
        gone = np.flatnonzero(np.isnan(traj.poses[:, traj.ids.index(pid), 0]))
        return float(gone[0]) / traj.rate if len(gone) else traj.duration

    def _end_turn_if_done(self) -> None:
        """As at the hot-seat table: our turn ends by itself when nothing is left to do in it."""
        g = self.game
        if (self.me is None or g.is_over or g.current_seat != self.me or self.pending is not None
                or not g.can_end_turn or g.can_push or any(m.usable for m in g.available_moves(self.me))):
            return
        self._act(wire_action(actions.EndTurn()))

    def _act(self, action: dict[str, Any]) -> None:
        self.pending = self.step
        self.refusal = ""
        self._send({"type": "act", "id": f"act-{self.step}", "step": self.step, "action": action})

    # ----- the Session API ------------------------------------------------------------------------------
    def _mine(self) -> bool:
        g = self.game
        return (self.me is not None and not g.is_over and g.current_seat == self.me
                and self.pending is None and not self._queue and not self._handed and not self.resync)

    def seat_is_ai(self, seat: int | None) -> bool:
        """Every seat but ours plays by itself here; ours too while our action is on its way."""
        return seat is not None and not (seat == self.me and self._mine())

    def seats(self) -> list[SeatView]:
        out = []
        for sv in super().seats():
            info = self.room_seats[sv.seat] if sv.seat < len(self.room_seats) else {}
            name = sv.name
            # Who sits there, in place of the team's name if need be (the panel's line is short;
            # a 4-player seat's team shows in its inventory line too).
            colour = self.seat_name(sv.seat)
            who = str(info.get("name") or "").strip()  # the name the player gave (--name)
            if sv.seat == self.me:
                name = f"{colour} (you)"
            elif info.get("taken") and not info.get("bot") and not info.get("connected"):
                name = f"{colour} ({who + ', ' if who else ''}away)"
            elif who and not info.get("bot"):
                name = f"{colour} ({who})"
            out.append(SeatView(sv.seat, name, sv.colour, bool(info.get("bot")), sv.wrestler,
                                sv.inventory, sv.eliminated, sv.note, sv.shares))
        return out

    def waiting_words(self, name: str) -> tuple[str, str]:
        seat = self.current_seat()
        if seat is not None and seat == self.me:
            return "waiting for the server...", "your move is on its way to the server"
        info = self.room_seats[seat] if seat is not None and seat < len(self.room_seats) else {}
        who = "the server's bot" if info.get("bot") else "the player"
        return f"{name} is playing...", f"{name} ({who}) is choosing - watch the ring"

    def status(self) -> str:
        if self.connection:
            return self.connection
        text = super().status()
        if self.me is None:
            return "Watching: " + text
        return text

    #: Why the tuning panel is read-only here (TableScene shows it).
    materials_fixed = "this room's materials are fixed by the server, the same for every player"

    def set_materials(self, materials: Materials) -> None:
        raise ValueError(self.materials_fixed)

    def push(self, aim: Aim, choice: PieceChoice) -> TableOutcome | None:
        push, reason = self.check(aim, choice)
        if push is None or not self._mine():
            raise ValueError(reason or "it is not your turn")
        self._act(wire_action(actions.Push(choice.kind, aim.entry_deg, aim.heading_deg, aim.speed,
                                           aim.spin_deg)))
        return None  # only sent: the server's state that answers it is played as the next step

    def use_move(self, key: str, clicks: list) -> TableOutcome | None:
        if not self._mine():
            raise ValueError("it is not your turn")
        targets = self.move_targets(key, clicks)
        self._act(wire_action(actions.Move(key, targets)))
        return None  # only sent: the server's state that answers it is played as the next step

    def can_end_turn(self) -> bool:
        return self._mine() and self.game.can_end_turn

    def end_turn(self) -> None:
        if self.can_end_turn():
            self._act(wire_action(actions.EndTurn()))

    def moves(self):
        return super().moves() if self._mine() else []

    def can_undo(self) -> bool:
        return False

    def undo(self) -> None:
        raise ValueError("an online game has no undo")

    def save_now(self) -> None:
        return None  # the server records the game

    def ai_plan(self, seat: int) -> list[AIStep] | None:
        raise ValueError("the online table takes the server's states, not plans")  # see the scene

    def ai_move(self, step: AIStep) -> TableOutcome:
        return self._play_next()

    def ai_push(self, step: AIStep) -> TableOutcome:
        return self._play_next()

    def ai_finish(self, seat: int | None) -> None:
        pass  # the server ends the turns


__all__ = ["OnlineSession"]
