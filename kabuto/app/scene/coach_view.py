"""The coach at the table: G asks for a hint (a good push), D for the danger, C switches the coach on or off.

The search (:mod:`kabuto.app.coach`) runs in the background worker (:mod:`kabuto_ui.worker`) on a
copy of the game; an answer for a position the table has left is dropped. The answer is drawn as a
line across the ring (green: the hint, red: the danger) with the pieces it is expected to knock out
ringed, and said in the line over the ring.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from pyglet import shapes

from kabuto.ai.plan import PushChoice
from kabuto.app import coach
from kabuto_ui.worker import Worker

HINT_COLOUR = (90, 220, 120, 255)
DANGER_COLOUR = (235, 80, 70, 255)


def _hint(game: Any, seed: int) -> coach.Advice | None:
    return coach.hint(game, seed)


def _danger(game: Any, aim: PushChoice | None, seed: int) -> coach.Advice | None:
    return coach.danger(game, aim, seed)


class CoachView:
    """The table's coach; ``on``: whether H and D answer (the beginner level's default)."""

    def __init__(self, scene: Any, on: bool, on_switch: Callable[[bool], None] | None = None):
        self.scene = scene
        self.on = on
        self.on_switch = on_switch   # told of the player's switch, to keep it for later games
        self.worker = Worker("kabuto-coach")
        self.advice: coach.Advice | None = None
        self._shapes: list = []

    @staticmethod
    def allowed(session: Any) -> bool:
        """A local game or a replay: never an online room (the coach would be a cheat)."""
        from kabuto.app.online_session import OnlineSession

        return getattr(session, "game", None) is not None and not isinstance(session, OnlineSession)

    def _where(self) -> tuple[int, int]:
        game = self.scene.session.game
        return (len(game.history), game.turn.number)

    def ask(self, what: str) -> None:
        """Ask for a hint ("hint") or the danger ("danger") in the position on the table."""
        s = self.scene
        if not self.allowed(s.session):
            return
        if not self.on:
            s.flow.say("the coach is off: C switches it on")
            s._refresh_status()
            return
        game = s.session.game
        if game.is_over:
            return
        self.clear()
        seed = self._where()[0]
        if what == "hint":
            self.worker.submit(_hint, game.clone(), seed, token=(what, self._where()))
        else:
            kind = s.choice_key if s.flow.may_aim else None
            a = s.aim
            aim = PushChoice(kind, a.entry_deg, a.heading_deg, a.speed, a.spin_deg) if kind else None
            self.worker.submit(_danger, game.clone(), aim, seed, token=(what, self._where()))
        s.flow.say("the coach is looking for " + ("a good push..." if what == "hint"
                                                 else "the strongest reply..."))
        s._refresh_status()

    def toggle(self) -> None:
        self.on = not self.on
        if self.on_switch is not None:
            self.on_switch(self.on)
        if not self.on:
            self.worker.cancel()
            self.clear()
        self.scene.flow.say("coach on: G for a good push, D for the danger" if self.on else "coach off")
        self.scene._refresh_status()

    def poll(self) -> bool:
        """In the table's update: show an answer that has come (True if one was shown)."""
        done = self.worker.poll()
        if done is None:
            return False
        what, where = cast(tuple, done.token)
        if where != self._where():
            return False   # the table moved on
        s = self.scene
        self.advice = done.value
        if self.advice is None:
            s.flow.say("the coach has nothing to show here")
        else:
            self._draw(self.advice)
            s.flow.say(self.advice.text)
        s._refresh_status()
        s.invalidate()
        return True

    def _draw(self, advice: coach.Advice) -> None:
        s = self.scene
        t = s.ring.transform
        R = s.session.materials.ring.radius
        colour = HINT_COLOUR if advice.what == "hint" else DANGER_COLOUR
        if advice.aim is not None:      # a turn of moves alone draws no line, only its marks
            x0, y0 = t.to_screen(*advice.aim.entry_point(R))
            x1, y1 = t.to_screen(*advice.aim.exit_point(R))
            self._shapes = [
                shapes.Line(x0, y0, x1, y1, thickness=3, color=colour, batch=s.live, group=s.g_fx),
                shapes.Circle(x0, y0, 7, segments=20, color=colour, batch=s.live, group=s.g_fx),
            ]
        for pid in advice.falls:
            s.ring.set_mark(pid, colour)

    def clear(self) -> None:
        for sh in self._shapes:
            sh.delete()
        self._shapes = []
        if self.advice is not None:
            for pid in self.advice.falls:
                self.scene.ring.set_mark(pid, None)
        self.advice = None

    def close(self) -> None:
        self.worker.close()
