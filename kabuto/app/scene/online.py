"""The "Play online" screens: the lobby (server address, host a room, join or watch one by its
code, rejoin the seat last held, the waiting room with its seats and bots) and the online Kabuto
table.

Neither ever waits for the network: each frame's ``update`` polls the connection
(:class:`kabuto.app.online.Link`) and takes in what came. The table is the hot-seat table
(:class:`~kabuto.app.scene.table.TableScene`) over an :class:`~kabuto.app.online_session.OnlineSession`:
the player aims and pushes with the mouse as at home; the other seats "play by themselves", and
where the hot-seat table asks its AI for a plan, the online table waits for the server's next state
and hands it to the flow (``_start_ai`` / ``_poll_ai`` below).
"""
from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import partial
from typing import Any

from pyglet import shapes
from pyglet.graphics import Batch, Group
from pyglet.window import key

from kabuto.app.online import (
    BOT_LEVELS,
    CARD_BOT_LEVELS,
    CARD_BOT_WORDS,
    HOSTED,
    Hosted,
    Link,
    Memory,
    SavedSeat,
    words,
)
from kabuto.app.online_cards import card_scene, hosted_card_games
from kabuto.app.online_session import OnlineSession
from kabuto.app.scene.table import TableScene
from kabuto.app.table_flow import Phase, PlanRequest
from kabuto.net.client import RoomState
from kabuto.net.tables import KABUTO
from kabuto.rules.wrestlers import load_wrestlers, wrestler
from kabuto_ui import theme
from kabuto_ui.geometry import Rect
from kabuto_ui.scene import WidgetScene
from kabuto_ui.widgets import Button, Widget, fit_text, label

#: Room codes are typed in these letters (the server's alphabet, and lower case for ease).
CODE_CHARS = set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")


class TextField(Widget):
    """A one-line text box: a click gives it the keys (``focused``); the scene passes it the text
    typed and Backspace."""

    def __init__(self, rect: Rect, text: str, batch: Batch, group: Group, *, limit: int, name: str,
                 accept: Callable[[str], str] = lambda s: s, focused: bool = False,
                 on_focus: Callable[[TextField], None] | None = None):
        self.rect, self.text, self.limit, self.name = rect, text, limit, name
        self.accept = accept
        self.focused = focused
        self.on_focus = on_focus
        self.box = shapes.BorderedRectangle(rect.x, rect.y, rect.w, rect.h, border=2,
                                            color=(24, 26, 32), border_color=self._edge(),
                                            batch=batch, group=Group(0, group))
        self.caption = label("", rect.x + 8, rect.y + rect.h / 2, batch, Group(1, group),
                             anchor_y="center")
        self._show()

    def _edge(self) -> tuple[int, int, int]:
        return tuple(theme.ACCENT[:3]) if self.focused else tuple(theme.PANEL_EDGE[:3])  # type: ignore[return-value]

    def _show(self) -> None:
        fit_text(self.caption, self.text + ("|" if self.focused else ""), self.rect.w - 16, keep_end=True)

    def set_focus(self, on: bool) -> None:
        self.focused = on
        self.box.border_color = self._edge()
        self._show()

    def type(self, text: str) -> None:
        self.text = (self.text + self.accept(text))[: self.limit]
        self._show()

    def backspace(self) -> None:
        self.text = self.text[:-1]
        self._show()

    def on_press(self, x, y, button, modifiers) -> bool:
        if self.on_focus is not None:
            self.on_focus(self)
        return True


def _code_chars(text: str) -> str:
    return "".join(c for c in text.upper() if c in CODE_CHARS)


