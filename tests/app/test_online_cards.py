"""Card games online in the app: a real ``kabuto serve``, the app's card table in a real window,
clicks from the X server. The app hosts a Sumo Card Game room, the server's bot takes the other
seat, and the player's cards are played by clicking them; a spectator's table shows no card that
is hidden from it.
"""
from __future__ import annotations

import random
import time

import pytest

from tests.app import xinput
from tests.app.test_online import WAIT, _app, click, until

pytestmark = pytest.mark.skipif(xinput.XDOTOOL is None, reason="xdotool is not installed")


def click_target(win, scene, target: str) -> None:
    """Click (X pointer) what the card table shows for ``target``."""
    from tests.cards_table.helpers import centre, find_target

    item = find_target(scene.model.display(), target)
    x, y = scene.renderer.to_window(*centre(item))
    xinput.click(win, x, y)


def test_host_a_card_game_and_play_it_by_clicking_against_the_servers_bot(window, tmp_path, server):
    from kabuto.app.online_cards import OnlineCardScene
    from kabuto.app.scene.online import LobbyScene
    from tests.cards_table.helpers import targets_for

    app = _app(window, tmp_path / "app-data", server.url)
    xinput.map_window(window)
    lobby = window.set_scene(LobbyScene(app))
    until(window, lambda: lobby.link.connected, "the lobby")
    click(window, lobby, "host:cards:sumo-card-game")
    until(window, lambda: lobby.state.room is not None, "the room")
    assert lobby.state.game == "sumo-card-game"
    window.screenshot("/tmp/shots-online/card-room-1280x720.png")
    click(window, lobby, "online:fill")
    until(window, lambda: isinstance(window.scene, OnlineCardScene), "the card table")
    table = window.scene
    rng = random.Random(4)
    played = 0
    shot = False
    while played < 4:
        m = table.model.match
        until(window, lambda m=m: m.over or m.summary is not None or m.waiting_for_human(), "our turn")
        if m.over:
            break
        if m.summary is not None:
            click_target(window, table, "ui:dismiss")
            until(window, lambda m=m: m.summary is None or m.summary.final, "the summary to close")
            continue
        if not shot:
            window.screenshot("/tmp/shots-online/card-table-1280x720.png")
            shot = True
        legal = m.game.legal_actions()
        assert legal, "our turn offers actions"
        before = m.remote.step
        action = rng.choice(legal)
        for target in targets_for("sumo-card-game", action, table.model.display()):
            click_target(window, table, target)
            window.pump()
        # Sent, then played when the server's answer comes: the step moves on.
        until(window, lambda m=m, before=before: m.remote.step > before and not m.remote.sent,
              f"{action!r} to be played")
        played += 1
    assert played >= 1


def test_a_spectators_card_table_shows_no_hidden_card(window, tmp_path, server):
    from kabuto.app.online_cards import OnlineCardScene
    from kabuto.app.scene.online import LobbyScene
    from kabuto.net.bots import client_card_action
    from kabuto.net.client import ClientThread, RoomState
    from tests.app.test_online import _type_code

    host, hs = ClientThread(server.url), RoomState()
    rng = random.Random(2)
    try:
        host.send({"type": "create", "game": "sumo-card-game", "name": "Ann"})
        host.send({"type": "fill", "bot": "random"})
        deadline = time.monotonic() + WAIT
        while hs.status != "playing":
            assert time.monotonic() < deadline
            for msg in host.wait(1.0):
                hs.apply(msg)
        app = _app(window, tmp_path / "app-data", server.url)
        xinput.map_window(window)
        lobby = window.set_scene(LobbyScene(app))
        until(window, lambda: lobby.link.connected, "the lobby")
        _type_code(window, lobby, hs.room)
        click(window, lobby, "online:watch")
        until(window, lambda: isinstance(window.scene, OnlineCardScene), "the spectator's card table")
        table = window.scene
        acted, checked, seen = -1, 0, -1
        deadline = time.monotonic() + WAIT
        while checked < 6 and hs.status == "playing":
            assert time.monotonic() < deadline, f"the spectator checked {checked} states"
            for msg in host.poll():
                hs.apply(msg)
            window.pump()
            m = table.model.match
            if m.remote.step == hs.step and not m.remote.has_next() and seen != hs.step:
                # Ann's hand is hers alone: no face of it shows on the spectator's table.
                shown = {it.face for it in table.model.display().cards() if it.face and not it.history}
                assert not shown & set(hs.view["hand"]), shown & set(hs.view["hand"])
                assert m.game.legal_actions() == [] and not m.waiting_for_human()
                checked += 1
                seen = hs.step
            # Ann plays only once the spectator has caught up, so it is checked at every one of
            # her turns however slowly its window runs.
            if hs.my_turn and acted != hs.step and seen == hs.step:
                acted = hs.step
                host.send({"type": "act", "step": hs.step, "action": client_card_action(
                    "sumo-card-game", "random", hs.seat, hs.view, hs.legal, rng)})
            time.sleep(0.01)
        window.screenshot("/tmp/shots-online/card-spectator-1280x720.png")
        assert checked
    finally:
        host.close()
