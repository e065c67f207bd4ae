"""``kabuto serve``: the asyncio WebSocket server that holds the rooms and plays their games.

The server is authoritative: clients send actions, the server applies them with the same engines
as the desktop app (:mod:`kabuto.net.tables`), records every game in its data folder, and sends
each connection only what it may see. One asyncio event loop serves every connection; the slow
parts - a Kabuto push's simulation, a bot's thinking - run in worker processes (one per core,
:mod:`kabuto.ai.pool`), and the disk writes in threads, so one room never holds up the others and
every core works. Every change to a room happens under that room's lock, one at a time.

What keeps it running whatever the clients do:

* every message is checked by :func:`kabuto.net.protocol.parse_client` before anything acts on it;
  a refused one gets an ``error`` back and changes nothing;
* quotas (:mod:`kabuto.net.limits`): a connection's message rate, its refused messages, what may
  wait unread for it (past that it is dropped), and per address the connections, the rooms it
  holds seats in, and the wrong room codes and tokens it may try;
* a room exists only once the request that made it succeeded; a finished game's room leaves at
  once (its record is saved), and room files are pruned (:meth:`Server._prune_room_files`);
* a connection lost at any moment - in the middle of a push included - only detaches its seat: the
  action already received is played out and recorded, and the seat's token takes it back later;
* an unexpected exception in handling one message is logged with its traceback and answered with
  ``server-error``; the server goes on.

Lifecycle: :meth:`Server.start` restores the unfinished rooms of the data folder and listens;
:meth:`Server.stop` (Ctrl-C or SIGTERM in :func:`run`) stops listening, saves every room, and closes
the connections with 1001 (going away).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import signal
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kabuto.net import protocol as pr
from kabuto.net.bots import check_level, plan_actions, plan_in_worker, server_card_action
from kabuto.net.limits import AddressBook, Guard, Limits, quota_address
from kabuto.net.names import BadName, check_name
from kabuto.net.rooms import (
    CLOSED,
    OVER,
    PLAYING,
    WAITING,
    Client,
    Room,
    RoomSeat,
    load_room_file,
    new_code,
    new_secret,
    new_token,
    token_hash,
)
from kabuto.net.tables import (
    KABUTO,
    ActionError,
    Applied,
    CardTable,
    KabutoTable,
    Table,
    card_setups,
    game_names,
    kabuto_options,
    load_card_record,
    new_kabuto_game,
    player_counts,
    replays_folder,
    warm_worker,
)

log = logging.getLogger("kabuto.net")

#: How long one ``list`` reply's rooms may be sent again (seconds), and what a ``list`` counts as
#: against the sender's message rate.
LIST_FRESH = 0.5
LIST_COST = 5
#: Default bot level a ``fill`` without one uses.
DEFAULT_FILL = {KABUTO: "easy"}
DEFAULT_CARD_FILL = "heuristic"


@dataclass
class ServerConfig:
    """How a server runs. ``port`` 0 picks a free one (tests); ``linger`` is how long (seconds) a
    room everybody has left is kept before it is saved and closed; ``empty_linger`` the same for a
    room whose game never started (nothing to lose but a room code: it goes sooner)."""

    host: str = "127.0.0.1"
    port: int = 8765
    data_dir: Path | None = None
    linger: float = 300.0
    empty_linger: float = 30.0
    max_rooms: int = 500
    max_clients: int = 2000
    #: Worker processes for Kabuto Sumo's simulations (pushes, bots' planning); None: one per core
    #: (:mod:`kabuto.ai.pool`'s pool, shared with the AI); 0: threads of this process (one core).
    workers: int | None = None
    #: Room codes of this server start with these letters, and it restores only such rooms from
    #: its data folder: several servers share one folder (and one address, behind a router that
    #: sends each code to the server of its prefix; docs/protocol.md, "Several servers").
    code_prefix: str = ""
    #: Deal rooms' games from this seed (tests, to reproduce a game); None: an unpredictable seed
    #: per room (players must not be able to foresee the deal).
    seed: int | None = None
    #: What one connection and one address may cost (docs/protocol.md, "Quotas").
    limits: Limits = field(default_factory=Limits)
    #: Addresses of reverse proxies in front of the server (nginx, HAProxy): a connection from one
    #: of them counts against the address its ``X-Forwarded-For`` names (the last one, the
    #: address the proxy saw). Anyone else's ``X-Forwarded-For`` is ignored (it could be forged).
    trusted_proxies: tuple[str, ...] = ()


class Server:
    """The rooms, the connections, and the messages between them (see the module docstring)."""

    def __init__(self, config: ServerConfig):
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.clients: set[Client] = set()
        self.stopping = False
        self.port = config.port
        #: Called as ``listener(event, room)`` on "started", "over" and "closed" (the room left the
        #: server: everybody left, or its game is over) - tests wait on them.
        self.listeners: list[Callable[[str, Room], None]] = []
        self._server: Any = None
        self._seeds = random.Random(config.seed) if config.seed is not None else None
        self._replays: Path | None = None
        self._rooms_dir: Path | None = None
        self.addresses = AddressBook(config.limits)
        #: Room files of finished and closed games, oldest first (pruned past ``keep_room_files``).
        self._finished_files: deque[Path] = deque()
        #: ``list`` replies' rooms, by game filter, and until when each may be sent again.
        self._listing: dict[str | None, tuple[float, str]] = {}
        self._pool: ProcessPoolExecutor | None = None
        #: Threads that write (and fsync) the rooms' files: many, since a room's next message waits
        #: for its write, and the disk commits concurrent fsyncs together.
        self._disk = ThreadPoolExecutor(max_workers=32, thread_name_prefix="kabuto-save")

    # ----- lifecycle ---------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"ws://{self.config.host}:{self.port}"

    async def start(self) -> None:
        from websockets.asyncio.server import serve

        from kabuto.replay.userdata import data_dir, ensure_dir

        self._replays = replays_folder(self.config.data_dir)
        self._rooms_dir = ensure_dir(data_dir(self.config.data_dir) / "rooms")
        _private(self._rooms_dir.parent)
        self._restore_rooms()
        if self.config.workers != 0:
            from kabuto.ai.pool import executor

            self._pool = executor(self.config.workers)
            await self._warm_up()
        # max_queue: at most a few unread frames wait in the server for each connection; past
        # them the server stops reading the socket, and the sender's own buffers fill.
        self._server = await serve(self._handle, self.config.host, self.config.port,
                                   max_size=pr.HARD_LIMIT, max_queue=4,
                                   logger=logging.getLogger("kabuto.net.ws"))
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("kabuto server listening on %s (data folder %s, %d room(s) restored)", self.url,
                 self._replays.parent, len(self.rooms))

    async def stop(self) -> None:
        """Stop listening, save every room, close every connection (1001)."""
        if self.stopping:
            return
        self.stopping = True
        log.info("stopping: saving %d room(s)", len(self.rooms))
        if self._server is not None:
            self._server.close(close_connections=False)
        for room in list(self.rooms.values()):
            if room.bot_task is not None:
                room.bot_task.cancel()
            if room.linger is not None:
                room.linger.cancel()
            async with room.lock:  # an action in flight finishes first
                await self._save(room)

        async def close(c: Client) -> None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(c.ws.close(1001, "the server is shutting down"), 2.0)
            # A connection read no more (over its rate, or not reading) may not answer the close.
            c.ws.transport.abort()

        await asyncio.gather(*(close(c) for c in list(self.clients)))
        if self._server is not None:
            await self._server.wait_closed()
        self._disk.shutdown(wait=True)
        log.info("stopped")

    async def _warm_up(self) -> None:
        """Start every worker process now, with the rules and the physics imported: the first
        pushes would otherwise wait for that."""
        from kabuto.ai.pool import default_workers

        assert self._pool is not None
        loop = asyncio.get_running_loop()
        n = self.config.workers or default_workers()
        await asyncio.gather(*(loop.run_in_executor(self._pool, warm_worker) for _ in range(2 * n)))

    async def _disk_io(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._disk, fn, *args)

    def _emit(self, event: str, room: Room) -> None:
        for listener in list(self.listeners):
            listener(event, room)

    # ----- saving and restoring ----------------------------------------------------------------------
    async def _save(self, room: Room) -> None:
        """Save the room's record and room file (room lock held). Files are fsynced, which takes
        milliseconds: a worker thread does it while the event loop serves the other rooms."""
        assert self._rooms_dir is not None
        folder = self._rooms_dir

        def save() -> None:
            if room.table is not None:
                room.table.save()
            room.write(folder)

        try:
            await self._disk_io(save)
        except OSError as exc:
            log.error("room %s: cannot save (%s)", room.code, exc)

    def _restore_rooms(self) -> None:
        assert self._rooms_dir is not None and self._replays is not None
        for path in sorted(self._rooms_dir.glob(f"{self.config.code_prefix}*.json")):
            try:
                room = load_room_file(path)
                if room.status not in (WAITING, PLAYING):
                    continue
                if room.status == PLAYING:
                    room.table = self._restore_table(room)
                    if room.table.is_over:
                        room.status = OVER
            except Exception as exc:  # one bad room never keeps the server from starting
                log.error("room file %s: not restored (%s)", path.name, exc)
                continue
            self.rooms[room.code] = room
            step = room.table.step if room.table else 0
            log.info("restored room %s (%s, %s, step %d)", room.code, room.game, room.status, step)
        for room in self.rooms.values():
            self._check_linger(room)
        self._prune_room_files(start=True)

    def _prune_room_files(self, start: bool = False) -> None:
        """The pruning policy: a room whose game never started leaves no file once it closes
        (:meth:`_close_room`); of the rooms whose game ended or was closed, the newest
        ``keep_room_files`` files are kept (they name the game's record, which is never deleted)
        and older ones are deleted. At start the folder is read once; then each room that ends
        adds its file and pushes the oldest out."""
        assert self._rooms_dir is not None
        if start:
            done = []
            for path in self._rooms_dir.glob("*.json"):
                if path.stem in self.rooms:
                    continue
                try:
                    status = json.loads(path.read_bytes()).get("status")
                    when = path.stat().st_mtime
                except (OSError, ValueError, AttributeError):
                    continue  # not a room file we understand: left alone
                if status in (OVER, CLOSED):
                    done.append((when, path.name, path))
            self._finished_files = deque(p for _, _, p in sorted(done))
        keep = self.config.limits.keep_room_files
        while len(self._finished_files) > keep:
            path = self._finished_files.popleft()
            if path.stem not in self.rooms:  # a code used again by a live room keeps its file
                with contextlib.suppress(OSError):
                    path.unlink()

    def _retire(self, room: Room) -> None:
        """``room`` leaves the server (its file and record saved): its slot, and its address
        quotas, are free at once. Listeners hear "closed"."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self._listing.clear()
        self.addresses.release(room)
        if room.linger is not None:
            room.linger.cancel()
            room.linger = None
        if self._rooms_dir is not None:
            path = self._rooms_dir / f"{room.code}.json"
            if room.record is None:  # never started: nothing to keep
                with contextlib.suppress(OSError):
                    path.unlink()
            else:
                self._finished_files.append(path)
                self._prune_room_files()
        self._emit("closed", room)

    def _restore_table(self, room: Room) -> Table:
        assert self._replays is not None
        if room.record is None:
            raise ValueError("no record")
        path = self._replays / room.record
        if room.game == KABUTO:
            return KabutoTable.restore(path, self.config.data_dir or self._replays.parent,
                                       [s.name for s in room.seats])
        table = CardTable.restore(load_card_record(path), self._replays)
        table.seats = [s.name for s in room.seats]
        return table

    # ----- connections -------------------------------------------------------------------------------
    async def _handle(self, ws: Any) -> None:
        client = Client(ws, address=_address(ws))
        host = _host(ws, self.config.trusted_proxies)
        refusal = self._admit(host)
        if refusal is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.send(pr.dumps(pr.error("busy", refusal))), 5.0)
                await asyncio.wait_for(ws.close(1013, "server full"), 5.0)
            return
        client.guard = guard = Guard(host, self.config.limits)
        self.clients.add(client)
        try:
            await ws.send(pr.dumps({"type": "welcome", "server": "kabuto", "protocol": pr.VERSION,
                                    "games": game_names(), "max_message": pr.MAX_MESSAGE}))
            async for raw in ws:
                if guard.dropped or not _open(ws):
                    break  # what a closed connection had sent is not worked through
                wait = max(guard.rate.take(), self.addresses.pace(host))
                if wait > 0:  # over its rate: this connection is not read for a while
                    with contextlib.suppress(TimeoutError):  # ... unless it closes meanwhile
                        await asyncio.wait_for(ws.wait_closed(), wait)
                    if not _open(ws):
                        break
                await self._on_message(client, raw)
        except Exception as exc:  # a connection closed or broken mid-send: only this one ends
            if not _is_closed_error(exc):
                log.exception("connection %s: unexpected error", client.address)
        finally:
            self.clients.discard(client)
            self.addresses.disconnect(host)
            self._detach(client)

    def _admit(self, host: str) -> str | None:
        """Why a new connection from ``host`` is turned away (None: it is counted in)."""
        if self.stopping:
            return "the server is shutting down; try again later"
        if len(self.clients) >= self.config.max_clients:
            return "the server is full; try again later"
        return self.addresses.connect(host)

    async def _on_message(self, client: Client, raw: str | bytes) -> None:
        re_id: str | None = None
        try:
            msg = pr.parse_client(raw)
            re_id = msg.get("id")
            handler = getattr(self, "_on_" + msg["type"])
            await handler(client, msg)
        except (pr.ProtocolError, ActionError) as exc:
            await self._refuse(client, exc.code, str(exc), re_id or getattr(exc, "re", None),
                               getattr(exc, "rule", None), getattr(exc, "fields", None))
        except Exception:
            log.exception("connection %s: error handling a message", client.address)
            await self._refuse(client, "server-error", "the server could not do that (logged)", re_id)

    async def _refuse(self, client: Client, code: str, message: str, re_id: str | None,
                      rule: str | None = None, fields: dict[str, Any] | None = None) -> None:
        """Send the error; close a connection that used up its refusals (1008), or whose address
        named too many rooms or tokens that are not there (guessing)."""
        guard = client.guard
        assert guard is not None
        _send(client, pr.error(code, message, re_id, rule, fields))
        reason = None
        if code in ("no-room", "bad-token") and self.addresses.miss(guard.host):
            reason = "too many wrong room codes or tokens"
        elif guard.strike():
            reason = "too many bad messages"
        if reason is not None:
            log.warning("connection %s: %s, disconnected", client.address, reason)
            await client.ws.close(1008, reason)

    def _detach(self, client: Client) -> None:
        """``client`` is gone or left: its seat stays its token's, the room learns it."""
        room = client.room
        if room is None:
            return
        if client.seat is not None and room.seats[client.seat].client is client:
            room.seats[client.seat].client = None
        room.spectators.discard(client)
        client.room, client.seat = None, None
        if self.rooms.get(room.code) is room:
            self._tell_seats(room)
            self._check_linger(room)

    # ----- message handlers --------------------------------------------------------------------------
    async def _on_ping(self, client: Client, msg: dict[str, Any]) -> None:
        _send(client, _reply({"type": "pong"}, msg))

    async def _on_list(self, client: Client, msg: dict[str, Any]) -> None:
        """The public rooms. Each reply is made at most every :data:`LIST_FRESH` seconds per game
        filter (a lobby can wait that long), and a ``list`` counts as :data:`LIST_COST` messages
        against the sender's rate: the long answer costs what it weighs."""
        game = msg.get("game")
        now = time.monotonic()
        made = self._listing.get(game)
        if made is None or made[0] < now:
            rooms = [r.summary() for r in self.rooms.values()
                     if not r.private and r.status in (WAITING, PLAYING) and game in (None, r.game)]
            made = self._listing[game] = (now + LIST_FRESH, json.dumps(rooms, separators=(",", ":")))
        re = f',"re":{json.dumps(msg["id"])}' if "id" in msg else ""
        _broadcast([client], f'{{"v":{pr.VERSION},"type":"rooms"{re},"rooms":{made[1]}}}')
        assert client.guard is not None
        client.guard.rate.take(LIST_COST - 1)
        self.addresses.pace(client.guard.host, LIST_COST - 1)

    async def _on_create(self, client: Client, msg: dict[str, Any]) -> None:
        self._not_in_a_room(client)
        room = self._new_room(msg["game"], msg.get("players"), msg.get("options") or {},
                              bool(msg.get("private", False)))
        await self._claim(client, room, msg.get("seat"), msg.get("name"), msg)

    async def _on_join(self, client: Client, msg: dict[str, Any]) -> None:
        self._not_in_a_room(client)
        code = msg.get("room")
        if code is not None:
            room = self._room(code)
            if msg.get("game") not in (None, room.game):
                raise ActionError("bad-message", f"room {code} plays {room.game}, not {msg['game']}")
        else:
            game = msg.get("game")
            if game is None:
                raise pr.ProtocolError("bad-message", "join: give a room code, or a game to find a room of")
            players = msg.get("players")
            options = msg.get("options") or {}
            self._check_game(game, players)
            while True:  # the first open room; looked for again if it filled up while we waited
                open_rooms = [r for r in self.rooms.values()
                              if r.game == game and r.status == WAITING and not r.private
                              and (msg.get("seat") in r.free_seats() if "seat" in msg else r.free_seats())
                              and players in (None, r.players) and _same_options(r.options, options)
                              and not self._name_clash(r, msg.get("name"))]
                if not open_rooms:
                    break
                try:
                    await self._claim(client, open_rooms[0], msg.get("seat"), msg.get("name"), msg)
                    return
                except ActionError as exc:
                    if exc.code != "room-full":
                        raise
            room = self._new_room(game, players, options, False)
        await self._claim(client, room, msg.get("seat"), msg.get("name"), msg)

    async def _on_resume(self, client: Client, msg: dict[str, Any]) -> None:
        self._not_in_a_room(client)
        room = self._room(msg["room"])
        seat = room.seat_of(msg["token"])
        if seat is None:
            raise ActionError("bad-token", f"that token holds no seat of room {room.code}")
        async with room.lock:
            old = room.seats[seat].client
            if old is not None and old is not client:  # the same player on a new connection
                old.room, old.seat = None, None
                with contextlib.suppress(Exception):
                    await old.ws.close(4000, "the seat was taken back by a new connection")
            room.seats[seat].client = client
            client.room, client.seat = room, seat
            self._check_linger(room)
            _send(client, _reply({"type": "joined", **self._joined(room, seat)}, msg))
            self._tell_seats(room)
            if room.table is not None:
                self._send_state(room, [client], full=True)
        log.info("room %s: seat %d is back", room.code, seat)
        self._kick_bots(room)  # a room brought back by a restart may be waiting for a bot's turn

    async def _on_watch(self, client: Client, msg: dict[str, Any]) -> None:
        self._not_in_a_room(client)
        room = self._room(msg["room"])
        async with room.lock:
            room.spectators.add(client)
            client.room, client.seat = room, None
            self._check_linger(room)
            _send(client, _reply({"type": "watching", "room": room.code, **room.summary()}, msg))
            if room.table is not None:
                self._send_state(room, [client], full=True)

    async def _on_fill(self, client: Client, msg: dict[str, Any]) -> None:
        room, seat = self._seated(client)
        if room.status != WAITING:
            raise ActionError("bad-message", "the game has started: every seat is taken")
        level = msg.get("bot") or DEFAULT_FILL.get(room.game, DEFAULT_CARD_FILL)
        try:
            check_level(room.game, level, server=True)
        except ValueError as exc:
            raise ActionError("bad-message", f"bot: {exc}") from None
        async with room.lock:
            for s in room.free_seats():
                room.seats[s] = RoomSeat(name=f"Bot {s + 1}", bot=level)
            await self._seats_changed(room, client, _reply({"type": "filled", "room": room.code}, msg))

    async def _on_act(self, client: Client, msg: dict[str, Any]) -> None:
        room, seat = self._seated(client)
        async with room.lock:
            table = room.table
            if room.status != PLAYING or table is None:
                raise ActionError("not-your-turn", "the game has not started" if room.status == WAITING
                                  else "the game is over")
            if table.to_play != seat:
                raise ActionError("not-your-turn", "it is not your turn")
            if msg["step"] != table.step:
                raise ActionError("stale", f"that action was made at step {msg['step']}; the game "
                                           f"is at step {table.step}")
            await self._apply(room, seat, msg["action"])
        self._kick_bots(room)

    async def _on_leave(self, client: Client, msg: dict[str, Any]) -> None:
        room = client.room
        if room is None:
            raise ActionError("not-seated", "you are not in a room")
        async with room.lock:
            if client.seat is not None and room.status == WAITING:
                room.seats[client.seat] = RoomSeat()  # a seat of a game not started is given up
                assert client.guard is not None
                self.addresses.unhold(client.guard.host, room)
                if any(s.taken for s in room.seats):
                    await self._write(room)
            self._detach(client)
        _send(client, _reply({"type": "left", "room": room.code}, msg))

    # ----- rooms -------------------------------------------------------------------------------------
    def _not_in_a_room(self, client: Client) -> None:
        if client.room is not None:
            raise ActionError("bad-message", f"this connection is in room {client.room.code} already: "
                                             f"send leave first")

    def _room(self, code: str) -> Room:
        room = self.rooms.get(code)
        if room is None:
            raise ActionError("no-room", f"there is no room {code}")
        return room

    def _seated(self, client: Client) -> tuple[Room, int]:
        if client.room is None or client.seat is None:
            raise ActionError("not-seated", "join a room and take a seat first")
        return client.room, client.seat

    def _check_game(self, game: str, players: int | None) -> int:
        names = game_names()
        if game not in names:
            raise ActionError("bad-message", f"game: {game!r} is not one of {', '.join(names)}")
        counts = player_counts(game)
        n = counts[0] if players is None else players
        if n not in counts:
            raise ActionError("bad-message", f"players: {game} is for {' or '.join(map(str, counts))} "
                                             f"players, not {n}")
        return n

    def _new_room(self, game: str, players: int | None, options: dict[str, Any], private: bool) -> Room:
        """A room checked and made, not yet the server's: :meth:`_claim` adds it once its first
        seat is taken (a refused request leaves nothing behind)."""
        self._check_space()
        n = self._check_game(game, players)
        if game == KABUTO:
            opts = kabuto_options(options)
            self._check_kabuto(n, opts)
        else:
            opts = _card_options(game, n, options)
        secret = f"{self._seeds.getrandbits(256):064x}" if self._seeds is not None else new_secret()
        # Not in self.rooms yet: a room exists once a seat in it is taken (see _take_seat).
        return Room(new_code(self.rooms, self.config.code_prefix), game, n, opts, secret, private)

    def _check_space(self) -> None:
        """``busy`` unless a room can be added now, or a room nobody is in can make way for it
        (:meth:`_make_space`)."""
        if self.stopping or (len(self.rooms) >= self.config.max_rooms and self._vacant() is None):
            raise ActionError("busy", "the server has no room for another game now")

    def _vacant(self) -> Room | None:
        """The room nobody is in that has waited longest to be closed (None: none)."""
        vacant = [r for r in self.rooms.values() if r.linger is not None and not r.anyone_here()]
        return min(vacant, key=lambda r: r.linger.when() if r.linger else 0.0, default=None)

    async def _make_space(self) -> None:
        """A full server closes the rooms nobody is in, the longest-vacant first, rather than
        turn a new game away: they are saved as any closed room is."""
        while len(self.rooms) >= self.config.max_rooms and not self.stopping:
            room = self._vacant()
            if room is None:
                return
            log.info("room %s: closed early to make way for a new room", room.code)
            await self._close_room(room)
            if self.rooms.get(room.code) is room:  # somebody came back meanwhile
                return

    def _name_clash(self, room: Room, name: str | None) -> bool:
        try:
            self._seat_name(room, 0, name)
        except ActionError:
            return True
        return False

    @staticmethod
    def _seat_name(room: Room, seat: int, name: str | None) -> str:
        """The name ``seat`` will show (see :mod:`kabuto.net.names`): normalised, and nothing
        like another seat's name or a name the server gives."""
        if name is None:
            return f"Player {seat + 1}"
        try:
            return check_name(name, [s.name for i, s in enumerate(room.seats) if i != seat and s.taken])
        except BadName as exc:
            raise ActionError("bad-message", f"name: {exc}") from None

    @staticmethod
    def _check_kabuto(players: int, options: dict[str, Any]) -> None:
        from kabuto.rules.game import Game

        wrestlers = options["wrestlers"].split(",") if "wrestlers" in options else None
        try:
            Game.new(players=players, wrestlers=wrestlers, junior=options.get("junior", False))
        except ValueError as exc:
            raise ActionError("bad-message", f"options: {exc}") from None

    async def _claim(self, client: Client, room: Room, seat: int | None, name: str | None,
                     msg: dict[str, Any]) -> None:
        """Seat ``client`` in ``room`` - a new room (not yet the server's) becomes the server's
        only now, when nothing can refuse it any more."""
        async with room.lock:
            free = room.free_seats()
            if room.status != WAITING or not free:
                raise ActionError("room-full", f"every seat of room {room.code} is taken")
            if seat is not None and seat not in free:
                raise ActionError("room-full", f"seat {seat} of room {room.code} is "
                                               f"{'taken' if seat < room.players else 'not a seat'}")
            s = free[0] if seat is None else seat
            shown = self._seat_name(room, s, name)
            assert client.guard is not None
            host = client.guard.host
            refusal = self.addresses.seat_refusal(host, self.rooms.values(), WAITING, (WAITING, PLAYING))
            if refusal is not None:
                raise ActionError("busy", refusal)
            if room.code not in self.rooms:
                await self._make_space()
                self._check_space()
                self.rooms[room.code] = room
                self._listing.clear()
                log.info("room %s: new %d-player %s room%s", room.code, room.players, room.game,
                         " (private)" if room.private else "")
            self.addresses.hold(host, room)
            token = new_token()
            room.seats[s] = RoomSeat(name=shown, token=token_hash(token), client=client)
            client.room, client.seat = room, s
            self._check_linger(room)
            log.info("room %s: seat %d taken", room.code, s)
            await self._seats_changed(room, client, _reply(
                {"type": "joined", **self._joined(room, s), "token": token}, msg))

    def _joined(self, room: Room, seat: int) -> dict[str, Any]:
        return {"room": room.code, "seat": seat, "game": room.game, "players": room.players,
                "options": room.options, "status": room.status}

    async def _seats_changed(self, room: Room, client: Client, reply: dict[str, Any]) -> None:
        """Seats were taken (lock held): start the game once every seat is; save the room; only
        then answer ``client`` with ``reply`` and tell everyone (a room or a seat a client was told
        of survives a kill -9 at any instant)."""
        if room.status == WAITING and not room.free_seats():
            await self._start_game(room)
        else:
            await self._write(room)
        _send(client, reply)
        _crash_point(reply["type"])
        self._tell_seats(room)
        if room.status == PLAYING:
            self._send_state(room, room.clients(), full=True)
            self._kick_bots(room)

    async def _start_game(self, room: Room) -> None:
        assert self._replays is not None
        names = [s.name for s in room.seats]
        if room.game == KABUTO:  # set up in a worker, recorded in a thread: off the event loop
            seed = room.derive("kabuto setup", 48)
            game = None
            if self._pool is not None:
                with contextlib.suppress(BrokenProcessPool):
                    game = await asyncio.get_running_loop().run_in_executor(
                        self._pool, new_kabuto_game, room.players, room.options, seed)
            table: Table = await self._disk_io(KabutoTable.new, room.players, room.options, seed,
                                               self.config.data_dir or self._replays.parent, names, game)
        else:
            card = CardTable.new(room.game, room.players, room.options, room.derive("deal", 256),
                                 self._replays, room.code)
            card.seats = names
            table = card
        room.table = table
        room.record = table.record_name()
        room.status = PLAYING
        await self._save(room)
        log.info("room %s: the game starts (%s)", room.code, ", ".join(names))
        self._emit("started", room)

    async def _write(self, room: Room) -> None:
        assert self._rooms_dir is not None
        try:
            await self._disk_io(room.write, self._rooms_dir)
        except OSError as exc:
            log.error("room %s: cannot write its room file (%s)", room.code, exc)

    async def _apply(self, room: Room, seat: int, action: Any) -> Applied:
        """Apply one action (room lock held), save it, and only then tell everyone (a state any
        seat was told of survives a kill -9 at any instant); end the game if it ended."""
        table = room.table
        assert table is not None
        if isinstance(table, KabutoTable):  # a simulation: off the event loop, on another core
            outcome = await self._simulate(table, seat, action)
        else:
            outcome = table.apply(seat, action)
        if table.is_over:
            room.status = OVER
            await self._save(room)  # the record and the room file (now "over")
        else:
            await self._save_record(room, table)
        self._send_state(room, room.clients(), outcome=outcome)
        _crash_point("state")
        if room.status == OVER:
            result = table.result() or {}
            log.info("room %s: game over: %s", room.code, result.get("text", ""))
            self._emit("over", room)
            self._retire(room)
        return outcome

    async def _simulate(self, table: KabutoTable, seat: int, action: Any) -> Applied:
        if self._pool is not None:
            try:
                return await table.apply_in(self._pool, seat, action)
            except BrokenProcessPool:  # a worker died: this push here, new workers next time
                self._renew_pool()
        return await asyncio.to_thread(table.apply, seat, action)

    async def _plan(self, game: Any, level: str, seed: int) -> list[dict[str, Any]]:
        """A server bot's Kabuto turn, planned in a worker process (here, in a thread, if none)."""
        if self._pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(
                    self._pool, plan_in_worker, game, level, seed)
            except BrokenProcessPool:
                self._renew_pool()
        return await asyncio.to_thread(plan_actions, game, level, seed)

    def _renew_pool(self) -> None:
        from kabuto.ai.pool import discard, executor

        log.error("a worker process died; starting new ones")
        if self._pool is not None:
            discard(self._pool)
        self._pool = executor(self.config.workers)

    async def _save_record(self, room: Room, table: Table) -> None:
        """Write the game's record now (fsynced, atomic; in a worker thread, while the event loop
        serves the other rooms). Should the disk fail, the game goes on and the log says so."""
        try:
            await self._disk_io(table.save)
        except OSError as exc:
            log.error("room %s: cannot save its record (%s)", room.code, exc)

    # ----- bots --------------------------------------------------------------------------------------
    def _kick_bots(self, room: Room) -> None:
        t = room.table
        if (self.stopping or room.status != PLAYING or t is None or t.to_play is None
                or room.seats[t.to_play].bot is None):
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.create_task(self._bot_turns(room))

    async def _bot_turns(self, room: Room) -> None:
        failures = 0
        try:
            while not self.stopping and room.status == PLAYING and room.table is not None:
                table = room.table
                seat = table.to_play
                if seat is None or room.seats[seat].bot is None:
                    return
                level = room.seats[seat].bot
                assert level is not None
                step = table.step
                seed = room.derive(f"bot {step} {failures}")
                async with room.lock:
                    game = table.clone_game()
                actions: list[Any]
                if table.game == KABUTO:
                    actions = await self._plan(game, level, seed)
                elif level == "mcts":
                    actions = [await asyncio.to_thread(server_card_action, game, level, seed)]
                else:
                    actions = [server_card_action(game, level, seed)]
                async with room.lock:
                    for a in actions:
                        if (room.status != PLAYING or table.to_play != seat or self.stopping
                                or (a is actions[0] and table.step != step)):
                            break
                        try:
                            await self._apply(room, seat, a)
                        except ActionError as exc:
                            failures += 1
                            log.warning("room %s: the bot of seat %d was refused (%s)", room.code, seat, exc)
                            if failures >= 5:
                                log.error("room %s: the bot of seat %d gives up", room.code, seat)
                                return
                            break
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: bot error", room.code)

    # ----- keeping rooms a while ---------------------------------------------------------------------
    def _linger_for(self, room: Room) -> float:
        """How long a room nobody is in is kept: a game under way (or over) ``linger`` seconds, for
        its players to come back; a room whose game never started ``empty_linger`` (at most
        ``linger``), and none at all once no seat is held (everyone left it: no token can bring
        anybody back)."""
        if room.status != WAITING:
            return self.config.linger
        if not any(s.taken for s in room.seats):
            return 0.0
        return min(self.config.empty_linger, self.config.linger)

    def _check_linger(self, room: Room) -> None:
        """Nobody here: keep the room a while (:meth:`_linger_for`), then save and close it;
        somebody back: keep it."""
        if room.anyone_here() or self.stopping:
            if room.linger is not None:
                room.linger.cancel()
                room.linger = None
            return
        if room.linger is None:
            loop = asyncio.get_running_loop()
            room.linger = loop.call_later(self._linger_for(room),
                                          lambda: asyncio.ensure_future(self._close_room(room)))

    async def _close_room(self, room: Room) -> None:
        async with room.lock:
            if room.linger is not None:  # closed early (to make way): its timer is not needed
                room.linger.cancel()
            room.linger = None
            if room.anyone_here() or self.rooms.get(room.code) is not room or self.stopping:
                return
            if room.bot_task is not None:
                room.bot_task.cancel()
            if room.status in (WAITING, PLAYING):
                room.status = CLOSED
            if room.record is not None:  # a room whose game never started leaves no file
                await self._save(room)
            log.info("room %s: everybody left; saved and closed (%s)", room.code, room.status)
            self._retire(room)

    # ----- telling clients ---------------------------------------------------------------------------
    def _tell_seats(self, room: Room) -> None:
        _broadcast(room.clients(), pr.dumps({"type": "room", **room.summary()}))

    def _send_state(self, room: Room, clients: list[Client], outcome: Applied | None = None,
                    full: bool = False) -> None:
        """A ``state`` message to each of ``clients`` (room lock held). Kabuto Sumo: one text for
        all (nothing is hidden). Card games: each seat's own view, with only the events it has not
        been sent yet; spectators the public view."""
        table = room.table
        assert table is not None
        base: dict[str, Any] = {"type": "state", "room": room.code, "status": room.status,
                                "step": table.step, "to_play": table.to_play,
                                "seats": [s.public() for s in room.seats], "result": table.result()}
        if outcome is not None:
            last: dict[str, Any] = {"seat": outcome.seat, "action": outcome.action,
                                    "done_at": outcome.done_at}
            if outcome.detail:
                last.update(outcome.detail)
            base["last"] = last
        if isinstance(table, KabutoTable):
            _broadcast(clients, table.message_text(base))
            return
        public: dict[str, Any] | None = None
        for c in clients:
            if c.seat is None:
                public = public or table.view(None)
                view = dict(public)
            else:
                view = table.view(c.seat)
            events = view.pop("events", [])
            start = 0 if full else c.events_sent
            if start > len(events) or (start and events[start - 1] != c.last_event):
                start = 0  # the log is not the one this client was sent: send it whole
            view["events"] = events[start:]
            msg = {**base, "view": view, "events_from": start}
            if "last" in base and c.seat != base["last"]["seat"]:
                # A card action may be a secret choice (a face-down card): others learn what it
                # did from the events they may see, never from the action itself.
                msg["last"] = {k: v for k, v in base["last"].items() if k != "action"}
            if c.seat is not None and table.to_play == c.seat:
                msg["legal"] = table.legal(c.seat)
            c.events_sent = len(events)
            c.last_event = events[-1] if events else None
            _send(c, msg)


