"""Sumida River: the rules a player at the table would notice, the rulebook's examples replayed step
by step, and the engine promises (card conservation, legal actions, saves, hidden information)."""
from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cards
from cards import sumida_river
from cards.api import IllegalMove
from cards.sumida_river import (
    BLACK_SUITS,
    CARD_NAMES,
    MELD_TYPES,
    RANKS,
    RED_SUITS,
    SPEC,
    SumidaRiver,
    hand_melds,
    heuristic_action,
    natural_melds,
    reference_melds,
    split_hand,
)

FAST = settings(max_examples=8, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**31 - 1)

DECK = set(CARD_NAMES)


def play(g: SumidaRiver, script: list[tuple[int, str]]) -> None:
    """Apply (seat, action) pairs, checking each seat is to act and each action is offered."""
    for seat, action in script:
        assert g.to_play == seat, f"expected seat {seat} to act before {action!r}"
        assert action in g.legal_actions(), f"{action!r} not offered: {g.legal_actions()}"
        g.apply(action)


def refused(g: SumidaRiver, action: str, words: str) -> None:
    before = json.dumps(g.to_json(), sort_keys=True)
    with pytest.raises(IllegalMove) as info:
        g.apply(action)
    assert words in str(info.value), str(info.value)
    assert json.dumps(g.to_json(), sort_keys=True) == before


def filler(used: list[list[str]], sizes: list[int]) -> list[list[str]]:
    """Complete hands to the given sizes with cards nobody names (lowest spare cards first, never
    the Red 3, so that only a named 3D decides who leads)."""
    taken = {c for h in used for c in h}
    spare = [c for c in CARD_NAMES if c not in taken and c != "3D"]
    out = []
    for h, size in zip(used, sizes, strict=True):
        extra, spare = spare[: size - len(h)], spare[size - len(h):]
        out.append(list(h) + extra)
    return out


def all_keep(g: SumidaRiver) -> None:
    while g.phase == "declare":
        g.apply("keep")


def random_game(players: int, seed: int):
    g = SumidaRiver.new(players, seed)
    rng = random.Random(seed)
    while True:
        yield g
        if g.is_over:
            return
        g.apply(rng.choice(g.legal_actions()))


def endgame(players: int, scores: list[int], a_table: list[list[int]], hands: list[list[str]],
            leader: int) -> SumidaRiver:
    """A last-round position: only the given cards in hand, everything else already cleared."""
    d = SumidaRiver.new(players, 0).to_json()
    held = {c for h in hands for c in h}
    n = players
    d.update(
        round=n, phase="play", to_move=leader, scores=scores, a_table=a_table,
        a_hand=[[0, 0]] * n, hands=hands, undealt=[], cleared=[c for c in CARD_NAMES if c not in held],
        known=[[] for _ in range(n * (n + 1))], trick=[], passed=[], finished=[], deciders=[],
        declarations=[-1] * n, traders=[], adds=[-1] * n, a_box=[0, 0],
        a_out_of_game=[6 - sum(a[0] for a in a_table), 6 - sum(a[1] for a in a_table)],
    )
    return SumidaRiver.from_json(d)


# ----- setup ------------------------------------------------------------------------------------------


def test_registered_for_three_and_four_players():
    assert cards.GAMES["sumida-river"] is SumidaRiver
    assert SumidaRiver.player_counts == (3, 4)
    with pytest.raises(ValueError):
        SumidaRiver.new(2, 0)


def test_three_players_get_two_black_and_two_red_a_cards_and_thirteen_stay_undealt():
    g = SumidaRiver.new(3, 5)
    obs = g.observation(0)
    assert obs["a_on_table"] == [[2, 2]] * 3
    assert obs["hand_sizes"] == [13, 13, 13]
    assert obs["undealt_count"] == 13
    assert g.to_play == 0 and g.legal_actions() == ["keep", "trade"]


def test_four_players_share_the_twelve_a_cards_three_each_one_of_each_colour_at_least():
    for seed in range(10):
        g = SumidaRiver.new(4, seed)
        a = g.observation(1)["a_on_table"]
        assert all(b + r == 3 and b >= 1 and r >= 1 for b, r in a)
        assert sum(b for b, _ in a) == 6 and sum(r for _, r in a) == 6
        assert g.observation(1)["hand_sizes"] == [13] * 4
        assert g.observation(1)["undealt_count"] == 0


# ----- trade phase ------------------------------------------------------------------------------------


def test_a_seeded_deal_is_thirteen_cards_a_seat_from_the_top_of_the_shuffled_deck():
    """The deal takes whole slices of the shuffled deck at once (the fast path): each seat must get
    exactly the cards that drawing one at a time from the top would give it, so a seed keeps
    meaning the same deal."""
    for n in (3, 4):
        for seed in range(30):
            rng = random.Random(seed)
            if n == 4:
                rng.shuffle([0, 0, 1, 1])  # the extra A cards are shuffled out first
            deck = list(range(52))
            rng.shuffle(deck)
            dealt = [[deck.pop() for _ in range(13)] for _ in range(n)]
            g = SumidaRiver.new(n, seed)
            assert [sumida_river.mask_names(h) for h in g.hands] == [
                [CARD_NAMES[c] for c in sorted(hand)] for hand in dealt
            ]


def test_the_fast_shuffle_deals_what_the_library_shuffle_deals_and_draws_the_same_bits():
    """Every round is dealt by sumida_river.shuffled_deck (the library's shuffle loop written out):
    for many seeds and generator states it must give the very order random.Random.shuffle gives
    and leave the generator where the library leaves it, so later rounds and random events keep
    their seeds' outcomes too."""
    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        for _ in range(seed % 7):  # generators part-way through their streams
            ours.random()
            theirs.random()
        deck = list(range(52))
        theirs.shuffle(deck)
        assert sumida_river.shuffled_deck(ours) == deck
        assert ours.getstate() == theirs.getstate()


