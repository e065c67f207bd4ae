#!/usr/bin/env python3
"""Save screenshots of the desktop app: the start menu, a push in mid-flight, and the win screen.

    python3 tools/screenshots.py OUT_DIR [--size 1280x720]

Runs under Xvfb when DISPLAY is unset. Writes OUT_DIR/menu.png, OUT_DIR/push-mid-flight.png,
OUT_DIR/win.png (and OUT_DIR/menu-4p.png, OUT_DIR/table-4p.png, OUT_DIR/tuning.png,
OUT_DIR/replay-aim.png - a replayed push's aim before it plays - OUT_DIR/replay.png,
OUT_DIR/preview-vice-grip.png and OUT_DIR/preview-roll.png - a signature move's preview before it
is confirmed - and OUT_DIR/stack-badges.png) and prints their paths. Everything is seeded, so the
pictures repeat.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from kabuto_ui.virtual_display import NoDisplay, virtual_display


def _settle(win, scene, limit=20000):
    import time

    for _ in range(limit):
        if scene.mode in ("aim", "over") and not scene.flights:
            return
        win.pump()
        if scene.mode == "ai-thinking":
            time.sleep(0.002)


def _winning_push(game, seed=3):
    """Arrange a board where a knock-out is on, and find a push that wins (seeded search).

    Pushes are careful (the hand's speed is capped), so the rival's wrestler sits just inside the
    edge, a quarter-turn round from a platform at the top, and the push runs along the edge."""
    import math

    R = game.materials.ring.radius
    rival = game.seats[1 - game.current_seat].piece_id
    for p in list(game.world.pieces):
        if p.id != rival and p.y > -0.03:
            game.edit(p.id, "supply")
    a = math.radians(115.0)
    game.edit(rival, "board", (R - 0.008) * math.cos(a), (R - 0.008) * math.sin(a))
    top = game.materials.sim.max_speed
    rng = random.Random(seed)
    kind = "medium" if "medium" in game.legal_kinds() else game.legal_kinds()[0]
    for _ in range(400):
        entry = 90.0 + rng.gauss(0, 4)
        heading = -50.0 + rng.gauss(0, 6)
        speed = rng.uniform(0.6 * top, top)
        try:
            out = game.preview_push(kind, entry, heading, speed)
        except ValueError:
            continue
        if out.result is not None and out.result.winner == game.current_side:
            return kind, entry, heading, speed
    raise RuntimeError("no winning push found")


def shoot(out: Path, size: tuple[int, int]) -> list[Path]:
    from kabuto.app.aim import Aim
    from kabuto.app.game_config import GameConfig
    from kabuto.app.game_session import GameSession
    from kabuto.app.main import App, Options
    from kabuto.app.replay_model import open_recording
    from kabuto.app.scene.replay_view import ReplayScene
    from kabuto.rules.game import Game

    out.mkdir(parents=True, exist_ok=True)
    saved = []
    data = out / "data"  # the games played here are recorded here, not in the user's folder
    app = App(Options(size=size, ai_delay=0.0, profiles=out / "profiles", data_dir=data))
    win = app.window

    # 1. The start menu.
    app.last_config = GameConfig(2, ("human", "ai"), ("mike", "gus"))
    app.open_menu()
    for _ in range(3):
        win.pump()
    saved.append(win.screenshot(out / "menu.png"))
    menu = win.scene
    menu._players(4)
    menu._focus(2)
    saved.append(win.screenshot(out / "menu-4p.png"))

    # 2. A push in mid-flight: a large disc shoved hard through the 2P crowd.
    game = Game.new(players=2, wrestlers=["mike", "gus"], seed=4, first_player=0)
    session = GameSession(game, ("human", "human"), data_dir=data)
    scene = app.table(session)
    win.set_scene(scene)
    scene.choice_key = "medium"
    scene.aim = Aim(entry_deg=205.0, heading_deg=12.0, speed=1.3)
    scene.push_now()
    while scene.playback is not None and scene.playback.time < 0.3 * scene.playback.duration:
        win.pump()
    saved.append(win.screenshot(out / "push-mid-flight.png"))
    _settle(win, scene)

    # 3. The win screen: a knock-out of the rival's wrestler.
    game = Game.new(players=2, wrestlers=["hank", "mike"], seed=5, first_player=0)
    kind, entry, heading, speed = _winning_push(game)  # edits the board first, then records
    session = GameSession(game, ("human", "ai"), record=False)
    scene = app.table(session)
    win.set_scene(scene)
    scene.choice_key = kind
    scene.aim = Aim(entry, heading, speed)
    scene.push_now()
    _settle(win, scene)
    saved.append(win.screenshot(out / "win.png"))

    # Extra: a 4-player table with the AI's aim showing, the tuning panel, a replay.
    session = GameSession.new(GameConfig(4, ("ai", "human", "ai", "human"), seed=2, ai_level="easy"),
                              data_dir=data, ai_workers=1)
    scene = app.table(session)
    scene.ai_delay = 60.0
    win.set_scene(scene)
    for _ in range(20000):
        win.pump()
        time.sleep(0.002)  # the AI thinks in a thread
        if scene.mode == "ai-showing" or (scene.mode == "aim" and not session.seat_is_ai(session.current_seat())):
            break
    saved.append(win.screenshot(out / "table-4p.png"))
    session = GameSession.new(GameConfig(2, ("human", "human"), ("dora", "annie"), seed=9), data_dir=data)
    scene = app.table(session)
    win.set_scene(scene)
    scene.toggle_tuning()
    saved.append(win.screenshot(out / "tuning.png"))
    game = Game.new(players=2, wrestlers=["rita", "bea"], seed=6, first_player=0)
    rs = GameSession(game, ("human", "human"), data_dir=data)
    for entry in (170.0, 10.0, 150.0, 300.0, 95.0):
        try:
            game.push(game.legal_kinds()[0], entry, 4.0, game.materials.sim.max_speed)
        except ValueError:
            continue
        rs.record()
    model = open_recording(rs.save_now())
    scene = ReplayScene(win, model)
    win.set_scene(scene)
    scene.step_forward()
    _settle(win, scene)
    scene.step_forward()
    win.pump()
    saved.append(win.screenshot(out / "replay-aim.png"))  # its aim first, then the push plays
    while scene.mode == "showing":
        win.pump()
    while scene.playback is not None and scene.playback.time < 0.5 * scene.playback.duration:
        win.pump()
    saved.append(win.screenshot(out / "replay.png"))
    saved += _previews(app, out)
    win.close()
    return saved


def _previews(app, out: Path) -> list[Path]:
    """A signature move's preview waiting for Confirm: Vice Grip about to knock out Hank's
    wrestler (and win), and a Roll with the Dung Ball's ghost where it would end; then a board
    with stacks of 2 and 3 and their badges."""
    from kabuto.app.game_session import GameSession
    from kabuto.rules.game import Game

    win = app.window
    saved = []
    game = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    hank = game.seats[1].piece_id
    for p in list(game.world.pieces):  # clear the middle (Hank's long horn reaches 15 mm out)
        if p.id != hank and p.x * p.x + p.y * p.y < 0.045 ** 2:
            game.edit(p.id, "supply")
    game.edit(hank, "board", 0.0, 0.0)
    scene = win.set_scene(app.table(GameSession(game, ("human", "human"), record=False)))
    grip = next(m for m in scene.session.moves() if m.name == "Vice Grip")
    scene._pick_move(grip)
    win.pump()
    saved.append(win.screenshot(out / "preview-vice-grip.png"))

    game = Game.new(players=2, wrestlers=["dora", "mike"], seed=1, first_player=0)
    R = game.materials.ring.radius
    ball = next(q for q in game.supply() if game.kind_of(q) == "dora_ball")
    for p in list(game.world.pieces):
        if p.y > R * 0.3 and not game.is_wrestler_piece(p.id):
            game.edit(p.id, "supply")
    game.edit(ball, "board", 0.0, R - 0.03)
    scene = win.set_scene(app.table(GameSession(game, ("human", "human"), record=False)))
    roll = next(m for m in scene.session.moves() if m.name == "Roll")
    scene._pick_move(roll)
    scene._click_target(-0.02, R - 0.03)
    win.pump()
    saved.append(win.screenshot(out / "preview-roll.png"))

    game = Game.new(players=2, wrestlers=["gus", "hank"], seed=1, first_player=0)
    large = [q for q in game.world.pieces if q.kind == "large"]
    spare = [q for q in game.supply() if game.kind_of(q) in ("small", "medium")]
    medium = next(q for q in spare if game.kind_of(q) == "medium")
    smalls = [q for q in spare if game.kind_of(q) == "small"]
    game.edit(medium, "board", large[0].x, large[0].y, base=large[0].id)
    game.edit(smalls[0], "board", large[0].x, large[0].y, base=medium)
    game.edit(smalls[1], "board", large[1].x, large[1].y, base=large[1].id)
    win.set_scene(app.table(GameSession(game, ("human", "human"), record=False)))
    win.pump()
    saved.append(win.screenshot(out / "stack-badges.png"))
    return saved


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path, help="folder for the PNG files (created if missing)")
    p.add_argument("--size", default="1280x720", help="window size WxH (default 1280x720)")
    args = p.parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"screenshots: --size: expected WxH, got {args.size!r}", file=sys.stderr)
        return 2
    try:
        with virtual_display(f"{max(w, 1600) + 80}x{max(h, 900) + 80}x24"):
            for path in shoot(args.out, (w, h)):
                print(path)
    except NoDisplay as exc:
        print(f"screenshots: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
