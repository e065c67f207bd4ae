"""Past one machine (issue 45 point 7): several ``kabuto serve`` processes share rooms behind one
address, as docs/protocol.md ("Several servers") describes - each server makes room codes with a
prefix of its own and keeps its room records in one shared data folder; a router sends a connection
whose path names a room (``/room/CODE``) to the server of that code's prefix, any other connection
to any server. Here the router is a few lines of asyncio (what nginx's or HAProxy's configuration
in the docs does), in front of two server processes on loopback; a game is played through each,
and one server is killed mid-game and started again from the shared folder."""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re

from kabuto.net.client import room_url
from tests.net.helpers import Peer, ServerProcess, run

_ROOM_PATH = re.compile(rb"GET /room/([A-Z2-9]{4,12})[ ?]")


class Router:
    """A TCP proxy for WebSocket handshakes: ``/room/CODE`` goes to the server whose prefix
    starts CODE, every other path to the servers in turn."""

    def __init__(self, servers: dict[str, int]):
        self.servers = servers  # prefix -> port on 127.0.0.1 (changed when a server restarts)
        self._turn = itertools.count()
        self.routed: list[tuple[str, str | None]] = []  # (prefix, room code) of every connection

    async def start(self) -> str:
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        return f"ws://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def stop(self) -> None:
        self._server.close()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            m = _ROOM_PATH.match(head)
            code = m.group(1).decode() if m else None
            if code is not None:
                prefix = next(p for p in self.servers if code.startswith(p))
            else:
                prefixes = sorted(self.servers)
                prefix = prefixes[next(self._turn) % len(prefixes)]
            self.routed.append((prefix, code))
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.servers[prefix])
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, StopIteration):
            writer.close()
            return
        up_writer.write(head)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(OSError):
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


async def _play_out(peers: list[Peer], stop_at: int | None = None) -> None:
    """Both seats play their first legal card until the game is over (or has reached ``stop_at``)."""
    async def seat(p: Peer) -> None:
        while p.state.status != "over" and (stop_at is None or p.state.step < stop_at):
            msg = await p.next()
            if msg["type"] == "state" and p.state.my_turn and p.state.status == "playing" and (
                    stop_at is None or p.state.step < stop_at):
                await p.send({"type": "act", "step": p.state.step, "action": p.state.legal[0]})

    await asyncio.gather(*(seat(p) for p in peers))


async def _new_game(url: str, router: Router) -> tuple[str, list[Peer], list[str]]:
    """A SUMO room made through the router (no code yet: any server), joined through it by code."""
    a = await Peer.open(url)
    joined = await a.ask({"type": "create", "game": "sumo"})
    code = joined["room"]
    b = await Peer.open(room_url(url, code))
    other = await b.ask({"type": "join", "room": code})
    assert other["type"] == "joined", other
    return code, [a, b], [joined["token"], other["token"]]


def test_two_servers_behind_one_address_each_play_a_game_and_share_a_data_folder(tmp_path):
    data = tmp_path / "shared"  # one folder for both servers: their rooms and records

    async def go():
        def start(prefix: str, n: int) -> ServerProcess:
            return ServerProcess(data, args=("--code-prefix", prefix), log=f"server-{prefix}{n}.log")

        servers = {p: await asyncio.to_thread(start, p, 1) for p in "AB"}
        router = Router({p: s.port for p, s in servers.items()})
        url = await router.start()
        try:
            # One game through each server (the router takes turns for connections without a code).
            first, peers1, _ = await _new_game(url, router)
            second, peers2, tokens2 = await _new_game(url, router)
            assert {first[0], second[0]} == {"A", "B"}, (first, second)
            await _play_out(peers1)
            await _play_out(peers2, stop_at=2)  # both cards revealed: no SUMO deal is over yet

            # The second game's server dies (kill -9); another takes its prefix on the shared folder
            # and the seats come back through the router by the room's code.
            prefix = second[0]
            await asyncio.to_thread(servers[prefix].kill)
            servers[prefix] = await asyncio.to_thread(start, prefix, 2)
            router.servers[prefix] = servers[prefix].port
            back = []
            for old, token in zip(peers2, tokens2, strict=True):
                p = await Peer.open(room_url(url, second))
                assert (await p.ask({"type": "resume", "room": second, "token": token}))["type"] == "joined"
                p.state.token = old.state.token
                back.append(p)
            await _play_out(back)
            results = [p.state.result for p in (*peers1, *back)]
            for p in (*peers1, *peers2, *back):
                await p.close()
        finally:
            await router.stop()
            logs = {p: await asyncio.to_thread(s.stop) for p, s in servers.items()}
        return first, second, results, router.routed, logs

    first, second, results, routed, logs = run(go(), timeout=300)
    assert results[0] == results[1] and results[2] == results[3] and all(results), results
    # Every connection that named a room reached the server of its prefix.
    assert all(code is None or code.startswith(prefix) for prefix, code in routed)
    for code in (first, second):
        room = json.loads((data / "rooms" / f"{code}.json").read_text())
        assert room["status"] == "over", room
    # The restarted server brought back only its own room from the shared folder.
    status, log = logs[second[0]]
    assert status == 0 and f"restored room {second}" in log and f"restored room {first}" not in log
