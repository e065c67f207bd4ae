"""Play online, end to end: a real ``kabuto serve`` on a free loopback port, the app in a real
window on the test display, and real mouse and key events from the X server.

The app hosts a room by clicks, has the server's bot fill the other seat, pushes with a mouse
drag, and sees the bot's reply arrive and play on its table; a spectator connected on its own sees
the same at-rest state. The server is then killed and started again: the app takes its seat back
with its token and plays on. Leaving the table keeps the seat, and the lobby's Rejoin takes it back.
"""
from __future__ import annotations

import subprocess
import time

import pytest

from tests.app import xinput
from tests.app.conftest import SERVER_SEED

pytestmark = pytest.mark.skipif(xinput.XDOTOOL is None, reason="xdotool is not installed")

WAIT = 90.0


def _widget(scene, name):
    w = scene.widgets.find(name)
    assert w is not None, f"no {name} on screen: {[x.name for x in scene.widgets.items if hasattr(x, 'name')]}"
    return w


def click(win, scene, name) -> None:
    """Click the middle of the widget ``name`` with the X pointer."""
    r = _widget(scene, name).rect
    xinput.click(win, r.x + r.w / 2, r.y + r.h / 2)


def _where(win) -> str:
    """What the window shows, for a failure's message."""
    sc = win.scene
    online = getattr(sc, "online", None)
    if online is None:
        return type(sc).__name__ + ": " + str(getattr(sc, "message", ""))
    return (f"{sc.mode} step {online.step} pending {online.pending} queued {len(online._queue)} "
            f"handed {len(online._handed)} to play {online.game.current_seat} message {sc.message!r} "
            f"status {sc.flow.view().status!r}")


def until(win, done, what: str, limit: float = WAIT) -> None:
    """Handle the window's events and ticks until ``done()``; the network runs on its own thread
    (this waits for it, it times nothing)."""
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}: {_where(win)}"
        win.pump()
        time.sleep(0.003)


def _app(window, data_dir, url, seat=None):
    from kabuto.app.main import App, Options
    from kabuto.app.online import Memory

    Memory(server=url, seat=seat).save(data_dir)  # the address (and seat) the player used last time
    return App(Options(data_dir=data_dir, record=False, ai_delay=0.05), window=window)


def _at_rest(game) -> dict:
    return {p.id: (round(p.x, 9), round(p.y, 9)) for p in game.world.pieces}


def _watch(url, code):
    """A spectator of its own (a second program): its last state's game, once it has one."""
    from kabuto.net.client import ClientThread, RoomState

    client, state = ClientThread(url), RoomState()
    client.send({"type": "watch", "room": code})
    return client, state


def _drag_push(win, scene) -> None:
    """Press on the platform's spot on the ring's edge, drag inwards and let go: at the bottom of
    the ring, or the first spot round it that no piece hanging over the edge blocks (an earlier
    push may leave one there)."""
    import math

    from kabuto.rules.errors import IllegalMove

    R = scene.session.materials.ring.radius
    t = scene.ring.transform
    game = scene.session.game
    def free(deg: float) -> bool:
        """Whether every piece the table may have picked can be pushed from ``deg`` at the headings
        near the drag's (the platform's footprint depends on both)."""
        try:
            for kind in game.legal_kinds():
                for heading in (-15.0, 0.0, 15.0):
                    game.check_push(kind, deg, heading, 0.3)
        except IllegalMove:
            return False
        return True

    deg = next((d for d in (-90.0, 0.0, 180.0, 90.0, -45.0, -135.0, 45.0, 135.0) if free(d)), -90.0)
    a = math.radians(deg)
    ux, uy = math.cos(a), math.sin(a)
    xinput.drag(win, t.to_screen(R * ux, R * uy), t.to_screen(0.2 * R * ux - 0.05 * R * uy,
                                                             0.2 * R * uy + 0.05 * R * ux))


def _end_turn(win, table) -> None:
    """Our turn may stay open after a push (a signature move could follow): end it with E."""
    if table.flow.may_aim and table.flow.can_end_turn:
        xinput.key(win, "e")


