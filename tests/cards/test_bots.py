"""Bots: legal moves only, reproducible, never peeking, and the search bot clearly beats random."""
from __future__ import annotations

import random
import time
from typing import Any

import pytest

import cards
from cards.api import CardGame
from cards.bots import (
    HeuristicBot,
    ISMCTSBot,
    RandomBot,
    engine_heuristic,
    evaluate,
    make_bot,
    play_out,
)
from tests.cards.toy_game import ToyTrick
from tests.cards.toy_game import heuristic_action as toy_heuristic


def _games() -> list:
    games = {ToyTrick.name: ToyTrick, **cards.GAMES}
    return [
        pytest.param(cls, players, id=f"{name}-{players}p")
        for name, cls in sorted(games.items())
        for players in cls.player_counts
    ]


GAMES = _games()


# ----- specs ---------------------------------------------------------------------------------------


def test_make_bot_understands_the_specs():
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    plain = make_bot("mcts")
    assert isinstance(plain, ISMCTSBot) and plain.iterations is None  # the game's own default
    bot = make_bot(" MCTS:50,rollout=heuristic,time=0.5,c=1.2,cut=off ")
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.rollout, bot.time_limit, bot.exploration, bot.cut_rounds) == (
        50, "heuristic", 0.5, 1.2, False,
    )
    assert make_bot("mcts:iterations=7").iterations == 7
    assert make_bot("mcts:7,opponents=policy").opponents == "policy"
    for spec in ("mcts", "mcts:time=0.5", "mcts:9,rollout=heuristic,c=1.5,cut=off,opponents=policy"):
        assert make_bot(spec).name == spec  # a bot's name is its spec
        assert make_bot(make_bot(spec).name).name == spec


@pytest.mark.parametrize(
    "spec,complaint",
    [
        ("minimax", "unknown bot"),
        ("random:3", "unknown bot"),
        ("mcts:lots", "iterations needs a number"),
        ("mcts:0", "at least 1"),
        ("mcts:10,rollout=smart", "rollout must be"),
        ("mcts:10,depth=3", "unknown mcts setting"),
        ("mcts:10,time=-1", "time must be positive"),
        ("mcts:10,cut=maybe", "cut must be"),
        ("mcts:10,opponents=all", "opponents must be"),
    ],
)
def test_make_bot_refuses_bad_specs_saying_why(spec, complaint):
    with pytest.raises(ValueError, match=complaint):
        make_bot(spec)


def test_heuristic_bot_needs_the_engine_heuristic():
    class NoHeuristic(ToyTrick):
        pass

    NoHeuristic.__module__ = __name__  # this test module defines no heuristic_action
    with pytest.raises(LookupError, match="heuristic_action"):
        engine_heuristic(NoHeuristic)
    assert engine_heuristic(ToyTrick) is toy_heuristic


# ----- every bot plays legal moves in every game -------------------------------------------------------


@pytest.mark.parametrize("cls,players", GAMES)
@pytest.mark.parametrize("spec", ["random", "heuristic", "mcts:8"])
def test_bots_play_whole_games_with_legal_actions(cls, players, spec):
    for seed in range(2):
        game = cls.new(players, seed)
        bots = [make_bot(spec, seed * 10 + s) for s in range(players)]
        n = 0
        while not game.is_over:
            legal = game.legal_actions()
            action = bots[game.to_play].act(game)
            assert action in legal, f"{spec} chose {action!r}, not one of {legal}"
            game.apply(action)
            n += 1
        assert n > 0 and game.winners()


@pytest.mark.parametrize("cls,players", GAMES)
def test_same_seeds_same_game(cls, players):
    def play(seed: int) -> str:
        game = cls.new(players, 5)
        play_out(game, [make_bot("mcts:10" if s == 0 else "random", seed + s) for s in range(players)])
        return str(game)

    assert play(1) == play(1)


# ----- the search bot never looks at hidden cards -------------------------------------------------------


class _Spy:
    """Stands in for the real game and records what the bot asks of it."""

    ALLOWED = {"to_play", "legal_actions", "resample_hidden", "name", "num_players", "is_over"}

    def __init__(self, game: CardGame) -> None:
        self._game = game
        self.asked: list[str] = []
        self.resampled_for: list[int] = []

    def __getattr__(self, attr: str):
        self.asked.append(attr)
        value = getattr(self._game, attr)
        if attr == "resample_hidden":
            def resample(player, rng):
                self.resampled_for.append(player)
                return value(player, rng)
            return resample
        return value


