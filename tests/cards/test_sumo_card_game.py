"""The Sumo Card Game (rules v1.1) as a player at the table would check it.

Positions are built with :meth:`SumoCardGame.arranged`, which places named cards in the ring, the
sumo slots and the hands, stacks ``deck_top`` so those cards are drawn first (in the order given),
and shuffles every other card into the deck below them. Seat 0 is "Tedd" and seat 1 "Elliot" in the
rulebook's worked examples; seat 0's side of the ring is beyond column 0, seat 1's beyond column 6,
and a push moves the sumo cards towards the *pusher's* side.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cards
from cards import sumo_card_game
from cards.api import IllegalMove
from cards.sumo_card_game import NAMES, SumoCardGame, combo_value, heuristic_action, push_distance

SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**31 - 1)
CARD_NAMES = set(NAMES)

# Ring fillers: no 2s and no Jokers, so an unplanned challenge never draws from the deck.
FILLERS = ["6C", "6D", "6H", "6S", "7C", "7D", "7H", "7S", "8C", "8D", "8H", "8S", "TC", "TD", "TH",
           "TS", "JC", "JD", "JH", "JS", "QC", "QD", "QH", "QS"]


def make(hands: list[list[str]], *, ring: dict[int, tuple[str, str]] | None = None,
         sumo: tuple[str, str] | None = None, **kw: Any) -> SumoCardGame:
    """A position: given hands, chosen ring columns (seat 0's card, seat 1's card), sumo cards;
    other ring and sumo slots get filler cards not used anywhere else."""
    ring = ring or {}
    used = {c for h in hands for c in h} | set(sumo or ()) | {c for p in ring.values() for c in p}
    used |= set(kw.get("deck_top", ())) | set(kw.get("discard", ()))
    free = iter(c for c in FILLERS if c not in used)
    if sumo is None:
        sumo = (next(free), next(free))
    rows: list[list[str]] = [[], []]
    for col in range(7):
        pair = ring.get(col) or (next(free), next(free))
        rows[0].append(pair[0])
        rows[1].append(pair[1])
    return SumoCardGame.arranged(ring=rows, sumo=list(sumo), hands=hands, **kw)


def snapshot(g: SumoCardGame) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def clash(g: SumoCardGame, play0: str, play1: str) -> None:
    g.apply("play " + play0)
    g.apply("play " + play1)


def all_cards(g: SumoCardGame) -> list[str]:
    return sorted(c for z in g.card_zones().values() for c in z)


def cards_in(obj: Any) -> set[str]:
    """Every card name mentioned anywhere in a JSON-like value."""
    if isinstance(obj, str):
        return {obj} if obj in CARD_NAMES else set()
    if isinstance(obj, dict):
        return set().union(*(cards_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(cards_in(v) for v in obj)) if obj else set()
    return set()


def last(g: SumoCardGame, kind: str) -> dict[str, Any]:
    return next(e for e in reversed(g.events) if e["type"] == kind)


# ----- setup ------------------------------------------------------------------------------------


def test_registered_for_two_players_with_a_jokers_option():
    assert cards.GAMES["sumo-card-game"] is SumoCardGame
    assert SumoCardGame.player_counts == (2,)
    with pytest.raises(ValueError):
        SumoCardGame.new(3)
    with pytest.raises(ValueError):
        SumoCardGame.new(2, 0, wild_aces=True)


@pytest.mark.parametrize("jokers,total", [(False, 52), (True, 54)])
def test_the_deal(jokers, total):
    g = SumoCardGame.new(2, 4, jokers=jokers)
    z = g.card_zones()
    assert len(all_cards(g)) == len(set(all_cards(g))) == total
    assert ("JK1" in all_cards(g)) == jokers
    assert len(z["ring0"]) == len(z["ring1"]) == 7 and len(z["sumo"]) == 2
    assert len(z["hand0"]) == len(z["hand1"]) == 3
    assert len(z["deck"]) == total - 14 - 2 - 6 and z["discard"] == []
    obs = g.observation(0)
    assert obs["position"] == 3, "the sumo cards start in the centre column"
    assert obs["ring"] == [[None] * 7, [None] * 7] and obs["sumo"] == [None, None]
    assert g.to_play == 0 and obs["phase"] == "attack"


# ----- what may be played ------------------------------------------------------------------------


@pytest.mark.parametrize("hand,combos", [
    (["3C", "3D", "3H"], ["3C+3D", "3C+3H", "3D+3H", "3C+3D+3H"]),
    (["4C", "4D", "9S"], ["4C+4D"]),
    (["5C", "5D", "5H"], ["5C+5D", "5C+5H", "5D+5H"]),  # no three 5s
    (["4C", "4D", "4H"], ["4C+4D", "4C+4H", "4D+4H"]),  # no three 4s
    (["3C", "4D", "5H"], []),  # only equal ranks combine
    (["2C", "2D", "KS"], []),  # 2s never combine
    (["6C", "6D", "6H"], []),  # only 3s, 4s and 5s combine
    (["JK1", "3C", "3D"], ["3C+JK1", "3D+JK1", "3C+3D", "3C+3D+JK1"]),
    (["JK1", "JK2", "3C"], ["3C+JK1", "3C+JK2", "3C+JK1+JK2"]),  # but not two Jokers alone
    (["JK1", "JK2", "4C"], ["4C+JK1", "4C+JK2"]),
    (["JK1", "5C", "9D"], ["5C+JK1"]),
    (["JK1", "AS", "KD"], []),
])
def test_which_plays_are_offered(hand, combos):
    g = make([hand, ["9H", "8H", "7H"]], jokers=any(c.startswith("JK") for c in hand))
    expected = sorted(["play " + c for c in hand] + ["play " + c for c in combos])
    assert g.legal_actions() == expected


@pytest.mark.parametrize("cards_,value", [
    (("4C", "4D"), 8), (("5C", "5D"), 10), (("3C", "3D"), 6), (("3C", "3D", "3H"), 9),
    (("3C", "JK1"), 6), (("3C", "3D", "JK1"), 9), (("3C", "JK1", "JK2"), 9), (("4C", "JK1"), 8),
    (("5C", "JK1"), 10), (("JK1", "JK2"), None), (("4C", "4D", "4H"), None), (("3C", "4C"), None),
])
def test_combo_values(cards_, value):
    from cards.sumo_card_game import CARD_ID
    assert combo_value(tuple(sorted(CARD_ID[c] for c in cards_))) == value


# ----- pushing: classes and distances -------------------------------------------------------------


@pytest.mark.parametrize("p0,p1,pusher,distance", [
    ("9H", "7C", 0, 1),          # Number pushes a lower Number one column
    ("7C", "9H", 1, 1),
    ("JH", "5C+5D", 0, 2),       # Face pushes any Number two (Tedd's Jack vs Elliot's two 5s)
    ("JH", "TC", 0, 2),
    ("KH", "QC", 0, 1),          # stronger Face pushes weaker Face one
    ("QH", "JC", 0, 1),
    ("KH", "JC", 0, 1),
    ("AH", "KC", 0, 2),          # Ace pushes Face two
    ("AH", "TC", 0, 3),          # Ace pushes Number three
    ("3C+3D+3H", "AS", 1, 3),    # a combo is a Number
    ("4C+4D", "7S", 0, 1),       # two 4s are an 8
    ("KS", "AH", 1, 2),          # Face cannot push an Ace
])
def test_push_classes_and_distances(p0, p1, pusher, distance):
    hands = [p0.split("+"), p1.split("+")]
    # Ring cards of the centre column and the sumo cards are already face up: no challenge to offer.
    g = make(hands, ring_up=[3], sumo_up=True)
    clash(g, p0, p1)
    expected = 3 - distance if pusher == 0 else 3 + distance
    assert g.observation(0)["position"] == expected
    assert g.to_play == 0 and g.observation(0)["phase"] == "attack"


@pytest.mark.parametrize("p0,p1", [("AH", "AS"), ("4C+4D", "8S"), ("5C+5D", "TS"),
                                   ("3C+3D+3H", "9S"), ("KH", "KS"), ("3C+3D", "6S")])
def test_equal_values_are_a_tie_and_nobody_moves(p0, p1):
    g = make([p0.split("+"), p1.split("+")])  # everything face down: a push would offer a challenge
    clash(g, p0, p1)
    obs = g.observation(1)
    assert obs["position"] == 3 and obs["phase"] == "attack" and g.to_play == 0
    assert obs["ring"] == [[None] * 7, [None] * 7], "no challenge after a tie"
    assert last(g, "tie")["values"][0] == last(g, "tie")["values"][1]


def test_push_distance_table():
    assert [push_distance(w, lo) for w, lo in [(10, 9), (11, 10), (13, 11), (14, 13), (14, 10)]] == [
        1, 2, 1, 2, 3]


# ----- wild 2s --------------------------------------------------------------------------------------


def test_a_revealed_2_takes_the_value_of_the_card_drawn():
    g = make([["2C", "6S", "7S"], ["QD", "3S", "4S"]], deck_top=["KH"], ring_up=[3], sumo_up=True)
    clash(g, "2C", "QD")
    wild = last(g, "wild")
    assert wild["seat"] == 0 and wild["drawn"] == ["KH"] and wild["value"] == 13
    assert g.observation(0)["position"] == 2, "a King pushes a Queen one column"
    assert {"2C", "QD", "KH"} <= set(g.card_zones()["discard"]), "the drawn card is discarded too"


def test_a_wild_draw_repeats_on_2s_and_jokers():
    g = make([["2C", "6S", "7S"], ["8D", "3S", "4S"]], deck_top=["2D", "JK1", "7C"], jokers=True,
             ring_up=[3], sumo_up=True)
    clash(g, "2C", "8D")
    assert last(g, "wild")["drawn"] == ["2D", "JK1", "7C"] and last(g, "wild")["value"] == 7
    assert g.observation(0)["position"] == 4, "7 loses to 8: seat 1 pushes one column"


def test_a_joker_played_alone_is_a_wild_2():
    g = make([["JK2", "6S", "7S"], ["8D", "3S", "4S"]], deck_top=["AC"], jokers=True,
             ring_up=[3], sumo_up=True)
    clash(g, "JK2", "8D")
    assert last(g, "wild")["value"] == 14 and g.observation(0)["position"] == 0


def test_a_3_drawn_for_a_2_counts_as_a_lone_3():
    g = make([["2C", "6S", "7S"], ["4D", "3S", "4S"]], deck_top=["3H"], ring_up=[3], sumo_up=True)
    clash(g, "2C", "4D")
    assert last(g, "wild")["value"] == 3 and g.observation(0)["position"] == 4


@pytest.mark.parametrize("draw_first,winner", [(0, 0), (1, 1)])
def test_when_both_play_a_2_the_first_drawer_draws_first(draw_first, winner):
    g = make([["2C", "6S", "7S"], ["2D", "3S", "4S"]], deck_top=["AS", "5H"],
             draw_first=draw_first, ring_up=[3], sumo_up=True)
    clash(g, "2C", "2D")
    wilds = [e for e in g.events if e["type"] == "wild"]
    assert [e["seat"] for e in wilds] == [draw_first, 1 - draw_first]
    assert wilds[0]["drawn"] == ["AS"] and wilds[1]["drawn"] == ["5H"]
    assert g.observation(0)["position"] == (0 if winner == 0 else 6), "the Ace pushes three"


# ----- challenges ------------------------------------------------------------------------------------


def test_only_the_pushed_player_decides_and_challenging_is_optional():
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]])
    clash(g, "9H", "8D")
    assert g.to_play == 1, "seat 1 was pushed: seat 1 decides"
    assert g.legal_actions() == ["accept", "challenge-ring"]
    g.apply("accept")
    assert g.observation(0)["position"] == 2
    assert g.observation(0)["ring"] == [[None] * 7, [None] * 7]


def test_a_push_that_would_lose_must_be_challenged():
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]], position=0)
    clash(g, "9H", "8D")
    assert g.observation(1)["push"]["fatal"]
    assert g.legal_actions() == ["challenge-ring"]
    before = snapshot(g)
    with pytest.raises(IllegalMove, match="must challenge"):
        g.apply("accept")
    assert snapshot(g) == before


def test_a_won_ring_challenge_cancels_the_push_and_the_cards_stay_face_up():
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]], ring={3: ("5C", "KD")})
    clash(g, "9H", "8D")
    g.apply("challenge-ring")
    obs = g.observation(0)
    assert obs["position"] == 3 and obs["phase"] == "attack"
    assert obs["ring"][0][3] == "5C" and obs["ring"][1][3] == "KD"
    assert "5C" in g.card_zones()["ring0"] and "KD" in g.card_zones()["ring1"], "never discarded"
    assert obs["sumo"] == [None, None], "no sumo challenge needed"


def test_a_tied_challenge_cancels_the_push():
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]], ring={3: ("QC", "QD")})
    clash(g, "9H", "8D")
    g.apply("challenge-ring")
    assert g.observation(0)["position"] == 3 and last(g, "challenge")["success"]


def test_a_lost_ring_challenge_then_offers_the_sumo_challenge():
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]], ring={3: ("KC", "5D")})
    clash(g, "9H", "8D")
    g.apply("challenge-ring")
    assert g.to_play == 1 and g.legal_actions() == ["accept", "challenge-sumo"]
    g.apply("accept")
    assert g.observation(0)["position"] == 2 and g.observation(0)["sumo"] == [None, None]


def test_no_sumo_challenge_after_declining_the_ring_challenge():
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]])
    clash(g, "9H", "8D")
    with pytest.raises(IllegalMove, match="face down"):
        g.apply("challenge-sumo")
    g.apply("accept")
    assert g.observation(0)["position"] == 2 and g.to_play == 0


def test_face_up_ring_cards_leave_only_the_sumo_challenge():
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]], ring_up=[3])
    clash(g, "9H", "8D")
    assert g.legal_actions() == ["accept", "challenge-sumo"]
    with pytest.raises(IllegalMove, match="already face up"):
        g.apply("challenge-ring")


def test_a_lost_ring_challenge_with_the_sumo_cards_used_lets_the_push_happen():
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]], ring={3: ("KC", "5D")}, sumo_up=True)
    clash(g, "9H", "8D")
    g.apply("challenge-ring")
    assert g.observation(0)["position"] == 2 and g.to_play == 0


def test_only_one_sumo_challenge_per_game_then_a_push_out_wins():
    g = make([["AH", "6S", "7S"], ["8D", "3S", "4S"]], position=1, ring_up=[1], sumo_up=True)
    clash(g, "AH", "8D")
    assert g.is_over and g.returns() == [1.0, -1.0]
    assert g.observation(1)["winner"] == 0


def test_a_ring_2_draws_and_the_drawn_card_is_discarded():
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]], ring={3: ("TC", "2H")}, deck_top=["JD"])
    clash(g, "9H", "8D")
    g.apply("challenge-ring")
    ch = last(g, "challenge")
    assert ch["values"] == [10, 11] and ch["success"]
    assert "2H" in g.card_zones()["ring1"] and "JD" in g.card_zones()["discard"]


def test_a_ring_joker_is_a_2():
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]], ring={3: ("TC", "JK1")}, deck_top=["4D"],
             jokers=True)
    clash(g, "9H", "8D")
    g.apply("challenge-ring")
    assert last(g, "challenge")["values"] == [10, 4]
    assert g.to_play == 1 and g.legal_actions() == ["accept", "challenge-sumo"]


# ----- the rulebook's worked examples ------------------------------------------------------------------


def test_worked_example_tedd_jack_against_elliot_two_5s():
    """"Tedd plays a Jack, Elliot plays two 5s ... Elliot is pushed, and the sumo cards move two
    columns towards Tedd's end of the ring. If this takes the sumo cards past the last card on
    Tedd's end, Tedd wins." Tedd is seat 0, whose end is beyond column 0."""
    g = make([["JH", "6S", "7S"], ["5C", "5D", "8H"]])
    clash(g, "JH", "5C+5D")
    assert last(g, "clash")["values"] == [11, 10] and last(g, "clash")["distance"] == 2
    g.apply("accept")
    assert g.observation(0)["position"] == 1
    # The same push from column 1, with nothing left face down to challenge with: Tedd wins.
    g = make([["JH", "6S", "7S"], ["5C", "5D", "8H"]], position=1, ring_up=[1], sumo_up=True)
    clash(g, "JH", "5C+5D")
    assert g.winners() == [0] and last(g, "push")["to_column"] == -1


