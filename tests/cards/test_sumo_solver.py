"""The SUMO trick solver: exact values, checked against a plain search of every line of play."""
from __future__ import annotations

import random

import pytest

from cards.sumo import DECK, PLAY_PHASE, Sumo
from cards.sumo_solver import TrickSolver, action_values, cards_of, joint_values, mask


def full_search(g: Sumo, seat: int) -> float:
    """The outcome for ``seat`` under best play, searching every line (no table, no shortcut)."""
    if g.is_over:
        return 0.0 if g.winner < 0 else (1.0 if g.winner == seat else -1.0)
    values = []
    for a in g.legal_actions():
        child = g.clone()
        child.apply(a)
        values.append(full_search(child, seat))
    return max(values) if g.turn == seat else min(values)


def tricks_position(seed: int, hand_size: int, colours: str = "red-black") -> Sumo:
    g = Sumo.new(seed=seed, hand_size=hand_size, colours=colours)
    rng = random.Random(seed)
    while not g.is_over and g.phase != PLAY_PHASE:
        g.apply(rng.choice(g.legal_actions()))
    return g


def live_tricks_positions(colours: str, leads: int = 0, seeds: int = 40):
    """(seed, game) for each of ``seeds`` four-card deals still going once the tricks begin and
    ``leads`` random cards have been played after that (a fresh generator of the seed's)."""
    for seed in range(seeds):
        g = tricks_position(seed, 4, colours)
        rng = random.Random(seed)
        for _ in range(leads):
            if not g.is_over:
                g.apply(rng.choice(g.legal_actions()))
        if not g.is_over:
            yield seed, g


def _assert_each_equals_a_full_search(g, got, me, seed):
    """Every action's value in ``got`` is what a full search after it gives seat ``me``."""
    for a, v in got.items():
        child = g.clone()
        child.apply(a)
        assert v == full_search(child, me), (seed, a)


@pytest.mark.parametrize("colours", ["red-black", "suits"])
def test_solver_values_equal_a_full_search_of_every_line(colours):
    checked = 0
    for seed, g in live_tricks_positions(colours):
        me = g.turn
        got = action_values(g)
        _assert_each_equals_a_full_search(g, got, me, seed)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("colours", ["red-black", "suits"])
def test_answers_to_a_lead_are_valued_like_a_full_search(colours):
    # The follower's side of the solver (a card already led), from a fresh table each time.
    checked = 0
    for seed, g in live_tricks_positions(colours, leads=1):
        me = g.turn
        got = TrickSolver(colours).action_values(g)
        assert set(got) == set(g.legal_actions())
        _assert_each_equals_a_full_search(g, got, me, seed)
        checked += 1
    assert checked >= 20


def test_one_table_serves_every_deal_and_a_full_table_starts_afresh():
    # Positions are keyed by both whole hands, so a table filled by other deals gives the same
    # values as a fresh one; a table at its bound is emptied, not grown.
    shared = TrickSolver(max_entries=50)
    for seed in range(30):
        g = tricks_position(seed, 6)
        if g.is_over:
            continue
        assert shared.action_values(g) == TrickSolver().action_values(g), seed
        assert len(shared.table) <= 50


def test_masks_and_cards_are_inverse():
    hand = ["1C", "3H", "5S", "2D"]
    assert cards_of(mask(hand)) == sorted(hand)


def test_an_instant_sumo_move_is_a_sure_win():
    # Seat 0 leads the one of hearts; seat 1 holds the four of hearts (abise-taoshi wins at once).
    g = Sumo.new(seed=1, hands=[["1C", "1D", "1H", "2C", "2S", "3H", "4C", "5D"],
                                ["1S", "2D", "2H", "3C", "3S", "4D", "4H", "5H"]])
    g.apply("reveal 4C")
    g.apply("reveal 3S")
    g.apply("play 1H")
    assert action_values(g)["play 4H"] == 1.0


def test_the_solver_refuses_the_reveals():
    with pytest.raises(ValueError, match="reveals"):
        action_values(Sumo.new(seed=2))


def _worlds(g: Sumo, me: int) -> list[tuple[int, float]]:
    from cards.equilibrium import consistent_hands

    return [(h, 1.0 + (h % 3)) for h in consistent_hands(g, me)]  # uneven weights on purpose


def test_joint_values_with_no_lookahead_are_the_weighted_mean_of_solved_deals():
    for seed in range(12):
        g = tricks_position(seed, 5)
        if g.is_over:
            continue
        me, solver = g.turn, TrickSolver()
        worlds = _worlds(g, me)
        got = joint_values(solver, me, mask(g.hands[me]), worlds, None, g.wrestler, lookahead=1)
        for c, v in got.items():
            mean = 0.0
            for theirs, w in worlds:
                world = g.clone()
                world.hands[1 - me] = cards_of(theirs)
                world._legal = None
                mean += w * action_values(world, solver)["play " + DECK[c]]
            assert v == pytest.approx(mean / sum(w for _, w in worlds))


def test_choosing_once_for_every_deal_never_looks_better_and_one_deal_is_exact():
    # A seat that must make its next choices without seeing the other hand can do no better than
    # one that sees it (and, with one possible deal, exactly as well).
    for seed in range(30):
        g = tricks_position(seed, 5)
        if g.is_over:
            continue
        me, solver = g.turn, TrickSolver()
        worlds = _worlds(g, me)
        hand = mask(g.hands[me])
        by_look = [joint_values(solver, me, hand, worlds, None, g.wrestler, k) for k in (1, 2, 3)]
        for c in by_look[0]:
            assert by_look[2][c] <= by_look[1][c] + 1e-12 <= by_look[0][c] + 2e-12
        truth = mask(g.hands[1 - me])
        exact = action_values(g, solver)
        for k in (1, 2, 3):
            one = joint_values(solver, me, hand, [(truth, 1.0)], None, g.wrestler, k)
            assert {"play " + DECK[c]: v for c, v in one.items()} == exact


def test_a_second_lead_that_needs_a_guess_is_valued_below_a_sure_one():
    # Found by the inequality above: in this deal the lead of 4S wins in most re-deals if the seat
    # could choose its next lead deal by deal, much less when it must choose without seeing.
    g = tricks_position(2, 8)
    me = g.turn
    worlds = _worlds(g, me)
    hand = mask(g.hands[me])
    plain = joint_values(TrickSolver(), me, hand, worlds, None, g.wrestler, 1)
    joint = joint_values(TrickSolver(), me, hand, worlds, None, g.wrestler, 2)
    assert any(joint[c] < plain[c] - 0.2 for c in plain)
