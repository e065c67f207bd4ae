"""SUMO (the two-player trick-taking game): concrete deals replayed step by step, then properties.

Seat 0 sits on the left, seat 1 on the right; the wrestlers' position is -1 (left edge, next to
seat 0), 0 (centre) or +1 (right edge, next to seat 1). Hearts and diamonds are red, clubs and
spades black.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards import GAMES, IllegalMove
from cards.sumo import DECK, Sumo, heuristic_action

# Deal A: the four undealt cards are 3D, 4S, 5C and 5S.
A0 = ["1C", "1D", "1H", "2C", "2S", "3H", "4C", "5D"]
A1 = ["1S", "2D", "2H", "3C", "3S", "4D", "4H", "5H"]


def play(g: Sumo, *actions: str) -> Sumo:
    for a in actions:
        g.apply(a)
    return g


def frozen(g: Sumo) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def assert_refused(g: Sumo, action: object, *words: str) -> None:
    before = frozen(g)
    with pytest.raises(IllegalMove) as exc:
        g.apply(action)  # type: ignore[arg-type]
    for w in words:
        assert w in str(exc.value)
    assert frozen(g) == before


# ----- the deck and the deal -----------------------------------------------------------------------
def test_registered_for_two_players_only():
    assert GAMES["sumo"] is Sumo
    assert Sumo.player_counts == (2,)
    with pytest.raises(ValueError, match="players"):
        Sumo.new(players=3)


def test_deal_eight_cards_each_and_four_undealt_from_twenty():
    assert sorted(DECK) == sorted(f"{r}{s}" for r in "12345" for s in "CDHS")
    g = Sumo.new(seed=11)
    zones = g.card_zones()
    assert len(zones["hand0"]) == len(zones["hand1"]) == 8
    assert len(zones["undealt"]) == 4
    assert sorted(c for z in zones.values() for c in z) == sorted(DECK)
    # Nobody sees the undealt cards.
    for p in (0, 1):
        seen = json.dumps(g.observation(p))
        assert all(c not in seen for c in zones["undealt"])
        assert g.observation(p)["undealt_count"] == 4


def test_same_seed_same_deal_and_seeds_differ():
    assert Sumo.new(seed=5).card_zones() == Sumo.new(seed=5).card_zones()
    assert len({json.dumps(Sumo.new(seed=s).card_zones()) for s in range(10)}) > 1


def test_options_are_checked():
    with pytest.raises(ValueError, match="colours"):
        Sumo.new(colours="blue")
    with pytest.raises(ValueError, match="unknown option"):
        Sumo.new(trumps="H")
    with pytest.raises(ValueError, match="hands"):
        Sumo.new(hands=[A0, A0])
    with pytest.raises(ValueError, match="hands"):
        Sumo.new(hands=[A0[:7], A1])
    with pytest.raises(ValueError, match="hands"):
        Sumo.new(hands=[A0[:7] + ["6H"], A1])


# ----- who leads first -------------------------------------------------------------------------------
def test_higher_reveal_leads_and_revealed_cards_are_set_aside():
    g = Sumo.new(hands=[A0, A1])
    assert g.to_play == 0 and g.observation(0)["phase"] == "reveal"
    play(g, "reveal 4C")
    assert g.to_play == 1  # seat 1 reveals second ...
    play(g, "reveal 3S")
    assert g.to_play == 0  # ... and the 4 beats the 3: seat 0 leads
    assert g.observation(1)["phase"] == "play"
    assert "4C" not in g.hands[0] and "3S" not in g.hands[1]
    assert g.observation(1)["set_aside"] == [["4C"], ["3S"]]
    assert len(g.hands[0]) == len(g.hands[1]) == 7
    # The leader may lead any card, including ones of the revealed suit.
    assert g.legal_actions() == ["play " + c for c in sorted(set(A0) - {"4C"})]


def test_lower_reveal_seat_zero_lets_seat_one_lead():
    g = play(Sumo.new(hands=[A0, A1]), "reveal 1C", "reveal 5H")
    assert g.to_play == 1


def test_tied_reveal_is_repeated_and_suits_do_not_break_ties():
    g = Sumo.new(hands=[A0, A1])
    play(g, "reveal 1C", "reveal 1S")  # a tie: both reveal again
    assert g.to_play == 0 and g.observation(0)["phase"] == "reveal"
    assert "reveal 1C" not in g.legal_actions()  # a revealed card is gone from the hand
    play(g, "reveal 5D", "reveal 5H")  # tie again, though red against red
    assert g.to_play == 0 and g.observation(0)["phase"] == "reveal"
    play(g, "reveal 2C", "reveal 4D")
    assert g.to_play == 1 and g.observation(0)["phase"] == "play"
    assert g.observation(0)["set_aside"] == [["1C", "5D", "2C"], ["1S", "5H", "4D"]]
    assert len(g.hands[0]) == len(g.hands[1]) == 5


def test_seat_one_reveals_without_seeing_seat_zero_card():
    g = play(Sumo.new(hands=[A0, A1]), "reveal 5D")
    o1 = g.observation(1)
    assert "5D" not in json.dumps(o1)
    assert o1["face_down"] == [True, False] and o1["hand_sizes"] == [7, 8]
    assert g.observation(0)["my_face_down"] == "5D"
    play(g, "reveal 5H")  # both turned up together
    assert any(e["type"] == "reveal" and e["cards"] == ["5D", "5H"] for e in g.observation(1)["events"])


def test_all_eight_reveals_tied_means_shuffle_and_redeal():
    h0 = ["1C", "2C", "3C", "4C", "5C", "1D", "2D", "3D"]
    h1 = ["1S", "2S", "3S", "4S", "5S", "1H", "2H", "3H"]
    g = Sumo.new(seed=3, hands=[h0, h1])
    for a, b in zip(["1C", "2C", "3C", "4C", "5C", "1D", "2D", "3D"], ["1S", "2S", "3S", "4S", "5S", "1H", "2H", "3H"], strict=True):
        assert g.observation(0)["deal"] == 1
        play(g, "reveal " + a, "reveal " + b)
    obs = g.observation(0)
    assert obs["deal"] == 2 and obs["phase"] == "reveal" and g.to_play == 0
    assert obs["set_aside"] == [[], []] and obs["hand_sizes"] == [8, 8]
    assert sorted(c for z in g.card_zones().values() for c in z) == sorted(DECK)


def test_eighth_reveal_leaves_no_card_to_play_so_it_redeals_too():
    h0 = ["1C", "2C", "3C", "4C", "5C", "1D", "2D", "3D"]
    h1 = ["1S", "2S", "3S", "4S", "5S", "1H", "2H", "4H"]
    g = Sumo.new(seed=3, hands=[h0, h1])
    for a, b in zip(h0[:7], h1[:7], strict=True):
        play(g, "reveal " + a, "reveal " + b)
    play(g, "reveal 3D", "reveal 4H")  # 4 beats 3, but both hands are now empty
    assert g.observation(0)["deal"] == 2 and g.observation(0)["phase"] == "reveal"
    assert g.observation(0)["hand_sizes"] == [8, 8]


# ----- tricks and the ring --------------------------------------------------------------------------
def test_must_follow_suit_when_able():
    g = play(Sumo.new(hands=[A0, A1]), "reveal 4C", "reveal 3S", "play 3H")
    assert g.to_play == 1
    assert g.legal_actions() == ["play 2H", "play 4H", "play 5H"]
    assert_refused(g, "play 3C", "you must follow suit", "heart")


def test_winner_pushes_away_twice_from_centre_is_out():
    g = play(Sumo.new(hands=[A0, A1]), "reveal 4C", "reveal 3S")
    play(g, "play 5D", "play 2D")  # diamonds followed, 5 beats 2: seat 0 wins the trick
    assert g.wrestler == 1  # pushed away from seat 0, to the right edge next to seat 1
    assert g.to_play == 0  # the winner leads
    play(g, "play 3H", "play 2H")  # seat 1 follows low again
    assert g.is_over and g.winners() == [0] and g.reason == "pushed out"
    assert g.returns() == [1.0, -1.0]
    assert g.legal_actions() == []
    assert_refused(g, "play 1C", "game is over")


def test_off_suit_follower_loses_even_with_higher_card():
    # Seat 1 holds no club at all.
    h0 = ["1C", "2C", "3C", "3D", "4C", "4H", "5C", "5D"]
    h1 = ["1D", "1H", "1S", "2D", "2H", "2S", "3H", "5H"]
    g = play(Sumo.new(hands=[h0, h1]), "reveal 4H", "reveal 3H", "play 2C")
    assert g.legal_actions() == ["play " + c for c in sorted(set(h1) - {"3H"})]  # void: anything
    play(g, "play 5H")
    assert g.wrestler == 1 and g.to_play == 0  # the leader won


def test_pushes_go_back_and_forth():
    g = play(Sumo.new(hands=[A0, A1]), "reveal 4C", "reveal 3S")
    play(g, "play 2S", "play 1S")  # spades: 2 beats 1, seat 0 wins
    assert g.wrestler == 1
    play(g, "play 3H", "play 5H")  # seat 1 wins and pushes back to the centre
    assert g.wrestler == 0 and g.to_play == 1
    play(g, "play 2H", "play 1H")  # seat 1 wins again: left edge, next to seat 0
    assert g.wrestler == -1 and not g.is_over
    play(g, "play 3C", "play 2C")  # and once more: out on the left, seat 1 wins
    assert g.winners() == [1] and g.reason == "pushed out"


def test_final_trick_winner_wins_when_nobody_is_pushed_out():
    h0 = ["5H", "3C", "4D", "4S", "3H", "5S", "2D", "5C"]
    h1 = ["1S", "2C", "5D", "3S", "4H", "2S", "3D", "4C"]
    g = play(Sumo.new(hands=[h0, h1]), "reveal 5H", "reveal 1S")
    tricks = [  # (lead, follow, winner, wrestler afterwards)
        ("3C", "2C", 0, 1),
        ("4D", "5D", 1, 0),
        ("3S", "4S", 0, 1),
        ("3H", "4H", 1, 0),
        ("2S", "5S", 0, 1),
        ("2D", "3D", 1, 0),
    ]
    for lead, follow, winner, pos in tricks:
        assert not g.is_over
        play(g, "play " + lead, "play " + follow)
        assert g.to_play == winner and g.wrestler == pos
    play(g, "play 4C", "play 5C")  # the seventh and last trick: seat 0 wins it inside the ring
    assert g.wrestler == 1
    assert g.winners() == [0] and g.reason == "final trick"


# ----- sumo moves -----------------------------------------------------------------------------------
def test_abise_taoshi_same_suit_four_on_a_led_one():
    g = play(Sumo.new(hands=[A0, A1]), "reveal 4C", "reveal 3S", "play 1H", "play 4H")
    assert g.winners() == [1] and g.reason == "abise-taoshi"
    assert g.wrestler == 0  # an instant win, wherever the wrestlers stand


def test_sumo_move_must_obey_follow_suit():
    # Seat 1 holds hearts, so the red 4D cannot answer the 1H.
    g = play(Sumo.new(hands=[A0, A1]), "reveal 4C", "reveal 3S", "play 1H")
    assert "play 4D" not in g.legal_actions()
    assert_refused(g, "play 4D", "follow suit")


# Deal B: seat 1 has no hearts, so it may answer a heart lead with anything.
B0 = ["1C", "1H", "2H", "3H", "4C", "5C", "5H", "5S"]
B1 = ["1D", "1S", "2C", "2D", "2S", "3S", "4D", "4S"]


def test_abise_taoshi_with_same_colour_other_suit_when_void():
    g = play(Sumo.new(hands=[B0, B1]), "reveal 5C", "reveal 3S", "play 1H", "play 4D")
    assert g.winners() == [1] and g.reason == "abise-taoshi"


def test_off_colour_four_on_a_led_one_is_no_sumo_move():
    g = play(Sumo.new(hands=[B0, B1]), "reveal 5C", "reveal 3S", "play 1H", "play 4S")
    assert not g.is_over
    assert g.wrestler == 1 and g.to_play == 0  # off suit: the leader wins the trick


def test_hikiotoshi_one_on_a_led_five_wins_though_lower():
    g = play(Sumo.new(hands=[B0, B1]), "reveal 4C", "reveal 3S", "play 5S")
    assert g.legal_actions() == ["play 1S", "play 2S", "play 4S"]
    play(g, "play 1S")
    assert g.winners() == [1] and g.reason == "hikiotoshi"


def test_hikiotoshi_same_colour_other_suit_when_void_but_not_off_colour():
    g = play(Sumo.new(hands=[B0, B1]), "reveal 4C", "reveal 3S", "play 5H", "play 1D")
    assert g.winners() == [1] and g.reason == "hikiotoshi"
    g = play(Sumo.new(hands=[B0, B1]), "reveal 4C", "reveal 3S", "play 5H", "play 1S")
    assert not g.is_over and g.wrestler == 1  # black 1 on a red 5: seat 0 simply wins


def test_seat_one_wins_a_trick_and_pushes_left():
    # Seat 1 leads a 1, seat 0 has no diamond: a led 1 makes no sumo move by itself.
    g = play(Sumo.new(hands=[B0, B1]), "reveal 3H", "reveal 4D", "play 1D")
    assert g.legal_actions() == ["play " + c for c in sorted(set(B0) - {"3H"})]  # seat 0 void
    play(g, "play 5C")
    assert g.wrestler == -1 and g.to_play == 1  # off suit: leader seat 1 wins, pushes left


def wucchari_position(colours: str = "red-black") -> Sumo:
    """Seat 0 has won one trick: the wrestlers stand on the right edge, next to seat 1."""
    g = play(Sumo.new(hands=[B0, B1], colours=colours), "reveal 5S", "reveal 1S")
    play(g, "play 5C", "play 2C")  # clubs followed, 5 beats 2
    assert g.wrestler == 1 and g.to_play == 0
    return g


def test_wucchari_off_colour_two_at_your_edge():
    g = play(wucchari_position(), "play 3H", "play 2S")  # seat 1 has no hearts: black 2 on red
    assert g.winners() == [1] and g.reason == "wucchari"


def test_same_colour_two_at_your_edge_is_no_wucchari():
    g = play(wucchari_position(), "play 3H", "play 2D")  # red 2 on red: seat 0 pushes seat 1 out
    assert g.winners() == [0] and g.reason == "pushed out"


def test_off_colour_two_away_from_your_edge_is_no_wucchari():
    g = play(Sumo.new(hands=[B0, B1]), "reveal 5S", "reveal 1S", "play 3H", "play 2S")
    assert not g.is_over and g.wrestler == 1  # centre before: just a lost trick


def test_wucchari_for_the_left_seat_at_the_left_edge():
    h0 = ["1C", "2C", "2S", "3C", "3D", "4C", "5C", "5S"]  # no hearts
    h1 = ["1D", "1H", "2D", "3H", "4D", "4H", "5D", "3S"]
    g = play(Sumo.new(hands=[h0, h1]), "reveal 1C", "reveal 3S", "play 4D")
    assert g.legal_actions() == ["play 3D"]  # seat 0 must follow diamonds, and loses
    play(g, "play 3D")
    assert g.wrestler == -1 and g.to_play == 1  # pushed to the edge next to seat 0
    play(g, "play 3H", "play 2S")  # seat 0, void in hearts, throws the black 2 on the red lead
    assert g.winners() == [0] and g.reason == "wucchari"


def test_suits_variant_same_colour_means_same_suit():
    g = play(Sumo.new(hands=[B0, B1], colours="suits"), "reveal 5C", "reveal 3S", "play 1H", "play 4D")
    assert not g.is_over and g.wrestler == 1  # 4D is off suit: no Abise-taoshi here
    g = play(wucchari_position("suits"), "play 3H", "play 2D")  # off suit counts as off colour
    assert g.winners() == [1] and g.reason == "wucchari"


# ----- refusals and saved games ------------------------------------------------------------------------
def test_refusals_name_the_problem_and_change_nothing():
    g = Sumo.new(hands=[A0, A1])
    assert_refused(g, "play 1C", "reveal")
    assert_refused(g, "reveal 9Z", "not a card")
    assert_refused(g, "reveal 1S", "do not hold")
    assert_refused(g, "shout", "not an action")
    assert_refused(g, 7, "not an action")
    play(g, "reveal 1C", "reveal 1S")
    assert_refused(g, "reveal 1C", "already revealed")
    play(g, "reveal 4C", "reveal 3S")
    assert_refused(g, "reveal 5D", "already decided")


def test_from_json_rejects_malformed_data_naming_the_field():
    good = play(Sumo.new(hands=[A0, A1]), "reveal 4C", "reveal 3S", "play 1H").to_json()
    Sumo.from_json(json.loads(json.dumps(good)))  # the good one loads

    def bad(field: str, value: object) -> None:
        d = json.loads(json.dumps(good))
        d[field] = value
        with pytest.raises(ValueError, match=field):
            Sumo.from_json(d)

    bad("hands", [["1C"]])
    bad("hands", [good["hands"][0], good["hands"][0]])  # a card twice, another missing
    bad("undealt", ["3D", "4S", "5C", "XX"])
    bad("phase", "bidding")
    bad("turn", 2)
    bad("wrestler", 5)
    bad("tricks", [[0, "1H"]])
    bad("void", ["Q", ""])
    bad("colours", "green")
    bad("rng", "nope")
    d = json.loads(json.dumps(good))
    del d["lead"]
    with pytest.raises(ValueError, match="lead"):
        Sumo.from_json(d)
    with pytest.raises(ValueError):
        Sumo.from_json([])  # type: ignore[arg-type]


def test_redeal_after_reload_uses_the_saved_generator():
    h0 = ["1C", "2C", "3C", "4C", "5C", "1D", "2D", "3D"]
    h1 = ["1S", "2S", "3S", "4S", "5S", "1H", "2H", "3H"]
    g = Sumo.new(seed=8, hands=[h0, h1])
    for a, b in zip(h0[:7], h1[:7], strict=True):
        play(g, "reveal " + a, "reveal " + b)
    saved = Sumo.from_json(json.loads(json.dumps(g.to_json())))
    copy = g.clone()
    for x in (g, saved, copy):
        play(x, "reveal 3D", "reveal 3H")
    assert g.card_zones() == saved.card_zones() == copy.card_zones()


# ----- the rule-of-thumb bot ----------------------------------------------------------------------------
def test_heuristic_takes_an_instant_win():
    g = play(Sumo.new(hands=[A0, A1]), "reveal 4C", "reveal 3S", "play 1H")
    assert heuristic_action(g, 1, random.Random(0)) == "play 4H"
    g = play(wucchari_position(), "play 3H")
    assert heuristic_action(g, 1, random.Random(0)) == "play 2S"


def test_heuristic_wins_a_trick_as_cheaply_as_it_can():
    g = play(Sumo.new(hands=[A0, A1]), "reveal 1C", "reveal 1S", "reveal 4C", "reveal 3S")
    play(g, "play 5D", "play 2D")  # the wrestlers now stand next to seat 1
    play(g, "play 3H")  # seat 1 holds 2H, 4H and 5H
    assert heuristic_action(g, 1, random.Random(0)) == "play 4H"


def test_heuristic_beats_random_play():
    wins = 0
    n = 300
    for i in range(n):
        g = Sumo.new(seed=500 + i)
        me = i % 2
        rng = random.Random(i)
        while not g.is_over:
            p = g.to_play
            g.apply(heuristic_action(g, p, rng) if p == me else rng.choice(g.legal_actions()))
        wins += g.winners() == [me]
    assert wins > 0.6 * n


# ----- properties --------------------------------------------------------------------------------------
def this_deal(obs: dict) -> dict:
    """The observation with only the events of the current deal (earlier deals name cards that
    have since been shuffled back and may now be hidden)."""
    events = obs["events"]
    starts = [i for i, e in enumerate(events) if e["type"] == "deal"]
    return dict(obs, events=events[starts[-1] :])


def hidden_from(g: Sumo, p: int) -> set[str]:
    z = g.card_zones()
    hidden = set(z[f"hand{1 - p}"]) | set(z["undealt"])
    if p == 1:
        hidden |= set(z["face_down"])
    return hidden


def strings_in(x: object) -> set[str]:
    if isinstance(x, str):
        return {x}
    if isinstance(x, dict):
        return set().union(*(strings_in(k) | strings_in(v) for k, v in x.items())) if x else set()
    if isinstance(x, (list, tuple)):
        return set().union(*(strings_in(v) for v in x)) if x else set()
    return set()


def random_states(seed: int, colours: str = "red-black"):
    """Every state of one random game (the game object itself, mutated step by step)."""
    rng = random.Random(seed)
    g = Sumo.new(seed=seed, colours=colours)
    yield g
    for _ in range(500):
        if g.is_over:
            return
        g.apply(rng.choice(g.legal_actions()))
        yield g
    raise AssertionError("a random game did not end within 500 actions")


seeds = st.integers(min_value=0, max_value=2**32 - 1)
colour_rules = st.sampled_from(["red-black", "suits"])
PROP = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROP
@given(seeds, colour_rules)
def test_prop_cards_conserved_games_end_and_returns_are_zero_sum(seed, colours):
    for g in random_states(seed, colours):
        zones = g.card_zones()
        assert sorted(c for z in zones.values() for c in z) == sorted(DECK)
        assert (g.is_over) == (g.legal_actions() == [])
        assert g.legal_actions() == sorted(g.legal_actions())
    assert g.is_over and sorted(g.returns()) == [-1.0, 1.0]


@PROP
@given(seeds)
def test_prop_listed_actions_accepted_unlisted_refused_unchanged(seed):
    probes = ["play " + c for c in DECK] + ["reveal " + c for c in DECK] + ["pass", "", None]
    for g in random_states(seed):
        legal = g.legal_actions()
        for a in legal:
            g.clone().apply(a)  # accepted
        before = frozen(g)
        for a in random.Random(seed).sample(probes, 8):
            if a not in legal:
                with pytest.raises(IllegalMove):
                    g.apply(a)
                assert frozen(g) == before


@PROP
@given(seeds, st.integers(min_value=0, max_value=20))
def test_prop_json_round_trip_mid_game_continues_identically(seed, steps):
    rng = random.Random(seed)
    g = Sumo.new(seed=seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    h = Sumo.from_json(json.loads(json.dumps(g.to_json())))
    c = g.clone()
    assert frozen(h) == frozen(g) == frozen(c)
    while not g.is_over:
        legal = g.legal_actions()
        a = rng.choice(legal)
        for x in (g, h, c):
            assert x.legal_actions() == legal
            x.apply(a)
        assert frozen(h) == frozen(g) == frozen(c)
    assert h.returns() == g.returns() == c.returns()


@PROP
@given(seeds)
def test_prop_no_observation_shows_a_hidden_card(seed):
    for g in random_states(seed):
        for p in (0, 1):
            obs = g.observation(p)
            json.dumps(obs)
            assert not (strings_in(this_deal(obs)) & hidden_from(g, p))


@PROP
@given(seeds, st.integers(min_value=0, max_value=2**32 - 1))
def test_prop_resample_keeps_the_players_view_and_the_bot_blind(seed, seed2):
    rng = random.Random(seed2)
    for g in random_states(seed):
        for p in (0, 1):
            r = g.resample_hidden(p, rng)
            assert r.observation(p) == g.observation(p)
            assert sorted(c for z in r.card_zones().values() for c in z) == sorted(DECK)
            # The other seat's resampled hand still honours the suits it showed it lacks.
            assert not any(c[1] in g.void[1 - p] for c in r.hands[1 - p])
            # The other seat's view of the clone knows nothing of the (resampled) undealt cards:
            # its secret log entries were rewritten to the new hand.
            assert not (strings_in(this_deal(r.observation(1 - p))) & set(r.undealt))
        if not g.is_over:
            p = g.to_play
            r = g.resample_hidden(p, rng)
            assert heuristic_action(r, p, random.Random(1)) == heuristic_action(g, p, random.Random(1))
            assert heuristic_action(g, p, random.Random(1)) in g.legal_actions()


# ----- short deals (for exact game-theory tools) -------------------------------------------------------


def test_a_short_deal_deals_fewer_cards_and_keeps_every_rule():
    g = Sumo.new(seed=2, hand_size=3)
    assert [len(h) for h in g.hands] == [3, 3] and len(g.undealt) == 14
    assert sorted(c for zone in g.card_zones().values() for c in zone) == sorted(DECK)
    h = Sumo.new(hand_size=2, hands=[["1C", "4C"], ["5H", "1H"]])
    play(h, "reveal 4C", "reveal 5H")  # 5 beats 4: seat 1 leads its last card
    play(h, "play 1H", "play 1C")  # off-suit: seat 1 wins the last trick
    assert h.winners() == [1] and h.reason == "final trick"
    for bad in (1, 9, "2", 2.0):
        with pytest.raises(ValueError, match="hand_size"):
            Sumo.new(hand_size=bad)
    with pytest.raises(ValueError, match="hands"):
        Sumo.new(hand_size=2, hands=[A0, A1])


def test_max_deals_ends_the_game_drawn_when_the_last_deal_ties_out():
    g = Sumo.new(hand_size=2, max_deals=1, hands=[["1C", "4C"], ["1S", "4H"]])
    play(g, "reveal 1C", "reveal 1S", "reveal 4C", "reveal 4H")  # two ties: every card revealed
    assert g.is_over and g.reason == "no deal left" and g.returns() == [0.0, 0.0]
    again = Sumo.from_json(json.loads(json.dumps(g.to_json())))
    assert again.is_over and again.returns() == [0.0, 0.0]
    unlimited = Sumo.new(hand_size=2, hands=[["1C", "4C"], ["1S", "4H"]])
    play(unlimited, "reveal 1C", "reveal 1S", "reveal 4C", "reveal 4H")
    assert not unlimited.is_over and unlimited.deal_no == 2  # the rulebook: deal again


def test_outside_chance_decides_the_deal_card_by_card_or_hand_by_hand():
    from cards.api import NO_OUTCOMES, NeedChance, OutsideChance

    with pytest.raises(NeedChance) as need:
        Sumo.new(chance=NO_OUTCOMES)
    assert need.value.kind == "deal" and sorted(need.value.options) == list(range(20))
    g = Sumo.new(chance=OutsideChance(range(19, 3, -1)))  # the sixteen highest card ids, in turn
    assert sorted(g.hands[0]) == sorted(DECK[19 - i] for i in range(8))
    assert sorted(g.undealt) == sorted(DECK[:4])
    with pytest.raises(NeedChance) as need:  # a two-card hand is one event: which pair
        Sumo.new(hand_size=2, chance=NO_OUTCOMES)
    assert need.value.kind == "deal hand" and len(need.value.options) == 190
    pair = (1 << 0) | (1 << 7)
    short = Sumo.new(hand_size=2, chance=OutsideChance([pair, (1 << 1) | (1 << 2)]))
    assert sorted(short.hands[0]) == sorted([DECK[0], DECK[7]])
    with pytest.raises(ValueError, match="not a possible outcome"):
        Sumo.new(hand_size=2, chance=OutsideChance([pair, pair]))  # those two cards are gone