def test_worked_example_tedd_ace_against_elliot_nine_with_two_challenges():
    """The challenge example, replayed step by step.

    Set-up: Tedd (seat 0) and Elliot (seat 1); the sumo cards stand in column 2, two columns from
    Tedd's end, so Tedd's Ace (three columns against a Number) would push them out. The ring cards
    of column 2 are Tedd's King and Elliot's 3; the sumo cards are Tedd's 2 and Elliot's Ace; the
    top card of the deck is a 4 (Tedd's wild draw); the next two are Tedd's and Elliot's refills.
    """
    g = make([["AH", "6C", "7C"], ["9D", "6D", "8C"]], position=2, ring={2: ("KS", "3C")},
             sumo=("2S", "AD"), deck_top=["4H", "TH", "5S"], draw_first=0)
    # "Tedd's attack card is an Ace, and Elliot's attack card is a 9."
    clash(g, "AH", "9D")
    assert last(g, "clash")["pusher"] == 0 and last(g, "clash")["distance"] == 3
    # "If Elliot doesn't challenge, his sumo card will be pushed out of the ring, and he will lose."
    push = g.observation(1)["push"]
    assert push["pushed"] == 1 and push["fatal"]
    # "The ring cards in the current column are facedown, and he challenges." He had no choice.
    assert g.to_play == 1 and g.legal_actions() == ["challenge-ring"]
    g.apply("challenge-ring")
    # "Tedd's ring card is a King, and Elliot's ring card is a 3. Elliot has failed..."
    ring = last(g, "challenge")
    assert ring["kind"] == "ring" and ring["cards"] == ["KS", "3C"] and ring["values"] == [13, 3]
    assert not ring["success"]
    assert g.observation(0)["ring"][0][2] == "KS" and g.observation(0)["ring"][1][2] == "3C"
    # "Elliot's not beat yet, however, as their sumo cards are still facedown."
    assert g.to_play == 1 and g.legal_actions() == ["challenge-sumo"]
    g.apply("challenge-sumo")
    # "Elliot's sumo card turns out to be an Ace, and Tedd's is a 2. ... Tedd draws from the deck,
    # but gets a 4. This second challenge succeeds, and Elliot is not pushed."
    wild = last(g, "wild")
    assert wild["seat"] == 0 and wild["source"] == "sumo" and wild["drawn"] == ["4H"]
    sumo = last(g, "challenge")
    assert sumo["kind"] == "sumo" and sumo["values"] == [4, 14] and sumo["success"]
    # "The sumo cards are now face up ... and do not move this round." "... Tedd is not pushed."
    obs = g.observation(0)
    assert obs["sumo"] == ["2S", "AD"] and obs["position"] == 2
    assert not g.is_over
    assert not [e for e in g.events if e["type"] == "push"], "a challenge never causes a push"
    # End of round: attack cards and the drawn 4 discarded; ring and sumo cards stay put.
    assert sorted(g.card_zones()["discard"]) == ["4H", "9D", "AH"]
    assert g.card_zones()["sumo"] == ["2S", "AD"] and "KS" in g.card_zones()["ring0"]
    assert g.observation(0)["hand"] == ["6C", "7C", "TH"]
    assert g.observation(1)["hand"] == ["5S", "6D", "8C"]
    # "The sumo cards are now face up and cannot be used for challenging again": the next push
    # in column 2 has nothing to challenge with and simply happens.
    clash(g, "TH", "8C")
    assert g.observation(0)["position"] == 1 and g.to_play == 0


