"""The coach: the hint finds the push that knocks the rival's wrestler off the edge, the danger
finds the rival's reply that knocks the player's off; both from the AI's own search, within a
fixed budget of previews. The table shows them on H and D (real keys under Xvfb)."""
from __future__ import annotations

import math

import pytest

from kabuto.ai.plan import PushChoice
from kabuto.app.coach import COACH_LEVEL, danger, hint
from kabuto.rules.actions import Move
from kabuto.rules.game import Game
from kabuto.rules.naming import SeatNames
from tests.app.helpers import wrestler_on_the_edge


def _game(first: int) -> Game:
    g = Game.new(players=2, wrestlers=["mike", "gus"], seed=5, first_player=first)
    g.names = SeatNames(("Red", "Blue"), ("team A", "team B"))
    wrestler_on_the_edge(g)     # Blue's wrestler 4 mm inside the edge, a knock-out away
    return g


def test_the_hint_knocks_out_the_rivals_wrestler_on_the_edge():
    g = _game(first=0)
    before = g.to_json()
    h = hint(g, seed=1)
    assert g.to_json() == before                      # the game is not changed
    assert h is not None and h.seat == 0 and g.seats[1].piece_id in h.falls
    assert "Blue's wrestler" in h.text and h.text.startswith("Hint:")
    # Played as shown, the push does knock it out (the search's preview is the rules' physics).
    out = g.push(h.kind, h.aim.entry_deg, h.aim.heading_deg, h.aim.speed, h.aim.spin_deg)
    assert g.seats[1].piece_id in {k.piece for k in out.knocked_out}


def test_the_danger_is_the_rivals_reply_against_the_players_wrestler():
    g = Game.new(players=2, wrestlers=["gus", "mike"], seed=5, first_player=0)
    g.names = SeatNames(("Red", "Blue"), ("team A", "team B"))
    mine = g.seats[0].piece_id
    wrestler_on_the_edge(g, seat=0)     # Red's wrestler alone at the top, 4 mm inside the edge
    # Red's aim: a small disc, gently, from the far side of the ring (it leaves the wrestler there).
    d = danger(g, PushChoice("small", -90.0, 0.0, 0.15), seed=1)
    assert d is not None and d.seat == 1 and d.text.startswith("Danger: Blue could push")
    assert mine in d.falls and "Red's wrestler" in d.text


def test_the_coach_searches_at_a_fixed_budget():
    from kabuto.ai.levels import level

    assert level(COACH_LEVEL).budget <= 120        # about 0.5 s of previews on one core
    assert not math.isnan(level(COACH_LEVEL).budget)


def test_h_shows_a_hint_and_d_the_danger_at_the_table(app):
    """Real key presses under Xvfb: against the beginner level the coach is on; G draws the hint's
    line and says it (G), D the danger's; C switches the coach off."""
    from kabuto.app.game_config import GameConfig
    from tests.app import xinput

    if xinput.XDOTOOL is None:
        pytest.skip("xdotool is not installed")
    app.start(app.modes["kabuto"], GameConfig(2, ("human", "ai"), ("mike", "gus"), seed=5,
                                              ai_level="beginner", first_player=0))
    scene = app.window.scene
    assert scene.coach.on
    wrestler_on_the_edge(scene.session.game)
    scene._landed()
    xinput.key(app.window, "g")
    assert xinput.pump_until(app.window, lambda: scene.coach.advice is not None, limit_s=60)
    assert scene.coach.advice.what == "hint" and scene.event_label.text.startswith("Hint:")
    assert "Blue's wrestler" in scene.event_label.text and len(scene.coach._shapes) == 2
    xinput.key(app.window, "d")
    assert xinput.pump_until(app.window, lambda: scene.coach.advice is not None
                             and scene.coach.advice.what == "danger", limit_s=60)
    assert scene.event_label.text.startswith("Danger: Blue")
    xinput.key(app.window, "c")
    assert xinput.pump_until(app.window, lambda: not scene.coach.on)
    assert scene.coach._shapes == []


def test_the_coach_is_off_by_default_above_beginner(app):
    from kabuto.app.game_config import GameConfig

    app.start(app.modes["kabuto"], GameConfig(2, ("human", "ai"), ("mike", "gus"), seed=5,
                                              ai_level="medium", first_player=0))
    assert not app.window.scene.coach.on


