"""Bots for every card game in :mod:`cards`, written only against :class:`cards.api.CardGame`.

A bot is anything with ``act(game, rng=None) -> action``: given a game whose current player is the
bot's seat, it returns one of ``game.legal_actions()``. Bots never read another seat's hidden cards:

* :class:`RandomBot` picks a legal action uniformly at random.
* :class:`HeuristicBot` asks the engine's own rule of thumb, the module-level function
  ``heuristic_action(game, player, rng)`` that every engine module provides (it looks only at
  ``game.observation(player)`` and ``game.legal_actions()``).
* :class:`ISMCTSBot` is a search bot: single-observer information-set Monte Carlo tree search
  (Cowling, Powley & Whitehouse, 2012). Every iteration starts from a *determinisation*,
  ``game.resample_hidden(me, rng)``: a copy in which every card the bot cannot see has been
  re-dealt at random, consistently with what it knows. One tree, keyed by the action sequence from
  the root, is shared by all determinisations; a child's UCB score uses how often it was
  *available* rather than its parent's visit count, because an action (an opponent's card) exists
  only in some determinisations. Leaves are valued by random (or heuristic) play-outs to the end.

:func:`make_bot` builds a bot from a short text spec (``"random"``, ``"heuristic"``, ``"mcts"``,
``"mcts:200"``, ``"mcts:200,rollout=heuristic,time=0.5"``), and :func:`evaluate` plays seeded
matches (used by ``tools/bench_cards.py --strength`` and the tests).
"""
from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cards.api import Action, Bot, CardGame
from kabuto_base import processes

#: Iterations per decision of a plain ``"mcts"`` spec, per game: enough to beat random play
#: clearly (tools/bench_cards.py --strength) while a 200-game match takes a minute or two.
GAME_ITERATIONS: dict[str, int] = {"sumo": 100, "sumo-card-game": 200, "sumida-river": 15}
#: ... and for any other game.
DEFAULT_ITERATIONS = 200
#: UCB exploration constant; rewards are in [0, 1].
DEFAULT_EXPLORATION = 0.7


HeuristicFn = Callable[[CardGame, int, random.Random], Action]


def engine_heuristic(game: CardGame | type[CardGame]) -> HeuristicFn:
    """The ``heuristic_action`` function of the module that defines ``game``'s engine."""
    cls = game if isinstance(game, type) else type(game)
    module = sys.modules.get(cls.__module__)
    fn = getattr(module, "heuristic_action", None)
    if fn is None:
        raise LookupError(f"{cls.name or cls.__name__}: its engine module has no heuristic_action()")
    return fn