def test_declarations_are_secret_until_everybody_has_declared():
    g = SumidaRiver.new(3, 2)
    said_trade, said_keep = g.clone(), g.clone()
    said_trade.apply("trade")
    said_keep.apply("keep")
    # Seat 1 chooses next and sees nothing of seat 0's choice.
    assert said_trade.observation(1) == said_keep.observation(1)
    assert said_trade.observation(2) == said_keep.observation(2)
    assert said_trade.observation(0)["trade"]["my_declaration"] == "trade"
    said_trade.apply("trade")
    said_trade.apply("keep")
    reveal = [e for e in said_trade.events if e["type"] == "declarations"]
    assert reveal == [{"type": "declarations", "trade": [0, 1], "keep": [2]}]


def test_rulebook_trade_example_two_swaps_then_a_solo_trader():
    """Players 1, 2, 3 are seats 0, 1, 2."""
    g = SumidaRiver.new(3, 9)
    h1, h2 = g.observation(1)["hand"], g.observation(2)["hand"]
    play(g, [(0, "keep"), (1, "trade"), (2, "trade")])
    # Both still have both colours, so each chooses the A card to add, in secret.
    assert g.phase == "add"
    play(g, [(1, "add 1 black 0 red"), (2, "add 0 black 1 red")])
    assert g.observation(1)["hand"] == h2 + ["WR"]
    assert g.observation(2)["hand"] == h1 + ["WB"]
    assert g.observation(1)["known"] == {"2": h1}  # seat 1 knows the hand it passed on
    # Player 1 kept: only players 2 and 3 declare again.
    assert g.to_play == 1
    play(g, [(1, "trade"), (2, "trade"), (1, "add 1 black 0 red"), (2, "add 0 black 1 red")])
    # "their original hands with 2 A cards"
    assert g.observation(1)["hand"] == h1 + ["WB", "WR"]
    assert g.observation(2)["hand"] == h2 + ["WB", "WR"]
    play(g, [(1, "keep"), (2, "trade")])
    # Only Player 3 said Trade: it adds any number of its A cards (it has 2 Black A left).
    assert g.phase == "solo"
    assert g.legal_actions() == ["add 0 black 0 red", "add 1 black 0 red", "add 2 black 0 red"]
    play(g, [(2, "add 2 black 0 red")])
    assert g.phase == "play"  # the trade phase is over
    assert g.observation(0)["a_on_table"] == [[2, 2], [0, 2], [0, 0]]
    assert g.observation(0)["hand_sizes"] == [13, 15, 17]


def test_solo_trader_may_add_any_number_of_a_cards_including_none():
    g = SumidaRiver.new(3, 4)
    play(g, [(0, "trade"), (1, "keep"), (2, "keep")])
    assert g.legal_actions() == [f"add {b} black {r} red" for b in range(3) for r in range(3)]
    refused(g, "add 3 black 0 red", "only 2 Black A")
    refused(g, "add 1 black 1 red 1", "add A cards like")
    g.apply("add 0 black 0 red")
    assert g.phase == "play" and g.observation(0)["hand_sizes"][0] == 13


def test_hands_pass_clockwise_among_traders_only():
    g = SumidaRiver.new(4, 3, a_cards=[[1, 0], [1, 0], [1, 1], [0, 1]])
    before = [g.observation(p)["hand"] for p in range(4)]
    play(g, [(0, "trade"), (1, "trade"), (2, "keep"), (3, "trade")])
    # Seats 0, 1, 3 hold one colour each: nobody is asked which A card to add.
    assert g.phase == "play"  # nobody has A cards left to trade again
    assert g.observation(1)["hand"] == before[0] + ["WB"]
    assert g.observation(3)["hand"] == before[1] + ["WB"]
    assert g.observation(0)["hand"] == before[3] + ["WR"]
    assert g.observation(2)["hand"] == before[2]
    passes = [e for e in g.events if e["type"] == "trade"][0]["passes"]
    assert passes == [[0, 1], [1, 3], [3, 0]]


def test_a_seat_without_a_cards_cannot_trade_and_is_not_asked():
    g = SumidaRiver.new(3, 1, a_cards=[[2, 2], [0, 0], [2, 2]])
    g.apply("keep")
    assert g.to_play == 2  # seat 1 keeps automatically
    g.apply("trade")
    assert g.phase == "solo" and g.to_play == 2


def test_trader_who_spent_the_last_a_card_keeps_automatically():
    g = SumidaRiver.new(3, 1, a_cards=[[1, 0], [2, 2], [0, 0]])
    play(g, [(0, "trade"), (1, "trade"), (1, "add 0 black 1 red")])
    # Seat 0 has no A card left: seat 1 alone declares, and a Trade is a solo trade.
    assert g.to_play == 1 and g.phase == "declare"
    g.apply("trade")
    assert g.phase == "solo"


# ----- who leads ----------------------------------------------------------------------------------------


def test_the_holder_of_the_red_three_leads_the_first_trick():
    hands = filler([["4C"], ["3D"], ["5C"]], [13, 13, 13])
    g = SumidaRiver.new(3, 0, hands=hands)
    all_keep(g)
    assert g.to_play == 1
    # Everybody now knows where the Red 3 is.
    assert "3D" in g.observation(0)["known"]["1"]
    refused(g, "pass", "you lead this trick")


def test_undealt_red_three_lets_the_lowest_score_lead():
    hands = filler([["4C"], ["4D"], ["5C"]], [13, 13, 13])
    assert all("3D" not in h for h in hands)
    reasons = Counter()
    leaders = set()
    for seed in range(12):
        g = SumidaRiver.new(3, seed, hands=hands)
        all_keep(g)
        e = [e for e in g.events if e["type"] == "start-player"][0]
        reasons[e["reason"]] += 1
        leaders.add(g.to_play)
    assert reasons == {"random-among-lowest": 12}  # all scores 0 in round 1
    assert len(leaders) > 1
    # With a single lowest score, that seat leads (a saved game with scores set, same deal).
    d = SumidaRiver.new(3, 0, hands=hands).to_json()
    d["scores"] = [2, 0, 1]
    g = SumidaRiver.from_json(d)
    all_keep(g)
    assert g.to_play == 1
    assert [e for e in g.events if e["type"] == "start-player"][-1]["reason"] == "lowest-score"
    # Everybody now knows the Red 3 lies undealt.
    assert g.observation(0)["known"] == {"undealt": ["3D"]}


