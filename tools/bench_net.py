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
    python tools/bench_net.py --rooms 50    # 50 Kabuto rooms of bot clients at once (issue 45)

With ``--rooms N`` it measures the server under load instead: N two-seat Kabuto rooms whose bot
clients push at once (random legal pushes, no look-ahead: the clients cost little), each push's
result to every seat (p50, p95: from ``done_at``, and from the act's sending), and the pushes per
second per core of the machine.

Target (issue #19): the 95th percentile latency <= 50 ms for every player count.
"""
from __future__ import annotations

import argparse
import asyncio
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kabuto.net.bots import plan_actions  # noqa: E402
from kabuto.net.client import Connection, RoomState  # noqa: E402

TARGET_MS = 50.0


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
    ap.add_argument("--rooms", type=int, default=0,
                    help="instead: this many Kabuto rooms of bot clients at once (issue 45: 50), reporting "
                         "push-to-seat p50/p95 and pushes per second per core")
    ap.add_argument("--pushes", type=int, default=20,
                    help="with --rooms: pushes per room, in as many games as it takes (default 20)")
    ap.add_argument("--server-args", default="", help="with --rooms: extra `kabuto serve` arguments")
    ap.add_argument("--baseline", action="store_true",
                    help="with --rooms: first the same load with the simulations in threads (--workers 0)")
    args = ap.parse_args(argv)
    if args.rooms:
        return main_rooms(args)
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp) / "data")
        try:
            out = asyncio.run(run(url, args.games))
        finally:
            proc.terminate()
            proc.wait(30)
    if args.json:
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
