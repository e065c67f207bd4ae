"""``kabuto sim``: play a Kabuto Sumo game headless from a file of pushes (and moves).

The file is JSON: a list of steps (or ``{"pushes": [...]}``). A step is one of

* a push: ``{"piece": "small", "entry_deg": 180, "heading_deg": 0, "speed": 0.4, "spin_deg": 0}``
  (``piece`` is a kind or a piece id; ``heading_deg``, ``speed`` and ``spin_deg`` default to 0, 0.3
  and 0). The push ends the turn unless it has ``"end_turn": false``;
* a signature move by the player to move: ``{"move": "Vice Grip", "targets": {"opponent": 2}}``;
* ``{"end_turn": true}`` - ends a turn left open by ``"end_turn": false``.

Each turn's outcome is printed (``--json``: one JSON document). A step the rules refuse prints the
turn and the reason and exits with status 2.

Every game is recorded as a replay (there is no switch to turn that off): saved after each turn
into the data folder's ``replays/`` (``--data-dir``, else ``$KABUTO_DATA_DIR``, else
``$XDG_DATA_HOME/kabuto``, else ``~/.local/share/kabuto``); the file is named at the end.
``--resume FILE`` goes on with a recorded game exactly as if it had never stopped, recording the
whole game again into a new file (the file resumed is never changed).
"""
from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kabuto.cli import UsageError, command, subparser
from kabuto_base.fileio import write_atomic

EPILOG = """\
the pushes file is a JSON list of steps:
  a push   {"piece": KIND or ID, "entry_deg": A, "heading_deg": H, "speed": V, "spin_deg": S}
           (ends the turn unless "end_turn": false)
  a move   {"move": NAME, "targets": {...}}   by the player to move, before or after the push
  end      {"end_turn": true}                 ends a turn left open
example pushes file (play it with: kabuto sim --wrestlers mike,hank --first-player 0 --pushes FILE):
  [{"piece": "small", "entry_deg": 180, "speed": 0.4},
   {"move": "Horn Toss"},
   {"piece": "medium", "entry_deg": 90, "heading_deg": 10, "speed": 0.4}]
every game is recorded (saved after each turn) into DATA/replays/, DATA being --data-dir, else
$KABUTO_DATA_DIR, else $XDG_DATA_HOME/kabuto, else ~/.local/share/kabuto; the file is named at the
end. 'kabuto replay FILE --verify' checks it; --resume FILE goes on with it (into a new file).
"""


def _load_steps(path: str) -> list[dict[str, Any]]:
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not valid JSON ({exc})") from None
    if isinstance(data, dict) and "pushes" in data:
        data = data["pushes"]
    if not isinstance(data, list):
        raise UsageError(f"{path}: expected a list of pushes")
    for i, step in enumerate(data):
        if not isinstance(step, dict):
            raise UsageError(f"{path}: step {i + 1}: expected an object, got {step!r}")
        if "move" not in step and "piece" not in step and "end_turn" not in step:
            raise UsageError(f"{path}: step {i + 1}: expected a push (piece, entry_deg, ...), a move "
                       f"(move, targets) or end_turn")
    return data


def _knockouts_text(game, kos) -> str:
    if not kos:
        return "nothing fell"
    parts = [f"{k.piece} ({game.kind_name(k.kind)}) -> {game.describe_place(k.to)}" for k in kos]
    return "knocked out " + "; ".join(parts)


def push_line(game, o) -> str:
    p = o.push
    return (f"pushed {p.piece} ({game.kind_name(p.kind)}) at {p.entry_deg:g} deg, heading "
            f"{p.heading_deg:g} deg, {p.speed:g} m/s: {_knockouts_text(game, o.knocked_out)}"
            + (" [the hand stalled]" if o.physics.stalled else ""))


def move_line(game, o) -> str:
    parts = [f"used {o.name}"]
    if o.targets:
        parts.append("(" + ", ".join(f"{k}={v}" for k, v in o.targets.items()) + ")")
    text = " ".join(parts)
    bits = []
    if o.paid:
        bits.append("paid " + ", ".join(f"{pid} -> {game.describe_place(to)}" for pid, to in o.paid.items()))
    if o.gained:
        bits.append("gained " + ", ".join(o.gained))
    if o.placed:
        bits.append("placed " + ", ".join(o.placed))
    if o.moved:
        bits.append("moved " + ", ".join(o.moved))
    if o.knocked_out:
        bits.append(_knockouts_text(game, o.knocked_out))
    return text + (": " + "; ".join(bits) if bits else "")


@command("sim")
def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    ap = subparser("sim", "Play a Kabuto Sumo game headless from a JSON file of pushes (and\n"
                   "signature moves); print each turn's outcome and the result.")
    ap.formatter_class = argparse.RawDescriptionHelpFormatter
    ap.epilog = EPILOG
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="2, 3 or 4 (default 2)")
    ap.add_argument("--seed", type=int, default=0,
                    help="picks the wrestlers and the first player when not given (default 0)")
    ap.add_argument("--pushes", required=True, metavar="FILE.json", help="the pushes to play")
    ap.add_argument("--wrestlers", metavar="A,B,...", help="one wrestler per seat, by key or name")
    ap.add_argument("--first-player", type=int, metavar="SEAT", help="the seat that starts")
    ap.add_argument("--junior", action="store_true", help="play the Junior League variant")
    ap.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    ap.add_argument("--save", metavar="GAME.json", help="write the final game state here")
    ap.add_argument("--resume", metavar="FILE.replay.json",
                    help="go on with a recorded game from its last turn (the replay's setup is used)")
    ap.add_argument("--data-dir", metavar="DIR",
                    help="the data folder the game is recorded in (default: $KABUTO_DATA_DIR, "
                         "$XDG_DATA_HOME/kabuto or ~/.local/share/kabuto)")
    return _run(ap.parse_args(list(argv or [])))


