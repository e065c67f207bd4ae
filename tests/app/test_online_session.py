"""Online play without a window or a server: the table's flow over an OnlineSession fed the
messages a server sends (built here as the server builds them, from a game of its own), the
connection's reconnection, and what the app remembers."""
from __future__ import annotations

import math
import os
import stat

import pytest

from kabuto.app.aim import Aim
from kabuto.app.online import RETRY_EVERY, Link, Memory, SavedSeat, words
from kabuto.app.online_session import OnlineSession
from kabuto.app.table_flow import Phase, TableFlow
from kabuto.net.tables import trajectory_json
from kabuto.rules.game import Game

SEATS = [{"name": "Ann", "taken": True, "bot": None, "connected": True},
         {"name": "Bot 2", "taken": True, "bot": "easy", "connected": True}]


def server_state(game: Game, seat: int, action: dict, outcome=None) -> dict:
    """The ``state`` message the server sends after ``seat``'s ``action`` (kabuto/net/server.py)."""
    last = {"seat": seat, "action": action, "done_at": 0.0}
    if outcome is not None:
        last.update({"trajectory": trajectory_json(outcome), "fell": [f.piece for f in outcome.physics.fell],
                     "knocked_out": [{"piece": k.piece, "to": k.to} for k in outcome.knocked_out]})
    return {"type": "state", "room": "ROOM22", "status": "over" if game.is_over else "playing",
            "step": len(game.history), "to_play": None if game.is_over else game.current_seat,
            "seats": SEATS, "result": None, "view": game.to_json(), "last": last}


def start(seat: int = 0):
    game = Game.new(players=2, wrestlers=["hank", "gus"], seed=5, first_player=0)
    sent: list[dict] = []
    session = OnlineSession(game.to_json(), 0, seat, "ROOM22", SEATS, sent.append)
    return game, session, TableFlow(session, ai_delay=0.0), sent


def plan(flow: TableFlow, session: OnlineSession) -> None:
    """What the online table does each frame: hand the flow the server's next state."""
    req = flow.take_plan_request()
    assert req is not None and session.has_next()
    assert flow.ai_planned(req.token, session.next_steps())


def test_our_push_is_only_sent_and_the_table_plays_the_servers_answer():
    server, session, flow, sent = start()
    assert flow.phase is Phase.AIM and flow.may_aim
    flow.set_aim(Aim(-160.0, 5.0, 0.35))
    flow.pick_choice("medium")
    before = session.game.to_json()
    assert flow.push()
    (act,) = sent
    assert act["type"] == "act" and act["step"] == 0
    push = act["action"]
    assert (push["type"], push["piece"], push["entry_deg"], push["end_turn"]) == ("push", "medium", -160.0, False)
    flow.landed()  # nothing to play yet: the table waits for the server
    assert flow.phase is Phase.AI_THINKING and not flow.may_aim
    assert session.game.to_json() == before, "nothing changes here before the server says so"
    assert "server" in flow.view().status

    out = server.push("medium", -160.0, 5.0, 0.35, 0.0, end_turn=False)
    session.receive(server_state(server, 0, push, out))
    plan(flow, session)
    outcome = flow.take_outcome()
    assert flow.phase is Phase.PLAYING and outcome is not None and outcome.result is not None
    # The trajectory played is the server's: it ends where the server's pieces came to rest.
    traj = outcome.result.trajectory
    end = traj.poses[-1]
    for p in server.world.pieces:
        x, y = end[traj.ids.index(p.id), :2]
        assert math.hypot(x - p.x, y - p.y) < 1e-4, p.id
    assert outcome.result.push is not None and outcome.result.push.piece in server.world
    assert session.game.to_json() == server.to_json()  # the server's state, adopted as it plays
    # The turn ends by itself when nothing is left to do in it, as at the hot-seat table.
    if not any(m.usable for m in server.available_moves(0)):
        assert sent[-1]["action"] == {"type": "end_turn"} and sent[-1]["step"] == len(server.history)


