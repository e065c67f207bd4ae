"""Faults a network game lives through: a client killed mid-game (it takes its seat back with its
token), a client gone in the middle of a push, and the server restarted in the middle of a game
(stopped cleanly, or killed outright)."""
from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from kabuto.net.bots import plan_actions
from kabuto.net.client import PlayOptions, play
from kabuto.replay import format as rp
from tests.net.helpers import WAIT, Peer, ServerProcess, env, run, served


def _seat_file(path: Path, peer: Peer) -> Path:
    st = peer.state
    path.write_text(json.dumps({"game": st.game, "room": st.room, "seat": st.seat, "token": st.token}))
    return path


async def _join_process(url: str, *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "kabuto", "join", url, *args, "--json", "--timeout", "120",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env())


async def _card_turns_until(peer: Peer, done) -> None:
    """Play ``peer``'s card turns (first legal action) until ``done(peer)`` holds on its turn."""
    while True:
        msg = await peer.next()
        if peer.state.status == "over":
            return
        if msg["type"] == "state" and peer.state.my_turn:
            if done(peer):
                return
            await peer.send({"type": "act", "step": peer.state.step, "action": peer.state.legal[0]})


async def _kabuto_turn(mover: Peer, others: list[Peer]) -> None:
    """``mover`` plays one whole turn (random level), everybody reading each state."""
    from kabuto.rules.game import Game

    actions = plan_actions(Game.from_json(mover.state.view), "random", mover.state.step)
    turn_of = mover.state.seat
    for a in actions:
        if not mover.state.my_turn or mover.state.to_play != turn_of:
            break
        await mover.send({"type": "act", "step": mover.state.step, "action": a})
        for p in (mover, *others):
            await p.until(lambda m: m["type"] == "state")


def test_a_killed_client_takes_its_seat_back_with_its_token_and_plays_on(tmp_path):
    async def go():
        async with served(tmp_path / "data") as server:
            host = await Peer.open(server.url)
            code = (await host.ask({"type": "create", "game": "sumida-river", "players": 3}))["room"]
            args = ("--game", "sumida-river", "--room", code, "--bot", "heuristic", "--fill", "random",
                    "--seat-file", str(tmp_path / "seat.json"))
            proc = await _join_process(server.url, *args)
            # Play until the client has made a few moves and it is the host's turn: the game waits.
            await _card_turns_until(host, lambda p: p.state.step >= 4)
            assert host.state.status == "playing"
            proc.kill()
            await proc.wait()
            gone = await host.until(lambda m: m["type"] == "room" and not m["seats"][1]["connected"])
            assert gone["status"] == "playing" and code in server.rooms
            await host.send({"type": "act", "step": host.state.step, "action": host.state.legal[0]})
            # The same command again: it reads its seat file and takes the seat back.
            proc = await _join_process(server.url, *args)
            await _card_turns_until(host, lambda p: False)
            out, err = await asyncio.wait_for(proc.communicate(), WAIT)
            assert proc.returncode == 0, err.decode()
            return json.loads(out.decode().strip().splitlines()[-1]), host.state
    result, seen = run(go())
    assert (result["room"], result["seat"]) == (seen.room, 1)
    assert result["winners"] == seen.result["winners"] and result["steps"] == seen.step


