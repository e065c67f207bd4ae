"""The card games under OpenSpiel: its own test harness, chance nodes, re-dealing, tensors and its
algorithms (ISMCTS, MCTS on determinisations, MCCFR). Skipped when OpenSpiel is not installed."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cards  # noqa: E402
from cards import openspiel_adapter as oa  # noqa: E402
from cards import openspiel_bots as ob  # noqa: E402
from cards import openspiel_tensors as ot  # noqa: E402
from tests.cards.toy_game import DECK as TOY_DECK  # noqa: E402
from tests.cards.toy_game import ToyTrick  # noqa: E402

#: Option variants tested besides the plain game.
VARIANTS = {"sumo-card-game": [{}, {"jokers": True}], "sumo": [{}, {"colours": "suits"}]}
DOC = Path(__file__).resolve().parents[2] / "docs" / "openspiel.md"


def _cases():
    out = []
    for name, cls in sorted(cards.GAMES.items()):
        for players in cls.player_counts:
            for options in VARIANTS.get(name, [{}]):
                label = f"{name}-{players}p" + "".join(f"-{k}" for k in options)
                out.append(pytest.param(name, players, options, id=label))
    return out


CASES = _cases()
#: One case per game (the longest player count of Sumida River is left to the full cases).
GAMES = [pytest.param(n, p, id=f"{n}-{p}p") for n, p in (("sumo", 2), ("sumo-card-game", 2), ("sumida-river", 3))]
TOY = oa.register(ToyTrick, actions=[f"play {c}" for c in TOY_DECK])


def _deck(game) -> Counter:
    return Counter(c for zone in game.card_zones().values() for c in zone)


def _play_chance(state, rng: random.Random) -> None:
    """Resolve chance nodes with random outcomes, by their probabilities."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])


def _random_states(game, rng: random.Random, steps: int):
    """``steps`` decision states along random plays (chance resolved at random; a new game after
    each one that ends)."""
    state = game.new_initial_state()
    for _ in range(steps):
        _play_chance(state, rng)
        if state.is_terminal():
            state = game.new_initial_state()
            _play_chance(state, rng)
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


def _sampler(seed: int):
    r = random.Random(seed)
    return r.random


# ----- OpenSpiel's own harness -----------------------------------------------------------------------------


@pytest.mark.parametrize("name,players,options", CASES)
def test_random_sim_test_passes_and_every_card_is_conserved(name, players, options):
    game = oa.load(name, players=players, **options)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    sims = 1 if name == "sumida-river" else 4  # hundreds of actions a game: fewer of them
    serialize = (name, players) != ("sumida-river", 4)  # the same code as three players, and slow
    full = _deck(cards.GAMES[name].new(players, 0, **options))
    seen = []

    def checker(state):
        if state._holder.game is not None:  # (during the first deal there are no cards yet)
            assert _deck(state.card_game) == full, "a card was created or lost"
        seen.append(state.current_player())

    pyspiel.random_sim_test(game, num_sims=sims, serialize=serialize, verbose=False, state_checker_fn=checker)
    assert pyspiel.PlayerId.CHANCE in seen and any(p >= 0 for p in seen), "the checker saw no chance or no seat"


def test_a_failing_state_checker_fails_the_harness():
    """The checker's verdict reaches the test: a checker that objects makes random_sim_test raise."""
    game = pyspiel.load_game(TOY)

    def objects(state):
        raise AssertionError("card lost")

    with pytest.raises(Exception, match="card lost"):  # noqa: B017 - OpenSpiel re-raises it as it likes
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False, state_checker_fn=objects)


# ----- chance nodes -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name,players", GAMES)
def test_the_deal_is_made_of_chance_nodes_each_card_equally_likely(name, players):
    game = oa.load(name, players=players)
    state = game.new_initial_state()
    assert state.is_chance_node()
    rng = random.Random(1)
    dealt = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        ids = [o for o, _ in outcomes]
        assert ids == sorted(set(ids)) and all(0 <= o < game.max_chance_outcomes() for o in ids)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(rng.choice(ids))
        dealt += 1
    hand_cards = len(state.card_game.observation(state.current_player())["hand"])
    assert dealt >= players * hand_cards, "every dealt card should have been a chance node"


def test_choosing_the_chance_outcomes_chooses_the_cards_each_seat_gets():
    """SUMO deals eight cards to seat 0, then eight to seat 1: the outcomes picked are those hands."""
    from cards.sumo import DECK

    state = oa.load("sumo").new_initial_state()
    order = [19 - i for i in range(16)]  # the highest cards first
    for card in order:
        assert card in [o for o, _ in state.chance_outcomes()]
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, card) == f"deal {DECK[card]}"
        state.apply_action(card)
    g = state.card_game
    assert sorted(g.hands[0]) == sorted(DECK[c] for c in order[:8])
    assert sorted(g.hands[1]) == sorted(DECK[c] for c in order[8:])
    assert not state.is_chance_node() and state.current_player() == 0


