#!/usr/bin/env python3
"""Benchmarks of the card engines: speed of random play-outs, and strength of the search bot.

Speed (default)::

    python3 tools/bench_cards.py [--json] [--seconds 1.0] [--game NAME ...]

For every game (and every player count and option variant) it plays seeded random games for about
``--seconds`` (in fifteen chunks, five without OpenSpiel; the machine may be shared, so the fastest chunk is
reported, with the overall mean beside it) and reports games per second, microseconds per action (one ``legal_actions()`` plus
one ``apply()``, chosen with ``random.choice``), per ``clone()``, per ``resample_hidden()`` and per
``new()``. Times are CPU time of this process (``time.process_time``), so other programs on a shared
machine slow the figures less than they would wall-clock time.

A bare Python loop measured in the same run is the baseline: ``harness_us`` is the cost of the
benchmark loop itself (a ``random.choice`` and two trivial method calls), and ``x_python`` says how
many bare-loop iterations one action costs. OpenSpiel's own games (if OpenSpiel is installed) are
played by the same loop in the same run (``openspiel``): their Python games are the yardstick for the
target of at most 3 us per action, which was set against OpenSpiel's figures on an idle machine
(:data:`OPENSPIEL_REFERENCE_US`). ``scaled_us_per_action`` is what the action would cost on that
machine: each chunk of our play-outs is followed at once by a short chunk of each of OpenSpiel's
Python games, our chunk's figure is multiplied by the ratio of the reference figures to those
chunks' (averaged over the games), and the median over the chunks is reported. Pairing the chunks
matters: a shared machine's speed drifts by a third within seconds, so a yardstick measured once at
the start scaled the same code anywhere from 2.5 to 4 us. ``meets_targets`` says whether a game
stays within 3 us (scaled) per action and 20 us per clone.

Strength::

    python3 tools/bench_cards.py --strength [--games 200] [--bot mcts] [--jobs 2] [--json]

plays ``--games`` seeded games of the search bot against random bots per game (its seat rotating
through every seat), and reports the bot's win rate; the requirement is at least 70%. With
``--opponent`` another level, it is a match between two levels, e.g. the Equilibrium level against
the Strong search in SUMO (the share counts a draw half; 95% Wilson interval)::

    python3 tools/bench_cards.py --strength --game sumo --plain --games 400 --jobs 2 \
        --bot eq:4000,time=3.0 --opponent mcts:1000,time=3.0,rollout=heuristic
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from typing import Any

import cards
from cards.api import CardGame
from kabuto.lab.stats import wilson

TARGET_US_PER_ACTION = 3.0
TARGET_US_PER_CLONE = 20.0
#: OpenSpiel's games played by the same loop, with their cost per action (us) on the idle machine
#: the target was set on (issue 20): the yardstick that makes figures from a busy machine comparable.
OPENSPIEL_REFERENCE_US: dict[str, float] = {
    "python_liars_poker": 4.7,
    "python_block_dominoes": 12.2,
    "python_tic_tac_toe": 16.4,
    "hearts": 1.0,  # C++, for scale
}
STRENGTH_TARGET = 0.70
#: Option variants benchmarked besides the plain game.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "sumo-card-game": [{}, {"jokers": True}],
    "sumo": [{}, {"colours": "suits"}],
}


def cases(
    names: list[str] | None, variants: bool = True
) -> list[tuple[str, type[CardGame], int, dict[str, Any]]]:
    """(label, class, players, options) for every benchmarked variant (``variants=False``: only
    each game's plain rules)."""
    out = []
    for name, cls in sorted(cards.GAMES.items()):
        if names and name not in names:
            continue
        for players in cls.player_counts:
            for options in VARIANTS.get(name, [{}]) if variants else [{}]:
                label = name
                if len(cls.player_counts) > 1:
                    label += f"/{players}p"
                label += "".join(f"+{k}" if v is True else f"+{k}={v}" for k, v in options.items())
                out.append((label, cls, players, options))
    return out


# ----- baseline ------------------------------------------------------------------------------------


class _NullGame:
    """The cheapest possible game: what the benchmark loop costs by itself."""

    def __init__(self) -> None:
        self.moves = ["a", "b", "c", "d", "e", "f"]
        self.n = 0

    @property
    def is_over(self) -> bool:
        return False

    def legal_actions(self) -> list[str]:
        return self.moves

    def apply(self, action: str) -> None:
        self.n += 1


def baseline(n: int = 100_000, repeats: int = 5) -> dict[str, float]:
    """Per-iteration cost of a bare Python loop and of the benchmark harness on a null game."""
    rng = random.Random(0)
    choice = rng.choice
    data = list(range(8))
    bare: list[tuple[float, int]] = []
    harness: list[tuple[float, int]] = []
    for _ in range(repeats):
        t = time.process_time()
        acc = 0
        for i in range(n):  # a bare loop: an index, a list read, an add
            acc += data[i & 7]
        bare.append((time.process_time() - t, n))
        g = _NullGame()
        t = time.process_time()
        for _ in range(n):
            if g.is_over:
                break
            g.apply(choice(g.legal_actions()))
        harness.append((time.process_time() - t, n))
    return {"python_loop_us": round(_best(bare), 4), "harness_us": round(_best(harness), 4)}


# ----- speed ----------------------------------------------------------------------------------------


def _best(times: list[tuple[float, int]]) -> float:
    """Microseconds per unit of the fastest chunk: the machine is shared, so the least disturbed
    measurement is the truest one."""
    return min(t / n for t, n in times if n) * 1e6


def speed(
    cls: type[CardGame], players: int, options: dict[str, Any], seconds: float, chunks: int = 5,
    yardstick: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Seeded random play-outs of one variant, measured in ``chunks`` chunks (best one reported).

    Unmeasured games come first for a third of the time: the engines' shared caches (Sumida
    River's melds, the Sumo Card Game's attack plays) fill as play goes on, and a long play-out
    or a search runs with them full. With a ``yardstick`` (:func:`openspiel_games`), each chunk is
    followed by a chunk of each of its games, and ``scaled_us_per_action`` is the median over the
    chunks of our figure scaled by theirs (:func:`scale_factor`).
    """
    rng = random.Random(12345)
    choice = rng.choice
    warm_until = time.process_time() + seconds / 3
    warm_seed = 1_000_000
    while time.process_time() < warm_until:
        g = cls.new(players, warm_seed, **options)
        warm_seed += 1
        while not g.is_over:
            g.apply(choice(g.legal_actions()))
    games = actions = 0
    play_chunks: list[tuple[float, int]] = []
    game_chunks: list[tuple[float, int]] = []
    new_time = 0.0
    samples: list[CardGame] = []
    scaled_chunks: list[float] = []
    seed = 0
    for _ in range(chunks):
        chunk_play = chunk_all = 0.0
        chunk_actions = chunk_games = 0
        deadline = time.process_time() + seconds / chunks
        while time.process_time() < deadline or chunk_games < 1:
            t0 = time.process_time()
            g = cls.new(players, seed, **options)
            t1 = time.process_time()
            n = 0
            while not g.is_over:
                g.apply(choice(g.legal_actions()))
                n += 1
            t2 = time.process_time()
            new_time += t1 - t0
            chunk_play += t2 - t1
            chunk_all += t2 - t0
            chunk_games += 1
            chunk_actions += n
            seed += 1
        play_chunks.append((chunk_play, chunk_actions))
        game_chunks.append((chunk_all, chunk_games))
        if yardstick:
            scale = scale_factor({k: {"us_per_action": _play_spiel(g, seconds / chunks / len(yardstick))}
                                  for k, g in yardstick.items()})
            if scale is not None and chunk_actions:
                scaled_chunks.append(chunk_play / chunk_actions * 1e6 * scale)
        games += chunk_games
        actions += chunk_actions
    # States to clone and re-deal, spread over a few games.
    for k in range(40):
        g = cls.new(players, 10_000 + k, **options)
        path = []
        while not g.is_over:
            path.append(g.clone())
            g.apply(choice(g.legal_actions()))
        samples.extend(path[:: max(1, len(path) // 10)])
        if len(samples) >= 300:
            break
    clone_passes = []
    for _ in range(max(3, 3000 // len(samples))):
        t = time.process_time()
        for s in samples:
            s.clone()
        clone_passes.append((time.process_time() - t, len(samples)))
    live = [s for s in samples if not s.is_over]
    resample_passes = []
    for _ in range(3):
        t = time.process_time()
        for s in live:
            s.resample_hidden(s.to_play, rng)
        resample_passes.append((time.process_time() - t, len(live)))
    some = samples[:100]
    t = time.process_time()
    for s in some:
        cls.from_json(json.loads(json.dumps(s.to_json())))
    json_us = (time.process_time() - t) / max(1, len(some)) * 1e6
    return {
        "players": players,
        "options": options,
        "games": games,
        "actions": actions,
        "mean_length": round(actions / games, 2),
        "games_per_s": round(1e6 / _best(game_chunks), 1),
        "us_per_action": round(_best(play_chunks), 3),
        "us_per_action_mean": round(sum(t for t, _ in play_chunks) / actions * 1e6, 3),
        "us_per_clone": round(_best(clone_passes), 3),
        "us_per_resample": round(_best(resample_passes), 3),
        "us_per_new": round(new_time / games * 1e6, 3),
        "us_per_json_round_trip": round(json_us, 3),
        "scaled_chunks": [round(x, 3) for x in scaled_chunks],
    }


def openspiel_games(python_only: bool = True) -> dict[str, Any]:
    """OpenSpiel's games of :data:`OPENSPIEL_REFERENCE_US`, loaded: only the Python ones (the
    yardstick) unless ``python_only`` is False (empty without OpenSpiel)."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers the Python games)
        import pyspiel
    except ImportError:
        return {}
    return {name: pyspiel.load_game(name) for name in OPENSPIEL_REFERENCE_US
            if name.startswith("python_") or not python_only}


