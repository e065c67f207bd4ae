"""Load: 50 rooms at once, each two bot clients playing a whole game against a server of its own
process, on loopback. No error, no lost game, no lost update."""
from __future__ import annotations

import asyncio
import json
import time
from collections import Counter, defaultdict

from kabuto.net.client import PlayOptions, play
from tests.net.helpers import ServerProcess, run

#: 50 rooms of two seats: cheap games and bots, so the test stays short on a 2-core machine.
ROOMS = {"sumo": 36, "sumo-card-game": 10, "kabuto": 4}


def test_fifty_rooms_of_bot_clients_play_whole_games_at_once(tmp_path):
    data = tmp_path / "data"

    async def go():
        server = await asyncio.to_thread(ServerProcess, data)
        start = time.perf_counter()
        clients = [play(PlayOptions(server.url, game, "random", name=f"load {i}"))
                   for game, n in ROOMS.items() for i in range(2 * n)]
        results = await asyncio.gather(*clients, return_exceptions=True)
        seconds = time.perf_counter() - start
        status, log = await asyncio.to_thread(server.stop)
        return results, seconds, status, log

    results, seconds, status, log = run(go(), timeout=400)
    failures = [r for r in results if isinstance(r, BaseException)]
    assert not failures, failures[:3]
    assert status == 0
    assert "ERROR" not in log and "WARNING" not in log and "Traceback" not in log, log[-3000:]
    rooms = defaultdict(list)
    for r in results:
        rooms[r["room"]].append(r)
    assert len(rooms) == sum(ROOMS.values())
    assert Counter(rs[0]["game"] for rs in rooms.values()) == Counter(ROOMS)
    for code, rs in rooms.items():
        # Both seats of every room saw the same whole game to its end.
        assert sorted(r["seat"] for r in rs) == [0, 1], code
        assert rs[0]["winners"] == rs[1]["winners"] and rs[0]["steps"] == rs[1]["steps"] > 0, rs
        meta = json.loads((data / "rooms" / f"{code}.json").read_text())
        assert meta["status"] == "over", code
        record = (data / "replays" / meta["record"]).read_text()
        if rs[0]["game"] != "kabuto":
            assert len(json.loads(record)["actions"]) == rs[0]["steps"]
    print(f"\n50 rooms, 100 clients: {seconds:.1f} s")
