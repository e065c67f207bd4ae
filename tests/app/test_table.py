"""The table in a real window: keyboard aim, one simulation per push, tuning, hot-seat undo, AI
seats, signature moves, the win screen, replays and screenshots."""
from __future__ import annotations

import pytest

from kabuto.app.aim import Aim
from physics import Materials, Push, World, state_hash
from tests.app.helpers import settle, wrestler_on_the_edge


def _table(win, session, **kw):
    from kabuto.app.scene.table import TableScene

    kw.setdefault("ai_delay", 0.05)
    return win.set_scene(TableScene(win, session, **kw))


def _key(win, symbol, modifiers=0):
    """A key press through the window's event queue, as pyglet delivers it."""
    win.dispatch_event("on_key_press", symbol, modifiers)
    win.dispatch_events()


def _game(players=2, wrestlers=("gus", "mike"), seats=("human", "human"), first=0, **kw):
    from kabuto.app.game_session import GameSession
    from kabuto.rules.game import Game

    game = Game.new(players=players, wrestlers=list(wrestlers), seed=7, first_player=first, **kw)
    # The AI on its easiest level, in this process: quick, and no worker processes to start.
    return GameSession(game, seats, ai_level="easy", ai_workers=1)


def test_keys_aim_and_push_and_the_animation_never_resimulates(app_window, monkeypatch):
    from pyglet.window import key

    from kabuto.app.session import SandboxSession

    session = SandboxSession(world=World(Materials.load()))
    scene = _table(app_window, session)
    start = scene.aim
    _key(app_window, key.LEFT)
    _key(app_window, key.UP)
    _key(app_window, key.UP, key.MOD_SHIFT)
    assert scene.aim.entry_deg == pytest.approx(start.entry_deg + 1 - 360 * (start.entry_deg + 1 > 180))
    assert scene.aim.heading_deg == pytest.approx(start.heading_deg + 1.2)
    from physics import sim

    calls = []
    real = sim.Episode.run
    monkeypatch.setattr(sim.Episode, "run", lambda self, *a: calls.append(1) or real(self, *a))
    _key(app_window, key.ENTER)
    frames = 0
    while scene.mode == "playing":
        app_window.pump()
        frames += 1
    assert len(calls) == 1 and frames >= 2  # simulated once, then only animated
    (piece,) = session.world().pieces
    ref = World(Materials.load())           # the push the keys aimed, straight into the physics
    aim = scene.aim
    ref.push(Push(piece.id, "medium", aim.entry_deg, aim.heading_deg, aim.speed))
    (want,) = ref.pieces
    assert (piece.x, piece.y) == pytest.approx((want.x, want.y), abs=1e-12)
    # And the piece is drawn exactly there once the push has landed.
    assert scene.ring.sprites[piece.id].pose[:2] == (want.x, want.y)


def test_a_tuning_slider_changes_the_next_push_not_the_ring(app_window, tmp_path):
    from kabuto.app.session import SandboxSession

    mats = Materials.load()
    board = World(mats)
    board.place("T1", "medium", -0.045, 0.0)   # in the push's path: the hand stops, T1 slides on
    session = SandboxSession(mats, world=board)
    scene = _table(app_window, session, profile_dir=tmp_path)
    scene.aim = scene.aim.__class__(entry_deg=180.0, heading_deg=0.0, speed=0.3)
    scene.toggle_tuning()
    scene.tuning.kind = "medium"
    scene.rebuild()
    slider = scene.widgets.find("slider:table_friction.medium")
    r = slider.rect
    y = r.y + r.h * 0.3
    scene.on_mouse_press(r.x + r.w * 0.1, y, 1, 0)        # drag the knob down to 0.1
    scene.on_mouse_release(r.x + r.w * 0.1, y, 1, 0)
    assert session.materials.kinds["medium"].table_friction == pytest.approx(0.1, abs=0.01)
    assert session.materials.kinds["small"].table_friction == mats.kinds["small"].table_friction
    assert scene.push_now()
    settle(app_window, scene)
    pushed = next(p for p in session.world().pieces if p.id != "T1")
    ref = World(mats, board.pieces)                        # the same push on the file's friction
    ref.push(Push(pushed.id, pushed.kind, scene.aim.entry_deg, scene.aim.heading_deg, scene.aim.speed))
    slid, normal = session.world().piece("T1"), ref.piece("T1")
    assert slid.x > normal.x + 0.005, "on less friction the struck disc slides further"
    scene.widgets.find("tuning:save").on_click()
    (profile,) = list(tmp_path.iterdir())
    assert Materials.load(profile).kinds["medium"].table_friction == pytest.approx(0.1, abs=0.01)