def test_host_fill_push_see_the_bot_reply_and_rejoin_after_the_server_restarts(window, tmp_path, server):
    from kabuto.app.scene.online import LobbyScene, OnlineTableScene
    from kabuto.rules.game import Game
    from tests.net.helpers import ServerProcess

    data = tmp_path / "app-data"
    app = _app(window, data, server.url)
    xinput.map_window(window)
    app.open_menu()
    click(window, window.scene, "mode:online")
    click(window, window.scene, "start")
    until(window, lambda: isinstance(window.scene, LobbyScene) and window.scene.link.connected, "the lobby")
    lobby = window.scene
    window.screenshot("/tmp/shots-online/lobby-1280x720.png")
    click(window, lobby, "host:kabuto-2")
    until(window, lambda: lobby.state.room is not None, "the room")
    code = lobby.state.room
    assert lobby.state.seat == 0
    window.screenshot("/tmp/shots-online/room-1280x720.png")
    click(window, lobby, "online:fill")
    until(window, lambda: isinstance(window.scene, OnlineTableScene), "the game to start")
    table = window.scene
    session = table.online
    assert session.room == code and session.me == 0
    until(window, lambda: table.mode == "aim" and table.flow.may_aim, "our turn")
    window.screenshot("/tmp/shots-online/table-1280x720.png")

    # Our push, aimed and made with the mouse; the server plays it, then the bot replies.
    step = session.step
    history = len(session.game.history)
    made = table.pushes
    _drag_push(window, table)
    until(window, lambda: table.pushes > made, "the release to push")
    until(window, lambda: table.mode == "aim" and session.step > step, "our push to play")
    _end_turn(window, table)
    until(window, lambda: table.mode == "aim" and table.flow.may_aim and any(
        h["type"] == "push" and h["seat"] == 1 for h in session.game.history[history:]), "the bot's reply")
    assert set(table.ring.sprites) == {p.id for p in session.game.world.pieces}
    kinds = [h["type"] for h in session.game.history[history:]]
    assert kinds[0] == "push" and session.game.history[history]["seat"] == 0
    assert any(h["type"] == "push" and h["seat"] == 1 for h in session.game.history[history:]), kinds

    # A spectator on its own connection sees the same at-rest state.
    client, state = _watch(server.url, code)
    try:
        deadline = time.monotonic() + WAIT
        while state.view is None or state.step != session.step:
            assert time.monotonic() < deadline, "the spectator got no state"
            for msg in client.wait(1.0):
                state.apply(msg)
        assert _at_rest(Game.from_json(state.view)) == _at_rest(session.game)
    finally:
        client.close()

    # The server dies and comes back (same port, same data folder): the app takes the seat back.
    port = server.port
    server.kill()
    until(window, lambda: table.link.lost, "the app to notice the lost connection")
    assert "lost" in table.online.status()
    back = ServerProcess(tmp_path / "server-data", port=port, seed=SERVER_SEED)
    try:
        until(window, lambda: not table.link.lost and table.link.connected and table.mode == "aim"
              and table.flow.may_aim, "the seat back after the restart")
        step = session.step
        made = table.pushes
        _drag_push(window, table)
        until(window, lambda: table.pushes > made, "a push after the restart")
        until(window, lambda: session.step > step and table.mode in ("aim", "over"), "the server's answer")
        _end_turn(window, table)
        until(window, lambda: table.mode in ("aim", "over") and not table.flow.can_end_turn, "the turn's end")

        # Leaving the table keeps the seat: Rejoin on the lobby takes it back.
        xinput.key(window, "Escape")
        until(window, lambda: window.overlay is not None, "the pause menu")
        leave = next(w for w in window.overlay.widgets.items if getattr(w, "name", "") == "pause:leave")
        xinput.click(window, leave.rect.x + leave.rect.w / 2, leave.rect.y + leave.rect.h / 2)
        until(window, lambda: isinstance(window.scene, LobbyScene) and window.scene.link.connected,
              "the lobby again")
        lobby = window.scene
        click(window, lobby, "online:rejoin")
        until(window, lambda: isinstance(window.scene, OnlineTableScene), "the table again")
        again = window.scene
        until(window, lambda: again.mode in ("aim", "over"), "the table to settle")
        assert again.online.me == 0 and again.online.room == code
        assert again.online.step >= session.step
    finally:
        back.kill()


class BotPeer:
    """A second program in the room: a ClientThread that plays its seat with the random bot."""

    def __init__(self, url):
        from kabuto.net.client import ClientThread, RoomState

        self.client, self.state = ClientThread(url), RoomState()
        self.acted = -1

    def pump(self) -> None:
        from kabuto.net.bots import plan_actions
        from kabuto.rules.game import Game

        for msg in self.client.poll():
            assert msg["type"] not in ("error", "closed"), msg
            self.state.apply(msg)
        st = self.state
        if st.my_turn and st.view is not None and self.acted != st.step:
            self.acted = st.step
            action = plan_actions(Game.from_json(st.view), "random", st.step)[0]
            self.client.send({"type": "act", "step": st.step, "action": action})