def test_a_client_gone_in_the_middle_of_a_push_finds_it_played_when_it_comes_back(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            a, b = await Peer.open(server.url), await Peer.open(server.url)
            code = (await a.ask({"type": "create", "game": "kabuto"}))["room"]
            await b.ask({"type": "join", "room": code})
            for p in (a, b):
                await p.until(lambda m: m["type"] == "state")
            room = server.rooms[code]  # it leaves the server when its game ends
            mover, other = (a, b) if a.state.my_turn else (b, a)
            from kabuto.rules.game import Game

            push = plan_actions(Game.from_json(mover.state.view), "random", 1)[0]
            assert push["type"] == "push"
            step = mover.state.step
            await mover.send({"type": "act", "step": step, "action": push})
            mover.conn.ws.transport.abort()  # gone before the simulation is done
            after = await other.until(lambda m: m["type"] == "state")
            assert after["step"] == step + 1 and after["last"]["seat"] == mover.state.seat
            assert after["last"]["trajectory"]["pieces"], "the push's trajectory reaches the others"
            # Back with the token: the push was played, once, and the turn is still its own.
            back = await Peer.open(server.url)
            joined = await back.ask({"type": "resume", "room": code, "token": mover.state.token})
            assert joined["seat"] == mover.state.seat
            state = await back.until(lambda m: m["type"] == "state")
            assert state["step"] == step + 1 and state["view"] == after["view"]
            back.state = mover.state
            back.state.apply(state)
            files = [_seat_file(tmp_path / f"seat{p.state.seat}.json", p) for p in (back, other)]
            results = await asyncio.gather(*(play(PlayOptions(server.url, "kabuto", "random", seat_file=f))
                                             for f in files))
            return results, room.table.recorder.path
    results, replay = run(go())
    assert results[0]["winners"] == results[1]["winners"]
    recorded = rp.load(replay)
    assert rp.verify(recorded).ok, "the replay re-simulates to the same game"
    assert results[0]["steps"] == len(recorded.actions)


def test_a_server_stopped_mid_game_brings_the_room_back_as_it_was(tmp_path):
    data = tmp_path / "data"

    async def first():
        server = await asyncio.to_thread(ServerProcess, data)
        a, b = await Peer.open(server.url), await Peer.open(server.url)
        code = (await a.ask({"type": "create", "game": "kabuto"}))["room"]
        await b.ask({"type": "join", "room": code})
        for p in (a, b):
            await p.until(lambda m: m["type"] == "state")
        while a.state.step < 4 and a.state.status == "playing":
            mover = a if a.state.my_turn else b
            await _kabuto_turn(mover, [b if mover is a else a])
        assert a.state.status == "playing", "the game is still going on"
        before = a.state.view
        status, log = await asyncio.to_thread(server.stop)  # SIGTERM
        assert status == 0 and "saving 1 room" in log, log
        return a, b, before

    a, b, before = run(first())

    async def second():
        server = await asyncio.to_thread(ServerProcess, data)
        back = await Peer.open(server.url)
        await back.ask({"type": "resume", "room": a.state.room, "token": a.state.token})
        state = await back.until(lambda m: m["type"] == "state")
        assert state["step"] == a.state.step
        for key in ("history", "world", "pieces", "turn", "setup"):
            assert state["view"][key] == before[key], key
        await back.close()
        files = [_seat_file(tmp_path / f"seat{p.state.seat}.json", p) for p in (a, b)]
        results = await asyncio.gather(*(play(PlayOptions(server.url, "kabuto", "random", seat_file=f))
                                         for f in files))
        status, log = await asyncio.to_thread(server.stop)
        assert status == 0 and "Traceback" not in log, log
        return results

    results = run(second())
    assert results[0]["winners"] == results[1]["winners"] and results[0]["steps"] > a.state.step
    meta = json.loads((data / "rooms" / f"{a.state.room}.json").read_text())
    assert meta["status"] == "over"
    assert rp.verify(rp.load(data / "replays" / meta["record"])).ok
    assert len(list((data / "replays").glob("*.replay.json"))) == 1, "one replay file for the room"


def test_a_server_killed_mid_game_comes_back_and_a_join_client_reconnects_by_itself(tmp_path):
    data = tmp_path / "data"

    async def go():
        server = await asyncio.to_thread(ServerProcess, data)
        host = await Peer.open(server.url)
        code = (await host.ask({"type": "create", "game": "sumida-river", "players": 3}))["room"]
        proc = await _join_process(server.url, "--game", "sumida-river", "--room", code, "--bot", "random",
                                   "--fill", "random", "--seat-file", str(tmp_path / "seat.json"))
        await _card_turns_until(host, lambda p: p.state.step >= 4)
        assert host.state.status == "playing"
        step = host.state.step
        await asyncio.to_thread(server.kill)  # SIGKILL: nothing saved at the end; card rooms are saved after every action
        server = await asyncio.to_thread(ServerProcess, data, server.port)
        back = await Peer.open(server.url)
        await back.ask({"type": "resume", "room": code, "token": host.state.token})
        back.state.seat, back.state.token = host.state.seat, host.state.token
        await _card_turns_until(back, lambda p: False)
        out, err = await asyncio.wait_for(proc.communicate(), WAIT)
        assert proc.returncode == 0, err.decode()
        status, log = await asyncio.to_thread(server.stop)
        assert status == 0 and f"restored room {code}" in log and "Traceback" not in log, log
        return json.loads(out.decode().strip().splitlines()[-1]), back.state, step

    result, seen, step = run(go())
    assert result["room"] == seen.room and result["winners"] == seen.result["winners"]
    assert seen.step > step
    record = json.loads(next((data / "replays").glob("*.cards.json")).read_text())
    assert len(record["actions"]) == seen.step and record["result"]["winners"] == result["winners"]


def test_a_room_restored_on_a_server_bots_turn_goes_on_once_its_player_is_back(tmp_path):
    """Stopped on the bot's turn (its move not made yet): once the player takes the seat back,
    the bot plays its turn - nobody has to act first to wake it."""
    data = tmp_path / "data"

    async def first():
        server = await asyncio.to_thread(ServerProcess, data)
        a = await Peer.open(server.url)
        await a.ask({"type": "create", "game": "kabuto"})
        await a.ask({"type": "fill", "bot": "easy"})
        await a.until(lambda m: m["type"] == "state" and a.state.my_turn)
        # Our push ends our turn; the server is stopped before its bot can answer (SIGTERM at once).
        await a.push_anywhere()
        status, _ = await asyncio.to_thread(server.stop)
        return a, status

    a, status = run(first())
    assert status == 0

    async def second():
        server = await asyncio.to_thread(ServerProcess, data)
        back = await Peer.open(server.url)
        await back.ask({"type": "resume", "room": a.state.room, "token": a.state.token})
        full = await back.until(lambda m: m["type"] == "state")
        # The bot's turn was still to come (the usual case): it is played now, and the turn comes
        # back to us. (On a loaded machine the bot may have played before the stop: then the room
        # comes back on our turn already, and there is nothing to wait for.)
        if full["to_play"] != a.state.seat:
            try:
                back_to_us = await back.until(lambda m: m["type"] == "state" and m["to_play"] == a.state.seat)
            except TimeoutError:  # say what the server did meanwhile (it logs every bot step)
                raise AssertionError("the bot never played; the server's log:\n" + server.log.read_text()) from None
            assert back_to_us["last"]["seat"] != a.state.seat, "the bot's turn was played"
        await back.close()
        await asyncio.to_thread(server.stop)

    run(second())
