"""Why the games of a balance run ended, read back from their saved replays (issue 16, point 2).

``kabuto balance --games-dir DIR`` keeps every game as a replay. This tool plays each replay again
with the rules engine (the materials each push was made with come from the file, so a run made
with other assets reads back as it was played) and says, per folder:

* the report's figures (``kabuto.lab.balance.figures``): push knock-out share with its 95%
  interval, every end reason, the first player's rate, the median length, each wrestler's rate and
  the moves that win 70% or more of the games they are used in;
* where the wrestlers stood: their distance from the centre at every turn end (median, and the
  share within 40 mm, where a push from the edge cannot reach, and beyond 80 mm);
* the games stopped at the turn cap: the wrestlers' distances at the cap and the pieces each side
  still held;
* how each wrestler's wins came (by end reason);
* what each signature move gained its side: pieces in hand after the move minus before it
  (Vice Grip's harvest: it adds the standard discs it knocks out);
* the first player against the second (two players): their wins by ending and their knock-outs
  within 10 turns, and the opening as a tug of war - after each of the first 12 turns, how far out
  each one's wrestler stood (median, and the share beyond 60 mm).

A replay holds its materials but not the wrestler cards: read a run made with other cards (a
reading of Vice Grip, say) with the same ``KABUTO_ASSETS`` it was played with.

    python3 tools/game_endings.py /tmp/bal9/base-games                 # one run, as text
    python3 tools/game_endings.py base=/tmp/b speed06=/tmp/s --json   # several, named, as JSON

Untrusted folders are read with the replay format's own checks (``kabuto.replay.format``): a file
it refuses stops the tool with one line naming it.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kabuto.ai.scoring import inventories
from kabuto.cli import UsageError
from kabuto.lab import LabError
from kabuto.lab import balance as bal
from kabuto.lab import tournament as tm
from kabuto.lab.match import GameRecord
from kabuto.lab.stats import wilson
from kabuto.replay import format as rp

#: A wrestler this close to the centre (mm, centre to centre) is out of a push's reach: a piece
#: let go at the edge at the hand's limit glides about 42 mm (docs/rules-notes.md).
MIDDLE_MM = 40.0
#: ... and one this far out stands by the edge.
EDGE_MM = 80.0
#: The opening's tug of war is read over this many turns, and a wrestler farther out than
#: :data:`EXPOSED_MM` counts as exposed (the 2P board starts both at 68 mm).
TUG_TURNS = 12
EXPOSED_MM = 60.0


@dataclass(frozen=True)
class TurnEnd:
    """The ring at the end of one turn: each seat's wrestler's distance from the centre (mm; None
    once it is out) and each side's pieces in hand."""

    turn: int
    distances_mm: tuple[float | None, ...]
    pieces: tuple[int, ...]


@dataclass
class GameReading:
    """One game read back: its record, every turn end, and each move's gain for its side."""

    record: GameRecord
    turn_ends: list[TurnEnd] = field(default_factory=list)
    move_gains: list[tuple[str, int]] = field(default_factory=list)


def load_records(folder: Path) -> list[GameRecord]:
    """Every finished game in ``folder`` (a ``kabuto balance --games-dir``), in schedule order."""
    try:
        found = tm.load_games(folder)
    except LabError as exc:
        raise UsageError(str(exc)) from None
    if not found:
        raise UsageError(f"{folder}: no finished games (a folder `kabuto balance --games-dir` wrote)")
    return sorted(found, key=lambda r: r.spec.index)


def _snapshot(game: Any) -> TurnEnd:
    where = {p.id: p for p in game.world.pieces}
    dist = []
    for s in game.seats:
        p = where.get(s.piece_id)
        dist.append(None if p is None else math.hypot(p.x, p.y) * 1000.0)
    inv = inventories(game)
    return TurnEnd(game.turn.number, tuple(dist), tuple(sum(inv[k].values()) for k in sorted(inv)))


