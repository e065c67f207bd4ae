"""A hostile client against the server's quotas (issue #45): each test mounts one attack on loopback
and checks what a player would notice - the attacker refused, dropped or slowed, and everybody
else served. Hostile clients come from addresses of their own (127.0.0.2 and up: every 127/8
address is this machine), so per-address quotas are seen to spare the other addresses."""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket

import pytest
from websockets.exceptions import ConnectionClosed

from kabuto.net.client import PlayOptions, play
from kabuto.net.limits import Bucket, Limits, quota_address
from tests.net.helpers import WAIT, Peer, error_reply, run, served, wait_for_event

#: No message rate, for the tests of other quotas that send many messages.
UNLIMITED_RATE = {"rate": 1e6, "burst": 10**6, "address_rate": 1e6, "address_burst": 10**6}


async def raw(url: str, source: str = "127.0.0.1", reader: bool = True,
              headers: dict[str, str] | None = None) -> tuple[object, dict]:
    """A bare connection from ``source``, and the first message the server sent it. Not a
    ``reader``: a client that stops reading after that message, with a small socket buffer (as a
    slow link has) and no compression (which would shrink a repeated reply to almost nothing), so
    what it is sent piles up at the server."""
    from websockets.asyncio.client import connect

    host, port = url.removeprefix("ws://").rsplit(":", 1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if not reader:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
    sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    ws = await connect(url, sock=sock, max_queue=16 if reader else 1, max_size=None, proxy=None,
                       compression="deflate" if reader else None, additional_headers=headers)
    return ws, json.loads(await asyncio.wait_for(ws.recv(), WAIT))


def msg(kind: str, **fields) -> str:
    return json.dumps({"v": 1, "type": kind, **fields})


async def ask(ws, kind: str, **fields) -> dict:
    """Send one message with an id and read until its reply."""
    rid = fields.setdefault("id", f"q{os.urandom(4).hex()}")
    await ws.send(msg(kind, **fields))
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if reply.get("re") == rid:
            return reply


async def closed_code(ws) -> int | None:
    """Read until the server closes the connection; its close code."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), WAIT)
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd else None


async def until(condition) -> None:
    """Wait (bounded) until ``condition()`` holds of the server (which shares this event loop)."""
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.01)


# ----- rooms that outlive their request -----------------------------------------------------------------
def test_refused_creates_leave_no_room_behind_and_the_server_stays_open(tmp_path):
    """Attack: hundreds of creates the server refuses (a seat the game has not, options of the
    wrong type) on a server of 10 rooms. Each used to leave a room behind until the server was full."""
    async def go():
        async with served(tmp_path, max_rooms=10, limits=Limits(strikes=10**6, **UNLIMITED_RATE)) as server:
            bad, _ = await raw(server.url, "127.0.0.2")
            for _ in range(100):
                for wrong in ({"game": "sumo", "seat": 7}, {"game": "sumo-card-game", "options": {"jokers": 1}},
                              {"game": "kabuto", "players": 2, "seat": 5}):
                    reply = await ask(bad, "create", **wrong)
                    assert reply["type"] == "error" and reply["code"] in ("room-full", "bad-message"), reply
            assert server.rooms == {} and list((tmp_path / "rooms").glob("*.json")) == []
            other = await Peer.open(server.url)
            assert (await other.ask({"type": "create", "game": "sumo"}))["type"] == "joined"
    run(go())


def test_an_option_of_the_wrong_type_is_refused_at_create_with_a_clear_error(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            p = await Peer.open(server.url)
            for kind in ("create", "join"):
                reply = await p.ask({"type": kind, "game": "sumo-card-game", "options": {"jokers": 1}})
                assert error_reply(reply, "bad-message"), reply
                assert reply["message"] == "options.jokers: expected true or false, got a number"
            assert server.rooms == {}
            # The right type makes the room, which says what it plays with.
            joined = await p.ask({"type": "create", "game": "sumo-card-game", "options": {"jokers": True}})
            assert joined["options"] == {"jokers": True}
            q = await Peer.open(server.url)
            # A join asking for 1 is not matched into it: 1 is not true.
            assert error_reply(await q.ask({"type": "join", "game": "sumo-card-game", "options": {"jokers": 1}}),
                               "bad-message")
            assert len(server.rooms) == 1
    run(go())


# ----- a client that floods and does not read ----------------------------------------------------------
def test_a_client_flooding_list_without_reading_is_dropped_and_a_quiet_room_plays_on(tmp_path, caplog):
    """Attack: 60 public rooms, and one client sending ``list`` as fast as it can without reading
    a reply. It used to be buffered without limit (hundreds of MB) while every room stalled; now
    its unread replies pass the send queue's bound and it is dropped, with its backlog."""
    limits = Limits(**UNLIMITED_RATE, setting_up=100, held=100, send_queue=256 * 1024)

    async def go():
        async with served(tmp_path, limits=limits) as server:
            hosts = [await Peer.open(server.url) for _ in range(60)]
            for h in hosts:
                await h.ask({"type": "create", "game": "sumida-river", "players": 4, "name": "Host"})
            a, b = await Peer.open(server.url), await Peer.open(server.url)
            code = (await a.ask({"type": "create", "game": "sumo", "private": True}))["room"]
            await b.ask({"type": "join", "room": code})
            for p in (a, b):
                await p.until(lambda m: m["type"] == "state")
            flooder, _ = await raw(server.url, "127.0.0.2", reader=False)
            with contextlib.suppress(ConnectionClosed):
                for _ in range(5_000):  # about 100 MB of replies, were they all kept
                    await asyncio.wait_for(flooder.send(msg("list")), WAIT)
                    await asyncio.sleep(0)  # the server shares this event loop: its turn
            # The server works through what it has read, and drops the client on the way.
            await until(lambda: not any(c.guard.host == "127.0.0.2" for c in server.clients))
            # The quiet room plays on, and a new client is welcomed.
            mover = a if a.state.my_turn else b
            await mover.send({"type": "act", "step": mover.state.step, "action": mover.state.legal[0]})
            for p in (a, b):
                assert (await p.until(lambda m: m["type"] == "state"))["step"] == 1
            newcomer = await Peer.open(server.url)
            assert (await newcomer.ask({"type": "ping"}))["type"] == "pong"

    with caplog.at_level(logging.WARNING):
        run(go())
    # What a closed connection had sent was not worked through (no writes to a dead socket).
    assert not [r for r in caplog.records if "socket.send() raised exception" in r.getMessage()]
    # It was dropped with no more than the send queue's bound waiting for it.
    (drop,) = [r.getMessage() for r in caplog.records if "unread, dropped" in r.getMessage()]
    assert int(drop.split(": ")[1].split(" bytes")[0]) <= limits.send_queue, drop


def test_a_connection_over_its_message_rate_is_slowed_not_the_others():
    """The token bucket a connection's messages draw on (a clock of our own: no waiting)."""
    now = [0.0]
    b = Bucket(rate=20.0, size=40, clock=lambda: now[0])
    assert [b.take() for _ in range(40)] == [0.0] * 40  # a burst is served at once
    assert b.take() == pytest.approx(1 / 20)  # then one message every 1/20 s
    assert b.take() == pytest.approx(2 / 20)
    now[0] += 10.0
    assert b.take() == 0.0 and b.level == pytest.approx(39.0)  # refilled, never past its size


def test_a_flooding_connection_waits_for_its_rate_while_another_is_answered(tmp_path):
    """Attack: 10 pings at once on a server that allows 5 at once and then one every 20 s. The
    first five are answered; the sixth waits - and meanwhile another client is answered at once."""
    async def go():
        async with served(tmp_path, limits=Limits(rate=0.05, burst=5)) as server:
            flood, _ = await raw(server.url, "127.0.0.2")
            for i in range(10):
                await flood.send(msg("ping", id=str(i)))
            answered = [json.loads(await asyncio.wait_for(flood.recv(), WAIT))["re"] for _ in range(5)]
            assert answered == ["0", "1", "2", "3", "4"]
            other = await Peer.open(server.url)
            assert (await other.ask({"type": "ping"}))["type"] == "pong"
            with pytest.raises(TimeoutError):  # the sixth is 20 s away
                await asyncio.wait_for(flood.recv(), 1.0)
    run(go())


def test_connections_of_one_address_share_its_message_rate(tmp_path):
    """Attack: the same flood spread over many connections, to multiply the rate. They share their
    address's budget: 6 at once, then one every 20 s, for all of them together."""
    async def go():
        async with served(tmp_path, limits=Limits(address_rate=0.05, address_burst=6)) as server:
            floods = [(await raw(server.url, "127.0.0.2"))[0] for _ in range(4)]
            for i in range(4):
                for ws in floods:
                    await ws.send(msg("ping", id=str(i)))
            # Six answers in all, however the connections share them; the others wait 20 s each.
            async def answers(ws) -> int:
                n = 0
                with contextlib.suppress(TimeoutError):
                    while True:
                        await asyncio.wait_for(ws.recv(), 1.0)
                        n += 1
                return n

            assert sum(await asyncio.gather(*(answers(ws) for ws in floods))) == 6
            other = await Peer.open(server.url)
            assert (await other.ask({"type": "ping"}))["type"] == "pong"
    run(go())


def test_one_address_opening_connections_in_a_loop_is_turned_away(tmp_path):
    async def go():
        async with served(tmp_path, limits=Limits(connect_rate=0.05, connect_burst=3)) as server:
            answers = []
            for _ in range(5):
                ws, first = await raw(server.url, "127.0.0.2")
                answers.append(first["type"] if first["type"] == "welcome" else first["message"])
                await ws.close()
            assert answers[:3] == ["welcome"] * 3
            assert answers[3:] == ["your address opened too many connections lately: try again in a few "
                                   "seconds"] * 2
            assert (await raw(server.url, "127.0.0.3"))[1]["type"] == "welcome"
    run(go())


# ----- using up connections and rooms -------------------------------------------------------------------
def test_one_address_cannot_take_every_connection(tmp_path):
    """Attack: idle connections from one address, more than its quota. The quota's worth are
    welcomed, the rest are told the server is busy and closed (1013); another address connects."""
    async def go():
        async with served(tmp_path) as server:
            cap = server.config.limits.connections
            held, refused = [], 0
            for _ in range(cap + 10):
                ws, first = await raw(server.url, "127.0.0.2")
                if first["type"] == "welcome":
                    held.append(ws)
                else:
                    assert error_reply(first, "busy") and "connections open already" in first["message"]
                    assert await closed_code(ws) == 1013
                    refused += 1
            assert (len(held), refused) == (cap, 10)
            ws, first = await raw(server.url, "127.0.0.3")
            assert first["type"] == "welcome"
            # One of them closes: its address may connect once more.
            await held.pop().close()
            await until(lambda: sum(c.guard.host == "127.0.0.2" for c in server.clients) < cap)
            ws, first = await raw(server.url, "127.0.0.2")
            assert first["type"] == "welcome"
            for w in held:
                await w.close()
    run(go(), timeout=WAIT * 4)


def test_behind_a_trusted_proxy_quotas_count_the_address_it_forwards_and_no_one_else_can_forge_it(tmp_path):
    async def go():
        async with served(tmp_path, limits=Limits(connections=2), trusted_proxies=("127.0.0.9",)) as server:
            async def welcomed(source: str, forwarded: str) -> bool:
                ws, first = await raw(server.url, source, headers={"X-Forwarded-For": forwarded})
                return first["type"] == "welcome"

            # Through the proxy: two connections for each player's address, whoever else is behind it.
            assert [await welcomed("127.0.0.9", "10.0.0.5") for _ in range(3)] == [True, True, False]
            assert await welcomed("127.0.0.9", "192.0.2.1, 10.0.0.6")  # the last hop is the one counted
            # From anyone else the header is ignored: the peer's own address counts.
            assert [await welcomed("127.0.0.3", f"10.1.0.{i}") for i in range(3)] == [True, True, False]
    run(go())


@pytest.mark.parametrize(("peer", "counted"), [
    ("203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),  # the same line: counted together
    ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
    ("::ffff:198.51.100.4", "198.51.100.4"),  # IPv4 seen through an IPv6 socket
    ("not an address", "not an address"),
])
def test_ipv6_addresses_are_counted_by_their_64_network(peer, counted):
    """One IPv6 subscriber has a whole /64: rotating through it must not multiply the quotas."""
    assert quota_address(peer) == counted


def test_create_fill_leave_in_a_loop_cannot_use_up_the_rooms(tmp_path):
    """Attack: create -> fill with bots -> leave, 40 times, on a server of 20 rooms. The address
    holds seats in at most ``held`` rooms and sets up at most ``setting_up``; it is refused past
    them, and another address still makes a room."""
    limits = Limits(held=5, setting_up=2, **UNLIMITED_RATE, strikes=10**6)

    async def go():
        async with served(tmp_path, max_rooms=20, limits=limits) as server:
            ws, _ = await raw(server.url, "127.0.0.2")
            made = busy = 0
            for _ in range(40):
                reply = await ask(ws, "create", game="sumo", private=True)
                if reply["type"] == "joined":
                    made += 1
                    assert (await ask(ws, "fill", bot="random"))["type"] == "filled"
                    assert (await ask(ws, "leave"))["type"] == "left"
                else:
                    assert error_reply(reply, "busy") and "holds seats in 5 rooms" in reply["message"]
                    busy += 1
            assert (made, busy) == (5, 35) and len(server.rooms) == 5
            # Setting up: two waiting rooms at most.
            ws2, _ = await raw(server.url, "127.0.0.3")
            ws3, _ = await raw(server.url, "127.0.0.3")
            ws4, _ = await raw(server.url, "127.0.0.3")
            assert (await ask(ws2, "create", game="sumo"))["type"] == "joined"
            assert (await ask(ws3, "create", game="sumo"))["type"] == "joined"
            reply = await ask(ws4, "create", game="sumo")
            assert error_reply(reply, "busy") and "setting up 2 rooms" in reply["message"]
            other = await Peer.open(server.url)
            assert (await other.ask({"type": "create", "game": "sumo"}))["type"] == "joined"
    run(go())


def test_a_finished_game_frees_its_room_at_once(tmp_path):
    """Finished games used to keep their room for the linger time (300 s): a server of one room
    refused every game after the first. Now the room leaves as its game ends (its record saved)."""
    async def go():
        async with served(tmp_path, max_rooms=1) as server:
            for _ in range(3):
                closed = wait_for_event(server, "closed")
                result = await play(PlayOptions(server.url, "sumo", "random", fill="random"))
                room = await asyncio.wait_for(closed, WAIT)
                assert room.code == result["room"] and room.status == "over" and server.rooms == {}
                meta = json.loads((tmp_path / "rooms" / f"{room.code}.json").read_text())
                assert meta["status"] == "over" and (tmp_path / "replays" / meta["record"]).exists()
    run(go())


def test_a_full_server_closes_rooms_nobody_is_in_to_make_way_for_new_games(tmp_path):
    """Attack: games started and abandoned (create -> fill -> drop the connection) from several
    addresses until the server is full. Rooms nobody is in used to keep their slot for the linger
    time (300 s), and new games got ``busy``; now the longest-abandoned one makes way, saved."""
    async def go():
        async with served(tmp_path, max_rooms=3) as server:
            abandoned, tokens = [], []
            for i in range(3):
                ws, _ = await raw(server.url, f"127.0.0.{2 + i}")
                joined = await ask(ws, "create", game="sumo")
                abandoned.append(joined["room"])
                tokens.append(joined["token"])
                assert (await ask(ws, "fill", bot="random"))["type"] == "filled"
                await ws.close()
            await until(lambda: all(server.rooms[c].linger is not None for c in abandoned))
            closed = wait_for_event(server, "closed", abandoned[0])
            newcomer = await Peer.open(server.url)
            assert (await newcomer.ask({"type": "create", "game": "sumo"}))["type"] == "joined"
            room = await asyncio.wait_for(closed, WAIT)
            assert room.status == "closed" and sorted(server.rooms) == sorted([*abandoned[1:], newcomer.state.room])
            assert json.loads((tmp_path / "rooms" / f"{abandoned[0]}.json").read_text())["status"] == "closed"
            # A room somebody is in is never closed for another: with its players back in both
            # others, the server is full, and the next create is busy.
            for code, token in zip(abandoned[1:], tokens[1:], strict=True):
                back = await Peer.open(server.url)
                assert (await back.ask({"type": "resume", "room": code, "token": token}))["type"] == "joined"
            late = await Peer.open(server.url)
            assert error_reply(await late.ask({"type": "create", "game": "sumo"}), "busy")
    run(go())


# ----- room files ---------------------------------------------------------------------------------------
def test_room_files_of_rooms_that_never_started_are_deleted_as_they_close(tmp_path):
    """Attack: create -> leave, 60 times. Each used to leave a room file for ever."""
    async def go():
        async with served(tmp_path, limits=Limits(**UNLIMITED_RATE)) as server:
            p = await Peer.open(server.url)
            for _ in range(60):
                code = (await p.ask({"type": "create", "game": "sumo"}))["room"]
                closed = wait_for_event(server, "closed", code)
                assert (await p.ask({"type": "leave"}))["type"] == "left"
                await asyncio.wait_for(closed, WAIT)
            return list((tmp_path / "rooms").glob("*.json"))
    assert run(go()) == []


def test_finished_room_files_are_pruned_to_the_newest_and_live_rooms_keep_theirs(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            p = await Peer.open(server.url)
            return (await p.ask({"type": "create", "game": "sumo"}))["room"]
    waiting = run(go())
    folder = tmp_path / "rooms"
    template = json.loads((folder / f"{waiting}.json").read_text())
    finished = []
    for i in range(30):
        code = f"DONE{i:02d}".replace("0", "A").replace("1", "B")
        (folder / f"{code}.json").write_text(json.dumps({**template, "room": code, "status": "over"}))
        os.utime(folder / f"{code}.json", (1_000_000 + i, 1_000_000 + i))
        finished.append(code)

    async def again():
        async with served(tmp_path, limits=Limits(keep_room_files=10)) as server:
            assert waiting in server.rooms
            return sorted(p.stem for p in folder.glob("*.json"))
    assert run(again()) == sorted([waiting, *finished[-10:]])


# ----- guessing -----------------------------------------------------------------------------------------
def test_pings_do_not_reset_the_count_of_refused_messages(tmp_path):
    """Attack: garbage with a ping after every one. A ping used to wipe the count, so the garbage
    went on for ever; now the connection is closed (1008) after ``strikes`` refused messages."""
    async def go():
        async with served(tmp_path, limits=Limits(strike_drain=3600.0)) as server:
            ws, _ = await raw(server.url, "127.0.0.2")
            sent = 0
            try:
                while sent < 200:
                    await ws.send("garbage")
                    sent += 1
                    assert (await ask(ws, "ping"))["type"] == "pong"
            except ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code == 1008
                return sent
            raise AssertionError("200 refused messages, and still connected")
    assert run(go()) == Limits().strikes


def test_guessing_room_codes_is_bounded_per_address(tmp_path):
    """Attack: join with made-up room codes, a ping between guesses, new connections when closed.
    It used to be free (10,800 guesses a second); now an address gets ``misses`` wrong codes, then
    one per ``miss_drain`` seconds - each further guess closes its connection."""
    async def go():
        async with served(tmp_path, limits=Limits(miss_drain=3600.0)) as server:
            host = await Peer.open(server.url)
            real = (await host.ask({"type": "create", "game": "sumo", "private": True}))["room"]
            answered = 0
            for attempt in range(5):
                ws, _ = await raw(server.url, "127.0.0.2")
                try:
                    for i in range(100):
                        code = f"ZZ{attempt}{i:03d}".translate(str.maketrans("01", "AB"))
                        reply = await ask(ws, "join", room=code)
                        assert error_reply(reply, "no-room")
                        answered += 1
                        await ask(ws, "ping")
                except ConnectionClosed as exc:
                    assert exc.rcvd is not None and exc.rcvd.code == 1008
            # Another address is not held up by it, and finds the room by its code.
            guest = await Peer.open(server.url)
            assert (await guest.ask({"type": "join", "room": real}))["type"] == "joined"
            return answered
    # 20 guesses, then one per new connection (each closes it).
    assert run(go()) == Limits().misses + 4


# ----- names --------------------------------------------------------------------------------------------
def test_names_that_look_like_another_seat_or_a_bot_are_refused(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            host = await Peer.open(server.url)
            code = (await host.ask({"type": "create", "game": "sumida-river", "players": 4,
                                    "name": "Ｂｏｂ  the  Bold"}))["room"]
            assert server.rooms[code].seats[0].name == "Bob the Bold"  # NFKC, spaces made one
            guest = await Peer.open(server.url)
            for name in ("Bot 2", "bot", "B0T 3", "Вот 2", "Player 1", "   ", "bob the bold", "Bob the BoId",
                         "Воb the Bold", "ＢＯＢ ＴＨＥ ＢＯＬＤ", "B.o.b the Bold"):
                reply = await guest.ask({"type": "join", "room": code, "name": name})
                assert error_reply(reply, "bad-message") and reply["message"].startswith("name:"), (name, reply)
            assert [s.taken for s in server.rooms[code].seats] == [True, False, False, False]
            joined = await guest.ask({"type": "join", "room": code, "name": "Саша"})
            assert joined["type"] == "joined"
            await host.ask({"type": "fill", "bot": "random"})
            seats = [s.name for s in server.rooms[code].seats]
            assert seats == ["Bob the Bold", "Саша", "Bot 3", "Bot 4"]
    run(go())


# ----- docs and behaviour -------------------------------------------------------------------------------
def test_errors_to_malformed_messages_name_them_and_huge_numbers_are_bad_json(tmp_path):
    async def go():
        async with served(tmp_path) as server:
            ws, _ = await raw(server.url)
            await ws.send(json.dumps({"v": 1, "type": "join", "seat": "one", "id": "q7"}))
            reply = json.loads(await ws.recv())
            assert reply["code"] == "bad-message" and reply["re"] == "q7"
            await ws.send(json.dumps({"v": 1, "type": "wave", "id": "q8"}))
            assert json.loads(await ws.recv())["re"] == "q8"
            await ws.send('{"v": 1, "type": "act", "step": 1e400, "action": "x", "id": "q9"}')
            reply = json.loads(await ws.recv())
            assert reply["code"] == "bad-json" and "re" not in reply  # the id was never read
    run(go())
