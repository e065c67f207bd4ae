"""Online play between CPython versions (issue 47): a client on this Python plays a whole game of
Kabuto Sumo against ``kabuto serve`` running on another CPython version, on loopback.

The client keeps its own copy of the game and re-simulates every action the server reports (its
own pushes and the server bot's) with this Python's physics: each must reach the state hash the
server computed, and the client's game must equal the server's view after every state. Then the
replay the server recorded verifies here bit for bit.

The other interpreter is a virtualenv made by ``bash tools/other_pythons.sh`` (``.venvs/pyX.Y``),
or any listed in ``KABUTO_OTHER_PYTHONS`` (paths separated by ``:``, as .ci/run sets it); the test
is skipped, saying so, only when none of another version is there.
"""
from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kabuto import Game
from kabuto.net.bots import plan_actions
from kabuto.net.client import Connection, RoomState
from kabuto.replay import format as rp
from kabuto.rules.actions import action_from_json
from physics import state_hash
from tests.net.helpers import ROOT, WAIT, env, run


def other_python() -> tuple[str, str] | None:
    """(path, "3.X.Y") of a Python of another minor version that can run kabuto, or None."""
    listed = [p for p in os.environ.get("KABUTO_OTHER_PYTHONS", "").split(os.pathsep) if p]
    found = sorted((ROOT / ".venvs").glob("py3.*/bin/python"))
    for path in [*listed, *map(str, found)]:
        try:
            done = subprocess.run([path, "-c", "import sys, kabuto, pymunk, websockets; "
                                   "print('%d.%d.%d' % sys.version_info[:3])"],
                                  capture_output=True, text=True, timeout=WAIT, env=env())
        except OSError:
            continue
        version = done.stdout.strip()
        if done.returncode == 0 and version.rsplit(".", 1)[0] != "{}.{}".format(*sys.version_info[:2]):
            return path, version
    return None


OTHER = other_python()
pytestmark = pytest.mark.skipif(
    OTHER is None, reason="no second CPython with kabuto's dependencies: run `bash tools/other_pythons.sh` "
                          "(or list one in KABUTO_OTHER_PYTHONS)")


def _serve(python: str, data_dir: Path) -> tuple[subprocess.Popen[str], str]:
    log = open(data_dir.parent / "server.log", "a")  # a file: a chatty server never blocks on it
    proc = subprocess.Popen([python, "-m", "kabuto", "serve", "--port", "0", "--data-dir", str(data_dir),
                             "--seed", "11", "--quiet"],
                            stdout=subprocess.PIPE, stderr=log, text=True, env=env())
    log.close()
    assert proc.stdout is not None
    line = proc.stdout.readline()  # blocks until the server listens (or fails)
    m = re.search(r"listening on (ws://\S+)", line)
    assert m, line + (data_dir.parent / "server.log").read_text()
    return proc, m.group(1)


async def _play(url: str) -> tuple[Game, int]:
    """Play seat 0 with the easy bot against the server's easy bot; re-simulate every action here.
    Returns the client's game at the end and how many pushes and moves it re-simulated."""
    conn = await Connection.open(url)
    state = RoomState()
    state.apply(await conn.request({"type": "join", "game": "kabuto", "players": 2, "name": "here"}))
    await conn.request({"type": "fill", "bot": "easy"})
    local: Game | None = None
    checked = 0
    plan: list = []
    plan_step = sent_step = -1
    try:
        while True:
            msg = await conn.recv()
            assert msg["type"] != "error", msg
            state.apply(msg)
            if msg["type"] == "state":
                server = Game.from_json(state.view)
                if local is None:
                    local = Game.from_json(state.view)
                for entry in server.history[len(local.history):]:
                    # Re-simulated with this Python's physics; ReplayError if it lands elsewhere.
                    local.apply(action_from_json(entry), verify=True)
                    checked += entry["type"] in ("push", "move")
                assert state_hash(local.world.snapshot()) == state_hash(server.world.snapshot())
                assert local.to_json() == server.to_json()
            if state.status == "over":
                assert local is not None
                return local, checked
            if state.my_turn and sent_step != state.step:
                if not plan or plan_step != state.step:
                    plan = await asyncio.to_thread(plan_actions, Game.from_json(state.view), "easy",
                                                   state.step)
                    plan_step = state.step
                action = plan.pop(0)
                plan_step += 1
                sent_step = state.step
                await conn.send({"type": "act", "step": state.step, "action": action})
    finally:
        await conn.close()


def test_a_whole_game_against_a_server_on_another_python(tmp_path):
    assert OTHER is not None
    python, version = OTHER
    data = tmp_path / "server-data"
    proc, url = _serve(python, data)
    try:
        game, checked = run(_play(url), timeout=300.0)
    finally:
        proc.terminate()
        proc.communicate(timeout=WAIT)
    assert game.is_over and checked >= 2
    # The server (the other Python) recorded the game; it verifies here, bit for bit.
    (path,) = (data / "replays").glob("*.replay.json")
    result = rp.verify(rp.load(path))
    assert result.bit_identical, (version, result.divergence and result.divergence.difference_text())
    assert [s.got for s in result.steps if s.got] == [a["hash"] for a in game.history if "hash" in a]