# ----- decks, discards and reshuffles --------------------------------------------------------------


def test_round_end_discards_and_refills_to_three():
    g = make([["3C", "3D", "3H"], ["9D", "6D", "8C"]], deck_top=["KC", "KD", "KH", "QS"],
             ring_up=[3], sumo_up=True, draw_first=1)
    clash(g, "3C+3D+3H", "9D")  # 9 against 9: tie
    assert sorted(g.card_zones()["discard"]) == ["3C", "3D", "3H", "9D"]
    # Seat 1 draws first (one card), then seat 0 draws three.
    assert g.observation(1)["hand"] == ["6D", "8C", "KC"]
    assert g.observation(0)["hand"] == ["KD", "KH", "QS"]


def test_empty_deck_is_remade_from_the_shuffled_discard_pile():
    # Leave exactly one card in the deck and the other 29 free cards in the discard pile.
    hands = [["9H", "6S", "7S"], ["9D", "3S", "4S"]]
    base = make(hands, ring_up=[3], sumo_up=True)
    rest = base.card_zones()["deck"]
    g = make(hands, ring_up=[3], sumo_up=True, deck_top=rest[:1], discard=rest[1:])
    assert g.observation(0)["deck_size"] == 1
    clash(g, "9H", "9D")  # tie; seat 0 draws the last card, then the deck runs out
    assert last(g, "reshuffle")["count"] == 31, "the discard pile plus this round's two cards"
    assert g.observation(0)["discard"] == [] and g.observation(0)["deck_size"] == 30
    assert sorted(all_cards(g)) == sorted(all_cards(base))


