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
    python tools/bench_net.py --rooms 50    # 50 Kabuto rooms of bot clients at once (issue 45)

With ``--rooms N`` (and no ``--attack``) it measures the server under load instead: N two-seat Kabuto rooms whose bot
clients push at once (random legal pushes, no look-ahead: the clients cost little), each push's
result to every seat (p50, p95: from ``done_at``, and from the act's sending), and the pushes per
second per core of the machine.

Target (issue #19): the 95th percentile latency <= 50 ms for every player count.

``--attack`` (issue #45) measures fairness: a quiet two-seat Kabuto Sumo room plays pushes while
one hostile client, from an address of its own (127.0.0.66: every 127/8 address is loopback),
floods ``list`` on several connections without ever reading the replies, churns ``create``
requests the server must refuse, and opens idle connections; other addresses hold ``--attack-rooms``
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
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kabuto.net.bots import plan_actions
from kabuto.net.client import Connection, RoomState

ROOT = Path(__file__).resolve().parent.parent

TARGET_MS = 50.0
ATTACK_TARGET_MS = 250.0
#: A wait longer than this counts as lost (the figure is then at least this).
ATTACK_TIMEOUT = 10.0
HOSTILE = "127.0.0.66"


def start_server(data: Path, extra: str = "") -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KABUTO_ASSETS": str(ROOT / "assets")}
    proc = subprocess.Popen([sys.executable, "-m", "kabuto", "serve", "--port", "0", "--quiet",
                             "--data-dir", str(data), *extra.split()], stdout=subprocess.PIPE, text=True, env=env)
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


# ----- many rooms at once (issue 45 point 6) ---------------------------------------------------------
#: Target with 50 Kabuto rooms of bot clients on 2 cores: a push reaches every seat within this (p95).
ROOMS_TARGET_MS = 250.0


async def _timed_state(conn: Connection, state: RoomState, errors: bool = False) -> tuple[dict, float]:
    """The next ``state`` (or, with ``errors``, ``error``) message and when its frame arrived
    (before it was parsed: the time a busy client spends parsing other rooms' messages is its own)."""
    while True:
        if conn._backlog:
            msg, at = conn._backlog.pop(0), time.monotonic()
        else:
            raw = await conn.ws.recv()
            at = time.monotonic()
            msg = json.loads(raw)
        state.apply(msg)
        if msg["type"] == "state" or (errors and msg["type"] == "error"):
            return msg, at


def _bot_push(view: dict, rng: random.Random) -> dict:
    """A bot client's action: a push of a legal kind from a random point of the platform that the
    rules accept (no look-ahead: the clients cost the bench little), or the end of the turn."""
    from kabuto.rules.errors import IllegalMove
    from kabuto.rules.game import Game

    game = Game.from_json(view)
    if game.can_push:
        kinds = game.legal_kinds()
        for _ in range(24):
            kind, entry = rng.choice(kinds), rng.uniform(-180.0, 180.0)
            heading, speed = rng.uniform(-25.0, 25.0), rng.uniform(0.15, 0.45)
            try:
                game.check_push(kind, entry, heading, speed)
            except IllegalMove:
                continue
            return {"type": "push", "piece": kind, "entry_deg": round(entry, 2),
                    "heading_deg": round(heading, 2), "speed": round(speed, 3), "end_turn": True}
    return {"type": "end_turn"}


async def _room_of_bots(url: str, seed: int, per_room: int, pushes: list[dict],
                        setting_up: asyncio.Semaphore) -> None:
    """Two bot clients playing Kabuto Sumo: ``per_room`` pushes, in as many games (one room each,
    one after another) as that takes. ``setting_up``: rooms are set up a few at a time (every
    client here has one address, and the server lets an address set up only a few at once)."""
    rng = random.Random(seed)
    conns = [await Connection.open(url, timeout=120) for _ in range(2)]
    count = refused = 0
    while count < per_room and refused < 20:
        states = [RoomState() for _ in range(2)]
        async with setting_up:
            states[0].apply(await conns[0].request({"type": "create", "game": "kabuto", "players": 2,
                                                    "private": True}, timeout=120))
            states[1].apply(await conns[1].request({"type": "join", "room": states[0].room}, timeout=120))
        for c, s in zip(conns, states, strict=True):
            await _timed_state(c, s)
        while states[0].status == "playing" and count < per_room and refused < 20:
            mover = next(i for i, s in enumerate(states) if s.my_turn)
            action = _bot_push(states[mover].view, rng)
            sent = time.monotonic()
            await conns[mover].send({"type": "act", "step": states[mover].step, "action": action})
            first, at = await _timed_state(conns[mover], states[mover], errors=True)
            if first["type"] == "error":
                refused += 1
                continue
            got = [(first, at)] + [await _timed_state(c, s) for i, (c, s) in enumerate(zip(conns, states, strict=True))
                                   if i != mover]
            last = first.get("last") or {}
            if action["type"] == "push" and "done_at" in last:
                count += 1
                arrived = max(a for _, a in got)
                pushes.append({"latency_ms": (arrived - last["done_at"]) * 1e3,
                               "round_trip_ms": (arrived - sent) * 1e3})
        for c in conns:
            await c.request({"type": "leave"}, timeout=120)
    for c in conns:
        await c.close()


def _stat(pid: int | str) -> list[str]:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []


def cpu_seconds(pid: int, tree: bool = True) -> float:
    """CPU seconds used so far by process ``pid`` and (``tree``) every process under it (its worker
    processes), read from Linux's /proc (0 elsewhere)."""
    if not tree:
        f = _stat(pid)
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK") if f else 0.0
    parents = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            f = _stat(d.name)
            if f:
                parents[int(d.name)] = (int(f[1]), f)
    tree, grew = {pid}, True
    while grew:
        more = {p for p, (pp, _) in parents.items() if pp in tree and p not in tree}
        tree |= more
        grew = bool(more)
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(parents[p][1][i]) for p in tree if p in parents for i in (11, 12)) / ticks


async def many_rooms(url: str, rooms: int, per_room: int) -> dict:
    """``rooms`` Kabuto rooms of two bot clients each, all at once: push-to-seat latency (p50, p95)
    and pushes per second per core of the machine."""
    pushes: list[dict] = []
    setting_up = asyncio.Semaphore(4)
    start = time.monotonic()
    results = await asyncio.gather(*(_room_of_bots(url, 7919 * r, per_room, pushes, setting_up)
                                     for r in range(rooms)), return_exceptions=True)
    seconds = time.monotonic() - start
    failed = [r for r in results if isinstance(r, BaseException)]
    lat = [p["latency_ms"] for p in pushes]
    trip = [p["round_trip_ms"] for p in pushes]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    out = {"rooms": rooms, "pushes": len(lat), "failed_rooms": len(failed), "seconds": round(seconds, 1),
           "cores": cores, "target_p95_ms": ROOMS_TARGET_MS,
           "push_to_seat_p50_ms": round(statistics.median(lat), 1) if lat else None,
           "push_to_seat_p95_ms": round(pct(lat, 0.95), 1) if lat else None,
           "act_to_seat_p50_ms": round(statistics.median(trip), 1) if trip else None,
           "act_to_seat_p95_ms": round(pct(trip, 0.95), 1) if trip else None,
           "pushes_per_second_per_core": round(len(lat) / seconds / cores, 2)}
    if failed:
        out["first_failure"] = repr(failed[0])[:300]
    out["ok"] = bool(lat) and not failed and out["push_to_seat_p95_ms"] <= ROOMS_TARGET_MS
    return out


def rooms_run(args: argparse.Namespace, server_args: str) -> dict:
    """One many-rooms measurement against a server of its own started with ``server_args``."""
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp) / "data", server_args)
        try:
            cpu0, main0 = cpu_seconds(proc.pid), cpu_seconds(proc.pid, tree=False)
            me0 = time.process_time()
            out = asyncio.run(many_rooms(url, args.rooms, args.pushes))
            out["server_cpu_seconds"] = round(cpu_seconds(proc.pid) - cpu0, 1)
            out["server_main_process_cpu_seconds"] = round(cpu_seconds(proc.pid, tree=False) - main0, 1)
            out["clients_cpu_seconds"] = round(time.process_time() - me0, 1)
        finally:
            proc.terminate()
            proc.wait(60)
    return out