def _run(args) -> int:
    from kabuto.rules.errors import IllegalMove
    from kabuto.rules.game import Game
    from kabuto.rules.outcomes import MoveOutcome, PushOutcome

    steps = _load_steps(args.pushes)
    wrestlers = [w.strip() for w in args.wrestlers.split(",")] if args.wrestlers else None
    from kabuto.replay.format import load_for_resume, resume_notice
    from kabuto.replay.recorder import RecordingError, record

    try:
        if args.resume:
            given = [f for f, v in (("--wrestlers", args.wrestlers), ("--junior", args.junior),
                                    ("--first-player", args.first_player is not None)) if v]
            if given:
                raise ValueError(f"{given[0]}: not with --resume (the replay holds the setup)")
            game = load_for_resume(args.resume)
        else:
            game = Game.new(players=args.players, wrestlers=wrestlers, junior=args.junior,
                            seed=args.seed, first_player=args.first_player)
        recorder = record(game, args.data_dir)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    records: list[dict[str, Any]] = []
    out: list[Any] | None = [] if args.json else None
    if out is None:
        names = ", ".join(s.label for s in game.seats)
        print(f"Kabuto Sumo, {game.players} players{' (Junior League)' if game.junior else ''}: {names}")
        print(f"resumed {args.resume} at turn {game.turn.number}: seat {game.current_seat} to play"
              if args.resume else f"seat {game.current_seat} starts")
    notice = resume_notice(game) if args.resume else None
    if notice:  # recorded on another Python, processor or build: one line, on stderr with --json
        print(notice, file=sys.stderr if out is not None else sys.stdout)
    o: MoveOutcome | PushOutcome
    for i, step in enumerate(steps):
        turn, seat = game.turn.number, game.current_seat
        label = game.seats[seat].label
        try:
            if "move" in step:
                targets = step.get("targets", {})
                if not isinstance(targets, dict):
                    raise IllegalMove("targets: expected an object")
                o = game.use_move(seat, step["move"], **targets)
                rec = {"turn": turn, "step": i + 1, "type": "move", **o.to_json()}
                line = move_line(game, o)
            elif "piece" in step:
                unknown = set(step) - {"piece", "entry_deg", "heading_deg", "speed", "spin_deg", "end_turn"}
                if unknown:
                    raise IllegalMove(f"unknown push field {sorted(unknown)[0]!r}")
                if "entry_deg" not in step:
                    raise IllegalMove("entry_deg: missing (where the platform touches the ring)")
                o = game.push(step["piece"], step["entry_deg"], step.get("heading_deg", 0.0),
                              step.get("speed", 0.3), step.get("spin_deg", 0.0),
                              end_turn=bool(step.get("end_turn", True)))
                rec = {"turn": turn, "step": i + 1, "type": "push", **o.to_json()}
                line = push_line(game, o)
            else:
                if step.get("end_turn") is not True:
                    raise IllegalMove("expected \"end_turn\": true")
                game.end_turn()
                rec = {"turn": turn, "step": i + 1, "type": "end_turn", "seat": seat}
                line = "ended the turn"
        except IllegalMove as exc:
            _close_recorder(recorder, game)
            raise UsageError(f"turn {turn} ({label}), step {i + 1} of {args.pushes}: {exc}") from None
        try:
            recorder.update(game)  # saves when a turn has ended
        except RecordingError as exc:
            raise UsageError(str(exc)) from None
        records.append(rec)
        if out is None:
            print(f"turn {turn:3d}  {label}: {line}")
            for s in rec.get("eliminated", []):
                print(f"          {game.seats[s].label} is out ({game.out[s]})")
    replay_path = _close_recorder(recorder, game)
    if args.save:
        try:
            write_atomic(args.save, json.dumps(game.to_json()))
        except OSError as exc:
            raise UsageError(f"{args.save}: cannot write ({exc.strerror})") from None
    if args.json:
        print(json.dumps({"setup": {k: v for k, v in game.setup.to_json().items() if k != "materials"},
                          "steps": records,
                          "result": game.result.to_json() if game.result else None,
                          "current_seat": None if game.is_over else game.current_seat,
                          "locations": game.locations(),
                          "replay": str(replay_path) if replay_path else None}, indent=1))
    else:
        print(game.status())
        if replay_path:
            print(f"recorded: {replay_path}")
    return 0


def _close_recorder(recorder, game):
    """Save the replay (a turn left open included); the file, or None if nothing was played."""
    from kabuto.replay.recorder import RecordingError

    try:
        return recorder.close(game)
    except RecordingError as exc:
        raise UsageError(str(exc)) from None
