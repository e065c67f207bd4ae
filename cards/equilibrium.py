"""The Equilibrium level: SUMO's reveals played as the equilibrium of a small blind game, its tricks
solved exactly over every deal the seat cannot rule out, and the equilibrium mix where neither can
tell actions apart.

A search bot (ISMCTS) estimates how much of the game each action wins and plays the best one,
always the same one in the same situation. This bot computes instead:

1. **The reveal** (who leads) is a simultaneous blind choice that also gives up a card. For
   ``deals`` sampled hands of the other seat (what this seat knows kept), every pair (my card, their
   card) is valued by the tricks that follow, and the bot plays the equilibrium of that game in
   which the other seat answers with the best card of its own hand (:mod:`cards.matrix_game`): a
   mixed strategy over its cards. The pairs are valued (``reveal="guess"``) by exact play
   (:mod:`cards.sumo_solver`) after a first lead chosen by a leader who must guess: exact play
   from the first lead on (``reveal="matrix"``) lets the leader win three deals in four, far more
   than leaders do in play, and made the bot reveal high far too often. That equilibrium lets each
   hand of the other seat answer as if it saw this seat's hand; with ``model`` above 0 the bot
   trusts, with that weight, a model of the other seat's reveal that sees only its own hand
   (:data:`REVEAL_ODDS`, fitted to the Strong search's reveals): ``model=1`` is the best response
   to it.
2. **The tricks.** Each action's share of the game is its mean exact outcome over *every* deal of
   the unseen cards consistent with what the seat saw (after the reveals at most C(11, 7) = 330,
   fewer as suits run out), solved exactly (:func:`cards.sumo_solver.joint_values`). Solving
   each deal on its own (perfect-information Monte Carlo) would let the seat pick its *later*
   cards deal by deal, as if it could see the other hand; with ``lookahead`` 2 its next decision
   is made once for all the deals it cannot tell apart then, so a line that needs a lucky guess
   later is valued as a guess. With ``trust`` above 0, each deal is weighted by how likely the
   other seat's plays so far were in it, if it played each trick as the solver would with
   probability ``trust`` (and otherwise any legal card).
3. **Mix among near-ties.** The actions within ``margin`` of the best are ones the estimate cannot
   tell apart: they are mixed by the average strategy of online MCCFR from the same position
   (:mod:`cards.mccfr`), renormalised; uniformly if MCCFR gives them no weight.

In the other card games there is no solver, so the bot is the Strong search (ISMCTS with
rule-of-thumb play-outs, ``iterations`` a decision); ``reveal="search"`` plays SUMO's reveals by
that search too (the earlier form of this level, kept for measuring). Reproducible with a seed and
no time limit.
"""
from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from cards.api import Action, CardGame
from cards.matrix_game import solve
from cards.mccfr import KEYS, MCCFRBot
from cards.sumo import (
    CENTRE,
    DECK,
    EDGE,
    PLAY,
    PLAY_PHASE,
    PUSH,
    RANK,
    REVEAL,
    REVEAL_PHASE,
    Sumo,
    heuristic_action,
)
from cards.sumo_solver import FULL, INDEX, LEADER, TrickSolver, cards_of, joint_values, mask, solver_for

if TYPE_CHECKING:
    from cards.api import Bot