# ----- the rulebook's trick examples --------------------------------------------------------------------


def test_rulebook_examples_one_and_two():
    """Players 1, 2, 3 are seats 0, 1, 2. Player 3 gets a Black A by a solo trade (the second
    example's pair of Black 4s needs it: Player 1 already played one of the two Black 4s)."""
    hands = filler([["3D", "4C", "5D", "6H", "TD"], ["TC"], ["5C", "5S", "5H", "4S"]], [13, 13, 13])
    g = SumidaRiver.new(3, 1, hands=hands)
    play(g, [(0, "keep"), (1, "keep"), (2, "trade"), (2, "add 1 black 0 red")])
    play(g, [
        (0, "meld single-black 4C"),   # Player 1 has the Red 3 and leads a Black 4
        (1, "pass"),                   # Player 2 passes
        (2, "meld black-pair 5C,5S"),  # Player 3: a pair of Black 5s
        (0, "meld red-run-2 5D,6H"),   # Player 1: a run of Red 6,5 (rank 5: equal is fine)
    ])
    assert g.to_play == 2  # Player 2 is out for the trick and is skipped
    play(g, [(2, "meld single-red 5H"), (0, "pass")])  # a Red 5 to the Single Red space
    won = [e for e in g.events if e["type"] == "trick-won"]
    assert won[-1]["seat"] == 2  # Player 3 wins the trick and clears all the cards
    assert g.observation(0)["trick"]["plays"] == []
    assert {"4C", "5C", "5S", "5D", "6H", "5H"} <= set(g.observation(0)["cleared"])
    play(g, [
        (2, "meld black-pair 4S,WB"),  # Player 3 leads a Pair of Black 4s
        (0, "meld single-red TD"),     # Player 1 plays a Red 10
        (1, "meld single-black TC"),   # Player 2 plays a Black 10
        (2, "pass"),
        (0, "pass"),
    ])
    assert [e for e in g.events if e["type"] == "trick-won"][-1]["seat"] == 1
    assert g.to_play == 1


def test_rulebook_example_three_run_of_four_discard_black_four_and_triple():
    """Players 1, 2, 3 are seats 0, 1, 2. The A cards come from the trade phase: seats 0 and 2
    swap hands (seat 0 adding a Red A, seat 2 a Black A), then seat 0 trades alone and adds one
    more Black A. So the hand dealt to seat 2 is the one Player 1 plays from, and vice versa."""
    p1_cards = ["8C", "8S"]
    p3_cards = ["6D", "7H", "8D", "7C", "9D", "9H", "9C"]
    hands = filler([p3_cards, ["3D", "6C", "6S"], p1_cards], [13, 13, 13])
    g = SumidaRiver.new(3, 2, hands=hands)
    play(g, [(0, "trade"), (1, "keep"), (2, "trade"),
             (0, "add 0 black 1 red"), (2, "add 1 black 0 red"),
             (0, "trade"), (2, "keep"), (0, "add 1 black 0 red")])
    assert g.observation(0)["a_in_hand"] == [[2, 0], [0, 0], [0, 1]]
    assert g.to_play == 1  # Player 2 holds the Red 3
    play(g, [
        (1, "meld black-pair 6C,6S"),          # Player 2 leads a Pair of Black 6s
        (2, "meld red-run-4 6D,7H,8D,WR"),     # Player 3: a Red run of 9,8,7,6 (the A as the 9)
    ])
    assert g.phase == "discard"              # more than 2 cards left: may discard any card
    play(g, [(2, "discard 7C")])
    assert "7C" in g.observation(0)["cleared"]  # the discard is face up
    play(g, [(0, "meld black-four 8C,8S,WB,WB")])  # Player 1 plays 4 Black 8s ...
    assert g.legal_actions() == ["end-trick", "play-on"]
    play(g, [
        (0, "play-on"),                        # ... but chooses not to end the trick early
        (1, "pass"),
        (2, "meld red-triple 9C,9D,9H"),       # two Red 9s and one Black 9
        (0, "pass"),
    ])
    assert [e for e in g.events if e["type"] == "trick-won"][-1]["seat"] == 2
    assert g.to_play == 2


# ----- melds ----------------------------------------------------------------------------------------------


def shedding(hands: list[list[str]], a_cards: list[list[int]] | None = None, seed: int = 0,
             solo: tuple[int, int, int] | None = None) -> SumidaRiver:
    """A 3-player game in the shedding phase with the given first-round hands (filled to 13).
    ``solo=(seat, black, red)`` has that seat trade alone and add those A cards first."""
    g = SumidaRiver.new(3, seed, hands=filler(hands, [13, 13, 13]), a_cards=a_cards)
    while g.phase == "declare":
        seat = g.to_play
        g.apply("trade" if solo and seat == solo[0] else "keep")
    if solo:
        g.apply(f"add {solo[1]} black {solo[2]} red")
    assert g.phase == "play"
    return g


def test_colour_rules_of_the_melds():
    g = shedding([["3D", "5C", "5S", "5D", "5H", "6C", "6D", "7C", "7D", "8D"], [], []], solo=(0, 2, 2))
    legal = set(g.legal_actions())
    # A red triple may hold one black card, never two.
    assert "meld red-triple 5C,5D,5H" in legal
    assert "meld red-triple 5D,5H,WB" in legal
    refused(g, "meld red-triple 5C,5D,5S", "only one black")
    refused(g, "meld red-triple 5C,5D,WB", "only one black")
    # A black run of 3 may hold one red card, never two.
    assert "meld black-run-3 5C,6D,7C" in legal
    assert "meld black-run-3 5C,6C,WR" in legal
    refused(g, "meld black-run-3 5D,6D,7C", "only one red")
    # The other melds are single-coloured.
    refused(g, "meld red-run-2 5C,6D", "must be red")
    refused(g, "meld black-pair 5C,5D", "must be black")
    refused(g, "meld single-black WR", "must be black")
    refused(g, "meld red-run-4 5D,6D,7D,9D", "consecutive")
    refused(g, "meld black-pair 5C,6C", "same rank")
    # A black four of a kind needs two Black A: a rank has only two black cards.
    assert "meld black-four 5C,5S,WB,WB" in legal
    # Canonical spelling only, and the message says which.
    refused(g, "meld black-pair 5S,5C", "'meld black-pair 5C,5S'")
    refused(g, "meld black-pair 5C,WB,WB", "has 2 cards")


