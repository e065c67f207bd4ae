"""Hidden cards stay hidden: whole card games played over the socket, every message every seat and a
spectator received checked against the game's true state at that step (rebuilt from the server's
record of the game)."""
from __future__ import annotations

import json
import random

import pytest

import cards
from kabuto.net.bots import client_card_action
from kabuto.net.tables import record_seed
from tests.net.helpers import Peer, run, secrets_by_step, served, tokens

SETUPS = [("sumo", 2, 11), ("sumo-card-game", 2, 12), ("sumida-river", 3, 13), ("sumida-river", 4, 14)]


async def _seat_plays(peer: Peer, game: str, rng: random.Random) -> None:
    """Play one seat from what it is sent (the heuristic reads only its observation)."""
    while peer.state.status != "over":
        msg = await peer.next()
        st = peer.state
        if msg["type"] == "state" and st.my_turn:
            action = client_card_action(game, "heuristic", st.seat, st.view, st.legal, rng)
            await peer.send({"type": "act", "step": st.step, "action": action})
        assert msg["type"] != "error", msg


async def _watch(peer: Peer) -> None:
    while peer.state.status != "over":
        await peer.next()


def _states(record: dict) -> list:
    """The game after each step of the record (a copy per step)."""
    g = cards.GAMES[record["game"]].new(record["players"], record_seed(record), **record["options"])
    out = [g.clone()]
    for a in record["actions"]:
        g.apply(a["action"])
        out.append(g.clone())
    return out


def _normal(x):
    return json.loads(json.dumps(x))


@pytest.mark.parametrize(("game", "players", "seed"), SETUPS)
def test_no_message_to_a_seat_holds_another_seats_hidden_cards(tmp_path, game, players, seed):
    async def go():
        async with served(tmp_path, seed=seed) as server:
            peers = [await Peer.open(server.url) for _ in range(players)]
            joined = await peers[0].ask({"type": "create", "game": game, "players": players})
            code = joined["room"]
            spectator = await Peer.open(server.url)
            assert (await spectator.ask({"type": "watch", "room": code}))["type"] == "watching"
            for p in peers[1:]:
                assert (await p.ask({"type": "join", "room": code}))["type"] == "joined"
            import asyncio

            await asyncio.gather(*(_seat_plays(p, game, random.Random(seed * 10 + i))
                                   for i, p in enumerate(peers)), _watch(spectator))
            for p in (*peers, spectator):
                await p.close()
            return code, peers, spectator

    code, peers, spectator = run(go())
    (path,) = (tmp_path / "replays").glob(f"*-{code}.cards.json")
    record = json.loads(path.read_text())
    states = _states(record)
    assert states[-1].is_over, "the recorded game is a whole game"
    for who, peer in [*((p.state.seat, p) for p in peers), (None, spectator)]:
        merged: list = []
        seen_steps = []
        secret = secrets_by_step(states, who)
        for msg in peer.received:
            if msg["type"] != "state":
                continue
            step = msg["step"]
            g = states[step]
            seen_steps.append(step)
            leaked = tokens(msg) & secret[step]
            assert not leaked, f"seat {who} was sent {sorted(leaked)} at step {step}: {msg}"
            merged = merged[: msg["events_from"]] + msg["view"]["events"]
            if who is not None:
                # Exactly the seat's observation, and its legal actions only on its turn.
                assert _normal(dict(msg["view"], events=merged)) == _normal(g.observation(who))
                assert ("legal" in msg) == (g.to_play == who)
                if "legal" in msg:
                    assert msg["legal"] == g.legal_actions()
            else:
                assert "legal" not in msg
                assert merged == [e for e in g.events if "to" not in e]
        # Every step reached everyone, in order, once.
        assert seen_steps == list(range(len(states))), seen_steps[:20]