def _play_spiel(game: Any, seconds: float, seed: int = 7) -> float:
    """Microseconds per action of random play-outs of an OpenSpiel game for about ``seconds`` of CPU
    (chance nodes are played by ``legal_actions()``, as their outcomes are equally likely in these
    games; ``new_initial_state`` is not timed, nor is our games' ``new()``)."""
    choice = random.Random(seed).choice
    n = 0
    spent = 0.0
    while spent < seconds or n == 0:
        s = game.new_initial_state()
        t = time.process_time()
        while not s.is_terminal():
            s.apply_action(choice(s.legal_actions()))
            n += 1
        spent += time.process_time() - t
    return spent / n * 1e6


def openspiel_speed(seconds: float, chunks: int = 5) -> dict[str, dict[str, float]]:
    """OpenSpiel's games of :data:`OPENSPIEL_REFERENCE_US` through the same loop, fastest chunk."""
    return {
        name: {"us_per_action": round(min(_play_spiel(game, seconds / chunks) for _ in range(chunks)), 3)}
        for name, game in openspiel_games(python_only=False).items()
    }


def scale_factor(spiel: dict[str, dict[str, float]]) -> float | None:
    """How much slower this run is than the reference machine, from OpenSpiel's Python games."""
    ratios = [OPENSPIEL_REFERENCE_US[k] / v["us_per_action"] for k, v in spiel.items() if k.startswith("python_")]
    return sum(ratios) / len(ratios) if ratios else None


