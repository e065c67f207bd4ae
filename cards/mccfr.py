"""An equilibrium-seeking bot for SUMO: online outcome-sampling MCCFR.

Search bots such as ISMCTS pick the one action that looks best; in a game of hidden cards a fixed
choice can be read and punished. Counterfactual regret minimisation (CFR) instead approaches a
Nash equilibrium: a *mixed* strategy that no opponent can exploit. Full SUMO is far too big for CFR
over the whole game tree (62,355,150 deals, each with its own tree), so this bot runs it online:

* At each decision it samples worlds consistent with what it knows (``resample_hidden``) and runs
  **outcome-sampling MCCFR** (Lanctot et al. 2009, as in OpenSpiel's ``outcome_sampling_mccfr``)
  on the game from there: one sampled play to the end per iteration and seat, exploring the
  updating seat's actions with probability ``exploration``, regret matching at every information
  set, importance-weighted regrets. Both seats' information sets are keyed by what that seat
  knows (:func:`sumo_information_key`: perfect recall within the deal), so the search does not
  mix up worlds the seat could tell apart.
* It then **samples** its action from the average strategy of its own information set, as an
  equilibrium player must (``choice="best"`` plays the most likely action instead).

``tools/sumo_equilibrium.py`` measures how exploitable it is with OpenSpiel, on SUMO with a short
deal (the full game is too big for an exact best response), next to ISMCTS and OpenSpiel's own
offline MCCFR. It plays SUMO only; in the other games it hands every decision to the strong search
(ISMCTS with rule-of-thumb play-outs and the same time limit), so one bot spec serves every table.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from cards.api import Action, CardGame

if TYPE_CHECKING:
    from cards.api import Bot

#: Iterations (each one sampled play per seat) per decision, unless a time limit stops sooner.
DEFAULT_ITERATIONS = 4000
#: Probability of a uniformly random action at the updating seat's nodes (OpenSpiel uses 0.6).
DEFAULT_EXPLORATION = 0.6
#: Iterations of the search bot this bot hands the other games to (the table's "strong" level).
FALLBACK_ITERATIONS = 1000

InfoKey = Callable[[CardGame, int], str]


def sumo_information_key(game: CardGame, seat: int) -> str:
    """What ``seat`` knows in a SUMO game, as a string (equal exactly for indistinguishable states).

    Own hand and own face-down card; this deal's reveals in order (a face-down card of the other
    seat is only known to be there); the tricks in order and the card led now. Together with the
    cards dealt (own hand plus what was played) that is the seat's whole history of the deal.
    """
    g = game
    fd = g.face_down if seat == 0 else ("?" if g.face_down is not None else "")  # type: ignore[attr-defined]
    tricks = ";".join(f"{t[0]}{t[1]}{t[2]}" for t in g.tricks)  # type: ignore[attr-defined]
    return (f"{seat}|{g.deal_no}|{','.join(g.hands[seat])}|{fd or ''}|"  # type: ignore[attr-defined]
            f"{','.join(g.set_aside[0])}|{','.join(g.set_aside[1])}|{tricks}|{g.lead or ''}")  # type: ignore[attr-defined]


#: Information-set keys of the games this bot can play.
KEYS: dict[str, InfoKey] = {"sumo": sumo_information_key}


class _Tables:
    """Regrets and average-strategy sums per information set (lists aligned with the sorted legal
    actions, which are the same in every state of one information set)."""

    __slots__ = ("regret", "average")

    def __init__(self) -> None:
        self.regret: dict[str, list[float]] = {}
        self.average: dict[str, list[float]] = {}

    def policy(self, key: str, n: int) -> list[float]:
        r = self.regret.get(key)
        if r is None:
            return [1.0 / n] * n
        pos = [x if x > 0.0 else 0.0 for x in r]
        total = sum(pos)
        if total <= 0.0:
            return [1.0 / n] * n
        return [x / total for x in pos]


class MCCFRBot:
    """Online outcome-sampling MCCFR for SUMO (see the module docstring).

    ``iterations`` bounds the iterations per decision, ``time_limit`` (seconds) stops sooner;
    ``exploration`` is the exploration rate; ``choice`` is ``"sample"`` (from the average strategy)
    or ``"best"``. Reproducible with a seed and no time limit.
    """

    def __init__(
        self,
        iterations: int | None = None,
        time_limit: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        choice: str = "sample",
        seed: int | None = 0,
        search: Callable[..., Bot] | None = None,
    ) -> None:
        """``search`` makes the bot used in games this one has no information-set key for (it is
        called with ``iterations``, ``time_limit``, ``rollout`` and ``seed``); :func:`cards.bots.
        make_bot` passes ISMCTS. Handed in, not imported, so this module does not depend on the
        bots module that offers it."""
        if iterations is not None and iterations < 1:
            raise ValueError("cfr: iterations must be at least 1")
        if time_limit is not None and time_limit <= 0:
            raise ValueError("cfr: time must be positive")
        if not 0.0 < exploration <= 1.0:
            raise ValueError("cfr: exploration must be above 0 and at most 1")
        if choice not in ("sample", "best"):
            raise ValueError(f"cfr: choice must be 'sample' or 'best', not {choice!r}")
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.choice = choice
        self.rng = random.Random(seed)
        self._make_search = search
        parts = [] if iterations is None else [str(iterations)]
        if time_limit:
            parts.append(f"time={time_limit}")
        if exploration != DEFAULT_EXPLORATION:
            parts.append(f"explore={exploration:g}")
        if choice != "sample":
            parts.append(f"choice={choice}")
        self.name = "cfr" + (":" + ",".join(parts) if parts else "")
        self._search: Bot | None = None
        #: The iterations run at the last decision.
        self.last_iterations = 0

    def _fallback(self) -> Bot:
        """The strong search, for the games this bot has no information-set key for."""
        if self._search is None:
            if self._make_search is None:
                raise ValueError("cfr: this game needs a search bot to fall back on (give search=)")
            iterations = None if self.iterations is None else min(self.iterations, FALLBACK_ITERATIONS)
            self._search = self._make_search(iterations=iterations or FALLBACK_ITERATIONS,
                                             time_limit=self.time_limit, rollout="heuristic",
                                             seed=self.rng.randrange(2**32))
        return self._search

    def strategy(self, game: CardGame, rng: random.Random | None = None) -> dict[Action, float]:
        """Search from ``game`` (the seat to play's view) and return its average strategy there."""
        rng = rng or self.rng
        me = game.to_play
        if me is None:
            raise ValueError("cfr: the game is over, there is nothing to choose")
        key_of = KEYS.get(game.name)
        if key_of is None:
            raise ValueError(f"cfr: no information-set key for {game.name!r} (the bot plays {', '.join(KEYS)})")
        legal = game.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return {legal[0]: 1.0}
        tables = _Tables()
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        budget = self.iterations or DEFAULT_ITERATIONS
        done = 0
        while done < budget:
            done += 1
            for update in range(game.num_players):
                world = game.resample_hidden(me, rng)
                self._episode(world, update, 1.0, 1.0, 1.0, tables, key_of, rng)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        avg = tables.average.get(key_of(game, me))
        total = sum(avg) if avg else 0.0
        if not avg or total <= 0.0:
            probs = tables.policy(key_of(game, me), len(legal))
        else:
            probs = [x / total for x in avg]
        return dict(zip(legal, probs, strict=True))

    def act(self, game: CardGame, rng: random.Random | None = None) -> Action:
        rng = rng or self.rng
        if game.name not in KEYS:
            return self._fallback().act(game, rng)
        s = self.strategy(game, rng)
        actions = list(s)
        if self.choice == "best" or len(actions) == 1:
            return max(actions, key=lambda a: (s[a], a))
        return rng.choices(actions, [s[a] for a in actions])[0]

    def _episode(
        self,
        g: CardGame,
        update: int,
        my_reach: float,
        opp_reach: float,
        sample_reach: float,
        tables: _Tables,
        key_of: InfoKey,
        rng: random.Random,
    ) -> float:
        """One sampled play from ``g`` (changed in place); returns the updating seat's utility.

        Chance (a re-deal, the sampled world itself) is drawn from its true probabilities, which
        would multiply ``opp_reach`` and ``sample_reach`` alike: it cancels and is left out.
        """
        cur = g.to_play
        if cur is None:
            return g.returns()[update]
        legal = g.legal_actions()
        n = len(legal)
        if n == 1:  # nothing to decide: not an information set worth a table entry
            g.apply(legal[0])
            return self._episode(g, update, my_reach, opp_reach, sample_reach, tables, key_of, rng)
        key = key_of(g, cur)
        policy = tables.policy(key, n)
        if cur == update:
            e = self.exploration
            sample = [e / n + (1.0 - e) * p for p in policy]
        else:
            sample = policy
        r = rng.random()
        a = 0
        while a < n - 1 and r >= sample[a]:  # (sample sums to 1)
            r -= sample[a]
            a += 1
        g.apply(legal[a])
        if cur == update:
            child = self._episode(g, update, my_reach * policy[a], opp_reach, sample_reach * sample[a],
                                  tables, key_of, rng)
        else:
            child = self._episode(g, update, my_reach, opp_reach * policy[a], sample_reach * sample[a],
                                  tables, key_of, rng)
        # Baseline-free estimates: the sampled action's value over its sampling probability.
        value_a = child / sample[a]
        estimate = policy[a] * value_a
        if cur == update:
            w = opp_reach / sample_reach
            regret = tables.regret.setdefault(key, [0.0] * n)
            for b in range(n):
                regret[b] += ((value_a if b == a else 0.0) - estimate) * w
            avg = tables.average.setdefault(key, [0.0] * n)
            inc = my_reach / sample_reach
            for b in range(n):
                avg[b] += policy[b] * inc
        return estimate
