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
(:meth:`TableScene.draw_partial`, :mod:`kabuto.app.frames`). The picture is the same as a whole
redraw's: the cached part is copied from the window itself, the live part is drawn in its own order
over it, and nothing still covers a live thing (the panels sit outside the ring area, and live
world drawing is clipped to it).
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from pyglet import shapes
from pyglet.graphics import Batch, Group
from pyglet.window import key, mouse

from kabuto.app.aim import MIN_DRAG, Aim, Limits, entry_towards, grabs_platform, heading_towards, nudge
from kabuto.app.animation import Departure, Flight, Playback
from kabuto.app.panels import AimBar, SidePanel, fmt_signed
from kabuto.app.scene.ring_view import RingView
from kabuto.app.session import Choice, MoveView, Outcome, PanelSnapshot, Session
from kabuto.app.tuning import default_profile_dir
from kabuto.app.tuning_panel import WIDTH as TUNING_WIDTH
from kabuto.app.tuning_panel import TuningPanel
from kabuto.app.view import RingTransform
from kabuto.ui import theme
from kabuto.ui.frames import PixelRect, Scissor, StaticCache, merge
from kabuto.ui.geometry import Rect
from kabuto.ui.scene import Scene
from kabuto.ui.widgets import Button, Slider, Widgets, fit_text, label

TOP_BAR = 40
AIM_BAR = 80
PANEL_FRACTION = 0.3
PANEL_MIN, PANEL_MAX = 340, 460


