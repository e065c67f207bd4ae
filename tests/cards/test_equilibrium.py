"""The Equilibrium level's parts: the deals it enumerates, its model of the other seat, its reveal
game, each checked against the engine's own rules or a plain search."""
from __future__ import annotations

import math
import random

import pytest

from cards.bots import ISMCTSBot
from cards.equilibrium import EquilibriumBot, consistent_hands, unknown_cards
from cards.sumo import PLAY_PHASE, REVEAL_PHASE, Sumo
from cards.sumo_solver import cards_of, mask, solver_for
from tests.cards.test_sumo_solver import full_search


def random_tricks_position(seed: int, hand_size: int = 8, plays: int = 0) -> Sumo | None:
    """A game with the reveals over and ``plays`` random cards played, or None if it ended."""
    g = Sumo.new(seed=seed, hand_size=hand_size)
    rng = random.Random(seed)
    while not g.is_over and (g.phase != PLAY_PHASE or plays > 0):
        if g.phase == PLAY_PHASE:
            plays -= 1
        g.apply(rng.choice(g.legal_actions()))
    return None if g.is_over else g


def bot(**kw) -> EquilibriumBot:
    return EquilibriumBot(search=ISMCTSBot, **kw)


@pytest.mark.parametrize("plays", [0, 1, 2, 3, 5])
def test_enumerated_hands_are_every_hand_a_re_deal_can_give(plays):
    # resample_hidden re-deals what the seat cannot see, keeping what it knows (voids included):
    # over many re-deals it gives every consistent hand of the other seat, and only those.
    checked = 0
    for seed in range(60):
        g = random_tricks_position(seed, 8, plays)
        if g is None:
            continue
        me = g.turn
        hands = consistent_hands(g, me)
        assert len(set(hands)) == len(hands)
        assert mask(g.hands[1 - me]) in hands  # the truth is among them
        rng = random.Random(seed)
        seen = {mask(g.resample_hidden(me, rng).hands[1 - me]) for _ in range(25 * len(hands))}
        assert seen == set(hands), seed  # (one of 330 hands missed in 8,250 draws: odds e**-25)
        checked += 1
        if checked >= 2:
            break
    assert checked >= 1


def test_after_the_reveals_there_are_330_deals_and_nothing_known_is_among_them():
    g = random_tricks_position(3)
    me = g.turn
    hands = consistent_hands(g, me)
    assert len(hands) == math.comb(11, 7) == 330
    known = mask(g.hands[me]) | mask(g.set_aside[0]) | mask(g.set_aside[1])
    assert all(h & known == 0 for h in hands)
    assert unknown_cards(g, me) == mask(g.hands[1 - me]) | mask(g.undealt)


def test_too_many_deals_are_sampled_not_listed():
    g = random_tricks_position(3)
    hands = consistent_hands(g, g.turn, limit=25, rng=random.Random(1))
    assert len(hands) == 25 and all(h.bit_count() == 7 for h in hands)


def _brute_weight(g: Sumo, me: int, opp: list[str], trust: float) -> float:
    """The model's likelihood by replaying this deal's plays with the other seat holding ``opp``
    (plus what it played), valuing its choices by a plain search of every line."""
    q = 1 - me
    played = [t[1] if t[0] == q else t[2] for t in g.tricks] + ([g.lead] if g.lead and g.leader == q else [])
    hands = [None, None]
    hands[me] = g.hands[me] + [t[1] if t[0] == me else t[2] for t in g.tricks] + (
        [g.lead] if g.lead and g.leader == me else [])
    hands[q] = opp + played
    w = Sumo.new(seed=0, hand_size=g.hand_size, hands=[
        hands[0] + g.set_aside[0], hands[1] + g.set_aside[1]])
    for a, b in zip(g.set_aside[0], g.set_aside[1], strict=True):
        w.apply("reveal " + a)
        w.apply("reveal " + b)
    moves = []
    for leader, lead, follow, _ in g.tricks:
        moves += [(leader, lead), (1 - leader, follow)]
    if g.lead:
        moves.append((g.leader, g.lead))
    weight = 1.0
    for seat, card in moves:
        assert w.turn == seat
        if seat == q:
            values = {}
            for a in w.legal_actions():
                child = w.clone()
                child.apply(a)
                values[a] = full_search(child, q)
            best = [a for a, v in values.items() if v == max(values.values())]
            weight *= (1 - trust) / len(values) + (trust / len(best) if "play " + card in best else 0.0)
        w.apply("play " + card)
    return weight


