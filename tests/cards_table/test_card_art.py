"""Card faces drawn from data (no window): red suits print red, black suits black, every card of
every game draws at the table's sizes, and bad requests are refused by name."""
from __future__ import annotations

import pytest

from cards.sumida_river import CARD_NAMES as SUMIDA_CARDS
from cards.sumo import DECK as SUMO_DECK
from cards.sumo_card_game import NAMES as SCG_CARDS
from cards.table import sizes
from cards.table.card_art import card_image
from cards.table.faces import faces, pretty


def ink(img, red: bool) -> int:
    """Pixels of strong red ink (or of near-black ink) on a card, inside its outline."""
    import numpy as np

    w, h = img.size
    px = np.asarray(img.crop((3, 3, w - 3, h - 3)).convert("RGBA")).astype(int)
    r, g, b, a = px[..., 0], px[..., 1], px[..., 2], px[..., 3]
    opaque = a >= 200
    if red:
        return int((opaque & (r > 150) & (g < 80) & (b < 80)).sum())
    return int((opaque & (r < 60) & (g < 60) & (b < 60)).sum())


def test_hearts_and_diamonds_print_red_clubs_and_spades_black():
    for card in ("9H", "9D"):
        img = card_image("sumo-card-game", card, *sizes.CARD_L)
        assert ink(img, red=True) > 300 and ink(img, red=False) < 50
    for card in ("9C", "9S"):
        img = card_image("sumo-card-game", card, *sizes.CARD_L)
        assert ink(img, red=False) > 300 and ink(img, red=True) < 50


def test_the_four_suits_draw_four_different_symbols():
    centres = []
    for suit in "CDHS":
        img = card_image("sumo", "3" + suit, *sizes.CARD_L)
        w, h = img.size
        centres.append(img.crop((w // 4, h // 3, 3 * w // 4, 3 * h // 4)).convert("L").tobytes())
    assert len(set(centres)) == 4


def test_the_wild_a_cards_of_sumida_river_are_black_and_red():
    black = card_image("sumida-river", "WB", *sizes.CARD_M)
    red = card_image("sumida-river", "WR", *sizes.CARD_M)
    assert ink(black, red=False) > 200 and ink(black, red=True) < 30
    assert ink(red, red=True) > 200


@pytest.mark.parametrize("game,cards", [
    ("sumo-card-game", list(SCG_CARDS)),
    ("sumo", list(SUMO_DECK)),
    ("sumida-river", list(SUMIDA_CARDS) + ["WB", "WR"]),
])
def test_every_card_of_every_game_draws_and_differs_from_the_back(game, cards):
    back = card_image(game, None, *sizes.CARD_S).tobytes()
    seen = set()
    for c in cards:
        img = card_image(game, c, *sizes.CARD_S)
        assert img.size == sizes.CARD_S
        data = img.tobytes()
        assert data != back
        seen.add(data)
        assert pretty(c, game)  # and every card has a name in words
    assert len(seen) == len(cards)  # no two cards look the same


def test_bad_requests_name_the_problem():
    with pytest.raises(ValueError, match="XX"):
        card_image("sumo", "XX", 60, 84)
    with pytest.raises(ValueError, match="too small"):
        card_image("sumo", "3H", 2, 3)
    with pytest.raises(ValueError, match="poker"):
        card_image("poker", "3H", 60, 84)


def test_card_names_in_words():
    assert pretty("TD", "sumo-card-game") == "10♦"
    assert pretty("JK1", "sumo-card-game") == "Joker"
    assert pretty("WR", "sumida-river") == "Red A"
    assert pretty("AS", "sumida-river") == "A♠"
    assert faces().suits["H"][1] == "hearts"
