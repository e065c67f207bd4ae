"""The promises of :mod:`cards.api`, checked for every registered engine and for the toy game.

Each property is what a player or a bot would notice if it broke: a card appearing twice, a move
refused that was offered, a refused move that changed the table, a saved game that continues
differently, an observation that shows an opponent's hidden card (checked by re-dealing everything
the player cannot see and requiring the player's view to stay the same), a game that never ends.
"""
from __future__ import annotations

import importlib
import inspect
import json
import os
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cards
from cards.api import CardGame, IllegalMove
from tests.cards.toy_game import ToyTrick

#: Engine options worth testing separately (every game is also tested without options).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "sumo-card-game": [{}, {"jokers": True}],
    "sumo": [{}, {"colours": "suits"}],
}
#: No game of ours comes near this many actions; a random game that does is taken not to end.
MAX_ACTIONS = 20_000
#: Hypothesis examples per property and case; raise it for a deeper run.
EXAMPLES = int(os.environ.get("CARDS_CONFORMANCE_EXAMPLES", "10"))


def _cases() -> list[Any]:
    games: dict[str, type[CardGame]] = {ToyTrick.name: ToyTrick, **cards.GAMES}
    out = []
    for name, cls in sorted(games.items()):
        for players in cls.player_counts:
            for options in VARIANTS.get(name, [{}]):
                label = f"{name}-{players}p" + "".join(f"-{k}" for k in options)
                out.append(pytest.param(cls, players, options, id=label))
    return out


CASES = _cases()
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
seeds = st.integers(min_value=0, max_value=2**31 - 1)


def snapshot(game: CardGame) -> str:
    """The complete state as text (equal snapshots: identical games)."""
    return json.dumps(game.to_json(), sort_keys=True)


def deck_of(game: CardGame) -> Counter[str]:
    zones = game.card_zones()
    assert isinstance(zones, dict) and zones, "card_zones() must name at least one zone"
    return Counter(c for cards_ in zones.values() for c in cards_)


def random_states(game: CardGame, rng: random.Random, limit: int = MAX_ACTIONS):
    """Yield the game before every action of a random game, and once more at its end."""
    for _ in range(limit):
        yield game
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))
    pytest.fail(f"{game.name}: a random game did not end within {limit} actions")


def sampled_states(game: CardGame, rng: random.Random, k: int) -> list[CardGame]:
    """Copies of ``k`` states spread over one random game (first and last included), so the
    expensive checks cost the same for a short game as for a long multi-round one."""
    history = [g.clone() for g in random_states(game, rng)]
    if len(history) <= k:
        return history
    picks = {0, len(history) - 1} | set(rng.sample(range(1, len(history) - 1), k - 2))
    return [history[i] for i in sorted(picks)]


def play_to(game: CardGame, rng: random.Random, steps: int) -> CardGame:
    """Play up to ``steps`` random actions (fewer if the game ends)."""
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_three_engines_are_registered_with_their_heuristics():
    assert {"sumo", "sumo-card-game", "sumida-river"} <= set(cards.GAMES)
    for name, cls in cards.GAMES.items():
        assert cls.name == name and cls.player_counts
        module = importlib.import_module(cls.__module__)
        assert callable(getattr(module, "heuristic_action", None)), f"{name}: no heuristic_action"


# ----- flow ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls,players,options", CASES)
@SETTINGS
@given(seed=seeds)
def test_random_games_end_and_conserve_every_card(cls, players, options, seed):
    game = cls.new(players, seed, **options)
    assert game.num_players == players
    deck = deck_of(game)
    rng = random.Random(seed)
    length = 0
    for g in random_states(game, rng):
        assert deck_of(g) == deck, f"cards created or lost after {length} actions"
        p = g.to_play
        legal = g.legal_actions()
        assert legal == g.legal_actions(), "legal_actions() changed between two calls"
        assert g.is_over == (p is None)
        if p is None:
            assert legal == [], "a finished game still offers actions"
        else:
            assert 0 <= p < players
            assert legal, f"seat {p} is to act but has no legal action"
            assert all(isinstance(a, str) for a in legal), "actions must be strings"
            assert legal == sorted(legal), "legal_actions() must be sorted"
            assert len(set(legal)) == len(legal), "an action is listed twice"
            assert g.returns() == [0.0] * players, "returns() must be all zeros before the end"
        length += 1
    r = game.returns()
    assert len(r) == players and all(isinstance(x, (int, float)) for x in r)
    assert game.winners(), "a finished game has nobody in first place"