@pytest.mark.parametrize("cls,players", GAMES)
def test_search_bot_only_uses_determinisations_from_its_own_seat(cls, players):
    game = cls.new(players, 2)
    rng = random.Random(2)
    for _ in range(3):  # a few decisions into the game
        while len(game.legal_actions()) < 2 and not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            break
        me = game.to_play
        spy = _Spy(game)
        action = ISMCTSBot(iterations=6, seed=1).act(spy)  # type: ignore[arg-type]
        assert action in game.legal_actions()
        assert set(spy.asked) <= _Spy.ALLOWED, f"the bot read {set(spy.asked) - _Spy.ALLOWED}"
        assert spy.resampled_for and set(spy.resampled_for) == {me}
        game.apply(action)


def test_search_bot_decision_does_not_depend_on_the_opponents_real_cards():
    """Two deals that look the same from the bot's seat get the same decision: whatever the
    opponent really holds, the bot sees only what its seat knows. (The toy game re-deals from a
    sorted pool, so the same generator gives the same re-deals from both.)"""
    different_deals = 0
    for seed in range(6):
        game = ToyTrick.new(seed=seed)
        game.apply(game.legal_actions()[0])  # seat 0 leads; now seat 1 decides
        other_world = game.resample_hidden(1, random.Random(99 + seed))
        assert other_world.observation(1) == game.observation(1)
        different_deals += other_world.card_zones() != game.card_zones()
        a = ISMCTSBot(iterations=60, seed=seed).act(game)
        b = ISMCTSBot(iterations=60, seed=seed).act(other_world)
        assert a == b
    assert different_deals >= 3


# ----- budgets ---------------------------------------------------------------------------------------


def test_time_limit_stops_the_search_early():
    game = ToyTrick.new(seed=1)
    bot = ISMCTSBot(iterations=10**9, time_limit=0.05, seed=1)
    start = time.perf_counter()
    action = bot.act(game)
    assert time.perf_counter() - start < 2.0
    assert action in game.legal_actions()
    assert 0 < bot.last_iterations < 10**9


def test_iteration_budget_is_the_number_of_determinisations():
    game = ToyTrick.new(seed=1)
    spy = _Spy(game)
    bot = ISMCTSBot(iterations=37, seed=1)
    bot.act(spy)  # type: ignore[arg-type]
    assert len(spy.resampled_for) == 37 == bot.last_iterations
    assert sum(bot.last_visits.values()) == 37


def test_forced_move_is_played_without_search():
    game = ToyTrick.new(seed=1)
    while len(game.legal_actions()) != 1:
        game.apply(game.legal_actions()[0])
    spy = _Spy(game)
    assert ISMCTSBot(iterations=50).act(spy) == game.legal_actions()[0]  # type: ignore[arg-type]
    assert spy.resampled_for == []


# ----- matches ---------------------------------------------------------------------------------------


def test_evaluate_rotates_seats_and_is_reproducible_in_parallel():
    one = evaluate(ToyTrick, "mcts:20", "random", games=8, seed=3, jobs=1)
    two = evaluate(ToyTrick, "mcts:20", "random", games=8, seed=3, jobs=2)
    assert one.games == 8 and one.wins + one.draws + one.losses == 8
    assert sum(one.per_seat_wins) == one.wins
    a, b = one.to_json(), two.to_json()
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_random_bot_against_itself_wins_about_half():
    """Sanity check of the match bookkeeping: equal bots, equal chances (toy game, 400 games)."""
    res = evaluate(ToyTrick, "random", "random", games=400, seed=0)
    assert 0.40 <= res.win_rate <= 0.60


#: (game, players) -> bot spec used in the quick strength test (the defaults are stronger).
QUICK_BOT = {"sumida-river": "mcts:10"}


@pytest.mark.parametrize("cls,players", GAMES)
def test_search_bot_beats_random(cls, players):
    """40 seeded games, the search bot's seat alternating: it must win at least 60% of them
    (tools/bench_cards.py --strength measures 200 games against a 70% bar)."""
    spec = QUICK_BOT.get(cls.name, "mcts")
    res = evaluate(cls, spec, "random", games=40, seed=1, players=players, jobs=2)
    assert res.win_rate >= 0.60, res.to_json()


# ----- search variants ------------------------------------------------------------------------------


