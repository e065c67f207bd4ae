"""A card game held by a server, at the card table (:mod:`cards.table`), which plays an engine.

The card table draws everything from one engine (a :class:`cards.api.CardGame`) through its
:class:`~cards.table.match.Match`. Online, the engine is on the server and this seat may see only
its ``observation``, so the table is handed stand-ins:

* :class:`RemoteCardGame` looks like an engine to the table, built from the server's ``state``
  messages: the observation the server sent this seat (or the public one, to a spectator), the
  events as it may see them, its legal actions on its turn. ``apply`` only *sends* the action; the
  game changes when the server's answer comes and is played (:meth:`RemoteCardGame.advance`).
  There is nothing hidden here to leak: the server never sends it.
* :class:`RemoteMatch` is the table's match over it: the other seats "play by themselves" (as the
  table's bots do), and where a bot would decide, the next state the server sent is played. So the
  table's pacing, sounds, summaries and log work as at home.

* :class:`OnlineCardScene` is the card table's scene over that match, fed the server's messages
  each frame.

The card table itself knows nothing of this (cards never import the app or the network). This
module and the composition root (:mod:`kabuto.app.main`) are the app's only two places that wire
the card table in: the lobby (:mod:`kabuto.app.scene.online`) reaches it only through here.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, cast

from cards.api import CardGame, IllegalMove
from cards.table.config import SeatSpec, TableConfig, table_data
from cards.table.match import Match
from cards.table.scene import CardTableScene
from cards.table.table_model import TableModel
from kabuto.app.online import Hosted, Link


def hosted_card_games() -> tuple[Hosted, ...]:
    """The card games a room may be opened for: the card table's menu entries (the server plays
    exactly those)."""
    return tuple(Hosted(f"cards:{m.key}", m.title, m.players, tuple(sorted(m.options.items())), m.game)
                 for m in table_data().modes)


def table_mode(game: str, players: int, options: dict[str, Any]) -> str | None:
    """The card table's menu entry a room of this game plays (the server accepts no other), or
    None."""
    for m in table_data().modes:
        if m.game == game and m.players == players and dict(m.options) == dict(options):
            return m.key
    return None


class RemoteCardGame:
    """The server's card game as this seat sees it (module docstring). ``first`` is the first
    ``state`` message; ``send`` sends a message to the server."""

    def __init__(self, game: str, players: int, seat: int | None, first: dict[str, Any],
                 send: Callable[[dict[str, Any]], Any]):
        self.name = game
        self.num_players = players
        self.seat = seat
        self._send = send
        self.events: list[dict[str, Any]] = []
        self._queue: deque[dict[str, Any]] = deque()
        self.sent = False          # our action is on its way
        self.refusal = ""
        self.step = -1
        self._known = -1
        self._state: dict[str, Any] = {}
        self._adopt(first)

    # ----- the server's messages -----------------------------------------------------------------------
    def receive(self, msg: dict[str, Any]) -> bool:
        """Take in one message; True if the table has something new to show."""
        if msg.get("type") == "error" and str(msg.get("re", "")).startswith("act-"):
            self.sent = False
            self.refusal = str(msg.get("message", "the server refused that"))
            return True
        if msg.get("type") != "state":
            return False
        if "last" not in msg:
            # A full state (the game starting, a reconnection): everything waiting is in it.
            self._queue.clear()
            self._adopt(msg)
            self.sent = False
            return True
        if msg["step"] <= self._known:
            return False  # seen already
        self._queue.append(msg)
        self._known = msg["step"]
        return True

    def has_next(self) -> bool:
        return bool(self._queue)

    def next_is_ours(self) -> bool:
        """The next state answers our own action (it is shown at once, without a bot's pause)."""
        return bool(self._queue) and (self._queue[0].get("last") or {}).get("seat") == self.seat

    def advance(self) -> None:
        """Show the next state the server sent."""
        msg = self._queue.popleft()
        self._adopt(msg)
        if (msg.get("last") or {}).get("seat") == self.seat:
            self.sent = False

    def _adopt(self, msg: dict[str, Any]) -> None:
        view = dict(msg["view"])
        start = int(msg.get("events_from", 0))
        self.events = self.events[:start] + list(view.get("events", []))
        view["events"] = self.events
        self._state = {**msg, "view": view}
        self.step = msg["step"]
        self._known = max(self._known, self.step)

    # ----- what the table asks of an engine ------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        return self._state.get("to_play")

    @property
    def is_over(self) -> bool:
        return self._state.get("status") == "over" or self.to_play is None

    def observation(self, player: int) -> dict[str, Any]:
        """What the server sent this connection (the table asks only for its viewer's). A
        spectator's public view is given the keys a seat's view has, seen from seat 0's side with
        nothing in its hand: what only a seat knows is empty (the table's views draw from them)."""
        view = dict(self._state["view"])
        if self.seat is None:
            sizes = view.get("hand_sizes") or [0] * self.num_players
            view.setdefault("hand", [])
            defaults: dict[str, Any] = {
                "sumo": {"my_face_down": None},
                "sumo-card-game": {"chosen": None, "opponent_chosen": False,
                                   "opponent_hand_size": sizes[1] if len(sizes) > 1 else 0},
                "sumida-river": {"known": {}},
            }
            for k, v in defaults.get(self.name, {}).items():
                view.setdefault(k, v)
            if isinstance(view.get("trade"), dict):
                view["trade"] = {"my_add": None, "my_declaration": None, **view["trade"]}
        return view

    def legal_actions(self) -> list[str]:
        if self.sent or self.seat is None or self.to_play != self.seat:
            return []
        return list(self._state.get("legal") or [])

    def apply(self, action: str) -> None:
        """Send our action (it is played when the server's answer comes). IllegalMove, and nothing
        sent, if it is not one of the actions the server offered."""
        if self.sent or action not in self.legal_actions():
            raise IllegalMove("that is not one of your choices now" if not self.sent
                              else "your last move is still on its way")
        self.sent = True
        self.refusal = ""
        self._send({"type": "act", "id": f"act-{self.step}", "step": self.step, "action": action})

    def winners(self) -> list[int]:
        return list((self._state.get("result") or {}).get("winners", []))

    def returns(self) -> list[float]:
        res = self._state.get("result") or {}
        return list(res.get("returns", [0.0] * self.num_players))

    def clone(self) -> RemoteCardGame:
        raise IllegalMove("an online game has no copy to think on")

    def to_json(self) -> dict[str, Any]:
        raise IllegalMove("the server keeps online games")


class RemoteMatch(Match):
    """The card table's match over a :class:`RemoteCardGame` (module docstring). ``seats`` are the
    room's seats as the server describes them."""

    def __init__(self, config: TableConfig, remote: RemoteCardGame, seats: list[dict[str, Any]]):
        self.remote = remote
        self.me = remote.seat
        super().__init__(config, bot_factory=lambda spec, seed: cast(Any, None))
        self.game = cast(CardGame, remote)
        self.room_seats = list(seats)
        self.viewer = self.me if self.me is not None else 0
        self.pass_to = None
        self._summarised = len(remote.events)  # what came before is not summarised again

    @classmethod
    def for_room(cls, game: str, players: int, options: dict[str, Any], remote: RemoteCardGame,
                 seats: list[dict[str, Any]]) -> RemoteMatch:
        key = table_mode(game, players, options)
        if key is None:
            raise ValueError(f"the card table has no {game} for {players} with those options")
        specs = tuple(SeatSpec("human") if i == remote.seat else SeatSpec("bot", "heuristic")
                      for i in range(players))
        return cls(TableConfig(key, specs), remote, seats)

    def is_bot(self, seat: int) -> bool:
        """Every seat but ours plays by itself; ours too while our action is on its way."""
        return seat != self.me or self.remote.sent

    def bot_to_act(self) -> bool:
        return not self.pending and self.pass_to is None and self.remote.has_next()

    def bot_decide(self) -> str:
        return "the server's next state"

    def apply_bot(self, action: str) -> None:
        self.remote.advance()
        self._after_action()

    def seat_label(self, seat: int) -> str:
        info = self.room_seats[seat] if seat < len(self.room_seats) else {}
        if seat == self.me:
            return f"{self.names[seat]} (you)"
        if info.get("bot"):
            return f"{self.names[seat]} (server bot)"
        who = str(info.get("name") or "").strip()  # the name the player gave (kabuto join --name)
        if info.get("taken") and not info.get("connected"):
            return f"{self.names[seat]} ({who + ', ' if who else ''}away)"
        return f"{self.names[seat]} ({who})" if who else self.names[seat]

    def rematch(self) -> Match:
        return self  # a new deal is a new room: the table goes back to the lobby, which opens one

    def final_summary(self):  # noqa: ANN201 - the table's Summary
        return super().final_summary() if self.remote.events else None


#: What the card table says while the connection is away.
LOST = "The connection to the server was lost - trying again..."


class OnlineCardScene(CardTableScene):
    """The card table of an online room: the card table's own scene over a :class:`RemoteMatch`,
    fed the server's messages each frame. Leaving keeps the seat (the lobby's Rejoin takes it
    back)."""

    def __init__(self, app: Any, match: RemoteMatch, link: Link, back: Callable[[], None]):
        super().__init__(app, match.config, back=back)
        self.model = TableModel(match.config, match=match)
        self._actions_heard = match.actions_played
        self.match = match
        self.remote = match.remote
        self.link = link

    def update(self, dt: float) -> bool:
        changed = False
        for msg in self.link.poll(dt):
            changed = self.remote.receive(msg) or changed
            if msg.get("type") == "room":
                self.match.room_seats = list(msg.get("seats", []))
                changed = True
        model = self.model
        if self.link.lost:
            if model.message != LOST:
                model._say(LOST, bad=True)
        elif model.message == LOST:
            model._say("", bad=False)
        if self.remote.refusal:
            model._say(self.remote.refusal, bad=True)
            self.remote.refusal = ""
        if self.remote.next_is_ours() and not self.match.pending:
            model.apply_bot("ours")  # our own move comes back: shown at once, not after a bot's pause
            changed = True
        if changed:
            model.changed()
        return super().update(dt) or changed

    def save(self) -> None:
        return None  # the server records the game

    def close(self) -> None:
        super().close()
        self.link.close()


def card_scene(window: Any, game: str, players: int, options: dict[str, Any], seat: int | None,
               seats: list[dict[str, Any]], first: dict[str, Any], rest: list[dict[str, Any]],
               link: Link, back: Callable[[], None]) -> OnlineCardScene:
    """The card table for a room whose game has started: ``first`` is the state that started it,
    ``rest`` what came after it in the same frame."""
    remote = RemoteCardGame(game, players, seat, first, link.send)
    for msg in rest:
        remote.receive(msg)
    match = RemoteMatch.for_room(game, players, options, remote, seats)
    return OnlineCardScene(window, match, link, back)


__all__ = ["OnlineCardScene", "RemoteCardGame", "RemoteMatch", "card_scene", "hosted_card_games",
           "table_mode"]