def test_join_by_typing_the_code_and_both_sides_see_the_same_game(window, tmp_path, server):
    from kabuto.app.scene.online import LobbyScene, OnlineTableScene
    from kabuto.rules.game import Game

    host = BotPeer(server.url)
    try:
        host.client.send({"type": "create", "game": "kabuto", "players": 2, "name": "Ann"})
        deadline = time.monotonic() + WAIT
        while host.state.room is None:
            assert time.monotonic() < deadline
            host.pump()
            time.sleep(0.01)
        app = _app(window, tmp_path / "app-data", server.url)
        xinput.map_window(window)
        window.set_scene(LobbyScene(app))
        lobby = window.scene
        until(window, lambda: lobby.link.connected, "the lobby to connect")
        click(window, lobby, "field:code")
        subprocess_type(window, host.state.room.lower())  # typed as a player would (any case)
        until(window, lambda: lobby.code_text == host.state.room, "the code to be typed")
        click(window, lobby, "online:join")

        def both() -> bool:
            host.pump()
            return isinstance(window.scene, OnlineTableScene)
        until(window, both, "the game to start")
        table = window.scene
        session = table.online
        assert session.me == 1 and session.room == host.state.room

        def my_turn() -> bool:
            host.pump()
            return table.mode == "aim" and table.flow.may_aim
        until(window, my_turn, "our turn")
        made, step, before = table.pushes, session.step, len(session.game.history)
        _drag_push(window, table)
        # The host keeps playing meanwhile: if our push ended our turn (nothing else we could do),
        # its reply may already be on its way.
        until(window, lambda: (host.pump(), table.pushes > made and session.step > step
                               and table.mode == "aim")[1], "our push")
        _end_turn(window, table)

        def replied() -> bool:
            return any(h["type"] == "push" and h["seat"] == 0 for h in session.game.history[before:])
        until(window, lambda: my_turn() and replied(), "the host's reply")
        until(window, lambda: (host.pump(), host.state.step == session.step)[1], "the host's state")
        # The host and the app agree on the state at rest, and the host's last push is ours to see.
        assert _at_rest(Game.from_json(host.state.view)) == _at_rest(session.game)
    finally:
        host.client.close()


def subprocess_type(win, text: str) -> None:
    """Type ``text`` with real key events (xdotool) into the focused window."""
    import subprocess

    subprocess.run([xinput.XDOTOOL, "type", "--window", str(xinput.window_id(win)), "--delay", "20", text],
                   check=True, timeout=20)


def _free_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_server_an_unknown_code_and_a_full_room_are_said_plainly(window, tmp_path, server):
    from kabuto.app.scene.online import LobbyScene
    from kabuto.net.client import ClientThread

    app = _app(window, tmp_path / "app-data", f"ws://127.0.0.1:{_free_port()}")
    xinput.map_window(window)
    lobby = window.set_scene(LobbyScene(app))
    until(window, lambda: "Cannot reach" in lobby.message, "the unreachable server to be said")
    assert not lobby.link.connected and not _widget(lobby, "host:kabuto-2").enabled
    window.screenshot("/tmp/shots-online/unreachable-1280x720.png")

    # The player types the right address (Backspace over the old one) and presses Enter.
    click(window, lobby, "field:server")
    subprocess.run([xinput.XDOTOOL, "key", "--window", str(xinput.window_id(window)), "--repeat", "40",
                    "BackSpace"], check=True, timeout=20)
    until(window, lambda: lobby.server_text == "", "the old address to be erased")
    subprocess_type(window, server.url.removeprefix("ws://"))
    xinput.key(window, "Return")
    until(window, lambda: lobby.link.connected, "the connection to the typed address")
    from kabuto.app.online import Memory
    assert Memory.load(tmp_path / "app-data").server == server.url  # remembered for next time

    click(window, lobby, "field:code")
    subprocess_type(window, "ZZZZZZ")
    click(window, lobby, "online:join")
    until(window, lambda: "no room with that code" in lobby.message, "the unknown code to be said")

    full = ClientThread(server.url)
    try:
        full.send({"type": "create", "game": "kabuto", "players": 2})
        full.send({"type": "fill", "bot": "easy"})
        code = None
        deadline = time.monotonic() + WAIT
        while code is None:
            assert time.monotonic() < deadline
            code = next((m["room"] for m in full.wait(1.0) if m["type"] == "filled"), None)
        lobby.code_text = ""
        lobby.rebuild()
        click(window, lobby, "field:code")
        subprocess_type(window, code)
        click(window, lobby, "online:join")
        until(window, lambda: "full" in lobby.message, "the full room to be said")
        assert "watch" in lobby.message
    finally:
        full.close()


