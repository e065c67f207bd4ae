"""The committed corpus of replays recorded on other CPython versions, and its check (issue 47).

Replays and saved games must travel between Python versions: the physics gives the same numbers,
to the bit, on CPython 3.11, 3.12 and 3.13 (from physics model 6 on). This tool records a few AI games
under each of two CPython versions into ``tests/replay/corpus/``, and checks, under whatever
Python runs it, that every replay there verifies and that a saved game (a replay stopped
mid-game) resumes, plays on and verifies again.

    python tools/replay_corpus.py regenerate     # the ONE command that remakes the corpus
    python tools/replay_corpus.py check          # CI, under each CPython (see .ci/run)
    python tools/replay_corpus.py record DIR     # the corpus games, recorded under this Python

``regenerate`` records under this Python and under CPython 3.13 (``tools/other_pythons.sh`` finds
it and sets up its virtualenv), so each version CI checks has files from another one. Run it
again whenever the physics model or the starting boards change: the old files are then refused
(as every reader refuses a replay of another model) and ``check`` fails until they are remade.

``check`` prints one line per file and exits 1 if any replay diverges or cannot be used, or the
saved game does not resume; 0 otherwise (bit-identical or identical within rounding).
"""
from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "replay" / "corpus"
#: The interpreter regenerate records under besides this one (another minor version).
OTHER = "3.13"

#: name -> (wrestlers, one a seat; seed; turns at most): pieces of three outline parts (Mike's,
#: Annie's) were what the built-in sum() moved between CPython 3.11 and 3.12. "saved-" games stop
#: mid-game (to resume); 4 wrestlers play 2 v 2.
GAMES = {
    "mike-annie": (("mike", "annie"), 1, 12),
    "annie-hank": (("annie", "hank"), 2, 12),
    "3p-gus-mike-annie": (("gus", "mike", "annie"), 4, 6),
    "saved-mike-gus": (("mike", "gus"), 3, 4),
    "saved-4p-hank-annie-mike-gus": (("hank", "annie", "mike", "gus"), 4, 5),
}
LEVEL = "easy"


def python_tag() -> str:
    return f"py{sys.version_info[0]}.{sys.version_info[1]}"


def play(wrestlers: tuple[str, ...], seed: int, turns: int) -> dict:
    """One AI game (at most ``turns`` turns) as replay data with deterministic metadata."""
    from kabuto.ai import choose, play_turn
    from kabuto.replay import format as rp
    from kabuto.replay.recorder import Recorder
    from kabuto.rules.game import Game

    game = Game.new(players=len(wrestlers), wrestlers=list(wrestlers), seed=seed, first_player=0)
    seats = ("ai",) * len(wrestlers)
    rec = Recorder(Path("."), game.setup, seats=seats, pieces=rp.pieces_of(game.world))
    while not game.is_over and game.turn.number <= turns:
        plan = choose(game, LEVEL, seed=seed * 10 + game.current_seat, workers=1)
        play_turn(game, plan, on_action=rec.sync)
    data = rec.to_json(game)
    meta = data["meta"]
    data["meta"] = {k: meta[k] for k in ("kabuto", "physics_model", "start_hash", "engine") if k in meta}
    data["meta"].update(game_id=f"{seed:08x}", seats=list(seats),
                        result=game.result.text if game.result else None,
                        note=f"replay corpus, recorded with CPython {platform.python_version()}")
    return data


def record(folder: Path) -> list[Path]:
    """Record every corpus game under this Python into ``folder``."""
    from kabuto.replay import format as rp
    from kabuto_base.fileio import write_atomic

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, (wrestlers, seed, turns) in GAMES.items():
        path = folder / f"{name}.{python_tag()}.replay.json"
        text = rp.dumps(rp.from_data(play(wrestlers, seed, turns)))
        write_atomic(path, text)
        out.append(path)
        print(f"recorded {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return out


def other_python(version: str) -> str:
    """The virtualenv python of CPython ``version`` with this checkout (tools/other_pythons.sh)."""
    done = subprocess.run(["bash", str(ROOT / "tools" / "other_pythons.sh"), "--require", version],
                          capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        sys.exit(f"replay_corpus: {done.stderr.strip() or f'no CPython {version}'}")
    return done.stdout.split()[-1]


def regenerate() -> int:
    """Remake the corpus: this Python's files and CPython ``OTHER``'s (or 3.12 when this is it)."""
    other = OTHER if python_tag() != f"py{OTHER}" else "3.12"
    for old in CORPUS.glob("*.replay.json"):
        old.unlink()
    record(CORPUS)
    subprocess.run([other_python(other), str(Path(__file__).resolve()), "record", str(CORPUS)], check=True)
    return 0


def check(folder: Path) -> int:
    """Verify every replay in ``folder`` and resume each saved game; 1 if any fails."""
    from kabuto.replay import format as rp
    from kabuto.rules.errors import ReplayError

    files = sorted(folder.glob("*.replay.json"))
    if not files:
        print(f"replay_corpus: no replays in {folder}")
        return 1
    here = f"CPython {platform.python_version()}"
    failed = 0
    for path in files:
        label = f"{here}: {path.name}"
        try:
            replay = rp.load(path)
            result = rp.verify(replay)
        except ReplayError as exc:
            print(f"{label}: cannot be used: {exc}")
            failed += 1
            continue
        pushes = sum(1 for s in result.steps if s.action["type"] == "push")
        if result.divergence is not None:
            d = result.divergence
            print(f"{label}: DIVERGED at {d.label} ({d.where()}): {d.difference_text(3)}")
            failed += 1
        elif result.bit_identical:
            print(f"{label}: bit-identical ({pushes} pushes)")
        else:
            print(f"{label}: identical within rounding ({pushes} pushes, {len(result.rounded)} within "
                  f"rounding)")
        if path.name.startswith("saved-"):
            failed += resume(path, label)
    return 1 if failed else 0


def resume(path: Path, label: str) -> int:
    """Resume a saved game, play one more AI turn, and verify the continued replay; 1 on failure."""
    from kabuto.ai import choose, play_turn
    from kabuto.replay import format as rp
    from kabuto.replay.recorder import record
    from kabuto.rules.errors import ReplayError

    try:
        game = rp.load_for_resume(path)
        turn = game.turn.number
        with tempfile.TemporaryDirectory() as tmp:
            rec = record(game, tmp)
            play_turn(game, choose(game, LEVEL, seed=turn, workers=1), on_action=rec.update)
            saved = rec.close(game)
            assert saved is not None
            again = rp.verify(rp.load(saved))
    except (ReplayError, OSError) as exc:
        print(f"{label}: the saved game does not resume: {exc}")
        return 1
    if not again.ok:
        print(f"{label}: resumed at turn {turn}, but the continued replay diverges")
        return 1
    notice = rp.resume_notice(game)
    print(f"{label}: resumed at turn {turn}, played a turn, the continued replay verifies"
          + (f" ({notice})" if notice else ""))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("regenerate", help="remake tests/replay/corpus under this Python and CPython 3.13")
    c = sub.add_parser("check", help="verify every replay of the corpus and resume its saved games")
    c.add_argument("folder", nargs="?", type=Path, default=CORPUS)
    r = sub.add_parser("record", help="record the corpus games under this Python")
    r.add_argument("folder", type=Path)
    args = ap.parse_args(argv)
    if args.command == "regenerate":
        return regenerate()
    if args.command == "record":
        record(args.folder)
        return 0
    return check(args.folder)


if __name__ == "__main__":
    sys.exit(main())
