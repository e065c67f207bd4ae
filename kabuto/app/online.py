"""Play online, without the window: the server connection as a screen uses it, what the app
remembers between sessions, and the server's refusals in a player's words. No pyglet.

* :class:`Link` is the connection to a ``kabuto serve``: a :class:`kabuto.net.client.ClientThread`
  (the network runs on a thread of its own; the screen calls :meth:`Link.poll` once a frame and
  never waits), and, once the screen holds a seat or watches a room, reconnection: when the
  connection drops it tries again every few seconds and takes the seat back with its token
  (``resume``) or watches the room again.
* :class:`Memory` is ``online.json`` in the data folder: the last server address and the seat
  last held (room, seat, token), so a player who quit or lost the connection rejoins the same seat
  from the "Play online" screen. The token is the seat's key: the file is only its owner's to read.
* :func:`words` turns a server ``error`` (or a lost connection) into one line for the player.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kabuto.net.client import ClientThread
from kabuto.net.server import ServerConfig

#: Where ``kabuto serve`` listens when started without options.
DEFAULT_URL = f"ws://127.0.0.1:{ServerConfig.port}"
#: Seconds between two attempts to get a lost connection back.
RETRY_EVERY = 2.0


@dataclass(frozen=True)
class Hosted:
    """A game the "Play online" screen can open a room of: its button and its ``create`` fields."""

    key: str
    label: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()

    game: str = "kabuto"

    def create(self, name: str | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "create", "game": self.game, "players": self.players}
        if self.options:
            msg["options"] = dict(self.options)
        if name:
            msg["name"] = name
        return msg


HOSTED = (
    Hosted("kabuto-2", "Kabuto Sumo, 2 players", 2),
    Hosted("kabuto-3", "Kabuto Sumo, 3 players", 3),
    Hosted("kabuto-4", "Kabuto Sumo, 4 players (teams)", 4),
    Hosted("junior", "Junior League, 2 players", 2, (("junior", True),)),
)
#: The server's bot levels (``fill``), easiest first: for Kabuto Sumo seats and for card games.
BOT_LEVELS = ("easy", "medium", "hard")
CARD_BOT_LEVELS = ("random", "heuristic", "mcts")
#: How the lobby names the card bots' levels.
CARD_BOT_WORDS = {"random": "random", "heuristic": "rule of thumb", "mcts": "search"}



# ----- what the app remembers ---------------------------------------------------------------------
@dataclass(frozen=True)
class SavedSeat:
    """A seat this player holds in a room of ``server`` (its token takes it back)."""

    server: str
    room: str
    seat: int
    token: str
    game: str = "kabuto"


@dataclass
class Memory:
    """``online.json``: the server address last used and the seat last held (module docstring)."""

    server: str = DEFAULT_URL
    seat: SavedSeat | None = None

    @classmethod
    def load(cls, folder: Path) -> Memory:
        """What the file says; the defaults if it is missing or not ours (never an error: a bad
        file only forgets the address)."""
        try:
            d = json.loads((folder / "online.json").read_text())
            server = d.get("server")
            mem = cls(server if isinstance(server, str) and len(server) <= 200 else DEFAULT_URL)
            s = d.get("seat")
            if isinstance(s, dict):
                mem.seat = SavedSeat(str(s["server"]), str(s["room"]), int(s["seat"]), str(s["token"]),
                                     str(s.get("game", "kabuto")))
            return mem
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return cls()

    def save(self, folder: Path) -> None:
        """Write the file (readable by its owner only: it holds a seat's token). An unwritable
        data folder only means nothing is remembered."""
        seat = None if self.seat is None else self.seat.__dict__
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / "online.json"
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as fh:
                json.dump({"server": self.server, "seat": seat}, fh)
        except OSError:
            pass


# ----- the server's words in a player's --------------------------------------------------------------
def words(msg: dict[str, Any], url: str = "") -> str:
    """One line for the player about an ``error`` or ``closed`` message."""
    if msg.get("type") == "closed":
        reason = str(msg.get("reason", ""))
        if reason.startswith("cannot connect"):
            return (f"Cannot reach a Kabuto server at {url or 'that address'}: check the address, "
                    f"and that the server is running (kabuto serve).")
        if "shutting down" in reason:
            return "The server is shutting down."
        if "taken back" in reason:
            return "Your seat was taken back from another window."
        return "The connection to the server was lost."
    code = msg.get("code")
    text = str(msg.get("message", ""))
    if code == "no-room":
        return "There is no room with that code on this server: check the code."
    if code == "room-full":
        return "That room is full: every seat is taken. You can watch it instead."
    if code == "bad-token":
        return "That seat is no longer yours (the room was closed or restarted)."
    if code == "busy":
        return "The server is busy; try again in a moment."
    if code == "bad-message" and "room code" in text:
        return "A room code is 6 letters and digits, such as K7QW2M."
    if code == "illegal":
        return text  # the rules' own words
    if code == "server-error":
        return "The server could not do that."
    return text or "The server refused that."


# ----- the connection ----------------------------------------------------------------------------------
class Link:
    """The connection a screen uses (module docstring). ``factory`` makes the client thread (the
    real one unless a test says otherwise)."""

    def __init__(self, url: str, factory: Callable[[str], Any] = ClientThread):
        self.url = url
        self._factory = factory
        self.client: Any = factory(url)
        self.connected = False
        #: What to send on a new connection to get back where we were: resume or watch.
        self.rejoin: dict[str, Any] | None = None
        self.lost = False       # the connection dropped and we are trying again
        self.problem = ""       # the last thing that went wrong, in a player's words
        self._wait = 0.0
        self._ids = 0

    def send(self, msg: dict[str, Any]) -> str:
        """Send without waiting; the message's ``id`` (the reply names it as ``re``)."""
        self._ids += 1
        msg = {**msg, "id": msg.get("id") or f"app-{self._ids}"}
        self.client.send(msg)
        return str(msg["id"])

    def poll(self, dt: float = 0.0) -> list[dict[str, Any]]:
        """The messages that came since the last frame (``dt`` seconds ago). A lost connection
        with somewhere to get back to is retried every :data:`RETRY_EVERY` seconds; it shows as a
        ``closed`` message once (then ``lost`` is True until it is back)."""
        if self.client is None:
            if self.rejoin is None:  # closed for good
                return []
            self._wait -= dt
            if self._wait <= 0:
                self._reopen()
            return []
        out = []
        for msg in self.client.poll():
            if msg.get("type") == "welcome":
                self.connected = True
                if self.lost:
                    self.lost = False
                    self.problem = ""
            elif msg.get("type") == "closed":
                was = self.connected
                self.connected = False
                self.problem = words(msg, self.url)
                if self.rejoin is not None and (was or self.lost):
                    self.lost = True
                    self.client = None
                    self._wait = RETRY_EVERY
                    if was:
                        out.append(msg)
                    return out
            out.append(msg)
        return out

    def _reopen(self) -> None:
        self.client = self._factory(self.url)
        if self.rejoin is not None:
            self.send(dict(self.rejoin))

    def hold(self, room: str, token: str | None) -> None:
        """We hold a seat (``token``) of ``room``, or watch it (None): what a new connection asks."""
        self.rejoin = ({"type": "resume", "room": room, "token": token} if token
                       else {"type": "watch", "room": room})

    def close(self) -> None:
        if self.client is not None:
            self.client.close(timeout=2.0)
        self.client = None
        self.rejoin = None