#: Search iterations per decision where nothing is solved: the Strong search level's.
DEFAULT_ITERATIONS = 1000
#: How far below the best estimate (a share of the game, 0..1) an action may be and still count
#: as one the estimate cannot tell from the best.
DEFAULT_MARGIN = 0.02
#: ... and the share of the best action's visits it needs (a rarely tried action's estimate is noise).
MIN_SHARE = 0.25
#: MCCFR iterations for the mix, and the share of the time limit the estimate may use.
DEFAULT_CFR_ITERATIONS = 400
SEARCH_SHARE = 0.8
#: Sampled hands of the other seat for the reveal's game; in the tricks, the deals solved when
#: there are more consistent deals than :data:`ENUMERATE_LIMIT` (never in full SUMO: at most 330).
DEFAULT_DEALS = 40
ENUMERATE_LIMIT = 2000
#: Default weight of the model of the other seat's play in the tricks (0: every deal counts alike).
DEFAULT_TRUST = 0.0
#: The seat's own decisions in the tricks made once for every deal it cannot tell apart
#: (:func:`cards.sumo_solver.joint_values`; 1: every deal solved on its own).
DEFAULT_LOOKAHEAD = 2
#: Reveal strategies below this probability are dropped (regret matching leaves crumbs).
MIN_PROBABILITY = 0.01
REVEALS = ("guess", "matrix", "playout", "search")
#: How the reveal game is valued (:meth:`EquilibriumBot.reveal_payoffs`): the best measured.
DEFAULT_REVEAL = "guess"
#: Default weight of the model of the other seat's reveal (0: the plain equilibrium).
DEFAULT_MODEL = 0.0
#: The model of the other seat's reveal: it shows a card of rank r with odds REVEAL_ODDS[r] (the
#: odds of its cards, normalised). Fitted by maximum likelihood to 300 reveals of the Strong search
#: (both seats' first reveals of deals 2000-2149, ``docs/openspiel.md``): it keeps its 4s (the
#: abise-taoshi cards) and otherwise shows a card of any rank about as often, low ones as often as
#: 5s, so it often gives the lead away. It does not see this seat's hand, unlike the best reply of
#: the plain equilibrium.
REVEAL_ODDS = {1: 0.25, 2: 0.20, 3: 0.19, 4: 0.08, 5: 0.27}


def unknown_cards(g: Sumo, me: int) -> int:
    """The cards ``me`` has not seen (other seat's hand and face-down card, and the undealt), as a mask."""
    seen = mask(g.hands[me]) | mask(g.set_aside[0]) | mask(g.set_aside[1]) | mask(g.played)
    if g.lead is not None:
        seen |= 1 << INDEX[g.lead]
    if g.face_down is not None and me == 0:
        seen |= 1 << INDEX[g.face_down]
    return FULL & ~seen


def consistent_hands(g: Sumo, me: int, limit: int = ENUMERATE_LIMIT,
                     rng: random.Random | None = None) -> list[int]:
    """Every hand (mask) the other seat may hold in the tricks, given what ``me`` has seen: the
    right number of unseen cards, none of a suit it has shown it lacks. If there are more than
    ``limit``, ``limit`` of them drawn at random (with ``rng``)."""
    if g.phase != PLAY_PHASE:
        raise ValueError("the hands are enumerated in the tricks: the reveals are not over")
    q = 1 - me
    pool = [c for c in cards_of(unknown_cards(g, me)) if c[1] not in g.void[q]]
    k = len(g.hands[q])
    bits = [1 << INDEX[c] for c in pool]
    if math.comb(len(pool), k) <= limit:
        return [sum(combo) for combo in itertools.combinations(bits, k)]
    rng = rng or random.Random(0)
    return [sum(rng.sample(bits, k)) for _ in range(limit)]


def _start_of_tricks(g: Sumo, me: int, opp_hand: int) -> tuple[list[int], list[tuple[int, int, int]]]:
    """Both hands at the first trick of this deal if the other seat now holds ``opp_hand``, and the
    plays since, as (seat, card index, position in its trick: 0 lead, 1 follow)."""
    q = 1 - me
    hands = [0, 0]
    hands[me] = mask(g.hands[me])
    hands[q] = opp_hand
    plays: list[tuple[int, int, int]] = []
    for leader, lead, follow, _ in g.tricks:
        plays.append((leader, INDEX[lead], 0))
        plays.append((1 - leader, INDEX[follow], 1))
    if g.lead is not None:
        plays.append((g.leader, INDEX[g.lead], 0))
    for seat, c, _ in plays:
        hands[seat] |= 1 << c
    return hands, plays


