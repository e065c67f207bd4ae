"""The card-table data file and set-ups: entries for every game, bad data named."""
from __future__ import annotations

import pytest

from cards import GAMES
from cards.table.config import SeatSpec, TableConfig, parse_table_data, table_data
from cards.table.faces import parse_faces
from cards.table.setup_model import SetupModel


def test_every_start_menu_game_has_an_engine_and_its_seat_count():
    data = table_data()
    for m in data.modes:
        cls = GAMES[m.game]
        assert m.players in cls.player_counts
        cls.new(m.players, seed=0, **m.options)  # the options are ones the engine takes
    assert {(m.game, m.players, bool(m.options.get("jokers"))) for m in data.modes} == {
        ("sumo-card-game", 2, False), ("sumo-card-game", 2, True), ("sumo", 2, False),
        ("sumida-river", 3, False), ("sumida-river", 4, False)}


def test_every_bot_strength_builds_a_bot():
    from cards.bots import make_bot

    for s in table_data().strengths:
        assert hasattr(make_bot(s.spec, 0), "act")


def test_the_eight_sumida_spaces_match_the_engines_meld_types():
    from cards.sumida_river import MELD_TYPES

    assert sorted(s.type for s in table_data().sumida_spaces) == sorted(MELD_TYPES)


def test_bad_data_is_refused_by_name():
    with pytest.raises(ValueError, match="no \\[\\[modes\\]\\]"):
        parse_table_data({})
    good = {"modes": [{"key": "a", "title": "A", "game": "sumo", "players": 2}],
            "strengths": [{"key": "r", "label": "R", "spec": "random"}]}
    with pytest.raises(ValueError, match="eight Sumida River meld spaces"):
        parse_table_data(good)
    with pytest.raises(ValueError, match="'players' must be a int"):
        parse_table_data({"modes": [{"key": "a", "title": "A", "game": "sumo", "players": "two"}]})
    with pytest.raises(ValueError, match="suits"):
        parse_faces({"style": {"face": [1, 2, 3], "edge": [0, 0, 0]}, "suits": {}})


def test_a_set_up_is_checked_before_any_deal():
    with pytest.raises(ValueError, match="seats\\[1\\]"):
        TableConfig("sumo", (SeatSpec("human"), SeatSpec("robot"))).validate()
    assert TableConfig.default("sumida-river-4").humans == [0]


def test_the_set_up_screen_keeps_seats_in_step_with_the_game():
    s = SetupModel("sumo", seed=1)
    assert [x.kind for x in s.seats] == ["human", "bot"]
    s.handle("mode:sumida-river-4")
    assert len(s.seats) == 4 and s.seats[0].kind == "human"
    s.handle("seat:3:human")
    s.handle("strength:1:random")
    cfg = s.config()
    assert cfg.humans == [0, 3] and cfg.seats[1] == SeatSpec("bot", "random")
    s.handle("mode:sumo")
    assert len(s.seats) == 2
    assert s.handle("ui:start")[0] == "start"


def test_the_engines_and_the_tables_pure_parts_never_load_pyglet():
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys; import cards, cards.bots, cards.table, cards.table.table_model, "
            "cards.table.setup_model, cards.table.app_mode, cards.table.card_art; "
            "sys.exit(1 if 'pyglet' in sys.modules else 0)")
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root).returncode == 0


def test_every_strength_blurb_stays_on_the_set_up_screen_clear_of_the_buttons():
    """A bot seat shows its strength's blurb beside it. With four bot seats and every strength,
    each blurb line must lie inside the screen and overlap no button (the small font's glyphs are
    about 0.67 of its size wide: 59 characters measured 396 px at size 10)."""
    from cards.table.display import DESIGN_W, ButtonItem, TextItem

    for strength in table_data().strengths:
        s = SetupModel("sumida-river-4", seed=1)
        for i in range(4):
            s.handle(f"strength:{i}:{strength.key}")
        d = s.display()
        buttons = [it.rect for it in d if isinstance(it, ButtonItem)]
        lines = [it for it in d if isinstance(it, TextItem) and it.key.startswith("sblurb:")]
        assert len(lines) >= 4, strength.key
        assert " ".join(it.text for it in lines if it.key.startswith("sblurb:0:")) == strength.blurb
        for it in lines:
            left, right = it.x, it.x + 0.67 * it.size * len(it.text)
            bottom, top = it.y - 0.3 * it.size, it.y + it.size
            assert right <= DESIGN_W, f"{strength.key}: {it.text!r} runs off the screen"
            for r in buttons:
                apart = right <= r.x or left >= r.x + r.w or top <= r.y or bottom >= r.y + r.h
                assert apart, f"{strength.key}: {it.text!r} overlaps a button"
