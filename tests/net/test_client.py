"""The client side: a front end's thread-driven client plays a whole game, and every kind of Kabuto
Sumo room (3 and 4 players, Junior League) plays to its end and is recorded as a replay."""
from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Iterator

import pytest

from kabuto.net.bots import client_card_action
from kabuto.net.client import ClientThread, PlayOptions, RoomState, play
from kabuto.net.server import Server, ServerConfig
from kabuto.replay import format as rp
from tests.net.helpers import WAIT, run, served, wait_for_event


@contextlib.contextmanager
def server_thread(tmp_path) -> Iterator[Server]:
    """A server on an event loop of its own thread, as a front end's tests need (the front end's
    thread stays free to block on its client)."""
    loop = asyncio.new_event_loop()
    server = Server(ServerConfig(port=0, data_dir=tmp_path))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    asyncio.run_coroutine_threadsafe(server.start(), loop).result(WAIT)
    try:
        yield server
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(WAIT)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(WAIT)
        loop.close()


def test_a_front_end_thread_plays_a_whole_card_game_through_client_thread(tmp_path):
    """What a pyglet screen does each frame: poll the messages, fold them into a RoomState, send
    an action when it is its turn - here from the test's own thread, blocking on wait()."""
    with server_thread(tmp_path) as server:
        client = ClientThread(server.url)
        state = RoomState()
        rng = random.Random(3)
        try:
            client.send({"type": "create", "game": "sumo-card-game", "name": "Front End"})
            client.send({"type": "fill", "bot": "random"})
            acted = -1
            for _ in range(2000):  # a bound on the messages, never reached by a whole game
                msgs = client.wait(WAIT)
                assert msgs, "the server went quiet"
                for msg in msgs:
                    assert msg["type"] not in ("error", "closed"), msg
                    state.apply(msg)
                if state.status == "over":
                    break
                if state.my_turn and acted != state.step:
                    acted = state.step
                    client.send({"type": "act", "step": state.step, "action": client_card_action(
                        "sumo-card-game", "heuristic", state.seat, state.view, state.legal, rng)})
        finally:
            client.close()
    assert state.status == "over" and state.result["winners"]
    assert state.seats[0]["name"] == "Front End" and state.seats[1]["bot"] == "random"
    assert client.poll()[-1]["type"] == "closed"


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, {}), (2, {"junior": True})])
def test_every_kind_of_kabuto_room_plays_to_its_end_and_is_recorded(tmp_path, players, options):
    async def go():
        async with served(tmp_path) as server:
            over = wait_for_event(server, "over")  # the room leaves the server as its game ends
            result = await play(PlayOptions(server.url, "kabuto", "random", players=players,
                                            fill="random", options=options))
            room = await over
            assert room.code == result["room"]
            return result, room.table.recorder.path
    result, path = run(go())
    # Random bots (dealt from `secrets`) may end a 3P game in the rulebook's draw: one push knocks
    # out the pusher's own wrestler and every other still in the game; nobody wins it.
    draw = players == 3 and result["result"].endswith(": a draw")
    assert result["players"] == players and (bool(result["winners"]) != draw) and result["result"]
    replay = rp.load(path)
    assert (replay.setup.players, replay.setup.junior) == (players, bool(options.get("junior")))
    assert len(replay.actions) == result["steps"] and rp.verify(replay).ok
