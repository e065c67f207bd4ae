"""The ``kabuto`` command. Each sub-command lives in the module that owns it; this file only routes."""
from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

from kabuto_ui.text import shown

USAGE = """\
kabuto <command> [options]

commands:
  play         open the desktop app (Kabuto Sumo and the card table)
  demo         a headless demo push on the 2-player starting board; prints what fell
  sim          play a Kabuto Sumo game headless from a list of pushes
  replay       verify or view a saved replay
  wrestlers    list the wrestler cards
  tournament   AI-vs-AI tournaments with win-rate matrices
  balance      the balance report: every wrestler pair, both seat orders, with targets and charts
  tune         sweep and calibrate disc friction and mass
  cards        the card games headless: selfplay statistics, or play in the terminal
  serve        host network games (rooms of Kabuto Sumo and the card games)
  join         play a network game with a bot (headless client of 'kabuto serve')

'kabuto --version' prints the versions of kabuto, pymunk, pyglet and Python.

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
    "balance": ("kabuto.cli.balance", "main"),
    "tune": ("kabuto.cli.tune", "main"),
    "cards": ("kabuto.cli.cards", "main"),
    "serve": ("kabuto.cli.serve", "main"),
    "join": ("kabuto.cli.join", "main"),
}


def version_text() -> str:
    """The versions that decide how a push plays out: kabuto, pymunk (and its Chipmunk), pyglet,
    Python and the platform. Read from package metadata, so nothing heavy is imported."""
    import platform
    from importlib import metadata

    def installed(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    from physics.versions import engine

    chipmunk = engine()["chipmunk"].split("-")[0]
    return (f"kabuto {installed('kabuto')}\n"
            f"pymunk {installed('pymunk')} (Chipmunk {chipmunk})\n"
            f"pyglet {installed('pyglet')}\n"
            f"Python {platform.python_version()} on {platform.system()} {platform.machine()}")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    if args[0] in ("-V", "--version", "version"):
        print(version_text())
        return 0
    command, rest = args[0], args[1:]
    if command not in COMMANDS:
        print(f"kabuto: unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    module_name, func_name = COMMANDS[command]
    import importlib

    module = importlib.import_module(module_name)  # every command ships: a failure here is a bug
    if argv is None and command != "serve":
        # Run as the program (not called from Python, whose own signal handling stays as it was):
        # `kill` stops a long run as Ctrl-C does. The server stops itself on SIGTERM.
        from kabuto.tuning.stopping import sigterm_as_ctrl_c

        sigterm_as_ctrl_c()
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


class UsageError(Exception):
    """A bad command line or input file: printed as one line ``kabuto CMD: ...``, exit status 2."""


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors raise :class:`UsageError` instead of printing a usage dump."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def subparser(prog: str, description: str, **kwargs: Any) -> OneLineParser:
    """The parser of ``kabuto <prog>``; with :func:`command` its usage errors are one clear line."""
    return OneLineParser(prog=f"kabuto {prog}", description=description, **kwargs)


F = TypeVar("F", bound=Callable[..., int])


def command(name: str) -> Callable[[F], F]:
    """Decorate a sub-command's ``main(argv) -> int``: a :class:`UsageError` (or the research
    library's :class:`kabuto.lab.LabError`) raised anywhere inside becomes the line ``kabuto NAME: message`` on stderr and exit status 2 (never a traceback)."""

    def wrap(main: F) -> F:
        @functools.wraps(main)
        def run(*args: Any, **kwargs: Any) -> int:
            from kabuto.lab import LabError

            try:
                return main(*args, **kwargs)
            except (UsageError, LabError) as exc:
                # The message may quote a file (a field name, a wrestler key): shown safely.
                print(f"kabuto {name}: {shown(exc)}", file=sys.stderr)
                return 2

        return run  # type: ignore[return-value]

    return wrap


def require_extra(module: str, extra: str, what: str) -> None:
    """Raise a one-line :class:`UsageError` when ``what`` needs an optional dependency that is not
    installed (``pip install 'kabuto[EXTRA]'`` brings it)."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise UsageError(f"{what} needs the optional '{extra}' dependencies: pip install 'kabuto[{extra}]'")


def progress_wanted(disabled_by_flag: bool = False) -> bool:
    """Progress bars only for a person watching: off with the flag, or when stderr is not a terminal."""
    return not disabled_by_flag and sys.stderr.isatty()


