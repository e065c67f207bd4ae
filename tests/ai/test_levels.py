"""The levels and scoring weights in assets/ai.toml: read, validated, and ordered as a player expects."""
from __future__ import annotations

import random
import tomllib

import pytest

import kabuto_assets
from kabuto import Game
from kabuto.ai.candidates import broad
from kabuto.ai.levels import LEVEL_NAMES, config, level, parse_config
from physics import Materials


def raw():
    with (kabuto_assets.path("ai.toml")).open("rb") as fh:
        return tomllib.load(fh)


def test_harder_levels_search_more_and_shake_less():
    easy, medium, hard = (level(n) for n in LEVEL_NAMES)
    assert easy.budget < medium.budget < hard.budget
    for field in ("wobble_entry_deg", "wobble_heading_deg", "wobble_speed_frac"):
        assert getattr(easy, field) > getattr(medium, field) > getattr(hard, field)


def test_hard_fits_the_two_second_budget_on_two_cores():
    # About 5-15 ms per preview here; 2 s over 2 cores leaves room for at most ~300 previews.
    assert 150 <= level("hard").budget <= 300


@pytest.mark.parametrize("path, value, message", [
    (("levels", "hard", "broad"), -3, "levels.hard.broad"),
    (("levels", "easy", "wobble_heading_deg"), "a lot", "levels.easy.wobble_heading_deg"),
    (("levels", "medium", "after_moves"), 1, "levels.medium.after_moves"),
    (("search", "speed_fractions"), [], "search.speed_fractions"),
    (("search", "speed_fractions"), [0.5, 1.5], r"search.speed_fractions\[1\]"),
    (("search", "speeds"), [0.3, 0.5], "search.speeds: unknown"),
    (("search", "aimed_share"), 1.5, "search.aimed_share"),
    (("scoring", "win"), -5000.0, "scoring"),
    (("scoring", "piece_enough"), -1.0, "scoring.piece_enough"),
    (("scoring", "move_piece_cost"), -8.0, "scoring.move_piece_cost"),
    (("scoring", "move_gain_piece"), -8.0, "scoring.move_gain_piece"),
])
def test_a_bad_value_is_named(path, value, message):
    data = raw()
    d = data
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        parse_config(data)


def test_a_missing_level_is_named():
    data = raw()
    del data["levels"]["medium"]
    with pytest.raises(ValueError, match="levels.medium"):
        parse_config(data)


def test_the_shipped_file_loads():
    cfg = config()
    assert set(LEVEL_NAMES) <= set(cfg.levels)
    assert cfg.weights.loss < cfg.weights.draw < cfg.weights.win


def test_with_changes_validates():
    with pytest.raises(ValueError, match="refine_per"):
        level("easy").with_changes(refine_per=-1)
    assert level("easy").with_changes(broad=5).broad == 5


@pytest.mark.parametrize("limit", [None, 2.0])
def test_candidate_speeds_are_fractions_of_the_hands_limit(limit):
    """The broad search never proposes a push faster than the game's materials allow, spends no
    preview on two copies of one speed, and a game with a faster hand gets faster candidates."""
    mats = Materials.load()
    if limit is not None:
        mats = mats.with_overrides({"simulation.max_speed": limit})
    g = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0, materials=mats)
    fractions = config().search.speed_fractions
    speeds = {c[4] for c in broad(g, 0, 80, random.Random(1), config().search)}
    assert max(speeds) == mats.sim.max_speed and min(speeds) >= mats.sim.min_speed
    assert len(speeds) == len(set(fractions))
    assert min(speeds) == pytest.approx(min(fractions) * mats.sim.max_speed, abs=1e-3)
