"""The move log in words, from the events a seat may see."""
from __future__ import annotations

from cards.sumo import Sumo
from cards.sumo_card_game import SumoCardGame
from cards.table.describe import log_lines, summaries

NAMES = ["Red", "Blue"]


def test_sumo_a_sumo_move_is_named_in_the_log_and_the_summary():
    g = Sumo.new(seed=1, hands=[["1C", "1D", "1H", "2C", "2S", "3H", "4C", "5D"],
                                ["1S", "2D", "2H", "3C", "3S", "4D", "4H", "5H"]])
    for a in ("reveal 4C", "reveal 3S", "play 1H", "play 4H"):
        g.apply(a)
    lines = log_lines("sumo", g.visible_events(0), 0, NAMES)
    assert "Red leads 1♥." in lines
    assert "Blue follows with 4♥." in lines
    assert any(line.startswith("Blue makes a sumo move! Abise-taoshi") for line in lines)
    (s,) = summaries("sumo", g.events, NAMES)
    assert s.final and s.title == "Blue wins!"
    assert "Abise-taoshi" in s.lines[0]


def test_sumo_card_game_a_face_card_pushes_a_number_two_columns():
    g = SumoCardGame.arranged(
        ring=[["2C", "3C", "4C", "5C", "6C", "7C", "8C"], ["2D", "3D", "4D", "5D", "6D", "7D", "8D"]],
        sumo=["9C", "9D"], hands=[["KS", "2H", "3H"], ["9S", "4H", "5H"]], seed=0)
    g.apply("play KS")
    g.apply("play 9S")
    g.apply("accept")
    red = log_lines("sumo-card-game", g.visible_events(0), 0, NAMES)
    assert "Reveal: Red K♠ · Blue 9♠." in red
    assert "Red (13) beats Blue (9): Face over Number, a push of 2 columns." in red
    assert "Red pushes: the sumo cards move 2 columns to column 2." in red
    # Each seat reads only its own draws.
    assert any(line.startswith("You (Red) draw") for line in red)
    assert not any(line.startswith("You (Blue)") for line in red)
    assert "Blue draws 1 card." in red
