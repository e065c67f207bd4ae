"""The replay viewer: a recorded game on the table, stepped forward and back, played and paused,
at an adjustable speed; and a small browser to pick the file.

Forward re-plays the step with the rules engine (pushes are simulated again and animated from
their trajectories); where a push lands elsewhere than recorded with the same pieces (a file from
another Python, processor or build), the board goes on from the recorded state and the bar says so
in one line. Back jumps to the saved earlier state.
Keys: Right / Left step, Space plays or pauses, Home / End jump, [ and ] change the speed.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from pyglet import shapes
from pyglet.window import key

from kabuto.app.game_session import GameSession
from kabuto.app.replay_list import ReplayEntry, list_replays
from kabuto.app.replay_model import ReplayModel, open_recording
from kabuto.app.scene.table import TableScene
from kabuto.app.session import PanelSnapshot, TableOutcome
from kabuto.app.table_flow import Phase
from kabuto_ui import theme
from kabuto_ui.geometry import Rect
from kabuto_ui.overlay import confirm
from kabuto_ui.scene import WidgetScene
from kabuto_ui.text import shown
from kabuto_ui.widgets import Button, fit_text, label

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)
PAUSE_BETWEEN = 0.8  # seconds between steps while playing, at speed 1
AIM_SHOWN = 0.7      # seconds a push's aim shows before it plays, at speed 1 (as the AI's does)


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

    def __init__(self, app, model: ReplayModel, on_menu=None, pace: str = "slow"):
        self.model = model
        self.playing = False
        self.speed_index = SPEEDS.index(1.0)
        self._wait = 0.0
        super().__init__(app, ReplaySession(model), on_menu=on_menu, ai_delay=0.0, pace=pace)

    @classmethod
    def open(cls, app_obj, path: Path) -> ReplayScene:
        """A viewer for ``path`` inside the app (ValueError if the file is not a recording)."""
        settings = getattr(app_obj, "settings", None)  # the pushes play at the player's pace
        return cls(app_obj.window, open_recording(path), on_menu=app_obj.open_menu,
                   pace=settings.pace if settings is not None else "slow")

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
                      f"   -   Right/Left step, Space play/pause, [ ] speed",
                      self.model.notice or self.model.source)
        if self.bar.reason is not None:
            self.bar.reason.color = theme.TEXT_DIM

    def _refresh_aim(self) -> None:
        if self.mode is Phase.SHOWING:
            super()._refresh_aim()  # the push's platform, piece and line, before it plays
        elif self.mode is not Phase.PLAYING:
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
            self.playback.speed = self._speed_for(self.playback.duration)
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
        before = PanelSnapshot(self.session)  # the panels until the step has played
        try:
            out = self.model.forward()
        except ValueError as exc:
            self.playing = False
            self.message = f"the replay stops here: {exc}"
            self.rebuild()
            return
        self.session.sync()
        before.say(self.session.status())  # the inventories as they were; the step being played
        self._clear_over()
        self.flow.reset(self.model.describe())
        entry = self.model.entry(self.model.pos)
        seat = entry.get("seat")
        if out is None:
            if entry.get("type") == "move" and isinstance(seat, int):   # the log lists moves too
                self.game_log.started(f"{self.session.seat_name(seat)} used {entry.get('name')}",
                                      self.model.pos)
            self._landed()
            return
        said = self.session.push_sentence(seat, out) if isinstance(seat, int) else self.message
        self._play(TableOutcome(out.physics, self.session.destinations(out.knocked_out), said),
                   show_aim=AIM_SHOWN / self.play_speed, before=before)

    def log_step(self) -> int:
        return self.model.pos

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
        self.game_log.keep_until(self.model.pos)
        self.flow.reset(err or self.model.describe())
        self._landed()
        self.log_panel.build(self.log_panel.rect)

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
    """The recorded games of a folder (default: the per-user replays folder every game is
    recorded in, :func:`kabuto.replay.userdata.replays_dir`), newest first: when, who played, the
    result or "unfinished", how long. Each may be watched, an unfinished one resumed, and any
    deleted (after asking)."""

    ROW = 50

    def __init__(self, app_obj, folder: Path | None = None):
        super().__init__(app_obj.window)
        self.app_obj = app_obj
        if folder is None:
            from kabuto.replay.userdata import replays_dir

            folder = replays_dir(app_obj.options.data_dir)
        self.folder = Path(folder)
        self.message = ""
        self.first = 0  # the first row shown (the wheel scrolls)
        self.entries: list[ReplayEntry] = []
        self.unreadable = 0
        self.reload()

    def reload(self) -> None:
        self.entries, self.unreadable = list_replays(self.folder)

    def files(self) -> list[Path]:
        return [e.path for e in self.entries]

    def rows_fit(self) -> int:
        return max(1, int((self.app.height - 170 - 90) // self.ROW))

    def rebuild(self) -> None:
        self.clear_page()
        W, H = self.app.width, self.app.height
        b = self.batch
        add = self.items.append
        add(label("Replays", 40, H - 70, b, size=theme.FONT_TITLE, bold=True, color=theme.ACCENT))
        add(label("Every game you play is recorded. Watch one, go on with an unfinished one, or "
                  "delete it.", 40, H - 100, b, color=theme.TEXT_DIM))
        # Each row: when, the result and the length on one line, who played under it (the whole
        # width left of the three buttons), the buttons at the right.
        buttons_w = 3 * 86
        text_w = W - 80 - buttons_w - 12
        x_result, x_len = 40 + 190, 40 + text_w - 110
        y = H - 130
        if not self.entries:
            add(label("No replays here yet: every game you play is recorded here.", 40, y - 40, b,
                      color=theme.TEXT_DIM))
        self.first = max(0, min(self.first, len(self.entries) - self.rows_fit()))
        shown = self.entries[self.first:self.first + self.rows_fit()]
        for e in shown:
            y -= self.ROW
            for x, yy, text, width, colour in (
                    (40, y + 22, e.date, 180, theme.TEXT),
                    (x_result, y + 22, e.result, x_len - x_result - 12,
                     theme.ACCENT if e.unfinished else theme.TEXT_DIM),
                    (x_len, y + 22, e.length, 110, theme.TEXT_DIM),
                    (40, y + 4, e.players, text_w, theme.TEXT_DIM)):
                lab = label("", x, yy, b, size=theme.FONT_SMALL, color=colour)
                fit_text(lab, text, width)
                add(lab)
            bx = W - 40 - buttons_w
            for text, fn, on, name in (("Watch", partial(self.open, e.path), True, "watch"),
                                       ("Resume", partial(self.resume, e.path), e.unfinished, "resume"),
                                       ("Delete", partial(self.ask_delete, e), True, "delete")):
                self.widgets.add(Button(Rect(bx, y + 4, 80, 30), text, fn, b, size=theme.FONT_SMALL,
                                        enabled=on, name=f"{name}:{e.path.name}"))
                bx += 86
        more = len(self.entries) - self.first - len(shown)
        foot = []
        if self.first or more:
            foot.append(f"rows {self.first + 1}-{self.first + len(shown)} of {len(self.entries)}: "
                        "the wheel scrolls")
        if self.unreadable:
            foot.append(f"{self.unreadable} file{'s' * (self.unreadable != 1)} here could not be read")
        if foot:
            add(label(";  ".join(foot), 200, 70, b, size=theme.FONT_SMALL, color=theme.TEXT_DIM))
        self.widgets.add(Button(Rect(40, 30, 140, 36), "Back (Esc)", self.app_obj.open_menu, b,
                                name="back"))
        if self.message:
            add(label(self.message, 200, 42, b, color=theme.TEXT_BAD, width=int(W - 240),
                      multiline=True))

    def open(self, path: Path) -> None:
        try:
            scene = ReplayScene.open(self.app_obj, path)
        except ValueError as exc:
            self.message = str(exc)
            self.rebuild()
            return
        self.app.set_scene(scene)

    def resume(self, path: Path) -> None:
        try:
            self.app_obj.resume(path)
        except ValueError as exc:
            self.message = str(exc)
            self.rebuild()

    def ask_delete(self, entry: ReplayEntry) -> None:
        confirm(self.app, "Delete this replay?", f"{entry.date}: {entry.players} ({entry.result}, "
                f"{entry.length}). It cannot be brought back.", "Delete",
                partial(self.delete, entry.path), name="delete")

    def delete(self, path: Path) -> None:
        try:
            path.unlink()
        except OSError as exc:
            self.message = f"could not delete {path.name}: {exc.strerror}"
        self.reload()
        self.rebuild()

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y) -> bool:
        self.first = max(0, self.first - int(round(scroll_y)))
        self.rebuild()
        return True

    def on_key_press(self, symbol, modifiers) -> bool:
        if symbol == key.ESCAPE:
            self.app_obj.open_menu()
            return True
        return False
