"""A Kabuto Sumo game at the table: :class:`kabuto.Game` behind the app's :class:`Session` API.

The rules stay in :mod:`kabuto.rules.game`; this module only translates: inventories to panel rows,
signature moves to buttons and click prompts, knock-outs to "where the piece flies", AI seats to
:mod:`kabuto.app.bot`.

Every game is recorded (:mod:`kabuto.replay.recorder`): the recorder is told after each action - a push,
a move, an end of turn, a tuning change, an undo - and saves the replay into the per-user replays
folder after every turn. Hot-seat undo restores the game kept from before the last human action
(its JSON continues bit-identically); the recorder sees the shorter history and writes an
``undo`` entry, so the replay shows the undo as such. ``kabuto play --resume FILE`` continues a
replay (:func:`kabuto.replay.format.load_for_resume`) or a bare ``Game.to_json()`` file.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

from kabuto.app.aim import Aim
from kabuto.app.bot import plan_turn
from kabuto.app.game_config import GameConfig
from kabuto.app.session import AIStep, Choice, MoveView, Outcome, Prompt, SeatView, Session, Winner
from kabuto.ui import theme
from physics import Materials, Push, World

STANDARD = ("small", "medium", "large")


class GameSession(Session):
    """One game; ``seats`` says which are AI. ``record`` (default) keeps its replay on disk in
    ``data_dir`` (default: :func:`kabuto.replay.userdata.data_dir`)."""

    def __init__(self, game, seats: tuple[str, ...], ai_level: str = "medium", seed: int = 0,
                 *, ai_workers: int | None = None, record: bool = True,
                 data_dir: str | Path | None = None):
        if len(seats) != game.players:
            raise ValueError(f"seats: {len(seats)} given for {game.players} players")
        self.game = game
        self.seat_kinds = tuple(seats)
        self.ai_level = ai_level
        self.ai_workers = ai_workers  # processes the AI may use (None: its default, one per core)
        self.seed = seed
        self._undo: list[dict[str, Any]] = []   # game JSON before each human action
        self._owner_of_kind: dict[str, int] = {}
        for s in game.seats:
            self._owner_of_kind[s.wrestler.piece_kind] = s.index
            for sp in s.wrestler.signature:
                self._owner_of_kind[sp.kind] = s.index
        self.title = "Kabuto Sumo" + (" - Junior League" if game.junior else "")
        self.recorder = None
        self.record_problem = ""
        if record:
            try:
                from kabuto.replay.recorder import record as start_recording

                self.recorder = start_recording(game, data_dir, seats=self.seat_kinds)
            except ModuleNotFoundError as exc:
                if exc.name != "kabuto.replay.recorder":
                    raise
                self.record_problem = "not recorded: kabuto.replay.recorder is not in this build"
            except (OSError, ValueError) as exc:  # a bad data folder: play on, say so
                self.record_problem = f"not recorded: {exc}"

    # ----- building ------------------------------------------------------------------------------------
    @classmethod
    def new(cls, config: GameConfig, materials: Materials | None = None, **kw) -> GameSession:
        from kabuto.rules.game import Game

        wrestlers = [w for w in config.wrestlers] if config.wrestlers and all(config.wrestlers) else None
        game = Game.new(players=config.players, wrestlers=wrestlers, junior=config.junior,
                        seed=config.seed, materials=materials)
        return cls(game, config.seats, config.ai_level, config.seed, **kw)

    @classmethod
    def resume(cls, path: Path, seats: tuple[str, ...] | None = None, **kw) -> GameSession:
        """Go on with a replay file (its recorded seats, unless ``seats`` says otherwise) or a bare
        ``Game.to_json()`` file (every seat human unless told)."""
        from kabuto.app.replay_model import is_replay_file, read_saved_game
        from kabuto.rules.game import Game

        path = Path(path)
        if is_replay_file(path):
            from kabuto.replay import format as rp

            game = rp.load_for_resume(path)
            recorded = tuple((rp.origin_of(game).meta or {}).get("seats") or ())
            seats = seats or (recorded if len(recorded) == game.players else None)
        else:
            game = Game.from_json(read_saved_game(path))
        return cls(game, seats or ("human",) * game.players, **kw)

    def record(self) -> None:
        """Tell the recorder what just happened (it saves after each turn)."""
        if self.recorder is None:
            return
        try:
            self.recorder.update(self.game)
        except OSError as exc:
            self.record_problem = f"recording stopped: {exc}"
            self.recorder = None

    def save_now(self) -> Path | None:
        """Write the replay now (Ctrl+S); its path, or None when the game is not recorded."""
        if self.recorder is None:
            return None
        self.recorder.sync(self.game)
        return self.recorder.save(self.game)

    def close(self) -> None:
        """Leaving the table: write what is left of the replay."""
        if self.recorder is not None:
            try:
                self.recorder.close(self.game)
            except OSError as exc:
                self.record_problem = f"recording stopped: {exc}"
            self.recorder = None

    # ----- physics ---------------------------------------------------------------------------------------
    @property
    def materials(self) -> Materials:
        return self.game.materials

    def set_materials(self, materials: Materials) -> None:
        """Tuning from the next push (:func:`kabuto.replay.format.use_materials`: ``Game.set_materials``
        when the rules have it, else the world rebuilt around the same pieces); the recorder adds
        the new materials table to the replay."""
        try:
            from kabuto.replay.format import use_materials
        except ModuleNotFoundError:
            self.game.world = World(materials, self.game.world.pieces)
        else:
            use_materials(self.game, materials)
        self.record()

    def world(self) -> World:
        return self.game.world

    # ----- seats and panels ------------------------------------------------------------------------------
    def _seat_name(self, seat: int) -> str:
        return theme.SEAT_NAMES[seat % len(theme.SEAT_NAMES)]

    def in_colours(self, text: str) -> str:
        """Rules text with seats named the way the table names them: the rules engine writes
        "seat 0 (Goliath Gus)", "seat 1" and "team 0" where the table says "Red (Goliath Gus)",
        "Blue" and "team A" (kabuto.rules.game keeps its own words, for the command line and replays)."""
        for s in self.game.seats:
            text = text.replace(s.label, f"{self._seat_name(s.index)} ({s.wrestler.name})")
        text = re.sub(r"\bseat (\d+)\b", lambda m: self._seat_name(int(m.group(1))), text)
        if self.game.players == 4:
            text = re.sub(r"\bteam ([01])\b", lambda m: f"team {'AB'[int(m.group(1))]}", text)
        return text

    def _inventory_rows(self, place_ids: list[str]) -> tuple[tuple[str, str, int], ...]:
        g = self.game
        counts = Counter(g.kind_of(p) for p in place_ids)
        order = sorted(counts, key=lambda k: (k not in STANDARD, STANDARD.index(k) if k in STANDARD else 0, k))
        return tuple((k, self._short_name(k), counts[k]) for k in order)

    def _short_name(self, kind: str) -> str:
        return kind if kind in STANDARD else self.game.kind_name(kind)

    def seats(self) -> list[SeatView]:
        g = self.game
        out = []
        for s in g.seats:
            name = self._seat_name(s.index)
            if g.players == 4:
                name += f" (team {'AB'[s.side]})"
            wname = s.junior_card.name if s.junior_card is not None else s.wrestler.name
            eliminated = s.index in g.out
            note = {"submission": "out: ran out of pieces", "own_knockout": "out: own wrestler knocked out",
                    "knocked_out": "out: wrestler knocked out"}.get(g.out.get(s.index, ""), "")
            shares = ""
            if g.players == 4 and g.sides[s.side][0] != s.index:
                mate = g.sides[s.side][0]
                shares = f"shares team {'AB'[s.side]}'s inventory with {self._seat_name(mate)}"
            out.append(SeatView(s.index, name, theme.seat_colour(s.index), self.seat_is_ai(s.index),
                                wname, self._inventory_rows(g.inventory(s.side)), eliminated, note,
                                shares))
        return out

    def current_seat(self) -> int | None:
        return None if self.game.is_over else self.game.current_seat

    def seat_is_ai(self, seat: int | None) -> bool:
        return seat is not None and self.seat_kinds[seat] == "ai"

    def supply(self) -> list[tuple[str, str, int]]:
        g = self.game
        ids = [p for p in g.supply() if not g.is_wrestler_piece(p)]
        return list(self._inventory_rows(ids))

    def piece_colour(self, pid: str, kind: str) -> theme.RGBA:
        owner = self._owner_of_kind.get(kind)
        if owner is None:
            return theme.DISC_COLOURS.get(kind, theme.UNKNOWN_PIECE)
        base = theme.seat_colour(owner)
        if kind == self.game.seats[owner].wrestler.piece_kind:
            return base
        return theme.lighter(base, 0.4)

    def status(self) -> str:
        g = self.game
        if g.is_over:
            return f"Game over: {self.in_colours(g.result.text)}"
        t = g.turn
        s = g.current_seat
        who = f"{self._seat_name(s)} ({g.seats[s].wrestler.name})"
        if t.pushes >= t.pushes_allowed or t.replaced:
            tail = "pushed - use a signature move or end the turn (E)"
        elif t.pushes_allowed > 1:
            tail = f"push {t.pushes + 1} of {t.pushes_allowed}, from the same platform spot"
        else:
            tail = "to push"
        if t.push_from is not None:
            tail += f" (from {self.in_colours(g.describe_place(g.push_source()))})"
        extra = f"  ({self.record_problem})" if self.record_problem else ""
        return f"Turn {t.number}: {who} {tail}{extra}"

    # ----- pushing ---------------------------------------------------------------------------------------
    def choices(self) -> list[Choice]:
        g = self.game
        counts = Counter(g.kind_of(p) for p in g.legal_pieces())
        order = sorted(counts, key=lambda k: (k not in STANDARD, STANDARD.index(k) if k in STANDARD else 0, k))
        return [Choice(k, k, self._short_name(k), counts[k]) for k in order]

    def locked_aim(self) -> tuple[float, float] | None:
        return self.game.locked_platform()

    def check(self, aim: Aim, choice: Choice) -> tuple[Push | None, str]:
        """Cheap: the rules' platform lock and the world's platform check, no simulation."""
        g = self.game
        if g.is_over:
            return None, "the game is over"
        ids = [p for p in g.legal_pieces() if g.kind_of(p) == choice.kind]
        if not ids:
            return None, f"no {self._short_name(choice.kind)} to push"
        lock = g.locked_platform()
        if lock is not None and (aim.entry_deg, aim.heading_deg) != tuple(lock):
            return None, "the platform must stay where it is for this turn's second push"
        push = aim.push(ids[0], choice.kind)
        try:
            g.world.check_push(push)
        except ValueError as exc:
            return None, str(exc)
        return push, ""

    def _record_undo_point(self, seat: int) -> None:
        if not self.seat_is_ai(seat):
            self._undo.append(self.game.to_json())

    def _destinations(self, knocked_out) -> dict[str, str]:
        out = {}
        for k in knocked_out:
            to = k.to
            if to.startswith("team:"):
                to = f"seat:{self.game.sides[int(to[5:])][0]}"
            out[k.piece] = to
        return out

    def _ko_text(self, knocked_out) -> str:
        if not knocked_out:
            return "nothing fell"
        g = self.game
        by_place: dict[str, Counter] = {}
        for k in knocked_out:
            by_place.setdefault(k.to, Counter())[self._short_name(k.kind)] += 1
        parts = []
        for to, counts in by_place.items():
            if to.startswith("seat:"):
                where = f"{self._seat_name(int(to[5:]))}'s inventory"
            elif to.startswith("team:"):
                where = f"team {'AB'[int(to[5:])]}'s inventory"
            else:
                where = "the supply"
            what = ", ".join(name if n == 1 and name not in STANDARD else f"{n} {name}"
                             for name, n in counts.items())
            parts.append(f"{what} to {where}")
        return "knocked out " + "; ".join(parts)

    def push(self, aim: Aim, choice: Choice) -> Outcome:
        g = self.game
        seat = g.current_seat
        push, reason = self.check(aim, choice)
        if push is None:
            raise ValueError(reason)
        snapshot = g.to_json() if not self.seat_is_ai(seat) else None
        try:
            out = g.push(choice.kind, aim.entry_deg, aim.heading_deg, aim.speed, aim.spin_deg,
                         end_turn=False)
        except ValueError as exc:  # the rules refused it (nothing changed)
            raise ValueError(self.in_colours(str(exc))) from None
        if snapshot is not None:
            self._undo.append(snapshot)
        self.record()
        self._maybe_end_turn(seat)
        return Outcome(out.physics, self._destinations(out.knocked_out),
                       f"{self._seat_name(seat)} pushed a {self._short_name(out.kind)}: "
                       f"{self._ko_text(out.knocked_out)}")

    def _maybe_end_turn(self, seat: int) -> None:
        """End the turn for the player when nothing is left to do in it: no push left and no
        signature move usable now (an AI seat always ends it)."""
        g = self.game
        if g.is_over or g.current_seat != seat or not g.can_end_turn:
            return
        t = g.turn
        if t.pushes < t.pushes_allowed and not t.replaced and g.legal_pieces():
            return  # a second push is owed (and possible)
        if not self.seat_is_ai(seat) and any(m.usable for m in g.available_moves(seat)):
            return
        g.end_turn()
        self.record()

    def can_end_turn(self) -> bool:
        return self.game.can_end_turn

    def end_turn(self) -> None:
        g = self.game
        if g.is_over:
            return
        if g.can_end_turn:
            g.end_turn()
            self.record()

    # ----- signature moves ----------------------------------------------------------------------------------
    def moves(self) -> list[MoveView]:
        g = self.game
        seat = self.current_seat()
        if seat is None or self.seat_is_ai(seat):
            return []
        w = g.seats[seat].wrestler
        out = []
        for opt in g.available_moves(seat):
            prompts = []
            specs = list(opt.targets)
            i = 0
            while i < len(specs):
                sp = specs[i]
                if sp.kind == "piece":
                    prompts.append(Prompt("piece", f"click {sp.text}", tuple(sp.choices)))
                elif sp.kind == "seat":
                    wids = tuple(g.seats[q].piece_id for q in sp.choices if g.seats[q].piece_id in g.world)
                    prompts.append(Prompt("piece", f"click the wrestler of {sp.text}", wids))
                elif sp.kind == "angle_deg":
                    origin = self._origin(seat, w.move(opt.name))
                    slide = i + 1 < len(specs) and specs[i + 1].kind == "distance_mm"
                    text = (f"click where to slide it (up to {specs[i + 1].high:g} mm)" if slide
                            else f"click a point: {sp.text}")
                    prompts.append(Prompt("point", text, (), origin))
                    if slide:
                        i += 1
                elif sp.kind == "distance_mm":
                    prompts.append(Prompt("point", f"click a point: {sp.text}", (),
                                          self._origin(seat, w.move(opt.name))))
                i += 1
            out.append(MoveView(opt.name, opt.name, opt.text, opt.usable,
                                self.in_colours(opt.reason or ""), tuple(prompts)))
        return out

    def _origin(self, seat: int, spec) -> str | None:
        """The piece a direction is measured from: the signature piece a slide moves, else the
        seat's wrestler piece."""
        g = self.game
        w = g.seats[seat].wrestler
        piece = spec.params.get("piece") if spec.effect == "slide_signature" else None
        if piece:
            kind = w.signature_piece(piece).kind if piece not in STANDARD else piece
            for p in g.world.pieces:
                if p.kind == kind and p.base is None:
                    return p.id
        return w.piece_id if w.piece_id in g.world else None

    def use_move(self, key: str, clicks: list) -> Outcome:
        g = self.game
        seat = g.current_seat
        opt = next((m for m in g.available_moves(seat) if m.name == key), None)
        if opt is None:
            raise ValueError(f"no move {key!r}")
        spec = g.seats[seat].wrestler.move(key)
        targets: dict[str, Any] = {}
        clicks = list(clicks)
        specs = list(opt.targets)
        i = 0
        while i < len(specs):
            sp = specs[i]
            if not clicks:
                raise ValueError(f"{key} needs {sp.text}")
            c = clicks.pop(0)
            if sp.kind == "piece":
                targets[sp.name] = c
            elif sp.kind == "seat":
                owner = g.owner_of(c) if isinstance(c, str) else None
                if owner is None:
                    raise ValueError(f"click a wrestler piece to choose {sp.text}")
                targets[sp.name] = owner
            elif sp.kind in ("angle_deg", "distance_mm"):
                if not isinstance(c, tuple):
                    raise ValueError(f"click a point on the ring for {sp.text}")
                origin = self._origin(seat, spec)
                if origin is None:
                    raise ValueError("the piece to measure from is not on the ring")
                o = g.world.piece(origin)
                dx, dy = c[0] - o.x, c[1] - o.y
                if sp.kind == "angle_deg":
                    targets[sp.name] = math.degrees(math.atan2(dy, dx))
                    if i + 1 < len(specs) and specs[i + 1].kind == "distance_mm":
                        hi = specs[i + 1].high or 0.0
                        targets[specs[i + 1].name] = max(0.1, min(hi, math.hypot(dx, dy) * 1000.0))
                        i += 1
                else:
                    targets[sp.name] = max(0.1, min(sp.high or 0.0, math.hypot(dx, dy) * 1000.0))
            i += 1
        before = {p.id: (p.kind, p.x, p.y) for p in g.world.pieces}
        snapshot = g.to_json()
        try:
            out = g.use_move(seat, key, **targets)  # IllegalMove (a ValueError) changes nothing
        except ValueError as exc:
            raise ValueError(self.in_colours(str(exc))) from None
        self._undo.append(snapshot)
        self.record()
        vanished = tuple((k.piece, before[k.piece][0], before[k.piece][1], before[k.piece][2])
                         for k in out.knocked_out if k.piece in before)
        bits = []
        if out.paid:
            by_place: dict[str, Counter] = {}
            for pid, place in out.paid.items():
                by_place.setdefault(place, Counter())[self._short_name(g.kind_of(pid))] += 1
            for place, counts in by_place.items():
                who = (f"{self._seat_name(int(place[5:]))}" if place.startswith("seat:") else
                       f"team {'AB'[int(place[5:])]}" if place.startswith("team:") else "the supply")
                bits.append("paid " + ", ".join(f"{n} {k}" for k, n in counts.items()) + f" to {who}")
        if out.gained:
            bits.append("gained " + ", ".join(g.kind_name(g.kind_of(p)) for p in out.gained))
        if out.knocked_out:
            bits.append(self._ko_text(out.knocked_out))
        return Outcome(None, self._destinations(out.knocked_out),
                       f"{self._seat_name(seat)} used {key}" + (": " + "; ".join(bits) if bits else ""),
                       vanished)

    # ----- undo ------------------------------------------------------------------------------------------
    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> None:
        """Back to the game before the last human push or move (AI turns after it go too)."""
        from kabuto.rules.game import Game

        if not self._undo:
            raise ValueError("nothing to undo")
        data = self._undo.pop()
        materials = self.game.materials
        self.game = Game.from_json(data)
        if self.game.materials != materials:
            self.set_materials(materials)  # the tuning in force stays in force
        self.record()  # the recorder sees the shorter history: an undo entry in the replay

    # ----- the end, and the AI ------------------------------------------------------------------------------
    def winner(self) -> Winner | None:
        r = self.game.result
        if r is None:
            return None
        return Winner(tuple(r.seats), self.in_colours(r.text))

    def ai_plan(self, seat: int) -> list[AIStep] | None:
        """The AI's turn as steps (runs in a thread: only reads the game)."""
        plan = plan_turn(self.game, seat, self.ai_level, self.seed, self.ai_workers)
        if plan is None:
            return None
        steps = [AIStep("move", name, dict(targets)) for name, targets in plan.before]
        for p in plan.pushes:
            meant = Aim(*p.meant) if p.meant else None
            steps.append(AIStep("push", aim=Aim(p.entry_deg, p.heading_deg, p.speed, p.spin_deg),
                                shown=meant, choice=Choice(p.kind, p.kind, self._short_name(p.kind), 1)))
        steps += [AIStep("move", name, dict(targets)) for name, targets in plan.after]
        return steps

    def ai_move(self, step: AIStep) -> Outcome:
        g = self.game
        seat = g.current_seat
        before = {p.id: (p.kind, p.x, p.y) for p in g.world.pieces}
        out = g.use_move(seat, step.move, **step.targets)
        self.record()
        vanished = tuple((k.piece, before[k.piece][0], before[k.piece][1], before[k.piece][2])
                         for k in out.knocked_out if k.piece in before)
        return Outcome(None, self._destinations(out.knocked_out),
                       f"{self._seat_name(seat)} (AI) used {step.move}"
                       + (": " + self._ko_text(out.knocked_out) if out.knocked_out else ""), vanished)

    def ai_push(self, step: AIStep) -> Outcome:
        g = self.game
        seat = g.current_seat
        a = step.aim
        out = g.push(step.choice.kind, a.entry_deg, a.heading_deg, a.speed, a.spin_deg, end_turn=False)
        self.record()
        return Outcome(out.physics, self._destinations(out.knocked_out),
                       f"{self._seat_name(seat)} (AI) pushed a {self._short_name(out.kind)}: "
                       f"{self._ko_text(out.knocked_out)}")

    def ai_finish(self, seat: int | None) -> None:
        g = self.game
        if not g.is_over and g.current_seat == seat and g.can_end_turn:
            g.end_turn()
            self.record()
