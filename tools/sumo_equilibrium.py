#!/usr/bin/env python3
"""How exploitable are the SUMO bots? Exact exploitability from OpenSpiel, on a short SUMO deal.

    python3 tools/sumo_equilibrium.py [--hand-size 2] [--cfr 4000] [--mcts 1000] [--eq 4000]
                                      [--openspiel-mccfr 200000] [--json] [--out FILE]

Exploitability (OpenSpiel's ``exploitability.exploitability``: the mean of what a best response
wins against the policy, over both seats; 0 for a Nash equilibrium, at most 1 in SUMO) needs every
history of the game. Full SUMO has 62,355,150 deals, so it is measured on SUMO with ``hand_size``
cards a seat (every rule unchanged; ``max_deals=1``: a deal whose reveals all tie is a draw, to keep
the tree finite; with two cards a seat the tree has 29,070 deals).

Policies measured:

* ``uniform`` - every legal action equally likely;
* ``heuristic`` - the rule-of-thumb player (``cards.sumo.heuristic_action``);
* ``mcts`` - our ISMCTS (``--mcts`` iterations a decision, one fixed seed per information set);
* ``cfr`` - our online MCCFR bot (:mod:`cards.mccfr`, ``--cfr`` iterations a decision): its average
  strategy at each information set, searched from one state of it;
* ``eq`` - the Equilibrium level (:mod:`cards.equilibrium`, its default settings: the reveal as the
  equilibrium of the blind choice, the tricks solved over every consistent deal, ties within its
  margin mixed by ``--eq-cfr`` MCCFR iterations; ``--eq`` search iterations are only used with
  ``--eq-reveal search``; ``--eq-model W`` reveals against the model of the other seat's reveal
  trusted with weight W): its mixed strategy at each information set;
* ``openspiel-mccfr`` - OpenSpiel's own outcome-sampling MCCFR run offline on the short game for
  ``--openspiel-mccfr`` iterations (its average policy): how far sampling MCCFR gets with a budget.

A bot's policy at an information set is computed once (cached by OpenSpiel's information-state
string) from the first state of it that the best response visits; our bots only read what the seat
may see (they re-deal the rest), so any state of the information set gives the same answer.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import best_response, outcome_sampling_mccfr

from cards import openspiel_adapter as oa
from cards.api import CardGame
from cards.bots import ISMCTSBot
from cards.equilibrium import DEFAULT_DEALS, DEFAULT_MODEL, DEFAULT_REVEAL, REVEALS, EquilibriumBot
from cards.mccfr import MCCFRBot
from cards.sumo import heuristic_action


class EnginePolicy(policy_lib.Policy):
    """An OpenSpiel policy from a function (engine state, seat) -> {action string: probability}."""

    def __init__(self, game: Any, fn: Callable[[CardGame, int], dict[str, float]]) -> None:
        super().__init__(game, list(range(game.num_players())))
        self._fn = fn
        self._cache: dict[str, dict[int, float]] = {}
        self.calls = 0

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        p = state.current_player()
        key = state.information_state_string(p)
        hit = self._cache.get(key)
        if hit is None:
            legal = state.legal_actions()
            if len(legal) == 1:
                hit = {legal[0]: 1.0}
            else:
                index = oa.action_index("sumo")
                probs = self._fn(state.card_game, p)
                hit = dict.fromkeys(legal, 0.0)  # (OpenSpiel's best response wants every legal action)
                hit.update((index[a], float(v)) for a, v in probs.items())
                self.calls += 1
            self._cache[key] = hit
        return hit


def _seed_of(g: CardGame, seat: int) -> int:
    """A seed fixed by what the seat knows (so one information set always gets the same search)."""
    obs = g.observation(seat)
    return zlib.crc32(json.dumps({k: v for k, v in obs.items() if k != "events"}, sort_keys=True).encode())


def policies(game: Any, args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"uniform": policy_lib.UniformRandomPolicy(game)}
    out["heuristic"] = EnginePolicy(game, lambda g, p: {heuristic_action(g, p, random.Random(0)): 1.0})

    def mcts(g: CardGame, p: int) -> dict[str, float]:
        return {ISMCTSBot(iterations=args.mcts, seed=_seed_of(g, p)).act(g): 1.0}

    def cfr(g: CardGame, p: int) -> dict[str, float]:
        return MCCFRBot(iterations=args.cfr, seed=_seed_of(g, p)).strategy(g)

    def eq(g: CardGame, p: int) -> dict[str, float]:
        return EquilibriumBot(iterations=args.eq, cfr_iterations=args.eq_cfr, reveal=args.eq_reveal,
                              deals=args.eq_deals, model=args.eq_model, seed=_seed_of(g, p), search=ISMCTSBot).strategy(g)

    out["mcts"] = EnginePolicy(game, mcts)
    out["cfr"] = EnginePolicy(game, cfr)
    out["eq"] = EnginePolicy(game, eq)
    return out


def exploitability(game: Any, policy: Any, states: tuple[dict[str, Any], dict[str, str]]) -> float:
    """OpenSpiel's ``exploitability.exploitability``, on states enumerated once for every policy.

    OpenSpiel's own function enumerates every state of the game again for each seat's best
    response; on the short SUMO deal that walk through the Python adapter is nearly all the time.
    """
    all_states, info_states = states
    root = game.new_initial_state()
    total = sum(best_response.CPPBestResponsePolicy(game, seat, policy, all_states, info_states).value(root)
                for seat in range(game.num_players()))
    return float((total - game.utility_sum()) / game.num_players())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hand-size", type=int, default=2, help="cards a seat (default 2: 29,070 deals)")
    p.add_argument("--cfr", type=int, default=4000, help="iterations a decision of our MCCFR bot")
    p.add_argument("--mcts", type=int, default=1000, help="iterations a decision of our ISMCTS bot")
    p.add_argument("--eq", type=int, default=4000, help="search iterations a decision of the eq bot")
    p.add_argument("--eq-cfr", type=int, default=400, help="MCCFR iterations of the eq bot's mix")
    p.add_argument("--eq-reveal", choices=REVEALS, default=DEFAULT_REVEAL, help="how the eq bot values the reveal")
    p.add_argument("--eq-deals", type=int, default=DEFAULT_DEALS,
                   help="the eq bot's sampled hands of the other seat for the reveal")
    p.add_argument("--eq-model", type=float, default=DEFAULT_MODEL,
                   help="the eq bot's trust in its model of the other seat's reveal (0..1)")
    p.add_argument("--openspiel-mccfr", type=int, default=200_000, help="iterations of OpenSpiel's MCCFR")
    p.add_argument("--only", action="append", help="measure only these policies (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    args = p.parse_args(argv)
    from cards.sumo import HAND_SIZE, MIN_HAND_SIZE

    if not MIN_HAND_SIZE <= args.hand_size <= HAND_SIZE:
        p.error(f"--hand-size: SUMO deals {MIN_HAND_SIZE} to {HAND_SIZE} cards a seat, not {args.hand_size}")
    game = oa.load("sumo", hand_size=args.hand_size, max_deals=1)
    results: dict[str, Any] = {"game": str(game), "hand_size": args.hand_size, "policies": {}}
    todo = policies(game, args)
    if not args.only or "openspiel-mccfr" in args.only:
        t = time.perf_counter()
        solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
        for _ in range(args.openspiel_mccfr):
            solver.iteration()
        todo["openspiel-mccfr"] = solver.average_policy()
        results["openspiel_mccfr_seconds"] = round(time.perf_counter() - t, 1)
    t = time.perf_counter()
    states = best_response.compute_states_and_info_states_if_none(game, None, None)
    results["states_seconds"] = round(time.perf_counter() - t, 1)
    for name, pol in todo.items():
        if args.only and name not in args.only:
            continue
        t = time.perf_counter()
        value = exploitability(game, pol, states)
        row = {"exploitability": round(float(value), 4), "seconds": round(time.perf_counter() - t, 1)}
        if isinstance(pol, EnginePolicy):
            row["information_sets_searched"] = pol.calls
        results["policies"][name] = row
        if not args.json:
            print(f"{name:16s} exploitability {row['exploitability']:.4f}  ({row['seconds']} s)", flush=True)
        if args.out:
            args.out.write_text(json.dumps(results, indent=1))
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
