"""The client side of ``kabuto serve``: a connection, the room as the server last described it, and
the headless bot player behind ``kabuto join``.

Three layers, each usable alone:

* :class:`RoomState` folds the server's messages into what a front end draws: the room, your seat,
  the status, whose turn, the view (a card game's events joined up as they arrive in pieces), the
  legal actions, the last action (a Kabuto push's trajectory), the result. Pure: no I/O.
* :class:`Connection` is one asyncio WebSocket connection speaking the protocol:
  :meth:`~Connection.request` sends a message and waits for its reply; everything else comes out
  of :meth:`~Connection.recv` in order.
* :class:`ClientThread` runs a connection on a worker thread of its own, for a front end with an
  event loop of its own (a pyglet screen): :meth:`~ClientThread.send` from any thread, and
  :meth:`~ClientThread.poll` each frame for the messages that came in. The screen keeps a
  :class:`RoomState` and feeds it what ``poll`` returns.

:func:`play` is the bot client: it takes a seat (or takes its seat back with its token), plays with
one of :mod:`kabuto.net.bots`' levels until the game ends, and reconnects with its token if the
connection drops (a server restart included).
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import queue
import random
import threading
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kabuto.net import protocol as pr
from kabuto.net.bots import check_level, client_card_action, plan_actions
from kabuto.net.tables import KABUTO


class ClientError(Exception):
    """The game could not be played to its end: the one line says why."""


# ----- what the server said ---------------------------------------------------------------------------
@dataclass
class RoomState:
    """The room as the server last described it to this client (see the module docstring)."""

    room: str | None = None
    seat: int | None = None
    token: str | None = None
    game: str | None = None
    players: int = 0
    status: str | None = None
    step: int = -1
    to_play: int | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    view: dict[str, Any] | None = None
    legal: list[Any] = field(default_factory=list)
    last: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def my_turn(self) -> bool:
        return self.status == "playing" and self.seat is not None and self.to_play == self.seat

    def apply(self, msg: dict[str, Any]) -> None:
        """Take in one server message (those that are not about the room are ignored)."""
        kind = msg.get("type")
        if kind in ("joined", "watching"):
            self.room = msg.get("room")
            self.seat = msg.get("seat")
            self.token = msg.get("token", self.token)
            self.game = msg.get("game", self.game)
            self.players = msg.get("players", self.players)
            self.status = msg.get("status", self.status)
            if kind == "watching":
                self.seats = msg.get("seats", self.seats)
        elif kind == "room":
            self.status = msg.get("status", self.status)
            self.seats = msg.get("seats", self.seats)
            self.game = msg.get("game", self.game)
            self.players = msg.get("players", self.players)
        elif kind == "state":
            self.status = msg["status"]
            self.step = msg["step"]
            self.to_play = msg["to_play"]
            self.seats = msg.get("seats", self.seats)
            self.result = msg.get("result")
            self.last = msg.get("last")
            self.legal = list(msg.get("legal") or [])
            view = dict(msg["view"])
            if "events_from" in msg:
                self.events = self.events[: msg["events_from"]] + list(view.get("events", []))
                view["events"] = self.events
            self.view = view


# ----- one connection ---------------------------------------------------------------------------------
class Connection:
    """One WebSocket connection to a kabuto server (see the module docstring)."""

    def __init__(self, ws: Any, welcome: dict[str, Any]):
        self.ws = ws
        self.welcome = welcome
        self._ids = itertools.count(1)
        self._backlog: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, url: str, timeout: float = 10.0) -> Connection:
        from websockets.asyncio.client import connect

        try:
            ws = await asyncio.wait_for(connect(url, max_size=pr.MAX_SERVER_MESSAGE, open_timeout=timeout,
                                                proxy=None), timeout)
        except (TimeoutError, OSError) as exc:
            raise ClientError(f"cannot connect to {url} ({exc or 'timed out'})") from None
        except Exception as exc:  # an HTTP answer that is not a WebSocket, a bad URL, ...
            raise ClientError(f"cannot connect to {url} ({exc})") from None
        welcome = pr.parse_server(await asyncio.wait_for(ws.recv(), timeout))
        if welcome.get("type") != "welcome":
            await ws.close()
            raise ClientError(f"{url}: {welcome.get('message', 'the server did not welcome us')}")
        return cls(ws, welcome)

    async def send(self, msg: dict[str, Any]) -> str:
        """Send a message (``v`` is added); its ``id``, which the reply names as ``re``."""
        msg = dict(msg)
        msg.setdefault("id", str(next(self._ids)))
        await self.ws.send(pr.dumps(msg))
        return str(msg["id"])

    async def recv(self) -> dict[str, Any]:
        """The next server message (ConnectionClosed when the connection is gone)."""
        if self._backlog:
            return self._backlog.pop(0)
        return pr.parse_server(await self.ws.recv())

    async def request(self, msg: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        """Send ``msg`` and return its reply (an ``error`` reply raises ClientError); messages that
        arrive meanwhile wait for :meth:`recv`."""
        rid = await self.send(msg)
        async with asyncio.timeout(timeout):
            while True:
                reply = pr.parse_server(await self.ws.recv())
                if reply.get("re") == rid:
                    if reply["type"] == "error":
                        raise ClientError(reply["message"])
                    return reply
                self._backlog.append(reply)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()


# ----- a connection on a thread of its own ----------------------------------------------------------
class ClientThread:
    """A :class:`Connection` driven from another thread (a pyglet screen's): see the module docstring.

    ``poll()`` returns the messages received since the last call, and ``{"type": "closed", "reason":
    ...}`` once the connection is gone (also when it could not be opened)."""

    def __init__(self, url: str):
        self.url = url
        self._inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self._loop = asyncio.new_event_loop()
        self._conn: Connection | None = None
        self._closing: asyncio.Task[None] | None = None
        self._lock = threading.Lock()
        self._pending: list[dict[str, Any]] | None = []  # sent before the connection was open
        self._thread = threading.Thread(target=self._run, name="kabuto-net-client", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._main())
        self._loop.close()

    async def _main(self) -> None:
        try:
            conn = await Connection.open(self.url)
        except ClientError as exc:
            with self._lock:
                self._pending = None
            self._inbox.put({"type": "closed", "reason": str(exc)})
            return
        self._inbox.put(conn.welcome)
        with self._lock:  # messages sent meanwhile go first, in order
            for msg in self._pending or []:
                asyncio.ensure_future(_send_quietly(conn, msg))
            self._pending = None
            self._conn = conn
        reason = "the connection closed"
        try:
            while True:
                self._inbox.put(await self._conn.recv())
        except Exception as exc:
            reason = _closed_reason(exc)
        if self._closing is not None:  # we closed it: let the closing handshake finish
            await self._closing
            reason = "closed"
        self._inbox.put({"type": "closed", "reason": reason})

    def send(self, msg: dict[str, Any]) -> None:
        """Send a message from any thread, without waiting: before the connection is open it is
        kept and sent first thing; once the connection is gone it is dropped (``poll`` has said
        ``closed``)."""
        with self._lock:
            if self._conn is None:
                if self._pending is not None:
                    self._pending.append(msg)
                return
            conn = self._conn
        with contextlib.suppress(RuntimeError):  # the loop has ended: the connection is gone
            asyncio.run_coroutine_threadsafe(_send_quietly(conn, msg), self._loop)

    def wait(self, timeout: float) -> list[dict[str, Any]]:
        """Block (a worker thread, a test) until a message comes or ``timeout`` passes; then as
        :meth:`poll`."""
        try:
            first = [self._inbox.get(timeout=timeout)]
        except queue.Empty:
            return []
        return first + self.poll()

    def poll(self) -> list[dict[str, Any]]:
        """The messages received since the last call, without waiting (a frame's update)."""
        out = []
        while True:
            try:
                out.append(self._inbox.get_nowait())
            except queue.Empty:
                return out

    def close(self, timeout: float = 5.0) -> None:
        """Close the connection and wait (at most ``timeout``) for the thread to end."""
        conn = self._conn
        if conn is not None and self._thread.is_alive():
            def start() -> None:
                self._closing = self._loop.create_task(conn.close())

            with contextlib.suppress(RuntimeError):  # the loop has ended already
                self._loop.call_soon_threadsafe(start)
        self._thread.join(timeout)


async def _send_quietly(conn: Connection, msg: dict[str, Any]) -> None:
    """Send from a front end's thread: if the connection is gone, ``poll`` says so already."""
    from websockets.exceptions import ConnectionClosed

    with contextlib.suppress(ConnectionClosed):
        await conn.send(msg)


def _closed_reason(exc: BaseException) -> str:
    rcvd: Any = getattr(exc, "rcvd", None)
    reason = str(getattr(rcvd, "reason", "") or "")
    if reason:
        return f"the server closed the connection: {reason}"
    return "the connection was lost"


# ----- the bot player ---------------------------------------------------------------------------------
@dataclass
class PlayOptions:
    """What :func:`play` is asked to do (the ``kabuto join`` options)."""

    url: str
    game: str
    level: str
    room: str | None = None
    players: int | None = None
    name: str | None = None
    fill: str | None = None
    seat_file: Path | None = None
    options: dict[str, Any] = field(default_factory=dict)
    reconnects: int = 40


def _read_seat_file(path: Path | None, game: str) -> dict[str, Any] | None:
    if path is None or not path.exists():
        return None
    try:
        d = json.loads(path.read_text())
        if d.get("game") == game and isinstance(d.get("room"), str) and isinstance(d.get("token"), str):
            return d
    except (OSError, ValueError):
        pass
    raise ClientError(f"{path}: not a seat file of a {game} game (remove it to join a new game)")


def _write_seat_file(path: Path | None, state: RoomState) -> None:
    if path is None:
        return
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the token is the seat's key
    with os.fdopen(fd, "w") as fh:
        json.dump({"game": state.game, "room": state.room, "seat": state.seat, "token": state.token}, fh)


class _Player:
    """Decides and sends a bot's actions from the states it is sent."""

    def __init__(self, opts: PlayOptions, state: RoomState):
        self.opts = opts
        self.state = state
        self.plan: list[Any] = []
        self.plan_step = -1
        self.sent_step = -1
        self.refusals = 0

    def _seed(self) -> int:
        return (zlib.crc32((self.state.room or "").encode()) + 7919 * self.state.step
                + 104729 * self.refusals) % 2**31

    async def _decide(self) -> list[Any]:
        st = self.state
        assert st.view is not None and st.seat is not None
        if st.game == KABUTO:
            from kabuto.rules.game import Game

            game = Game.from_json(st.view)
            level = self.opts.level if self.refusals < 3 else "random"
            return await asyncio.to_thread(plan_actions, game, level, self._seed())
        assert st.game is not None
        rng = random.Random(self._seed())
        level = self.opts.level if self.refusals < 3 else "random"
        return [client_card_action(st.game, level, st.seat, st.view, st.legal, rng)]

    async def maybe_act(self, conn: Connection) -> None:
        st = self.state
        if not st.my_turn or self.sent_step == st.step:
            return
        if not self.plan or self.plan_step != st.step:
            self.plan = await self._decide()
            self.plan_step = st.step
        action = self.plan.pop(0)
        self.plan_step += 1
        self.sent_step = st.step
        await conn.send({"type": "act", "step": st.step, "action": action})

    def refused(self, msg: dict[str, Any]) -> None:
        """An error reply: a stale or out-of-turn action waits for the next state; an illegal one
        is planned again (with another seed, then at the random level)."""
        self.plan = []
        self.sent_step = -1
        if msg.get("code") == "illegal":
            self.refusals += 1
            if self.refusals > 10:
                raise ClientError(f"the server refused our actions: {msg.get('message')}")


async def play(opts: PlayOptions) -> dict[str, Any]:
    """Play one game as a bot until it ends; the result (see ``kabuto join --help``). Raises
    ClientError with one line on any failure."""
    check_level(opts.game, opts.level, server=False)
    saved = _read_seat_file(opts.seat_file, opts.game)
    state = RoomState()
    if saved is not None:
        state.room, state.token, state.game = saved["room"], saved["token"], saved["game"]
    player = _Player(opts, state)
    drops = 0
    conn = await Connection.open(room_url(opts.url, state.room or opts.room))
    while True:
        try:
            if state.token is None:
                await _take_seat(conn, opts, state)
            else:
                state.apply(await conn.request({"type": "resume", "room": state.room, "token": state.token}))
            # An action sent just before the connection dropped may never have arrived (or the
            # server restarted from before it): decide afresh from the state the server sends.
            player.plan, player.sent_step = [], -1
            drops = 0
            return await _play_on(conn, player)
        except Exception as exc:
            await conn.close()
            if isinstance(exc, ClientError) or not _lost(exc) or state.token is None:
                raise
            drops += 1
            if drops > 3:
                raise ClientError("the connection to the server keeps dropping") from None
        finally:
            await conn.close()
        # Take the seat back with its token once the server is there again (after a restart too).
        conn = await _reconnect(opts, state.room)


def _lost(exc: BaseException) -> bool:
    from websockets.exceptions import ConnectionClosed

    return isinstance(exc, (ConnectionClosed, ConnectionError, ClientError))


def room_url(url: str, room: str | None) -> str:
    """The address to reach room ``room`` at: ``ws://HOST:PORT/room/CODE`` when ``url`` names no
    path of its own. One server ignores the path; behind a router that shares rooms among several
    servers, it is what sends the connection to the server holding the room (docs/protocol.md,
    "Several servers")."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if room is None or parts.path not in ("", "/"):
        return url
    return urlunsplit(parts._replace(path=f"/room/{room}"))


async def _reconnect(opts: PlayOptions, room: str | None = None) -> Connection:
    delay = 0.05
    for _ in range(opts.reconnects):
        try:
            return await Connection.open(room_url(opts.url, room), timeout=5.0)
        except ClientError:
            await asyncio.sleep(delay)  # back off while the server is away
            delay = min(delay * 2, 1.0)
    raise ClientError(f"lost the connection to {opts.url} and could not get it back")


async def _take_seat(conn: Connection, opts: PlayOptions, state: RoomState) -> None:
    msg: dict[str, Any] = {"type": "join", "game": opts.game}
    if opts.room:
        msg["room"] = opts.room
    if opts.players:
        msg["players"] = opts.players
    if opts.name:
        msg["name"] = opts.name
    if opts.options:
        msg["options"] = opts.options
    state.apply(await conn.request(msg))
    _write_seat_file(opts.seat_file, state)
    if opts.fill:
        await conn.request({"type": "fill", "bot": opts.fill})


async def _play_on(conn: Connection, player: _Player) -> dict[str, Any]:
    state = player.state
    while True:
        msg = await conn.recv()
        kind = msg["type"]
        if kind == "error":
            player.refused(msg)
        else:
            state.apply(msg)
        if state.status == "over" and state.result is not None:
            return _result(state)
        if state.status == "closed":
            raise ClientError(f"room {state.room} was closed before the game ended")
        await player.maybe_act(conn)


def _result(state: RoomState) -> dict[str, Any]:
    res = state.result or {}
    winners = list(res.get("winners", []))
    return {"game": state.game, "room": state.room, "seat": state.seat, "players": state.players,
            "steps": state.step, "winners": winners, "won": state.seat in winners,
            "result": res.get("text", "")}


__all__ = ["ClientError", "ClientThread", "Connection", "PlayOptions", "RoomState", "play", "room_url"]