class LobbyScene(WidgetScene):
    """The "Play online" screen (module docstring). ``host`` is the :class:`kabuto.app.main.App`
    (its window, data folder, settings, and the way back to the start menu)."""

    def __init__(self, host: Any, link_factory: Callable[[str], Any] | None = None):
        super().__init__(host.window)
        self.host = host
        self.memory = Memory.load(host.data_dir)
        self._factory = link_factory
        self.link = self._connect(self.memory.server)
        self.state = RoomState()
        self.message = ""
        self.good = ""                 # a line of good news (connected)
        self.level = BOT_LEVELS[0]
        self.server_text = self.memory.server
        self.code_text = ""
        self.focus = "code"
        self.fields: dict[str, TextField] = {}
        self._ignore: set[str] = set()  # ids of replies not to act on (a leave before a join)
        self._handed = False            # the connection went on to the table
        self._options: dict[str, Any] = {}  # the room's options (Junior League, wrestlers)
        self.wrestler = ""              # the wrestler the host plays ("": drawn at random)
        self.g_bg, self.g_fg = Group(order=0), Group(order=1)

    def _connect(self, url: str) -> Link:
        return Link(url) if self._factory is None else Link(url, self._factory)

    # ----- what is on screen ---------------------------------------------------------------------------
    @property
    def in_room(self) -> bool:
        return self.state.room is not None

    def rebuild(self) -> None:
        self.clear_page()
        self.fields = {}
        if self.in_room:
            self._build_room()
        else:
            self._build_lobby()
        W = self.app.width
        b, fg = self.batch, self.g_fg
        if self.message or self.good:
            self.items.append(label(self.message or self.good, 40, 96, b, fg, size=theme.FONT_SMALL,
                                    color=theme.TEXT_BAD if self.message else theme.TEXT_GOOD,
                                    width=int(W - 280), multiline=True, anchor_y="top"))
        back = "Leave room" if self.in_room else "Back (Esc)"
        self.widgets.add(Button(Rect(W - 200, 40, 160, 44), back, self.back, b, fg, name="online:back"))

    def _heading(self, text: str, x: float, y: float) -> None:
        self.items.append(label(text, x, y, self.batch, self.g_fg, size=theme.FONT_HEADING, bold=True))

    def _field(self, name: str, rect: Rect, text: str, limit: int,
               accept: Callable[[str], str] = lambda s: s) -> TextField:
        f = TextField(rect, text, self.batch, self.g_fg, limit=limit, name=f"field:{name}",
                      accept=accept, focused=(self.focus == name), on_focus=self._focus_field)
        self.fields[name] = f
        self.widgets.add(f)
        return f

    def _build_lobby(self) -> None:
        W, H = self.app.width, self.app.height
        b, fg = self.batch, self.g_fg
        add = self.items.append
        add(label("PLAY ONLINE", 40, H - 70, b, fg, size=theme.FONT_TITLE, bold=True, color=theme.ACCENT))
        add(label("Kabuto Sumo and the card games with players on other machines, through a kabuto server", 42, H - 96,
                  b, fg, size=theme.FONT_SMALL, color=theme.TEXT_DIM))
        col = min(440, W // 2 - 60)
        y = H - 150
        self._heading("Server", 40, y)
        self._field("server", Rect(40, y - 48, col - 130, 34), self.server_text, 200)
        self.widgets.add(Button(Rect(40 + col - 120, y - 48, 120, 34), "Connect", self.reconnect, b,
                                fg, name="online:connect"))
        status = ("connected" if self.link.connected else
                  "not connected" if self.link.problem else "connecting...")
        add(label(status, 40, y - 66, b, fg, size=theme.FONT_SMALL,
                  color=theme.TEXT_GOOD if self.link.connected else theme.TEXT_DIM))
        y -= 120
        self._heading("Host Kabuto Sumo", 40, y)
        step = 42 if H < 700 else 50
        for h in HOSTED:
            y -= step
            self.widgets.add(Button(Rect(40, y, col, step - 8), h.label, partial(self.host_room, h), b,
                                    fg, enabled=self.link.connected, name=f"host:{h.key}"))
        y -= step
        self.widgets.add(Button(Rect(40, y, col, step - 8), f"Your wrestler: {self._wrestler_words()}",
                                self.next_wrestler, b, fg, size=theme.FONT_SMALL, name="online:wrestler"))
        x = 40 + col + 40
        y = H - 150
        self._heading("Join a room", x, y)
        self._field("code", Rect(x, y - 48, 150, 34), self.code_text, 6, _code_chars)
        on = self.link.connected
        self.widgets.add(Button(Rect(x + 160, y - 48, 90, 34), "Join", self.join_room, b, fg,
                                enabled=on, name="online:join"))
        self.widgets.add(Button(Rect(x + 260, y - 48, 90, 34), "Watch", self.watch_room, b, fg,
                                enabled=on, name="online:watch"))
        add(label("Type the room code the host gives you.", x, y - 66, b, fg, size=theme.FONT_SMALL,
                  color=theme.TEXT_DIM))
        y -= 96
        saved = self.saved_seat()
        if saved is not None:
            text = f"Rejoin your game: room {saved.room}, as {theme.seat_name(saved.seat)}"
            self.widgets.add(Button(Rect(x, y - 28, 350, 36), text, self.rejoin, b, fg, enabled=on,
                                    size=theme.FONT_SMALL, name="online:rejoin"))
        y -= 60
        self._heading("Host a card game", x, y)
        bw = (W - x - 50) // 2
        row = 40 if H < 700 else 46
        for i, h in enumerate(hosted_card_games()):
            bx, by = x + (i % 2) * (bw + 10), y - 44 - (i // 2) * row
            self.widgets.add(Button(Rect(bx, by, bw, row - 8), h.label, partial(self.host_room, h), b,
                                    fg, enabled=on, size=theme.FONT_SMALL, name=f"host:{h.key}"))

    def _build_room(self) -> None:
        W, H = self.app.width, self.app.height
        b, fg = self.batch, self.g_fg
        add = self.items.append
        st = self.state
        add(label(f"ROOM {st.room}", 40, H - 70, b, fg, size=theme.FONT_TITLE, bold=True,
                  color=theme.ACCENT))
        what = self._game_words()
        add(label(f"{what}. The other players join with this code on their Play online screen.",
                  42, H - 100, b, fg, size=theme.FONT_SMALL, color=theme.TEXT_DIM, width=int(W - 90),
                  multiline=True, anchor_y="baseline"))
        y = H - 160
        self._heading("Seats" if st.seat is not None else "Seats (you are watching)", 40, y)
        for i in range(st.players):
            y -= 44
            info = st.seats[i] if i < len(st.seats) else {}
            add(shapes.Circle(52, y + 14, 10, segments=24, color=theme.seat_colour(i), batch=b, group=fg))
            add(label(theme.seat_name(i), 72, y + 8, b, fg, bold=True))
            add(label(self._seat_words(i, info), 160, y + 8, b, fg,
                      color=theme.TEXT if info.get("taken") else theme.TEXT_DIM))
            if st.seat is None and not info.get("taken") and st.status == "waiting":
                self.widgets.add(Button(Rect(470, y, 110, 30), "Sit here", partial(self.take_seat, i),
                                        b, fg, size=theme.FONT_SMALL, name=f"sit:{i}"))
        if st.seat is not None and st.status == "waiting":
            y -= 70
            self.widgets.add(Button(Rect(40, y, 300, 40), "Fill the empty seats with bots", self.fill,
                                    b, fg, name="online:fill"))
            level = self._level()
            self.widgets.add(Button(Rect(350, y, 230, 40), f"Bot level: {CARD_BOT_WORDS.get(level, level)}",
                                    self.next_level, b, fg, name="online:level"))
            add(label("The game starts when every seat is taken.", 40, y - 24, b, fg,
                      size=theme.FONT_SMALL, color=theme.TEXT_DIM))

    def _game_words(self) -> str:
        st = self.state
        if st.game != KABUTO:
            same = [h for h in hosted_card_games() if h.game == st.game and h.players == st.players
                    and dict(h.options) == self._options]
            return same[0].label if same else "A card game"
        junior = bool(self._options.get("junior"))
        return f"{'Junior League' if junior else 'Kabuto Sumo'}, {st.players} players"

    def _seat_words(self, i: int, info: dict[str, Any]) -> str:
        keys = str(self._options.get("wrestlers") or "").split(",")
        plays = f" - {wrestler(keys[i]).name}" if i < len(keys) and keys[i] else ""
        if i == self.state.seat:
            return "you" + plays
        if info.get("bot"):
            return f"a server bot ({info['bot']})" + plays
        if not info.get("taken"):
            return "empty - waiting for a player" + plays
        name = str(info.get("name") or "a player")
        return name + ("" if info.get("connected") else " (away)") + plays

    # ----- actions -------------------------------------------------------------------------------------
    def saved_seat(self) -> SavedSeat | None:
        s = self.memory.seat
        return s if s is not None and s.server == self.link.url else None

    def _say(self, problem: str = "", good: str = "") -> None:
        self.message, self.good = problem, good
        self.rebuild()

    def _focus_field(self, f: TextField) -> None:
        self.focus = f.name.removeprefix("field:")
        for name, other in self.fields.items():
            other.set_focus(name == self.focus)

    def reconnect(self) -> None:
        url = self.server_text.strip()
        if not url.startswith(("ws://", "wss://")):
            url = "ws://" + url
        self.link.close()
        self.link = self._connect(url)
        self.server_text = url
        self.memory.server = url
        self.memory.save(self.host.data_dir)
        self._say(good=f"connecting to {url}...")

    def _wrestler_words(self) -> str:
        return wrestler(self.wrestler).name if self.wrestler else "drawn at random"

    def next_wrestler(self) -> None:
        """The host's wrestler: each card in turn, then "drawn at random" again."""
        keys = ["", *(w.key for w in load_wrestlers())]
        self.wrestler = keys[(keys.index(self.wrestler) + 1) % len(keys)] if self.wrestler in keys else ""
        self.rebuild()

    def host_room(self, h: Hosted) -> None:
        msg = h.create()
        if h.game == KABUTO and not dict(h.options).get("junior") and self.wrestler:
            # The host (seat 0) plays the chosen card; the other seats' are drawn, all different.
            others = [w.key for w in load_wrestlers() if w.key != self.wrestler]
            picks = secrets.SystemRandom().sample(others, h.players - 1)
            msg["options"] = {**dict(h.options), "wrestlers": ",".join([self.wrestler, *picks])}
        self._options = dict(msg.get("options") or {})
        self.link.send(msg)
        self._say(good="opening a room...")

    def _code(self) -> str | None:
        code = self.code_text.strip().upper()
        if len(code) != 6:
            self._say("A room code is 6 letters and digits, such as K7QW2M.")
            return None
        return code

    def join_room(self) -> None:
        code = self._code()
        if code is not None:
            self.link.send({"type": "join", "room": code})

    def watch_room(self) -> None:
        code = self._code()
        if code is not None:
            self.link.send({"type": "watch", "room": code})

    def take_seat(self, seat: int) -> None:
        """From watching a waiting room to sitting in it: leave as a spectator, join that seat."""
        room = self.state.room
        if room is None:
            return
        self._ignore.add(self.link.send({"type": "leave"}))
        self.link.send({"type": "join", "room": room, "seat": seat})

    def _levels(self) -> tuple[str, ...]:
        return BOT_LEVELS if self.state.game in (None, KABUTO) else CARD_BOT_LEVELS

    def _level(self) -> str:
        """The bot level chosen (the card bots' "heuristic" until one is chosen for a card game)."""
        levels = self._levels()
        if self.level in levels:
            return self.level
        return "heuristic" if levels is CARD_BOT_LEVELS else levels[0]

    def fill(self) -> None:
        self.link.send({"type": "fill", "bot": self._level()})

    def next_level(self) -> None:
        levels = self._levels()
        self.level = levels[(levels.index(self._level()) + 1) % len(levels)]
        self.rebuild()

    def rejoin(self) -> None:
        saved = self.saved_seat()
        if saved is not None:
            self.link.send({"type": "resume", "room": saved.room, "token": saved.token, "id": "rejoin"})

    def back(self) -> None:
        if self.in_room:
            self.link.send({"type": "leave"})
            self.link.rejoin = None
            held = self.memory.seat
            if self.state.status == "waiting" and held is not None and held.room == self.state.room:
                self.memory.seat = None  # a seat of a game not started is given up by leaving
                self.memory.save(self.host.data_dir)
            self.state = RoomState()
            self._say()
        else:
            self.host.open_menu()

    # ----- the network, once a frame ---------------------------------------------------------------------
    def update(self, dt: float) -> bool:
        msgs = self.link.poll(dt)
        if not msgs:
            return False
        for i, msg in enumerate(msgs):
            if self._take(msg):
                self._to_table(msgs[i + 1:], msg)
                return True
        self.rebuild()
        return True

    def _take(self, msg: dict[str, Any]) -> bool:
        """One message; True when the game is on (the table takes over)."""
        kind = msg.get("type")
        if msg.get("re") in self._ignore:
            self._ignore.discard(msg["re"])
            return False
        if kind == "welcome":
            self.message, self.good = "", f"connected to {self.link.url}"
        elif kind == "closed":
            self.message, self.good = words(msg, self.link.url), ""
        elif kind == "error":
            self.message, self.good = words(msg, self.link.url), ""
            if msg.get("re") == "rejoin" and msg.get("code") in ("no-room", "bad-token"):
                self.memory.seat = None  # that seat is gone for good
                self.memory.save(self.host.data_dir)
        elif kind in ("joined", "watching"):
            self.state = RoomState()
            self.state.apply(msg)
            self._options = dict(msg.get("options") or {})
            self.message, self.good = "", ""
            if kind == "joined" and self.state.token is not None:
                self.memory.seat = SavedSeat(self.link.url, msg["room"], msg["seat"], self.state.token,
                                             str(msg.get("game", KABUTO)))
                self.memory.save(self.host.data_dir)
            elif kind == "joined" and self.memory.seat is not None:
                self.state.token = self.memory.seat.token  # a resume: the token we sent
            self.link.hold(msg["room"], self.state.token if kind == "joined" else None)
        elif kind in ("room", "state"):
            self.state.apply(msg)
            if kind == "state" and self.state.view is not None:
                return True
        elif kind == "left":
            self.state = RoomState()
        return False

    def _to_table(self, rest: list[dict[str, Any]], first: dict[str, Any]) -> None:
        st = self.state
        assert st.view is not None and st.room is not None
        self._handed = True
        if st.game != KABUTO:
            self._to_card_table(rest, first)
            return
        session = OnlineSession(st.view, st.step, st.seat, st.room, st.seats, self.link.send)
        for msg in rest:
            session.receive(msg)
        app = self.host
        scene = OnlineTableScene(self.app, session, self.link, on_leave=self._back_to_lobby,
                                 ai_delay=app.options.ai_delay, pace=app.settings.pace,
                                 on_pace=app.set_pace)
        self.app.set_scene(scene)

    def _to_card_table(self, rest: list[dict[str, Any]], first: dict[str, Any]) -> None:
        st = self.state
        assert st.game is not None
        self.app.set_scene(card_scene(self.app, st.game, st.players, self._options, st.seat, st.seats,
                                      first, rest, self.link, back=self._back_to_lobby))

    def _back_to_lobby(self) -> None:
        if _finished(self.app.scene):  # a game that is over has no seat to rejoin
            self.memory = Memory.load(self.host.data_dir)
            self.memory.seat = None
            self.memory.save(self.host.data_dir)
        self.app.set_scene(LobbyScene(self.host, self._factory))

    # ----- keys ----------------------------------------------------------------------------------------
    def on_text(self, text: str) -> bool:
        f = self.fields.get(self.focus)
        if f is None or not text.isprintable():
            return False
        f.type(text)
        self._store(f)
        return True

    def _store(self, f: TextField) -> None:
        if f.name == "field:server":
            self.server_text = f.text
        else:
            self.code_text = f.text

    def on_key_press(self, symbol, modifiers) -> bool:
        f = self.fields.get(self.focus)
        if symbol == key.BACKSPACE and f is not None:
            f.backspace()
            self._store(f)
            return True
        if symbol == key.TAB and self.fields:
            names = list(self.fields)
            nxt = names[(names.index(self.focus) + 1) % len(names)] if self.focus in names else names[0]
            self._focus_field(self.fields[nxt])
            return True
        if symbol in (key.ENTER, key.RETURN):
            if self.focus == "server":
                self.reconnect()
            elif not self.in_room:
                self.join_room()
            return True
        if symbol == key.ESCAPE:
            self.back()
            return True
        return False

    def close(self) -> None:
        super().close()
        if not self._handed:
            self.link.close()


class OnlineTableScene(TableScene):
    """The Kabuto table of an online room (module docstring). ``on_leave`` goes back to the lobby;
    leaving keeps the seat (the lobby's Rejoin takes it back)."""

    def __init__(self, app, session: OnlineSession, link: Link, *, on_leave: Callable[[], None],
                 **kw: Any):
        self.link = link
        self.online: OnlineSession = session
        self._request: PlanRequest | None = None
        super().__init__(app, session, on_menu=on_leave, on_rematch=on_leave, **kw)

    # The flow asks for "the AI's plan" of a seat that plays by itself: here, the server's next state.
    def _start_ai(self) -> None:
        req = self.flow.take_plan_request()
        if req is not None:
            self._request = req
            self.invalidate()

    def _poll_ai(self) -> None:
        if self._request is None or not self.online.has_next():
            return
        req, self._request = self._request, None
        if self.flow.ai_planned(req.token, self.online.next_steps()):
            self._after_flow()

    def update(self, dt: float) -> bool:
        self._network(dt)
        return super().update(dt)

    def _network(self, dt: float) -> None:
        s = self.online
        msgs = self.link.poll(dt)
        for msg in msgs:
            s.receive(msg)
        problem = "the connection to the server was lost - trying again..." if self.link.lost else ""
        if problem != s.connection:
            s.connection = problem
            self._refresh_status()
        if self.mode in (Phase.PLAYING, Phase.AI_SHOWING):
            return  # what came waits for the push on show to end
        if s.resync or s.refusal:
            text = s.refusal if s.refusal and not s.resync else s.jump()
            s.refusal = ""
            self._request = None
            self.flow.reset(text)
            self._landed()
        elif msgs:
            self.rebuild()  # the seats may have changed (a player away, back)

    @property
    def finished(self) -> bool:
        """The game is over (leaving forgets the seat: there is nothing to rejoin)."""
        return self.online.winner() is not None

    def _saved_where(self) -> str:
        if self.finished:
            return "This game is over; the server keeps its replay."
        return ("The server keeps this game and your seat: Rejoin on the Play online screen takes "
                "you back to it." if self.online.me is not None else "You are watching this game.")

    def save_game(self) -> None:
        self.flow.say("the server records this game in its replays folder")
        self._refresh_status()

    def close(self) -> None:
        super().close()
        self.link.close()


def _finished(scene: Any) -> bool:
    """Whether the online table ``scene`` (Kabuto Sumo or a card game) shows a game that is over."""
    if isinstance(scene, OnlineTableScene):
        return scene.finished
    match = getattr(getattr(scene, "model", None), "match", None)
    return bool(getattr(match, "over", False))


__all__ = ["LobbyScene", "OnlineTableScene", "TextField"]
