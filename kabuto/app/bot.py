"""AI seats for the app: the project's Kabuto AI (:mod:`kabuto.ai`) when it is there, else a small
sampling bot, behind one function: :func:`plan_turn` ``(game, seat, level, seed) -> TurnPlan``.

:mod:`kabuto.ai` plans the whole turn (signature moves before and after, the push as aimed and as
executed after its hand wobble). The fallback :class:`SamplingBot` tries random pushes with
:meth:`kabuto.Game.preview_push` (the game is not changed) and keeps the best by a simple score:
win now, never knock out your own wrestler, push opposing wrestlers towards the edge, keep your
own near the centre, collect discs. Both are seeded: the same game and seed give the same turn.
"""
from __future__ import annotations

import importlib
import math
import random
from dataclasses import dataclass, field
from typing import Any

LEVELS = ("easy", "medium", "hard")
SAMPLES_BY_LEVEL = {"easy": 6, "medium": 16, "hard": 40}


@dataclass(frozen=True)
class PushPlan:
    """A push: the kind and the aim it is made with, and the aim as meant (before any wobble)."""

    kind: str
    entry_deg: float
    heading_deg: float
    speed: float
    spin_deg: float = 0.0
    meant: tuple[float, float, float, float] | None = None  # entry, heading, speed, spin


@dataclass(frozen=True)
class TurnPlan:
    before: tuple[tuple[str, dict], ...] = ()   # (move name, targets)
    pushes: tuple[PushPlan, ...] = ()
    after: tuple[tuple[str, dict], ...] = ()
    source: str = "sampling bot"
    text: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


def _kabuto_ai():
    try:
        return importlib.import_module("kabuto.ai")
    except ModuleNotFoundError as exc:
        if exc.name != "kabuto.ai":
            raise
        return None


def plan_turn(game, seat: int, level: str = "medium", seed: int = 0,
              workers: int | None = None) -> TurnPlan | None:
    """The turn ``seat`` plays now (None if it can do nothing)."""
    if game.is_over or game.current_seat != seat:
        return None
    ai = _kabuto_ai()
    if ai is not None and hasattr(ai, "choose"):
        plan = ai.choose(game, level=level, seed=seed, workers=workers)
        pushes = []
        for i, p in enumerate(plan.pushes):
            meant = plan.aims[i] if i < len(plan.aims) else p
            pushes.append(PushPlan(p.kind, p.entry_deg, p.heading_deg, p.speed, p.spin_deg,
                                   (meant.entry_deg, meant.heading_deg, meant.speed, meant.spin_deg)))
        return TurnPlan(tuple((m.name, dict(m.targets)) for m in plan.before), tuple(pushes),
                        tuple((m.name, dict(m.targets)) for m in plan.after), f"kabuto.ai ({level})",
                        plan.text())
    push = SamplingBot(SAMPLES_BY_LEVEL.get(level, 16)).choose(game, seat, seed)
    return TurnPlan(pushes=(push,) if push else ())


class SamplingBot:
    """Random pushes, previewed, best score kept."""

    def __init__(self, samples: int = 16):
        self.samples = samples

    def choose(self, game, seat: int, seed: int = 0) -> PushPlan | None:
        kinds = game.legal_kinds()
        if not kinds or game.current_seat != seat:
            return None
        rng = random.Random(f"kabuto-app-bot-{seed}-{game.turn.number}-{seat}")
        sim = game.materials.sim
        lock = game.locked_platform()
        targets = self._targets(game, seat)
        best: tuple[float, PushPlan] | None = None
        tries = 0
        while tries < self.samples * 3 and (best is None or tries < self.samples):
            tries += 1
            kind = rng.choice(kinds)
            if lock is not None:
                entry, heading = lock
            elif targets and rng.random() < 0.7:
                entry, heading = self._aim_at(rng.choice(targets), game.materials.ring.radius, rng,
                                              sim.heading_limit_deg)
            else:
                entry = rng.uniform(-180.0, 180.0)
                heading = max(-sim.heading_limit_deg, min(sim.heading_limit_deg, rng.gauss(0.0, 20.0)))
            # The upper part of the hand's range (a push slower than 0.4 of the limit barely
            # moves the crowd: it slides on (0.4)^2 = 16% as far as one at the limit).
            speed = round(rng.uniform(max(sim.min_speed, 0.4 * sim.max_speed), sim.max_speed), 3)
            try:
                out = game.preview_push(kind, entry, heading, speed)
            except ValueError:
                continue  # a blocked platform spot: try another
            score = self._score(game, seat, out) + rng.random() * 1e-3
            if best is None or score > best[0]:
                best = (score, PushPlan(kind, entry, heading, speed))
        return best[1] if best else None

    @staticmethod
    def _targets(game, seat: int) -> list[tuple[float, float]]:
        side = game.side_of(seat)
        out = []
        for s in game.seats:
            if game.side_of(s.index) != side and s.piece_id in game.world:
                p = game.world.piece(s.piece_id)
                out.append((p.x, p.y))
        return out

    @staticmethod
    def _aim_at(target: tuple[float, float], R: float, rng: random.Random, limit: float):
        """A platform spot behind ``target`` as seen from the far side, aimed at it, with noise."""
        tx, ty = target
        away = math.atan2(ty, tx) if (tx or ty) else rng.uniform(-math.pi, math.pi)
        entry = math.degrees(away + math.pi) + rng.gauss(0.0, 25.0)
        ex, ey = R * math.cos(math.radians(entry)), R * math.sin(math.radians(entry))
        inward = entry + 180.0
        heading = math.degrees(math.atan2(ty - ey, tx - ex)) - inward
        heading = (heading + 180.0) % 360.0 - 180.0 + rng.gauss(0.0, 4.0)
        entry = (entry + 180.0) % 360.0 - 180.0
        return entry, max(-limit, min(limit, heading))

    @staticmethod
    def _score(game, seat: int, out) -> float:
        side = game.side_of(seat)
        if out.result is not None:
            if out.result.winner == side:
                return 1000.0
            if seat in out.result.seats:
                return 500.0
            return -1000.0
        if seat in out.eliminated:
            return -1000.0
        score = 0.0
        R = game.materials.ring.radius
        pieces = {p["id"]: p for p in out.physics.snapshot["pieces"]}
        for s in game.seats:
            p = pieces.get(s.piece_id)
            if p is None:
                continue
            d = math.hypot(p["x"], p["y"]) / R
            score += (10.0 * d) if game.side_of(s.index) != side else (-6.0 * d)
        score += sum(1.0 for k in out.knocked_out if k.to == game.seat_inventory(seat))
        score -= 0.5 * sum(1.0 for k in out.knocked_out if k.to == "supply")
        return score