def _print_rooms(title: str, out: dict) -> None:
    print(f"{title}: {out['rooms']} Kabuto rooms of bot clients at once, {out['pushes']} pushes in "
          f"{out['seconds']} s on {out['cores']} cores ({out['failed_rooms']} rooms failed)")
    print(f"  a push's result to every seat: median {out['push_to_seat_p50_ms']} ms, "
          f"p95 {out['push_to_seat_p95_ms']} ms (act to every seat: median {out['act_to_seat_p50_ms']} ms, "
          f"p95 {out['act_to_seat_p95_ms']} ms)")
    print(f"  {out['pushes_per_second_per_core']} pushes per second per core (CPU seconds: the server and "
          f"its workers {out['server_cpu_seconds']} (its event loop's process "
          f"{out['server_main_process_cpu_seconds']}), the bot clients {out['clients_cpu_seconds']})")


def main_rooms(args: argparse.Namespace) -> int:
    """``--rooms``: the server as it runs (worker processes), and with ``--baseline`` first the
    same load on a server whose simulations run in threads of its own process (``--workers 0``,
    one core: how the server ran before), for ratios measured in the same run."""
    runs = {}
    if args.baseline:
        runs["threads"] = rooms_run(args, f"{args.server_args} --workers 0")
    runs["processes"] = rooms_run(args, args.server_args)
    out = dict(runs["processes"])
    if args.baseline:
        base = runs["threads"]
        out["baseline_threads"] = base
        for k in ("push_to_seat_p95_ms", "act_to_seat_p95_ms", "pushes_per_second_per_core"):
            if base.get(k) and out.get(k) is not None:
                out[f"{k}_vs_threads"] = round(out[k] / base[k], 2)
    if args.json:
        print(json.dumps(out))
    else:
        for name, r in runs.items():
            _print_rooms(f"simulations in {name}", r)
        if args.baseline:
            print(f"processes vs threads: push-to-seat p95 x{out.get('push_to_seat_p95_ms_vs_threads')}, "
                  f"act-to-seat p95 x{out.get('act_to_seat_p95_ms_vs_threads')}, pushes per second per core "
                  f"x{out.get('pushes_per_second_per_core_vs_threads')}")
        print(f"target p95 <= {ROOMS_TARGET_MS:g} ms: {'met' if out['ok'] else 'NOT met'}")
    return 0 if out["ok"] else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2, help="games per player count (default 2)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--attack", action="store_true", help="measure a quiet room under one hostile client")
    ap.add_argument("--attack-rooms", type=int, default=150,
                    help="--attack: public rooms of other addresses (default 150)")
    ap.add_argument("--flooders", type=int, default=4, help="--attack: flooding connections (default 4)")
    ap.add_argument("--idle", type=int, default=300, help="--attack: idle connections tried (default 300)")
    ap.add_argument("--seconds", type=float, default=10.0,
                    help="--attack: the least time pushes are timed under the attack (default 10)")
    ap.add_argument("--rooms", type=int, default=0,
                    help="instead: this many Kabuto rooms of bot clients at once (issue 45: 50), reporting "
                         "push-to-seat p50/p95 and pushes per second per core")
    ap.add_argument("--pushes", type=int, default=20,
                    help="with --attack: pushes timed before and during; with --rooms: pushes per room "
                         "(default 20)")
    ap.add_argument("--server-args", default="", help="with --rooms: extra `kabuto serve` arguments")
    ap.add_argument("--baseline", action="store_true",
                    help="with --rooms: first the same load with the simulations in threads (--workers 0)")
    args = ap.parse_args(argv)
    if args.rooms and not args.attack:
        return main_rooms(args)
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp) / "data")
        try:
            if args.attack:
                out = asyncio.run(attack(url, proc.pid, args.attack_rooms, args.pushes, args.flooders, args.idle,
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