def test_hot_seat_undo_puts_the_game_back_exactly_and_the_replay_says_so(app_window, data_dir):
    from kabuto.replay import format as rp

    session = _game()
    scene = _table(app_window, session)
    before = state_hash(session.world().snapshot())
    seat = session.current_seat()
    scene.aim = scene.aim.__class__(entry_deg=150.0, heading_deg=-10.0, speed=0.8)
    assert scene.push_now()
    settle(app_window, scene)
    assert state_hash(session.world().snapshot()) != before
    scene._undo()
    assert state_hash(session.world().snapshot()) == before
    assert session.current_seat() == seat and not session.can_undo()
    replay = rp.load(session.save_now())
    assert [a["type"] for a in replay.timeline][-1] == "undo"
    assert replay.actions == [] and replay.pushes == 1      # the push was played, then taken back


def test_an_ai_seat_shows_its_aim_then_pushes(app_window):
    session = _game(seats=("human", "ai"))
    scene = _table(app_window, session, ai_delay=0.2)
    scene.aim = scene.aim.__class__(entry_deg=100.0, heading_deg=0.0, speed=0.4)
    assert scene.push_now()
    if session.can_end_turn():
        scene._end_turn()
    seen_aim = False
    for _ in range(5000):
        app_window.pump(0.05)
        if scene.mode == "ai-showing":
            seen_aim = seen_aim or bool(scene.ring._aim_shapes)
        if scene.mode == "aim" and session.current_seat() == 0:
            break
        if scene.mode == "ai-thinking":
            import time
            time.sleep(0.002)
    assert seen_aim, "the AI's aim was not shown before its push"
    pushes = [a for a in session.game.history if a["type"] == "push"]
    assert [a["seat"] for a in pushes] == [0, 1]


def test_signature_moves_show_why_not_and_take_targets_by_click(app_window):
    session = _game(wrestlers=("gus", "mike"))
    scene = _table(app_window, session)
    moves = {m.name: m for m in session.moves()}
    # Goliath Gus: Body Slam costs 2 small (he has them) but needs a disc touching an opponent;
    # Boulder Drop pays a medium and stacks the Boulder on a large disc of your choice.
    drop = scene.widgets.find("move:Boulder Drop")
    assert drop is not None and drop.enabled
    slam = scene.widgets.find("move:Body Slam")
    assert slam.enabled == moves["Body Slam"].enabled
    if not slam.enabled:
        assert slam.reason and slam.reason == moves["Body Slam"].reason
    drop.on_click()
    choices = moves["Boulder Drop"].prompts[0].choices
    assert choices and set(choices) <= set(scene.ring._marks)   # the allowed bases are ringed
    target = session.world().piece(choices[0])
    x, y = scene.ring.transform.to_screen(target.x, target.y)
    scene.on_mouse_press(x, y, 1, 0)
    assert scene.mode == "confirm" and scene.confirm_move()
    settle(app_window, scene)
    boulder = [p for p in session.world().pieces if p.kind == "gus_boulder"]
    assert len(boulder) == 1 and boulder[0].base == choices[0]
    assert scene.ring.sprites[boulder[0].id].level == 1           # drawn as a stack


def test_knocking_out_the_rival_wrestler_shows_the_win_screen(app_window):
    session = _game(wrestlers=("gus", "mike"))
    wrestler_on_the_edge(session.game)
    scene = _table(app_window, session)
    scene.choice_key = "medium"
    scene.aim = scene.aim.__class__(entry_deg=90.0, heading_deg=-scene.limits.heading_deg,
                                    speed=scene.limits.max_speed)
    assert scene.push_now()
    settle(app_window, scene)
    assert scene.mode == "over" and session.winner().seats == (0,)
    assert scene.widgets.find("over:rematch") is not None
    texts = [getattr(it, "text", "") for it in scene._over_items]
    assert "Red (Goliath Gus) wins!" in texts
    # The result line names the seat by colour like the rest of the table (the rules engine
    # writes "seat 0 (Goliath Gus)"), on the win screen and in the status line.
    (reason,) = [t for t in texts if "knocked out" in t]
    assert reason.startswith("Red (Goliath Gus) knocked out") and "seat" not in reason
    assert "Red (Goliath Gus) knocked out" in scene.status_label.text