@pytest.mark.parametrize("trust", [0.0, 0.5, 1.0])
def test_the_model_of_the_other_seat_weighs_deals_like_a_replay_with_a_full_search(trust):
    checked = 0
    for seed in range(80):
        g = random_tricks_position(seed, 4, plays=random.Random(seed).randrange(1, 5))
        if g is None:
            continue
        me = g.turn
        b = bot(trust=trust)
        for opp in consistent_hands(g, me)[:6]:
            got = b.deal_weight(g, me, opp, solver_for(g.colours))
            assert got == pytest.approx(_brute_weight(g, me, cards_of(opp), trust)), seed
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("seat", [0, 1])
def test_the_reveal_game_values_each_pair_of_cards_by_solving_what_follows(seat):
    g = Sumo.new(seed=7, hand_size=4)
    if seat == 1:
        g.apply(g.legal_actions()[0])
    b = bot(reveal="matrix")
    theirs = sorted(g.hands[1 - seat] + ([g.face_down] if seat == 1 else []))
    m = b.reveal_payoffs(g, [theirs])
    mine = [a[7:] for a in g.legal_actions()]
    for i, r in enumerate(mine):
        for j, s in enumerate(theirs):
            if r[0] == s[0]:
                continue  # a tie reveals again: valued by an approximation, not a solution
            w = g.clone()
            if seat == 1:
                w.hands[0] = sorted(c for c in theirs if c != s)
                w.face_down = s
                w._legal = None
                w.apply("reveal " + r)
            else:
                w.hands[1] = list(theirs)
                w._legal = None
                w.apply("reveal " + r)
                w.apply("reveal " + s)
            assert w.phase == PLAY_PHASE
            assert m[0, i, j] == full_search(w, seat), (r, s)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_leader_who_must_guess_does_no_better_than_one_who_sees(seat):
    # "guess" differs from "matrix" only in the first lead, chosen without seeing the other hand:
    # the seat that leads can only lose by it, so this seat's payoff falls where it leads and rises
    # where the other seat does; ties are valued alike.
    g = Sumo.new(seed=5)
    if seat == 1:
        g.apply(g.legal_actions()[2])
    rng = random.Random(2)
    hands = []
    for _ in range(8):
        w = g.resample_hidden(seat, rng)
        hands.append(sorted(w.hands[1 - seat] + ([w.face_down] if seat == 1 else [])))
    exact = bot(reveal="matrix").reveal_payoffs(g, hands)
    guess = bot(reveal="guess").reveal_payoffs(g, hands)
    mine = [a[7:] for a in g.legal_actions()]
    lower = higher = 0
    for t, theirs in enumerate(hands):
        for i, r in enumerate(mine):
            for j, s in enumerate(theirs):
                if r[0] > s[0]:
                    assert guess[t, i, j] <= exact[t, i, j]
                    lower += guess[t, i, j] < exact[t, i, j]
                elif r[0] < s[0]:
                    assert guess[t, i, j] >= exact[t, i, j]
                    higher += guess[t, i, j] > exact[t, i, j]
                else:
                    assert guess[t, i, j] == exact[t, i, j]
    assert lower + higher > 0  # (and guessing does cost a leader something)


@pytest.mark.parametrize("reveal", ["guess", "matrix", "playout"])
def test_the_reveal_is_a_mixed_strategy_over_own_cards(reveal):
    g = Sumo.new(seed=11)
    b = bot(reveal=reveal, deals=6)
    s = b.strategy(g)
    assert set(s) <= set(g.legal_actions()) and sum(s.values()) == pytest.approx(1.0)
    assert b.last_deals == 6 and -1.0 <= b.last_reveal_value <= 1.0
    assert g.phase == REVEAL_PHASE and len(g.events) == len(Sumo.new(seed=11).events)  # untouched


def test_the_reveal_reads_only_what_the_seat_sees():
    # Two games that differ only in seat 1's hand (and the undealt cards) look the same to seat 0.
    a = Sumo.new(seed=1, hands=[["1C", "1D", "1H", "2C", "2S", "3H", "4C", "5D"],
                                ["1S", "2D", "2H", "3C", "3S", "4D", "4H", "5H"]])
    b = Sumo.new(seed=1, hands=[["1C", "1D", "1H", "2C", "2S", "3H", "4C", "5D"],
                                ["5S", "5C", "2H", "3C", "3D", "4S", "4H", "5H"]])
    for reveal in ("guess", "matrix", "playout"):
        assert bot(reveal=reveal, deals=5, seed=3).strategy(a) == bot(reveal=reveal, deals=5, seed=3).strategy(b)


def test_the_model_of_the_other_reveal_gives_each_card_its_rank_s_odds_within_a_hand():
    from cards.equilibrium import REVEAL_ODDS, reveal_model
    hands = [["1C", "2C", "5H", "5S"], ["3D", "4D", "4H", "1S"]]
    p = reveal_model(hands)
    assert p.sum(axis=1) == pytest.approx([1.0, 1.0])
    for h, row in zip(hands, p, strict=True):
        for a, pa in zip(h, row, strict=True):
            for b, pb in zip(h, row, strict=True):
                assert pa * REVEAL_ODDS[int(b[0])] == pytest.approx(pb * REVEAL_ODDS[int(a[0])])


@pytest.mark.parametrize("seat", [0, 1])
def test_a_reveal_that_fully_trusts_the_model_is_the_best_card_against_it(seat):
    # model=1: the reveal is the card with the best mean payoff when every sampled hand of the
    # other seat reveals as the model says (checked against the payoffs by brute force).
    from cards.equilibrium import reveal_model
    for seed in range(4):
        g = Sumo.new(seed=seed)
        if seat == 1:
            g.apply(g.legal_actions()[seed])
        b = bot(model=1.0, deals=8, seed=seed)
        s = b.strategy(g)
        # The same hands again: a fresh bot with the same seed draws them with the same generator.
        rng = bot(deals=8, seed=seed).rng
        hands = []
        for _ in range(8):
            w = g.resample_hidden(seat, rng)
            hands.append(sorted(w.hands[1 - seat] + ([w.face_down] if seat == 1 else [])))
        m = b.reveal_payoffs(g, hands)
        mean = (m * reveal_model(hands)[:, None, :]).sum(axis=2).mean(axis=0)
        legal = g.legal_actions()
        best = mean.max()
        for a, p in s.items():
            assert p > 0 and mean[legal.index(a)] == pytest.approx(best, abs=0.02), (seed, a)
