"""Player words on the screens a newcomer meets first: the replay browser names seats by their
colours and teams by their letters (a result recorded in the engine's words included), the
sandbox says what fell by kind (never "M07, M04"), and the tuning panel shows no piece id, kind key
or long number. Real windows under Xvfb; the texts checked are the ones drawn."""
from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.app.helpers import leaks

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _drawn(items) -> list[str]:
    return [t for t in (getattr(it, "text", "") for it in items) if t]


def test_the_replay_browser_says_red_and_team_b_not_seat_0_and_team_1(app):
    from kabuto.app.scene.replay_view import ReplayBrowser
    from kabuto.replay.recorder import record
    from kabuto.rules.game import Game

    game = Game.new(players=4, wrestlers=["dora", "gus", "mike", "bea"], seed=1, first_player=0)
    path = record(game, app.data_dir).save(game)
    assert path is not None
    # A result written in the engine's words (by `kabuto sim`, a server, an older version).
    data = json.loads(path.read_text())
    data["meta"]["result"] = "team 1 wins: seat 0 (Dung Dora) knocked out seat 3 (Bombardier Bea)"
    path.write_text(json.dumps(data))
    browser = app.window.set_scene(ReplayBrowser(app))
    app.window.pump()
    [entry] = browser.entries
    assert entry.result == "team B wins: Red (Dung Dora) knocked out Purple (Bombardier Bea)"
    shown = " ".join(_drawn(browser.items))
    assert "team B wins" in shown and "seat 0" not in shown and "team 1" not in shown


def test_the_sandbox_says_what_fell_by_kind(app):
    from kabuto.app.aim import Aim
    from kabuto.app.game_config import GameConfig
    from tests.app.helpers import settle

    app.start(app.modes["sandbox"], GameConfig(2, ("human", "human"), ("mike", "gus")))
    table = app.window.scene
    table.choice_key = "large"
    table.aim = Aim(entry_deg=180.0, heading_deg=0.0, speed=0.5)  # straight through the crowd
    assert table.push_now()
    settle(app.window, table)
    said = table.message
    assert said.startswith(("knocked out", "nothing fell")), said
    assert leaks(said) == [] and leaks(table.event_label.text) == []
    # Counted by kind ("knocked out 3 medium discs and a small disc"), not a list of pieces.
    assert said == "nothing fell" or re.fullmatch(r"knocked out (?:a|\d+) [a-z ]+disc.*", said), said


def test_the_tuning_panel_has_no_ids_keys_or_long_numbers(app):
    from kabuto.app.game_config import GameConfig

    app.start(app.modes["kabuto"], GameConfig(2, ("human", "human"), ("gus", "dora")))
    table = app.window.scene
    table.toggle_tuning()
    for kind in list(table.session.materials.kinds):
        table.tuning._pick(kind)
        texts = _drawn(table.tuning.items) + [w.caption.text for w in table.widgets.items
                                               if getattr(w, "caption", None) is not None]
        for t in texts:
            assert leaks(t) == [], (kind, t)