def read_game(record: GameRecord) -> GameReading:
    """Play ``record``'s replay again and note every turn end and every move's gain."""
    replay = rp.from_data(record.replay)
    stepper = rp.ReplayStepper(replay)
    out = GameReading(record)
    for a in replay.timeline:
        game = stepper.game
        if a["type"] == "end_turn":
            out.turn_ends.append(_snapshot(game))
        side = game.side_of(a["seat"]) if a["type"] == "move" else None
        before = sum(inventories(game)[side].values()) if side is not None else 0
        stepper.step()
        if side is not None:
            out.move_gains.append((a["name"], sum(inventories(stepper.game)[side].values()) - before))
    if not replay.timeline or replay.timeline[-1]["type"] != "end_turn":
        out.turn_ends.append(_snapshot(stepper.game))  # the game ended mid-turn (a knock-out)
    return out


def _share(part: int, whole: int) -> dict[str, Any]:
    lo, hi = wilson(part, whole)
    return {"count": part, "of": whole, "share": part / whole if whole else None, "low": lo, "high": hi}


def opening(readings: list[GameReading]) -> dict[int, dict[str, Any]]:
    """The two-player opening as a tug of war: after each of the first :data:`TUG_TURNS` turns,
    where the first player's wrestler and the second's stood (median mm from the centre, and the
    share farther out than :data:`EXPOSED_MM`), over the games still going then."""
    at: dict[int, dict[str, list[float]]] = {}
    for r in readings:
        spec = r.record.spec
        if len(spec.wrestlers) != 2 or spec.junior:
            continue
        for t in r.turn_ends:
            d = t.distances_mm
            if t.turn > TUG_TURNS or None in d:
                continue
            row = at.setdefault(t.turn, {"first": [], "second": []})
            row["first"].append(d[spec.first_player])  # type: ignore[arg-type]
            row["second"].append(d[1 - spec.first_player])  # type: ignore[arg-type]
    return {turn: {"games": len(row["first"]),
                   **{m: {"median_mm": statistics.median(v), "exposed": sum(x > EXPOSED_MM for x in v) / len(v)}
                      for m, v in row.items()}}
            for turn, row in sorted(at.items())}


def summary(readings: list[GameReading]) -> dict[str, Any]:
    """The figures of one run (see the module's docstring), as JSON-ready data."""
    records = [r.record for r in readings]
    fig = bal.figures(records)
    n = fig["games"]
    ends = fig["end_reasons"]
    dists = [d for r in readings for t in r.turn_ends for d in t.distances_mm if d is not None]
    capped = [r for r in readings if bal.ending(r.record) == "turn_limit"]
    cap_dists = [d for r in capped for d in r.turn_ends[-1].distances_mm if d is not None]
    cap_pieces = [p for r in capped for p in r.turn_ends[-1].pieces]
    gains: dict[str, list[int]] = {}
    for r in readings:
        for name, gain in r.move_gains:
            gains.setdefault(name, []).append(gain)
    won_first = [r.record.turns for r in readings if r.record.winners and r.record.turns <= 2]
    wins: dict[str, dict[str, int]] = {}
    for rec in records:
        if rec.winners:
            by = wins.setdefault(rec.spec.wrestlers[rec.winners[0]], {})
            by[bal.ending(rec)] = by.get(bal.ending(rec), 0) + 1
    return {
        "games": n,
        "push_knockout": _share(ends.get("push_knockout", 0), n),
        "end_reasons": {k: _share(v, n) for k, v in ends.items()},
        "first_player_win_rate": fig["first_player_win_rate"],
        "median_turns": fig["median_turns"],
        "wrestler_win_rate": fig["wrestler_win_rate"],
        "strong_moves": {m: {"win_rate": d["win_rate_when_used"], "games_used": d["games_used"]}
                         for m, d in fig["moves"].items()
                         if d["games_used"] and d["win_rate_when_used"] >= 0.70},
        "turn_end_distance_mm": {
            "turn_ends": len(dists),
            "median": statistics.median(dists) if dists else None,
            "within_middle": _share(sum(d < MIDDLE_MM for d in dists), len(dists)),
            "beyond_edge": _share(sum(d > EDGE_MM for d in dists), len(dists)),
        },
        "at_cap": {
            "games": len(capped),
            "distance_mm": [min(cap_dists), max(cap_dists)] if cap_dists else None,
            "median_distance_mm": statistics.median(cap_dists) if cap_dists else None,
            "pieces_in_hand": [min(cap_pieces), max(cap_pieces)] if cap_pieces else None,
        },
        "move_gain": {m: {"uses": len(g), "mean_pieces": statistics.fmean(g)}
                      for m, g in sorted(gains.items())},
        "games_won_by_turn_2": len(won_first),
        "wins_by_ending": {w: dict(sorted(d.items())) for w, d in sorted(wins.items())},
        "by_mover": fig["by_mover"],
        "opening": opening(readings),
    }


