"""A replay recorded where pushes end a rounding error away (another CPython, processor or build),
in the app on a real window: the viewer plays it to the end from the recorded states and its bar
says so in one line; resumed at the table, the game opens with that line."""
from __future__ import annotations

from kabuto.replay import format as rp
from physics import state_hash
from tests.replay.games import record_elsewhere


def test_the_viewer_plays_on_from_recorded_states_and_says_so(app, monkeypatch, tmp_path):
    from kabuto.app.scene.replay_view import ReplayScene

    path = record_elsewhere(monkeypatch, tmp_path / "elsewhere", None)
    scene = app.window.set_scene(ReplayScene.open(app, path))
    app.window.pump()
    assert scene.bar.reason is not None and scene.bar.reason.text == path.name
    scene.seek(scene.model.steps)
    app.window.pump()
    assert not scene.message.startswith("the replay stops here"), scene.message
    assert scene.model.pos == scene.model.steps
    notice = scene.model.notice
    assert notice is not None and notice.startswith("going on from the recorded positions")
    assert scene.bar.reason.text.startswith("going on from the recorded positions")
    last = [a for a in rp.load(path).timeline if "hash" in a][-1]
    assert state_hash(scene.session.game.world.snapshot()) == last["hash"]
    assert app.window.screenshot(tmp_path / "viewer.png").stat().st_size > 0


def test_a_resumed_game_opens_with_the_line(app, monkeypatch, tmp_path):
    from kabuto.app.game_session import GameSession
    from kabuto.app.scene.table import TableScene

    path = record_elsewhere(monkeypatch, tmp_path / "elsewhere", None)
    session = GameSession.resume(path, data_dir=tmp_path / "data")
    assert session.notice is not None
    scene = app.window.set_scene(TableScene(app.window, session))
    assert scene.message == session.notice