def _ends_the_game(game, entry: float, heading: float, speed: float) -> bool:
    """Whether a push of any piece the player may push, from ``entry``, would end the game."""
    from kabuto import IllegalMove

    for kind in game.legal_kinds():
        try:
            if game.preview_push(kind, entry, heading, speed).result is not None:
                return True
        except IllegalMove:
            pass
    return False


def test_a_recorded_game_replays_step_by_step_to_the_same_states(app_window, data_dir):
    from kabuto.app.replay_model import open_recording
    from kabuto.app.scene.replay_view import ReplayScene

    session = _game()
    scene = _table(app_window, session)
    hashes = [state_hash(session.world().snapshot())]
    entries = iter(range(0, 360, 7))
    top = scene.limits.max_speed      # the push previewed is the push played (faster is refused)
    while len(hashes) < 4:
        entry = float(next(entries)) - 180.0
        if _ends_the_game(session.game, entry, 5.0, top):
            continue  # a game over by the third push has nothing left to step through
        scene.aim = scene.aim.__class__(entry_deg=entry, heading_deg=5.0, speed=top)
        if not scene.push_now():
            continue  # a platform spot blocked by an overhanging piece: try the next
        settle(app_window, scene)
        if session.can_end_turn():
            scene._end_turn()
        hashes.append(state_hash(session.world().snapshot()))
    path = session.save_now()
    model = open_recording(path)
    replay = app_window.set_scene(ReplayScene(app_window, model))
    assert model.steps == 3
    for k in (1, 2, 3):
        replay.step_forward()
        assert replay.mode == "showing" and replay.ring._aim_shapes   # its aim first, as played
        app_window.pump(1.0)
        assert replay.mode == "playing"                             # then the push is animated
        settle(app_window, replay)
        assert state_hash(model.game.world.snapshot()) == hashes[k]
    replay.step_back()
    assert state_hash(model.game.world.snapshot()) == hashes[2]
    assert set(replay.ring.sprites) == {p.id for p in model.game.world.pieces}


def test_a_screenshot_is_the_drawn_window(app_window, tmp_path):
    from pyglet import image

    from kabuto.app.session import SandboxSession
    from kabuto_ui import theme

    session = SandboxSession(world=World(Materials.load()))   # an empty ring
    scene = _table(app_window, session)
    path = app_window.screenshot(tmp_path / "shot.png")
    img = image.load(str(path))
    assert (img.width, img.height) == (1280, 720)
    data = img.get_image_data().get_data("RGBA", img.width * 4)
    x, y = (int(v) for v in scene.ring.transform.to_screen(0.05, 0.05))  # on the bare ring
    i = (y * img.width + x) * 4
    assert tuple(data[i:i + 3]) == theme.RING_SURFACE[:3]


def test_a_tuning_change_in_a_game_is_recorded_in_its_replay(app_window, tmp_path):
    from kabuto.replay import format as rp

    session = _game()
    scene = _table(app_window, session, profile_dir=tmp_path)
    scene.toggle_tuning()
    scene.tuning.kind = "small"
    scene.rebuild()
    scene.widgets.find("slider:restitution.small").on_change(0.8)
    assert session.materials.kinds["small"].restitution == pytest.approx(0.8)
    scene.aim = scene.aim.__class__(entry_deg=150.0, heading_deg=-10.0, speed=0.8)
    assert scene.push_now()
    settle(app_window, scene)
    replay = rp.load(session.save_now())
    (push,) = [a for a in replay.timeline if a["type"] == "push"]
    table = replay.table(push).materials
    assert table.kinds["small"].restitution == pytest.approx(0.8)
    assert rp.verify(replay).ok                                     # and it replays exactly


