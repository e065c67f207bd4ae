"""The levels and scoring weights in assets/ai.toml: read, validated, and ordered as a player expects."""
from __future__ import annotations

import tomllib

import pytest

from physics import assets_dir

from kabuto.ai.levels import LEVEL_NAMES, config, level, parse_config


def raw():
    with (assets_dir() / "ai.toml").open("rb") as fh:
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
    (("search", "speeds"), [], "search.speeds"),
    (("search", "aimed_share"), 1.5, "search.aimed_share"),
    (("scoring", "win"), -5000.0, "scoring"),
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
