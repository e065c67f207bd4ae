"""The Equilibrium level: exact play of sampled deals in SUMO's tricks, search elsewhere, and the
equilibrium mix where neither can tell actions apart.

A search bot (ISMCTS) estimates how much of the game each action wins and plays the best one, always
the same one in the same situation: an opponent who notices can read it. An equilibrium strategy
(:mod:`cards.mccfr`, online MCCFR) mixes its actions so that it cannot be read - but in full SUMO
the online MCCFR bot, with the time it has, estimates values much less well than the search and
loses to it head to head (docs/openspiel.md). This bot takes the best of each:

1. **Estimate.** In SUMO's tricks (after the reveals) each action's share of the game is its mean
   outcome over ``deals`` re-dealt copies of the position (perfect-information Monte Carlo), each
   copy solved exactly (:mod:`cards.sumo_solver`): SUMO's tricks are short enough to search to the
   end. Elsewhere (SUMO's reveals, where the seats choose blind, and the other card games) ISMCTS
   with rule-of-thumb play-outs and ``iterations`` determinisations estimates them.
2. **Keep the near-best.** The actions whose estimate is within ``margin`` of the best one and which
   the search visited at least ``min_share`` as often are ones it cannot tell apart: playing any of
   them gives up at most ``margin`` by its own estimate.
3. **Mix among them** by the average strategy of online MCCFR from the same position (SUMO: the
   game :mod:`cards.mccfr` has information-set keys for), restricted to the near-best actions and
   renormalised; uniformly if MCCFR gives them no weight. With one near-best action (the usual case
   when something is at stake) that action is played.

In the other card games there is no solver and no equilibrium search, so the bot is the search
alone. Reproducible with a seed and no time limit.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from cards.api import Action, CardGame
from cards.mccfr import KEYS, MCCFRBot
from cards.sumo import PLAY_PHASE, Sumo
from cards.sumo_solver import action_values

if TYPE_CHECKING:
    from cards.bots import Bot

#: Search iterations per decision (where the tricks are not solved): the Strong search level's.
DEFAULT_ITERATIONS = 1000
#: How far below the best estimate (a share of the game, 0..1) an action may be and still count
#: as one the search cannot tell from the best.
DEFAULT_MARGIN = 0.02
#: ... and the share of the best action's visits it needs (a rarely tried action's estimate is noise).
MIN_SHARE = 0.25
#: MCCFR iterations for the mix, and the share of the time limit the search may use.
DEFAULT_CFR_ITERATIONS = 400
SEARCH_SHARE = 0.8
#: SUMO's tricks: re-dealt copies of the position solved exactly per decision (time permitting).
DEFAULT_DEALS = 40


class EquilibriumBot:
    """Strong search, with ties broken by the equilibrium mix (see the module docstring)."""

    def __init__(
        self,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit: float | None = None,
        margin: float = DEFAULT_MARGIN,
        cfr_iterations: int = DEFAULT_CFR_ITERATIONS,
        deals: int = DEFAULT_DEALS,
        seed: int | None = 0,
        search: Callable[..., Bot] | None = None,
    ) -> None:
        """``search`` makes the search bot (called with ``iterations``, ``time_limit``, ``rollout``
        and ``seed``); :func:`cards.bots.make_bot` passes ISMCTS. Handed in, not imported, so this
        module does not depend on the bots module that offers it."""
        if iterations < 1 or cfr_iterations < 1 or deals < 1:
            raise ValueError("eq: iterations must be at least 1")
        if time_limit is not None and time_limit <= 0:
            raise ValueError("eq: time must be positive")
        if not 0.0 <= margin <= 1.0:
            raise ValueError("eq: margin must be between 0 and 1")
        if search is None:
            raise ValueError("eq: give the search bot to use (search=)")
        self.iterations = iterations
        self.time_limit = time_limit
        self.margin = margin
        self.cfr_iterations = cfr_iterations
        self.deals = deals
        self.last_deals = 0
        self.rng = random.Random(seed)
        parts = [str(iterations)]
        if time_limit:
            parts.append(f"time={time_limit}")
        if margin != DEFAULT_MARGIN:
            parts.append(f"margin={margin:g}")
        if cfr_iterations != DEFAULT_CFR_ITERATIONS:
            parts.append(f"cfr={cfr_iterations}")
        if deals != DEFAULT_DEALS:
            parts.append(f"deals={deals}")
        self.name = "eq:" + ",".join(parts)
        search_time = None if time_limit is None else time_limit * SEARCH_SHARE
        self.search = search(iterations=iterations, time_limit=search_time, rollout="heuristic",
                             seed=self.rng.randrange(2**32))
        #: The near-best actions of the last decision with their weights in the mix.
        self.last_mix: dict[Action, float] = {}

    def strategy(self, game: CardGame, rng: random.Random | None = None) -> dict[Action, float]:
        """The bot's mixed strategy here: {action: probability} over the legal actions it may play."""
        rng = rng or self.rng
        started = time.perf_counter()
        legal = game.legal_actions()
        if len(legal) == 1:
            return {legal[0]: 1.0}
        if isinstance(game, Sumo) and game.phase == PLAY_PHASE:
            values, visits = self._solved_deals(game, rng, started)
            best = max(legal, key=lambda a: values[a])
        else:
            best = self.search.act(game, rng)
            values = getattr(self.search, "last_values", {})
            visits = getattr(self.search, "last_visits", {})
        top, top_visits = values.get(best), visits.get(best, 0)
        if top is None or game.name not in KEYS:
            return {best: 1.0}
        near = [a for a in legal if a in values and values[a] >= top - self.margin
                and visits.get(a, 0) >= MIN_SHARE * top_visits]
        if len(near) <= 1:
            return {best: 1.0}
        left = None if self.time_limit is None else max(0.05, self.time_limit - (time.perf_counter() - started))
        mix = MCCFRBot(iterations=self.cfr_iterations, time_limit=left,
                       seed=rng.randrange(2**32)).strategy(game, rng)
        weights = [mix.get(a, 0.0) for a in near]
        total = sum(weights)
        if total <= 0.0:
            return dict.fromkeys(near, 1.0 / len(near))
        return {a: w / total for a, w in zip(near, weights, strict=True) if w > 0.0}

    def _solved_deals(
        self, game: Sumo, rng: random.Random, started: float
    ) -> tuple[dict[Action, float], dict[Action, int]]:
        """SUMO's tricks: each action's share of the game over ``deals`` re-dealt copies of the
        position (what this seat knows kept), each solved exactly (:mod:`cards.sumo_solver`)."""
        me = game.turn
        legal = game.legal_actions()
        totals = dict.fromkeys(legal, 0.0)
        deadline = None if self.time_limit is None else started + self.time_limit * SEARCH_SHARE
        done = 0
        while done < self.deals:
            world = game.resample_hidden(me, rng)
            for a, v in action_values(world).items():
                totals[a] += v
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_deals = done
        return {a: (t / done + 1.0) / 2.0 for a, t in totals.items()}, dict.fromkeys(legal, done)

    def act(self, game: CardGame, rng: random.Random | None = None) -> Action:
        rng = rng or self.rng
        s = self.last_mix = self.strategy(game, rng)
        actions = list(s)
        if len(actions) == 1:
            return actions[0]
        return rng.choices(actions, [s[a] for a in actions])[0]
