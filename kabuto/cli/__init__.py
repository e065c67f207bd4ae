"""The ``kabuto`` command. Each sub-command lives in the module that owns it; this file only routes."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

USAGE = """\
kabuto <command> [options]

commands:
  play         open the desktop app (Kabuto Sumo and the card table)
  demo         a headless demo push on the 2-player starting board; prints what fell
  sim          play a Kabuto Sumo game headless from a list of pushes
  replay       verify or view a saved replay
  wrestlers    list the wrestler cards
  tournament   AI-vs-AI tournaments with win-rate matrices
  tune         sweep and calibrate disc friction and mass
  cards        the card games headless: selfplay statistics, or play in the terminal

'kabuto <command> --help' explains each command.
"""

# command -> (module, function). Imported lazily so `kabuto cards ...` never loads pymunk or pyglet.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("kabuto.cli.play", "main"),
    "demo": ("kabuto.cli.demo", "main"),
    "sim": ("kabuto.cli.sim", "main"),
    "replay": ("kabuto.cli.replay", "main"),
    "wrestlers": ("kabuto.cli.wrestlers", "main"),
    "tournament": ("kabuto.cli.tournament", "main"),
    "tune": ("kabuto.cli.tune", "main"),
    "cards": ("cards.cli", "main"),
}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    command, rest = args[0], args[1:]
    if command not in COMMANDS:
        print(f"kabuto: unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    module_name, func_name = COMMANDS[command]
    import importlib

    module = importlib.import_module(module_name)  # every command ships: a failure here is a bug
    try:
        return int(getattr(module, func_name)(rest) or 0)
    except BrokenPipeError:
        # Output piped into `head` and the reader went away: not an error worth a traceback.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("\nkabuto: interrupted", file=sys.stderr)
        return 130


def subparser(prog: str, description: str) -> argparse.ArgumentParser:
    """An ArgumentParser for ``kabuto <prog>`` whose usage errors exit 2 with one clear line."""
    return argparse.ArgumentParser(prog=f"kabuto {prog}", description=description)


