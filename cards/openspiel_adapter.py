"""The card games as OpenSpiel games (optional extra: ``pip install 'kabuto[openspiel]'``).

Importing this module registers every engine in :data:`cards.GAMES` with OpenSpiel under the name
``kabuto_<game>`` with dashes as underscores (``kabuto_sumo``, ``kabuto_sumo_card_game``,
``kabuto_sumida_river``), so OpenSpiel's algorithms and its own test harness can run on them::

    import pyspiel
    import cards.openspiel_adapter

    game = pyspiel.load_game("kabuto_sumida_river", {"players": 4, "seed": 7})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)

How the card API maps onto OpenSpiel's:

* **Actions.** OpenSpiel actions are integers below ``num_distinct_actions``. Every game has a fixed
  *action table*: the sorted list of every action string the engine can ever offer (all cards, all
  melds, all phase words), built once from the game's own rules (see :func:`action_table`).
  Action id ``i`` is ``table[i]``; since both the table and ``legal_actions()`` are sorted, the legal
  ids come out sorted as OpenSpiel requires.
* **Chance.** None is visible: the deal and every reshuffle happen inside the engine from its own
  seeded generator. The game parameter ``seed`` (default 0) seeds the deal, so one loaded game always
  deals the same cards; load it with other seeds for other deals.
* **Information.** Imperfect information. The observation string of seat ``p`` is the engine's
  ``observation(p)`` as sorted JSON without the event log; the information-state string includes the
  events seat ``p`` may see (perfect recall). No tensors.
* **Legality.** ``apply_action`` trusts its caller, as OpenSpiel's does;
  ``apply_action_with_legality_check`` checks. An id outside the table, or an action the engine
  refuses, raises ``ValueError``/:class:`cards.api.IllegalMove` and leaves the state unchanged.
* **Whose turn.** The engine's ``to_play`` (None once over) becomes pyspiel's ``current_player()``
  (``pyspiel.PlayerId.TERMINAL`` once over) and ``is_over`` its ``is_terminal()``.
* **Copies.** ``clone()`` uses the engine's hand-written ``clone``; serialisation pickles the state,
  which holds only the engine state; ``str(state)`` is the engine's JSON, so OpenSpiel's clone and
  serialise checks compare complete game states.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from itertools import combinations, product
from typing import Any

import numpy as np
import pyspiel

import cards
from cards.api import CardGame

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


#: Game parameters besides ``players`` and ``seed``, with their defaults (passed to ``new``).
OPTIONS: dict[str, dict[str, Any]] = {
    "sumo": {"colours": "red-black"},
    "sumo-card-game": {"jokers": False},
}
#: Games whose returns always sum to zero (+1 / -1 between two seats).
ZERO_SUM = {"sumo", "sumo-card-game"}
#: Upper bounds on the number of actions in a game (OpenSpiel wants one; ours are generous).
MAX_LENGTH: dict[str, int] = {"sumo": 2_000, "sumo-card-game": 20_000, "sumida-river": 20_000}


# ----- OpenSpiel classes ----------------------------------------------------------------------------------


class _Holder:
    """Holds the engine state. OpenSpiel clones a Python state by deep-copying its attributes:
    this makes that copy the engine's own fast ``clone()`` instead of a generic deep copy."""

    __slots__ = ("game",)

    def __init__(self, game: CardGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.game.clone())

    def __getstate__(self) -> dict[str, Any]:
        return {"game": self.game}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.game = state["game"]


class CardSpielState(pyspiel.State):
    """An OpenSpiel state wrapping one engine state (``self.card_game``)."""

    def __init__(self, game: pyspiel.Game, card_game: CardGame) -> None:
        super().__init__(game)
        self._holder = _Holder(card_game)
        self._name = card_game.name

    @property
    def card_game(self) -> CardGame:
        """The engine state behind this OpenSpiel state."""
        return self._holder.game

    # The table lookups go through the module caches so the pickled state holds only the engine.
    def current_player(self) -> int:
        p = self.card_game.to_play
        return int(pyspiel.PlayerId.TERMINAL) if p is None else p

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.card_game.to_play:
            return []
        index = action_index(self._name)
        try:
            return [index[a] for a in self.card_game.legal_actions()]
        except KeyError as exc:
            raise RuntimeError(
                f"{self._name}: legal action {exc.args[0]!r} is missing from the OpenSpiel action table"
            ) from None

    def _apply_action(self, action: int) -> None:
        table = action_table(self._name)
        if not 0 <= action < len(table):
            raise ValueError(f"{self._name}: action id {action} is outside 0..{len(table) - 1}")
        self.card_game.apply(table[action])

    def _action_to_string(self, player: int, action: int) -> str:
        table = action_table(self._name)
        return table[action] if 0 <= action < len(table) else f"<action {action}>"

    def is_terminal(self) -> bool:
        return self.card_game.is_over

    def returns(self) -> list[float]:
        return [float(r) for r in self.card_game.returns()]

    def __str__(self) -> str:
        return str(self.card_game)


class _StringObserver:
    """Observation strings from the engine's ``observation``; no tensor."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type else False
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: CardSpielState, player: int) -> None:
        pass

    def string_from(self, state: CardSpielState, player: int) -> str:
        obs = state.card_game.observation(player)
        if not self.perfect_recall:
            obs = {k: v for k, v in obs.items() if k != "events"}
        return json.dumps(obs, sort_keys=True)


def _game_type(cls: type[CardGame]) -> pyspiel.GameType:
    params: dict[str, Any] = {"players": cls.player_counts[0], "seed": 0}
    params.update(OPTIONS.get(cls.name, {}))
    zero = cls.name in ZERO_SUM
    return pyspiel.GameType(
        short_name=short_name(cls.name),
        long_name=f"Kabuto card game: {cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(cls.player_counts),
        min_num_players=min(cls.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
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
                max_chance_outcomes=0,
                num_players=players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if cls.name in ZERO_SUM else None,
                max_game_length=MAX_LENGTH.get(cls.name, 100_000),
            )
            super().__init__(game_type, info, params)
            resolved = self.get_parameters()
            self.players = players
            self.seed = int(resolved.get("seed", 0))
            self.options = {k: resolved[k] for k in option_names if k in resolved}

        def new_initial_state(self) -> CardSpielState:
            return CardSpielState(self, cls.new(self.players, self.seed, **self.options))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _StringObserver:
            return _StringObserver(iig_obs_type, params)

    CardSpielGame.__name__ = CardSpielGame.__qualname__ = "CardSpielGame_" + cls.name.replace("-", "_")
    return CardSpielGame


#: OpenSpiel name -> registered game class.
REGISTERED: dict[str, type] = {}


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
    pyspiel.register_game(_game_type(cls), game_class)
    REGISTERED[name] = game_class
    return name


def register_all() -> list[str]:
    """Register every engine of :data:`cards.GAMES` that has an action table."""
    return [register(cls) for name, cls in sorted(cards.GAMES.items()) if name in ACTION_TABLES]


def load(game_name: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` by card-game name, e.g. ``load("sumida-river", players=4, seed=3)``."""
    if short_name(game_name) not in REGISTERED:
        register(cards.GAMES[game_name])
    return pyspiel.load_game(short_name(game_name), params)


register_all()
