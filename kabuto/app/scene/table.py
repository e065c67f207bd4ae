"""The table: the ring from above, the side panel, the aim bar, the tuning panel, the win screen.

Flow of a push: the player aims (mouse or keys); on release the session simulates the push ONCE
and applies it (rules and all); the scene then plays the returned trajectory back at real speed,
shows knocked-out pieces tumbling off and flying to the inventory or supply they join, and only
then redraws the panels from the session's new state. AI seats go the same way, except their aim is
shown for ``ai_delay`` seconds first.

Drawing: ``batch`` holds what stays still while a push plays (the ring, the platform, the panels
and bars) and ``live`` what is drawn over it (every piece, the marks and aim lines, the event line
over the ring, flights, the win screen). While a push plays, the still picture is drawn once and
cached, and each frame only repairs the rectangles where something live changed
(:meth:`TableScene.draw_partial`, :mod:`kabuto_ui.frames`). The picture is the same as a whole
redraw's: the cached part is copied from the window itself, the live part is drawn in its own order
over it, and nothing still covers a live thing (the panels sit outside the ring area, and live
world drawing is clipped to it).

What the table is doing - aiming, waiting for a move's clicks, playing an outcome, the AI thinking
or showing its aim, the game over - is :class:`kabuto.app.table_flow.TableFlow`'s business: input
goes to its transitions, and the panels, bars, marks and win screen draw its
:meth:`~kabuto.app.table_flow.TableFlow.view`. This module draws, animates and routes input.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import cast

from pyglet import shapes
from pyglet.graphics import Batch, Group
from pyglet.window import key, mouse

import kabuto_assets
from kabuto.app.aim import MIN_DRAG, Aim, Limits, entry_towards, grabs_platform, heading_towards, nudge
from kabuto.app.animation import Departure, Flight, Playback, first_knock
from kabuto.app.game_log import GameLog
from kabuto.app.panels import AimBar, SidePanel
from kabuto.app.scene.coach_view import CoachView
from kabuto.app.scene.game_log import LogPanel
from kabuto.app.scene.ring_view import STILL_PX, RingView
from kabuto.app.session import MoveView, PanelSnapshot, PieceChoice, Session, TableOutcome
from kabuto.app.settings import PACE_WORDS, PACES, playback_speed
from kabuto.app.table_flow import CHOOSING, Phase, TableFlow, TableView
from kabuto.app.tuning import default_profile_dir
from kabuto.app.tuning_panel import WIDTH as TUNING_WIDTH
from kabuto.app.tuning_panel import TuningPanel
from kabuto.app.view import RingTransform
from kabuto.rules.inventory import parse_place
from kabuto_ui import theme
from kabuto_ui.frames import PixelRect, Scissor, StaticCache, merge
from kabuto_ui.geometry import Rect
from kabuto_ui.overlay import DialogButton, pause_menu, rules_page, sound_choice
from kabuto_ui.scene import Scene
from kabuto_ui.text import shown
from kabuto_ui.widgets import Button, Slider, Widgets, fit_text, label
from kabuto_ui.worker import Worker

TOP_BAR = 40
AIM_BAR = 80
PANEL_FRACTION = 0.3
PANEL_MIN, PANEL_MAX = 340, 460
SLIDER_ROOM = 240  # the speed slider's share of the aim bar's right end


class TableScene(Scene):
    """Plays one session. ``on_menu`` is called to leave (Esc, or the win screen's button)."""

    quiet_motion = True  # on_mouse_motion says when a hover changed

    def __init__(self, app, session: Session, *, on_menu: Callable[[], None] | None = None,
                 on_rematch: Callable[[], None] | None = None, ai_delay: float = 0.9,
                 profile_dir: Path | None = None, defaults=None, pace: str = "slow",
                 on_pace: Callable[[str], None] | None = None, data_dir: Path | None = None,
                 coach: bool | None = None, on_coach: Callable[[bool], None] | None = None):
        """``pace``: how pushes play back (:data:`kabuto.app.settings.PACES`; slow motion by
        default). ``data_dir``: the data folder (--data-dir); F12's screenshots go in it.
        ``coach``: the player's saved coach switch (None: on against the beginner level and in
        replays); ``on_coach`` is told when the player switches it (C)."""
        super().__init__(app)
        self.data_dir = data_dir
        self._end_after_landing = False  # E pressed while the push played
        self.pace = pace
        self.on_pace = on_pace  # told when the player changes the pace (to keep it)
        self.session = session
        self.on_menu = on_menu
        self.on_rematch = on_rematch
        self.flow = TableFlow(session, ai_delay)
        notice = getattr(session, "notice", None)
        if notice:  # a resumed game that goes on from recorded positions says so, once
            self.flow.say(notice)
        self.live = Batch()  # drawn over ``batch`` every frame (module docstring)
        self._cache = StaticCache()
        self._needs_frame = True
        self._flight_drawn: dict[int, PixelRect] = {}  # id(flight) -> where it was drawn
        self._flight_gone: list[PixelRect] = []
        self._scale = 1.0  # framebuffer pixels per window unit, as of the last frame
        self.ring = RingView(app, self.batch, session.materials, session.piece_colour, order=1,
                             live=self.live)
        self.g_ui = Group(order=10)
        self.g_tuning = Group(order=15)
        self.g_fx = Group(order=20)
        self.g_over = Group(order=30)
        self.widgets = Widgets()
        self.side = SidePanel(self.batch, self.g_ui)
        self.bar = AimBar(self.batch, self.g_ui)
        self.tuning: TuningPanel | None = None
        self.tuning_open = False
        self.profile_dir = Path(profile_dir) if profile_dir else default_profile_dir()
        self.defaults = defaults or session.materials
        self.playback: Playback | None = None
        self.flights: list[tuple[Flight, list[shapes.Circle], float]] = []
        self._kinds: dict[str, str] = {}  # piece id -> kind, of what the playing outcome moves
        self._drag: str | None = None
        self._press_world: tuple[float, float] = (0.0, 0.0)
        self._dragged = False
        self._ui_items: list = []
        self._over_items: list = []
        self._ai = Worker("kabuto-ai")      # an AI seat's plan, made off the window's thread
        self._status_width = 1.0
        self.ring_area = Rect(0, 0, 1, 1)
        self.panel_rect = Rect(0, 0, 1, 1)
        self.bar_rect = Rect(0, 0, 1, 1)
        self.play_speed = 1.0  # real speed; the replay viewer changes it
        self._clack_at: float | None = None  # when the playing push first knocks another piece
        self._cheered = False
        self.ring.show_world(session.world())
        self.game_log = GameLog()
        self.log_panel = LogPanel(self.game_log, self.batch, Group(order=12), on_seat=self.show_card,
                                  over=self.live)
        # The coach (G, D, C): the player's switch if saved, else on against the beginner level
        # and in replays (never in an online room: CoachView.allowed).
        default = getattr(session, "ai_level", "") == "beginner" or not session.interactive
        self.coach = CoachView(self, on=default if coach is None or not session.interactive else coach,
                               on_switch=on_coach)

    # ----- the flow's state, under the names tests and tools use ----------------------------------
    @property
    def mode(self) -> Phase:
        return self.flow.phase

    @property
    def message(self) -> str:
        return self.flow.message

    @message.setter
    def message(self, text: str) -> None:
        self.flow.say(text)

    @property
    def aim(self) -> Aim:
        return self.flow.aim

    @aim.setter
    def aim(self, aim: Aim) -> None:
        self.flow.set_aim(aim)

    @property
    def limits(self) -> Limits:
        return self.flow.limits

    @property
    def choice_key(self) -> str | None:
        return self.flow.choice_key

    @choice_key.setter
    def choice_key(self, key: str) -> None:
        self.flow.pick_choice(key)

    @property
    def pushes(self) -> int:
        return self.flow.pushes

    @property
    def ai_delay(self) -> float:
        return self.flow.ai_delay

    @ai_delay.setter
    def ai_delay(self, seconds: float) -> None:
        self.flow.ai_delay = seconds

    @property
    def outcome(self) -> TableOutcome | None:
        return self.flow.outcome

    # ----- layout ------------------------------------------------------------------------------------
    def left_column(self, width: int) -> int:
        """The width kept free on the left of the ring area (none; the tutorial keeps its card
        there)."""
        return 0

    def layout(self, width: int, height: int) -> None:
        pw = int(min(PANEL_MAX, max(PANEL_MIN, width * PANEL_FRACTION)))
        self.panel_rect = Rect(width - pw, 0, pw, height - TOP_BAR)
        self.bar_rect = Rect(0, 0, width - pw, AIM_BAR)
        # The tuning panel takes the left of the ring area when open: the ring moves over (as
        # it does for a column a subclass keeps there: the tutorial's card).
        left = TUNING_WIDTH if self.tuning_open else self.left_column(width)
        self.ring_area = Rect(left, AIM_BAR, width - pw - left, height - TOP_BAR - AIM_BAR)
        R = self.session.materials.ring.radius
        self.ring.set_transform(RingTransform.fit(self.ring_area, R * 1.42))
        self.rebuild()
        self._start_ai()  # a table that opens on an AI seat's turn

    def rebuild(self) -> None:
        """Recreate the panels and bars from the flow's view (after a state change or a resize)."""
        self.invalidate()
        self.widgets.clear()
        for it in self._ui_items:
            it.delete()
        self._ui_items = []
        W, H = self.app.width, self.app.height
        b = self.batch
        v = self.flow.view()
        self._ui_items.append(shapes.Rectangle(0, H - TOP_BAR, W, TOP_BAR, color=theme.PANEL,
                                               batch=b, group=self.g_ui))
        self._ui_items.append(shapes.Rectangle(0, H - TOP_BAR, W, 1, color=theme.PANEL_EDGE,
                                               batch=b, group=self.g_ui))
        self.title_label = label(self.session.title, 12, H - 26, b, self.g_ui, size=theme.FONT_HEADING,
                                 bold=True)
        self.status_label = label("", self.title_label.content_width + 30, H - 25, b, self.g_ui,
                                  color=theme.ACCENT)
        # The last thing that happened (a push's knock-outs, a refusal), at the top of the ring:
        # over the ring area, so drawn live (above moving pieces).
        self.event_label = label("", self.ring_area.x + 12, self.ring_area.top - 22, self.live,
                                 self.g_ui, size=theme.FONT_SMALL, color=theme.TEXT,
                                 width=int(self.ring_area.w - 24), multiline=True, anchor_y="baseline")
        # The tooltip over the ring (live: above the pieces), hidden until the mouse is on one.
        self.tip_box = shapes.Rectangle(0, 0, 0, 0, color=(20, 22, 28, 230), batch=self.live,
                                        group=self.g_fx)
        self.tip_label = label("", 0, 0, self.live, Group(1, self.g_fx), size=theme.FONT_SMALL,
                               color=theme.TEXT, anchor_y="bottom")
        self._ui_items += [self.title_label, self.status_label, self.event_label, self.tip_box,
                           self.tip_label]
        # Right-hand buttons in the top bar.
        x = W - 8
        # A game pauses (its pause menu leaves); a replay's Menu goes straight back.
        buttons = [("menu", "Menu (Esc)", self.pause if self.session.interactive else self._to_menu,
                    True)]
        if self.session.interactive:
            buttons += [("undo", "Undo (U)", self._undo, v.can_undo),
                        ("end-turn", "End turn (E)", self._end_turn, v.can_end_turn),
                        ("tuning", "Tuning (T)", self.toggle_tuning, True)]
        for name, text, fn, on in buttons:
            w = 12 + 8 * len(text)
            x -= w + 6
            self._status_width = x - self.status_label.x - 12
            self.widgets.add(Button(Rect(x, H - TOP_BAR + 6, w, TOP_BAR - 12), text, fn, b, self.g_ui,
                                    enabled=on, selected=(name == "tuning" and self.tuning_open),
                                    size=theme.FONT_SMALL, name=name))
        # While a push plays the side panel shows the state before it (TableView.panels).
        self.side.build(self.panel_rect, v.panels, self.widgets, self._pick_move, v.selected_move)
        self.bar.build(self.bar_rect, list(v.choices), v.choice_key, self.widgets, self._pick_choice,
                       v.may_aim, v.idle, reserve_right=SLIDER_ROOM if v.speed_slider else 0.0)
        if v.preview is not None:
            self.bar.show_preview(self.bar_rect, v.preview.lines, self.widgets,
                                  lambda: None if self.confirm_move() else None, self._cancel_move)
        if v.speed_slider:
            r = self.bar_rect
            self.widgets.add(Slider(Rect(r.right - 230, r.y + 6, 210, 40), "push speed (mm/s)",
                                    self.aim.speed, self.limits.min_speed,
                                    min(self.limits.max_speed, 1.5), self._set_speed, self.batch,
                                    self.g_ui, fmt=lambda v: f"{v * 1000:.0f}", name="speed"))
        if self.tuning_open:
            if self.tuning is None:
                self.tuning = TuningPanel(self.batch, self.g_tuning, self.defaults, self.profile_dir,
                                          self._tuned, kind_label=self.session.kind_label,
                                          fixed=getattr(self.session, "materials_fixed", ""))
            self.tuning.build(Rect(0, AIM_BAR, TUNING_WIDTH, self.ring_area.h), self.session.materials,
                              self.widgets)
        elif self.tuning is not None:
            self.tuning.clear()
        if self.tuning_open:   # the tuning panel has the ring area's left side
            self.log_panel.clear()
        else:
            t = self.ring.transform
            self.log_panel.build(self.log_panel.place(self.ring_area, t.to_screen(0.0, 0.0),
                                                      t.length(self.session.materials.ring.radius)))
        self._refresh_status(v)
        self._refresh_aim()
        if self.mode is Phase.OVER:
            self._build_over()

    # ----- showing the flow ----------------------------------------------------------------------------
    def _after_flow(self) -> None:
        """Show what the flow's last transition changed: an outcome to animate, an AI plan to have
        made, the marks of a move waiting for clicks, and the panels."""
        self._start_ai()
        outcome = self.flow.take_outcome()
        if outcome is not None:
            self._animate_outcome(outcome)
            return
        self._show_marks()
        self.rebuild()

    def _refresh_status(self, view: TableView | None = None) -> None:
        self.invalidate()
        v = view or self.flow.view()
        self.event_label.text = shown(v.message)  # it may quote a file
        fit_text(self.status_label, v.status, self._status_width)

    def _refresh_aim(self) -> None:
        """Redraw the platform, the piece on it and the preview line (on aim changes only)."""
        if self.mode is Phase.PLAYING:
            return  # the push's own line stays drawn while it plays (see _animate_outcome)
        self.invalidate()
        slider = self.widgets.find("speed")
        if isinstance(slider, Slider) and abs(slider.value - self.aim.speed) > 1e-9:
            slider.set_value(self.aim.speed)  # [ ], the wheel and the keys move it too
        preview = self.flow.aim_preview()
        if preview is None:
            self.ring.show_aim(None)
            self.bar.show("", "")
            return
        colour = (theme.AIM_LINE_BLOCKED if preview.blocked
                  else theme.AI_AIM_LINE if preview.by_ai else theme.AIM_LINE)
        self.ring.show_aim(preview.aim, preview.kind, preview.start, colour, self.limits.heading_deg)
        self.bar.show(preview.readout, preview.reason)

    def _show_marks(self) -> None:
        """Ring the pieces a move waiting for clicks has chosen, may choose, and measures from;
        while its preview shows, ring what it would knock out and draw where it would leave the
        pieces it moves or places."""
        self.ring.clear_marks()
        preview = self.flow.preview
        self.ring.show_ghosts(preview.ghosts if preview is not None else ())
        marks = self.flow.marks()
        self.ring.show_spots([(s.x, s.y, s.r) for s in marks.sides] if marks is not None else (),
                             theme.HIGHLIGHT)
        if marks is None:
            return
        for pid in marks.chosen:
            self.ring.set_mark(pid, theme.TARGET)
        for pid in marks.offered:
            self.ring.set_mark(pid, theme.HIGHLIGHT)
        if marks.origin:
            self.ring.set_mark(marks.origin, theme.ACCENT)
        for pid in preview.falls if preview is not None else ():
            self.ring.set_mark(pid, theme.TEXT_BAD)

    def confirm_move(self) -> bool:
        """Confirm (Enter, or its button) the move whose preview shows: it is made."""
        if not self.flow.confirm():
            return False
        self._after_flow()
        return True

    def _cancel_move(self) -> None:
        if self.flow.cancel():
            self._after_flow()

    def _set_speed(self, v: float) -> None:
        self.flow.set_aim(replace(self.aim, speed=round(v, 3)))
        self._refresh_aim()

    # ----- tuning ------------------------------------------------------------------------------------
    def toggle_tuning(self) -> None:
        self.tuning_open = not self.tuning_open
        self.layout(self.app.width, self.app.height)

    def _tuned(self, materials, message: str) -> None:
        if materials is not self.session.materials:
            try:
                self.session.set_materials(materials)
            except ValueError as exc:
                message = str(exc)
            else:
                self.ring.set_materials(self.session.materials)
                self.flow.retune()
        self.flow.say(message)
        self.rebuild()

    # ----- choices and moves -------------------------------------------------------------------------
    def _pick_choice(self, ch: PieceChoice) -> None:
        if self.flow.pick_choice(ch.key):
            self.rebuild()

    def _pick_move(self, mv: MoveView) -> None:
        self.flow.pick_move(mv)
        self._after_flow()

    def _click_target(self, wx: float, wy: float) -> None:
        """A click on the ring while a move waits for targets: the flow takes it or says why not."""
        if self.flow.click(wx, wy, self.ring.piece_at(wx, wy)) and self.mode is Phase.CONFIRM:
            self._after_flow()  # the last click: the move's preview, waiting for Confirm
            return
        self._show_marks()
        self._refresh_status()

    # ----- pushing -----------------------------------------------------------------------------------
    def push_now(self) -> bool:
        """Push with the current aim (the mouse release, Enter, Space). False if it cannot be made."""
        if not self.flow.push():
            self._refresh_status()
            return False
        self._after_flow()
        return True

    def _play(self, outcome: TableOutcome, show_aim: float = 0.0, before: PanelSnapshot | None = None) -> None:
        """Play an outcome made elsewhere (the replay viewer's steps); a push shows its aim for
        ``show_aim`` seconds first; ``before``: the panels before it."""
        if self.flow.play(outcome, show_aim, before):
            self._after_flow()

    def _animate_outcome(self, outcome: TableOutcome) -> None:
        """Animate an outcome: the trajectory at real speed, then the falls' flights."""
        self.game_log.started(outcome.message, self.log_step())
        self.coach.clear()
        self.ring.clear_marks()
        if outcome.result is None or not len(outcome.result.trajectory.poses):
            # A move: no trajectory, but pieces it knocked out still fly to where they go.
            self.playback = None
            self._kinds = {pid: kind for pid, kind, _, _ in outcome.vanished}
            for pid, _kind, x, y in outcome.vanished:
                self._launch_flight(Departure(pid, (x, y, 0.0, 0), (x, y)))
            self.ring.show_world(self.session.world())
            self._during_play()
            return
        traj = outcome.result.trajectory
        self.ring.show_badges({})  # stacks may move apart: their badges come back when it lands
        self.playback = Playback(traj, self._speed_for(traj.duration))
        self._clack_at = first_knock(traj, outcome.result.push.piece if outcome.result.push else None)
        self.app.play_sound("push")
        push = outcome.result.push
        # While it plays: the platform and the push's line, faint, and a ring round the pushed piece.
        if push is not None:
            self.ring.show_aim(Aim.from_push(push), None, None, (*theme.AIM_LINE[:3], 90), None)
        else:
            self.ring.show_aim(None)
        self._kinds = {p.id: p.kind for p in self.session.world().pieces}
        if outcome.result.push is not None:
            self._kinds[outcome.result.push.piece] = outcome.result.push.kind
        for f in outcome.result.fell:
            self._kinds[f.piece] = f.kind
        self.ring.show(self.playback.poses(), self._kinds)
        if push is not None:
            self.ring.set_mark(push.piece, theme.HIGHLIGHT)
        self._during_play()

    def _speed_for(self, duration: float) -> float:
        """Playback speed of a push lasting ``duration`` seconds: the pace, times the replay's speed."""
        return self.play_speed * playback_speed(duration, self.pace)

    def skip(self) -> bool:
        """Space or a click while a push plays: jump to its end (pieces that fall fly off at once)."""
        if self.mode is Phase.SHOWING and self.flow.tick(float("inf")):
            self._after_flow()  # a replayed push's aim: play it now, then to its end
        if self.mode is not Phase.PLAYING:
            return False
        if self.playback is not None:
            for dep in self.playback.advance(self.playback.duration * 1e6 + 1e6):
                self._launch_flight(dep)
            self.ring.show(self.playback.poses(), self._kinds)
        for fl, _shp, _r in self.flights:
            fl.advance(1e6)
        self.invalidate()
        return True

    def _during_play(self) -> None:
        """While a push or move plays, the panels keep showing the state before it (the pieces
        have not arrived yet); the aim bar empties and the event line says what happened."""
        self.rebuild()

    # ----- frames ------------------------------------------------------------------------------------
    def invalidate(self) -> None:
        """The still picture may have changed (a rebuild, an input event): the cached copy is stale
        and a frame is due."""
        self._cache.invalidate()
        self._needs_frame = True

    def _in_motion(self) -> bool:
        """Whether frames will keep coming without input: a push or move playing (up to the
        frame it lands in)."""
        return self.mode is Phase.PLAYING or bool(self.flights)

    def _fb(self) -> tuple[int, int]:
        """The framebuffer's size; ``_scale`` is set to its pixels per window unit (HiDPI)."""
        fb = tuple(self.app.get_framebuffer_size())
        self._scale = fb[0] / max(1, self.app.width)
        return fb

    def _ring_px(self) -> PixelRect:
        a = self.ring_area
        return PixelRect.covering(a.x, a.y, a.right, a.top, self._scale, margin=0)

    def _world_px(self, box: tuple[float, float, float, float]) -> PixelRect:
        t = self.ring.transform
        x0, y0 = t.to_screen(box[0], box[1])
        x1, y1 = t.to_screen(box[2], box[3])
        return PixelRect.covering(x0, y0, x1, y1, self._scale)

    def _flight_px(self, shp) -> PixelRect:
        outer = shp[0]
        return PixelRect.covering(outer.x - outer.radius, outer.y - outer.radius,
                                  outer.x + outer.radius, outer.y + outer.radius, self._scale)

    def draw(self) -> None:
        """A whole frame: the still batch, then the live one over it. While a push or move plays,
        the still picture is kept (copied from the back buffer before the live part is drawn) for
        :meth:`draw_partial`."""
        self.batch.draw()
        fb = self._fb()
        if self.ring.static_changed:
            self._cache.invalidate()
            self.ring.static_changed = False
        if self._in_motion():
            if not self._cache.valid or self._cache.size != fb:
                self._cache.grab(*fb)
        elif not self._cache.warm:
            self._cache.warm_up(*fb)
        self._draw_live(self._ring_px(), None)
        self.ring.take_damage()  # all drawn just now
        self._flight_drawn = {id(fl): self._flight_px(shp) for fl, shp, _ in self.flights}
        self._flight_gone = []

    def draw_partial(self) -> list[PixelRect] | None:
        """Repair only what changed since the last frame (the back buffer still holds it): copy
        the cached still picture back over each damaged rectangle and draw the live batch clipped
        to it. None (draw a whole frame) unless a push or move is playing with a valid cache."""
        if not self._in_motion():
            return None
        fb = self._fb()
        if self.ring.static_changed or not self._cache.valid or self._cache.size != fb:
            return None
        damage = [self._world_px(b) for b in self.ring.take_damage()] + self._flight_gone
        drawn = {}
        for fl, shp, _ in self.flights:
            now = drawn[id(fl)] = self._flight_px(shp)
            was = self._flight_drawn.get(id(fl))
            if was != now:
                damage.append(now if was is None else was.union(now))
        self._flight_drawn = drawn
        self._flight_gone = []
        window = PixelRect(0, 0, *fb)
        rects = merge([r.intersect(window) for r in damage])
        area = self._ring_px()
        for r in rects:
            self._cache.restore(r)
        for r in rects:
            self._draw_live(area, r)
        return rects

    def _draw_live(self, area: PixelRect, rect: PixelRect | None) -> None:
        """Draw the live batch clipped to ``rect`` (None: everywhere), its world part also to the
        ring ``area`` (outside it, the panels would cover any piece)."""
        self.ring.world.clip = (area if rect is None else area.intersect(rect), rect)
        Scissor.set(rect)
        try:
            self.live.draw()
        finally:
            self.ring.world.clip = None
            Scissor.set(None)

    def update(self, dt: float) -> bool:
        """Advance the animations; True when a frame is due (something moved or changed)."""
        moving = self._animate(dt)
        return self._frame_due(moving)

    def _frame_due(self, moving: bool) -> bool:
        due = moving or self._needs_frame
        self._needs_frame = False
        return due

    def _animate(self, dt: float) -> bool:
        moving = False
        if self.playback is not None:
            for dep in self.playback.advance(dt):
                self._launch_flight(dep)
            if self._clack_at is not None and self.playback.time >= self._clack_at:
                self._clack_at = None
                self.app.play_sound("clack")
            self.ring.show(self.playback.poses(), self._kinds, still_px=STILL_PX)
            moving = True
            if self.playback.done:
                self.playback = None
        if self.flights:
            keep = []
            for fl, shp, r in self.flights:
                fl.advance(dt)
                x, y, scale, alpha = fl.state()
                for s in shp:
                    s.position = (x, y)
                    s.radius = r * scale * (1.08 if s is shp[0] else 1.0)
                    s.opacity = int(255 * alpha)
                if fl.done:
                    for s in shp:
                        s.delete()
                    gone = self._flight_drawn.pop(id(fl), None)
                    if gone is not None:
                        self._flight_gone.append(gone)
                else:
                    keep.append((fl, shp, r))
            self.flights = keep
            moving = True
        if self.mode is Phase.PLAYING and self.playback is None and not self.flights:
            self.flow.landed()
            self._landed()
            moving = True
        # Waiting for the AI (thinking, or showing its aim) draws nothing: what it then does
        # (a rebuild, a push) asks for its frame itself (invalidate).
        self._poll_ai()
        if self.coach.poll():
            moving = True
        if self.flow.tick(dt):
            self._after_flow()
        return moving

    def _launch_flight(self, dep) -> None:
        self.app.play_sound("fall")
        t = self.ring.transform
        sx, sy = t.to_screen(dep.pose[0], dep.pose[1])
        vx, vy = dep.velocity
        sp = math.hypot(vx, vy)
        if sp < 1e-6:  # straight outwards from the centre
            vx, vy, sp = dep.pose[0], dep.pose[1], math.hypot(dep.pose[0], dep.pose[1]) or 1.0
        drift = (vx / sp * 36, vy / sp * 36)
        try:
            place = parse_place(self.outcome.destinations.get(dep.piece, "") if self.outcome else "")
        except ValueError:  # "gone", or nowhere said: it only fades
            place = None
        target = None
        if place is not None and place.kind == "seat" and place.number is not None:
            target = self.side.layout.seat_anchor.get(place.number)
        elif place is not None and place.kind == "supply":
            target = self.side.layout.supply_anchor
        kind = self._kinds.get(dep.piece, "")
        mats = self.session.materials
        r = t.length(mats.kinds[kind].size if kind in mats.kinds else 0.012)
        colour = self.session.piece_colour(dep.piece, kind)
        shp = [shapes.Circle(sx, sy, r * 1.08, segments=32, color=theme.OUTLINE, batch=self.live,
                             group=self.g_fx),
               shapes.Circle(sx, sy, r, segments=32, color=colour, batch=self.live, group=self.g_fx)]
        self.flights.append((Flight(dep.piece, kind, (sx, sy), drift, target), shp, r))

    def _landed(self) -> None:
        """The animation is over, or the session changed under the table (an undo, a replay's
        jump): draw the state at rest, then whatever the flow does next (the AI's next step, the
        next turn)."""
        self.invalidate()
        if self.game_log.landed() and not self.tuning_open:
            self.log_panel.build(self.log_panel.rect)
        self.ring.clear_marks()
        self.ring.show_world(self.session.world())
        self.ring.restyle()
        self._after_flow()
        if self._end_after_landing:
            self._end_after_landing = False
            if self.flow.can_end_turn:
                self._end_turn()
                return
        if self.mode is Phase.OVER and not self._cheered:
            self._cheered = True
            self.app.play_sound("win")

    # ----- AI seats ----------------------------------------------------------------------------------
    # The flow asks for an AI turn's plan; it is made in a thread (the window keeps drawing) and
    # handed back when ready. The flow then carries the plan out (see TableFlow).
    def _start_ai(self) -> None:
        req = self.flow.take_plan_request()
        if req is None:
            return
        self._ai.submit(self.session.ai_plan, req.seat, token=req.token)
        self.invalidate()

    def _poll_ai(self) -> None:
        if not self._ai.busy:
            return
        token = cast(int, self._ai.token)      # the flow's plan request the job answers
        try:
            done = self._ai.poll()
        except Exception as exc:  # an AI bug must not take the window down; say so and stop
            taken = self.flow.ai_failed(token, exc)
        else:
            if done is None:
                return
            taken = self.flow.ai_planned(token, done.value)
        if taken:  # (not when an undo made the plan stale)
            self._after_flow()

    # ----- undo, end turn, menu ----------------------------------------------------------------------
    def log_step(self) -> int:
        """The step a log entry belongs to (the replay viewer's position; 0 in a game)."""
        return 0

    def show_card(self, seat: int) -> None:
        """Open ``seat``'s wrestler card (a click on its name in the side panel or the game log)."""
        from kabuto.app.catalogue import junior_cards, wrestler_cards
        from kabuto_ui.overlay import TextPage

        game = getattr(self.session, "game", None)
        if game is None or not 0 <= seat < game.players:
            return
        cards, _ = junior_cards() if game.junior else wrestler_cards()
        card = next((c for c in cards if c.key == game.setup.wrestlers[seat]), None)
        if card is not None:
            self.app.show_overlay(TextPage(f"{theme.seat_name(seat)}: {card.name}", card.text))

    def _undo(self) -> None:
        if self.flow.undo():
            self.game_log.drop_last()
            self._clear_over()
            self._landed()
        else:
            self.rebuild()  # it may say why not

    def _end_turn(self) -> None:
        if self.flow.end_turn():
            self._landed()

    def save_game(self) -> Path | None:
        """Ctrl+S: write the game's replay now (it is also written after every turn)."""
        save = getattr(self.session, "save_now", None)
        path = save() if save else None
        if path is None:
            self.flow.say(getattr(self.session, "record_problem", "") or "only a game can be saved")
        else:
            self.flow.say(f"replay saved: {path}  (kabuto play --resume FILE goes on with it)")
        self._refresh_status()
        return path

    def show_help(self) -> None:
        """H: how to push, whole (the side panel shows it only when it has room)."""
        from kabuto.app.panels import HELP
        from kabuto_ui.overlay import TextPage

        self.app.show_overlay(TextPage("How to push", HELP.strip()))

    def save_screenshot(self) -> Path:
        """F12: the window as a PNG in the data folder's ``screenshots/``; the event line gives
        its whole path."""
        from kabuto.replay.userdata import data_dir

        folder = data_dir(self.data_dir) / "screenshots"
        path = folder / time.strftime("kabuto-%Y%m%d-%H%M%S.png")
        n = 1
        while path.exists():  # two in one second
            n += 1
            path = folder / time.strftime(f"kabuto-%Y%m%d-%H%M%S-{n}.png")
        try:
            self.app.screenshot(path)
        except OSError as exc:
            self.flow.say(f"the screenshot was not saved: {folder}: {exc.strerror or exc}")
        else:
            self.flow.say(f"screenshot saved: {path}")
        self._refresh_status()
        return path

    def _to_menu(self) -> None:
        if self.on_menu is not None:
            self.on_menu()

    def pause(self) -> None:
        """Escape: the pause menu over the table (the push, the AI and the clock wait under it)."""
        pause_menu(self.app, rules=rules_page(kabuto_assets.path("help", "rules.toml"), "kabuto"),
                   save_and_leave=self._save_and_leave, quit_app=self._save_and_quit,
                   message=self._saved_where(), leave=self._leave_words(),
                   settings=[DialogButton(f"Pushes: {PACE_WORDS.get(self.pace, self.pace)}",
                                        self._next_pace, "pause:pace"),
                             *sound_choice(self.app, self.pause)])

    def _next_pace(self) -> None:
        names = list(PACES)
        self.pace = names[(names.index(self.pace) + 1) % len(names)] if self.pace in names else "slow"
        if self.on_pace is not None:
            self.on_pace(self.pace)
        self.pause()

    def _leave_words(self) -> str:
        """The pause menu's way out: it saves only what is saved."""
        if getattr(self.session, "save_now", None) is None or self.mode is Phase.OVER:
            return "Leave to the menu"
        return "Save and leave to the menu"

    def _saved_where(self) -> str:
        if getattr(self.session, "save_now", None) is None:
            return "The free push table is not saved: leaving clears it."
        if self.mode is Phase.OVER:
            return "This game is over; its replay is saved."
        return "Your game is saved after every turn; Continue on the start menu goes on with it."

    def _save_and_leave(self) -> None:
        self._save_quietly()
        self._to_menu()

    def _save_and_quit(self) -> None:
        self._save_quietly()
        self.app.on_close()

    def _save_quietly(self) -> None:
        save = getattr(self.session, "save_now", None)
        if save is not None:
            save()

    # ----- the win screen ----------------------------------------------------------------------------
    def _clear_over(self) -> None:
        for it in self._over_items:
            it.delete()
        self._over_items = []

    def _build_over(self) -> None:
        self._clear_over()
        over = self.flow.over_view()
        if over is None:
            return
        # Over the ring area, so in the live batch (above anything that could still move).
        b, g = self.live, self.g_over
        colour = over.colour
        # A box over the foot of the ring, so the final position stays in view above it.
        a = self.ring_area
        bw, bh = min(640, a.w - 40), 190
        bx, by = a.x + (a.w - bw) / 2, a.y + 16
        self._over_items += [
            shapes.Rectangle(a.x, a.y, a.w, a.h, color=(0, 0, 0, 60), batch=b, group=g),
            shapes.BorderedRectangle(bx, by, bw, bh, border=3, color=theme.PANEL[:3],
                                     border_color=colour[:3], batch=b, group=Group(1, g)),
            label(over.title, bx + bw / 2, by + bh - 50, b, Group(2, g), size=theme.FONT_TITLE, bold=True,
                  anchor_x="center", color=colour),
            label(over.reason, bx + bw / 2, by + bh - 76, b, Group(2, g), anchor_x="center",
                  anchor_y="top", width=int(bw - 40), multiline=True, align="center"),
        ]
        gb = Group(3, g)
        self.widgets.add(Button(Rect(bx + bw / 2 - 230, by + 20, 140, 36), "Menu", self._to_menu, b, gb,
                                name="over:menu"))
        self.widgets.add(Button(Rect(bx + bw / 2 - 70, by + 20, 140, 36), "Undo last push", self._undo,
                                b, gb, enabled=self.flow.can_undo, name="over:undo"))
        self.widgets.add(Button(Rect(bx + bw / 2 + 90, by + 20, 140, 36), "Rematch",
                                self.on_rematch or self._to_menu, b, gb, name="over:rematch"))

    # ----- input -------------------------------------------------------------------------------------
    def on_mouse_motion(self, x, y, dx, dy) -> bool:
        """True only when the hovered widget or the piece under the mouse changed (the only things
        a bare move changes)."""
        before = self.widgets.hovered
        self.widgets.on_mouse_motion(x, y)
        return self._show_tip(x, y) or self.widgets.hovered is not before

    def _show_tip(self, x: float, y: float) -> bool:
        """The tooltip naming the piece under the mouse (kind, owner, stack); True if it changed.
        It stays where it appeared while the mouse is on the same piece (a frame per piece, not
        per pointer move)."""
        pid = None
        if self.ring_area.contains(x, y) and self.mode is not Phase.PLAYING and self.widgets.hovered is None:
            pid = self.ring.piece_at(*self.ring.transform.to_world(x, y))
        text = self.session.describe_piece(pid) if pid is not None else ""
        if text == self.tip_label.text:
            return False
        self.invalidate()
        self.tip_label.text = text
        a = self.ring_area
        tx = min(x + 16, a.right - self.tip_label.content_width - 10)
        ty = max(y - 22, a.y + 8)
        self.tip_label.position = (tx, ty, 0)
        w, h = self.tip_label.content_width, self.tip_label.content_height
        self.tip_box.position = (tx - 6, ty - 5)
        self.tip_box.width, self.tip_box.height = (w + 12, h + 8) if text else (0, 0)
        return True

    def on_mouse_press(self, x, y, button, modifiers) -> bool:
        if self.widgets.on_mouse_press(x, y, button, modifiers):
            return True
        if not self.tuning_open and self.log_panel.clicked(x, y):
            self.rebuild()   # (opened or closed)
            return True
        if not self.tuning_open and (seat := self.side.layout.seat_at(x, y)) is not None:
            self.show_card(seat)        # a seat's name in the side panel opens its wrestler card
            return True
        if self.ring_area.contains(x, y) and self.skip():
            return True
        if self.mode in CHOOSING and self.ring_area.contains(x, y):
            self._click_target(*self.ring.transform.to_world(x, y))
            return True
        if not self.flow.may_aim or not self.ring_area.contains(x, y):
            return False
        wx, wy = self.ring.transform.to_world(x, y)
        R = self.session.materials.ring.radius
        if not grabs_platform(wx, wy, R):
            return False
        slide = bool(modifiers & key.MOD_SHIFT) or button == mouse.RIGHT
        self._drag = "entry" if slide else "heading"
        self._press_world = (wx, wy)
        self._dragged = False
        self.flow.set_aim(entry_towards(self.aim, wx, wy, self.limits))
        self.flow.say("")
        self._refresh_aim()
        self._refresh_status()
        return True

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers) -> bool:
        if self.widgets.on_mouse_drag(x, y):
            return True
        if self._drag is None:
            return False
        wx, wy = self.ring.transform.to_world(x, y)
        px, py = self._press_world
        if math.hypot(wx - px, wy - py) >= MIN_DRAG:
            self._dragged = True
        if not self._dragged:
            return True
        R = self.session.materials.ring.radius
        if self._drag == "entry":
            self.flow.set_aim(entry_towards(self.aim, wx, wy, self.limits))
        else:
            self.flow.set_aim(heading_towards(self.aim, wx, wy, R, self.limits))
        self._refresh_aim()
        return True

    def on_mouse_release(self, x, y, button, modifiers) -> bool:
        if self.widgets.on_mouse_release(x, y):
            return True
        drag, self._drag = self._drag, None
        if drag == "heading" and self._dragged:
            self.push_now()
            return True
        return drag is not None

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y) -> bool:
        if not self.tuning_open and self.log_panel.contains(x, y):
            if self.log_panel.scrolled(scroll_y):
                self.invalidate()
            return True
        if self.flow.set_aim(nudge(self.aim, self.limits, speed=scroll_y)):
            self._refresh_aim()
            return True
        return False

    def on_key_press(self, symbol, modifiers) -> bool:
        fine = bool(modifiers & key.MOD_SHIFT)
        if symbol == key.ESCAPE:
            if self.flow.cancel():
                self._after_flow()
            elif self.tuning_open:
                self.toggle_tuning()
            elif self.session.interactive:
                self.pause()
            else:
                self._to_menu()
            return True
        if symbol == key.SPACE and self.skip():
            return True
        if symbol in (key.ENTER, key.RETURN) and self.mode is Phase.CONFIRM:
            return self.confirm_move()
        if symbol == key.T:
            self.toggle_tuning()
            return True
        if symbol == key.H:
            self.show_help()
            return True
        if symbol in (key.U,) or (symbol == key.Z and modifiers & key.MOD_CTRL):
            self._undo()
            return True
        if symbol == key.S and modifiers & key.MOD_CTRL:
            self.save_game()
            return True
        if symbol == key.F12:
            self.save_screenshot()
            return True
        if symbol == key.E and self.mode is Phase.PLAYING and self.session.interactive:
            # The push plays to its end at once and the turn ends as soon as it lands.
            self._end_after_landing = True
            self.skip()
            return True
        if symbol in (key.G, key.D) and not modifiers & key.MOD_CTRL:
            self.coach.ask("hint" if symbol == key.G else "danger")
            return True
        if symbol == key.C and not modifiers & key.MOD_CTRL:
            self.coach.toggle()
            return True
        if not self.flow.may_aim:
            return False
        steps = {key.LEFT: ("entry", 1), key.RIGHT: ("entry", -1), key.UP: ("heading", 1),
                 key.DOWN: ("heading", -1), key.BRACKETRIGHT: ("speed", 1),
                 key.BRACKETLEFT: ("speed", -1), key.PLUS: ("speed", 1), key.MINUS: ("speed", -1)}
        if symbol in steps:
            what, n = steps[symbol]
            self.flow.set_aim(nudge(self.aim, self.limits, fine=fine, **{what: n}))
            self._refresh_aim()
            return True
        if symbol in (key.ENTER, key.RETURN, key.SPACE):
            self.push_now()
            return True
        if symbol == key.E:
            self._end_turn()
            return True
        if symbol == key.TAB:
            if self.flow.cycle_choice():
                self.rebuild()
            return True
        if key._1 <= symbol <= key._9:
            if self.flow.choose_nth(symbol - key._1):
                self.rebuild()
            return True
        return False

    def close(self) -> None:
        self.coach.close()
        closer = getattr(self.session, "close", None)
        if closer is not None:
            closer()  # the recorder writes what is left of the replay
        self._ai.close()
        self.widgets.clear()
        for fl in self.flights:
            for s in fl[1]:
                s.delete()
        self.flights = []
        self._clear_over()
        self._cache.delete()
        self.side.clear()
        self.bar.clear()
        if self.tuning is not None:
            self.tuning.clear()
        for it in self._ui_items:
            it.delete()
        self.ring.delete()
