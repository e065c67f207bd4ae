"""Benchmark: how long the coach takes to answer G (a hint) and D (the danger) at the table.

The coach promises an answer within a second on a 2-core machine (issue 43). It searches on one
process (the table's drawing keeps the other core), at the fixed budget of
:data:`kabuto.app.coach.COACH_LEVEL`. This times both answers, as the table asks for them, in the
starting position of every board (2, 3 and 4 players) and in positions from the middle of seeded
games between easy AIs:

* the hint: :func:`kabuto.app.coach.hint` for the seat to move;
* the danger: :func:`kabuto.app.coach.danger` with the player's aim (the hint's push, standing in
  for wherever the player has aimed), the strongest reply to it.

Machines are shared and noisy, so beside the seconds it reports each answer as a number of plain
push previews (one push of a small disc into the same position, timed in the same run): the
search's cost in pushes, which does not depend on how busy the machine is.

    python tools/bench_coach.py                 # a readable summary
    python tools/bench_coach.py --mid 0 --json  # starting boards only, one JSON object

Exit 1 when the slowest answer takes more than ``--budget`` seconds (default 1.0).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from kabuto.ai import choose
from kabuto.ai.plan import PushChoice
from kabuto.ai.play import play_turn
from kabuto.app.coach import COACH_LEVEL, danger, hint
from kabuto.lab.positions import free_entry
from kabuto.rules.game import Game
from kabuto.rules.naming import SeatNames
from kabuto.rules.wrestlers import load_wrestlers

COLOURS = ("Red", "Blue", "Green", "Yellow")


def positions(boards: tuple[int, ...], mid: int, mid_turns: int, seed: int) -> list[tuple[str, Game]]:
    """(label, game) for the starting board of each player count and ``mid`` positions from the
    middle of seeded easy-AI games (``mid_turns`` turns in)."""
    rng = random.Random(seed)
    names = [w.key for w in load_wrestlers()]
    out: list[tuple[str, Game]] = []
    for players in boards:
        for k in range(1 + mid):
            g = Game.new(players=players, wrestlers=rng.sample(names, players), seed=rng.randrange(10**6))
            g.names = SeatNames(COLOURS[:players])
            label = f"{players} players, start"
            if k:
                for _ in range(mid_turns * players):
                    if g.is_over:
                        break
                    play_turn(g, choose(g, "easy", seed=rng.randrange(10**6), workers=1))
                if g.is_over or not g.can_push:
                    continue
                label = f"{players} players, turn {g.turn.number}"
            out.append((label, g))
    return out


def _timed(f: Any, *args: Any) -> float:
    t = time.perf_counter()
    f(*args)
    return time.perf_counter() - t


def _plain_push(game: Game) -> None:
    """One push of the cheapest piece the seat has, straight in: the unit of the coach's work."""
    pid = min(game.inventory(game.current_side), key=lambda p: game.materials.kinds[game.kind_of(p)].mass)
    top = game.materials.sim.max_speed
    game.preview_push(pid, free_entry(game, pid, 0.0, speed=top, step=15.0), 0.0, top)


def measure(label: str, game: Game) -> dict[str, Any]:
    before = game.to_json()
    t_push = min(_timed(_plain_push, game) for _ in range(3))
    h = hint(game, 1)       # once untimed: the first search in a process loads what it needs
    t_hint = _timed(hint, game, 1)
    aim = None if h is None else PushChoice(h.kind, h.aim.entry_deg, h.aim.heading_deg, h.aim.speed,
                                            h.aim.spin_deg)
    t_danger = _timed(danger, game, aim, 1)
    assert game.to_json() == before, "the coach changed the game it was asked about"
    return {"position": label, "hint_s": round(t_hint, 3), "danger_s": round(t_danger, 3),
            "push_s": round(t_push, 4), "hint_pushes": round(t_hint / t_push, 1),
            "danger_pushes": round(t_danger / t_push, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[1:]))
    ap.add_argument("--boards", default="2,3,4", help="player counts to measure (default 2,3,4)")
    ap.add_argument("--mid", type=int, default=2, help="mid-game positions per board (default 2)")
    ap.add_argument("--mid-turns", type=int, default=4, help="rounds played before a mid-game position")
    ap.add_argument("--seed", type=int, default=1, help="seed of the positions (default 1)")
    ap.add_argument("--budget", type=float, default=1.0, help="seconds an answer may take (default 1.0)")
    ap.add_argument("--json", action="store_true", help="print only the JSON verdict")
    a = ap.parse_args(argv)
    try:
        boards = tuple(int(b) for b in a.boards.split(","))
        if any(b not in (2, 3, 4) for b in boards):
            raise ValueError
    except ValueError:
        ap.error(f"--boards: expected player counts 2, 3 or 4 separated by commas, got {a.boards!r}")
    rows = []
    for label, game in positions(boards, a.mid, a.mid_turns, a.seed):
        rows.append(measure(label, game))
        if not a.json:
            r = rows[-1]
            print(f"  {label:22s} hint {r['hint_s']:5.2f} s ({r['hint_pushes']:5.0f} pushes)   "
                  f"danger {r['danger_s']:5.2f} s ({r['danger_pushes']:5.0f} pushes)", flush=True)
    answers = [r["hint_s"] for r in rows] + [r["danger_s"] for r in rows]
    in_pushes = [r["hint_pushes"] for r in rows] + [r["danger_pushes"] for r in rows]
    verdict = {"ok": max(answers) <= a.budget, "level": COACH_LEVEL, "budget_s": a.budget,
               "slowest_s": max(answers), "median_s": round(statistics.median(answers), 3),
               "slowest_pushes": max(in_pushes), "median_pushes": statistics.median(in_pushes),
               "positions": rows}
    if not a.json:
        print(f"coach at {COACH_LEVEL}: median answer {verdict['median_s']:.2f} s, slowest "
              f"{verdict['slowest_s']:.2f} s (budget {a.budget:.1f} s): "
              f"{'met' if verdict['ok'] else 'MISSED'}")
    print(json.dumps(verdict))
    return 0 if verdict["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
