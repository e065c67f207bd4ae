#!/usr/bin/env python3
"""Frame times of the desktop app while pushes play, under Xvfb (started if DISPLAY is unset).

Opens the real 1280x720 window on the 2-player starting board, then plays the same heavy push
(a large disc shoved through the crowd) ``--repeat`` times through pyglet's own event loop at
60 Hz, undoing it in between. Every drawn frame's start time and work time (update + draw + flip)
is logged. As a baseline measured in the same run, the idle table is force-redrawn for the same
number of frames.

Prints a table and one JSON line: frame interval p50/p95 (ms; 16.7 is 60 fps), work p50/p95 (ms),
the idle baseline's work p95, and the ratio push-work p95 / idle-work p95.

    python3 tools/bench_frames.py [--repeat 6] [--json-only]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kabuto.app.virtual_display import NoDisplay, virtual_display  # noqa: E402


def pct(values: list[float], q: float) -> float:
    v = sorted(values)
    if not v:
        return float("nan")
    k = min(len(v) - 1, max(0, int(round(q / 100 * (len(v) - 1)))))
    return v[k]


def run(repeat: int) -> dict:
    import pyglet
    from tqdm import tqdm

    from kabuto.app.aim import Aim
    from kabuto.app.scene.table import TableScene
    from kabuto.app.session import SandboxSession
    from kabuto.app.window import AppWindow

    win = AppWindow(1280, 720)
    session = SandboxSession()
    scene = win.set_scene(TableScene(win, session))
    scene.choice_key = "large"
    for _ in range(5):
        win.pump()

    # Baseline: the idle table, force-redrawn every tick.
    win.frame_log = []
    t_end = time.perf_counter() + 1.5
    while time.perf_counter() < t_end:
        win.dirty = True
        win.pump()
    idle = [w for _, w in win.frame_log]

    # Pushes, through pyglet's own loop at 60 Hz.
    push_log: list[tuple[float, float]] = []
    durations = []
    bar = tqdm(total=repeat, desc="pushes", unit="push", file=sys.stderr)
    state = {"left": repeat, "phase": "start"}

    def driver(dt):
        if state["phase"] == "start":
            scene.aim = Aim(entry_deg=180.0, heading_deg=0.0, speed=1.2)
            win.frame_log = []
            scene.push_now()
            durations.append(scene.playback.duration if scene.playback else 0.0)
            state["phase"] = "playing"
        elif state["phase"] == "playing" and scene.mode == "aim":
            push_log.extend(win.frame_log)
            win.frame_log = None
            scene._undo()
            state["left"] -= 1
            bar.update(1)
            state["phase"] = "start" if state["left"] else "done"
            if state["phase"] == "done":
                pyglet.app.exit()

    win.start()
    pyglet.clock.schedule_interval(driver, 1 / 60)
    pyglet.app.run(None)
    pyglet.clock.unschedule(driver)
    bar.close()
    win.close()
    starts = [t for t, _ in push_log]
    intervals = [(b - a) * 1000 for a, b in zip(starts, starts[1:]) if b - a < 0.5]
    work = [w * 1000 for _, w in push_log]
    idle_ms = [w * 1000 for w in idle]
    return {
        "frames": len(push_log),
        "pushes": repeat,
        "push_seconds": round(sum(durations), 3),
        "interval_p50_ms": round(pct(intervals, 50), 2),
        "interval_p95_ms": round(pct(intervals, 95), 2),
        "work_p50_ms": round(pct(work, 50), 2),
        "work_p95_ms": round(pct(work, 95), 2),
        "idle_work_p95_ms": round(pct(idle_ms, 95), 2),
        "work_p95_over_idle_p95": round(pct(work, 95) / max(1e-9, pct(idle_ms, 95)), 2),
        "fps_mean": round(1000 / statistics.mean(intervals), 1) if intervals else None,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=6, help="how many pushes to play (default 6)")
    p.add_argument("--json-only", action="store_true", help="print only the JSON line")
    args = p.parse_args(argv)
    if args.repeat < 1:
        print("bench_frames: --repeat must be at least 1", file=sys.stderr)
        return 2
    try:
        with virtual_display():
            res = run(args.repeat)
    except NoDisplay as exc:
        print(f"bench_frames: {exc}", file=sys.stderr)
        return 2
    if not args.json_only:
        print(f"frames while pushes played: {res['frames']} over {res['push_seconds']} s of animation")
        print(f"frame interval p50 {res['interval_p50_ms']} ms, p95 {res['interval_p95_ms']} ms "
              f"(60 fps = 16.7 ms; mean {res['fps_mean']} fps)")
        print(f"work per frame p50 {res['work_p50_ms']} ms, p95 {res['work_p95_ms']} ms; idle table "
              f"p95 {res['idle_work_p95_ms']} ms; ratio {res['work_p95_over_idle_p95']}")
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