#: Tests of write-before-tell only: ``KABUTO_TEST_KILL_AFTER=EVENT[:N]`` kills the server (SIGKILL)
#: right after it has told a client of the N-th (default first) EVENT: ``joined``, ``filled`` or
#: ``state`` (a state after an action).
_KILL_AFTER = os.environ.get("KABUTO_TEST_KILL_AFTER", "")
_crash_counts: dict[str, int] = {}


def _crash_point(event: str) -> None:
    if not _KILL_AFTER:
        return
    wanted, _, nth = _KILL_AFTER.partition(":")
    if event != wanted:
        return
    _crash_counts[event] = _crash_counts.get(event, 0) + 1
    if _crash_counts[event] == int(nth or 1):
        # After the messages queued just now have gone out (a writer woken by them runs first).
        asyncio.get_running_loop().call_soon(os.kill, os.getpid(), signal.SIGKILL)


def _private(folder: Path) -> None:
    """Make the data folder its owner's alone: room files hold the rooms' secrets, card records the
    deals' seeds, and another account of the machine must not read a game's cards from them."""
    try:
        os.chmod(folder, 0o700)
    except OSError as exc:
        log.warning("data folder %s: cannot make it private (%s)", folder, exc)


def _reply(msg: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    if "id" in request:
        msg["re"] = request["id"]
    return msg


def _same_options(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same options, value and JSON type alike (1 is not true)."""
    return a.keys() == b.keys() and all(type(a[k]) is type(b[k]) and a[k] == b[k] for k in a)


def _card_options(game: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """A card room's options: exactly one of the card table's set-ups for ``game`` and
    ``players``, types included; a clear error naming the option otherwise."""
    offered = [o for g, p, o in card_setups() if g == game and p == players]
    for o in offered:
        if _same_options(o, options):
            return dict(o)
    for o in offered:
        for k, v in options.items():
            if k in o and o[k] == v and type(o[k]) is not type(v):
                want = "true or false" if isinstance(o[k], bool) else pr.type_name(o[k])
                raise ActionError("bad-message", f"options.{k}: expected {want}, got {pr.type_name(v)}")
    shown = " or ".join(json.dumps(o) for o in offered)
    raise ActionError("bad-message", f"options: {game} for {players} is played with {shown}")


def _send(client: Client, msg: dict[str, Any]) -> None:
    _broadcast([client], pr.dumps(msg))


def _broadcast(clients: list[Client], text: str) -> None:
    """Queue ``text`` on every open connection without waiting (a slow reader holds up nobody).
    A connection whose unread backlog would pass :attr:`Limits.send_queue` is dropped instead:
    its backlog is thrown away and nothing more is sent to it."""
    from websockets.asyncio.server import broadcast

    ready = []
    for c in clients:
        guard = c.guard
        if guard is not None:
            if guard.dropped or not _open(c.ws):
                continue
            transport = c.ws.transport
            queued = transport.get_write_buffer_size()
            if queued and queued + len(text) > guard.limits.send_queue:
                guard.dropped = True
                log.warning("connection %s: %d bytes unread, dropped", c.address, queued)
                transport.abort()  # the backlog goes with it
                continue
        ready.append(c.ws)
    broadcast(ready, text)


def _open(ws: Any) -> bool:
    from websockets.protocol import State

    return bool(ws.protocol.state is State.OPEN)


def _address(ws: Any) -> str:
    try:
        host, port = ws.remote_address[:2]
        return f"{host}:{port}"
    except (TypeError, ValueError, AttributeError):
        return "?"


def _host(ws: Any, trusted_proxies: tuple[str, ...] = ()) -> str:
    """The address quotas are counted by (:func:`~kabuto.net.limits.quota_address`): the peer's,
    or behind a trusted proxy the one its ``X-Forwarded-For`` ends with."""
    try:
        peer = str(ws.remote_address[0])
    except (TypeError, IndexError, AttributeError):
        return "?"
    if peer in trusted_proxies:
        forwarded = ws.request.headers.get("X-Forwarded-For", "") if ws.request is not None else ""
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return quota_address(last)
    return quota_address(peer)


def _is_closed_error(exc: BaseException) -> bool:
    from websockets.exceptions import ConnectionClosed

    return isinstance(exc, (ConnectionClosed, ConnectionError, asyncio.CancelledError))


async def run(config: ServerConfig, ready: Callable[[Server], None] | None = None) -> None:
    """Serve until Ctrl-C or SIGTERM, then stop cleanly (every room saved)."""
    server = Server(config)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready(server)
    started = time.monotonic()
    try:
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        await server.stop()
        log.info("served for %.0f s", time.monotonic() - started)


__all__ = ["Server", "ServerConfig", "run"]