def run_speed(args: argparse.Namespace) -> dict[str, Any]:
    base = baseline()
    spiel = openspiel_speed(args.seconds)
    scale = scale_factor(spiel)
    out: dict[str, Any] = {
        "mode": "speed",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "baseline": base,
        "targets": {"us_per_action": TARGET_US_PER_ACTION, "us_per_clone": TARGET_US_PER_CLONE},
        "openspiel": spiel,
        "scale_to_reference": None if scale is None else round(scale, 3),
        "games": {},
    }
    if not args.json:
        for k, v in spiel.items():
            print(f"openspiel {k:24s} {v['us_per_action']:7.2f} us/action (reference {OPENSPIEL_REFERENCE_US[k]})",
                  flush=True)
    yardstick = openspiel_games()
    for label, cls, players, options in cases(args.game):
        r = speed(cls, players, options, args.seconds, chunks=15 if yardstick else 5, yardstick=yardstick)
        r["net_us_per_action"] = round(r["us_per_action"] - base["harness_us"], 3)
        r["x_python"] = round(r["us_per_action"] / base["python_loop_us"], 1)
        r["vs_openspiel"] = {k: round(r["us_per_action"] / v["us_per_action"], 3) for k, v in spiel.items()}
        paired = sorted(r["scaled_chunks"])
        if paired:
            scaled = paired[len(paired) // 2]
        else:
            scaled = r["us_per_action"] if scale is None else r["us_per_action"] * scale
        r["scaled_us_per_action"] = round(scaled, 3)
        r["meets_targets"] = scaled <= TARGET_US_PER_ACTION and r["us_per_clone"] <= TARGET_US_PER_CLONE
        out["games"][label] = r
        if not args.json:
            print(
                f"{label:24s} {r['games_per_s']:9.1f} games/s  {r['us_per_action']:7.2f} us/action"
                f" ({r['scaled_us_per_action']:5.2f} scaled)"
                f"  {r['us_per_clone']:7.2f} us/clone  {r['us_per_resample']:7.2f} us/resample"
                f"  {'ok' if r['meets_targets'] else 'SLOW'}",
                flush=True,
            )
    return out


# ----- strength -------------------------------------------------------------------------------------


def run_strength(args: argparse.Namespace) -> dict[str, Any]:
    from tqdm import tqdm

    from cards.bots import evaluate

    out: dict[str, Any] = {
        "mode": "strength",
        "bot": args.bot,
        "opponent": args.opponent,
        "games_per_variant": args.games,
        "seed": args.seed,
        "target_win_rate": STRENGTH_TARGET,
        "results": {},
    }
    for label, cls, players, options in cases(args.game, not args.plain):
        bar = tqdm(total=args.games, desc=label, file=sys.stderr, leave=False, disable=args.no_progress)
        res = evaluate(
            cls, args.bot, args.opponent, games=args.games, seed=args.seed, players=players,
            options=options, jobs=args.jobs, progress=bar.update,
        )
        bar.close()
        r = res.to_json()
        r["options"] = options
        lo, hi = wilson(res.wins + res.draws / 2, res.games)
        r["share"] = round((res.wins + res.draws / 2) / res.games, 4) if res.games else None
        r["ci95"] = [round(lo, 4), round(hi, 4)]  # of the share (a draw counts half)
        r["meets_target"] = res.win_rate >= STRENGTH_TARGET
        out["results"][label] = r
        if not args.json:
            print(
                f"{label:24s} {r['bot']} vs {r['opponent']}: won {r['wins']}/{r['games']}"
                f" ({100 * r['win_rate']:.1f}%, draws {r['draws']}, chance {100 * r['chance_baseline']:.0f}%;"
                f" share {100 * (r['share'] or 0):.1f}%, 95% {100 * lo:.1f}-{100 * hi:.1f}%)"
                f" in {r['seconds']:.1f} s  {'ok' if r['meets_target'] else 'BELOW TARGET'}",
                flush=True,
            )
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true", help="print one JSON object (and nothing else on stdout)")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--seconds", type=float, default=1.0, help="speed: seconds of play-outs per variant")
    p.add_argument("--strength", action="store_true", help="measure the search bot against random bots")
    p.add_argument("--games", type=int, default=200, help="strength: games per variant (default 200)")
    p.add_argument("--bot", default="mcts", help="strength: the bot measured (default mcts)")
    p.add_argument("--opponent", default="random", help="strength: the other seats (default random)")
    p.add_argument("--seed", type=int, default=0, help="strength: seed of the first game")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="strength: worker processes")
    p.add_argument("--no-progress", action="store_true", help="strength: no progress bar on stderr")
    p.add_argument("--plain", action="store_true", help="only each game's plain rules (no option variants)")
    args = p.parse_args(argv)
    unknown = [g for g in args.game or [] if g not in cards.GAMES]
    if unknown:
        p.error(f"unknown game {unknown[0]!r} (games: {', '.join(sorted(cards.GAMES))})")
    out = run_strength(args) if args.strength else run_speed(args)
    if args.json:
        print(json.dumps(out, indent=None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