class RandomBot:
    """Uniformly random legal action."""

    def __init__(self, seed: int | None = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def act(self, game: CardGame, rng: random.Random | None = None) -> Action:
        return (rng or self.rng).choice(game.legal_actions())


class HeuristicBot:
    """The engine's rule-of-thumb player (its module's ``heuristic_action``)."""

    def __init__(self, seed: int | None = 0) -> None:
        self.name = "heuristic"
        self.rng = random.Random(seed)

    def act(self, game: CardGame, rng: random.Random | None = None) -> Action:
        seat = game.to_play
        if seat is None:
            raise ValueError("heuristic: the game is over, there is nothing to choose")
        return engine_heuristic(game)(game, seat, rng or self.rng)


class _Node:
    """One tree node: the action sequence leading here, seen from every determinisation.

    ``player`` is the seat that chose the action into this node; ``reward`` accumulates that seat's
    rewards, so a parent compares its children from the point of view of the seat choosing among
    them. ``avail`` counts the selections at the parent in which this action was legal.
    """

    __slots__ = ("player", "visits", "reward", "avail", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        self.children: dict[Action, _Node] = {}


def round_points(event: dict[str, Any], game: CardGame) -> list[float]:
    """Sumida River: each seat's points in the round just ended, over the most a seat can score."""
    top = max(game.num_players - 1, 1)
    return [min(max(p / top, 0.0), 1.0) for p in event["points"]]


def sumo_position(event: dict[str, Any], game: CardGame) -> list[float]:
    """Sumo Card Game: how far the sumo cards stand from each seat's winning edge.

    Seat 0 wins by pushing the sumo cards beyond column 0, seat 1 beyond column 6; the value is
    linear in the column, from 1/8 (at one's own losing edge) to 7/8 (at the winning edge).
    """
    column = game.observation(0)["position"]
    v0 = (7 - column) / 8
    return [v0, 1.0 - v0]


@dataclass(frozen=True)
class PlayoutCut:
    """Stop play-outs early at the first event of type ``event`` after the decision, valued by
    ``value(event, game)`` (one reward in [0, 1] per seat; only public information is used).

    A decision mostly changes the round it is made in: valuing the end of that round (instead of
    the end of a long, luck-heavy game) gives the search a much less noisy signal per iteration,
    and a play-out to the end of the round costs a fraction of one to the end of the game.
    """

    event: str
    value: Callable[[dict[str, Any], CardGame], list[float]]


#: Per-game play-out cuts (games not listed are played out to their end).
PLAYOUT_CUTS: dict[str, PlayoutCut] = {
    # Sumida River: several rounds, each scored by finishing places (round-end event "points").
    "sumida-river": PlayoutCut("round-end", round_points),
    # Sumo Card Game: a round ends when its attack cards are discarded; the sumo cards' column
    # says who is winning.
    "sumo-card-game": PlayoutCut("discard", sumo_position),
}


def win_shares(game: CardGame) -> list[float]:
    """1 for the sole winner, 1/k to each of k tied winners, 0 to everybody else."""
    winners = game.winners()
    share = 1.0 / len(winners) if winners else 0.0
    r = [0.0] * game.num_players
    for w in winners:
        r[w] = share
    return r


class ISMCTSBot:
    """Single-observer information-set MCTS with UCT selection and play-outs.

    * ``iterations`` bounds the determinisations per decision (None: the game's entry in
      :data:`GAME_ITERATIONS`); ``time_limit`` (seconds), if given, stops earlier.
    * ``rollout`` is ``"random"`` or ``"heuristic"`` (the engine's rule of thumb, for every seat,
      inside the determinised copy).
    * ``cut_rounds``: in the games of :data:`PLAYOUT_CUTS`, stop a play-out at the end of the
      current round and value that (the default), instead of playing on to the end of the game.
    * ``opponents``: ``"tree"`` (every seat's choices are tree nodes, each seat maximising its own
      reward) or ``"policy"`` (other seats play by the play-out policy; only our choices branch).
    * ``exploration`` is the UCB constant ``c`` (rewards lie in [0, 1]).

    The bot is reproducible: with the same seed and no time limit it makes the same choices.
    """

    def __init__(
        self,
        iterations: int | None = None,
        time_limit: float | None = None,
        rollout: str = "random",
        exploration: float = DEFAULT_EXPLORATION,
        seed: int | None = 0,
        cut_rounds: bool = True,
        opponents: str = "tree",
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("mcts: iterations must be at least 1")
        if time_limit is not None and time_limit <= 0:
            raise ValueError("mcts: time must be positive")
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"mcts: rollout must be 'random' or 'heuristic', not {rollout!r}")
        if opponents not in ("tree", "policy"):
            raise ValueError(f"mcts: opponents must be 'tree' or 'policy', not {opponents!r}")
        if exploration < 0:
            raise ValueError("mcts: c must not be negative")
        self.iterations = iterations
        self.time_limit = time_limit
        self.rollout = rollout
        self.exploration = exploration
        self.cut_rounds = cut_rounds
        self.opponents = opponents
        self.rng = random.Random(seed)
        settings = [
            f"time={time_limit}" if time_limit else "",
            "rollout=heuristic" if rollout == "heuristic" else "",
            f"c={exploration:g}" if exploration != DEFAULT_EXPLORATION else "",
            "" if cut_rounds else "cut=off",
            "opponents=policy" if opponents == "policy" else "",
        ]
        parts = ([] if iterations is None else [str(iterations)]) + [x for x in settings if x]
        self.name = "mcts" + (":" + ",".join(parts) if parts else "")  # a spec make_bot reads back
        #: Statistics of the last decision: {action: visits}, {action: mean reward in [0, 1]} (the
        #: seat's estimated share of the game after it), and iterations run.
        self.last_visits: dict[Action, int] = {}
        self.last_values: dict[Action, float] = {}
        self.last_iterations = 0

    @staticmethod
    def _cut_value(d: CardGame, seen: int, cut: PlayoutCut) -> tuple[list[float] | None, int]:
        """Rewards from the first ``cut.event`` event after index ``seen``, if one happened, and
        the index to scan from next time."""
        events = d.events
        n = len(events)
        stop = cut.event
        while seen < n:
            e = events[seen]
            seen += 1
            if e.get("type") == stop:
                return cut.value(e, d), seen
        return None, seen

    def act(self, game: CardGame, rng: random.Random | None = None) -> Action:
        rng = rng or self.rng
        me = game.to_play
        if me is None:
            raise ValueError("mcts: the game is over, there is nothing to choose")
        legal = game.legal_actions()
        if len(legal) == 1:
            self.last_visits, self.last_values, self.last_iterations = {legal[0]: 0}, {}, 0
            return legal[0]
        heuristic = engine_heuristic(game) if self.rollout == "heuristic" else None
        model_opponents = self.opponents == "policy"
        cut = PLAYOUT_CUTS.get(game.name) if self.cut_rounds else None
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        root = _Node(me)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        budget = self.iterations or GAME_ITERATIONS.get(game.name, DEFAULT_ITERATIONS)
        while done < budget:
            done += 1
            d = game.resample_hidden(me, rng)
            seen = len(d.events)  # events before this point are history, not outcome
            node = root
            path = []
            rewards = None
            # Selection and expansion: descend while every legal action has a child (and the
            # cut event, if any, has not happened: the tree does not grow past the horizon).
            while True:
                p = d.to_play
                if p is None:
                    break
                if model_opponents and p != me:
                    # The other seats play by the play-out policy; the tree holds our choices only.
                    if heuristic is None:
                        d.apply(rng.choice(d.legal_actions()))
                    else:
                        d.apply(heuristic(d, p, rng))
                    if cut is not None:
                        rewards, seen = self._cut_value(d, seen, cut)
                        if rewards is not None:
                            break
                    continue
                actions = d.legal_actions()
                children = node.children
                untried = [a for a in actions if a not in children]
                if untried:
                    a = untried[0] if len(untried) == 1 else rng.choice(untried)
                    child = children[a] = _Node(p)
                    for b in actions:
                        ch = children.get(b)
                        if ch is not None:
                            ch.avail += 1
                    d.apply(a)
                    path.append(child)
                    break
                best_a = actions[0]
                best_score = -1.0
                for b in actions:
                    ch = children[b]
                    ch.avail += 1
                    score = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if score > best_score:
                        best_a, best_score = b, score
                d.apply(best_a)
                node = children[best_a]
                path.append(node)
                if cut is not None:
                    rewards, seen = self._cut_value(d, seen, cut)
                    if rewards is not None:
                        break
            # Play-out to the end of the game (or to the cut event).
            if rewards is None and cut is not None:
                rewards, seen = self._cut_value(d, seen, cut)
            while rewards is None:
                p = d.to_play
                if p is None:
                    break
                if heuristic is None:
                    d.apply(rng.choice(d.legal_actions()))
                else:
                    d.apply(heuristic(d, p, rng))
                if cut is not None:
                    rewards, seen = self._cut_value(d, seen, cut)
            if rewards is None:
                rewards = win_shares(d)
            for n in path:
                n.visits += 1
                n.reward += rewards[n.player]
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        self.last_visits = {a: ch.visits for a, ch in root.children.items()}
        self.last_values = {a: ch.reward / ch.visits for a, ch in root.children.items() if ch.visits}
        # The most visited action that is legal in the real game (ties: the better average).
        best = max(
            legal,
            key=lambda a: (
                root.children[a].visits if a in root.children else -1,
                root.children[a].reward / root.children[a].visits
                if a in root.children and root.children[a].visits
                else 0.0,
            ),
        )
        return best


# ----- specs -------------------------------------------------------------------------------------

_ITERATIONS_TEXT = ", ".join(f"{k} {v}" for k, v in sorted(GAME_ITERATIONS.items()))
BOT_HELP = f"""\
bot specs:
  random                      uniformly random legal action
  heuristic                   the game's rule-of-thumb player
  mcts                        information-set MCTS with the game's default budget
                              (iterations per decision: {_ITERATIONS_TEXT}, other games {DEFAULT_ITERATIONS})
  mcts:N                      ... with N iterations per decision
  mcts:N,time=S               ... stopping after S seconds per decision if sooner
  mcts:N,rollout=heuristic    ... play-outs by the rule-of-thumb player instead of random
  mcts:N,c=X                  ... UCB exploration constant X (default {DEFAULT_EXPLORATION:.1f})
  mcts:N,cut=off              ... play every play-out to the end of the game (default: in
                              sumida-river and sumo-card-game it stops at the end of the
                              round, valued by the round's points / the sumo cards' column)
  mcts:N,opponents=policy     ... other seats play by the play-out policy inside the search
                              instead of having tree nodes of their own
  cfr                         SUMO: online MCCFR, a near-equilibrium mixed strategy that is
                              hard to exploit (other games: the strong search,
                              mcts:1000,rollout=heuristic, with the same time limit)
  cfr:N,time=S                ... N iterations per decision, stopping after S seconds if sooner
  cfr:N,explore=X,choice=best ... exploration rate X (default 0.6); play the most likely action
                              instead of sampling the mixed strategy
  eq                          SUMO: the reveal played as the equilibrium of the blind
                              choice, each pair of cards valued over 40 sampled hands by
                              exact play after a first lead chosen without seeing; each move
                              in the tricks valued over every deal it cannot rule out, solved
                              exactly, its own next move chosen once for all the deals it
                              cannot tell apart; actions within 0.02 mixed by online MCCFR.
                              Other games: the strong search (mcts:1000,rollout=heuristic)
  eq:N,time=S,deals=D         ... N search iterations (other games), D sampled hands for the
                              reveal, S seconds a decision
  eq:N,margin=X,cfr=M         ... margin X, M MCCFR iterations for the mix (default 400)
  eq:N,look=K,trust=T         ... its next K-1 moves chosen once for those deals (default 2;
                              1: every deal solved on its own); deals weighted by how likely
                              the other seat's plays were if it plays as the solver with
                              probability T (default 0: not weighted)
  eq:N,reveal=R               ... reveal valued as above (guess, the default), by exact play
                              from the first lead (matrix), by rule-of-thumb leads and exact
                              answers (playout), or by the strong search (search)
  eq:N,model=W                ... reveal against a model of the other seat's reveal (what the
                              strong search shows from a hand) trusted with weight W, the rest
                              against its best reply (default 0: the plain equilibrium)
  eq:1000,time=3.0,deals=100,model=1
                              the strongest SUMO level measured (the card table's
                              Equilibrium): 551 of 1,000 games against the strong search
"""


def make_bot(spec: str, seed: int | None = 0) -> Bot:
    """Build a bot from its text spec (see :data:`BOT_HELP`); ValueError names a bad spec."""
    text = spec.strip().lower()
    kind, _, args = text.partition(":")
    if kind == "random" and not args:
        return RandomBot(seed)
    if kind == "heuristic" and not args:
        return HeuristicBot(seed)
    if kind in ("mcts", "ismcts"):
        kwargs: dict[str, Any] = {}
        for part in filter(None, (s.strip() for s in args.split(","))):
            key, eq, value = part.partition("=")
            if not eq:
                key, value = "iterations", part
            try:
                if key in ("iterations", "iters", "n"):
                    kwargs["iterations"] = int(value)
                elif key in ("time", "t"):
                    kwargs["time_limit"] = float(value)
                elif key == "rollout":
                    kwargs["rollout"] = value
                elif key == "c":
                    kwargs["exploration"] = float(value)
                elif key in ("opponents", "opp"):
                    kwargs["opponents"] = value
                elif key == "cut":
                    if value not in ("0", "1", "yes", "no", "on", "off"):
                        raise ValueError(f"bot {spec!r}: cut must be on or off, not {value!r}")
                    kwargs["cut_rounds"] = value in ("1", "yes", "on")
                else:
                    raise ValueError(f"bot {spec!r}: unknown mcts setting {key!r}")
            except ValueError as exc:
                if str(exc).startswith("bot "):
                    raise
                raise ValueError(f"bot {spec!r}: {key} needs a number, not {value!r}") from None
        try:
            return ISMCTSBot(seed=seed, **kwargs)
        except ValueError as exc:
            raise ValueError(f"bot {spec!r}: {exc}") from None
    if kind == "cfr":
        from cards.mccfr import MCCFRBot

        cfr: dict[str, Any] = {}
        for part in filter(None, (s.strip() for s in args.split(","))):
            key, eq, value = part.partition("=")
            if not eq:
                key, value = "iterations", part
            try:
                if key in ("iterations", "iters", "n"):
                    cfr["iterations"] = int(value)
                elif key in ("time", "t"):
                    cfr["time_limit"] = float(value)
                elif key in ("explore", "exploration"):
                    cfr["exploration"] = float(value)
                elif key == "choice":
                    cfr["choice"] = value
                else:
                    raise ValueError(f"bot {spec!r}: unknown cfr setting {key!r}")
            except ValueError as exc:
                if str(exc).startswith("bot "):
                    raise
                raise ValueError(f"bot {spec!r}: {key} needs a number, not {value!r}") from None
        try:
            return MCCFRBot(seed=seed, search=ISMCTSBot, **cfr)
        except ValueError as exc:
            raise ValueError(f"bot {spec!r}: {exc}") from None
    if kind in ("eq", "equilibrium"):
        from cards.equilibrium import EquilibriumBot

        eq_kw: dict[str, Any] = {}
        for part in filter(None, (s.strip() for s in args.split(","))):
            key, sep, value = part.partition("=")
            if not sep:
                key, value = "iterations", part
            try:
                if key in ("iterations", "iters", "n"):
                    eq_kw["iterations"] = int(value)
                elif key in ("time", "t"):
                    eq_kw["time_limit"] = float(value)
                elif key == "margin":
                    eq_kw["margin"] = float(value)
                elif key == "cfr":
                    eq_kw["cfr_iterations"] = int(value)
                elif key == "deals":
                    eq_kw["deals"] = int(value)
                elif key == "reveal":
                    eq_kw["reveal"] = value
                elif key == "trust":
                    eq_kw["trust"] = float(value)
                elif key in ("look", "lookahead"):
                    eq_kw["lookahead"] = int(value)
                elif key == "model":
                    eq_kw["model"] = float(value)
                else:
                    raise ValueError(f"bot {spec!r}: unknown eq setting {key!r}")
            except ValueError as exc:
                if str(exc).startswith("bot "):
                    raise
                raise ValueError(f"bot {spec!r}: {key} needs a number, not {value!r}") from None
        try:
            return EquilibriumBot(seed=seed, search=ISMCTSBot, **eq_kw)
        except ValueError as exc:
            raise ValueError(f"bot {spec!r}: {exc}") from None
    raise ValueError(f"unknown bot {spec!r}: use random, heuristic, mcts, mcts:N, cfr or eq")


# ----- matches -----------------------------------------------------------------------------------


def play_out(game: CardGame, bots: Sequence[Bot], max_actions: int = 100_000) -> int:
    """Let ``bots[seat]`` play ``game`` to its end; returns the number of actions played."""
    n = 0
    while True:
        p = game.to_play
        if p is None:
            return n
        if n >= max_actions:
            raise RuntimeError(f"{game.name}: no end after {max_actions} actions")
        game.apply(bots[p].act(game))
        n += 1


def bot_seed(seed: int, game_index: int, seat: int) -> int:
    """A distinct, reproducible seed for the bot in ``seat`` of game number ``game_index``."""
    return (seed * 1_000_003 + game_index) * 16 + seat


@dataclass
class MatchResult:
    """Outcome of :func:`evaluate`: one bot spec in a rotating seat against the others."""

    game: str
    bot: str
    opponent: str
    players: int
    games: int = 0
    wins: int = 0  # the bot's seat alone had the best return
    draws: int = 0  # best return shared with another seat
    losses: int = 0
    actions: int = 0
    seconds: float = 0.0
    per_seat_wins: list[int] = field(default_factory=list)  # wins of the bot by its seat

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bot": self.bot,
            "opponent": self.opponent,
            "players": self.players,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": round(self.win_rate, 4),
            "chance_baseline": round(1.0 / self.players, 4),
            "per_seat_wins": self.per_seat_wins,
            "mean_length": round(self.actions / self.games, 2) if self.games else 0.0,
            "seconds": round(self.seconds, 2),
        }


def _play_one(args: tuple[type[CardGame], str, str, int, int, int, dict[str, Any]]) -> tuple[int, str, int]:
    """Play game number ``i``; returns (bot seat, "win"/"draw"/"loss", actions)."""
    cls, bot_spec, opp_spec, players, seed, i, options = args
    seat = i % players
    bots = [
        make_bot(bot_spec if s == seat else opp_spec, bot_seed(seed, i, s)) for s in range(players)
    ]
    game = cls.new(players, seed + i, **options)
    length = play_out(game, bots)
    winners = game.winners()
    outcome = "loss" if seat not in winners else ("win" if len(winners) == 1 else "draw")
    return seat, outcome, length


def evaluate(
    game_cls: type[CardGame],
    bot: str = "mcts",
    opponent: str = "random",
    games: int = 200,
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> MatchResult:
    """``bot`` against ``players - 1`` copies of ``opponent`` over ``games`` seeded games.

    Game ``i`` is dealt with seed ``seed + i`` and the bot sits in seat ``i % players`` (so seats
    alternate). ``jobs > 1`` plays games in that many worker processes; the result is the same.
    """
    players = players or game_cls.player_counts[0]
    options = dict(options or {})
    make_bot(bot), make_bot(opponent)  # fail early on a bad spec
    res = MatchResult(game_cls.name, bot, opponent, players, per_seat_wins=[0] * players)
    work = [(game_cls, bot, opponent, players, seed, i, options) for i in range(games)]
    start = time.perf_counter()
    if jobs > 1 and games > 1:
        import concurrent.futures as cf

        with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=processes.context()) as pool:
            outcomes = pool.map(_play_one, work, chunksize=max(1, games // (jobs * 8)))
            _tally(res, outcomes, progress)
    else:
        _tally(res, map(_play_one, work), progress)
    res.seconds = time.perf_counter() - start
    return res


def _tally(res: MatchResult, outcomes: Any, progress: Callable[[int], None] | None) -> None:
    for seat, outcome, length in outcomes:
        res.games += 1
        res.actions += length
        if outcome == "win":
            res.wins += 1
            res.per_seat_wins[seat] += 1
        elif outcome == "draw":
            res.draws += 1
        else:
            res.losses += 1
        if progress:
            progress(1)