def _pct(d: dict[str, Any]) -> str:
    return f"{d['count']} ({d['share']:.0%}, {d['low']:.0%}-{d['high']:.0%})" if d["of"] else "-"


def text(name: str, s: dict[str, Any]) -> str:
    """``summary`` ``s`` as lines for people."""
    first = s["first_player_win_rate"]
    dist = s["turn_end_distance_mm"]
    cap = s["at_cap"]
    lines = [f"{name}: {s['games']} games",
             f"  push knock-outs {_pct(s['push_knockout'])}",
             "  ends: " + ", ".join(f"{k} {_pct(v)}" for k, v in s["end_reasons"].items()),
             f"  first player {first['win_rate']:.1%} ({first['low']:.0%}-{first['high']:.0%}), "
             f"median {s['median_turns']:g} turns, won by turn 2: {s['games_won_by_turn_2']}",
             "  wrestlers: " + ", ".join(f"{w} {r['win_rate']:.0%} ({r['low']:.0%}-{r['high']:.0%})"
                                         for w, r in s["wrestler_win_rate"].items()),
             "  moves winning 70%+ when used: " + (", ".join(
                 f"{m} {d['win_rate']:.0%} of {d['games_used']}" for m, d in s["strong_moves"].items())
                 or "none"),
             f"  turn ends: {dist['turn_ends']} wrestler positions, median {dist['median'] or 0:.0f} mm "
             f"from the centre, within {MIDDLE_MM:g} mm {_pct(dist['within_middle'])}, beyond "
             f"{EDGE_MM:g} mm {_pct(dist['beyond_edge'])}"]
    if cap["games"]:
        lo, hi = cap["distance_mm"]
        plo, phi = cap["pieces_in_hand"]
        lines.append(f"  at the cap ({cap['games']} games): wrestlers {lo:.0f}-{hi:.0f} mm from the "
                     f"centre (median {cap['median_distance_mm']:.0f}), {plo}-{phi} pieces in hand")
    lines.append("  how each won: " + "; ".join(
        f"{w} " + ", ".join(f"{k} {n}" for k, n in d.items()) for w, d in s["wins_by_ending"].items()))
    lines.append("  pieces a move gained: " + ", ".join(
        f"{m} {d['mean_pieces']:+.2f} ({d['uses']} uses)" for m, d in s["move_gain"].items()))
    mover = s["by_mover"]
    if any(mover["wins"].values()):
        lines.append("  wins, first player / second: " + "; ".join(
            f"{k} {mover['wins']['first'].get(k, 0)}/{mover['wins']['second'].get(k, 0)}" for k in bal.ENDINGS
            if mover["wins"]["first"].get(k) or mover["wins"]["second"].get(k))
            + f"; knock-outs within {mover['opening_turns']} turns "
              f"{mover['opening_knockouts']['first']}/{mover['opening_knockouts']['second']}")
    if s["opening"]:
        lines.append(f"  the opening (2P), after each turn: the first player's wrestler / the second's, median "
                     f"mm from the centre [share beyond {EXPOSED_MM:g} mm]")
        for turn, row in s["opening"].items():
            f, g = row["first"], row["second"]
            lines.append(f"    turn {turn:2d} ({row['games']} games): {f['median_mm']:.0f} [{f['exposed']:.0%}]"
                         f" / {g['median_mm']:.0f} [{g['exposed']:.0%}]")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folders", nargs="+", help="games folders, each optionally NAME=FOLDER")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    args = p.parse_args(argv)
    out = {}
    for arg in args.folders:
        name, _, folder = arg.rpartition("=")
        path = Path(folder)
        try:
            if not path.is_dir():
                raise UsageError(f"{path}: not a folder")
            records = load_records(path)
            readings = [read_game(r) for r in records]
        except (UsageError, rp.BadReplayFile) as exc:
            print(f"game_endings: {exc}", file=sys.stderr)
            return 2
        out[name or folder] = summary(readings)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print("\n\n".join(text(k, v) for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
