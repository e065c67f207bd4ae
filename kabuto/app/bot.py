"""AI seats for the app: the project's Kabuto AI when it exists, else a small sampling bot.

The interface the table uses is :func:`choose_push`: ``(game, seat, level, seed) -> Plan | None``.
If :mod:`kabuto.ai` provides ``choose(game, seat, level, seed)``, its answer is used (a
:class:`physics.Push`, or anything with ``piece``/``kind``, ``entry_deg``, ``heading_deg``,
``speed`` attributes or keys); otherwise :class:`SamplingBot` plays.

The sampling bot tries ``samples`` random pushes with :meth:`kabuto.Game.preview_push` (the game is
not changed) and keeps the best by a simple score: win now, never knock out your own wrestler, push
opposing wrestlers towards the edge, keep your own near the centre, collect discs. It is seeded
(``random.Random``), so the same game and seed give the same push.
"""
from __future__ import annotations

import importlib
import math
import random
from dataclasses import dataclass
from typing import Any

SAMPLES_BY_LEVEL = {0: 6, 1: 16, 2: 40}


@dataclass(frozen=True)
class Plan:
    """A push an AI chose: the kind (or piece id) and the platform's aim."""

    piece: str
    entry_deg: float
    heading_deg: float
    speed: float
    spin_deg: float = 0.0
    score: float = 0.0


def _field(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _from_ai(answer: Any) -> Plan | None:
    if answer is None:
        return None
    push = _field(answer, "push", answer)  # a plan wrapping a push, or the push itself
    piece = _field(push, "piece") or _field(push, "kind")
    if piece is None:
        raise ValueError(f"kabuto.ai.choose returned {answer!r}: no piece or kind in it")
    return Plan(str(piece), float(_field(push, "entry_deg")), float(_field(push, "heading_deg", 0.0)),
                float(_field(push, "speed", 0.3)), float(_field(push, "spin_deg", 0.0)))


def choose_push(game, seat: int, level: int = 1, seed: int = 0) -> Plan | None:
    """The push ``seat`` makes now (None if it has nothing to push)."""
    try:
        ai = importlib.import_module("kabuto.ai")
    except ModuleNotFoundError as exc:
        if exc.name not in ("kabuto.ai",):
            raise
        ai = None
    if ai is not None and hasattr(ai, "choose"):
        return _from_ai(ai.choose(game, seat, level, seed))
    return SamplingBot(SAMPLES_BY_LEVEL.get(level, 16)).choose(game, seat, seed)


class SamplingBot:
    """Random pushes, previewed, best score kept."""

    def __init__(self, samples: int = 16):
        self.samples = samples

    def choose(self, game, seat: int, seed: int = 0) -> Plan | None:
        kinds = game.legal_kinds()
        if not kinds or game.current_seat != seat:
            return None
        rng = random.Random(f"kabuto-app-bot-{seed}-{game.turn.number}-{seat}")
        sim = game.materials.sim
        lock = game.locked_platform()
        targets = self._targets(game, seat)
        best: Plan | None = None
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
            speed = round(rng.uniform(0.2, min(1.0, sim.max_speed)), 3)
            try:
                out = game.preview_push(kind, entry, heading, speed)
            except ValueError:
                continue  # a blocked platform spot: try another
            score = self._score(game, seat, out) + rng.random() * 1e-3
            if best is None or score > best.score:
                best = Plan(kind, entry, heading, speed, 0.0, score)
        return best

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