class _CountingToy(ToyTrick):
    """Counts the actions applied to it and to its copies."""

    applied = 0

    def apply(self, action):
        type(self).applied += 1
        super().apply(action)


def test_playout_cut_stops_playouts_at_the_event_and_values_it(monkeypatch):
    from cards import bots

    # Value the end of the first trick: 1 for its winner.
    cut = bots.PlayoutCut("trick", lambda e, g: [float(e["winner"] == s) for s in range(2)])
    monkeypatch.setattr(_CountingToy, "name", "counting-toy")
    monkeypatch.setitem(bots.PLAYOUT_CUTS, "counting-toy", cut)
    game = _CountingToy.new(seed=4)
    _CountingToy.applied = 0
    ISMCTSBot(iterations=50, seed=1).act(game)
    assert _CountingToy.applied <= 50 * 2  # one trick (two cards) per iteration, not five tricks
    _CountingToy.applied = 0
    ISMCTSBot(iterations=50, seed=1, cut_rounds=False).act(game)
    assert _CountingToy.applied == 50 * 10  # without the cut every play-out runs to the end
    # Following a led card with the cut, the bot wins the trick as a player would when it can.
    game.apply("play " + min(game.hands[0], key=lambda c: int(c[0])))
    led = game.trick[0][1]
    winners = [c for c in game.hands[1] if c[1] == led[1] and int(c[0]) > int(led[0])]
    if winners:
        assert ISMCTSBot(iterations=200, seed=1).act(game)[5:] in winners


def test_opponents_modelled_by_the_policy_still_beats_random():
    res = evaluate(ToyTrick, "mcts:100,opponents=policy", "random", games=40, seed=2)
    assert res.win_rate >= 0.60, res.to_json()


# ----- the equilibrium-seeking bot (online MCCFR) ---------------------------------------------------


def test_make_bot_understands_the_cfr_specs():
    from cards.mccfr import MCCFRBot

    bot = make_bot("cfr:300,time=0.5,explore=0.4,choice=best")
    assert isinstance(bot, MCCFRBot)
    assert (bot.iterations, bot.time_limit, bot.exploration, bot.choice) == (300, 0.5, 0.4, "best")
    for spec in ("cfr", "cfr:300", "cfr:300,time=0.5,explore=0.4,choice=best"):
        assert make_bot(spec).name == spec
    for spec, complaint in (("cfr:0", "at least 1"), ("cfr:9,choice=max", "choice must be"),
                            ("cfr:9,depth=2", "unknown cfr setting"), ("cfr:9,explore=0", "exploration")):
        with pytest.raises(ValueError, match=complaint):
            make_bot(spec)


def test_cfr_bot_plays_sumo_with_a_mixed_strategy_from_what_its_seat_knows():
    from cards.mccfr import MCCFRBot
    from cards.sumo import Sumo

    game = Sumo.new(seed=4)
    bot = MCCFRBot(iterations=150, seed=2)
    strategy = bot.strategy(game)
    assert set(strategy) == set(game.legal_actions())
    assert sum(strategy.values()) == pytest.approx(1.0) and all(p >= 0 for p in strategy.values())
    # The same search from a world that looks the same to seat 0 gives the same strategy.
    other = game.resample_hidden(0, random.Random(5))
    assert other.card_zones() != game.card_zones()
    assert MCCFRBot(iterations=150, seed=2).strategy(other) == strategy
    # It samples its move from that strategy: over many seeds it does not always play one card.
    moves = {MCCFRBot(iterations=40, seed=s).act(game) for s in range(12)}
    assert len(moves) > 1 and moves <= set(game.legal_actions())


def test_cfr_bot_wins_sumo_against_random_and_hands_other_games_to_the_search():
    from cards.mccfr import MCCFRBot

    res = evaluate(cards.GAMES["sumo"], "cfr:60", "random", games=40, seed=3)
    assert res.wins >= 28, res.to_json()  # random wins about half; the rule of thumb about 3 in 4
    g = cards.GAMES["sumo-card-game"].new(2, 1)
    bot = MCCFRBot(iterations=20, seed=1, search=ISMCTSBot)
    assert bot.act(g) in g.legal_actions()
    assert bot._search is not None  # the strong search made that move


# ----- the Equilibrium level: search, with ties mixed by MCCFR ---------------------------------------