def test_runs_do_not_wrap_and_reach_the_two():
    g = shedding([["3D", "QD", "KH", "AD", "2H"], [], []], solo=(0, 0, 2))
    legal = set(g.legal_actions())
    assert "meld red-run-4 QD,KH,AD,2H" in legal
    assert "meld red-run-2 AD,2H" in legal
    assert "meld red-run-4 AD,2H,WR,WR" in legal  # the A cards stand for Q and K
    refused(g, "meld red-run-2 3D,2H", "consecutive")


def test_used_meld_type_is_blocked_until_the_trick_ends():
    g = shedding([["3D", "4C", "9S"], ["5C", "8C"], ["6C", "7C"]])
    play(g, [(0, "meld single-black 4C")])
    assert not any(a.startswith("meld single-black") for a in g.legal_actions())
    refused(g, "meld single-black 8C", "already used")
    play(g, [(1, "pass"), (2, "pass")])
    # Seat 0 won the trick: every space is free again.
    assert "meld single-black 9S" in g.legal_actions()


def test_climbing_same_rank_or_higher_any_meld_type():
    g = shedding([["3D", "6C", "6S"], ["5D", "6D", "6H", "7H"], []])
    play(g, [(0, "meld black-pair 6C,6S")])
    refused(g, "meld single-red 5D", "lower than the 6")
    assert "meld single-red 6D" in g.legal_actions()      # same rank is fine
    assert "meld red-run-2 6H,7H" in g.legal_actions()    # a run's rank is its lowest card
    assert "meld red-run-2 5D,6D" not in g.legal_actions()


def test_a_cards_are_ignored_for_rank_and_all_a_melds_take_the_lowest_rank():
    g = shedding([["3D", "9C", "TS"], ["8C", "8S", "9S"], []], solo=(0, 2, 2))
    # A lone A led is a lead of 3: anything may follow.
    lone = g.clone()
    play(lone, [(0, "meld single-black WB")])
    assert lone.observation(1)["trick"]["rank_to_meet"] == "3"
    assert "meld black-pair 8C,8S" in lone.legal_actions()
    # "A run with 10,9,A has the lowest rank of 9": after it a 9 or higher, not an 8.
    play(g, [(0, "meld black-run-3 9C,TS,WB")])
    assert g.observation(1)["trick"]["rank_to_meet"] == "9"
    refused(g, "meld black-pair 8C,8S", "lower than the 9")
    assert "meld single-black 9S" in g.legal_actions()
    # "A pair of As is a pair of 3s if a single 3 was played before."
    g = shedding([["3D"], ["8C"], []], solo=(1, 2, 0))
    play(g, [(0, "meld single-red 3D"), (1, "meld black-pair WB,WB")])
    assert g.observation(2)["trick"]["plays"][-1]["rank"] == "3"
    assert g.observation(2)["trick"]["rank_to_meet"] == "3"
    # After an 8 the same pair would be a pair of 8s.
    g = shedding([["3D", "8D"], ["8C"], []], solo=(1, 2, 0))
    play(g, [(0, "meld single-red 8D"), (1, "meld black-pair WB,WB")])
    assert g.observation(2)["trick"]["rank_to_meet"] == "8"


def test_hard_pass_keeps_a_seat_out_until_the_trick_ends():
    g = shedding([["3D", "4C", "9C", "9S", "JD"], ["5D", "KH", "KS"], ["6C", "7D"]])
    play(g, [(0, "meld single-black 4C"), (1, "pass"), (2, "meld single-red 7D")])
    play(g, [(0, "meld black-pair 9C,9S")])
    # Seat 1 passed: after seat 0 the turn goes straight to seat 2.
    assert g.to_play == 2
    play(g, [(2, "pass")])
    assert [e for e in g.events if e["type"] == "trick-won"][-1]["seat"] == 0
    assert g.to_play == 0  # and seat 1 may play in the new trick
    play(g, [(0, "meld single-red JD"), (1, "meld single-black KS")])


def test_black_four_may_end_the_trick_at_once():
    g = shedding([["3D", "4C", "9C", "9S"], ["KH", "KS"], []], solo=(0, 2, 0))
    play(g, [(0, "meld black-four 9C,9S,WB,WB")])
    g2 = g.clone()
    play(g, [(0, "end-trick")])
    assert [e for e in g.events if e["type"] == "trick-won"][-1] == {"type": "trick-won", "seat": 0,
                                                                      "early": True}
    assert g.to_play == 0 and g.observation(0)["trick"]["plays"] == []
    # Playing on gives seat 1 its turn (its K is higher than the 9s).
    play(g2, [(0, "play-on"), (1, "meld single-red KH")])


def test_red_run_of_four_discards_only_with_two_cards_left():
    g = endgame(3, [0, 0, 0], [[2, 2]] * 3, [["3D", "4D", "5H", "6D", "9C", "TC"], ["3H"], ["3C"]], 0)
    play(g, [(0, "meld red-run-4 3D,4D,5H,6D")])
    assert g.phase == "discard" and g.to_play == 0
    assert g.legal_actions() == ["discard 9C", "discard TC", "discard none"]
    refused(g, "discard KS", "you do not hold KS")
    keep = g.clone()
    play(keep, [(0, "discard none")])
    assert keep.observation(0)["hand_sizes"][0] == 2 and keep.to_play == 1
    play(g, [(0, "discard TC")])
    assert g.observation(1)["hand_sizes"][0] == 1 and "TC" in g.observation(1)["cleared"]

    g = endgame(3, [0, 0, 0], [[2, 2]] * 3, [["3D", "4D", "5H", "6D", "9C"], ["3H", "8H"], ["3C", "8C"]], 0)
    play(g, [(0, "meld red-run-4 3D,4D,5H,6D")])
    assert g.phase == "play" and g.to_play == 1  # one card left: no discard