@pytest.mark.parametrize("cls,players,options", CASES)
@SETTINGS
@given(seed=seeds)
def test_every_listed_action_is_accepted_and_others_refused_unchanged(cls, players, options, seed):
    game = cls.new(players, seed, **options)
    rng = random.Random(seed)
    states = sampled_states(game, rng, 12)
    # Actions legal somewhere in the game (and some nonsense), to try where they are not legal.
    seen = sorted({a for g in states for a in g.legal_actions()})
    nonsense = ["", "pass pass", "play", "play ZZ", "xyzzy", "meld", "PLAY 2C"]
    for g in states:
        legal = g.legal_actions()
        for a in legal:
            c = g.clone()
            c.apply(a)  # must not raise
        before = snapshot(g)
        wrong = [a for a in seen if a not in legal]
        for a in rng.sample(wrong, min(8, len(wrong))) + nonsense:
            if a in legal:
                continue
            with pytest.raises(IllegalMove) as info:
                g.apply(a)
            assert str(info.value).strip(), f"refusing {a!r} gave no reason"
            # A refusal is data: a front end says it from its code, never by parsing the words.
            assert cls is ToyTrick or info.value.code != "illegal", f"refusing {a!r} has no code"
            assert snapshot(g) == before, f"refusing {a!r} changed the game"
            assert g.legal_actions() == legal


@pytest.mark.parametrize("cls,players,options", CASES)
def test_actions_that_are_not_strings_are_refused(cls, players, options):
    game = cls.new(players, 7, **options)
    before = snapshot(game)
    for a in (None, 3, ["play"], {"play": 1}):
        with pytest.raises(IllegalMove) as info:
            game.apply(a)  # type: ignore[arg-type]
        assert cls is ToyTrick or info.value.code == "not_an_action"
        assert snapshot(game) == before


@pytest.mark.parametrize("cls,players,options", CASES)
def test_finished_game_refuses_every_action(cls, players, options):
    game = cls.new(players, 3, **options)
    rng = random.Random(3)
    actions: set[str] = set()
    for g in random_states(game, rng):
        actions.update(g.legal_actions())
    before = snapshot(game)
    for a in sorted(actions)[:20]:
        with pytest.raises(IllegalMove):
            game.apply(a)
    assert snapshot(game) == before


@pytest.mark.parametrize("cls,players,options", CASES)
def test_same_seed_same_deal_and_seeds_differ(cls, players, options):
    assert snapshot(cls.new(players, 11, **options)) == snapshot(cls.new(players, 11, **options))
    deals = {snapshot(cls.new(players, s, **options)) for s in range(8)}
    assert len(deals) > 1, "eight seeds all dealt the same game"


# ----- copies and persistence ------------------------------------------------------------------------


@pytest.mark.parametrize("cls,players,options", CASES)
@SETTINGS
@given(seed=seeds, prefix=st.integers(min_value=0, max_value=400))
def test_json_round_trip_mid_game_continues_identically(cls, players, options, seed, prefix):
    rng = random.Random(seed)
    game = play_to(cls.new(players, seed, **options), rng, prefix)
    data = json.loads(json.dumps(game.to_json()))
    restored = cls.from_json(data)
    assert snapshot(restored) == snapshot(game)
    # Both continue with the same choices: every step must agree, including internal shuffles.
    chooser = random.Random(seed + 1)
    for step in range(MAX_ACTIONS):
        assert restored.to_play == game.to_play
        assert restored.legal_actions() == game.legal_actions()
        if step % 10 == 0:  # the full comparison costs a JSON dump: every tenth step suffices
            for p in range(players):
                assert restored.observation(p) == game.observation(p)
            assert snapshot(restored) == snapshot(game)
        if game.is_over:
            break
        action = chooser.choice(game.legal_actions())
        game.apply(action)
        restored.apply(action)
    assert snapshot(restored) == snapshot(game)
    assert restored.returns() == game.returns()