def test_the_menu_starts_the_game_it_shows(app_window):
    from kabuto.app.main import App, Options
    from kabuto.app.scene.table import TableScene
    from kabuto.rules.wrestlers import render_card, wrestler

    app = App(Options(ai_delay=0.0, ai_workers=1), window=app_window)
    app.open_menu()
    menu = app_window.scene
    menu.widgets.find("players:3").on_click()
    menu.widgets.find("seat:1").on_click()                   # Blue: AI -> human
    menu.widgets.find("next:1").on_click()                   # Blue: the next free card
    menu.widgets.find("ai-level").on_click()                 # medium -> hard
    menu.widgets.find("ai-level").on_click()                 # hard -> expert
    menu.widgets.find("ai-level").on_click()                 # expert -> beginner
    menu.widgets.find("ai-level").on_click()                 # beginner -> easy
    blue = menu.config.wrestlers[1]
    shown = [it.text for it in menu.items if hasattr(it, "text")]
    assert render_card(wrestler(blue), width=52) in shown      # Blue's card text is on screen
    menu.widgets.find("start").on_click()
    table = app_window.scene
    assert isinstance(table, TableScene)
    session = table.session
    assert session.game.players == 3 and session.seat_kinds == ("human", "human", "ai")
    assert [s.wrestler.key for s in session.game.seats] == list(menu.config.wrestlers)
    assert session.ai_level == "easy"


def test_the_menu_offers_every_mode_the_app_ships_and_each_starts(app_window):
    """Kabuto Sumo, its tutorial, the card table, online play, the sandbox and replays, in that
    order; none is a placeholder."""
    from kabuto.app.main import App, Options

    app = App(Options(ai_delay=0.0, ai_workers=1, record=False), window=app_window)
    app.open_menu()
    menu = app_window.scene
    buttons = [w for w in menu.widgets.items if w.name.startswith("mode:")]
    assert [b.caption.text for b in buttons] == ["Kabuto Sumo", "Tutorial", "Card games", "Play online",
                                                 "Free push (sandbox)", "Replays"]
    for key in [b.name.removeprefix("mode:") for b in buttons]:
        app.open_menu()
        app_window.scene.widgets.find(f"mode:{key}").on_click()
        app_window.scene.widgets.find("start").on_click()
        assert not isinstance(app_window.scene, type(menu)), f"{key}: Start did not leave the menu"


def test_resizing_keeps_the_whole_ring_and_platform_in_view(app_window):
    from kabuto.app.session import SandboxSession

    scene = _table(app_window, SandboxSession())
    R = Materials.load().ring.radius
    for size in ((960, 600), (1600, 900), (1280, 720)):
        app_window.set_size(*size)
        app_window.dispatch_events()
        scene.layout(*size)                      # what on_resize does (a WM may be absent)
        t, a = scene.ring.transform, scene.ring_area
        for x, y in ((-1.4 * R, 0), (1.4 * R, 0), (0, -1.4 * R), (0, 1.4 * R)):
            sx, sy = t.to_screen(x, y)
            assert a.contains(sx, sy)
        assert t.length(2 * R) > 0.5 * min(a.w, a.h)     # and it is big


def test_the_rules_words_for_seats_and_teams_read_as_the_table_names_them():
    """The engine writes "seat 0 (Goliath Gus)" and "team 1" for the command line; at the table
    every sentence it writes names seats by colour and teams by letter - results, refusals and
    places - also in the game an undo brings back."""
    session = _game(players=4, wrestlers=("gus", "mike", "hank", "rita"), seats=("human",) * 4)
    game = session.game
    assert game.describe_place(game.seat_inventory(2)) == "team A's inventory"
    assert game.describe_place("seat:2") == "Green (Hercules Hank)'s inventory"
    (refusal,) = {m.reason for m in game.available_moves(3)}
    assert refusal.startswith("it is Red's turn")
    assert "team B" in session.seats()[1].name          # the panel calls the teams the same
    for pid in game.inventory(1):                        # team B has nothing left to push
        game.edit(pid, "supply")
    session.push(Aim(entry_deg=150.0, heading_deg=-10.0, speed=0.4), session.choices()[0])
    session.end_turn()
    win = session.winner()
    assert win is not None and win.seats == (0, 2)
    assert win.reason == "team B has no pieces left and cannot take a turn: submission"
    assert win.title == "Red & Green (team A) win!"         # short enough for the win screen
    assert session.status() == f"Game over: {win.reason}"
    assert "team 1" in game.result.text                  # the engine's own words are kept
    session.undo()
    assert session.winner() is None
    assert session.game.describe_place("seat:3") == "Purple (Rhino Rita)'s inventory"