def test_shedding_out_scores_places_and_the_lead_passes_on():
    g = endgame(3, [1, 2, 3], [[1, 0], [0, 0], [1, 1]], [["3C"], ["4C"], ["5C", "6C"]], 0)
    play(g, [(0, "meld single-black 3C")])          # seat 0 goes out first
    assert g.observation(1)["finished"] == [0]
    # Nobody can beat it (single-black is used, nothing else fits): the winner is out, so the
    # next seat clockwise still holding cards leads.
    play(g, [(1, "pass"), (2, "pass")])
    assert g.to_play == 1
    play(g, [(1, "meld single-black 4C")])          # seat 1 second; seat 2 is last
    assert g.is_over
    assert g.scores == [3, 3, 3]
    # Tied on points: the fewest A cards left on the table wins (seat 1 has none).
    assert g.winners() == [1]
    assert g.returns() == [-1.0, 1.0, -1.0]
    assert g.observation(2)["standings"] == [1, 0, 2]


def test_tied_points_and_a_cards_is_a_shared_victory():
    g = endgame(3, [1, 2, 3], [[1, 0], [0, 1], [1, 1]], [["3C"], ["4C"], ["5C", "6C"]], 0)
    play(g, [(0, "meld single-black 3C"), (1, "pass"), (2, "pass"), (1, "meld single-black 4C")])
    assert g.winners() == [0, 1]
    assert g.returns() == [1.0, 1.0, -1.0]


def test_four_player_points_are_three_two_one_nothing():
    g = endgame(4, [0, 0, 0, 0], [[1, 1]] * 4, [["3C"], ["4C"], ["5C"], ["6D", "8D"]], 0)
    play(g, [(0, "meld single-black 3C"), (1, "pass"), (2, "pass"), (3, "pass"),
             (1, "meld single-black 4C"), (2, "pass"), (3, "pass"), (2, "meld single-black 5C")])
    assert g.is_over
    assert g.scores == [3, 2, 1, 0]
    assert g.winners() == [0]


@pytest.mark.parametrize("players", [3, 4])
def test_the_game_lasts_one_round_per_player(players):
    for seed in range(3):
        *_, g = random_game(players, seed)
        ends = [e for e in g.events if e["type"] == "round-end"]
        assert len(ends) == players
        points = sorted(sum(e["points"][p] for e in ends) for p in range(players))
        assert sum(points) == players * sum(range(players))
        assert g.scores == [sum(e["points"][p] for e in ends) for p in range(players)]


def test_played_a_cards_leave_the_game_and_table_a_cards_carry_over():
    g = SumidaRiver.new(3, 8)
    play(g, [(0, "trade"), (1, "keep"), (2, "keep"), (0, "add 1 black 0 red")])
    rng = random.Random(1)
    while g.observation(0)["round"] == 1:
        g.apply(rng.choice(g.legal_actions()))
    obs = g.observation(0)
    assert obs["a_on_table"] == [[1, 2], [2, 2], [2, 2]]
    assert obs["a_in_hand"] == [[0, 0]] * 3
    assert obs["a_out_of_game"] == [1, 0]


# ----- meld generation against brute force ------------------------------------------------------------


def _colour(card: str) -> str:
    if card in ("WB", "WR"):
        return "black" if card == "WB" else "red"
    return "black" if card[1] in "CS" else "red"


RULES = {  # kind: (set or run, size, colour, off-colour cards allowed)
    "single-black": ("set", 1, "black", 0), "single-red": ("set", 1, "red", 0),
    "black-pair": ("set", 2, "black", 0), "red-run-2": ("run", 2, "red", 0),
    "red-triple": ("set", 3, "red", 1), "black-run-3": ("run", 3, "black", 1),
    "black-four": ("set", 4, "black", 0), "red-run-4": ("run", 4, "red", 0),
}


def brute_force_melds(hand: list[str], wb: int, wr: int, used: set[str], floor: int) -> set[str]:
    """Every meld by trying every multiset of cards against the rulebook's definitions."""
    tokens = hand + ["WB"] * wb + ["WR"] * wr
    out = set()
    for size in range(1, 5):
        for combo in set(tuple(sorted(c)) for c in combinations(tokens, size)):
            nat = sorted((c for c in combo if c not in ("WB", "WR")), key=lambda c: (RANKS.index(c[0]), c[1]))
            ranks = [RANKS.index(c[0]) for c in nat]
            for name, (kind, n, colour, off) in RULES.items():
                if n != size or name in used:
                    continue
                if sum(1 for c in combo if _colour(c) != colour) > off:
                    continue
                if kind == "set" and len(set(ranks)) > 1:
                    continue
                if kind == "run" and (len(set(ranks)) != len(ranks) or (ranks and max(ranks) - min(ranks) >= n)):
                    continue
                if ranks and min(ranks) < floor:
                    continue
                cards_ = nat + ["WB"] * combo.count("WB") + ["WR"] * combo.count("WR")
                out.add(f"meld {name} " + ",".join(cards_))
    return out


@settings(max_examples=40, deadline=None, database=None)
@given(
    hand=st.lists(st.sampled_from(CARD_NAMES), min_size=0, max_size=13, unique=True),
    wb=st.integers(0, 4), wr=st.integers(0, 4),
    used=st.sets(st.sampled_from(MELD_TYPES), max_size=7),
    cur=st.integers(-1, 12),
)
def test_legal_melds_are_exactly_the_rulebook_melds(hand, wb, wr, used, cur):
    if not hand and not wb and not wr:
        hand = ["5C"]
    g = shedding([["3D"], [], []])
    p = g.to_play
    mask = sum(1 << CARD_NAMES.index(c) for c in hand)
    g.hands[p], g.hb[p], g.hr[p] = mask, wb, wr
    g.blocked = sum(1 << MELD_TYPES.index(t) for t in used)
    g.cur = cur
    g._legal = None
    expected = brute_force_melds(hand, wb, wr, used, max(cur, 0))
    melds = [a for a in g.legal_actions() if a != "pass"]
    assert set(melds) == expected
    assert g.legal_actions() == sorted(g.legal_actions())
    assert ("pass" in g.legal_actions()) == (cur >= 0)