def test_a_wild_draw_on_an_empty_deck_reshuffles_without_this_rounds_cards():
    hands = [["2H", "6S", "7S"], ["9D", "3S", "4S"]]
    base = make(hands, ring_up=[3], sumo_up=True)
    rest = base.card_zones()["deck"]
    g = make(hands, ring_up=[3], sumo_up=True, discard=rest)
    assert g.observation(0)["deck_size"] == 0
    clash(g, "2H", "9D")
    assert last(g, "reshuffle")["count"] == 30, "the played 2 and 9 are still on the table"
    assert {"2H", "9D"} <= set(g.card_zones()["discard"])


# ----- information -----------------------------------------------------------------------------------


def test_the_face_down_choice_is_hidden_even_how_many_cards_it_is():
    seen = []
    for play in ("3C+3D+3H", "3C"):
        g = make([["3C", "3D", "3H"], ["9D", "6D", "8C"]])
        g.apply("play " + play)
        obs = g.observation(1)
        assert obs["opponent_chosen"] and obs["opponent_hand_size"] == 3
        assert g.observation(0)["chosen"] == play.split("+")
        seen.append(obs)
    assert seen[0] == seen[1], "seat 1's view must not depend on seat 0's hidden choice"


def test_opponent_hands_and_face_down_cards_never_show():
    g = SumoCardGame.new(2, 9)
    for p in (0, 1):
        obs = g.observation(p)
        shown = cards_in({k: v for k, v in obs.items() if k != "events"})
        assert shown == set(obs["hand"]), "only the player's own hand is visible at the start"
        assert not cards_in(obs["events"]) - set(obs["hand"])


