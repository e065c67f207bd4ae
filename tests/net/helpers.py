"""Servers and clients for the network tests: everything on 127.0.0.1, on ports the system picks,
every wait bounded by a timeout and ended by a message or an event, never by a sleep."""
from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from kabuto.net.client import Connection, RoomState
from kabuto.net.server import Server, ServerConfig

ROOT = Path(__file__).resolve().parents[2]
#: The longest any single wait in these tests may take (a 2-core machine shared with the suite).
WAIT = 60.0


def run(coro: Any, timeout: float = 240.0) -> Any:
    """Run a test's coroutine with a bound on the whole of it."""
    async def bounded() -> Any:
        async with asyncio.timeout(timeout):
            return await coro
    return asyncio.run(bounded())


@contextlib.asynccontextmanager
async def served(data_dir: Path, **config: Any) -> AsyncIterator[Server]:
    """An in-process server on a free port, stopped (every room saved) at the end."""
    server = Server(ServerConfig(port=0, data_dir=data_dir, **config))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def wait_for_event(server: Server, wanted: str, code: str | None = None) -> asyncio.Future[Any]:
    """A future set when the server emits ``wanted`` (for room ``code``, or any room)."""
    fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def listener(event: str, room: Any) -> None:
        if event == wanted and (code is None or room.code == code) and not fut.done():
            fut.set_result(room)

    server.listeners.append(listener)
    return fut