def _random_hand(rng: random.Random) -> tuple[int, int, int]:
    """A random hand: some natural cards (bit mask) and a few A cards of each colour."""
    mask = sum(1 << c for c in rng.sample(range(52), rng.randrange(0, 20)))
    return mask, rng.choice([0, 0, 0, 1, 2, 3, 4, 6]), rng.choice([0, 0, 0, 1, 2, 3, 4, 6])


def test_fast_melds_equal_trying_every_rank_over_many_random_hands():
    """The bit-parallel meld finder (the fast path of every play-out) lists exactly what trying
    every rank of every meld type lists, in the same order, over many seeded random hands, used
    meld types and ranks to meet."""
    rng = random.Random(2026)
    for _ in range(4000):
        h, wb, wr = _random_hand(rng)
        blocked = rng.getrandbits(8) if rng.random() < 0.7 else 0
        cur = rng.randrange(-1, 13)
        assert hand_melds(h, wb, wr, blocked, cur) == reference_melds(h, wb, wr, blocked, cur)


def test_a_follower_with_few_cards_that_high_lists_the_reference_melds_or_only_the_pass():
    """Following a meld with no single left to play and one or two cards of the rank to meet or
    higher - the turns the shortcut to a lone pass answers (at most one such card of each colour),
    and the two-card ones just beside it (a black pair, a red run of two) - lists exactly what
    trying every rank lists."""
    rng = random.Random(88)
    passes = melds = 0
    for _ in range(4000):
        cur = rng.randrange(1, 13)
        high = [c for c in range(52) if c >> 2 >= cur]
        low = [c for c in range(52) if c >> 2 < cur]
        cards = rng.sample(high, rng.choice((1, 1, 2))) + rng.sample(low, rng.randrange(0, min(8, len(low)) + 1))
        h = sum(1 << c for c in cards)
        # Mostly states whose singles cannot be played (both used, or one used and no card of the
        # other's colour), some where they can.
        blocked = rng.getrandbits(6) | rng.choice((192, 192, 64, 128, 0))
        expected = reference_melds(h, 0, 0, blocked, cur) + ["pass"]
        bl, rd = split_hand(h)
        assert natural_melds(bl, rd, blocked, cur, True) == expected
        assert natural_melds(bl, rd, blocked, cur) == expected[:-1]
        if expected == ["pass"]:
            passes += 1
        else:
            melds += 1
    assert passes > 1000 and melds > 500


def test_a_hand_with_few_cards_that_high_lists_the_reference_melds():
    """Leading or following with one to three cards of the rank to meet or higher - the turns that
    skip the meld types they cannot make (at most one card of each colour: singles only; two black
    cards: a black pair at most; two red ones: a red run of two at most) and the three-card ones
    just beside them - lists exactly what trying every rank lists, whichever spaces are used."""
    rng = random.Random(99)
    seen: set[str] = set()
    for _ in range(6000):
        cur = rng.randrange(-1, 13)
        lo = max(cur, 0)
        high = [c for c in range(52) if c >> 2 >= lo]
        low = [c for c in range(52) if c >> 2 < lo]
        colour = rng.choice((None, BLACK_SUITS, RED_SUITS))  # often of one colour only
        pool = [c for c in high if colour is None or 1 << (c & 3) & colour]
        cards = rng.sample(pool, min(rng.choice((1, 2, 2, 3)), len(pool))) + rng.sample(low, rng.randrange(0, min(6, len(low)) + 1))
        h = sum(1 << c for c in cards)
        blocked = rng.getrandbits(8) & rng.choice((0, 0xFF, 0xC0, 0x3F))
        passing = cur >= 0
        expected = reference_melds(h, 0, 0, blocked, cur) + (["pass"] if passing else [])
        bl, rd = split_hand(h)
        assert natural_melds(bl, rd, blocked, cur, passing) == expected
        seen.update(a.split()[1] for a in expected if a != "pass")
    # Every kind a few cards can make came out, and the three-card ones beside them.
    assert {"single-black", "single-red", "black-pair", "red-run-2", "black-run-3", "red-triple"} <= seen


def test_a_game_keeps_its_state_in_slots_and_clones_alike():
    """Every attribute of a game is a slot (the fast attribute path of CPython; without slots the
    game's 37 attributes lived in a dict), for a new game, a clone and a loaded save alike."""
    g = SumidaRiver.new(3, seed=4)
    for game in (g, g.clone(), SumidaRiver.from_json(g.to_json())):
        assert not vars(game)  # nothing outside the slots
        assert all(hasattr(game, name) for name in SumidaRiver.__slots__)


def test_shedding_turns_of_random_games_list_the_reference_melds_and_apply_like_the_checked_path():
    """Along many seeded random games (both player counts), every shedding turn lists exactly the
    melds found by trying every rank (the game's colour masks, kept up to date by apply, must agree
    with its hands), and playing a listed action - which apply does without re-checking it -
    leaves the same game as playing it through the full checks."""
    rng = random.Random(5)
    turns = 0
    for seed in range(12):
        g = SumidaRiver.new(3 + seed % 2, seed)
        while not g.is_over:
            legal = g.legal_actions()
            if g.phase == "play":
                p = g.to_play
                assert p is not None
                expected = reference_melds(g.hands[p], g.hb[p], g.hr[p], g.blocked, g.cur)
                assert legal == expected + (["pass"] if g.cur >= 0 else [])
                turns += 1
            action = rng.choice(legal)
            checked = g.clone()
            checked._legal = None  # not listed: apply checks the action itself
            g.apply(action)
            checked.apply(action)
            assert json.dumps(checked.to_json(), sort_keys=True) == json.dumps(g.to_json(), sort_keys=True)
            if not g.is_over:
                assert checked.legal_actions() == g.legal_actions()
    assert turns > 1500


