"""The tutorial's steps on the real rules and physics, without a window: each step sets its lesson
up so that what the card tells the player to do does it, and each check reads the outcome from the
game (what was pushed, what fell and where it went, who won and how). A step done wrong says so."""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kabuto.app.tutorial import RIVAL, YOU, Tutorial, TutorialError
from kabuto.rules.outcomes import KNOCKOUT, SUBMISSION
from physics import Materials

#: The hand's top speed (``simulation.max_speed``): faster is a flick, which the rules refuse.
TOP_SPEED = Materials.load().sim.max_speed


def _at(key: str) -> tuple[Tutorial, object]:
    """The tutorial's game with step ``key`` set up (the steps before it skipped)."""
    tut = Tutorial.load()
    tut.index = [s.key for s in tut.steps].index(key)
    game = tut.new_game()
    tut.begin(game)
    return tut, game


def _along_the_edge(game, angle: float, side: int = 1) -> tuple[float, float]:
    """A small disc's push from 20 degrees to one side of ``angle``, turned as steeply as the
    platform allows it (on a smaller ring a small cannot turn as far)."""
    return angle - side * 20.0, side * -game.world.steepest_heading("small")


def _over_the_edge(game, pid: str) -> float:
    """How far (metres) the piece sticks out over the ring's edge."""
    p = game.world.piece(pid)
    return math.hypot(p.x, p.y) + game.materials.kinds[p.kind].size - game.materials.ring.radius


def test_the_steps_teach_the_six_lessons_in_order():
    tut = Tutorial.load()
    assert [s.check for s in tut.steps] == ["pushed", "crowd", "gained", "guarded", "move",
                                           "submission", "knockout"]
    for s in tut.steps:
        assert s.title and s.text and s.done
        assert len(s.text) < 330, f"{s.key}: a card's text must fit the card at 960x600"
        assert "_" not in s.text and not any(c.isdigit() for c in s.text)   # player words


def test_the_first_step_is_done_by_any_push():
    tut = Tutorial.load()
    game = tut.new_game()
    tut.begin(game)
    assert tut.observe(game) is None
    game.push("small", 30.0, 0.0, 0.3)
    assert tut.observe(game).passed


def test_a_push_into_the_crowd_moves_others_and_one_into_nothing_fails():
    tut, game = _at("crowd")
    game.push("medium", 270.0, 0.0, 0.3)
    assert tut.observe(game).passed
    tut, game = _at("crowd")
    # A disc pushed where nothing stands near the edge moves nothing else.
    R = game.materials.ring.radius
    for p in list(game.world.pieces):
        if p.y > 0.2 * R and not game.is_wrestler_piece(p.id):
            game.edit(p.id, "supply")
    tut.begin(game)
    game.push("small", 90.0, 0.0, 0.1)
    v = tut.observe(game)
    assert not v.passed and v.why == tut.step.fail


def test_the_hanging_disc_falls_to_a_push_along_the_edge_and_joins_the_inventory():
    tut, game = _at("gain")
    hanging = [p.id for p in game.world.pieces if _over_the_edge(game, p.id) > 0]
    assert len(hanging) == 1 and game.kind_of(hanging[0]) == "medium"
    for side in (1, -1):
        tut, game = _at("gain")
        game.push("small", *_along_the_edge(game, 90.0, side), 0.3)
        assert tut.observe(game).passed
        assert game.locations()[hanging[0]] == game.seat_inventory(YOU)


def test_a_push_that_misses_the_hanging_disc_fails_and_says_how_to_do_it():
    tut, game = _at("gain")
    game.push("small", 0.0, 0.0, 0.3)                    # from the side, straight in: it misses
    v = tut.observe(game)
    assert not v.passed and "along the edge" in v.why


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.floats(0.0, 360.0), st.sampled_from([1, -1]), st.sampled_from([0.1, 0.3, TOP_SPEED]))
def test_wherever_the_disc_hangs_a_push_along_the_edge_knocks_it_out(angle, side, speed):
    """The lesson does not depend on where the board's pieces stand: the step's disc is put at
    any angle round the ring (turned aside only from a wrestler), and the advised push still
    knocks it out, whatever the hand's speed."""
    from dataclasses import replace

    tut = Tutorial.load()
    tut.index = [s.key for s in tut.steps].index("gain")
    tut.steps[tut.index] = replace(tut.step, place=(replace(tut.step.place[0], angle=angle),))
    game = tut.new_game()
    tut.begin(game)
    (pid,) = [p.id for p in game.world.pieces if _over_the_edge(game, p.id) > 0]
    p = game.world.piece(pid)
    game.push("small", *_along_the_edge(game, math.degrees(math.atan2(p.y, p.x)), side), speed)
    assert pid not in game.world


def test_the_wrestler_by_the_edge_is_guarded_by_a_push_behind_it():
    tut, game = _at("guard")
    me = game.seats[YOU].piece_id
    assert 0 > _over_the_edge(game, me) > -0.01          # inside, but within a centimetre
    p = game.world.piece(me)
    game.push("medium", math.degrees(math.atan2(p.y, p.x)), 0.0, 0.3)
    assert tut.observe(game).passed
    q = game.world.piece(me)
    assert math.hypot(q.x, q.y) <= math.hypot(p.x, p.y) - tut.guard

    tut, game = _at("guard")
    game.push("medium", 90.0, 0.0, 0.3)                   # the far side: it stays on the edge
    assert not tut.observe(game).passed


