"""The card games as OpenSpiel games (optional extra: ``pip install 'kabuto[openspiel]'``).

Importing this module registers every engine in :data:`cards.GAMES` with OpenSpiel under the name
``kabuto_<game>`` with dashes as underscores (``kabuto_sumo``, ``kabuto_sumo_card_game``,
``kabuto_sumida_river``), so OpenSpiel's algorithms and its own test harness can run on them::

    import pyspiel
    import cards.openspiel_adapter

    game = pyspiel.load_game("kabuto_sumida_river", {"players": 4})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)

How the card API maps onto OpenSpiel's (the whole picture, with the tensor layouts, is in
``docs/openspiel.md``):

* **Actions.** OpenSpiel actions are integers below ``num_distinct_actions``. Every game has a fixed
  *action table*: the sorted list of every action string the engine can ever offer (all cards, all
  melds, all phase words), built once from the game's own rules (see :func:`action_table`).
  Action id ``i`` is ``table[i]``; since both the table and ``legal_actions()`` are sorted, the legal
  ids come out sorted as OpenSpiel requires.
* **Chance.** Explicit (``EXPLICIT_STOCHASTIC``): every random event of the engine - each card of
  a deal, each draw, each wild-2 draw, each first draw from a reshuffled deck, the lots for who
  draws first or leads - is a chance node whose outcomes are equally likely (a card id of the
  engine, or a seat). The engine is built with :class:`cards.api.OutsideChance`, so it asks for
  each outcome instead of using its own generator; a shuffled pile stays unordered and each draw
  from it is one chance node. An action that meets a random event is replayed on a copy of the
  state before it, with the outcomes chosen so far, until the engine asks for no more: the engine
  needs no way to pause half-way through a rule.
* **Whose turn.** The engine's ``to_play`` (None once over) becomes ``current_player()``
  (``pyspiel.PlayerId.TERMINAL`` once over, ``CHANCE`` at a chance node), ``is_over`` becomes
  ``is_terminal()``.
* **Information.** Imperfect information. The observation string of seat ``p`` is the engine's
  ``observation(p)`` as sorted JSON without the event log; the information-state string includes the
  events seat ``p`` may see (perfect recall). Tensors: :mod:`cards.openspiel_tensors`. At a chance
  node the strings and tensors describe the state before the action being resolved (the acting seat
  also sees its own action); during the first deal they only say that the cards are being dealt.
* **Resampling.** ``resample_from_infostate(player, sampler)`` re-deals every card ``player`` cannot
  see through the engine's ``resample_hidden`` (OpenSpiel's Python ``ISMCTSBot`` calls it).
  OpenSpiel's C++ ``State`` does not forward this method to Python games, so C++ algorithms that
  need it cannot use these games.
* **Legality.** ``apply_action`` trusts its caller, as OpenSpiel's does;
  ``apply_action_with_legality_check`` checks. An id outside the table, or an action the engine
  refuses, raises ``ValueError``/:class:`cards.api.IllegalMove` and leaves the state unchanged.
* **Copies.** ``clone()`` uses the engine's own fast ``clone``. OpenSpiel serialises a Python state
  by pickling its attributes; ours hold the engine as its JSON save (``to_json``), so what is pickled
  is plain data that ``from_json`` checks on the way back. ``str(state)`` is that JSON (plus the
  action being resolved at a chance node), so OpenSpiel's clone and serialise checks compare
  complete game states.
"""
from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations, product
from typing import Any

import numpy as np
import pyspiel

import cards
from cards import openspiel_tensors
from cards.api import NO_OUTCOMES, CardGame, NeedChance, OutsideChance

PREFIX = "kabuto_"


def short_name(game_name: str) -> str:
    """OpenSpiel name of a card game: ``"sumo-card-game"`` -> ``"kabuto_sumo_card_game"``."""
    return PREFIX + game_name.replace("-", "_")


# ----- action tables ---------------------------------------------------------------------------------


def _sumo_actions() -> list[str]:
    """SUMO: reveal or play any of the twenty cards."""
    from cards import sumo

    return [f"{verb} {c}" for verb in ("reveal", "play") for c in sumo.DECK]


