"""``kabuto cards``: the card games without a window.

``kabuto cards selfplay GAME`` lets bots play many seeded games and prints statistics as one JSON
object; ``kabuto cards play GAME`` plays one game in the terminal, you against bots; ``kabuto cards
games`` lists the games. Every game and bot is the same as in the desktop card table.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from cards.api import CardGame, IllegalMove
from kabuto.cli import OneLineParser, UsageError, command, progress_wanted

DESCRIPTION = """\
The sumo card games, headless. 'kabuto cards <command> --help' explains each command.
"""

SELFPLAY_EPILOG = """\
Game i is dealt with seed S+i, so a run is reproducible. The JSON output holds, per seat: "wins"
(games that seat won alone), "shared_wins" (games it tied for first), "mean_returns"; and overall
"draws" (games with a shared first place), "mean_length" (actions per game), "games_per_second".

example: kabuto cards selfplay sumo --games 200 --bots mcts:100,random --seed 1
"""

PLAY_EPILOG = """\
On your turn you see what your seat may see and a numbered list of your legal actions: type the
number (or the action as written) and press Enter. 'help' repeats the list, 'quit' leaves.
"""


def _games() -> dict[str, type[CardGame]]:
    import cards

    return cards.GAMES


def _build_parser() -> argparse.ArgumentParser:
    from cards.bots import BOT_HELP

    fmt = argparse.RawDescriptionHelpFormatter
    parser = OneLineParser(prog="kabuto cards", description=DESCRIPTION, formatter_class=fmt)
    sub = parser.add_subparsers(dest="command", metavar="command", parser_class=OneLineParser)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", help="game name (see 'kabuto cards games')")
        p.add_argument("--players", type=int, help="number of seats (default: the game's first count)")
        p.add_argument("--jokers", action="store_true", help="play with jokers (sumo-card-game)")

    sp = sub.add_parser(
        "selfplay",
        help="bots play many seeded games; prints JSON statistics",
        description="Bots play many seeded games of GAME; prints one JSON object of statistics.",
        epilog=SELFPLAY_EPILOG + "\n" + BOT_HELP,
        formatter_class=fmt,
    )
    common(sp)
    sp.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    sp.add_argument(
        "--bots", default="random",
        help="comma-separated bot spec per seat, or one spec for every seat (default random)",
    )
    sp.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    sp.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    pp = sub.add_parser(
        "play",
        help="play one game in the terminal against bots",
        description="Play one game of GAME in the terminal, you in one seat and bots in the others.",
        epilog=PLAY_EPILOG + "\n" + BOT_HELP,
        formatter_class=fmt,
    )
    common(pp)
    pp.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default 0)")
    pp.add_argument(
        "--bots", default="heuristic",
        help="bot spec for the other seats: one for all, or one per other seat (default heuristic)",
    )
    pp.add_argument("--seed", type=int, help="deal seed (default: a random one, printed)")

    sub.add_parser("games", help="list the games and their player counts",
                   description="List the card games and their player counts.")
    return parser


@command("cards")
def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``kabuto cards``; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _build_parser()
    if not argv:
        parser.print_help()
        return 0
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    if args.command == "games":
        return _cmd_games()
    if args.command == "selfplay":
        return _cmd_selfplay(args)
    if args.command == "play":
        return _cmd_play(args)
    parser.print_help()
    return 0


# ----- argument checks shared by the commands -----------------------------------------------------


def _game_class(name: str) -> type[CardGame]:
    games = _games()
    if name not in games:
        known = ", ".join(sorted(games)) or "none installed"
        raise UsageError(f"unknown game {name!r} (games: {known})")
    return games[name]


def _players(cls: type[CardGame], requested: int | None, default: int | None = None) -> int:
    players = requested if requested is not None else (default or cls.player_counts[0])
    if players not in cls.player_counts:
        counts = " or ".join(map(str, cls.player_counts))
        raise UsageError(f"{cls.name} is for {counts} players, not {players}")
    return players


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {"jokers": True} if args.jokers else {}


def _new_game(cls: type[CardGame], players: int, seed: int, options: dict[str, Any]) -> CardGame:
    try:
        return cls.new(players, seed, **options)
    except (TypeError, ValueError) as exc:
        if options:
            raise UsageError(
                f"{cls.name} does not take {', '.join('--' + k for k in options)} ({exc})") from None
        raise UsageError(f"{cls.name}: {exc}") from None


def _bot_specs(text: str) -> list[str]:
    specs = [s.strip() for s in text.split(",")]
    # A "key=value" part is a setting of the spec before it: "mcts:200,rollout=heuristic,random"
    # names two bots.
    merged: list[str] = []
    for s in specs:
        if merged and "=" in s:
            merged[-1] += "," + s
        else:
            merged.append(s)
    if not merged or any(not s for s in merged):
        raise UsageError(f"--bots {text!r}: empty bot spec")
    return merged


def _make_bots(specs: list[str], seats: list[int], seed: int) -> dict[int, Any]:
    from cards.bots import make_bot

    try:
        return {seat: make_bot(spec, seed * 16 + seat) for seat, spec in zip(seats, specs, strict=True)}
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _check_heuristics(cls: type[CardGame], specs: list[str]) -> None:
    from cards.bots import engine_heuristic

    if any(s.strip().lower() == "heuristic" or "rollout=heuristic" in s.lower() for s in specs):
        try:
            engine_heuristic(cls)
        except LookupError as exc:
            raise UsageError(str(exc)) from None


# ----- games ---------------------------------------------------------------------------------------


def _cmd_games() -> int:
    games = _games()
    if not games:
        print("no card game engine is installed")
        return 0
    from cards.table.config import table_data

    # The player-facing titles and blurbs are the card table's menu data (assets/cards/table.toml).
    modes = table_data().modes
    for name, cls in sorted(games.items()):
        counts = "/".join(map(str, cls.player_counts))
        mode = next((m for m in modes if m.game == name and not m.options), None)
        about = f"{mode.title.split(' (')[0]}: {mode.blurb}" if mode else ""
        print(f"{name:16s} {counts:>5s} players  {about}")
    return 0


# ----- selfplay ------------------------------------------------------------------------------------


def _cmd_selfplay(args: argparse.Namespace) -> int:
    from cards.bots import bot_seed, make_bot, play_out

    cls = _game_class(args.game)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    specs = _bot_specs(args.bots)
    players = _players(cls, args.players, len(specs) if len(specs) > 1 else None)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise UsageError(f"--bots names {len(specs)} bots for {players} seats: give one per seat, or one for all")
    _make_bots(specs, list(range(players)), 0)  # validate specs
    _check_heuristics(cls, specs)
    options = _options(args)
    _new_game(cls, players, args.seed, options)  # validate options

    wins = [0] * players
    shared = [0] * players
    totals = [0.0] * players
    draws = 0
    actions = 0
    bar = None
    if progress_wanted(args.no_progress) and args.games >= 20:
        from tqdm import tqdm

        bar = tqdm(total=args.games, file=sys.stderr, unit="game", desc=f"{cls.name}", leave=False)
    start = time.perf_counter()
    try:
        for i in range(args.games):
            game = cls.new(players, args.seed + i, **options)
            bots = [make_bot(specs[s], bot_seed(args.seed, i, s)) for s in range(players)]
            actions += play_out(game, bots)
            winners = game.winners()
            for s, r in enumerate(game.returns()):
                totals[s] += r
            if len(winners) == 1:
                wins[winners[0]] += 1
            else:
                draws += 1
                for w in winners:
                    shared[w] += 1
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        print("kabuto cards: interrupted", file=sys.stderr)
        return 130
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    n = args.games
    out = {
        "game": cls.name,
        "players": players,
        "options": options,
        "bots": specs,
        "games": n,
        "seed": args.seed,
        "wins": wins,
        "shared_wins": shared,
        "draws": draws,
        "win_rate": [round(w / n, 4) for w in wins],
        "mean_returns": [round(t / n, 4) for t in totals],
        "mean_length": round(actions / n, 2),
        "seconds": round(seconds, 3),
        "games_per_second": round(n / seconds, 2) if seconds > 0 else None,
    }
    print(json.dumps(out))
    return 0


# ----- play ----------------------------------------------------------------------------------------


def format_value(value: Any) -> str:
    """A compact one-line rendering of an observation value."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        if not value:
            return "-"
        if all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value):
            return " ".join(str(v) for v in value)
        return "  |  ".join(format_value(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {format_value(v)}" for k, v in value.items()) or "-"
    if value is None:
        return "-"
    return json.dumps(value)


def format_observation(obs: dict[str, Any]) -> str:
    """The observation as ``key: value`` lines (events are shown separately)."""
    lines = []
    width = max((len(str(k)) for k in obs if k != "events"), default=0)
    for key, value in obs.items():
        if key == "events":
            continue
        lines.append(f"  {str(key).replace('_', ' '):{width}s}  {format_value(value)}")
    return "\n".join(lines)


def format_event(event: dict[str, Any], me: int) -> str:
    """One event as a line, e.g. ``play: seat 1, card 4d``."""
    parts = []
    for key, value in event.items():
        if key in ("type", "to"):
            continue
        if key in ("seat", "player", "winner", "leader") and value == me:
            parts.append(f"{key} {value} (you)")
        else:
            parts.append(f"{key} {format_value(value)}")
    return f"{event.get('type', 'event')}: " + ", ".join(parts) if parts else str(event.get("type"))


def _cmd_play(args: argparse.Namespace) -> int:
    cls = _game_class(args.game)
    players = _players(cls, args.players)
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat must be 0 to {players - 1}, not {args.seat}")
    others = [s for s in range(players) if s != args.seat]
    specs = _bot_specs(args.bots)
    if len(specs) == 1:
        specs = specs * len(others)
    if len(specs) != len(others):
        raise UsageError(f"--bots names {len(specs)} bots for {len(others)} bot seats: give one per seat, or one for all")
    _check_heuristics(cls, specs)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    bots = _make_bots(specs, others, seed)
    game = _new_game(cls, players, seed, _options(args))
    return play_terminal(game, args.seat, bots, seed=seed)


def play_terminal(
    game: CardGame,
    seat: int,
    bots: dict[int, Any],
    seed: int | None = None,
    read: Callable[[str], str] = input,
    out: Callable[[str], None] = print,
) -> int:
    """Run ``game`` with a human in ``seat`` reading choices through ``read``; returns exit status.

    Bots' choices are never printed directly (a face-down choice must stay hidden): the human sees
    only the events their seat may see.
    """
    from cards.table.describe import Log, result_words, situation
    from kabuto_ui.theme import SEAT_NAMES

    names = list(SEAT_NAMES[: game.num_players])  # the colours the card table uses
    bots_are = {s: getattr(b, "name", "bot") for s, b in bots.items()}
    who = ", ".join(f"{names[s]}: a bot ({bots_are[s]})" for s in sorted(bots_are))
    out(f"{game.name}, {game.num_players} players, deal {seed}. You play {names[seat]}; {who}.")
    try:
        log: Log | None = Log(game.name, seat, names)
    except ValueError:  # a game the table has no words for (a test's toy game): its raw events
        log = None
    shown = 0
    try:
        while True:
            events = game.visible_events(seat)
            if log is not None:
                log.feed(events)
            lines = log.lines if log is not None else [format_event(e, seat) for e in events]
            for line in lines[shown:]:
                out("  * " + line)
            shown = len(lines)
            p = game.to_play
            if p is None:
                break
            if p != seat:
                game.apply(bots[p].act(game))
                continue
            legal = game.legal_actions()
            out("")
            out(f"Your turn ({names[seat]}):")
            obs = game.observation(seat)
            words = situation(game.name, obs, names) if log is not None else [format_observation(obs)]
            for line in words:
                out("  " + line)
            _show_choices(legal, out, game.name)
            action = _ask(legal, read, out, game.name)
            if action is None:
                out("You left the game.")
                return 0
            try:
                game.apply(action)
            except IllegalMove as exc:  # should not happen for a listed action; say so plainly
                out(f"Refused: {exc}")
    except EOFError:
        out("")
        out("Input ended: game abandoned.")
        return 1
    except KeyboardInterrupt:
        out("")
        out("Interrupted: game abandoned.")
        return 130
    out("")
    out("Game over. " + result_words(names, game.winners(), seat))
    return 0


def _show_choices(legal: list[str], out: Callable[[str], None], game: str = "") -> None:
    from cards.table.describe import action_words

    for i, a in enumerate(legal, 1):
        out(f"  {i:3d}. {action_words(game, a) if game else a}")


def _ask(legal: list[str], read: Callable[[str], str], out: Callable[[str], None],
         game: str = "") -> str | None:
    """Ask until the answer is a listed action; None means the player quit."""
    n = len(legal)
    by_text = {str(a).lower(): a for a in legal}
    while True:
        answer = read(f"Your choice [1-{n}]: " if n > 1 else "Your choice [1]: ").strip()
        low = answer.lower()
        if low in ("quit", "exit", "q"):
            return None
        if low in ("help", "?", "h"):
            out("Type the number of an action, or the action as written; 'quit' leaves the game.")
            _show_choices(legal, out, game)
            continue
        if answer.isdigit():
            k = int(answer)
            if 1 <= k <= n:
                return legal[k - 1]
            out(f"There is no choice {k}: type a number from 1 to {n}.")
            continue
        if low in by_text:
            return by_text[low]
        shown = answer if answer else "an empty line"
        out(f"'{shown}' is not one of your choices: type a number from 1 to {n} ('help' lists them).")