def test_the_signature_move_step_is_done_when_the_turn_ends_after_the_move():
    tut, game = _at("move")
    grip = next(m for m in game.available_moves(YOU) if m.name == "Vice Grip")
    assert grip.usable
    (target,) = grip.targets[0].choices                   # the one piece in the circle
    game.use_move(YOU, "Vice Grip", piece=target)
    assert tut.observe(game) is None                      # the turn goes on: a push is due
    game.push("medium", 180.0, 0.0, 0.3)
    assert tut.observe(game).passed

    tut, game = _at("move")
    game.push("medium", 180.0, 0.0, 0.3, end_turn=False)
    assert tut.observe(game) is None                      # the move may still come
    game.end_turn()
    assert not tut.observe(game).passed


@pytest.mark.parametrize("key", ["push", "crowd", "gain", "guard", "submission", "knockout"])
def test_no_other_step_leaves_a_signature_move_waiting(key):
    """Only the move's lesson has a piece by the centre circle, so elsewhere a push ends the turn
    (and Vice Grip cannot knock out a wrestler piece standing there)."""
    _tut, game = _at(key)
    assert not next(m for m in game.available_moves(YOU) if m.name == "Vice Grip").usable


def test_an_empty_inventory_at_the_rivals_turn_is_a_win_by_submission():
    tut, game = _at("submission")
    assert game.inventory(game.side_of(RIVAL)) == []
    game.push("medium", 180.0, 0.0, 0.3)
    assert game.result.reason is SUBMISSION and game.result.seats == (YOU,)
    assert tut.observe(game).passed


def test_the_hanging_wrestler_is_knocked_out_for_the_win():
    tut, game = _at("knockout")
    rival = game.seats[RIVAL].piece_id
    assert _over_the_edge(game, rival) > 0
    game.push("small", *_along_the_edge(game, 90.0), 0.3)
    assert game.result.reason is KNOCKOUT and game.result.seats == (YOU,)
    assert tut.observe(game).passed
    assert tut.finished


def test_knocking_out_your_own_wrestler_fails_the_step():
    from kabuto.app.tutorial import Spot, _put

    tut, game = _at("crowd")
    _put(game, Spot("you", 90.0, edge=0.45))
    tut.begin(game)
    game.push("small", *_along_the_edge(game, 90.0), 0.3)
    v = tut.observe(game)
    assert not v.passed and "loses the game" in v.why


def test_a_step_set_up_again_after_try_again_is_judged_afresh():
    tut, game = _at("gain")
    before = game.to_json()
    game.push("small", 0.0, 0.0, 0.3)
    assert not tut.observe(game).passed
    from kabuto.rules.game import Game

    game = Game.from_json(before)       # what the table's undo gives back
    tut.rewound(game)
    assert tut.verdict is None and tut.observe(game) is None
    game.push("small", *_along_the_edge(game, 90.0), 0.3)
    assert tut.observe(game).passed


def test_an_undo_to_before_the_step_sets_it_up_again_when_the_turn_comes():
    from kabuto.rules.game import Game

    tut = Tutorial.load()
    game = tut.new_game()
    game.push("medium", 180.0, 0.0, 0.3)
    game.push("medium", 0.0, 0.0, 0.3)
    before = game.to_json()              # the player's turn, before the step's set-up
    tut.index = [s.key for s in tut.steps].index("gain")
    tut.begin(game)
    game = Game.from_json(before)
    tut.rewound(game)
    assert tut.mark is None and tut.ready(game)
    tut.begin(game)
    assert any(_over_the_edge(game, p.id) > 0 for p in game.world.pieces)


@pytest.mark.parametrize("text, problem", [
    ("[game]\nwrestlers = ['mike']\n", "game.wrestlers"),
    ("[game]\nwrestlers = ['mike', 'gus']\n[[step]]\nkey = 'a'\ntitle = 'A'\ntext = 'x'\n"
     "done = 'y'\ncheck = 'jump'\n", "step 1.check"),
    ("[game]\nwrestlers = ['mike', 'gus']\n[[step]]\nkey = 'a'\ntitle = 'A'\ntext = 'x'\n"
     "done = 'y'\ncheck = 'pushed'\nplace = [{ piece = 'small', angle = 0, edge = 0.8 }]\n",
     "step 1.place[0].edge"),
    ("[game]\nwrestlers = ['mike', 'gus']\n[[step]]\nkey = 'a'\ntext = 'x'\ndone = 'y'\n"
     "check = 'pushed'\n", "step 1.title"),
    ("[game\n", "tutorial.toml"),
])
def test_a_wrong_tutorial_file_is_refused_in_one_line(tmp_path, text, problem):
    path = tmp_path / "tutorial.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TutorialError) as err:
        Tutorial.load(path)
    assert str(err.value).startswith(problem) and "\n" not in str(err.value)


def test_the_offer_is_remembered_in_the_settings(tmp_path):
    from dataclasses import replace

    from kabuto.app import settings

    assert not settings.load(tmp_path).tutorial_offered
    settings.save(tmp_path, replace(settings.load(tmp_path), tutorial_offered=True))
    assert settings.load(tmp_path).tutorial_offered