def _sumo_card_game_actions() -> list[str]:
    """Sumo Card Game: every single card (Jokers included) and every combo the rules allow, as the
    engine names them, plus the pushed seat's three answers."""
    from cards import sumo_card_game as scg

    ids = range(len(scg.NAMES))
    plays: list[tuple[int, ...]] = [(c,) for c in ids]
    for size in (2, 3):
        plays += [t for t in combinations(ids, size) if scg.combo_value(t) is not None]
    # The engine names a combo's cards in ascending card-id order (3C+3D+3H, 4S+JK1).
    names = {scg.play_name(t) for t in plays}
    return sorted(names | {"accept", "challenge-ring", "challenge-sumo"})


def _sumida_river_actions() -> list[str]:
    """Sumida River: every well-formed meld in its canonical spelling (found by generating every
    rank/suit/A-card pattern of each meld type and keeping what the engine's parser accepts),
    discards, trade-phase words and the end-of-trick choices."""
    from cards import sumida_river as sr

    out = {"keep", "trade", "pass", "end-trick", "play-on", "discard none", "discard WB", "discard WR"}
    out.update("discard " + c for c in sr.CARD_NAMES)
    most = 2 * sr.WILDS_PER_COLOUR  # no seat can hold more A cards than the box has
    out.update(f"add {b} black {r} red" for b in range(most + 1) for r in range(most + 1))
    ranks = len(sr.RANKS)
    for t, (is_run, size, _black, _off) in enumerate(sr.SPEC):
        for r in range(ranks):
            if is_run:
                # One slot per rank of the run: a suit, or an A card standing in.
                slots = [[*(rr * 4 + s for s in range(4)), None] if rr < ranks else [None]
                         for rr in range(r, r + size)]
                picks = [[c for c in pick if c is not None] for pick in product(*slots)]
            else:
                suits = range(4)
                picks = [[r * 4 + s for s in sub] for k in range(1, size + 1) for sub in combinations(suits, k)]
            for nat in picks:
                wild = size - len(nat)
                for nwb in range(wild + 1):
                    action = sr.render_meld(t, nat, nwb, wild - nwb)
                    if isinstance(sr.parse_meld(action), sr.Meld):
                        out.add(action)
        for nwb in range(size + 1):  # melds of A cards only
            action = sr.render_meld(t, [], nwb, size - nwb)
            if isinstance(sr.parse_meld(action), sr.Meld):
                out.add(action)
    return sorted(out)


#: Builders of each game's action table.
ACTION_TABLES: dict[str, Callable[[], list[str]]] = {
    "sumo": _sumo_actions,
    "sumo-card-game": _sumo_card_game_actions,
    "sumida-river": _sumida_river_actions,
}


@functools.cache
def action_table(game_name: str) -> tuple[str, ...]:
    """Every action string ``game_name`` can ever offer, sorted; id ``i`` is ``table[i]``."""
    if game_name in _EXTRA_TABLES:
        return _EXTRA_TABLES[game_name]
    if game_name not in ACTION_TABLES:
        raise KeyError(f"no OpenSpiel action table for card game {game_name!r}")
    return tuple(sorted(set(ACTION_TABLES[game_name]())))


@functools.cache
def action_index(game_name: str) -> dict[str, int]:
    return {a: i for i, a in enumerate(action_table(game_name))}


_EXTRA_TABLES: dict[str, tuple[str, ...]] = {}


# ----- per-game settings -------------------------------------------------------------------------------


#: Game parameters besides ``players``, with their defaults (passed to ``new``).
OPTIONS: dict[str, dict[str, Any]] = {
    "sumo": {"colours": "red-black", "hand_size": 8, "max_deals": 0},
    "sumo-card-game": {"jokers": False},
}
#: Games whose returns always sum to zero (+1 / -1 between two seats).
ZERO_SUM = {"sumo", "sumo-card-game"}
#: Upper bounds on the number of player actions in a game (OpenSpiel wants one; ours are generous).
MAX_LENGTH: dict[str, int] = {"sumo": 2_000, "sumo-card-game": 20_000, "sumida-river": 20_000}
#: Chance outcomes are below this (card ids of the biggest deck; SUMO: a short deal's whole hand as
#: a bit mask of card ids, see cards.api.CardGame._deal_hands).
MAX_CHANCE_OUTCOMES: dict[str, int] = {"sumo": 1 << 20, "sumo-card-game": 54, "sumida-river": 52}


