"""Online rooms: the host chooses the wrestler they play and the room shows each seat's; the names
players give (kabuto join --name) show at the table; a finished game leaves no Rejoin behind.
Real clicks and keys on a real window under Xvfb, against a real server."""
from __future__ import annotations

import shutil

import pytest

from tests.app import xinput
from tests.app.test_online import _app, click, until

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _lobby(window, app):
    from kabuto.app.scene.online import LobbyScene

    xinput.map_window(window)
    app.open_menu()
    click(window, window.scene, "mode:online")
    click(window, window.scene, "start")
    until(window, lambda: isinstance(window.scene, LobbyScene) and window.scene.link.connected, "the lobby")
    return window.scene


def test_the_host_plays_the_wrestler_chosen_and_the_room_shows_it(window, tmp_path, server):
    from kabuto.app.scene.online import OnlineTableScene

    app = _app(window, tmp_path / "app-data", server.url)
    lobby = _lobby(window, app)
    seen = []
    for _ in range(12):  # the button goes through the cards in turn
        before = lobby.wrestler
        click(window, lobby, "online:wrestler")
        until(window, lambda before=before: lobby.wrestler != before, "the next wrestler")
        seen.append(lobby.widgets.find("online:wrestler").caption.text)
        if lobby.wrestler == "dora":
            break
    assert seen[-1] == "Your wrestler: Dung Dora", seen
    click(window, lobby, "host:kabuto-3")
    until(window, lambda: lobby.state.room is not None, "the room")
    words = " ".join(getattr(it, "text", "") for it in lobby.items)
    assert "you - Dung Dora" in words
    click(window, lobby, "online:fill")
    until(window, lambda: isinstance(window.scene, OnlineTableScene), "the game to start")
    table = window.scene
    me = table.online.me
    assert table.session.game.seats[me].wrestler.key == "dora"
    keys = [s.wrestler.key for s in table.session.game.seats]
    assert len(set(keys)) == 3


def test_names_show_at_the_table_and_a_finished_game_leaves_no_rejoin(window, tmp_path, server):
    from kabuto.app.online import Memory
    from kabuto.app.scene.online import LobbyScene, OnlineTableScene
    from tests.net.helpers import join_process

    data = tmp_path / "app-data"
    app = _app(window, data, server.url)
    lobby = _lobby(window, app)
    click(window, lobby, "host:kabuto-2")
    until(window, lambda: lobby.state.room is not None, "the room")
    code = lobby.state.room
    peer = join_process(server.url, "--game", "kabuto", "--room", code, "--bot", "random", "--name", "Akiko",
                        "--timeout", "120")
    try:
        until(window, lambda: isinstance(window.scene, OnlineTableScene), "the game to start")
        table = window.scene
        until(window, lambda: any("Akiko" in s.name for s in table.session.seats()), "Akiko's name")
        names = " ".join(s.name for s in table.session.seats())
        assert "(Akiko)" in names and "(you)" in names
        assert Memory.load(data).seat is not None  # a game on: Rejoin would take it back
    finally:
        peer.kill()
        peer.wait()
    # Once the game is over (the session's winner, standing in for the server's last state),
    # leaving goes back to a lobby with no Rejoin.
    table.online.winner = lambda: object()  # type: ignore[method-assign]
    table.on_menu()
    until(window, lambda: isinstance(window.scene, LobbyScene), "the lobby again")
    assert Memory.load(data).seat is None
    assert window.scene.widgets.find("online:rejoin") is None