@SETTINGS
@given(seed=seeds, jokers=st.booleans())
def test_no_observation_shows_a_hidden_card(seed, jokers):
    g = SumoCardGame.new(2, seed, jokers=jokers)
    rng = random.Random(seed)
    while True:
        for p in (0, 1):
            hidden = g.hidden_from(p)
            obs = g.observation(p)
            assert not cards_in({k: v for k, v in obs.items() if k != "events"}) & hidden
        if g.is_over:
            break
        n = len(g.events)
        g.apply(rng.choice(g.legal_actions()))
        new = g.events[n:]
        if any(e["type"] == "reshuffle" for e in new):
            continue  # a card shown earlier in this step may now be back in the deck
        for e in new:
            for p in (0, 1):
                if "to" not in e or p in e["to"]:
                    assert not cards_in(e) & g.hidden_from(p), f"seat {p} learns a hidden card: {e}"


# ----- properties of whole games ----------------------------------------------------------------------


@SETTINGS
@given(seed=seeds, jokers=st.booleans())
def test_random_games_keep_every_card_end_and_never_run_dry(seed, jokers):
    """No card created or lost; at the start of every round both hands are full and deck plus
    discard hold the other cards (so a wild draw can never find both empty)."""
    g = SumoCardGame.new(2, seed, jokers=jokers)
    total = 54 if jokers else 52
    expected = sorted(NAMES[:total])
    rng = random.Random(seed)
    for _ in range(5000):
        assert all_cards(g) == expected
        if g.is_over:
            break
        if g.observation(0)["phase"] == "attack" and g.to_play == 0:
            z = g.card_zones()
            assert len(z["hand0"]) == len(z["hand1"]) == 3 and not z["table"]
            assert len(z["deck"]) + len(z["discard"]) == total - 22
        g.apply(rng.choice(g.legal_actions()))
    assert g.is_over, "a random game did not end"
    assert sorted(g.returns()) == [-1.0, 1.0]