# ----- OpenSpiel classes ----------------------------------------------------------------------------------


class _Holder:
    """Holds the engine state. OpenSpiel clones a Python state by deep-copying its attributes:
    this makes that copy the engine's own fast ``clone()``; pickling (OpenSpiel's serialisation)
    stores the engine's JSON save, never the engine object."""

    __slots__ = ("game",)

    def __init__(self, game: CardGame | None) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(None if self.game is None else self.game.clone())

    def __getstate__(self) -> dict[str, Any]:
        g = self.game
        return {"game": None if g is None else g.name, "save": None if g is None else json.dumps(g.to_json())}

    def __setstate__(self, state: dict[str, Any]) -> None:
        if state["game"] is None:
            self.game = None
            return
        g = _ENGINES[state["game"]].from_json(json.loads(state["save"]))
        g._chance = NO_OUTCOMES  # every later random event is a chance node again
        self.game = g


class _Step:
    """An action (or the first deal) whose random events are being decided by chance nodes.

    ``action`` is the action string (None: the deal of a new game), ``outcomes`` the outcomes chosen
    so far, ``kind`` and ``options`` what the engine asks for next (None until first asked).
    """

    __slots__ = ("action", "outcomes", "kind", "options")

    def __init__(self, action: str | None, outcomes: tuple[int, ...] = ()) -> None:
        self.action = action
        self.outcomes = outcomes
        self.kind: str | None = None
        self.options: tuple[int, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Step:
        s = _Step(self.action, self.outcomes)
        s.kind, s.options = self.kind, self.options
        return s

    def __getstate__(self) -> dict[str, Any]:
        return {"action": self.action, "outcomes": list(self.outcomes), "kind": self.kind,
                "options": list(self.options)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.action = state["action"]
        self.outcomes = tuple(state["outcomes"])
        self.kind = state["kind"]
        self.options = tuple(state["options"])


class CardSpielState(pyspiel.State):
    """An OpenSpiel state wrapping one engine state (``self.card_game``).

    Between a player's action (or the start) and its last random event, the state is a chance node:
    ``card_game`` is then the engine *before* that action, and ``_step`` the action with the
    outcomes chosen so far.
    """

    def __init__(self, game: pyspiel.Game, card_game: CardGame | None = None) -> None:
        super().__init__(game)
        self._name: str = game.card_class.name
        self._holder = _Holder(card_game)
        # A new game starts with its deal; what the deal asks for first is found when needed, so
        # a new state stays cheap (OpenSpiel makes one for every clone).
        self._step: _Step | None = _Step(None) if card_game is None else None

    @property
    def card_game(self) -> CardGame:
        """The engine state behind this OpenSpiel state (before the pending action at a chance node;
        not available during the first deal)."""
        g = self._holder.game
        if g is None:
            raise ValueError(f"{self._name}: the cards are still being dealt")
        return g

    # ----- chance ----------------------------------------------------------------------------
    def _run(self, step: _Step) -> CardGame | None:
        """Play ``step`` with its outcomes on a fresh copy; the result, or None (then ``step``
        records what the engine asks for next)."""
        chance = OutsideChance(step.outcomes)
        try:
            if step.action is None:
                game = self.get_game()
                g = game.card_class.new(game.players, chance=chance, **game.options)
            else:
                g = self.card_game.clone()
                g._chance = chance
                g.apply(step.action)
        except NeedChance as need:
            step.kind, step.options = need.kind, need.options
            return None
        if chance.used != len(step.outcomes):
            raise RuntimeError(f"{self._name}: {len(step.outcomes) - chance.used} chance outcomes left unused")
        g._chance = NO_OUTCOMES
        return g

    def _settle(self, step: _Step) -> None:
        g = self._run(step)
        if g is None:
            self._step = step
        else:
            self._holder.game = g
            self._step = None

    def _pending(self) -> _Step | None:
        """The step being resolved, its next question known (the first deal is asked lazily)."""
        step = self._step
        if step is not None and step.kind is None:
            self._settle(step)
            step = self._step
        return step

    def chance_outcomes(self) -> list[tuple[int, float]]:
        step = self._pending()
        if step is None:
            raise ValueError(f"{self._name}: not a chance node")
        counts = Counter(step.options)
        total = len(step.options)
        return [(o, counts[o] / total) for o in sorted(counts)]

    # ----- flow -------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._pending() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        p = self.card_game.to_play
        return int(pyspiel.PlayerId.TERMINAL) if p is None else p

    def _legal_actions(self, player: int) -> list[int]:
        if self._pending() is not None or player != self.card_game.to_play:
            return []
        index = action_index(self._name)
        try:
            return [index[a] for a in self.card_game.legal_actions()]
        except KeyError as exc:
            raise RuntimeError(
                f"{self._name}: legal action {exc.args[0]!r} is missing from the OpenSpiel action table"
            ) from None

    def _apply_action(self, action: int) -> None:
        step = self._pending()
        if step is not None:
            if action not in step.options:
                raise ValueError(f"{self._name}: {action} is not an outcome of this {step.kind}")
            self._settle(_Step(step.action, (*step.outcomes, action)))
            return
        table = action_table(self._name)
        if not 0 <= action < len(table):
            raise ValueError(f"{self._name}: action id {action} is outside 0..{len(table) - 1}")
        # On a copy: a refused action leaves this state as it was (the engine raises IllegalMove).
        self._settle(_Step(table[action]))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            step = self._pending()
            kind = step.kind if step is not None and step.kind is not None else "chance"
            return self.get_game().card_class.chance_name(kind, action)
        table = action_table(self._name)
        return table[action] if 0 <= action < len(table) else f"<action {action}>"

    def is_terminal(self) -> bool:
        return self._pending() is None and self.card_game.is_over

    def returns(self) -> list[float]:
        if self._holder.game is None or self._pending() is not None:
            return [0.0] * self.get_game().num_players()
        return [float(r) for r in self.card_game.returns()]

    # ----- hidden information -----------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> CardSpielState:
        """A state ``player_id`` cannot tell from this one, with every card it cannot see re-dealt
        at random (``probability_sampler()`` returns floats in [0, 1) and seeds the re-deal)."""
        if self._pending() is not None:
            raise ValueError(f"{self._name}: resample at a decision node, not a chance node")
        seed = int(probability_sampler() * 2**53)
        g = self.card_game.resample_hidden(player_id, random.Random(seed))
        g._chance = NO_OUTCOMES
        return CardSpielState(self.get_game(), g)

    def __str__(self) -> str:
        g = self._holder.game
        text = "dealing" if g is None else str(g)
        step = self._step
        if step is not None:
            text += f"\npending {step.action or 'deal'}, chance outcomes {list(step.outcomes)}"
        return text


class _Observer:
    """Strings and tensors of what one seat may see (``perfect_recall``: with its memory).

    Strings come from the engine's ``observation``; tensors from :mod:`cards.openspiel_tensors`.
    """

    def __init__(self, game_name: str, players: int, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type else False
        self._spec = openspiel_tensors.SPECS.get(game_name)
        if self._spec is None:  # a game without a tensor layout (a test game): strings only
            self.tensor: np.ndarray | None = None
            self.dict: dict[str, np.ndarray] = {}
            return
        lay = openspiel_tensors.layout(game_name, players, self.perfect_recall)
        self.tensor = np.zeros(lay.size, np.float32)
        self.dict = lay.views(self.tensor)

    def set_from(self, state: CardSpielState, player: int) -> None:
        if self.tensor is None or self._spec is None:
            return
        self.tensor.fill(0.0)
        g = state._holder.game
        if g is None:  # the first deal: nothing but the seat is known yet
            self.dict["seat"][player] = 1.0
            return
        self._spec.fill(g, player, self.dict, self.perfect_recall)

    def string_from(self, state: CardSpielState, player: int) -> str:
        g = state._holder.game
        if g is None:
            return json.dumps({"phase": "deal", "seat": player, "dealt": len(state._step.outcomes)
                               if state._step else 0})
        obs = g.observation(player)
        if not self.perfect_recall:
            obs = {k: v for k, v in obs.items() if k != "events"}
        step = state._step
        if step is not None and step.action is not None and g.to_play == player:
            obs["my_pending_action"] = step.action  # own action, its random events being decided
        return json.dumps(obs, sort_keys=True)


def _game_type(cls: type[CardGame]) -> pyspiel.GameType:
    params: dict[str, Any] = {"players": cls.player_counts[0]}
    params.update(OPTIONS.get(cls.name, {}))
    zero = cls.name in ZERO_SUM
    tensors = cls.name in openspiel_tensors.SPECS
    return pyspiel.GameType(
        short_name=short_name(cls.name),
        long_name=f"Kabuto card game: {cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(cls.player_counts),
        min_num_players=min(cls.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=tensors,
        provides_observation_string=True,
        provides_observation_tensor=tensors,
        parameter_specification=params,
    )


def _make_game_class(cls: type[CardGame]) -> type:
    game_type = _game_type(cls)
    option_names = tuple(OPTIONS.get(cls.name, {}))

    class CardSpielGame(pyspiel.Game):
        __doc__ = f"OpenSpiel game of the card engine {cls.name!r}."
        card_class = cls

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            players = int(params.get("players", cls.player_counts[0]))
            if players not in cls.player_counts:
                raise ValueError(f"{cls.name} is for {cls.player_counts} players, not {players}")
            info = pyspiel.GameInfo(
                num_distinct_actions=len(action_table(cls.name)),
                max_chance_outcomes=MAX_CHANCE_OUTCOMES.get(cls.name, 64),
                num_players=players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if cls.name in ZERO_SUM else None,
                max_game_length=MAX_LENGTH.get(cls.name, 100_000),
            )
            super().__init__(game_type, info, params)
            resolved = self.get_parameters()
            self.players = players
            self.options = {k: resolved[k] for k in option_names if k in resolved}

        def new_initial_state(self) -> CardSpielState:
            return CardSpielState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            return _Observer(cls.name, self.players, iig_obs_type, params)

    CardSpielGame.__name__ = CardSpielGame.__qualname__ = "CardSpielGame_" + cls.name.replace("-", "_")
    return CardSpielGame


#: OpenSpiel name -> registered game class.
REGISTERED: dict[str, type] = {}
#: Card-game name -> engine class of every registered game (to load a serialised state).
_ENGINES: dict[str, type[CardGame]] = {}


def register(cls: type[CardGame], actions: Sequence[str] | None = None) -> str:
    """Register one engine with OpenSpiel (once); returns its OpenSpiel name.

    ``actions`` supplies the action table of a game not listed in :data:`ACTION_TABLES` (for example
    a test game); it must hold every action string the engine can offer.
    """
    name = short_name(cls.name)
    if name in REGISTERED:
        return name
    if actions is not None:
        _EXTRA_TABLES[cls.name] = tuple(sorted(set(actions)))
    game_class = _make_game_class(cls)
    _ENGINES[cls.name] = cls
    pyspiel.register_game(_game_type(cls), game_class)
    REGISTERED[name] = game_class
    return name


def register_all() -> list[str]:
    """Register every engine of :data:`cards.GAMES` that has an action table."""
    return [register(cls) for name, cls in sorted(cards.GAMES.items()) if name in ACTION_TABLES]


def load(game_name: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` by card-game name, e.g. ``load("sumida-river", players=4)``."""
    if short_name(game_name) not in REGISTERED:
        register(cards.GAMES[game_name])
    return pyspiel.load_game(short_name(game_name), params)


def from_engine(game: pyspiel.Game, card_game: CardGame) -> CardSpielState:
    """An OpenSpiel state at the engine state ``card_game`` (a copy; its later random events are
    chance nodes). This is how OpenSpiel's bots are asked to move in one of our games."""
    g = card_game.clone()
    g._chance = NO_OUTCOMES
    return CardSpielState(game, g)


register_all()