def test_card_names_and_colour_masks_of_a_hand_follow_its_cards_one_by_one():
    """mask_names and split_hand read a hand a byte at a time from tables; over many seeded random
    hands they must give what going through the 52 cards one by one gives (names in rank order;
    clubs and spades in the black mask, diamonds and hearts in the red one, two bits a rank)."""
    rng = random.Random(17)
    for _ in range(3000):
        h = rng.getrandbits(52) & rng.getrandbits(52) if rng.random() < 0.5 else rng.getrandbits(52)
        cards_ = [c for c in range(52) if h >> c & 1]
        assert sumida_river.mask_names(h) == [CARD_NAMES[c] for c in cards_]
        bl = sum(1 << (2 * (c >> 2) + (c & 3 == 3)) for c in cards_ if c & 3 in (0, 3))
        rd = sum(1 << (2 * (c >> 2) + (c & 3 == 2)) for c in cards_ if c & 3 in (1, 2))
        assert sumida_river.split_hand(h) == (bl, rd)


def test_a_rank_s_meld_table_read_out_of_bit_sets_equals_building_it():
    """A meld table missing from the cache is read out of three bit sets (the rank's melds that
    the hand's black cards, red cards and A cards allow); for every type and rank and many seeded
    random hands and A-card counts it must list exactly what building the melds from the suit bits
    and A cards lists, in the same order. Different keys often allow the same melds (the read-out
    is then taken from the selector's own cache), so the keys come in a seeded random order."""
    rng = random.Random(11)
    for t, (_, size, _, off) in enumerate(SPEC):
        bm, rm, sh = sumida_river._SPLIT_KEY[t]
        for r in range(13):
            for _ in range(80):
                h = rng.getrandbits(52) & rng.getrandbits(52)
                wm, wo = rng.randrange(size), rng.randrange(off + 1)
                bl, rd = split_hand(h)
                key = (bl >> 2 * r) & bm | ((rd >> 2 * r) & rm) << sh | (wm << 1 | wo) << 12
                bits = (h >> 4 * r) & 0xFFFF & sumida_river.RELEVANT[t]
                expected = sumida_river._build_combos(t, r, bits, wm, wo)
                assert sumida_river._table_melds(t, 2 * r, key) == expected, (MELD_TYPES[t], r, h, wm, wo)


def test_a_well_formed_meld_is_accepted_exactly_when_it_is_listed():
    """apply() checks a meld without searching the legal actions: it must accept every listed
    meld and refuse (leaving the game unchanged) every other one, here melds of other hands."""
    rng = random.Random(7)
    for seed in range(4):
        g = SumidaRiver.new(3 + seed % 2, seed)
        while not g.is_over:
            if g.phase == "play":
                legal = set(g.legal_actions())
                h, wb, wr = _random_hand(rng)
                others = hand_melds(h, wb, wr, 0, -1)
                for action in rng.sample(others, min(6, len(others))) + sorted(legal)[:3]:
                    trial = g.clone()
                    before = json.dumps(trial.to_json(), sort_keys=True)
                    try:
                        trial.apply(action)
                        assert action in legal, action
                    except IllegalMove:
                        assert action not in legal, action
                        assert json.dumps(trial.to_json(), sort_keys=True) == before
            g.apply(rng.choice(g.legal_actions()))


# ----- hidden information ------------------------------------------------------------------------------


def visible_cards(obs: Any) -> set[str]:
    """Every natural card named anywhere in an observation (events excluded)."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k != "events":
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            for part in x.replace(",", " ").split():
                if part in DECK:
                    found.add(part)

    walk(obs)
    return found


@pytest.mark.parametrize("players", [3, 4])
@FAST
@given(seed=seeds)
def test_no_observation_shows_a_card_hidden_from_its_player(players, seed):
    for i, g in enumerate(random_game(players, seed)):
        if i % 3:
            continue
        zones = g.card_zones()
        public = set(zones["trick"]) | set(zones["cleared"])
        for p in range(players):
            obs = g.observation(p)
            json.dumps(obs)
            known = {c for cs in obs["known"].values() for c in cs}
            allowed = set(zones[f"hand:{p}"]) | public | known
            assert visible_cards(obs) <= allowed
            # What p "knows" is really there.
            for q, cs in obs["known"].items():
                zone = zones["undealt"] if q == "undealt" else zones[f"hand:{q}"]
                assert set(cs) <= set(zone)
            assert all("to" not in e or p in e["to"] for e in obs["events"])


def test_resample_keeps_what_the_player_knows_hearts_style():
    """In the manner of OpenSpiel's hearts test: re-deal everything a seat cannot see, many times,
    along random games; the seat's observation never changes, the cards it knows the place of
    stay there, and the re-deal really moves the others."""
    for players, seed in ((3, 11), (4, 12), (3, 13)):
        g = SumidaRiver.new(players, seed)
        rng = random.Random(seed)
        # A trade first, so seats know hands they passed on.
        while g.phase in ("declare", "add"):
            g.apply("trade" if g.phase == "declare" else g.legal_actions()[0])
        steps = 0
        moved = Counter()
        while not g.is_over and steps < 120:
            for p in range(players):
                obs = g.observation(p)
                zones = g.card_zones()
                for k in range(3):
                    r = g.resample_hidden(p, random.Random(k + 100 * steps))
                    assert r.observation(p) == obs
                    rz = r.card_zones()
                    assert Counter(c for z in rz.values() for c in z) == Counter(
                        c for z in zones.values() for c in z)
                    for q, cs in obs["known"].items():
                        zone = "undealt" if q == "undealt" else f"hand:{q}"
                        assert set(cs) <= set(rz[zone]), "a card p knows the place of moved"
                    for zone in zones:
                        if zone.startswith("hand:") and zone != f"hand:{p}":
                            assert len(rz[zone]) == len(zones[zone])
                            moved[p] += rz[zone] != zones[zone]
                        elif not zone.startswith("hand:") and zone != "undealt":
                            assert rz[zone] == zones[zone], f"public zone {zone} changed"
                    assert rz[f"hand:{p}"] == zones[f"hand:{p}"]
                    # The copy carries no event p could not see.
                    assert all("to" not in e or p in e["to"] for e in r.events)
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
        assert all(moved[p] > 0 for p in range(players))


def test_resample_during_declarations_redraws_the_others_secret_choices():
    g = SumidaRiver.new(3, 6)
    g.apply("trade")  # seat 0's secret
    outcomes = set()
    for k in range(30):
        r = g.resample_hidden(1, random.Random(k))
        r.apply("keep")
        r.apply("keep")
        outcomes.add(r.phase)
    # Seat 1 cannot know seat 0 traded: in some copies seat 0 kept (no trade), in others it
    # traded alone.
    assert outcomes == {"play", "solo"}


def test_passed_hands_and_the_red_three_stay_known_in_every_resample():
    g = SumidaRiver.new(3, 21)
    play(g, [(0, "trade"), (1, "trade"), (2, "keep"), (0, "add 1 black 0 red"), (1, "add 1 black 0 red")])
    passed_by_0 = set(g.observation(1)["hand"]) - {"WB", "WR"}
    play(g, [(0, "keep"), (1, "keep")])
    zones = g.card_zones()
    red3 = next(z for z, cs in zones.items() if "3D" in cs)
    assert red3 == "undealt" or red3 == f"hand:{g.to_play}"
    for viewer in range(3):
        for k in range(20):
            r = g.resample_hidden(viewer, random.Random(k))
            if viewer == 0:
                assert passed_by_0 <= set(r.card_zones()["hand:1"])
            assert "3D" in r.card_zones()[red3]


def test_what_a_seat_knows_of_a_hand_loses_the_cards_that_hand_plays():
    """Melds leave the others' knowledge as it was (apply does not rewrite it): what a seat is
    shown as knowing - in its observation, the saved game and the OpenSpiel tensors - is always
    still in the hand it is about, and a passed hand's cards stay known until they are played."""
    rng = random.Random(3)
    checked = dropped = 0
    for seed in range(30):
        g = SumidaRiver.new(3 + seed % 2, seed)
        n = g.num_players
        while not g.is_over:
            for r in range(n):
                for q, names in g.observation(r)["known"].items():
                    held = g.card_zones()["undealt" if q == "undealt" else f"hand:{q}"]
                    assert set(names) <= set(held)
                    checked += len(names)
                for q in range(n):
                    dropped += g.known[r * (n + 1) + q] & ~g.hands[q] != 0  # played since it was seen
            saved = g.to_json()
            for i, names in enumerate(saved["known"]):
                q = i % (n + 1)
                assert set(names) <= set(saved["hands"][q] if q < n else saved["undealt"])
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 1000 and dropped > 100