@SETTINGS
@given(seed=seeds, jokers=st.booleans(), data=st.data())
def test_listed_actions_accepted_and_others_refused_unchanged(seed, jokers, data):
    g = SumoCardGame.new(2, seed, jokers=jokers)
    rng = random.Random(seed)
    pool = ["accept", "challenge-ring", "challenge-sumo", "play", "play 1X", "play 9H+9D"] + [
        "play " + n for n in NAMES] + ["play 3C+4C", "play JK1+JK2", "play 4C+4D+4H", "play 2C+2D"]
    while not g.is_over:
        legal = g.legal_actions()
        for a in legal:
            g.clone().apply(a)
        before = snapshot(g)
        for a in data.draw(st.lists(st.sampled_from(pool), max_size=4)):
            if a in legal:
                continue
            with pytest.raises(IllegalMove) as info:
                g.apply(a)
            assert str(info.value)
            assert snapshot(g) == before and g.legal_actions() == legal
        g.apply(rng.choice(legal))


@SETTINGS
@given(seed=seeds, jokers=st.booleans(), prefix=st.integers(0, 60))
def test_json_round_trip_mid_game_continues_identically(seed, jokers, prefix):
    g = SumoCardGame.new(2, seed, jokers=jokers)
    rng = random.Random(seed)
    for _ in range(prefix):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    r = SumoCardGame.from_json(json.loads(json.dumps(g.to_json())))
    while True:
        assert snapshot(r) == snapshot(g)
        assert r.observation(0) == g.observation(0) and r.observation(1) == g.observation(1)
        if g.is_over:
            break
        a = rng.choice(g.legal_actions())
        g.apply(a)
        r.apply(a)