def _chance_kinds_in_play(name: str, games: int, seed: int) -> Counter:
    game = oa.load(name)
    rng = random.Random(seed)
    kinds: Counter = Counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                kind = state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]).split(" ")[0].rstrip(":")
                kinds[kind] += 1
                if kind in ("draw", "wild", "reshuffle") and state._holder.game is not None:
                    # Each card as likely, and only cards nobody sees (the deck, or the discard pile
                    # and table that a reshuffle makes the deck): OpenSpiel decides every draw.
                    g = state.card_game
                    assert len({p for _, p in outcomes}) == 1
                    assert {o for o, _ in outcomes} <= set(g.deck) | set(g.discard) | set(g.table)
                state.apply_action(rng.choices(*zip(*outcomes, strict=True))[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return kinds


def test_sumo_card_game_draws_wild_draws_and_reshuffles_are_chance_nodes():
    kinds = _chance_kinds_in_play("sumo-card-game", games=6, seed=2)
    for kind in ("first", "deal", "draw", "wild", "reshuffle"):
        assert kinds[kind] > 0, f"no {kind!r} chance node in six games: {dict(kinds)}"


def test_the_next_card_is_not_decided_before_it_is_drawn():
    """The leak of the old adapter: MCTS searched one fixed future deck. Now two clones of one state
    draw different cards when chance says so."""
    rng = random.Random(4)
    for state in _random_states(oa.load("sumo-card-game"), rng, 400):
        twin = state.clone()
        action = state.legal_actions()[0]
        state.apply_action(action)
        twin.apply_action(action)
        if state.is_chance_node() and len(state.chance_outcomes()) > 1:
            a, b = (o for o, _ in state.chance_outcomes()[:2])
            state.apply_action(a)
            twin.apply_action(b)
            assert str(state) != str(twin)
            return
    pytest.fail("no draw with two possible cards in 400 steps")


# ----- actions --------------------------------------------------------------------------------------------------


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
    game = oa.load(name, players=players, **options)
    assert game.num_players() == players
    rng = random.Random(3)
    for state in _random_states(game, rng, 30):
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


def test_clone_is_independent():
    state = pyspiel.load_game(TOY).new_initial_state()
    _play_chance(state, random.Random(2))
    twin = state.clone()
    before = str(state)
    twin.apply_action(twin.legal_actions()[0])
    assert str(state) == before and str(twin) != before


def test_any_engine_can_be_registered_with_its_action_table():
    assert TOY == "kabuto_toy_trick"
    assert oa.register(ToyTrick) == TOY  # registering twice is harmless
    game = pyspiel.load_game(TOY)
    state = game.new_initial_state()
    _play_chance(state, random.Random(9))
    assert state.observation_string(0) != state.observation_string(1)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


@pytest.mark.parametrize("name,players", GAMES)
def test_a_serialised_state_holds_plain_data_and_comes_back_whole(name, players):
    game = oa.load(name, players=players)
    rng = random.Random(6)
    for k, state in enumerate(_random_states(game, rng, 40)):
        if k % 13:
            continue
        holder = state._holder.__getstate__()
        assert set(holder) == {"game", "save"} and isinstance(holder["save"], str)
        json.loads(holder["save"])  # the pickled payload is the engine's JSON save
        back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
        assert str(back) == str(state)
        assert back.legal_actions() == state.legal_actions()


# ----- information ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name,players", GAMES)
def test_resample_from_infostate_keeps_what_the_seat_knows_and_redeals_the_rest(name, players):
    game = oa.load(name, players=players)
    rng = random.Random(11)
    changed = 0
    for k, state in enumerate(_random_states(game, rng, 120)):
        if k % 7:
            continue
        p = state.current_player()
        deck = _deck(state.card_game)
        for s in range(3):
            other = state.resample_from_infostate(p, _sampler(100 * k + s))
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.legal_actions() == state.legal_actions()
            assert _deck(other.card_game) == deck
            changed += other.card_game.card_zones() != state.card_game.card_zones()
            # ... and the re-dealt world plays on (its random events are chance nodes again).
            other.apply_action(rng.choice(other.legal_actions()))
            _play_chance(other, rng)
    assert changed, "resample_from_infostate never re-dealt anything"


@pytest.mark.parametrize("name,players,options", CASES)
def test_tensors_follow_the_layout_and_show_no_hidden_card(name, players, options):
    game = oa.load(name, players=players, **options)
    for recall, shape in ((False, game.observation_tensor_shape()), (True, game.information_state_tensor_shape())):
        assert shape == [ot.layout(name, players, recall).size]
    rng = random.Random(8)
    distinct = set()
    for k, state in enumerate(_random_states(game, rng, 150 if name != "sumida-river" else 30)):
        g = state.card_game
        for p in range(players):
            for recall in (False, True):
                t = ot.encode(g, p, recall)
                assert t.min() >= 0.0 and t.max() <= 1.0
                views = ot.layout(name, players, recall).views(t)
                assert views["seat"].argmax() == p and views["seat"].sum() == 1
                hand = g.observation(p)["hand"]
                assert views["hand"].sum() == len([c for c in hand if c not in ("WB", "WR")])
                if k % 7 == 0:  # every hidden card re-dealt: the tensor stays the same
                    for s in range(2):
                        again = ot.encode(g.resample_hidden(p, random.Random(s)), p, recall)
                        changed = [piece.name for piece in ot.layout(name, players, recall).pieces
                                   if not np.array_equal(views[piece.name],
                                                         ot.layout(name, players, recall).views(again)[piece.name])]
                        assert not changed, f"the tensor shows hidden cards in {changed}"
            distinct.add(ot.encode(g, p, True).tobytes())
        assert state.observation_tensor(0) == list(ot.encode(g, 0, False))
    assert len(distinct) > 20  # ... and the tensors do change as the game goes on


def test_the_sumo_information_state_tensor_tells_histories_apart_that_look_alike_now():
    """Perfect recall in SUMO: two tied reveal rounds played in either order leave the same cards
    set aside (one observation tensor) but are two histories (two information-state tensors)."""
    from cards.sumo import Sumo

    hands = [["1C", "1D", "1H", "2C", "2S", "3H", "4C", "5D"], ["1S", "2D", "2H", "3C", "3S", "4D", "4H", "5H"]]

    def after(*moves):
        g = Sumo.new(hands=hands)
        for m in moves:
            g.apply(m)
        return g

    a = after("reveal 1C", "reveal 1S", "reveal 2C", "reveal 2D")
    b = after("reveal 2C", "reveal 2D", "reveal 1C", "reveal 1S")
    assert a.observation(0)["phase"] == b.observation(0)["phase"] == "reveal" and a.to_play == b.to_play == 0
    for p in (0, 1):
        assert np.array_equal(ot.encode(a, p, False), ot.encode(b, p, False))
        assert not np.array_equal(ot.encode(a, p, True), ot.encode(b, p, True))


def test_the_documentation_shows_the_tensor_layouts_of_the_code():
    """docs/openspiel.md holds every layout as tools/openspiel_tables.py renders it from the code."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("openspiel_tables", DOC.parents[1] / "tools" / "openspiel_tables.py")
    tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables)
    text = DOC.read_text()
    assert tables.render(text) == text, "docs/openspiel.md is out of date: run tools/openspiel_tables.py"
    for name, players in (("sumo", 2), ("sumo-card-game", 2), ("sumida-river", 4)):
        for piece in ot.layout(name, players, True).pieces:
            assert f"| `{piece.name}` |" in text


# ----- OpenSpiel's algorithms -------------------------------------------------------------------------------


def _bot_decisions(name, players, make, decisions, seed):
    game = oa.load(name, players=players)
    rng = random.Random(seed)
    bot = make(game)
    made = 0
    for state in _random_states(game, rng, 400):
        legal = state.legal_actions()
        if len(legal) < 2:
            continue
        action = bot.step(state)
        assert action in legal
        made += 1
        if made == decisions:
            return
    pytest.fail("too few decisions")


@pytest.mark.parametrize("name,players", GAMES + [pytest.param("sumida-river", 4, id="sumida-river-4p")])
def test_openspiel_ismcts_bot_runs_on_every_game(name, players):
    # OpenSpiel's ISMCTS asserts that every re-dealt root has the searcher's information state.
    sims = 4 if name == "sumida-river" else 12  # each simulation plays a whole long game
    _bot_decisions(name, players, lambda g: ob.ismcts_bot(g, simulations=sims, seed=3), decisions=2, seed=5)


@pytest.mark.parametrize("name,players", GAMES)
def test_openspiel_mcts_on_determinizations_runs_on_every_game(name, players):
    sims = 4 if name == "sumida-river" else 12
    make = lambda g: ob.DeterminizedMCTSBot(g, simulations=sims, determinizations=2, seed=3)  # noqa: E731
    _bot_decisions(name, players, make, decisions=2, seed=6)


def test_openspiel_timed_ismcts_stops_at_its_time_limit():
    game = oa.load("sumo-card-game")
    bot = ob.ismcts_bot(game, time_limit=0.05, seed=1)
    state = next(s for s in _random_states(game, random.Random(2), 50) if len(s.legal_actions()) > 1)
    bot.step(state)
    assert bot.last_simulations > 1


def test_an_openspiel_bot_plays_a_whole_game_at_our_table():
    from cards.bots import make_bot, play_out

    spiel = oa.load("sumo")
    g = cards.GAMES["sumo"].new(2, 3)
    play_out(g, [ob.SpielPlayer(spiel, ob.ismcts_bot(spiel, simulations=10, seed=1), "ismcts"), make_bot("random", 1)])
    assert g.is_over and g.winners()


def test_outcome_sampling_mccfr_runs_on_sumo_and_gives_a_policy_over_legal_actions():
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = oa.load("sumo")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(60):
        solver.iteration()
    policy = solver.average_policy()
    rng = random.Random(3)
    checked = 0
    for state in _random_states(game, rng, 30):
        probs = policy.action_probabilities(state)
        assert set(probs) <= set(state.legal_actions())
        assert sum(probs.values()) == pytest.approx(1.0)
        checked += 1
    assert checked
