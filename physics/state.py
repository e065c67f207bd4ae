"""Plain records of the at-rest world: pieces, pushes, falls and push results."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class PieceState:
    """A piece on the ring at rest: where it is, and what it sits on.

    ``base`` is the id of the piece it is stacked on, or None when it stands on the ring surface.
    Angles are radians, positions metres from the ring's centre.
    """

    id: str
    kind: str
    x: float
    y: float
    angle: float = 0.0
    base: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "x": self.x, "y": self.y, "angle": self.angle,
                "base": self.base}


@dataclass(frozen=True)
class Push:
    """One push from the platform.

    * ``piece`` / ``kind``: the piece brought in from off the ring (a new id) and its kind.
    * ``entry_deg``: where the platform touches the ring, as an angle around it (0 = +x, CCW).
    * ``heading_deg``: the push direction relative to the ring's inward normal at that point,
      positive turning counter-clockwise; at most ``simulation.heading_limit_deg`` either side.
    * ``speed``: the hand's steady speed in m/s.
    * ``spin_deg``: how the piece is turned on the platform, relative to the push direction
      (matters only for pieces that are not round).
    """

    piece: str
    kind: str
    entry_deg: float
    heading_deg: float = 0.0
    speed: float = 0.3
    spin_deg: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"piece": self.piece, "kind": self.kind, "entry_deg": self.entry_deg,
                "heading_deg": self.heading_deg, "speed": self.speed, "spin_deg": self.spin_deg}

    def direction(self) -> tuple[float, float]:
        """Unit vector of the push."""
        a = math.radians(self.entry_deg) + math.pi + math.radians(self.heading_deg)
        return math.cos(a), math.sin(a)

    def entry_point(self, ring_radius: float) -> tuple[float, float]:
        e = math.radians(self.entry_deg)
        return ring_radius * math.cos(e), ring_radius * math.sin(e)


@dataclass(frozen=True)
class Fall:
    """A piece that left the ring: when (seconds after the push began) and why.

    ``carried_by`` is the id of the piece it was stacked on when that piece fell, else None.
    """

    piece: str
    kind: str
    time: float
    carried_by: str | None = None


@dataclass
class Trajectory:
    """States sampled at a fixed rate: ``poses[t, i] = (x, y, angle, level)`` and
    ``velocities[t, i] = (vx, vy, spin)`` (m/s and rad/s, in the ring's frame).

    Row ``i`` belongs to ``ids[i]``; a piece that has fallen has NaN from its fall on. The rate is
    60 Hz for animation unless asked otherwise (``World.launch(..., sample_rate=...)``); at
    ``simulation.steps_per_second`` it is every step.
    """

    ids: list[str]
    rate: float
    poses: np.ndarray = field(repr=False)
    velocities: np.ndarray | None = field(default=None, repr=False)

    def speeds(self, pid: str) -> np.ndarray:
        """Sliding speed (m/s) of one piece at every sample."""
        v = self._velocities()[:, self.ids.index(pid)]
        return np.hypot(v[:, 0], v[:, 1])

    def spins(self, pid: str) -> np.ndarray:
        """Spin (rad/s, counter-clockwise positive) of one piece at every sample."""
        return self._velocities()[:, self.ids.index(pid), 2]

    def _velocities(self) -> np.ndarray:
        if self.velocities is None:
            raise ValueError("this trajectory has no velocities")
        return self.velocities

    @property
    def duration(self) -> float:
        return (len(self.poses) - 1) / self.rate if len(self.poses) else 0.0

    @classmethod
    def later(cls, ids: list[str], rate: float,
              build: Callable[[], tuple[np.ndarray, np.ndarray | None]]) -> Trajectory:
        """A trajectory whose arrays ``build()`` makes the first time they are read: an AI's
        previews never look at theirs, and putting the samples together was a tenth of a sketch.
        It reads like any other (and is copied and pickled as a plain one)."""
        return _Later(ids, rate, build)


class _Later(Trajectory):
    """A :class:`Trajectory` built on first reading (:meth:`Trajectory.later`)."""

    def __init__(self, ids: list[str], rate: float,
                 build: Callable[[], tuple[np.ndarray, np.ndarray | None]]):
        # Trajectory's own __init__ would set the arrays, which are not made yet.
        self.ids = ids
        self.rate = rate
        self._build: Callable[[], tuple[np.ndarray, np.ndarray | None]] | None = build
        self._arrays: tuple[np.ndarray, np.ndarray | None] | None = None

    def _made(self) -> tuple[np.ndarray, np.ndarray | None]:
        if self._arrays is None:
            assert self._build is not None
            self._arrays, self._build = self._build(), None
        return self._arrays

    @property
    def poses(self) -> np.ndarray:
        return self._made()[0]

    @poses.setter
    def poses(self, value: np.ndarray) -> None:
        self._arrays, self._build = (value, self._made()[1]), None

    @property
    def velocities(self) -> np.ndarray | None:
        return self._made()[1]

    @velocities.setter
    def velocities(self, value: np.ndarray | None) -> None:
        self._arrays, self._build = (self._made()[0], value), None

    def __reduce__(self) -> tuple[Any, ...]:
        return Trajectory, (self.ids, self.rate, self.poses, self.velocities)


@dataclass
class PushResult:
    """What one push did."""

    push: Push | None
    fell: list[Fall]
    snapshot: dict[str, Any]
    steps: int
    time: float
    released_at: float | None
    #: The hand could not get its piece wholly onto the ring within ``max_drive_time``.
    stalled: bool
    #: The world had not come to rest within ``max_time``.
    capped: bool
    trajectory: Trajectory
    #: Where the pushed piece was (x, y, angle) at the step the shove ended (``released_at``):
    #: wholly on the ring, after which the hand only stops with it (``simulation.hand_stop``), or
    #: where the hand gave up.
    released_pose: tuple[float, float, float] | None = None

    @property
    def fell_ids(self) -> list[str]:
        return [f.piece for f in self.fell]
