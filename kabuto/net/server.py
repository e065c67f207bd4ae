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
* :data:`~kabuto.net.protocol.MAX_STRIKES` refused messages in a row close the connection (1008);
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
import logging
import os
import random
import signal
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kabuto.net import protocol as pr
from kabuto.net.bots import check_level, plan_actions, plan_in_worker, server_card_action
from kabuto.net.rooms import (
    CLOSED,
    OVER,
    PLAYING,
    WAITING,
    Client,
    Room,
    Seat,
    load_room_file,
    new_code,
    new_secret,
    new_token,
    token_hash,
)
from kabuto.net.tables import (
    KABUTO,
    ActionError,
    CardTable,
    KabutoTable,
    Outcome,
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


class Server:
    """The rooms, the connections, and the messages between them (see the module docstring)."""

    def __init__(self, config: ServerConfig):
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.clients: set[Client] = set()
        self.stopping = False
        self.port = config.port
        #: Called as ``listener(event, room)`` on "started", "over" and "closed" (tests wait on them).
        self.listeners: list[Callable[[str, Room], None]] = []
        self._server: Any = None
        self._seeds = random.Random(config.seed) if config.seed is not None else None
        self._replays: Path | None = None
        self._rooms_dir: Path | None = None
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
        self._server = await serve(self._handle, self.config.host, self.config.port,
                                   max_size=pr.HARD_LIMIT, logger=logging.getLogger("kabuto.net.ws"))
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
        if len(self.clients) >= self.config.max_clients or self.stopping:
            await ws.send(pr.dumps(pr.error("busy", "the server is full; try again later")))
            await ws.close(1013, "server full")
            return
        self.clients.add(client)
        try:
            await ws.send(pr.dumps({"type": "welcome", "server": "kabuto", "protocol": pr.VERSION,
                                    "games": game_names(), "max_message": pr.MAX_MESSAGE}))
            async for raw in ws:
                await self._on_message(client, raw)
        except Exception as exc:  # a connection closed or broken mid-send: only this one ends
            if not _is_closed_error(exc):
                log.exception("connection %s: unexpected error", client.address)
        finally:
            self.clients.discard(client)
            self._detach(client)

    async def _on_message(self, client: Client, raw: str | bytes) -> None:
        re_id: str | None = None
        try:
            msg = pr.parse_client(raw)
            re_id = msg.get("id")
            handler = getattr(self, "_on_" + msg["type"])
            await handler(client, msg)
            client.strikes = 0
        except (pr.ProtocolError, ActionError) as exc:
            await self._refuse(client, exc.code, str(exc), re_id)
        except Exception:
            log.exception("connection %s: error handling a message", client.address)
            await self._refuse(client, "server-error", "the server could not do that (logged)", re_id)

    async def _refuse(self, client: Client, code: str, message: str, re_id: str | None) -> None:
        client.strikes += 1
        _send(client, pr.error(code, message, re_id))
        if client.strikes >= pr.MAX_STRIKES:
            log.warning("connection %s: %d bad messages in a row, disconnected", client.address,
                        client.strikes)
            await client.ws.close(1008, "too many bad messages")

    def _detach(self, client: Client) -> None:
        """``client`` is gone or left: its seat stays its token's, the room learns it."""
        room = client.room
        if room is None:
            return
        if client.seat is not None and room.seats[client.seat].client is client:
            room.seats[client.seat].client = None
        room.spectators.discard(client)
        client.room, client.seat = None, None
        if room.code in self.rooms:
            self._tell_seats(room)
            self._check_linger(room)

    # ----- message handlers --------------------------------------------------------------------------
    async def _on_ping(self, client: Client, msg: dict[str, Any]) -> None:
        _send(client, _reply({"type": "pong"}, msg))

    async def _on_list(self, client: Client, msg: dict[str, Any]) -> None:
        rooms = [r.summary() for r in self.rooms.values()
                 if not r.private and r.status in (WAITING, PLAYING)
                 and msg.get("game") in (None, r.game)]
        _send(client, _reply({"type": "rooms", "rooms": rooms}, msg))

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
                              and players in (None, r.players) and r.options == options]
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
                room.seats[s] = Seat(name=f"Bot {s + 1}", bot=level)
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
                room.seats[client.seat] = Seat()  # a seat of a game not started is given up
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
        if self.stopping or len(self.rooms) >= self.config.max_rooms:
            raise ActionError("busy", "the server has no room for another game now")
        n = self._check_game(game, players)
        if game == KABUTO:
            opts = kabuto_options(options)
            self._check_kabuto(n, opts)
        else:
            opts = dict(options)
            if (game, n, opts) not in card_setups():
                offered = [o for g, p, o in card_setups() if g == game and p == n]
                raise ActionError("bad-message", f"options: {game} for {n} is played with "
                                                 f"{' or '.join(map(str, offered))}")
        secret = f"{self._seeds.getrandbits(256):064x}" if self._seeds is not None else new_secret()
        room = Room(new_code(self.rooms, self.config.code_prefix), game, n, opts, secret, private)
        self.rooms[room.code] = room
        log.info("room %s: new %d-player %s room%s", room.code, n, game, " (private)" if private else "")
        return room

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
        async with room.lock:
            free = room.free_seats()
            if room.status != WAITING or not free:
                raise ActionError("room-full", f"every seat of room {room.code} is taken")
            if seat is not None and seat not in free:
                raise ActionError("room-full", f"seat {seat} of room {room.code} is "
                                               f"{'taken' if seat < room.players else 'not a seat'}")
            s = free[0] if seat is None else seat
            token = new_token()
            room.seats[s] = Seat(name=name or f"Player {s + 1}", token=token_hash(token), client=client)
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

    async def _apply(self, room: Room, seat: int, action: Any) -> Outcome:
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
            self._check_linger(room)
        return outcome

    async def _simulate(self, table: KabutoTable, seat: int, action: Any) -> Outcome:
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
            room.linger = None
            if room.anyone_here() or self.rooms.get(room.code) is not room or self.stopping:
                return
            if room.bot_task is not None:
                room.bot_task.cancel()
            if room.status in (WAITING, PLAYING):
                room.status = CLOSED
            await self._save(room)
            del self.rooms[room.code]
            log.info("room %s: everybody left; saved and closed (%s)", room.code, room.status)
            self._emit("closed", room)

    # ----- telling clients ---------------------------------------------------------------------------
    def _tell_seats(self, room: Room) -> None:
        _broadcast(room.clients(), pr.dumps({"type": "room", **room.summary()}))

    def _send_state(self, room: Room, clients: list[Client], outcome: Outcome | None = None,
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


def _send(client: Client, msg: dict[str, Any]) -> None:
    _broadcast([client], pr.dumps(msg))


def _broadcast(clients: list[Client], text: str) -> None:
    """Queue ``text`` on every open connection without waiting (a slow reader holds up nobody)."""
    from websockets.asyncio.server import broadcast

    broadcast([c.ws for c in clients], text)


def _address(ws: Any) -> str:
    try:
        host, port = ws.remote_address[:2]
        return f"{host}:{port}"
    except (TypeError, ValueError, AttributeError):
        return "?"


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