@SETTINGS
@given(seed=seeds, jokers=st.booleans(), prefix=st.integers(0, 80))
def test_resample_hidden_keeps_the_view_and_respects_reshuffles(seed, jokers, prefix):
    g = SumoCardGame.new(2, seed, jokers=jokers)
    rng = random.Random(seed)
    for _ in range(prefix):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    before = snapshot(g)
    for p in (0, 1):
        r = g.resample_hidden(p, random.Random(seed ^ p))
        assert r.observation(p) == g.observation(p)
        assert all_cards(r) == all_cards(g)
        assert r.hidden_from(p) == g.hidden_from(p), "the same cards are hidden, re-dealt"
        # After a reshuffle the deck is a known set: it can only hold cards of that pile.
        if g.reshuffles:
            known_pool = set(g.card_zones()["deck"]) | {
                NAMES[c] for c, e in zip(g.hands[1 - p], g.hand_epochs[1 - p], strict=True) if e == g.reshuffles}
            assert set(r.card_zones()["deck"]) <= known_pool
        if not r.is_over:
            heuristic_action(r, r.to_play, random.Random(0))
        # No trace of the real hidden cards in the re-dealt game's secret events.
        assert all("to" not in e or p in e["to"] for e in r.events)
    assert snapshot(g) == before


def test_resample_after_a_reshuffle_keeps_the_known_pile_apart():
    """After a reshuffle everybody knows which cards make up the new deck (the old discard pile):
    seat 0's re-deals may only swap those among the deck and seat 1's cards drawn since, and the
    never-seen cards (seat 1's older cards, face-down ring and sumo cards) among themselves."""
    hands = [["9H", "6S", "7S"], ["9D", "3S", "4S"]]
    rest = make(hands).card_zones()["deck"]
    g = make(hands, deck_top=rest[:1], discard=rest[1:], draw_first=0)
    clash(g, "9H", "9D")  # tie; seat 0 takes the last card, seat 1 draws from the new deck
    assert g.reshuffles == 1 and g.hand_epochs[1] == [0, 0, 1]
    new_pile = set(rest[1:]) | {"9H", "9D"}
    fresh = g.card_zones()["hand1"][2]
    assert fresh in new_pile
    never_seen = g.hidden_from(0) - new_pile
    assert never_seen >= {"3S", "4S"}
    fresh_cards = set()
    for k in range(30):
        r = g.resample_hidden(0, random.Random(k))
        h = r.card_zones()["hand1"]
        assert set(h[:2]) <= never_seen and h[2] in new_pile
        assert set(r.card_zones()["deck"]) | {h[2]} == new_pile
        fresh_cards.add(h[2])
    assert len(fresh_cards) > 1, "the card seat 1 drew is really re-dealt"