class TableScene(Scene):
    """Plays one session. ``on_menu`` is called to leave (Esc, or the win screen's button)."""

    quiet_motion = True  # on_mouse_motion says when a hover changed

    def __init__(self, app, session: Session, *, on_menu: Callable[[], None] | None = None,
                 on_rematch: Callable[[], None] | None = None, ai_delay: float = 0.9,
                 profile_dir: Path | None = None, defaults=None):
        super().__init__(app)
        self.session = session
        self.on_menu = on_menu
        self.on_rematch = on_rematch
        self.ai_delay = ai_delay
        self.limits = Limits.from_materials(session.materials)
        self.aim = self.limits.clamp(Aim())
        self.choice_key: str | None = None
        self.mode = "aim"  # aim | playing | ai-thinking | ai-showing | over
        self.message = ""
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
        self.outcome: Outcome | None = None
        self.flights: list[tuple[Flight, list[shapes.ShapeBase], float]] = []
        self.selected_move: MoveView | None = None
        self.targets: list[str] = []
        self._drag: str | None = None
        self._press_world: tuple[float, float] | None = None
        self._dragged = False
        self._ui_items: list = []
        self._over_items: list = []
        self._ai: ThreadPoolExecutor | None = None
        self._ai_future: Future | None = None
        self._ai_plan: tuple[Aim, Choice] | None = None
        self._ai_wait = 0.0
        self._ai_token = 0
        self._ai_steps: list | None = None  # the AI turn being carried out, step by step
        self._ai_seat: int | None = None
        self.ring_area = Rect(0, 0, 1, 1)
        self.panel_rect = Rect(0, 0, 1, 1)
        self.bar_rect = Rect(0, 0, 1, 1)
        self.pushes = 0
        self._frozen: PanelSnapshot | None = None
        self.play_speed = 1.0  # real speed; the replay viewer changes it
        self.ring.show_world(session.world())
        self._pick_default_choice()

    # ----- layout ------------------------------------------------------------------------------------
    def layout(self, width: int, height: int) -> None:
        pw = int(min(PANEL_MAX, max(PANEL_MIN, width * PANEL_FRACTION)))
        self.panel_rect = Rect(width - pw, 0, pw, height - TOP_BAR)
        self.bar_rect = Rect(0, 0, width - pw, AIM_BAR)
        # The tuning panel takes the left of the ring area when open: the ring moves over.
        left = TUNING_WIDTH if self.tuning_open else 0
        self.ring_area = Rect(left, AIM_BAR, width - pw - left, height - TOP_BAR - AIM_BAR)
        R = self.session.materials.ring.radius
        self.ring.set_transform(RingTransform.fit(self.ring_area, R * 1.42))
        self.rebuild()
        if self.mode == "aim":
            self._start_turn_if_ai()

    def rebuild(self) -> None:
        """Recreate the panels and bars from the session (after a state change or a resize)."""
        self.invalidate()
        self.widgets.clear()
        for it in self._ui_items:
            it.delete()
        self._ui_items = []
        W, H = self.app.width, self.app.height
        b = self.batch
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
        self._ui_items += [self.title_label, self.status_label, self.event_label]
        # Right-hand buttons in the top bar.
        x = W - 8
        buttons = [("menu", "Menu (Esc)", self._to_menu, True)]
        if self.session.interactive:
            buttons += [("undo", "Undo (U)", self._undo, self._can_undo()),
                        ("end-turn", "End turn (E)", self._end_turn, self._can_end_turn()),
                        ("tuning", "Tuning (T)", self.toggle_tuning, True)]
        for name, text, fn, on in buttons:
            w = 12 + 8 * len(text)
            x -= w + 6
            self._status_width = x - self.status_label.x - 12
            self.widgets.add(Button(Rect(x, H - TOP_BAR + 6, w, TOP_BAR - 12), text, fn, b, self.g_ui,
                                    enabled=on, selected=(name == "tuning" and self.tuning_open),
                                    size=theme.FONT_SMALL, name=name))
        human = self._human_turn() and self.mode == "aim"
        # While a push plays the panels show the state before it (PanelSnapshot).
        if self.mode != "playing" or self._frozen is None:
            self._frozen = PanelSnapshot(self.session)
        view = self._frozen if self.mode == "playing" else self.session
        self.side.build(self.panel_rect, view, self.widgets, self._pick_move,
                        self.selected_move.key if self.selected_move else None)
        seat = self.session.current_seat()
        if not self.session.interactive:
            idle = ""
        elif self.session.winner() is not None:
            idle = "the game is over"
        elif self.mode == "playing":
            idle = "..."
        elif not self._human_turn():
            name = next((sv.name for sv in self.session.seats() if sv.seat == seat), "the AI")
            idle = f"{name} (AI) is choosing a push - watch its aim"
        elif self.session.can_end_turn():
            idle = "pushed: use a signature move, or End turn (E)"
        else:
            idle = "nothing to push"
        self.bar.build(self.bar_rect, self.session.choices() if human or not self.session.has_turns
                       else [], self.choice_key, self.widgets, self._pick_choice, human, idle)
        if human and self.session.locked_aim() is None:
            r = self.bar_rect
            self.widgets.add(Slider(Rect(r.right - 230, r.y + 6, 210, 40), "push speed (m/s)",
                                    self.aim.speed, self.limits.min_speed,
                                    min(self.limits.max_speed, 1.5), self._set_speed, self.batch,
                                    self.g_ui, fmt=lambda v: f"{v:.2f}", name="speed"))
        if self.tuning_open:
            if self.tuning is None:
                self.tuning = TuningPanel(self.batch, self.g_tuning, self.defaults, self.profile_dir,
                                          self._tuned)
            self.tuning.build(Rect(0, AIM_BAR, TUNING_WIDTH, self.ring_area.h), self.session.materials,
                              self.widgets)
        elif self.tuning is not None:
            self.tuning.clear()
        self._refresh_status()
        self._refresh_aim()
        if self.mode == "over":
            self._build_over()

    # ----- state helpers -----------------------------------------------------------------------------
    def _human_turn(self) -> bool:
        return self.session.interactive and not self.session.seat_is_ai(self.session.current_seat())

    def _can_undo(self) -> bool:
        return self.mode in ("aim", "over", "ai-thinking", "ai-showing") and self.session.can_undo()

    def _can_end_turn(self) -> bool:
        return self.mode == "aim" and self._human_turn() and self.session.can_end_turn()

    def _choice(self) -> Choice | None:
        for ch in self.session.choices():
            if ch.key == self.choice_key:
                return ch
        return None

    def _pick_default_choice(self) -> None:
        choices = self.session.choices()
        if self._choice() is None:
            # Default to the medium disc if there is one: a steady, middling push.
            keys = [c.key for c in choices]
            self.choice_key = "medium" if "medium" in keys else (keys[0] if keys else None)

    def _refresh_status(self) -> None:
        self.invalidate()
        s = (self._frozen.status() if self.mode == "playing" and self._frozen is not None
             else self.session.status())
        self.event_label.text = self.message
        if self.selected_move is not None and len(self.targets) < len(self.selected_move.prompts):
            mv = self.selected_move
            s = f"{mv.name}: {mv.prompts[len(self.targets)].hint}  (Esc cancels)"
        if self.mode == "ai-thinking":
            s = "the AI is thinking..."
        fit_text(self.status_label, s, self._status_width)

    def _refresh_aim(self) -> None:
        """Redraw the platform, the piece on it and the preview line (on aim changes only)."""
        if self.mode == "playing":
            return  # the push's own line stays drawn while it plays (see _play)
        self.invalidate()
        if self.mode not in ("aim", "ai-showing"):
            self.ring.show_aim(None)
            self.bar.show("", "")
            return
        if self.mode == "ai-showing" and self._ai_plan is not None:
            aim, choice = self._ai_plan
            colour = theme.AI_AIM_LINE
        else:
            if not self._human_turn() or self.session.winner() is not None:
                self.ring.show_aim(None)
                self.bar.show("", "")
                return
            lock = self.session.locked_aim()
            if lock is not None:
                # The rules hold the platform still for a turn's second push: exactly this aim.
                self.aim = Aim(lock[0], lock[1], self.aim.speed, self.aim.spin_deg)
            aim, choice = self.aim, self._choice()
            colour = theme.AIM_LINE
        if choice is None:
            self.ring.show_aim(aim, None, None, colour, self.limits.heading_deg)
            self.bar.show(self._readout(aim, None), "choose a piece to push")
            return
        push, reason = self.session.check(aim, choice)
        start = None
        if push is not None:
            start = self.session.world().platform_pose(push)
        else:
            colour = theme.AIM_LINE_BLOCKED
        self.ring.show_aim(aim, choice.kind, start, colour, self.limits.heading_deg)
        self.bar.show(self._readout(aim, choice), reason)

    @staticmethod
    def _readout(aim: Aim, choice: Choice | None) -> str:
        piece = choice.label if choice else "-"
        return (f"{piece}  ·  platform at {aim.entry_deg:.1f}°  ·  heading "
                f"{fmt_signed(aim.heading_deg)}°  ·  speed {aim.speed:.2f} m/s")

    def _set_speed(self, v: float) -> None:
        self.aim = self.limits.clamp(Aim(self.aim.entry_deg, self.aim.heading_deg, round(v, 3),
                                         self.aim.spin_deg))
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
                self.limits = Limits.from_materials(self.session.materials)
        self.message = message
        self.rebuild()

    # ----- choices and moves -------------------------------------------------------------------------
    def _pick_choice(self, ch: Choice) -> None:
        if self.mode != "aim":
            return
        self.choice_key = ch.key
        self.rebuild()

    def _pick_move(self, mv: MoveView) -> None:
        if not mv.enabled or self.mode != "aim" or not self._human_turn():
            self.message = mv.reason
            self.rebuild()
            return
        if not mv.prompts:
            self._use_move(mv, [])
            return
        self.selected_move = mv
        self.targets = []
        self.message = ""
        self.rebuild()
        self._mark_choices()

    def _mark_choices(self) -> None:
        """Ring the pieces the current prompt accepts."""
        self.ring.clear_marks()
        for t in self.targets:
            if isinstance(t, str):
                self.ring.set_mark(t, theme.TARGET)
        mv = self.selected_move
        if mv is None or len(self.targets) >= len(mv.prompts):
            return
        prompt = mv.prompts[len(self.targets)]
        for pid in prompt.choices:
            if pid not in self.targets:
                self.ring.set_mark(pid, theme.HIGHLIGHT)
        if prompt.origin:
            self.ring.set_mark(prompt.origin, theme.ACCENT)

    def _use_move(self, mv: MoveView, targets: list[str]) -> None:
        self.selected_move = None
        self.targets = []
        self.ring.clear_marks()
        try:
            outcome = self.session.use_move(mv.key, targets)
        except ValueError as exc:
            self.message = str(exc)
            self.rebuild()
            return
        self.message = outcome.message
        self._play(outcome)

    def _click_target(self, wx: float, wy: float) -> None:
        """A click while a move waits for targets: a piece, or a point, as its prompt asks."""
        mv = self.selected_move
        if mv is None or len(self.targets) >= len(mv.prompts):
            return
        prompt = mv.prompts[len(self.targets)]
        if prompt.kind == "point":
            if math.hypot(wx, wy) > self.session.materials.ring.radius:
                self.message = "click a point on the ring"
                self._refresh_status()
                return
            self.targets.append((wx, wy))
        else:
            pid = self.ring.piece_at(wx, wy)
            if pid is None or (prompt.choices and pid not in prompt.choices):
                self.message = "not a target for this move: click one of the ringed pieces"
                self._refresh_status()
                return
            self.targets.append(pid)
        self.message = ""
        if len(self.targets) >= len(mv.prompts):
            self._use_move(mv, list(self.targets))
        else:
            self._mark_choices()
            self._refresh_status()

    # ----- pushing -----------------------------------------------------------------------------------
    def push_now(self) -> bool:
        """Push with the current aim (the mouse release, Enter, Space). False if it cannot be made."""
        if self.mode != "aim" or not self._human_turn() or self.session.winner() is not None:
            return False
        choice = self._choice()
        if choice is None:
            self.message = "choose a piece to push"
            self._refresh_status()
            return False
        self.aim = self.limits.clamp(self.aim) if self.session.locked_aim() is None else self.aim
        push, reason = self.session.check(self.aim, choice)
        if push is None:
            self.message = reason
            self._refresh_status()
            return False
        try:
            outcome = self.session.push(self.aim, choice)
        except ValueError as exc:
            self.message = str(exc)
            self._refresh_status()
            return False
        self.pushes += 1
        self.message = outcome.message
        self._play(outcome)
        return True

    def _play(self, outcome: Outcome) -> None:
        """Animate an outcome: the trajectory at real speed, then the falls' flights."""
        self.outcome = outcome
        self.selected_move = None
        self.ring.clear_marks()
        if outcome.result is None or not len(outcome.result.trajectory.poses):
            # A move: no trajectory, but pieces it knocked out still fly to where they go.
            self.mode = "playing"
            self.playback = None
            self._kinds = {pid: kind for pid, kind, _, _ in outcome.vanished}
            for pid, kind, x, y in outcome.vanished:
                self._launch_flight(Departure(pid, (x, y, 0.0, 0), (x, y)))
            self.ring.show_world(self.session.world())
            self._during_play()
            return
        self.mode = "playing"
        self.playback = Playback(outcome.result.trajectory, self.play_speed)
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
        return self.mode == "playing" or bool(self.flights)

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
            self.ring.show(self.playback.poses(), self._kinds)
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
        if self.mode == "playing" and self.playback is None and not self.flights:
            self._landed()
            moving = True
        # Waiting for the AI (thinking, or showing its aim) draws nothing: what it then does
        # (a rebuild, a push) asks for its frame itself (invalidate).
        if self.mode == "ai-thinking" and self._ai_future is not None and self._ai_future.done():
            self._ai_ready()
        if self.mode == "ai-showing":
            self._ai_wait -= dt
            if self._ai_wait <= 0:
                self._ai_push()
        return moving

    def _launch_flight(self, dep) -> None:
        t = self.ring.transform
        sx, sy = t.to_screen(dep.pose[0], dep.pose[1])
        vx, vy = dep.velocity
        sp = math.hypot(vx, vy)
        if sp < 1e-6:  # straight outwards from the centre
            vx, vy, sp = dep.pose[0], dep.pose[1], math.hypot(dep.pose[0], dep.pose[1]) or 1.0
        drift = (vx / sp * 36, vy / sp * 36)
        dest = (self.outcome.destinations.get(dep.piece, "") if self.outcome else "")
        target = None
        if dest.startswith("seat:"):
            target = self.side.layout.seat_anchor.get(int(dest[5:]))
        elif dest == "supply":
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
        """The animation is over: draw the at-rest state and the new panels; go on with the AI's
        turn if it has more to do, else start the next turn."""
        self.mode = "aim"
        self.outcome = None
        self.invalidate()
        self.ring.clear_marks()
        self.ring.show_world(self.session.world())
        self.ring.restyle()
        self._pick_default_choice()
        if self.session.winner() is not None:
            self.mode = "over"
            self._ai_steps = None
        if self.mode == "aim" and self._ai_steps is not None:
            self._next_ai_step()
            return
        self.rebuild()
        if self.mode == "aim":
            self._start_turn_if_ai()

    # ----- AI seats ----------------------------------------------------------------------------------
    # An AI turn: think in a thread (the window keeps drawing), then carry out the plan's steps one
    # by one - signature moves (animated like a player's), and each push after showing its aim for
    # ``ai_delay`` seconds - then end the turn.
    def _start_turn_if_ai(self) -> None:
        seat = self.session.current_seat()
        if self.mode != "aim" or seat is None or not self.session.seat_is_ai(seat):
            return
        if self.session.winner() is not None:
            return
        self.mode = "ai-thinking"
        self._ai_token += 1
        if self._ai is None:
            self._ai = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kabuto-ai")
        self._ai_future = self._ai.submit(self.session.ai_plan, seat)
        self._ai_future.token = self._ai_token  # type: ignore[attr-defined]
        self.rebuild()

    def _ai_ready(self) -> None:
        fut, self._ai_future = self._ai_future, None
        if getattr(fut, "token", None) != self._ai_token:
            return  # an undo made this plan stale
        try:
            steps = fut.result()
        except Exception as exc:  # an AI bug must not take the window down; say so and stop
            self.mode = "aim"
            self.message = f"the AI failed: {exc}"
            self.rebuild()
            return
        self._ai_seat = self.session.current_seat()
        self._ai_steps = list(steps or [])
        self.mode = "aim"
        self._next_ai_step()

    def _next_ai_step(self) -> None:
        if not self._ai_steps:
            self._ai_steps = None
            self.session.ai_finish(self._ai_seat)
            self._landed()
            return
        step = self._ai_steps[0]
        if step.kind == "move":
            self._ai_steps.pop(0)
            try:
                outcome = self.session.ai_move(step)
            except ValueError as exc:
                self.message = f"the AI's move was refused: {exc}"
                self._ai_steps = []
                self._next_ai_step()
                return
            self.message = outcome.message
            self._play(outcome)
            return
        self._ai_plan = (step.shown or step.aim, step.choice)
        self.mode = "ai-showing"
        self._ai_wait = self.ai_delay
        self.rebuild()

    def _ai_push(self) -> None:
        step = self._ai_steps.pop(0)
        self._ai_plan = None
        self.mode = "aim"
        try:
            outcome = self.session.ai_push(step)
        except ValueError as exc:
            self.message = f"the AI's push was refused: {exc}"
            self._ai_steps = []
            self._next_ai_step()
            return
        self.pushes += 1
        self.message = outcome.message
        self._play(outcome)

    # ----- undo, end turn, menu ----------------------------------------------------------------------
    def _undo(self) -> None:
        if not self._can_undo():
            return
        try:
            self.session.undo()
        except ValueError as exc:
            self.message = str(exc)
            self.rebuild()
            return
        self._ai_token += 1  # any plan being made is now stale
        self._ai_future = None
        self._ai_plan = None
        self._ai_steps = None
        self.mode = "aim"
        self.message = "undone"
        self._clear_over()
        self.ring.show_world(self.session.world())
        self.ring.restyle()
        self._pick_default_choice()
        self.rebuild()

    def _end_turn(self) -> None:
        if not self._can_end_turn():
            return
        try:
            self.session.end_turn()
        except ValueError as exc:
            self.message = str(exc)
        self.message = ""
        self._landed()

    def save_game(self) -> Path | None:
        """Ctrl+S: write the game's replay now (it is also written after every turn)."""
        save = getattr(self.session, "save_now", None)
        path = save() if save else None
        if path is None:
            self.message = getattr(self.session, "record_problem", "") or "only a game can be saved"
        else:
            self.message = f"replay saved: {path}  (kabuto play --resume FILE goes on with it)"
        self._refresh_status()
        return path

    def _to_menu(self) -> None:
        if self.on_menu is not None:
            self.on_menu()

    # ----- the win screen ----------------------------------------------------------------------------
    def _clear_over(self) -> None:
        for it in self._over_items:
            it.delete()
        self._over_items = []

    def _build_over(self) -> None:
        self._clear_over()
        win = self.session.winner()
        if win is None:
            return
        # Over the ring area, so in the live batch (above anything that could still move).
        b, g = self.live, self.g_over
        seats = {s.seat: s for s in self.session.seats()}
        names = " & ".join(seats[s].name + (f" ({seats[s].wrestler})" if seats[s].wrestler else "")
                           for s in win.seats if s in seats) or "Nobody"
        colour = seats[win.seats[0]].colour if win.seats and win.seats[0] in seats else theme.ACCENT
        title = f"{names} win{'s' if len(win.seats) == 1 else ''}!" if win.seats else "A draw!"
        # A box over the foot of the ring, so the final position stays in view above it.
        a = self.ring_area
        bw, bh = min(640, a.w - 40), 190
        bx, by = a.x + (a.w - bw) / 2, a.y + 16
        self._over_items += [
            shapes.Rectangle(a.x, a.y, a.w, a.h, color=(0, 0, 0, 60), batch=b, group=g),
            shapes.BorderedRectangle(bx, by, bw, bh, border=3, color=theme.PANEL[:3],
                                     border_color=colour[:3], batch=b, group=Group(1, g)),
            label(title, bx + bw / 2, by + bh - 50, b, Group(2, g), size=theme.FONT_TITLE, bold=True,
                  anchor_x="center", color=colour),
            label(win.reason, bx + bw / 2, by + bh - 76, b, Group(2, g), anchor_x="center",
                  anchor_y="top", width=int(bw - 40), multiline=True, align="center"),
        ]
        gb = Group(3, g)
        self.widgets.add(Button(Rect(bx + bw / 2 - 230, by + 20, 140, 36), "Menu", self._to_menu, b, gb,
                                name="over:menu"))
        self.widgets.add(Button(Rect(bx + bw / 2 - 70, by + 20, 140, 36), "Undo last push", self._undo,
                                b, gb, enabled=self.session.can_undo(), name="over:undo"))
        self.widgets.add(Button(Rect(bx + bw / 2 + 90, by + 20, 140, 36), "Rematch",
                                self.on_rematch or self._to_menu, b, gb, name="over:rematch"))

    # ----- input -------------------------------------------------------------------------------------
    def on_mouse_motion(self, x, y, dx, dy) -> bool:
        """True only when the hovered widget changed (the only thing a bare move changes)."""
        before = self.widgets.hovered
        self.widgets.on_mouse_motion(x, y)
        return self.widgets.hovered is not before

    def on_mouse_press(self, x, y, button, modifiers) -> bool:
        if self.widgets.on_mouse_press(x, y, button, modifiers):
            return True
        if self.mode != "aim" or not self.ring_area.contains(x, y) or not self._human_turn():
            return False
        wx, wy = self.ring.transform.to_world(x, y)
        if self.selected_move is not None:
            self._click_target(wx, wy)
            return True
        R = self.session.materials.ring.radius
        if not grabs_platform(wx, wy, R):
            return False
        slide = bool(modifiers & key.MOD_SHIFT) or button == mouse.RIGHT
        self._drag = "entry" if slide else "heading"
        self._press_world = (wx, wy)
        self._dragged = False
        self.aim = entry_towards(self.aim, wx, wy, self.limits)
        self.message = ""
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
            self.aim = entry_towards(self.aim, wx, wy, self.limits)
        else:
            self.aim = heading_towards(self.aim, wx, wy, R, self.limits)
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
        if self.mode == "aim":
            self.aim = nudge(self.aim, self.limits, speed=scroll_y)
            self._refresh_aim()
            return True
        return False

    def on_key_press(self, symbol, modifiers) -> bool:
        fine = bool(modifiers & key.MOD_SHIFT)
        if symbol == key.ESCAPE:
            if self.selected_move is not None:
                self.selected_move = None
                self.targets = []
                self.ring.clear_marks()
                self.message = ""
                self.rebuild()
            elif self.tuning_open:
                self.toggle_tuning()
            else:
                self._to_menu()
            return True
        if symbol == key.T:
            self.toggle_tuning()
            return True
        if symbol in (key.U,) or (symbol == key.Z and modifiers & key.MOD_CTRL):
            self._undo()
            return True
        if symbol == key.S and modifiers & key.MOD_CTRL:
            self.save_game()
            return True
        if symbol == key.F12:
            path = Path.cwd() / time.strftime("kabuto-%Y%m%d-%H%M%S.png")
            self.app.screenshot(path)
            self.message = f"screenshot saved: {path.name}"
            self._refresh_status()
            return True
        if self.mode != "aim" or not self._human_turn():
            return False
        steps = {key.LEFT: ("entry", 1), key.RIGHT: ("entry", -1), key.UP: ("heading", 1),
                 key.DOWN: ("heading", -1), key.BRACKETRIGHT: ("speed", 1),
                 key.BRACKETLEFT: ("speed", -1), key.PLUS: ("speed", 1), key.MINUS: ("speed", -1)}
        if symbol in steps:
            what, n = steps[symbol]
            self.aim = nudge(self.aim, self.limits, fine=fine, **{what: n})
            self._refresh_aim()
            return True
        if symbol in (key.ENTER, key.RETURN, key.SPACE):
            self.push_now()
            return True
        if symbol == key.E:
            self._end_turn()
            return True
        if symbol == key.TAB:
            choices = self.session.choices()
            if choices:
                keys = [c.key for c in choices]
                i = keys.index(self.choice_key) if self.choice_key in keys else -1
                self.choice_key = keys[(i + 1) % len(keys)]
                self.rebuild()
            return True
        if key._1 <= symbol <= key._9:
            choices = self.session.choices()
            i = symbol - key._1
            if i < len(choices):
                self.choice_key = choices[i].key
                self.rebuild()
            return True
        return False

    def close(self) -> None:
        closer = getattr(self.session, "close", None)
        if closer is not None:
            closer()  # the recorder writes what is left of the replay
        if self._ai is not None:
            self._ai.shutdown(wait=False, cancel_futures=True)
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