@pytest.mark.parametrize("size", [(960, 600), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_online_screens_keep_their_text_in_their_panels(window, tmp_path, server, size):
    from kabuto.app.online import SavedSeat
    from kabuto.app.scene.online import LobbyScene, OnlineTableScene
    from kabuto.app.scene.table import TOP_BAR
    from kabuto_ui.geometry import Rect
    from tests.app.test_text_fits import check_buttons, check_panel

    W, H = size
    app = _app(window, tmp_path / "app-data", server.url, SavedSeat(server.url, "K7QW2M", 3, "t"))
    xinput.map_window(window)
    assert xinput.resize(window, W, H)
    window.switch_to()
    lobby = window.set_scene(LobbyScene(app))
    until(window, lambda: lobby.link.connected, "the lobby to connect")
    problems: list[str] = []
    tag = f"{W}x{H}"

    def check(name: str, scene) -> None:
        check_panel(name, scene.items, Rect(0, 0, W, H), problems)
        check_buttons(name, scene.widgets, problems)
        window.screenshot(f"/tmp/shots-online/{name}-{tag}.png")

    assert lobby.widgets.find("online:rejoin") is not None
    check("lobby", lobby)
    click(window, lobby, "host:cards:sumida-river-4")
    until(window, lambda: lobby.state.room is not None and lobby.state.seats, "the card room")
    check("room-cards", lobby)
    click(window, lobby, "online:back")  # leave it: back to the lobby
    until(window, lambda: lobby.state.room is None and lobby.widgets.find("host:kabuto-4"), "the lobby")
    click(window, lobby, "host:kabuto-4")
    until(window, lambda: lobby.state.room is not None and lobby.state.seats, "the room")
    check("room-4", lobby)
    click(window, lobby, "online:fill")
    until(window, lambda: isinstance(window.scene, OnlineTableScene), "the game to start")
    table = window.scene
    until(window, lambda: table.mode in ("aim", "over"), "the table to settle")
    check_panel("side panel", table.side.items, table.panel_rect, problems)
    check_panel("aim bar", table.bar.items, table.bar_rect, problems)
    check_panel("top bar", [table.title_label, table.status_label], Rect(0, H - TOP_BAR, W, TOP_BAR), problems)
    check_buttons("table", table.widgets, problems)
    window.screenshot(f"/tmp/shots-online/table-4-{tag}.png")
    assert not problems, "\n".join(problems[:15])


def _hosted_by_peer(url, fill: str | None = None) -> BotPeer:
    host = BotPeer(url)
    host.client.send({"type": "create", "game": "kabuto", "players": 2, "name": "Ann"})
    if fill:
        host.client.send({"type": "fill", "bot": fill})
    deadline = time.monotonic() + WAIT
    while host.state.room is None or (fill and host.state.status != "playing"):
        assert time.monotonic() < deadline
        host.pump()
        time.sleep(0.01)
    return host


def _type_code(window, lobby, code: str) -> None:
    click(window, lobby, "field:code")
    subprocess_type(window, code)
    until(window, lambda: lobby.code_text == code, "the code to be typed")


def _watch_from_lobby(window, tmp_path, server, code: str):
    """The app's lobby, connected, asked (by typing ``code`` and clicking Watch) to watch a room."""
    from kabuto.app.scene.online import LobbyScene

    app = _app(window, tmp_path / "app-data", server.url)
    xinput.map_window(window)
    lobby = window.set_scene(LobbyScene(app))
    until(window, lambda: lobby.link.connected, "the lobby to connect")
    _type_code(window, lobby, code)
    click(window, lobby, "online:watch")
    return lobby


def test_watch_a_waiting_room_then_pick_a_seat_in_it(window, tmp_path, server):
    from kabuto.app.scene.online import OnlineTableScene

    host = _hosted_by_peer(server.url)
    try:
        lobby = _watch_from_lobby(window, tmp_path, server, host.state.room)
        until(window, lambda: lobby.state.room == host.state.room and lobby.state.seats, "the room's seats")
        assert lobby.state.seat is None and lobby.widgets.find("sit:0") is None  # Ann sits there
        window.screenshot("/tmp/shots-online/watching-room-1280x720.png")
        click(window, lobby, "sit:1")

        def started() -> bool:
            host.pump()
            return isinstance(window.scene, OnlineTableScene)
        until(window, started, "the game to start with us in seat 1")
        assert window.scene.online.me == 1
    finally:
        host.client.close()


def test_a_spectator_sees_the_game_play_and_can_never_aim(window, tmp_path, server):
    from kabuto.app.scene.online import OnlineTableScene

    host = _hosted_by_peer(server.url, fill="easy")
    try:
        _watch_from_lobby(window, tmp_path, server, host.state.room)
        aimed = []

        def watching() -> bool:
            host.pump()
            sc = window.scene
            if isinstance(sc, OnlineTableScene):
                aimed.append(sc.flow.may_aim)
                return sc.online.step >= 4 and sc.mode != "playing"
            return False
        until(window, watching, "two turns to be played before the spectator")
        table = window.scene
        assert table.online.me is None and not any(aimed)
        assert table.online.status().startswith("Watching") or table.mode == "over"
        window.screenshot("/tmp/shots-online/spectator-1280x720.png")
    finally:
        host.client.close()