def test_another_seats_push_shows_its_aim_then_plays_and_a_refusal_gives_the_turn_back():
    server, session, flow, sent = start(seat=1)
    assert flow.phase is Phase.AI_THINKING and not flow.may_aim  # seat 0 is to play, not us
    action = {"type": "push", "piece": "small", "entry_deg": 90.0, "heading_deg": -3.0, "speed": 0.3}
    out = server.push("small", 90.0, -3.0, 0.3)
    session.receive(server_state(server, 0, action, out))
    plan(flow, session)
    assert flow.phase is Phase.AI_SHOWING  # the other seat's aim, on show first
    preview = flow.aim_preview()
    assert preview is not None and preview.aim.entry_deg == 90.0 and preview.by_ai
    assert flow.tick(1.0) and flow.phase is Phase.PLAYING
    flow.landed()
    assert flow.phase is Phase.AIM and flow.may_aim  # the push ended the turn: ours now
    assert session.game.to_json() == server.to_json()

    flow.pick_choice("small")
    flow.set_aim(Aim(270.0, 0.0, 0.3))
    assert flow.push()
    flow.landed()
    session.receive({"type": "error", "code": "stale", "message": "that action was made at step 1",
                     "re": sent[-1]["id"]})
    assert session.refusal and session.pending is None
    flow.reset(session.refusal)
    assert flow.phase is Phase.AIM and flow.may_aim and "step" in flow.message


def test_a_full_state_after_a_gap_is_jumped_to_and_a_spectator_only_watches():
    server, session, flow, _ = start(seat=None)
    assert session.seat_is_ai(0) and session.seat_is_ai(1) and session.status().startswith("Watching")
    server.push("small", 90.0, 0.0, 0.3)
    server.push("small", 270.0, 0.0, 0.3)
    full = server_state(server, 1, {})
    del full["last"]  # a full state (on resume or watch): no action of its own
    session.receive(full)
    assert session.resync and not session.has_next()
    session.jump()
    flow.reset("")
    assert session.game.to_json() == server.to_json() and session.step == len(server.history)
    assert flow.phase is Phase.AI_THINKING and not flow.may_aim


class FakeClient:
    """Stands in for ClientThread: what it was sent, and the messages ``poll`` is to return."""

    made: list[FakeClient] = []

    def __init__(self, url):
        self.url, self.sent, self.inbox, self.closed = url, [], [], False
        FakeClient.made.append(self)

    def send(self, msg):
        self.sent.append(msg)

    def poll(self):
        out, self.inbox = self.inbox, []
        return out

    def close(self, timeout=0.0):
        self.closed = True


def test_a_lost_connection_is_retried_and_takes_the_seat_back_with_its_token():
    FakeClient.made = []
    link = Link("ws://127.0.0.1:8765", FakeClient)
    first = FakeClient.made[0]
    first.inbox = [{"type": "welcome"}]
    assert link.poll(0.0) and link.connected
    link.hold("ROOM22", "tok")
    first.inbox = [{"type": "closed", "reason": "the connection was lost"}]
    msgs = link.poll(0.0)
    assert [m["type"] for m in msgs] == ["closed"] and link.lost and not link.connected
    assert link.problem == "The connection to the server was lost."
    assert link.poll(RETRY_EVERY / 2) == [] and len(FakeClient.made) == 1  # not yet
    link.poll(RETRY_EVERY)
    second = FakeClient.made[1]
    assert second.sent[0]["type"] == "resume" and second.sent[0]["token"] == "tok"
    second.inbox = [{"type": "closed", "reason": "cannot connect to ws://127.0.0.1:8765"}]
    assert link.poll(0.0) == [] and link.lost  # still away: tried again later, said once
    link.poll(RETRY_EVERY)
    third = FakeClient.made[2]
    third.inbox = [{"type": "welcome"}, {"type": "joined", "room": "ROOM22", "seat": 0}]
    assert [m["type"] for m in link.poll(0.0)] == ["welcome", "joined"]
    assert link.connected and not link.lost
    link.close()
    assert third.closed and link.poll(10.0) == [] and len(FakeClient.made) == 3


def test_the_address_and_the_seat_are_remembered_for_their_owner_only(tmp_path):
    assert Memory.load(tmp_path).server.startswith("ws://127.0.0.1:")
    mem = Memory("ws://example.org:9000", SavedSeat("ws://example.org:9000", "ROOM22", 1, "secret"))
    mem.save(tmp_path)
    assert Memory.load(tmp_path) == mem
    assert stat.S_IMODE(os.stat(tmp_path / "online.json").st_mode) == 0o600
    (tmp_path / "online.json").write_text("[not ours")
    assert Memory.load(tmp_path) == Memory()


@pytest.mark.parametrize("msg,says", [
    ({"type": "closed", "reason": "cannot connect to ws://x (refused)"}, "Cannot reach"),
    ({"type": "error", "code": "no-room", "message": "there is no room ABCDEF"}, "no room with that code"),
    ({"type": "error", "code": "room-full", "message": "every seat of room X is taken"}, "watch it"),
    ({"type": "closed", "reason": "the connection was lost"}, "lost"),
])
def test_the_servers_refusals_in_a_players_words(msg, says):
    assert says in words(msg, "ws://x")
