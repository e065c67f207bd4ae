"""The replay viewer: a recorded game on the table, stepped forward and back, played and paused,
at an adjustable speed; and a small browser to pick the file.

Forward re-plays the step with the rules engine (pushes are simulated again and animated from
their trajectories, and must reach the recorded state); back jumps to the saved earlier state.
Keys: Right / Left step, Space plays or pauses, Home / End jump, [ and ] change the speed.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from pyglet import shapes
from pyglet.window import key

from kabuto.app.game_session import GameSession
from kabuto.app.replay_model import ReplayModel, open_recording
from kabuto.app.scene.table import TableScene
from kabuto.app.session import Outcome
from kabuto.ui import theme
from kabuto.ui.geometry import Rect
from kabuto.ui.scene import WidgetScene
from kabuto.ui.text import shown
from kabuto.ui.widgets import Button, label

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)
PAUSE_BETWEEN = 0.8  # seconds between steps while playing, at speed 1


class ReplaySession(GameSession):
    """The recorded game as the table shows it; nobody can push."""

    interactive = False

    def __init__(self, model: ReplayModel):
        seats = model.seats if len(model.seats) == model.game.players else ("human",) * model.game.players
        super().__init__(model.game, tuple(seats), record=False)
        self.model = model
        self.title = "Replay"

    def sync(self) -> None:
        self.game = self.model.game

    def choices(self):
        return []

    def moves(self):
        return []

    def can_undo(self) -> bool:
        return False

    def seat_is_ai(self, seat) -> bool:
        return False

    def status(self) -> str:
        m = self.model
        return f"step {m.pos} of {m.steps}: {m.describe()}"


class ReplayScene(TableScene):
    """A :class:`TableScene` whose aim bar holds the replay controls."""

    session: ReplaySession

    def __init__(self, app, model: ReplayModel, on_menu=None):
        self.model = model
        self.playing = False
        self.speed_index = SPEEDS.index(1.0)
        self._wait = 0.0
        super().__init__(app, ReplaySession(model), on_menu=on_menu, ai_delay=0.0)

    @classmethod
    def open(cls, app_obj, path: Path) -> ReplayScene:
        """A viewer for ``path`` inside the app (ValueError if the file is not a recording)."""
        return cls(app_obj.window, open_recording(path), on_menu=app_obj.open_menu)

    # ----- controls ----------------------------------------------------------------------------------
    def rebuild(self) -> None:
        super().rebuild()
        r = self.bar_rect
        b, g = self.batch, self.g_ui
        x = r.x + 10
        y = r.y + r.h - 36
        for name, text, fn, w in (("start", "|<", lambda: self.seek(0), 40),
                                  ("back", "< step", self.step_back, 70),
                                  ("play", "Pause" if self.playing else "Play", self.toggle_play, 70),
                                  ("forward", "step >", self.step_forward, 70),
                                  ("end", ">|", lambda: self.seek(self.model.steps), 40),
                                  ("slower", "slower", lambda: self.change_speed(-1), 64),
                                  ("faster", "faster", lambda: self.change_speed(1), 64)):
            self.widgets.add(Button(Rect(x, y, w, 28), text, fn, b, g, size=theme.FONT_SMALL,
                                    selected=(name == "play" and self.playing), name=f"replay:{name}"))
            x += w + 6
        self.bar.show(f"speed x{self.play_speed:g}   -   step {self.model.pos} of {self.model.steps}"
                      f"   -   Right/Left step, Space play/pause, [ ] speed", self.model.source)
        if self.bar.reason is not None:
            self.bar.reason.color = theme.TEXT_DIM

    def _refresh_aim(self) -> None:
        if self.mode != "playing":
            self.ring.show_aim(None)

    def _during_play(self) -> None:
        self.event_label.text = shown(self.message)  # it may quote the file
        self.invalidate()

    def toggle_tuning(self) -> None:
        pass  # a replay plays with the materials it recorded

    @property
    def play_speed(self) -> float:
        return SPEEDS[getattr(self, "speed_index", 2)]

    @play_speed.setter
    def play_speed(self, value: float) -> None:
        pass  # the table's default; the viewer's speed comes from speed_index

    def change_speed(self, step: int) -> None:
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + step))
        if self.playback is not None:
            self.playback.speed = self.play_speed
        self.rebuild()

    def toggle_play(self) -> None:
        self.playing = not self.playing
        if self.playing and self.model.pos >= self.model.steps:
            self.seek(0)
        self._wait = 0.0
        self.rebuild()

    def step_forward(self) -> None:
        if self.mode not in ("aim", "over") or self.model.pos >= self.model.steps:
            if self.model.pos >= self.model.steps:
                self.playing = False
            return
        try:
            out = self.model.forward()
        except ValueError as exc:
            self.playing = False
            self.message = f"the replay stops here: {exc}"
            self.rebuild()
            return
        self.session.sync()
        self._clear_over()
        self.flow.reset(self.model.describe())
        if out is None:
            self._landed()
            return
        self._play(Outcome(out.physics, self.session._destinations(out.knocked_out), self.message))

    def step_back(self) -> None:
        self.seek(self.model.pos - 1)

    def seek(self, k: int) -> None:
        if self.mode == "playing":
            # Finish the running animation at once: the state is already the step's end.
            self.playback = None
            for _, shp, _ in self.flights:
                for s in shp:
                    s.delete()
            self.flights = []
        err = ""
        try:
            self.model.seek(k)
        except ValueError as exc:
            err = f"the replay stops here: {exc}"
            self.playing = False
        self.session.sync()
        self._clear_over()
        self.flow.reset(err or self.model.describe())
        self._landed()

    def _landed(self) -> None:
        super()._landed()
        self._wait = PAUSE_BETWEEN / self.play_speed

    def _build_over(self) -> None:
        """In a replay the result is a banner, not a dialog: the controls stay usable."""
        self._clear_over()
        win = self.session.winner()
        if win is None:
            return
        a = self.ring_area
        # Over the ring area: in the live batch, above the pieces (see TableScene).
        self._over_items += [
            shapes.Rectangle(a.x, a.y, a.w, 34, color=(*theme.PANEL[:3], 230), batch=self.live,
                             group=self.g_over),
            label(f"Result: {win.reason}", a.x + 12, a.y + 11, self.live, self.g_over,
                  color=theme.ACCENT),
        ]

    def update(self, dt: float) -> bool:
        moving = self._animate(dt)
        if self.playing and self.mode in ("aim", "over") and not self.flights:
            # Waiting between steps draws nothing; the next step asks for its frames itself.
            self._wait -= dt
            if self._wait <= 0:
                if self.model.pos >= self.model.steps:
                    self.playing = False
                    self.rebuild()
                else:
                    self.step_forward()
        return self._frame_due(moving)

    # ----- input -------------------------------------------------------------------------------------
    def on_key_press(self, symbol, modifiers) -> bool:
        actions = {key.RIGHT: self.step_forward, key.LEFT: self.step_back, key.SPACE: self.toggle_play,
                   key.HOME: lambda: self.seek(0), key.END: lambda: self.seek(self.model.steps),
                   key.BRACKETLEFT: lambda: self.change_speed(-1),
                   key.BRACKETRIGHT: lambda: self.change_speed(1)}
        if symbol in actions:
            actions[symbol]()
            return True
        if symbol == key.ESCAPE:
            self._to_menu()
            return True
        return super().on_key_press(symbol, modifiers)


class ReplayBrowser(WidgetScene):
    """Pick a replay (or saved game, ``*.json``) from a folder (default: the per-user replays
    folder every game is recorded in, :func:`kabuto.replay.userdata.replays_dir`)."""

    def __init__(self, app_obj, folder: Path | None = None):
        super().__init__(app_obj.window)
        self.app_obj = app_obj
        if folder is None:
            from kabuto.replay.userdata import replays_dir

            folder = replays_dir(app_obj.options.data_dir)
        self.folder = Path(folder)
        self.message = ""

    def files(self) -> list[Path]:
        try:
            found = [p for p in self.folder.iterdir() if p.suffix == ".json" and p.is_file()]
        except OSError:
            return []
        return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)

    def rebuild(self) -> None:
        self.clear_page()
        W, H = self.app.width, self.app.height
        b = self.batch
        self.items.append(label("Replays", 40, H - 70, b, size=theme.FONT_TITLE, bold=True,
                                color=theme.ACCENT))
        self.items.append(label(f"recorded games in {self.folder}, newest first", 40, H - 100, b,
                                color=theme.TEXT_DIM))
        y = H - 150
        files = self.files()
        if not files:
            self.items.append(label("no replays here yet - every game you play is recorded here; "
                                    "or open a file with kabuto play --replay FILE", 40, y, b,
                                    color=theme.TEXT_DIM))
        for p in files[: max(1, int((y - 90) // 36))]:
            self.widgets.add(Button(Rect(40, y - 6, min(700, W - 80), 30), p.name,
                                    partial(self.open, p), b, size=theme.FONT_SMALL,
                                    name=f"file:{p.name}"))
            y -= 36
        self.widgets.add(Button(Rect(40, 30, 140, 36), "Back (Esc)", self.app_obj.open_menu, b,
                                name="back"))
        if self.message:
            self.items.append(label(self.message, 200, 42, b, color=theme.TEXT_BAD,
                                    width=int(W - 240), multiline=True))

    def open(self, path: Path) -> None:
        try:
            scene = ReplayScene.open(self.app_obj, path)
        except ValueError as exc:
            self.message = str(exc)
            self.rebuild()
            return
        self.app.set_scene(scene)

    def on_key_press(self, symbol, modifiers) -> bool:
        if symbol == key.ESCAPE:
            self.app_obj.open_menu()
            return True
        return False