class EquilibriumBot:
    """Reveals by a blind game's equilibrium, tricks solved over every consistent deal, near-ties
    mixed by MCCFR (see the module docstring)."""

    def __init__(
        self,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit: float | None = None,
        margin: float = DEFAULT_MARGIN,
        cfr_iterations: int = DEFAULT_CFR_ITERATIONS,
        deals: int = DEFAULT_DEALS,
        reveal: str = DEFAULT_REVEAL,
        trust: float = DEFAULT_TRUST,
        lookahead: int = DEFAULT_LOOKAHEAD,
        model: float = DEFAULT_MODEL,
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
        if not 0.0 <= trust <= 1.0:
            raise ValueError("eq: trust must be between 0 and 1")
        if lookahead < 1:
            raise ValueError("eq: look must be at least 1")
        if not 0.0 <= model <= 1.0:
            raise ValueError("eq: model must be between 0 and 1")
        if reveal not in REVEALS:
            raise ValueError(f"eq: reveal must be one of {', '.join(REVEALS)}, not {reveal!r}")
        if search is None:
            raise ValueError("eq: give the search bot to use (search=)")
        self.iterations = iterations
        self.time_limit = time_limit
        self.margin = margin
        self.cfr_iterations = cfr_iterations
        self.deals = deals
        self.reveal = reveal
        self.trust = trust
        self.lookahead = lookahead
        self.model = model
        self.last_deals = 0
        self.rng = random.Random(seed)
        parts = [str(iterations)]
        if time_limit:
            parts.append(f"time={time_limit}")
        # The spec's keys that differ from their defaults (floats written short, as typed).
        for key, given, default in (("margin", margin, DEFAULT_MARGIN),
                                    ("cfr", cfr_iterations, DEFAULT_CFR_ITERATIONS),
                                    ("deals", deals, DEFAULT_DEALS), ("reveal", reveal, DEFAULT_REVEAL),
                                    ("trust", trust, DEFAULT_TRUST), ("look", lookahead, DEFAULT_LOOKAHEAD),
                                    ("model", model, DEFAULT_MODEL)):
            if given != default:
                parts.append(f"{key}={given:g}" if isinstance(given, float) else f"{key}={given}")
        self.name = "eq:" + ",".join(parts)
        search_time = None if time_limit is None else time_limit * SEARCH_SHARE
        self.search = search(iterations=iterations, time_limit=search_time, rollout="heuristic",
                             seed=self.rng.randrange(2**32))
        #: The actions of the last decision with their weights in the mix.
        self.last_mix: dict[Action, float] = {}
        #: The reveal game's value at the last reveal (this seat's expected outcome, -1..1).
        self.last_reveal_value: float | None = None
        #: Likelihood factors of the other seat's past plays, by (position, seat, card played).
        self._likelihood: dict[tuple[object, ...], float] = {}

    # ----- the strategy ---------------------------------------------------------------------------
    def strategy(self, game: CardGame, rng: random.Random | None = None) -> dict[Action, float]:
        """The bot's mixed strategy here: {action: probability} over the legal actions it may play."""
        rng = rng or self.rng
        started = time.perf_counter()
        legal = game.legal_actions()
        if len(legal) == 1:
            return {legal[0]: 1.0}
        if isinstance(game, Sumo) and game.phase == REVEAL_PHASE and self.reveal != "search":
            return self._reveal_equilibrium(game, rng, started)
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

    def act(self, game: CardGame, rng: random.Random | None = None) -> Action:
        rng = rng or self.rng
        s = self.last_mix = self.strategy(game, rng)
        actions = list(s)
        if len(actions) == 1:
            return actions[0]
        return rng.choices(actions, [s[a] for a in actions])[0]

    def _deadline(self, started: float) -> float | None:
        return None if self.time_limit is None else started + self.time_limit * SEARCH_SHARE

    # ----- the reveal -----------------------------------------------------------------------------
    def reveal_payoffs(self, game: Sumo, hands: list[list[str]]) -> np.ndarray:
        """The reveal game against the given hands of the other seat (its cards before it reveals):
        ``M[t][r][s]`` = this seat's outcome (-1..1) when it reveals its ``r``-th legal card and
        the other seat, holding ``hands[t]``, its ``s``-th card.

        ``reveal="matrix"``: the tricks that follow played exactly by both (both hands known); a
        tie (equal ranks) reveals again and is valued as an even chance of either seat leading with
        the cards left, or a draw when no card would be left to play. ``reveal="playout"``: every
        lead by the rule of thumb (which does not see the other hand), every answer exactly (the
        follower sees the card led, and a sure answer is hard to miss), reveals after a tie by the
        rule of thumb: leading is then worth what it is worth to a leader who must guess.
        ``reveal="guess"``: as "matrix", except that the first lead is chosen by a leader who
        does not see the other hand (exact play after it): this seat leads the card that wins in
        most of the given hands that hold the card the other seat revealed; the other seat leads
        as the rule of thumb would (a guess from what it sees, far cheaper to find than one from
        sampled hands of this seat). Exact play lets the leader win about three deals in four
        (random reveals), clearly more than leaders who must guess do, so "matrix" overrates
        revealing high."""
        if self.reveal == "guess":
            return _guess_payoffs(game, hands)
        me = game.turn
        solver = solver_for(game.colours)
        mine = [a[7:] for a in game.legal_actions()]
        my_mask = mask(mine)
        out = np.zeros((len(hands), len(mine), len(hands[0]) if hands else 0))
        for t, theirs in enumerate(hands):
            their_mask = mask(theirs)
            for i, r in enumerate(mine):
                for j, s in enumerate(theirs):
                    if self.reveal == "playout":
                        out[t, i, j] = _playout_outcome(game, solver, theirs, r, s)
                    else:
                        out[t, i, j] = _reveal_outcome(solver, me, my_mask ^ (1 << INDEX[r]),
                                                       their_mask ^ (1 << INDEX[s]), RANK[r] - RANK[s])
        return out

    def _reveal_equilibrium(self, game: Sumo, rng: random.Random, started: float) -> dict[Action, float]:
        me = game.turn
        deadline = self._deadline(started)
        hands: list[list[str]] = []
        while len(hands) < self.deals:
            world = game.resample_hidden(me, rng)
            theirs = world.hands[1 - me] + ([world.face_down] if world.face_down is not None and me == 1 else [])
            hands.append(sorted(theirs))
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_deals = len(hands)
        model = reveal_model(hands) if self.model > 0.0 else None
        x, value = solve(self.reveal_payoffs(game, hands), model=model, weight=self.model)
        self.last_reveal_value = value
        legal = game.legal_actions()
        kept = {a: float(p) for a, p in zip(legal, x, strict=True) if p >= MIN_PROBABILITY}
        if not kept:  # (cannot happen: some probability is at least 1 / len(legal))
            kept = {legal[int(np.argmax(x))]: 1.0}
        total = sum(kept.values())
        return {a: p / total for a, p in kept.items()}

    # ----- the tricks -----------------------------------------------------------------------------
    def _solved_deals(
        self, game: Sumo, rng: random.Random, started: float
    ) -> tuple[dict[Action, float], dict[Action, int]]:
        """SUMO's tricks: each action's share of the game (0..1) over every deal consistent with
        what this seat saw, each solved exactly, weighted by the model of the other seat's play."""
        me = game.turn
        legal = game.legal_actions()
        solver = solver_for(game.colours)
        deals = consistent_hands(game, me, max(ENUMERATE_LIMIT, self.deals), rng)
        rng.shuffle(deals)  # so that a time limit leaves a fair sample
        deadline = self._deadline(started)
        worlds: list[tuple[int, float]] = []
        for opp in deals:
            w = self.deal_weight(game, me, opp, solver) if self.trust > 0.0 else 1.0
            if w > 0.0:
                worlds.append((opp, w))
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_deals = len(worlds)
        if not worlds:  # (cannot happen: the model gives every deal some weight below full trust)
            return dict.fromkeys(legal, 0.5), dict.fromkeys(legal, 0)
        lead = None if game.lead is None else INDEX[game.lead]
        values = joint_values(solver, me, mask(game.hands[me]), worlds, lead, game.wrestler, self.lookahead)
        shares = {PLAY[DECK[c]]: (v + 1.0) / 2.0 for c, v in values.items()}
        return shares, dict.fromkeys(legal, len(worlds))

    def deal_weight(self, game: Sumo, me: int, opp_hand: int, solver: TrickSolver) -> float:
        """How likely the other seat's plays in this deal's tricks were if it now holds
        ``opp_hand``, under the model: with probability ``trust`` a card the solver says wins
        (chosen evenly among them; any card if none wins), otherwise any legal card."""
        hands, plays = _start_of_tricks(game, me, opp_hand)
        q = 1 - me
        wrestler = CENTRE
        lead: int | None = None
        weight = 1.0
        for seat, c, position in plays:
            if seat == q:
                key = (hands[0], hands[1], lead, wrestler, q, c)
                f = self._likelihood.get(key)
                if f is None:
                    values = solver.values(hands[0], hands[1], q, lead, wrestler)
                    winning = [x for x, won in values.items() if won]
                    best = winning or list(values)
                    f = (1.0 - self.trust) / len(values) + (self.trust / len(best) if c in best else 0.0)
                    if len(self._likelihood) > 200_000:
                        self._likelihood.clear()
                    self._likelihood[key] = f
                weight *= f
            hands[seat] ^= 1 << c
            if position == 0:
                lead = c
            else:
                leader = 1 - seat
                assert lead is not None
                took = solver.result[1 if wrestler == EDGE[seat] else 0][lead][c]
                winner = leader if took == LEADER else seat
                wrestler += PUSH[winner]
                lead = None
        return weight


def reveal_model(hands: list[list[str]]) -> np.ndarray:
    """The model of the other seat's reveal (:data:`REVEAL_ODDS`): ``P[t][s]`` = the chance that,
    holding ``hands[t]``, it reveals its ``s``-th card."""
    odds = np.array([[REVEAL_ODDS[RANK[c]] for c in h] for h in hands], dtype=float)
    return odds / odds.sum(axis=1, keepdims=True)


def _reveal_outcome(solver: TrickSolver, me: int, mine: int, theirs: int, rank_diff: int) -> float:
    """This seat's exact outcome once both reveals are made and the hands are known."""
    h = (mine, theirs) if me == 0 else (theirs, mine)
    if rank_diff > 0:
        return 1.0 if solver.leader_wins(h[0], h[1], me, CENTRE) else -1.0
    if rank_diff < 0:
        return -1.0 if solver.leader_wins(h[0], h[1], 1 - me, CENTRE) else 1.0
    if mine & (mine - 1) == 0:
        return 0.0  # one card each: the next reveal uses them up (a draw, or a fresh deal)
    lead_first = 1.0 if solver.leader_wins(h[0], h[1], me, CENTRE) else -1.0
    lead_second = -1.0 if solver.leader_wins(h[0], h[1], 1 - me, CENTRE) else 1.0
    return (lead_first + lead_second) / 2.0


_NO_RNG = random.Random(0)  # the rule of thumb draws nothing at random; its signature wants one


def _playout_outcome(game: Sumo, solver: TrickSolver, theirs: list[str], r: str, s: str) -> float:
    """This seat's outcome when it reveals ``r`` and the other seat, holding ``theirs``, reveals
    ``s``, played on with rule-of-thumb leads and reveals and exact answers."""
    me = game.turn
    g = _after_reveals(game, theirs, r, s)
    while not g.is_over:
        p = g.turn
        if g.phase == PLAY_PHASE and g.lead is not None:
            h0, h1 = mask(g.hands[0]), mask(g.hands[1])
            values = solver.values(h0, h1, p, INDEX[g.lead], g.wrestler)
            choice = heuristic_action(g, p, _NO_RNG)
            if not values[INDEX[choice[5:]]]:
                winning = [c for c, won in values.items() if won]
                if winning:
                    choice = PLAY[DECK[winning[0]]]
            g.apply(choice)
        else:
            g.apply(heuristic_action(g, p, _NO_RNG))
    if g.winner < 0:
        return 0.0
    return 1.0 if g.winner == me else -1.0


def _guess_payoffs(game: Sumo, hands: list[list[str]]) -> np.ndarray:
    """The reveal game of ``reveal="guess"`` (see :meth:`EquilibriumBot.reveal_payoffs`)."""
    me = game.turn
    q = 1 - me
    solver = solver_for(game.colours)
    mine = [a[7:] for a in game.legal_actions()]
    my_mask = mask(mine)
    masks = [mask(h) for h in hands]
    out = np.zeros((len(hands), len(mine), len(hands[0]) if hands else 0))
    place = [{c: j for j, c in enumerate(h)} for h in hands]

    def seat_hands(a: int, b: int, seat: int) -> tuple[int, int]:
        """(hand of seat 0, hand of seat 1) when ``seat`` holds ``a`` and the other seat ``b``."""
        return (a, b) if seat == 0 else (b, a)

    # Ties, as in "matrix".
    for t, theirs in enumerate(hands):
        for i, r in enumerate(mine):
            for j, s in enumerate(theirs):
                if RANK[r] == RANK[s]:
                    out[t, i, j] = _reveal_outcome(solver, me, my_mask ^ (1 << INDEX[r]),
                                                   masks[t] ^ (1 << INDEX[s]), 0)
    # This seat leads (its card ranks higher): one lead for every hand of the other seat that holds
    # the card it revealed.
    for s in sorted({c for h in hands for c in h}):
        holders = [t for t, h in enumerate(hands) if s in place[t]]
        for i, r in enumerate(mine):
            if RANK[r] <= RANK[s]:
                continue
            lead_hand = my_mask ^ (1 << INDEX[r])
            wins = [solver.values(*seat_hands(lead_hand, masks[t] ^ (1 << INDEX[s]), me), me, None, CENTRE)
                    for t in holders]
            chosen = max(wins[0], key=lambda c: sum(w[c] for w in wins))
            for t, w in zip(holders, wins, strict=True):
                out[t, i, place[t][s]] = 1.0 if w[chosen] else -1.0
    # The other seat leads: its first lead by the rule of thumb (which reads only what that seat
    # sees), then exact play.
    for t, theirs in enumerate(hands):
        for i, r in enumerate(mine):
            for j, s in enumerate(theirs):
                if RANK[s] <= RANK[r]:
                    continue
                g = _after_reveals(game, theirs, r, s)
                lead = INDEX[heuristic_action(g, q, _NO_RNG)[5:]]
                won = solver.lead_wins(mask(g.hands[0]), mask(g.hands[1]), q, lead, CENTRE)
                out[t, i, j] = -1.0 if won else 1.0
    return out


def _after_reveals(game: Sumo, theirs: list[str], r: str, s: str) -> Sumo:
    """A copy of ``game`` (this seat to reveal) in which the other seat holds ``theirs`` (its cards
    before revealing) and both reveals are made: this seat's ``r``, the other's ``s``."""
    me = game.turn
    q = 1 - me
    g = game.clone()
    g.events = []  # nothing reads the history, and copying it would cost more than the rest
    hidden = mask(g.hands[q]) | mask(g.undealt)
    if g.face_down is not None and me == 1:
        hidden |= 1 << INDEX[g.face_down]
    g.undealt = cards_of(hidden & ~mask(theirs))
    if me == 0:
        g.hands[q] = sorted(theirs)
        g._legal = None
        g.apply(REVEAL[r])
        g.apply(REVEAL[s])
    else:
        g.hands[q] = sorted(c for c in theirs if c != s)
        g.face_down = s
        g._legal = None
        g.apply(REVEAL[r])
    return g
