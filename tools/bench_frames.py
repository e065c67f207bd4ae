#!/usr/bin/env python3
"""Frame times of the desktop app while pushes play, under Xvfb (started if DISPLAY is unset).

Opens the real window (1280x720, or ``--size``) on the 2-player starting board (the sandbox) and plays pushes
through pyglet's own event loop at 60 Hz, undoing each in between. The pushes cycle through a fixed
set of aims, all at the hand's top speed with the large disc: a shove straight through the crowd,
and two that knock pieces out (so knocked-out pieces fly to the inventory). Every frame drawn from
the push to its landing is logged: its start time and its work (update + draw + present). Frames
that only repaired what moved (``partial``) and whole frames are counted apart.

Baselines measured in the same run, so the figures compare across machines and loads:
``idle``, the idle table redrawn whole every tick (what every frame cost before partial frames),
and ``empty``, an empty window cleared and presented (the floor of any frame).

Prints a table and one JSON line: frame interval p50/p95 (ms; 16.7 is 60 fps), work p50/p95 and
max (ms), the baselines' work p95, the ratios push-work p95 / idle p95 and / empty p95, and the
share of partial frames. ``--whole`` turns partial frames off (every frame whole), to compare.

    python3 tools/bench_frames.py [--repeat 6] [--whole] [--json-only] [--size 1920x1080]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from kabuto_ui.virtual_display import NoDisplay, virtual_display

#: (platform entry, heading) in degrees, on the 2P starting board, large disc, top speed.
AIMS = ((180.0, 0.0), (120.0, 20.0), (-60.0, 10.0))


def pct(values: list[float], q: float) -> float:
    v = sorted(values)
    if not v:
        return float("nan")
    k = min(len(v) - 1, max(0, int(round(q / 100 * (len(v) - 1)))))
    return v[k]


def _baseline(win, frames: int, draw) -> list[float]:
    """Work times (s) of ``frames`` frames made by ``draw()`` then a whole present."""
    out = []
    for _ in range(frames):
        t0 = time.perf_counter()
        win.switch_to()
        draw()
        win.present()
        out.append(time.perf_counter() - t0)
    return out


def run(repeat: int, whole: bool, size: tuple[int, int] = (1280, 720)) -> dict:
    try:  # as the app runs (kabuto play): no OpenGL error check after every call
        from kabuto_ui.gl_checks import release_mode
    except ImportError:  # an older tree
        pass
    else:
        release_mode()
    import pyglet
    from tqdm import tqdm

    from kabuto.app.aim import Aim
    from kabuto.app.scene.table import TableScene
    from kabuto.app.session import SandboxSession
    from kabuto_ui.window import Window

    try:
        win = Window(*size, partial_frames=not whole)
    except TypeError:  # an app without partial frames (to measure an older tree)
        win = Window(*size)
    if not hasattr(win, "present"):
        win.present = lambda rects=None: win.flip()
    session = SandboxSession()
    scene = win.set_scene(TableScene(win, session))
    scene.choice_key = "large"
    for _ in range(5):
        win.pump()

    # Baselines: the idle table drawn whole, and an empty window.
    idle = _baseline(win, 90, win.on_draw)
    empty = _baseline(win, 90, win.clear)
    win.dirty = True
    win.pump()

    # Pushes, through pyglet's own loop at 60 Hz.
    push_log: list[tuple[float, float]] = []
    durations = []
    partial_before = getattr(win, "partial_frames_drawn", 0)
    bar = tqdm(total=repeat, desc="pushes", unit="push", file=sys.stderr)
    state = {"done": 0, "phase": "start"}

    def driver(dt):
        if state["phase"] == "start":
            entry, heading = AIMS[state["done"] % len(AIMS)]
            scene.aim = Aim(entry_deg=entry, heading_deg=heading, speed=scene.limits.max_speed)
            win.frame_log = []
            scene.push_now()
            durations.append(scene.playback.duration if scene.playback else 0.0)
            state["phase"] = "playing"
        elif state["phase"] == "playing" and scene.mode == "aim":
            push_log.extend(win.frame_log)
            win.frame_log = None
            scene._undo()
            state["done"] += 1
            bar.update(1)
            state["phase"] = "start" if state["done"] < repeat else "done"
            if state["phase"] == "done":
                pyglet.app.exit()

    win.start()
    pyglet.clock.schedule_interval(driver, 1 / 60)
    pyglet.app.run(None)
    pyglet.clock.unschedule(driver)
    bar.close()
    partial = getattr(win, "partial_frames_drawn", 0) - partial_before
    win.close()
    starts = [t for t, _ in push_log]
    intervals = [(b - a) * 1000 for a, b in zip(starts, starts[1:], strict=False) if b - a < 0.5]
    work = [w * 1000 for _, w in push_log]
    idle_ms = [w * 1000 for w in idle]
    empty_ms = [w * 1000 for w in empty]
    return {
        "frames": len(push_log),
        "partial_frames": partial,
        "pushes": repeat,
        "push_seconds": round(sum(durations), 3),
        "interval_p50_ms": round(pct(intervals, 50), 2),
        "interval_p95_ms": round(pct(intervals, 95), 2),
        "work_p50_ms": round(pct(work, 50), 2),
        "work_p95_ms": round(pct(work, 95), 2),
        "work_max_ms": round(max(work), 2) if work else None,
        "idle_work_p95_ms": round(pct(idle_ms, 95), 2),
        "empty_work_p95_ms": round(pct(empty_ms, 95), 2),
        "work_p95_over_idle_p95": round(pct(work, 95) / max(1e-9, pct(idle_ms, 95)), 2),
        "work_p95_over_empty_p95": round(pct(work, 95) / max(1e-9, pct(empty_ms, 95)), 2),
        "fps_mean": round(1000 / statistics.mean(intervals), 1) if intervals else None,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=6, help="how many pushes to play (default 6)")
    p.add_argument("--whole", action="store_true", help="draw every frame whole (no partial frames)")
    p.add_argument("--json-only", action="store_true", help="print only the JSON line")
    p.add_argument("--size", default="1280x720", help="window size WxH (default 1280x720)")
    args = p.parse_args(argv)
    try:
        size = tuple(int(v) for v in args.size.lower().split("x"))
        assert len(size) == 2 and min(size) > 0
    except (ValueError, AssertionError):
        print(f"bench_frames: --size: expected WxH like 1920x1080, got {args.size!r}", file=sys.stderr)
        return 2
    if args.repeat < 1:
        print("bench_frames: --repeat must be at least 1", file=sys.stderr)
        return 2
    try:
        with virtual_display(f"{max(size[0], 1600) + 80}x{max(size[1], 900) + 80}x24"):
            res = run(args.repeat, args.whole, (size[0], size[1]))
    except NoDisplay as exc:
        print(f"bench_frames: {exc}", file=sys.stderr)
        return 2
    if not args.json_only:
        print(f"frames while pushes played: {res['frames']} ({res['partial_frames']} partial) over "
              f"{res['push_seconds']} s of push trajectories")
        print(f"frame interval p50 {res['interval_p50_ms']} ms, p95 {res['interval_p95_ms']} ms "
              f"(60 fps = 16.7 ms; mean {res['fps_mean']} fps)")
        print(f"work per frame p50 {res['work_p50_ms']} ms, p95 {res['work_p95_ms']} ms, max "
              f"{res['work_max_ms']} ms")
        print(f"baselines: idle table drawn whole p95 {res['idle_work_p95_ms']} ms, empty window p95 "
              f"{res['empty_work_p95_ms']} ms; push p95 / idle p95 {res['work_p95_over_idle_p95']}, "
              f"/ empty p95 {res['work_p95_over_empty_p95']}")
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