@pytest.mark.parametrize("cls,players,options", CASES)
@SETTINGS
@given(seed=seeds, prefix=st.integers(min_value=0, max_value=400))
def test_clone_is_independent_and_continues_identically(cls, players, options, seed, prefix):
    rng = random.Random(seed)
    game = play_to(cls.new(players, seed, **options), rng, prefix)
    before = snapshot(game)
    twin = game.clone()
    assert snapshot(twin) == before
    # Playing the clone to the end leaves the original untouched ...
    play_to(twin, random.Random(seed + 1), MAX_ACTIONS)
    assert snapshot(game) == before
    # ... and playing the original leaves the clone untouched.
    twin_end = snapshot(twin)
    play_to(game, random.Random(seed + 1), MAX_ACTIONS)
    assert snapshot(twin) == twin_end
    # The same choices from the same state give the same game (shuffles included).
    assert snapshot(game) == twin_end


# ----- information ----------------------------------------------------------------------------------


@pytest.mark.parametrize("cls,players,options", CASES)
@SETTINGS
@given(seed=seeds)
def test_observations_are_json_and_show_only_allowed_events(cls, players, options, seed):
    game = cls.new(players, seed, **options)
    for g in sampled_states(game, random.Random(seed), 16):
        for p in range(players):
            obs = g.observation(p)
            assert isinstance(obs, dict)
            json.dumps(obs, allow_nan=False)
            for e in obs.get("events", []):
                assert "to" not in e or p in e["to"], f"seat {p} sees an event meant for {e['to']}"
            for e in g.visible_events(p):
                assert "to" not in e or p in e["to"]
    for e in game.events:
        assert isinstance(e, dict) and "type" in e, f"event without a type: {e!r}"
        assert "to" not in e or (isinstance(e["to"], list) and set(e["to"]) <= set(range(players)))
    json.dumps(game.events, allow_nan=False)


@pytest.mark.parametrize("cls,players,options", CASES)
@SETTINGS
@given(seed=seeds)
def test_resample_hidden_keeps_what_the_player_sees(cls, players, options, seed):
    """Re-dealing every card seat p cannot see must not change p's observation: so nothing in it
    depends on (shows) a card hidden from p. The re-dealt copy is a sound game of its own."""
    game = cls.new(players, seed, **options)
    deck = deck_of(game)
    rng = random.Random(seed)
    for i, g in enumerate(sampled_states(game, rng, 8)):
        before = snapshot(g)
        for p in range(players):
            obs = g.observation(p)
            r = g.resample_hidden(p, random.Random(seed + i * 31 + p))
            assert r is not g
            assert r.observation(p) == obs, f"seat {p}'s view changed when hidden cards were re-dealt"
            assert deck_of(r) == deck, "re-dealing created or lost cards"
            assert r.to_play == g.to_play
            if g.to_play == p:
                assert r.legal_actions() == g.legal_actions(), "re-dealing changed p's own options"
                # The re-dealt game plays on soundly (search bots play it out).
                for _ in range(40):
                    if r.is_over:
                        break
                    r.apply(rng.choice(r.legal_actions()))
                    assert deck_of(r) == deck
        assert snapshot(g) == before, "resample_hidden changed the real game"


@pytest.mark.parametrize("cls,players,options", CASES)
def test_resample_hidden_really_redeals_hidden_cards(cls, players, options):
    """At the deal every seat holds cards the others cannot see: re-dealing must move some."""
    for seed in range(3):
        game = cls.new(players, seed, **options)
        zones = game.card_zones()
        for p in range(players):
            moved = any(
                game.resample_hidden(p, random.Random(k)).card_zones() != zones for k in range(20)
            )
            assert moved, f"resample_hidden({p}) never re-dealt anything (seed {seed})"


