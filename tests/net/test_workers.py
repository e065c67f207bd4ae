"""Every core (issue 45 point 6): Kabuto Sumo's pushes and the server's Kabuto bots are simulated in
worker processes, never in the server's own process (where, in threads, they shared one core and
held up every room's messages), and what a worker plays is exactly what the game would have played
here."""
from __future__ import annotations

import json
import subprocess
import sys

from kabuto.net import tables
from kabuto.rules.game import Game
from tests.net.helpers import ROOT, Peer, against_a_bot, env, run, served


def test_pushes_and_bots_run_in_worker_processes_and_play_exactly(tmp_path, monkeypatch):
    here: list[str] = []

    def not_here(name):
        def refuse(*args, **kwargs):
            here.append(name)
            raise AssertionError(f"{name} ran in the server's process")
        return refuse

    # The server's process must not simulate: its own copies of the simulating calls refuse.
    # (Worker processes import the modules afresh, unpatched.)
    monkeypatch.setattr(tables.KabutoTable, "apply", not_here("KabutoTable.apply"))
    monkeypatch.setattr("kabuto.net.server.plan_actions", not_here("plan_actions"))

    async def go():
        async with served(tmp_path, workers=2) as server:
            return await against_a_bot(server.url, lambda seen, seat: len(seen) >= 8)

    states, seat = run(go())
    assert not here
    assert any(s["last"]["seat"] != seat for s in states[1:]), "the server's bot never played"
    # Each state after an action is what that action makes of the state before it, played here.
    monkeypatch.undo()
    for before, after in zip(states, states[1:], strict=False):  # every state was read, in order
        game = Game.from_json(before["view"])
        table = tables.KabutoTable(game, tables._Unrecorded(), None)  # type: ignore[arg-type]
        outcome = table.apply(after["last"]["seat"], after["last"]["action"])
        assert json.loads(json.dumps(game.to_json())) == after["view"]
        if "trajectory" in after["last"]:
            assert json.loads(json.dumps(outcome.detail["trajectory"])) == after["last"]["trajectory"]


def test_bench_net_measures_many_rooms_at_its_smallest_size():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_net.py"), "--rooms", "2", "--pushes", "2",
                          "--json"], capture_output=True, text=True, env=env(), timeout=300)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["rooms"] == 2 and report["pushes"] == 4 and report["failed_rooms"] == 0, report
    assert report["pushes_per_second_per_core"] > 0 and report["push_to_seat_p95_ms"] is not None


def test_a_worker_killed_mid_game_costs_no_push(tmp_path):
    """A worker process dies (killed, out of memory): the push in flight is played all the same
    and the next ones go to new workers."""
    import os
    import signal

    async def go():
        async with served(tmp_path, workers=1) as server:
            me = await Peer.open(server.url)
            await me.ask({"type": "create", "game": "kabuto", "players": 2})
            other = await Peer.open(server.url)
            await other.ask({"type": "join", "room": me.state.room})
            await me.until(lambda m: m["type"] == "state")
            await other.until(lambda m: m["type"] == "state")
            pushed = []
            for _ in range(3):
                for pid in list(server._pool._processes):  # type: ignore[union-attr]
                    os.kill(pid, signal.SIGKILL)
                mover = me if me.state.my_turn else other
                kinds = Game.from_json(mover.state.view).legal_kinds()
                pushed.append(await mover.push_anywhere(piece=kinds[0]))
                waiting = other if mover is me else me
                await waiting.until(lambda m: m["type"] == "state" and m["step"] == pushed[-1]["step"])
            for p in (me, other):
                await p.close()
            return pushed

    pushed = run(go())
    assert [p["last"]["action"]["type"] for p in pushed] == ["push"] * 3


def test_a_state_message_with_a_workers_encoded_parts_reads_as_one_encoded_here(tmp_path):
    """What a worker sends already encoded (the state, the trajectory) is spliced into the state
    message; the message reads exactly as the one the server would encode whole."""
    from kabuto.net import protocol as pr

    table = tables.KabutoTable.new(2, {}, 7, tmp_path, ["Ann", "Bo"])
    seat = table.to_play
    kind = table.engine.legal_kinds()[0]
    code, message, done = tables.apply_kabuto_action(table.engine.clone(), table.seat_names, seat, {
        "type": "push", "piece": kind, "entry_deg": 90.0, "speed": 0.3})
    assert code is None and done is not None, message
    table.engine, table._view_text = done.game, (done.game, done.view)
    base = {"type": "state", "room": "TEST", "step": 2, "last": {"seat": seat, **done.detail}}
    plain = {**base, "last": {**base["last"], "trajectory": json.loads(done.detail["trajectory"])},
             "view": done.game.to_json()}
    assert json.loads(table.message_text(base)) == json.loads(pr.dumps(plain))
    table._view_text = None  # nothing encoded: the message is encoded here, whole
    assert table.message_text(plain) == pr.dumps(plain)
