"""Game.preview_move: what a signature move would do, without doing it - the same outcome and the
same ring as making it, the same refusal, and the game untouched either way."""
from __future__ import annotations

import pytest

from kabuto.rules.errors import IllegalMove
from kabuto.rules.game import Game
from physics import state_hash


def test_a_preview_is_the_move_made_on_a_copy_and_the_game_is_untouched():
    game = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    before = game.to_json()
    (piece,) = game.world.in_circle()             # the centre medium
    pv = game.preview_move(0, "Vice Grip", piece=piece)
    assert game.to_json() == before and pv.outcome.knocked_out
    twin = Game.from_json(before)
    made = twin.use_move(0, "Vice Grip", piece=piece)
    assert pv.outcome == made
    assert state_hash(pv.world.snapshot()) == state_hash(twin.world.snapshot())
    # And the game can still make the move it previewed, with the same result.
    assert game.use_move(0, "Vice Grip", piece=piece) == made


def test_a_refused_preview_says_what_the_move_would_say_and_changes_nothing():
    game = Game.new(players=2, wrestlers=["gus", "mike"], seed=1, first_player=0)
    before = game.to_json()
    wrong = next(p.id for p in game.world.pieces if p.kind == "small")
    with pytest.raises(IllegalMove) as previewed:
        game.preview_move(0, "Boulder Drop", base=wrong)
    assert game.to_json() == before
    with pytest.raises(IllegalMove) as made:
        game.use_move(0, "Boulder Drop", base=wrong)
    assert str(previewed.value) == str(made.value) and game.to_json() == before