def test_the_replay_viewer_shows_the_hint_for_a_past_turn(app, tmp_path):
    from kabuto.app.game_config import GameConfig
    from kabuto.app.scene.replay_view import ReplayScene
    from tests.app import xinput
    from tests.app.helpers import settle

    if xinput.XDOTOOL is None:
        pytest.skip("xdotool is not installed")
    app.start(app.modes["kabuto"], GameConfig(2, ("human", "human"), ("mike", "gus"), seed=5,
                                              first_player=0))
    table = app.window.scene
    table.choice_key = "small"
    assert table.push_now()
    settle(app.window, table)
    table._save_and_leave()
    (path,) = sorted((tmp_path / "data" / "replays").glob("*.json*"))
    view = app.window.set_scene(ReplayScene.open(app, path))
    assert view.coach.on
    xinput.key(app.window, "g")     # at the start: what was the best push here?
    assert xinput.pump_until(app.window, lambda: view.coach.advice is not None, limit_s=60)
    hint = view.event_label.text            # a push, perhaps after a move ("use Vice Grip ..., then push a")
    assert hint.startswith("Hint: ") and "push a" in hint


def test_the_coach_switch_is_kept_for_the_next_games(app, tmp_path):
    """C (a real key) switches the coach on in a medium game; the app saves the choice, so a new
    game, and the app started again on the same data folder, start with the coach on - and off
    again once switched off, even against the beginner level."""
    from kabuto.app import settings as app_settings
    from kabuto.app.game_config import GameConfig
    from kabuto.app.main import App, Options
    from tests.app import xinput

    if xinput.XDOTOOL is None:
        pytest.skip("xdotool is not installed")
    medium = GameConfig(2, ("human", "ai"), ("mike", "gus"), seed=5, ai_level="medium", first_player=0)
    app.start(app.modes["kabuto"], medium)
    scene = app.window.scene
    assert not scene.coach.on
    xinput.key(app.window, "c")
    assert xinput.pump_until(app.window, lambda: scene.coach.on)
    assert app_settings.load(app.data_dir).coach is True
    app.start(app.modes["kabuto"], medium)
    assert app.window.scene.coach.on
    app.window.close()

    again = App(Options(size=(960, 600), ai_delay=0.0, data_dir=tmp_path / "data", ai_workers=1,
                        profiles=tmp_path / "profiles"))
    try:
        xinput.map_window(again.window)
        again.start(again.modes["kabuto"], medium)
        scene = again.window.scene
        assert scene.coach.on
        xinput.key(again.window, "c")
        assert xinput.pump_until(again.window, lambda: not scene.coach.on)
        again.start(again.modes["kabuto"], GameConfig(2, ("human", "ai"), ("mike", "gus"), seed=5,
                                                      ai_level="beginner", first_player=0))
        assert not again.window.scene.coach.on
    finally:
        again.window.close()


def test_the_coach_counts_the_discs_it_expects_to_fall():
    """"Blue's wrestler and 2 small discs", not the same disc named once per piece."""
    from kabuto.app.coach import _names

    g = _game(first=0)
    small = [p.id for p in g.world.pieces if p.kind == "small"][:2]
    medium = next(p.id for p in g.world.pieces if p.kind == "medium")
    said = _names(g, (small[0], g.seats[1].piece_id, small[1], medium))
    assert said == "Blue's wrestler, 2 small discs and a medium disc"
    assert _names(g, (medium,)) == "a medium disc"


@pytest.mark.usefixtures("grip_takes_wrestlers")
def test_when_a_signature_move_wins_the_hint_says_the_move_and_draws_no_line():
    """Blue's wrestler stands in the centre circle: Mike's Vice Grip knocks it out, a win no push
    beats. The hint names the move and its target in words, and has no push line to draw."""
    g = Game.new(players=2, wrestlers=["mike", "gus"], seed=5, first_player=0)
    g.names = SeatNames(("Red", "Blue"), ("team A", "team B"))
    rival = g.seats[1].piece_id
    for p in list(g.world.pieces):      # the middle cleared for Blue's wrestler alone
        if math.hypot(p.x, p.y) < 0.07 and p.id not in (rival, g.seats[0].piece_id):
            g.edit(p.id, "supply")
    g.edit(g.seats[0].piece_id, "board", 0.035, 0.0)
    g.edit(rival, "board", 0.0, 0.0)
    h = hint(g, seed=1)
    assert h is not None and "Vice Grip on Blue's wrestler" in h.text and h.text.endswith("wins the game")
    assert h.aim is None and h.kind is None and h.falls == (rival,)    # ringed on the table
    g.apply(Move("Vice Grip", {"piece": rival}))        # and it does win
    assert g.is_over and g.winner == 0