class _FixedSearch:
    """A stand-in search that reports given estimates (so a test can say what the search thinks)."""

    def __init__(self, values: dict[int, float], visits: dict[int, int], **_: Any) -> None:
        self.by_rank = (values, visits)
        self.last_values: dict[str, float] = {}
        self.last_visits: dict[str, int] = {}

    def act(self, game: Any, rng: random.Random | None = None) -> str:
        legal = game.legal_actions()
        values, visits = self.by_rank
        self.last_values = {legal[i]: v for i, v in values.items()}
        self.last_visits = {legal[i]: n for i, n in visits.items()}
        return max(self.last_values, key=self.last_values.__getitem__)


def test_make_bot_understands_the_eq_specs():
    from cards.equilibrium import EquilibriumBot

    bot = make_bot("eq:300,time=0.5,margin=0.05,cfr=50")
    assert isinstance(bot, EquilibriumBot)
    assert (bot.iterations, bot.time_limit, bot.margin, bot.cfr_iterations) == (300, 0.5, 0.05, 50)
    for spec in ("eq:1000", "eq:300,time=0.5,margin=0.05,cfr=50,deals=7",
                 "eq:1000,reveal=playout,trust=0.5", "eq:10,reveal=search", "eq:1000,deals=100,model=0.5"):
        assert make_bot(spec).name == spec
    for spec, complaint in (("eq:0", "at least 1"), ("eq:9,margin=2", "margin"),
                            ("eq:9,depth=2", "unknown eq setting"), ("eq:x", "needs a number"),
                            ("eq:9,reveal=peek", "reveal must be"), ("eq:9,trust=2", "trust"),
                            ("eq:9,model=2", "model")):
        with pytest.raises(ValueError, match=complaint):
            make_bot(spec)


def test_eq_bot_plays_the_clear_best_and_mixes_only_what_the_search_cannot_tell_apart():
    from cards.equilibrium import EquilibriumBot
    from cards.sumo import Sumo

    game = Sumo.new(seed=4)
    legal = game.legal_actions()
    assert len(legal) >= 3

    def bot(values: dict[int, float], visits: dict[int, int], seed: int) -> EquilibriumBot:
        return EquilibriumBot(iterations=10, cfr_iterations=60, seed=seed, reveal="search",
                              search=lambda **kw: _FixedSearch(values, visits, **kw))

    clear = bot({0: 0.4, 1: 0.7, 2: 0.5}, {0: 50, 1: 300, 2: 80}, 1)
    assert clear.strategy(game) == {legal[1]: 1.0}
    # Two actions within the margin, well visited; a third just as good by estimate but hardly tried.
    close = {0: 0.60, 1: 0.61, 2: 0.61}, {0: 200, 1: 210, 2: 5}
    moves = {bot(*close, seed=s).act(game) for s in range(16)}
    assert moves == {legal[0], legal[1]}
    s = bot(*close, seed=3).strategy(game)
    assert set(s) <= {legal[0], legal[1]} and sum(s.values()) == pytest.approx(1.0)


def test_eq_bot_is_the_search_in_the_other_games():
    from cards.equilibrium import EquilibriumBot

    g = cards.GAMES["sumo-card-game"].new(2, 1)
    bot = EquilibriumBot(iterations=30, seed=1, search=ISMCTSBot)
    a = bot.act(g)
    assert bot.last_mix == {a: 1.0}
    search = bot.search
    assert isinstance(search, ISMCTSBot) and search.last_iterations == 30
    assert search.rollout == "heuristic"
    visits, values = search.last_visits, search.last_values
    assert a == max(g.legal_actions(), key=lambda x: (visits.get(x, -1), values.get(x, 0.0)))


def test_eq_bot_solves_sumo_tricks_and_plays_a_sure_win():
    from cards.equilibrium import EquilibriumBot
    from cards.sumo import Sumo

    g = Sumo.new(seed=1, hands=[["1C", "1D", "1H", "2C", "2S", "3H", "4C", "5D"],
                                ["1S", "2D", "2H", "3C", "3S", "4D", "4H", "5H"]])
    for a in ("reveal 4C", "reveal 3S", "play 1H"):
        g.apply(a)
    for seed in range(4):
        bot = EquilibriumBot(iterations=10, deals=6, cfr_iterations=20, seed=seed, search=ISMCTSBot)
        assert bot.act(g) == "play 4H"  # abise-taoshi: a four of hearts on the led one wins at once
        assert bot.last_deals == 210  # every deal: 6 of the 10 cards seat 1 has not seen
