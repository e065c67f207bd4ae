"""The server's rooms and seats as players meet them: finding a room, seat tokens, spectators, bots
filling seats, refusals that change nothing, garbage that gets a client disconnected, and rooms
kept a while after everybody left."""
from __future__ import annotations

import asyncio
import json
import random

from kabuto.net import protocol as pr
from kabuto.net.client import PlayOptions, play
from kabuto.net.limits import Limits
from tests.net.helpers import Peer, error_reply, run, served, wait_for_event


async def _room_of_two(url: str, game: str = "sumo-card-game") -> tuple[Peer, Peer, str]:
    a, b = await Peer.open(url), await Peer.open(url)
    code = (await a.ask({"type": "create", "game": game}))["room"]
    await b.ask({"type": "join", "room": code})
    for p in (a, b):
        await p.until(lambda m: m["type"] == "state")
    return a, b, code


def test_join_without_a_code_finds_the_open_room_and_private_rooms_are_left_alone(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            host, other, third = [await Peer.open(server.url) for _ in range(3)]
            private = await host.ask({"type": "create", "game": "sumo", "private": True})
            listed = await other.ask({"type": "list"})
            assert private["room"] not in [r["room"] for r in listed["rooms"]]
            first = await other.ask({"type": "join", "game": "sumo"})
            assert first["room"] != private["room"] and first["seat"] == 0
            second = await third.ask({"type": "join", "game": "sumo"})
            assert (second["room"], second["seat"]) == (first["room"], 1)
            # Both seats taken: the game starts for both of them.
            for p in (other, third):
                state = await p.until(lambda m: m["type"] == "state")
                assert state["status"] == "playing" and state["step"] == 0
            late = await Peer.open(server.url)
            assert error_reply(await late.ask({"type": "join", "room": first["room"]}), "room-full")
            assert error_reply(await late.ask({"type": "join", "room": "ZZZZZZ"}), "no-room")
            assert error_reply(await late.ask({"type": "join", "game": "chess"}), "bad-message")
            assert error_reply(await late.ask({"type": "create", "game": "sumo", "players": 5}), "bad-message")
    run(go())


def test_a_seat_token_is_unguessable_stored_only_as_a_hash_and_gives_back_only_its_own_seat(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            a, b = await Peer.open(server.url), await Peer.open(server.url)
            ja = await a.ask({"type": "create", "game": "sumo"})
            jb = await b.ask({"type": "join", "room": ja["room"]})
            return ja, jb, server.rooms[ja["room"]]
    ja, jb, room = run(go())
    assert ja["token"] != jb["token"] and len(ja["token"]) >= 32 and pr.TOKEN_RE.fullmatch(ja["token"])
    text = (tmp_path / "rooms" / f"{ja['room']}.json").read_text()
    assert ja["token"] not in text and jb["token"] not in text
    assert room.seat_of(ja["token"]) == 0 and room.seat_of(jb["token"]) == 1
    assert room.seat_of(ja["token"][:-1] + ("A" if ja["token"][-1] != "A" else "B")) is None

    async def again():
        async with served(tmp_path) as server:
            c = await Peer.open(server.url)
            wrong = await c.ask({"type": "resume", "room": ja["room"], "token": "x" * 32})
            assert error_reply(wrong, "bad-token")
            back = await c.ask({"type": "resume", "room": ja["room"], "token": jb["token"]})
            assert back["type"] == "joined" and back["seat"] == 1 and "token" not in back
    run(again())


def test_refused_actions_change_nothing_and_1000_malformed_messages_leave_the_game_playable(tmp_path):
    """1,000 malformed, oversized, stale, out-of-turn and illegal messages from a seated player: each
    gets an error back, none changes the game (the other seat hears nothing), and afterwards the
    game plays on to its end. This server's quotas let the fuzzer go on (the quotas have tests of
    their own, in test_quotas.py)."""
    rng = random.Random(5)

    def garbage(step: int, my_turn: bool, legal: list) -> tuple[str | bytes, str]:
        n = rng.randrange(14)
        if n == 0:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))), "bad-json"
        if n == 1:
            return "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(1, 60))) + "{", "bad-json"
        if n == 2:
            return json.dumps([1, {"v": 1}]), "bad-json"
        if n == 3:
            return '{"v": 1, "type": "act", "step": Infinity, "action": "x"}', "bad-json"
        if n == 4:
            return json.dumps({"v": 1, "type": "act", "step": step, "action": "x" * 20_000}), "too-big"
        if n == 5:
            return json.dumps({"v": rng.choice([0, 2, "1", None]), "type": "ping"}), "bad-version"
        if n == 6:
            return json.dumps({"v": 1, "type": rng.choice(["hello", "ACT", "", "act "])}), "bad-message"
        if n == 7:
            return json.dumps({"v": 1, "type": "act", "step": step}), "bad-message"
        if n == 8:
            return json.dumps({"v": 1, "type": "act", "step": step, "action": [1, 2]}), "bad-message"
        if n == 9:
            return json.dumps({"v": 1, "type": "join", "room": "ABCDEF"}), "bad-message"  # in a room already
        if n == 10:
            return json.dumps({"v": 1, "type": "fill"}), "bad-message"  # the game has started
        if n == 11:
            return '{"v": 1, "type": "act", "step": 1, "action": ' + "[" * 40 + "]" * 40 + "}", "bad-json"
        if not my_turn:
            return json.dumps({"v": 1, "type": "act", "step": step, "action": "play 2C"}), "not-your-turn"
        if n == 12:
            return json.dumps({"v": 1, "type": "act", "step": step + rng.choice([-1, 1, 5]),
                               "action": "play 2C"}), "stale"
        action = rng.choice([a for a in ["play ZZ", "", "accept", "challenge-ring", {"type": "end_turn"},
                                         "play " + "7C+" * 5, "play 2C", "play 2C+3C"] if a not in legal])
        return json.dumps({"v": 1, "type": "act", "step": step, "action": action}), "illegal"

    async def go():
        async with served(tmp_path, limits=Limits(rate=1e6, burst=10**6, address_rate=1e6,
                                                     address_burst=10**6, strikes=10**6)) as server:
            a, b, code = await _room_of_two(server.url)
            room = server.rooms[code]
            sent = 0
            for phase in range(2):
                # Phase 0: garbage from the seat that is not to play; phase 1: from the one that is.
                fuzzer = b if a.state.my_turn != (phase == 1) else a
                other = a if fuzzer is b else b
                step, before = room.table.step, json.dumps(room.table.clone_game().to_json())
                for i in range(500):
                    raw, code_wanted = garbage(step, fuzzer.state.my_turn, fuzzer.state.legal)
                    await fuzzer.send_raw(raw)
                    reply = await fuzzer.until(lambda m: m["type"] in ("error", "state"))
                    assert reply["type"] == "error" and reply["code"] == code_wanted, (raw, reply)
                    sent += 1
                    if i % 15 == 14 or i == 499:
                        assert (await fuzzer.ask({"type": "ping"}))["type"] == "pong"
                assert room.table.step == step and json.dumps(room.table.clone_game().to_json()) == before
                # The other seat heard nothing of it: no state came before the answer to its ping.
                heard = len(other.received)
                await other.ask({"type": "ping"})
                assert [m["type"] for m in other.received[heard:]] == ["pong"]
                if phase == 0:  # the seat to play moves on until the fuzzer's turn comes
                    while not fuzzer.state.my_turn:
                        mover = a if a.state.my_turn else b
                        await mover.send({"type": "act", "step": mover.state.step,
                                          "action": mover.state.legal[0]})
                        for p in (a, b):
                            await p.until(lambda m: m["type"] == "state")
            assert sent == 1000
            # The game plays on to its end.
            while room.status != "over":
                mover = a if a.state.my_turn else b
                await mover.send({"type": "act", "step": mover.state.step, "action": mover.state.legal[0]})
                for p in (a, b):
                    await p.until(lambda m: m["type"] == "state")
            assert a.state.result == b.state.result and a.state.result["winners"]
    run(go())


def test_a_client_that_keeps_sending_garbage_is_disconnected_and_the_server_goes_on(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            bad = await Peer.open(server.url)
            for i in range(pr.MAX_STRIKES):
                await bad.send_raw("garbage " * (i + 1))
            errors = 0
            closed = None
            try:
                while True:
                    msg = await bad.next()
                    errors += msg["type"] == "error"
            except Exception as exc:  # the server closed the connection
                closed = exc
            assert errors == pr.MAX_STRIKES
            assert getattr(getattr(closed, "rcvd", None), "code", None) == 1008
            # Everyone else is still served.
            result = await play(PlayOptions(server.url, "sumo", "random", fill="random"))
            assert result["winners"]
    run(go())


def test_server_bots_fill_empty_seats_and_spectators_see_the_game(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            watcher = await Peer.open(server.url)
            started = wait_for_event(server, "started")
            task = asyncio.ensure_future(play(PlayOptions(server.url, "sumida-river", "heuristic",
                                                          players=3, fill="heuristic")))
            room = await asyncio.wait_for(started, 60)
            await watcher.ask({"type": "watch", "room": room.code})
            result = await task
            while watcher.state.status != "over":
                await watcher.next()
            assert [s["bot"] for s in watcher.state.seats] == [None, "heuristic", "heuristic"]
            assert watcher.state.result["winners"] == result["winners"]
            assert watcher.state.view["seat"] is None and "hand" not in watcher.state.view
    run(go())


def test_a_room_everybody_left_is_kept_a_while_then_saved_and_closed(tmp_path):
    async def go():
        async with served(tmp_path, linger=0.05) as server:
            a, b, code = await _room_of_two(server.url, "sumo")
            token = a.state.token
            mover = a if a.state.my_turn else b
            await mover.send({"type": "act", "step": 0, "action": mover.state.legal[0]})
            await mover.until(lambda m: m["type"] == "state")
            closed = wait_for_event(server, "closed", code)
            await a.close()
            await b.close()
            room = await asyncio.wait_for(closed, 60)
            assert code not in server.rooms and room.status == "closed"
            # Saved: the room file says so, and the record holds the action played.
            meta = json.loads((tmp_path / "rooms" / f"{code}.json").read_text())
            record = json.loads((tmp_path / "replays" / meta["record"]).read_text())
            assert meta["status"] == "closed" and len(record["actions"]) == 1
            again = await Peer.open(server.url)
            assert error_reply(await again.ask({"type": "resume", "room": code, "token": token}), "no-room")

        # Kept for a while: with the default linger, the room is still there after everybody left.
        async with served(tmp_path) as server:
            a, b, code = await _room_of_two(server.url, "sumo")
            await a.close()
            await b.close()
            c = await Peer.open(server.url)
            back = await c.ask({"type": "resume", "room": code, "token": a.state.token})
            assert back["type"] == "joined"
    run(go())


def test_a_room_whose_game_never_started_closes_sooner_than_a_game_everybody_left(tmp_path):
    async def go():
        async with served(tmp_path, empty_linger=0.05) as server:
            # A game under way that everybody left: kept (the default linger) for its players.
            a, b, playing = await _room_of_two(server.url, "kabuto")
            await a.close()
            await b.close()
            # A room waiting for a second player, whose host's connection is gone: closed soon.
            host = await Peer.open(server.url)
            waiting = (await host.ask({"type": "create", "game": "kabuto"}))["room"]
            closed = wait_for_event(server, "closed", waiting)
            await host.close()
            room = await asyncio.wait_for(closed, 60)
            assert room.status == "closed" and waiting not in server.rooms
            # Its game never started: nothing to keep, so its room file is gone too.
            assert not (tmp_path / "rooms" / f"{waiting}.json").exists()
            back = await Peer.open(server.url)
            assert error_reply(await back.ask({"type": "resume", "room": waiting,
                                               "token": host.state.token}), "no-room")
            assert (await back.ask({"type": "resume", "room": playing, "token": a.state.token}))["type"] == "joined"

        # A waiting room whose only player gave the seat up (leave) holds no seat for anybody:
        # it closes at once, even with a long wait for rooms that never started.
        async with served(tmp_path, empty_linger=300.0) as server:
            host = await Peer.open(server.url)
            code = (await host.ask({"type": "create", "game": "sumo"}))["room"]
            closed = wait_for_event(server, "closed", code)
            assert (await host.ask({"type": "leave"}))["type"] == "left"
            await asyncio.wait_for(closed, 60)
            assert code not in server.rooms
            # One who only lost the connection keeps the seat for the empty-room wait.
            code = (await host.ask({"type": "create", "game": "sumo"}))["room"]
            await host.close()
            again = await Peer.open(server.url)
            assert (await again.ask({"type": "resume", "room": code, "token": host.state.token}))["type"] == "joined"
    run(go())


def test_kabuto_refusals_change_nothing_and_every_seat_sees_each_push_with_its_trajectory(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            a, b, code = await _room_of_two(server.url, "kabuto")
            watcher = await Peer.open(server.url)
            await watcher.ask({"type": "watch", "room": code})
            await watcher.until(lambda m: m["type"] == "state")
            mover, waiter = (a, b) if a.state.my_turn else (b, a)
            push = {"type": "push", "piece": "small", "entry_deg": 180.0, "speed": 0.3}
            before = server.rooms[code].table.clone_game().to_json()
            assert error_reply(await waiter.ask({"type": "act", "step": 0, "action": push}), "not-your-turn")
            assert error_reply(await mover.ask({"type": "act", "step": 1, "action": push}), "stale")
            for bad in ({**push, "piece": "nothing-like-it"}, {**push, "speed": 50.0}, {"type": "end_turn"},
                        "play 2C", {"type": "move", "name": "No Such Move"}):
                assert error_reply(await mover.ask({"type": "act", "step": 0, "action": bad}), "illegal"), bad
            assert server.rooms[code].table.clone_game().to_json() == before
            await mover.send({"type": "act", "step": 0, "action": push})
            seen = [await p.until(lambda m: m["type"] == "state") for p in (a, b, watcher)]
            assert len({json.dumps(m, sort_keys=True) for m in seen}) == 1, "the same for all"
            last = seen[0]["last"]
            assert last["seat"] == mover.state.seat and last["action"] == push and last["trajectory"]["pieces"]
            # The push ended the turn: the step counts both (a step is an entry of the history).
            history = seen[0]["view"]["history"]
            assert seen[0]["step"] == len(history) == 2 and [h["type"] for h in history] == ["push", "end_turn"]
            assert seen[0]["to_play"] == waiter.state.seat
    run(go())
