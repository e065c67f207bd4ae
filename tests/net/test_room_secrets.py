"""Deals and bots come from a per-room secret (issue 45 point 3): nothing a client is sent seeds the
server's bots, a deal is not one of 2^31, and a finished room's record still reproduces its game."""
from __future__ import annotations

import json

import cards
from kabuto.net.bots import plan_actions
from kabuto.net.tables import record_seed
from kabuto.rules.game import Game
from tests.net.helpers import Peer, against_a_bot, run, served, wait_for_event


def _foretold(view: dict, step: int) -> list[dict]:
    """What a client could once work out of a Kabuto state: the server bot's turn, planned with
    the seed the state shows (the room's seed seeded the bots too)."""
    seed = view["setup"]["seed"]
    return plan_actions(Game.from_json(view), "random", (seed * 1_000_003 + step * 7) % 2**31)


def test_a_kabuto_state_does_not_foretell_the_servers_bot(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            states, seat = await against_a_bot(
                server.url, lambda seen, seat: sum(s["to_play"] == 1 - seat for s in seen) >= 4)
            return states, 1 - seat

    states, bot = run(go())
    triples = zip(states, states[1:], states[2:], strict=False)
    turns = [(before, after["last"]["action"]) for prev, before, after in triples
             if before["to_play"] == bot and prev["to_play"] != bot and after["last"]["seat"] == bot]
    if states[0]["to_play"] == bot:
        turns.append((states[0], states[1]["last"]["action"]))
    assert turns, "the bot never began a turn"
    for before, played in turns:
        assert _foretold(before["view"], before["step"])[0] != played


def test_card_deals_come_from_256_bit_secrets_and_their_records_replay_them(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            codes = []
            for _ in range(3):
                me = await Peer.open(server.url)
                code = (await me.ask({"type": "create", "game": "sumo"}))["room"]
                over = wait_for_event(server, "over", code)
                await me.ask({"type": "fill", "bot": "random"})
                while me.state.status != "over":
                    msg = await me.until(lambda m: m["type"] == "state")
                    if me.state.my_turn and me.state.status == "playing":
                        await me.send({"type": "act", "step": msg["step"], "action": me.state.legal[0]})
                await over
                codes.append((code, me.state.view))
                await me.close()
            return codes

    rooms = run(go())
    # The secrets are on disk: the data folder is the server's account's alone.
    assert tmp_path.stat().st_mode & 0o077 == 0, oct(tmp_path.stat().st_mode)
    seeds = []
    for code, last_view in rooms:
        room = json.loads((tmp_path / "rooms" / f"{code}.json").read_text())
        assert "seed" not in room and len(room["secret"]) == 64
        record = json.loads((tmp_path / "replays" / room["record"]).read_text())
        seed = record_seed(record)
        seeds.append(seed)
        # The finished room's record holds all it takes to play its game again, to the same end.
        game = cards.GAMES["sumo"].new(2, seed)
        for a in record["actions"]:
            game.apply(a["action"])
        assert game.is_over and game.observation(0)["hand"] == last_view["hand"]
    # 256-bit seeds: three below 2^200 would happen once in 2^168 runs.
    assert all(s.bit_length() > 200 for s in seeds), [s.bit_length() for s in seeds]
    assert len(set(seeds)) == 3