class Peer:
    """A raw protocol client that keeps every message it receives (tests look at all of them)."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self.state = RoomState()
        self.received: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, url: str) -> Peer:
        return cls(await Connection.open(url))

    async def send_raw(self, text: str | bytes) -> None:
        await self.conn.ws.send(text)

    async def send(self, msg: dict[str, Any]) -> None:
        await self.conn.send(msg)

    async def next(self, timeout: float = WAIT) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            msg = await self.conn.recv()
        self.received.append(msg)
        if msg["type"] != "error":
            self.state.apply(msg)
        return msg

    async def until(self, test: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
        """Read messages until one passes ``test``; that one."""
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.next(timeout)
                if test(msg):
                    return msg

    async def ask(self, msg: dict[str, Any], timeout: float = WAIT) -> dict[str, Any]:
        """Send ``msg`` and read until its reply (the reply, which may be an error)."""
        rid = await self.conn.send(msg)
        return await self.until(lambda m: m.get("re") == rid, timeout)

    async def push_anywhere(self, piece: str = "small", speed: float = 0.3) -> dict[str, Any]:
        """Make a push the server accepts, trying entry points round the ring (an earlier push
        may block one), and read until the state that shows it; that state."""
        refusals = []
        for entry in (90.0, -90.0, 0.0, 180.0, 45.0, -135.0, 135.0, -45.0):
            rid = await self.conn.send({"type": "act", "step": self.state.step, "action": {
                "type": "push", "piece": piece, "entry_deg": entry, "speed": speed}})
            msg = await self.until(lambda m, rid=rid: m.get("re") == rid or (
                m["type"] == "state" and m.get("last", {}).get("seat") == self.state.seat))
            if msg["type"] == "state":
                return msg
            refusals.append(f"{entry:g}: {msg.get('message')}")
        raise AssertionError("every push was refused: " + "; ".join(refusals))

    async def close(self) -> None:
        await self.conn.close()


async def against_a_bot(url: str, enough: Callable[[list[dict[str, Any]], int], bool],
                       ) -> tuple[list[dict[str, Any]], int]:
    """A two-player Kabuto room against the server's random bot, played (each of our turns a push of
    a kind we may push) until ``enough(states, our seat)`` or the game's end: every state seen, and
    our seat."""
    from kabuto.rules.game import Game

    me = await Peer.open(url)
    await me.ask({"type": "create", "game": "kabuto", "players": 2})
    await me.ask({"type": "fill", "bot": "random"})
    states = [await me.until(lambda m: m["type"] == "state")]
    while not enough(states, me.state.seat) and me.state.status == "playing":
        if me.state.my_turn:
            kinds = Game.from_json(me.state.view).legal_kinds()
            states.append(await me.push_anywhere(piece=kinds[0]))
        else:
            states.append(await me.until(lambda m: m["type"] == "state"))
    await me.close()
    return states, me.state.seat


def error_reply(msg: dict[str, Any], code: str) -> bool:
    return msg["type"] == "error" and msg["code"] == code


# ----- processes ---------------------------------------------------------------------------------------
def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "KABUTO_ASSETS": str(ROOT / "assets")}


class ServerProcess:
    """``kabuto serve`` in a process of its own (to kill it, or stop it with SIGTERM)."""

    def __init__(self, data_dir: Path, port: int = 0, linger: float = 300.0, seed: int | None = None,
                 extra_env: dict[str, str] | None = None, args: tuple[str, ...] = (), log: str = ""):
        self.log = data_dir.parent / (log or f"{data_dir.name}-server.log")
        with open(self.log, "a") as log:  # a file, not a pipe: a chatty server never blocks on it
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "kabuto", "serve", "--port", str(port), "--data-dir", str(data_dir),
                 "--linger", str(linger), *(["--seed", str(seed)] if seed is not None else []), *args],
                stdout=subprocess.PIPE, stderr=log, text=True, env={**env(), **(extra_env or {})})
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # blocks until the server listens (or fails)
        m = re.search(r"listening on (ws://\S+)", line)
        assert m, line + self.log.read_text()
        self.url = m.group(1)
        self.port = int(self.url.rsplit(":", 1)[1])

    def stop(self, timeout: float = WAIT) -> tuple[int, str]:
        """SIGTERM; the exit status and the log."""
        self.proc.terminate()
        self.proc.communicate(timeout=timeout)
        return self.proc.returncode, self.log.read_text()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.communicate(timeout=WAIT)


def join_process(url: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "kabuto", "join", url, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env())


# ----- hidden cards ------------------------------------------------------------------------------------
_TOKEN = re.compile(r"[A-Za-z0-9]+")


def tokens(x: Any) -> set[str]:
    """Every word of every string in a message (card names stand alone or in actions: "play 7C+8C")."""
    out: set[str] = set()
    stack = [x]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.update(_TOKEN.findall(v))
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def hidden_now(game: Any, seat: int) -> set[str]:
    """The cards ``seat`` cannot see now, from the engine's own card zones."""
    z = game.card_zones()
    if game.name == "sumo-card-game":
        return game.hidden_from(seat)
    if game.name == "sumo":
        out = set(z["hand1" if seat == 0 else "hand0"]) | set(z["undealt"])
        return out | set(z["face_down"]) if seat == 1 else out
    assert game.name == "sumida-river", game.name
    # Every natural card in another hand, and the undealt ones (A cards of a colour are all alike).
    out = set(z["undealt"])
    for p in range(game.num_players):
        if p != seat:
            out |= {c for c in z[f"hand:{p}"] if not c.startswith("W")}
    return out


def secrets_by_step(states: list[Any], seat: int | None) -> list[set[str]]:
    """For each state of a game, the cards that must not reach ``seat`` (None: a spectator) then:
    hidden from it, and never shown to it by an event of the game (a card once shown in public, or
    passed by the seat itself, is known to it even after it went back into a hand). The events
    only grow, so what was shown is gathered step by step."""
    out: list[set[str]] = []
    shown: set[str] = set()
    seen = 0
    for game in states:
        new = game.events[seen:]
        seen = len(game.events)
        if seat is None:
            shown |= tokens([e for e in new if "to" not in e])
            hidden = set().union(*(hidden_now(game, s) for s in range(game.num_players)))
        else:
            shown |= tokens([e for e in new if "to" not in e or seat in e["to"]])
            hidden = hidden_now(game, seat)
        known: set[str] = set()
        if game.name == "sumida-river":  # cards the engine lets a seat work out ("known" to it)
            if seat is None:  # ... and what every seat works out alike is no secret
                z = game.card_zones()
                known = set.intersection(*({c for cs in game.observation(s)["known"].values() for c in cs}
                                           | set(z[f"hand:{s}"]) for s in range(game.num_players)))
            else:
                known = {c for cs in game.observation(seat)["known"].values() for c in cs}
        out.append(hidden - shown - known)
    return out
