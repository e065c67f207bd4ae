"""``kabuto replay``: check a replay headless, open it in the app's viewer, or list the recorded ones.

    kabuto replay FILE --verify      re-simulate every push; exit 0 only if all reach the recorded
                                     state, 1 at the first that does not (which pieces differ, by
                                     how much), 2 if the file is unusable
    kabuto replay FILE               open the replay viewer of the desktop app
    kabuto replay --list             the games recorded in the data folder, newest first
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from kabuto.cli import UsageError, command, subparser
from kabuto_ui.text import shown

EXIT_OK = 0
EXIT_DIVERGED = 1
EXIT_BAD = 2

EPILOG = """\
exit status:
  0  every push (move, edit) reaches the state recorded in the file
  1  a push re-simulates to another state: the first one is named, with the pieces that differ
  2  the file cannot be used (damaged, wrong version, impossible pushes, ...), or a usage error

Every game played with 'kabuto play' or 'kabuto sim' is recorded in the data folder
(--data-dir, else $KABUTO_DATA_DIR, else $XDG_DATA_HOME/kabuto, else ~/.local/share/kabuto).
The format is described in docs/replay-format.md.
"""


def build_parser() -> argparse.ArgumentParser:
    p = subparser("replay", "Verify a Kabuto Sumo replay headless (--verify), open it in the app's "
                  "replay viewer, or list the games recorded in the data folder (--list).")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = EPILOG
    p.add_argument("file", nargs="?", type=Path, metavar="FILE", help="a replay file (*.replay.json)")
    p.add_argument("--verify", action="store_true",
                   help="re-simulate headless and print, per push, whether the state hash matches")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="with --verify: print only the summary (or the divergence)")
    p.add_argument("--list", action="store_true", help="list the recorded replays, newest first")
    p.add_argument("--data-dir", metavar="DIR",
                   help="the data folder for --list (default: $KABUTO_DATA_DIR, $XDG_DATA_HOME/kabuto "
                        "or ~/.local/share/kabuto)")
    return p


@command("replay")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[2:] if argv is None else argv))
    if args.list:
        if args.file is not None or args.verify:
            raise UsageError("--list takes no FILE and no --verify")
        return _list(args.data_dir)
    if args.file is None:
        raise UsageError("give a replay FILE (or --list)")
    from kabuto.replay.format import load
    from kabuto.rules.errors import ReplayError

    try:
        replay = load(args.file)
        if args.verify:
            return _verify(replay, args.quiet)
        return _view(args.file)
    except ReplayError as exc:  # BadReplayFile included: one line, nothing written
        print(f"kabuto replay: {shown(exc)}", file=sys.stderr)
        return EXIT_BAD


def _action_text(report) -> str:
    from kabuto.replay.format import action_of
    from kabuto.rules.actions import Edit, Move, Push

    a = report.action
    who = f"turn {a['turn']:>3}  " if "turn" in a else "          "
    who += f"seat {a['seat']}  " if "seat" in a else "        "
    if a["type"] == "undo":  # the replay's own entry, not a game action
        return f"undo      back {a['undone']} action{'s' * (a['undone'] != 1)}"
    act = action_of(a)
    if isinstance(act, Push):
        what = (f"push {report.push:>3}  {who}{act.piece} ({act.kind}) at {act.entry_deg:.1f} deg, "
                f"heading {act.heading_deg:+.1f}, {act.speed:.2f} m/s")
    elif isinstance(act, Move):
        tg = ", ".join(f"{k}={v}" for k, v in act.targets.items())
        what = f"move      {who}{act.name}" + (f" ({tg})" if tg else "")
    elif isinstance(act, Edit):
        what = f"edit      {who}{act.piece} -> {act.place}"
    else:
        what = f"end turn  {who}"
    return shown(what)  # piece ids, move names and targets come from the file


def _verify(replay, quiet: bool) -> int:
    from kabuto.replay.drift import drift_text
    from kabuto.replay.format import verify
    from physics.versions import describe, engine

    recorded, running = replay.meta.get("engine"), engine()
    if recorded and recorded != running:
        # Not a failure by itself: Chipmunk is only bit-exact on the same build and platform.
        print(f"kabuto replay: warning: recorded with {shown(describe(recorded))}, verifying with "
              f"{describe(running)}; small differences are possible", file=sys.stderr)
    if not quiet:
        print(shown(f"{replay.name}: {replay.describe()}"))

    def show(report) -> None:
        if quiet or report.action["type"] == "end_turn":
            return
        if report.got is None:
            print(f"  {_action_text(report)}")
            return
        state = "ok       " if report.ok else "rounding " if report.rounding else "DIFFERS  "
        print(f"  {_action_text(report):<78} {state}{report.got[:12]}"
              + ("" if report.ok else f" (recorded {report.want[:12]})"))

    result = verify(replay, show)
    d = result.divergence
    if d is not None:
        print(shown(f"kabuto replay: {replay.name}: first divergence at {d.label} ({d.where()}): "
                    f"{d.difference_text()}"), file=sys.stderr)
        return EXIT_DIVERGED
    pushes = sum(1 for s in result.steps if s.action["type"] == "push")
    others = result.checked - pushes
    game = result.game
    end = f"Result: {shown(game.result.text)}" if game.result else f"The game goes on (turn {game.turn.number})"
    every = (f"all {pushes} push{'es' * (pushes != 1)}"
             + (f" and {others} other action{'s' * (others != 1)}" if others else ""))
    rounded = result.rounded
    if rounded:
        # The second verdict: the same game, a rounding error away (another Python, processor or
        # build); every action was re-simulated from its recorded starting state.
        n = len(rounded)
        print(f"identical within rounding: {every} reach the recorded states, {n} of them only "
              f"within rounding ({drift_text(*result.drift)} off, as on another Python, "
              f"processor or build). {end}.")
    else:
        print(f"bit-identical: {every} reach the recorded states. {end}.")
    return EXIT_OK


def _view(path: Path) -> int:
    """Open the (already validated) file in the app's replay viewer."""
    from kabuto.cli import play

    return play.open_app(["--replay", str(path)], shown_as=f"kabuto replay {path}")


def _list(data_dir: str | None) -> int:
    from kabuto.replay.format import SUFFIX, load
    from kabuto.replay.userdata import replays_dir
    from kabuto.rules.errors import ReplayError

    folder = replays_dir(data_dir)
    files = sorted((p for p in folder.glob(f"*{SUFFIX}") if not p.name.startswith(".")),
                   key=lambda p: p.stat().st_mtime, reverse=True) if folder.is_dir() else []
    if not files:
        print(f"no replays in {shown(folder)}")
        return EXIT_OK
    print(f"replays in {shown(folder)}:")
    for p in files:
        # File names and everything read from the files are shown escaped (control characters,
        # lone surrogates): a hostile file can neither crash the list nor drive the terminal.
        try:
            r = load(p)
            res = r.meta.get("result")
            print(f"  {shown(p.name)}\n      {shown(r.describe())}" + (f"; {shown(res)}" if res else ""))
        except ReplayError as exc:
            print(f"  {shown(p.name)}\n      unusable: {shown(str(exc).removeprefix(str(p) + ': '))}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
