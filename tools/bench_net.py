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

Target (issue #19): the 95th percentile latency <= 50 ms for every player count.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2, help="games per player count (default 2)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
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