def test_resample_hidden_redeals_the_face_down_ring_cards():
    g = SumoCardGame.new(2, 1)
    rows = {tuple(g.resample_hidden(0, random.Random(k)).card_zones()["ring1"]) for k in range(5)}
    assert len(rows) > 1


def test_clone_is_independent():
    g = SumoCardGame.new(2, 2)
    before = snapshot(g)
    c = g.clone()
    rng = random.Random(2)
    while not c.is_over:
        c.apply(rng.choice(c.legal_actions()))
    assert snapshot(g) == before


# ----- refusals and saves ----------------------------------------------------------------------------


def test_refusals_name_the_problem():
    g = make([["3C", "4D", "9H"], ["9D", "6D", "8C"]])
    before = snapshot(g)
    for action, words in [("play KS", "do not hold"), ("play 3C+4D", "do not combine"),
                          ("accept", "nobody is being pushed"), ("play JK1", "not a card"),
                          ("dance", "not an action"), ("play 3C+3C", "twice")]:
        with pytest.raises(IllegalMove, match=words):
            g.apply(action)
        assert snapshot(g) == before
    g = make([["AH", "6S", "7S"], ["8D", "3S", "4S"]], position=1, ring_up=[1], sumo_up=True)
    clash(g, "AH", "8D")
    with pytest.raises(IllegalMove, match="over"):
        g.apply("play 6S")


def test_from_json_rejects_bad_saves_naming_the_field():
    data = json.loads(json.dumps(SumoCardGame.new(2, 3).to_json()))
    for key, value, field in [("deck", ["ZZ"], "deck"), ("position", 11, "position"),
                              ("phase", "nap", "phase"), ("ring_up", [True], "ring_up"),
                              ("discard", data["deck"][:1], "deck")]:
        with pytest.raises(ValueError, match=field):
            SumoCardGame.from_json(dict(data, **{key: value}))


def test_arranged_refuses_a_card_used_twice():
    with pytest.raises(ValueError, match="twice"):
        make([["AS", "AS"], ["9D"]])


# ----- the heuristic ------------------------------------------------------------------------------------


def test_heuristic_plays_its_strongest_and_challenges_when_forced():
    g = make([["AH", "9S", "5C"], ["8D", "3S", "4S"]], position=0)
    assert heuristic_action(g, 0, random.Random(0)) == "play AH"
    g = make([["5C", "5D", "TS"], ["8D", "3S", "4S"]])
    assert heuristic_action(g, 0, random.Random(0)) == "play 5C+5D", "same 10, cycles more cards"
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]], position=1, ring_up=[1])
    clash(g, "9H", "8D")  # seat 1 is pushed to column 0, the last column: it saves its sumo card
    assert heuristic_action(g, 1, random.Random(0)) == "challenge-sumo"
    g = make([["9H", "6S", "7S"], ["8D", "3S", "4S"]], ring_up=[3])
    clash(g, "9H", "8D")  # a one-column push from the centre is not worth the sumo challenge
    assert heuristic_action(g, 1, random.Random(0)) == "accept"


def test_heuristic_beats_random_play():
    wins = 0
    games = 200
    for seed in range(games):
        g = SumoCardGame.new(2, seed)
        me = seed % 2
        rng = random.Random(seed)
        while not g.is_over:
            p = g.to_play
            g.apply(heuristic_action(g, p, rng) if p == me else rng.choice(g.legal_actions()))
        wins += g.winners() == [me]
    assert wins > 0.6 * games


@pytest.mark.parametrize("jokers", [False, True])
def test_refilling_in_one_slice_draws_what_drawing_card_by_card_draws(jokers, monkeypatch):
    """The same seeded games, played once with the engine's refill in one slice and once drawing
    card by card: every hand, deck, discard pile and event must come out the same."""
    def play(seed: int) -> Any:
        g = SumoCardGame.new(2, seed, jokers=jokers)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        return g.to_json(), g.events

    fast = [play(seed) for seed in range(150)]
    monkeypatch.setattr(sumo_card_game, "_SLICE_REFILL", False)  # draw card by card, as the rulebook says
    reference = [play(seed) for seed in range(150)]
    assert fast == reference
    assert any(e["type"] == "reshuffle" for _, events in fast for e in events), "reshuffles were met"
