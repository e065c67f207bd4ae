"""Playing a push back from its recorded trajectory, at real speed. No pyglet, no physics.

The physics simulates a push once and returns poses sampled at ``trajectory.rate`` (60 Hz). The
frame loop only looks poses up here: :meth:`Playback.poses_at` interpolates between the two samples
around the elapsed time, so the animation runs at real speed whatever the frame rate, and nothing is
re-simulated. A piece whose pose turns NaN has fallen off the ring at that moment; the playback
reports it once (with its last pose and velocity) so the view can show it tumbling off the edge.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kabuto_ui.tween import ease
from physics import Trajectory

Pose = tuple[float, float, float, int]  # x, y, angle (rad), stack level


@dataclass(frozen=True)
class Departure:
    """A piece leaving the ring during playback: its last pose on the ring and its velocity."""

    piece: str
    pose: Pose
    velocity: tuple[float, float]  # m/s, from the last two samples


class Playback:
    """Real-time playback of one trajectory. ``advance(dt)`` moves the clock; ``poses()`` reads it."""

    def __init__(self, trajectory: Trajectory, speed: float = 1.0):
        self.trajectory = trajectory
        self.speed = speed
        self.time = 0.0
        poses = trajectory.poses
        self._n = len(poses)
        self._ids = list(trajectory.ids)
        # First sample index at which each piece is gone (NaN), or n if it never leaves.
        gone = np.isnan(poses[:, :, 0]) if self._n else np.zeros((0, len(self._ids)), bool)
        self._gone_at: list[int] = []
        for i in range(len(self._ids)):
            idx = np.flatnonzero(gone[:, i])
            # A piece can be NaN at the very start only if it was never there (not in this push).
            self._gone_at.append(int(idx[0]) if len(idx) else self._n)
        self._reported: set[str] = set()

    @property
    def duration(self) -> float:
        return self.trajectory.duration

    @property
    def done(self) -> bool:
        return self.time >= self.duration

    def advance(self, dt: float) -> list[Departure]:
        """Move the clock on by ``dt`` seconds of wall time; return pieces that left the ring."""
        self.time = min(self.duration, self.time + max(0.0, dt) * self.speed)
        return self._departures()

    def seek(self, t: float) -> list[Departure]:
        self.time = min(self.duration, max(0.0, t))
        return self._departures()

    def _departures(self) -> list[Departure]:
        rate = self.trajectory.rate
        poses = self.trajectory.poses
        k = self._sample_index()
        out = []
        for i, pid in enumerate(self._ids):
            g = self._gone_at[i]
            if g == 0 or g > k or pid in self._reported:
                continue
            self._reported.add(pid)
            last = poses[g - 1, i]
            prev = poses[g - 2, i] if g >= 2 else last
            vel = ((last[0] - prev[0]) * rate, (last[1] - prev[1]) * rate)
            out.append(Departure(pid, (float(last[0]), float(last[1]), float(last[2]), int(last[3])),
                                 (float(vel[0]), float(vel[1]))))
        return out

    def _sample_index(self) -> int:
        return min(self._n - 1, int(math.floor(self.time * self.trajectory.rate + 1e-9)))

    def poses(self) -> dict[str, Pose]:
        """Every piece still on the ring (or the platform) at the current time, interpolated."""
        if self._n == 0:
            return {}
        poses = self.trajectory.poses
        f = self.time * self.trajectory.rate
        k0 = min(self._n - 1, int(math.floor(f + 1e-9)))
        k1 = min(self._n - 1, k0 + 1)
        a = f - k0 if k1 != k0 else 0.0
        out: dict[str, Pose] = {}
        p0, p1 = poses[k0], poses[k1]
        for i, pid in enumerate(self._ids):
            x0, y0, t0, lv = p0[i]
            if math.isnan(x0):
                continue
            x1, y1, t1, _ = p1[i]
            if math.isnan(x1) or a == 0.0:
                out[pid] = (float(x0), float(y0), float(t0), int(lv))
            else:
                out[pid] = (float(x0 + a * (x1 - x0)), float(y0 + a * (y1 - y0)),
                            float(t0 + a * (t1 - t0)), int(lv))
        return out


@dataclass
class Flight:
    """A fallen piece's afterlife on screen: it tumbles off the edge, then flies to where it goes
    (an inventory or the supply). Times in seconds; positions in pixels."""

    piece: str
    kind: str
    start: tuple[float, float]
    drift: tuple[float, float]  # pixels travelled outward while falling
    target: tuple[float, float] | None
    fall_time: float = 0.35
    fly_time: float = 0.55
    t: float = 0.0

    @property
    def done(self) -> bool:
        return self.t >= self.fall_time + (self.fly_time if self.target else 0.0)

    def advance(self, dt: float) -> None:
        self.t += dt

    def state(self) -> tuple[float, float, float, float]:
        """(x, y, scale, opacity) now: shrink and fade while falling, then fly with easing."""
        if self.t < self.fall_time:
            u = self.t / self.fall_time
            x = self.start[0] + self.drift[0] * u
            y = self.start[1] + self.drift[1] * u
            return x, y, 1.0 - 0.45 * u, 1.0 - 0.5 * u
        x0 = self.start[0] + self.drift[0]
        y0 = self.start[1] + self.drift[1]
        if not self.target:
            return x0, y0, 0.55, 0.0
        u = min(1.0, (self.t - self.fall_time) / self.fly_time)
        e = ease(u)
        return x0 + (self.target[0] - x0) * e, y0 + (self.target[1] - y0) * e, 0.55, 0.5 + 0.5 * u


def first_knock(trajectory: Trajectory, pushed: str | None, moved: float = 0.0005) -> float | None:
    """When, in the trajectory's seconds, a piece other than the pushed one first moves by more
    than ``moved`` metres (the clack of the first knock), or None if none does."""
    poses = trajectory.poses
    if not len(poses) or pushed is None:
        return None
    ids = list(trajectory.ids)
    others = [i for i, pid in enumerate(ids) if pid != pushed]
    if not others:
        return None
    xy = poses[:, others, :2]
    start = xy[0]
    moved_by = np.sqrt(((xy - start) ** 2).sum(axis=2))
    # NaN: a piece not in the push, or one already fallen (it moved before it fell).
    hit = np.nan_to_num(moved_by, nan=0.0).max(axis=1) > moved
    idx = np.flatnonzero(hit)
    if not len(idx):
        return None
    return float(idx[0]) / trajectory.rate