# ----- engine promises ------------------------------------------------------------------------------------


def zones_count(g: SumidaRiver) -> Counter:
    return Counter(c for z in g.card_zones().values() for c in z)


@pytest.mark.parametrize("players", [3, 4])
@FAST
@given(seed=seeds)
def test_random_games_end_conserving_every_card_and_accept_every_listed_action(players, seed):
    first = None
    rng = random.Random(seed)
    seen: set[str] = set()
    count = 0
    for i, g in enumerate(random_game(players, seed)):
        z = zones_count(g)
        first = first or z
        assert z == first and len(z) == 64 and max(z.values()) == 1
        legal = g.legal_actions()
        seen.update(legal)
        count += 1
        assert count < 5000
        if i % 5 == 0 and legal:
            for a in legal:
                g.clone().apply(a)
            before = json.dumps(g.to_json(), sort_keys=True)
            for a in rng.sample(sorted(seen - set(legal)), min(5, len(seen - set(legal)))):
                with pytest.raises(IllegalMove):
                    g.apply(a)
                assert json.dumps(g.to_json(), sort_keys=True) == before
    assert g.is_over and g.winners()


@pytest.mark.parametrize("players", [3, 4])
@FAST
@given(seed=seeds, prefix=st.integers(0, 300))
def test_json_round_trip_mid_game_continues_identically(players, seed, prefix):
    g = SumidaRiver.new(players, seed)
    rng = random.Random(seed)
    for _ in range(prefix):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    r = SumidaRiver.from_json(json.loads(json.dumps(g.to_json())))
    while True:
        assert r.to_json() == json.loads(json.dumps(g.to_json()))
        assert r.legal_actions() == g.legal_actions()
        if g.is_over:
            break
        a = rng.choice(g.legal_actions())
        g.apply(a)
        r.apply(a)
    assert r.returns() == g.returns()


@pytest.mark.parametrize("players", [3, 4])
@FAST
@given(seed=seeds)
def test_resample_hidden_keeps_the_observation_along_random_games(players, seed):
    for i, g in enumerate(random_game(players, seed)):
        if i % 7:
            continue
        for p in range(players):
            r = g.resample_hidden(p, random.Random(i + p))
            assert r.observation(p) == g.observation(p)
            assert zones_count(r) == zones_count(g)


def test_from_json_names_the_bad_field():
    d = SumidaRiver.new(3, 1).to_json()
    for key, value in [("hands", [["5C"], []]), ("phase", "nap"), ("a_table", [[9, 9]] * 3),
                       ("trick", [[0, "black-pair", "meld black-pair 5C,5D", 2]]),
                       ("known", [["ZZ"]] * 12), ("to_move", 7)]:
        bad = dict(d, **{key: value})
        with pytest.raises(ValueError) as info:
            SumidaRiver.from_json(bad)
        assert key in str(info.value)


def test_illegal_actions_name_the_problem():
    g = shedding([["3D", "5C"], ["5S"], []])
    refused(g, "meld single-black 5S", "you do not hold 5S")
    refused(g, "meld single-black WB", "you hold 0 Black A")
    refused(g, "keep", "not an action now")
    refused(g, "meld five-of-a-kind 5C", "not a meld type")


# ----- the rule-of-thumb player -----------------------------------------------------------------------------


def test_heuristic_always_chooses_a_legal_action_and_beats_random_players():
    wins = 0
    games = 24
    for seed in range(games):
        g = SumidaRiver.new(3, seed)
        rng = random.Random(seed)
        hero = seed % 3
        while not g.is_over:
            p = g.to_play
            if p == hero:
                a = heuristic_action(g, p, rng)
                assert a in g.legal_actions()
            else:
                a = rng.choice(g.legal_actions())
            g.apply(a)
        wins += hero in g.winners()
    # A random seat wins about a third of the games.
    assert wins > games / 2