# ----- malformed saves ------------------------------------------------------------------------------


@pytest.mark.parametrize("cls,players,options", CASES)
def test_from_json_rejects_malformed_data_naming_the_field(cls, players, options):
    game = play_to(cls.new(players, 5, **options), random.Random(5), 6)
    data = json.loads(json.dumps(game.to_json()))
    for bad in (None, [], "game", 3):
        with pytest.raises(ValueError):
            cls.from_json(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        cls.from_json({})
    for key in data:
        partial = {k: v for k, v in data.items() if k != key}
        with pytest.raises(ValueError) as info:
            cls.from_json(partial)
        assert key in str(info.value), f"missing {key!r} reported as: {info.value}"
    broken = dict(data, rng="not a random state")
    with pytest.raises(ValueError):
        cls.from_json(broken)


# ----- the checks themselves catch broken engines -----------------------------------------------------


class _LeakyToy(ToyTrick):
    """Shows the opponent's hand in the observation."""

    def observation(self, player):
        obs = super().observation(player)
        obs["peek"] = sorted(self.hands[1 - player])
        return obs


class _SloppyToy(ToyTrick):
    """Removes the card before checking that the player follows suit."""

    def apply(self, action):
        p = self.to_play
        card = action[5:] if isinstance(action, str) else None
        if p is not None and card in self.hands[p] and self.trick:
            self.hands[p].remove(card)
            self.hands[p].append(card)  # reorders the hand even when the play is then refused
        super().apply(action)


class _ShallowToy(ToyTrick):
    """A clone that shares the hands with the original."""

    def clone(self):
        g = super().clone()
        g.hands = self.hands
        return g


class _LossyToy(ToyTrick):
    """Drops the first card of every completed trick."""

    def apply(self, action):
        super().apply(action)
        if not self.trick:  # a trick was just completed
            self.won[self.leader].pop()


class _UnsortedToy(ToyTrick):
    def legal_actions(self):
        return sorted(super().legal_actions(), reverse=True)


@pytest.mark.parametrize(
    "broken,check",
    [
        (_LeakyToy, test_resample_hidden_keeps_what_the_player_sees),
        (_SloppyToy, test_every_listed_action_is_accepted_and_others_refused_unchanged),
        (_ShallowToy, test_clone_is_independent_and_continues_identically),
        (_LossyToy, test_random_games_end_and_conserve_every_card),
        (_UnsortedToy, test_random_games_end_and_conserve_every_card),
    ],
    ids=["leak", "refusal-mutates", "shallow-clone", "card-lost", "unsorted"],
)
def test_the_checks_catch_broken_engines(broken, check):
    inner = check.hypothesis.inner_test  # one fixed example, no search: each bug shows at once
    kwargs = {"seed": 1, "prefix": 3} if "prefix" in inspect.signature(inner).parameters else {"seed": 1}
    with pytest.raises((AssertionError, pytest.fail.Exception)):
        inner(cls=broken, players=2, options={}, **kwargs)


def test_the_written_out_shuffle_is_the_library_shuffle_for_every_pile_length():
    """Every engine shuffles through cards.api.shuffle_like_random: for piles of any length and
    generators part-way through their streams it must give the order random.Random.shuffle gives and
    leave the generator where the library leaves it, so a seed keeps dealing what it always dealt."""
    from cards.api import shuffle_like_random

    for length in range(0, 60):
        for seed in range(12):
            ours, theirs = random.Random(seed), random.Random(seed)
            for _ in range(seed % 5):
                ours.random()
                theirs.random()
            a, b = list(range(length)), list(range(length))
            theirs.shuffle(a)
            shuffle_like_random(ours, b)
            assert b == a
            assert ours.getstate() == theirs.getstate()
