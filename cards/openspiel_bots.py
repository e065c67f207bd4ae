"""OpenSpiel's own search bots, playing our card games (needs OpenSpiel: ``kabuto[openspiel]``).

* :func:`ismcts_bot` - OpenSpiel's Python ``ISMCTSBot`` (information-set MCTS, Cowling et al.),
  re-dealing hidden cards through the adapter's ``resample_from_infostate``; with ``time_limit`` it
  searches until the time is up instead of for a fixed number of simulations (the only change, so
  that it can be compared with our bot at equal time per move).
* :class:`DeterminizedMCTSBot` - "MCTS on determinisations": at each decision it re-deals the
  hidden cards several times and runs OpenSpiel's perfect-information ``MCTSBot`` on each re-deal,
  then plays the action with the most visits in total. (Plain ``MCTSBot`` on the true state would
  look at the other seats' cards.)
* :class:`SpielPlayer` - any OpenSpiel bot as a :class:`cards.api.Bot`: ``act(game)`` on one of
  our engine states, so :func:`cards.bots.play_out` and the benchmarks can seat it.

Both search bots value leaves by OpenSpiel's ``RandomRolloutEvaluator`` (random play to the end).
"""
from __future__ import annotations

import time
from collections import Counter
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cards import openspiel_adapter as oa
from cards.api import Action, CardGame

#: OpenSpiel's usual UCT constant for its MCTS examples (returns are in [-1, 1]).
DEFAULT_UCT_C = 2.0


class _TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTSBot that stops at a deadline (``time_limit`` seconds per decision)."""

    def __init__(self, *args: Any, time_limit: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.time_limit = time_limit
        self.last_simulations = 0

    def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
        # OpenSpiel's run_search, with the simulation loop bounded by time as well as by count.
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.time_limit
        done = 0
        while done < self._max_simulations:
            self.run_simulation(self.sample_root_state(state))
            done += 1
            # (The first simulation only expands the root: at least one more is needed to choose.)
            if time.perf_counter() >= deadline and self._root_node.total_visits > 0:
                break
        self.last_simulations = done
        return self.get_final_policy(state, self._root_node)


def ismcts_bot(
    game: pyspiel.Game,
    simulations: int = 1000,
    time_limit: float | None = None,
    seed: int = 0,
    uct_c: float = DEFAULT_UCT_C,
) -> ismcts.ISMCTSBot:
    """OpenSpiel's ISMCTSBot with random roll-outs, as its examples configure it."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    kwargs: dict[str, Any] = dict(
        random_state=rng,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        use_observation_string=False,
        allow_inconsistent_action_sets=False,
    )
    if time_limit is None:
        return ismcts.ISMCTSBot(game, evaluator, uct_c, simulations, **kwargs)
    return _TimedISMCTSBot(game, evaluator, uct_c, 10**9, time_limit=time_limit, **kwargs)


class DeterminizedMCTSBot(pyspiel.Bot):
    """OpenSpiel's MCTSBot run on ``determinizations`` re-deals of the hidden cards per decision."""

    def __init__(
        self,
        game: pyspiel.Game,
        simulations: int = 200,
        determinizations: int = 4,
        seed: int = 0,
        uct_c: float = DEFAULT_UCT_C,
    ) -> None:
        super().__init__()
        self._rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self._rng)
        per = max(1, simulations // determinizations)
        self._mcts = mcts.MCTSBot(game, uct_c, per, evaluator, solve=False, random_state=self._rng)
        self.determinizations = determinizations

    def step(self, state: pyspiel.State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        visits: Counter[int] = Counter()
        for _ in range(self.determinizations):
            world = state.resample_from_infostate(me, self._rng.uniform)
            root = self._mcts.mcts_search(world)
            for child in root.children:
                visits[child.action] += child.explore_count
        return max(legal, key=lambda a: (visits[a], -a))

    def restart_at(self, state: pyspiel.State) -> None:
        pass


class SpielPlayer:
    """An OpenSpiel bot seated at one of our games (the :class:`cards.api.Bot` protocol)."""

    def __init__(self, spiel_game: pyspiel.Game, bot: pyspiel.Bot, name: str) -> None:
        self.spiel_game = spiel_game
        self.bot = bot
        self.name = name

    def act(self, game: CardGame, rng: Any = None) -> Action:
        state = oa.from_engine(self.spiel_game, game)
        action = self.bot.step(state)
        return oa.action_table(game.name)[action]
