"""Benchmark: how soon a push's result reaches every seat of a network game, on loopback.

A ``kabuto serve`` process runs on 127.0.0.1 with a temporary data folder; this process opens one
WebSocket connection per seat of a Kabuto Sumo room (2, 3 and 4 players) and plays pushes (the
``random`` bot's, so pushes into a real crowd). Every ``state`` message after a push carries
``last.done_at``, the server's ``time.monotonic()`` when the simulation finished (the same clock
in every process of the machine); each seat notes when it has received and parsed the message.
A push's **latency** is the time from ``done_at`` until the *last* seat has it: the recording, the
encoding, the sending and the reading of its at-rest state and trajectory included.

Baseline, in the same run: a ``ping``/``pong`` round trip on the same connections (the least any
message costs here); the ratio is printed beside the figures.

    python tools/bench_net.py               # a readable summary
    python tools/bench_net.py --json        # one JSON object
    python tools/bench_net.py --attack      # the same room, quiet, under one hostile client

Target (issue #19): the 95th percentile latency <= 50 ms for every player count.

``--attack`` (issue #45) measures fairness: a quiet two-seat Kabuto Sumo room plays pushes while
one hostile client, from an address of its own (127.0.0.66: every 127/8 address is loopback),
floods ``list`` on several connections without ever reading the replies, churns ``create``
requests the server must refuse, and opens idle connections; other addresses hold ``--rooms``
public rooms, so every ``list`` reply is long. Meanwhile a new client tries to connect every
0.2 s. It prints the quiet room's push latency (p95 against the same room's p95 before the
attack: the ratio), the share of new clients that connected within 5 s, and the server's memory.
Target: the quiet room's p95 <= 250 ms under the attack, and every new client connects.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kabuto.net.bots import plan_actions  # noqa: E402
from kabuto.net.client import Connection, RoomState  # noqa: E402

TARGET_MS = 50.0
ATTACK_TARGET_MS = 250.0
#: A wait longer than this counts as lost (the figure is then at least this).
ATTACK_TIMEOUT = 10.0
HOSTILE = "127.0.0.66"


def start_server(data: Path) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KABUTO_ASSETS": str(ROOT / "assets")}
    proc = subprocess.Popen([sys.executable, "-m", "kabuto", "serve", "--port", "0", "--quiet",
                             "--data-dir", str(data)], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    m = re.search(r"listening on (ws://\S+)", proc.stdout.readline())
    if not m:
        proc.kill()
        raise SystemExit("bench_net: the server did not start")
    return proc, m.group(1)


async def _state(conn: Connection, state: RoomState) -> tuple[dict, float]:
    while True:
        msg = await conn.recv()
        at = time.monotonic()
        state.apply(msg)
        if msg["type"] == "state":
            return msg, at


async def one_game(url: str, players: int, pushes: list[dict], seed: int) -> None:
    """Play one Kabuto Sumo game to its end (or 30 pushes), timing each push."""
    from kabuto.rules.game import Game

    conns = [await Connection.open(url) for _ in range(players)]
    states = [RoomState() for _ in range(players)]
    states[0].apply(await conns[0].request({"type": "create", "game": "kabuto", "players": players}))
    for c, s in zip(conns[1:], states[1:], strict=True):
        s.apply(await c.request({"type": "join", "room": states[0].room}))
    for c, s in zip(conns, states, strict=True):
        await _state(c, s)
    count = 0
    while states[0].status == "playing" and count < 30:
        mover = next(i for i, s in enumerate(states) if s.my_turn)
        for action in plan_actions(Game.from_json(states[mover].view), "random", seed + count):
            if not states[mover].my_turn:
                break
            await conns[mover].send({"type": "act", "step": states[mover].step, "action": action})
            got = await asyncio.gather(*(_state(c, s) for c, s in zip(conns, states, strict=True)))
            last = got[0][0].get("last") or {}
            if action["type"] == "push" and "done_at" in last:
                count += 1
                pushes.append({"players": players, "latency_ms": (max(at for _, at in got) - last["done_at"]) * 1e3,
                               "bytes": len(json.dumps(got[0][0])),
                               "frames": last["trajectory"]["frames"]})
    for c in conns:
        await c.close()


async def pings(url: str, n: int) -> list[float]:
    conn = await Connection.open(url)
    out = []
    for _ in range(n):
        t = time.monotonic()
        await conn.request({"type": "ping"})
        out.append((time.monotonic() - t) * 1e3)
    await conn.close()
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


async def run(url: str, games: int) -> dict:
    pushes: list[dict] = []
    baseline: list[float] = []
    for g in range(games):
        for players in (2, 3, 4):
            await one_game(url, players, pushes, seed=1000 * g + players)
            baseline += await pings(url, 20)
    base = statistics.median(baseline)
    out: dict = {"target_ms": TARGET_MS, "baseline_ping_ms": round(base, 3), "by_players": {}}
    for players in (2, 3, 4):
        lat = [p["latency_ms"] for p in pushes if p["players"] == players]
        size = [p["bytes"] for p in pushes if p["players"] == players]
        out["by_players"][str(players)] = {
            "pushes": len(lat), "median_ms": round(statistics.median(lat), 2), "p95_ms": round(pct(lat, 0.95), 2),
            "max_ms": round(max(lat), 2), "median_vs_ping": round(statistics.median(lat) / base, 1),
            "median_message_bytes": int(statistics.median(size))}
    out["ok"] = all(v["p95_ms"] <= TARGET_MS for v in out["by_players"].values())
    return out


# ----- under attack -----------------------------------------------------------------------------------
async def _raw(url: str, source: str, compress: bool = True) -> Any:
    """A bare WebSocket connection from ``source`` (an address of 127/8), its welcome read."""
    from websockets.asyncio.client import connect

    ws = await asyncio.wait_for(connect(url, local_addr=(source, 0), max_size=None, max_queue=4,
                                        open_timeout=ATTACK_TIMEOUT, proxy=None,
                                        compression="deflate" if compress else None), ATTACK_TIMEOUT)
    first = json.loads(await asyncio.wait_for(ws.recv(), ATTACK_TIMEOUT))
    if first.get("type") != "welcome":
        await ws.close()
        raise ConnectionError(first.get("message", "not welcomed"))
    return ws


def _msg(kind: str, **fields: Any) -> str:
    return json.dumps({"v": 1, "type": kind, **fields})


async def _bystanders(url: str, rooms: int) -> list[Any]:
    """``rooms`` public waiting rooms, four per address (127.0.0.10 on), their hosts connected."""
    out = []
    for i in range(rooms):
        with contextlib.suppress(Exception):
            ws = await _raw(url, f"127.0.0.{10 + i // 4}")
            await ws.send(_msg("create", game="sumo"))
            await asyncio.wait_for(ws.recv(), ATTACK_TIMEOUT)
            out.append(ws)
    return out


async def _flood(url: str, stop: asyncio.Event, sent: list[int], compress: bool) -> None:
    """One hostile connection: ``list`` as fast as the server takes it in, never reading (a new
    connection when the server drops one). With compression the server spends time deflating
    each reply; without, the replies weigh their whole size."""
    text = _msg("list")
    while not stop.is_set():
        try:
            ws = await _raw(url, HOSTILE, compress)
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ws.send(text), 1.0)
                    sent[0] += 1
        except Exception:
            await asyncio.sleep(0.05)


async def _churn(url: str, stop: asyncio.Event, sent: list[int]) -> None:
    """Requests the server refuses, and create -> fill -> leave, on a loop (new connections when
    the server closes one)."""
    while not stop.is_set():
        try:
            ws = await _raw(url, HOSTILE)
            while not stop.is_set():
                await ws.send(_msg("create", game="sumo", seat=7, id="x"))
                await ws.send(_msg("create", game="sumo", private=True))
                await ws.send(_msg("fill", bot="random"))
                await ws.send(_msg("leave"))
                await ws.send(_msg("join", room="ZZZZZZ"))
                await ws.send(_msg("ping"))
                sent[0] += 6
                await asyncio.sleep(0)
        except Exception:
            await asyncio.sleep(0.05)


async def _idle(url: str, stop: asyncio.Event, held: list[Any], most: int) -> None:
    """Idle connections, as many as the server lets one address open (up to ``most``)."""
    while not stop.is_set() and len(held) < most:
        try:
            held.append(await _raw(url, HOSTILE))
        except Exception:
            await asyncio.sleep(0.2)


async def _newcomers(url: str, stop: asyncio.Event, times: list[float | None]) -> None:
    """A new client every 0.2 s: the time it took to be welcomed (None: it was not, within 5 s)."""
    async def one() -> None:
        t = time.monotonic()
        try:
            conn = await Connection.open(url, timeout=5.0)
            times.append((time.monotonic() - t) * 1e3)
            await conn.close()
        except Exception:
            times.append(None)

    tasks = []
    while not stop.is_set():
        tasks.append(asyncio.ensure_future(one()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.2)
    await asyncio.gather(*tasks)


class QuietRoom:
    """A private two-seat Kabuto Sumo room of two connections from 127.0.0.1; a new one when its
    game ends."""

    def __init__(self, url: str):
        self.url = url
        self.conns: list[Connection] = []
        self.states: list[RoomState] = []

    async def open(self) -> None:
        await self.close()
        self.conns = [await Connection.open(self.url) for _ in range(2)]
        self.states = [RoomState(), RoomState()]
        self.states[0].apply(await self.conns[0].request({"type": "create", "game": "kabuto", "private": True}))
        self.states[1].apply(await self.conns[1].request({"type": "join", "room": self.states[0].room}))
        for c, s in zip(self.conns, self.states, strict=True):
            await _state(c, s)

    async def close(self) -> None:
        for c in self.conns:
            await c.close()

    async def pushes(self, n: int, seed: int, seconds: float = 0.0) -> list[float]:
        """``n`` pushes, and more until ``seconds`` have passed: each one's latency to the last
        seat (ms; a lost one counts as ``ATTACK_TIMEOUT``, and ends the count)."""
        from kabuto.rules.game import Game

        out: list[float] = []
        until = time.monotonic() + seconds
        while len(out) < n or time.monotonic() < until:
            if not self.states or self.states[0].status != "playing":
                try:  # the game is over: a new room (its players must get in, too)
                    await asyncio.wait_for(self.open(), ATTACK_TIMEOUT)
                except Exception:
                    out.append(ATTACK_TIMEOUT * 1e3)
                    return out
            states = self.states
            mover = next(i for i, s in enumerate(states) if s.my_turn)
            for action in plan_actions(Game.from_json(states[mover].view), "random", seed + len(out)):
                if not states[mover].my_turn:
                    break
                sent = time.monotonic()
                await self.conns[mover].send({"type": "act", "step": states[mover].step, "action": action})
                try:
                    got = await asyncio.wait_for(asyncio.gather(
                        *(_state(c, s) for c, s in zip(self.conns, states, strict=True))), ATTACK_TIMEOUT)
                except TimeoutError:
                    out.append(ATTACK_TIMEOUT * 1e3)
                    return out
                last = got[0][0].get("last") or {}
                if action["type"] == "push":
                    out.append((max(at for _, at in got) - last.get("done_at", sent)) * 1e3)
        return out


def _rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


async def attack(url: str, pid: int, rooms: int, pushes: int, flooders: int, idle: int,
                 seconds: float) -> dict:
    held = await _bystanders(url, rooms)
    room = QuietRoom(url)
    quiet = await room.pushes(pushes, seed=1)
    rss_before = _rss_mb(pid)
    stop = asyncio.Event()
    sent = [0]
    idle_held: list[Any] = []
    newcomers: list[float | None] = []
    attackers = [asyncio.ensure_future(_flood(url, stop, sent, i % 2 == 1)) for i in range(flooders)]
    attackers += [asyncio.ensure_future(_churn(url, stop, sent)),
                  asyncio.ensure_future(_idle(url, stop, idle_held, idle)),
                  asyncio.ensure_future(_newcomers(url, stop, newcomers))]
    await asyncio.sleep(1.0)  # the attack under way
    try:
        loud = await room.pushes(pushes, seed=1000, seconds=seconds)
    finally:
        rss_during = _rss_mb(pid)
        stop.set()
        await asyncio.gather(*attackers, return_exceptions=True)
    for ws in held + idle_held:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 1.0)
    await room.close()
    ok = [t for t in newcomers if t is not None]
    p95 = pct(loud, 0.95) if loud else ATTACK_TIMEOUT * 1e3
    base = pct(quiet, 0.95) if quiet else float("nan")
    out = {"target_ms": ATTACK_TARGET_MS, "public_rooms": len(held), "quiet_pushes": len(quiet),
           "quiet_p95_ms": round(base, 2), "attacked_pushes": len(loud),
           "attacked_median_ms": round(statistics.median(loud), 2) if loud else None,
           "attacked_p95_ms": round(p95, 2), "p95_vs_quiet": round(p95 / base, 2) if base else None,
           "hostile_messages_sent": sent[0], "hostile_idle_connections": len(idle_held),
           "new_clients": len(newcomers), "new_clients_connected": len(ok),
           "connect_share": round(len(ok) / len(newcomers), 3) if newcomers else None,
           "connect_p95_ms": round(pct(ok, 0.95), 1) if ok else None,
           "server_rss_mb": {"before": rss_before, "during": rss_during}}
    out["ok"] = bool(loud) and len(loud) >= pushes and p95 <= ATTACK_TARGET_MS and len(ok) == len(newcomers)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2, help="games per player count (default 2)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--attack", action="store_true", help="measure a quiet room under one hostile client")
    ap.add_argument("--rooms", type=int, default=150, help="--attack: public rooms of other addresses (default 150)")
    ap.add_argument("--pushes", type=int, default=20, help="--attack: pushes timed before and during (default 20)")
    ap.add_argument("--flooders", type=int, default=4, help="--attack: flooding connections (default 4)")
    ap.add_argument("--idle", type=int, default=300, help="--attack: idle connections tried (default 300)")
    ap.add_argument("--seconds", type=float, default=10.0,
                    help="--attack: the least time pushes are timed under the attack (default 10)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp) / "data")
        try:
            if args.attack:
                out = asyncio.run(attack(url, proc.pid, args.rooms, args.pushes, args.flooders, args.idle,
                                         args.seconds))
            else:
                out = asyncio.run(run(url, args.games))
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(30)
    if args.json or args.attack:
        print(json.dumps(out))
    else:
        print(f"push result to every seat, loopback (ping round trip {out['baseline_ping_ms']} ms):")
        for players, v in out["by_players"].items():
            print(f"  {players} players: {v['pushes']} pushes, median {v['median_ms']} ms, p95 {v['p95_ms']} ms, "
                  f"max {v['max_ms']} ms ({v['median_vs_ping']}x a ping; {v['median_message_bytes']} bytes)")
        print(f"target p95 <= {TARGET_MS:g} ms: {'met' if out['ok'] else 'NOT met'}")
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
