"""The card games under OpenSpiel's own test harness (skipped when OpenSpiel is not installed)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

pyspiel = pytest.importorskip("pyspiel")

import cards  # noqa: E402
from cards import openspiel_adapter as oa  # noqa: E402
from tests.cards.toy_game import DECK as TOY_DECK  # noqa: E402
from tests.cards.toy_game import ToyTrick  # noqa: E402

#: Option variants tested besides the plain game.
VARIANTS = {"sumo-card-game": [{}, {"jokers": True}], "sumo": [{}, {"colours": "suits"}]}


def _cases():
    out = []
    for name, cls in sorted(cards.GAMES.items()):
        for players in cls.player_counts:
            for options in VARIANTS.get(name, [{}]):
                label = f"{name}-{players}p" + "".join(f"-{k}" for k in options)
                out.append(pytest.param(name, players, options, id=label))
    return out


CASES = _cases()
TOY = oa.register(ToyTrick, actions=[f"play {c}" for c in TOY_DECK])


def _deck(game) -> Counter:
    return Counter(c for zone in game.card_zones().values() for c in zone)


@pytest.mark.parametrize("name,players,options", CASES)
def test_random_sim_test_passes_and_every_card_is_conserved(name, players, options):
    long = name == "sumida-river"  # hundreds of actions a game: fewer of them
    sims = 2 if long else 6
    for seed in (0,) if long else (0, 1):
        game = oa.load(name, players=players, seed=seed, **options)
        deck = _deck(game.new_initial_state().card_game)
        states = []

        def checker(state, deck=deck, states=states):
            assert _deck(state.card_game) == deck, "a card was created or lost"
            states.append(state.move_number())

        pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False, state_checker_fn=checker)
        assert len(states) > sims, "the state checker did not run on every state"


def test_a_failing_state_checker_fails_the_harness():
    """The checker's verdict reaches the test: a checker that objects makes random_sim_test raise."""
    game = pyspiel.load_game(TOY)

    def objects(state):
        raise AssertionError("card lost")

    with pytest.raises(Exception, match="card lost"):
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False, state_checker_fn=objects)


@pytest.mark.parametrize("name,players,options", CASES)
def test_action_table_holds_every_action_the_engine_offers(name, players, options):
    cls = cards.GAMES[name]
    index = oa.action_index(name)
    table = oa.action_table(name)
    assert list(table) == sorted(set(table))
    rng = random.Random(0)
    games = 20 if name == "sumida-river" else 300
    for seed in range(games):
        g = cls.new(players, seed, **options)
        while not g.is_over:
            legal = g.legal_actions()
            missing = [a for a in legal if a not in index]
            assert not missing, f"not in the action table: {missing}"
            g.apply(rng.choice(legal))


@pytest.mark.parametrize("name,players,options", CASES)
def test_ids_map_to_the_engine_actions_and_illegal_ids_are_refused(name, players, options):
    game = oa.load(name, players=players, seed=3, **options)
    state = game.new_initial_state()
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game.num_players() == players
    rng = random.Random(3)
    for _ in range(30):
        if state.is_terminal():
            break
        ids = state.legal_actions()
        assert ids == sorted(ids)
        assert [state.action_to_string(state.current_player(), i) for i in ids] == state.card_game.legal_actions()
        illegal = next(i for i in range(game.num_distinct_actions()) if i not in ids)
        before, history = str(state), state.history()
        with pytest.raises(pyspiel.SpielError):
            state.apply_action_with_legality_check(illegal)
        with pytest.raises(cards.IllegalMove):  # unchecked, the engine itself refuses it
            state.apply_action(illegal)
        with pytest.raises(ValueError, match="outside"):
            state.apply_action(game.num_distinct_actions() + 5)
        assert str(state) == before and state.history() == history
        state.apply_action(rng.choice(ids))


@pytest.mark.parametrize("name,players,options", CASES[:1])
def test_seed_parameter_chooses_the_deal(name, players, options):
    deal = lambda seed: str(oa.load(name, players=players, seed=seed, **options).new_initial_state())  # noqa: E731
    assert deal(4) == deal(4)
    assert len({deal(s) for s in range(6)}) > 1


def test_clone_is_independent():
    state = pyspiel.load_game(TOY, {"seed": 2}).new_initial_state()
    twin = state.clone()
    before = str(state)
    twin.apply_action(twin.legal_actions()[0])
    assert str(state) == before and str(twin) != before


def test_any_engine_can_be_registered_with_its_action_table():
    assert TOY == "kabuto_toy_trick"
    assert oa.register(ToyTrick) == TOY  # registering twice is harmless
    game = pyspiel.load_game(TOY, {"seed": 9})
    state = game.new_initial_state()
    assert state.observation_string(0) != state.observation_string(1)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
