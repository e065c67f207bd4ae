"""``kabuto cards``: self-play statistics and a game in the terminal, as a user would run them."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import cards
from cards.bots import make_bot
from kabuto.cli.cards import main, play_terminal
from tests.cards.toy_game import ToyTrick

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    """The toy game is available to the command line during these tests (and only then)."""
    monkeypatch.setitem(cards.GAMES, ToyTrick.name, ToyTrick)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ----- help -------------------------------------------------------------------------------------------


def test_help_explains_the_commands(capsys):
    for argv in ([], ["--help"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0
        assert "selfplay" in out and "play" in out and "games" in out


def test_subcommand_help_explains_options_and_bot_specs(capsys):
    code, out, _ = run(capsys, "selfplay", "--help")
    assert code == 0
    for word in ("--games", "--bots", "--seed", "--jokers", "--players", "mcts:N", "heuristic"):
        assert word in out
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0 and "--seat" in out and "quit" in out


def test_games_lists_the_games(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    for name in cards.GAMES:
        assert name in out


# ----- bad arguments: one line, exit 2 -------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv,complaint",
    [
        (["selfplay", "no-such-game"], "unknown game 'no-such-game'"),
        (["selfplay", "toy-trick", "--bots", "genius"], "unknown bot 'genius'"),
        (["selfplay", "toy-trick", "--bots", "random,random,random"], "for 2 players, not 3"),
        (["selfplay", "toy-trick", "--players", "2", "--bots", "random,mcts,random"], "3 bots for 2 seats"),
        (["selfplay", "toy-trick", "--bots", "mcts:10,"], "empty bot spec"),
        (["selfplay", "toy-trick", "--games", "0"], "--games must be at least 1"),
        (["selfplay", "toy-trick", "--games", "many"], "invalid int value"),
        (["selfplay", "toy-trick", "--players", "3"], "for 2 players, not 3"),
        (["selfplay", "toy-trick", "--jokers"], "does not take --jokers"),
        (["play", "toy-trick", "--seat", "2"], "--seat must be 0 to 1"),
        (["shuffle"], "invalid choice"),
        (["selfplay"], "required"),
    ],
)
def test_bad_arguments_give_one_clear_line_and_exit_2(capsys, argv, complaint):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("kabuto cards: ") and complaint in lines[0]


# ----- selfplay ----------------------------------------------------------------------------------------


def test_selfplay_prints_json_statistics(capsys):
    code, out, err = run(capsys, "selfplay", "toy-trick", "--games", "12", "--bots", "mcts:20,random", "--seed", "4")
    assert code == 0
    stats = json.loads(out)
    assert stats["game"] == "toy-trick" and stats["players"] == 2 and stats["games"] == 12
    assert stats["bots"] == ["mcts:20", "random"]
    assert sum(stats["wins"]) + stats["draws"] == 12  # toy-trick has no draws: five tricks
    assert stats["mean_length"] == 10  # every toy game is five tricks of two cards
    assert stats["games_per_second"] > 0
    assert stats["wins"][0] > stats["wins"][1]  # the search bot is the stronger one
    assert err == ""  # short runs: no progress bar


def test_selfplay_bot_settings_stay_with_their_bot(capsys):
    code, out, _ = run(capsys, "selfplay", "toy-trick", "--games", "2", "--bots", "mcts:5,rollout=heuristic,c=1,random")
    assert code == 0
    assert json.loads(out)["bots"] == ["mcts:5,rollout=heuristic,c=1", "random"]


def test_selfplay_is_reproducible_from_its_seed(capsys):
    def stats(seed: str) -> dict:
        code, out, _ = run(capsys, "selfplay", "toy-trick", "--games", "15", "--seed", seed, "--no-progress")
        assert code == 0
        data = json.loads(out)
        for timing in ("seconds", "games_per_second"):
            data.pop(timing)
        return data

    assert stats("8") == stats("8")


def test_selfplay_shows_progress_on_a_terminal_for_long_runs(capsys, monkeypatch):
    code, out, err = run(capsys, "selfplay", "toy-trick", "--games", "40")
    assert code == 0 and err == ""  # nobody watches a pipe: no bar
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, out, err = run(capsys, "selfplay", "toy-trick", "--games", "40")
    assert code == 0
    json.loads(out)  # stdout stays pure JSON
    assert "toy-trick" in err and "40" in err
    code, out, err = run(capsys, "selfplay", "toy-trick", "--games", "40", "--no-progress")
    assert err == ""


@pytest.mark.parametrize("name", sorted(cards.GAMES))
def test_selfplay_runs_every_game(capsys, name):
    cls = cards.GAMES[name]
    for players in cls.player_counts:
        code, out, err = run(capsys, "selfplay", name, "--games", "3", "--players", str(players))
        assert code == 0, err
        stats = json.loads(out)
        assert len(stats["wins"]) == players
        assert sum(stats["wins"]) + stats["draws"] == 3


def test_jokers_option_reaches_the_sumo_card_game(capsys):
    if "sumo-card-game" not in cards.GAMES:
        pytest.skip("sumo-card-game engine not installed")
    code, out, _ = run(capsys, "selfplay", "sumo-card-game", "--games", "2", "--jokers")
    assert code == 0 and json.loads(out)["options"] == {"jokers": True}


# ----- play in the terminal --------------------------------------------------------------------------------


def play(monkeypatch, capsys, stdin: str, *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", "toy-trick", *argv])
    out, err = capsys.readouterr()
    return code, out + err


def test_play_a_whole_game_refusing_bad_input(monkeypatch, capsys):
    # Bad answers first (out of range, nonsense, empty, a card not held), then always choice 1.
    code, out = play(monkeypatch, capsys, "9\nxyzzy\n\nplay 9z\n" + "1\n" * 10, "--seed", "3")
    assert code == 0
    assert "There is no choice 9" in out
    assert "'xyzzy' is not one of your choices" in out
    assert "'an empty line' is not one of your choices" in out
    assert "'play 9z' is not one of your choices" in out
    assert "Game over" in out and ("You win" in out or "You lose" in out)
    assert out.count("Your turn") == 5  # five tricks, one card each


def test_play_accepts_the_action_as_written(monkeypatch, capsys):
    game = ToyTrick.new(seed=3)
    first = game.legal_actions()[-1]
    code, out = play(monkeypatch, capsys, first.upper() + "\n" + "1\n" * 10, "--seed", "3")
    assert code == 0
    assert f"card {first[5:]}" in out  # the chosen card was played


def test_play_never_shows_the_bots_hidden_cards(monkeypatch, capsys):
    game = ToyTrick.new(seed=5)
    bot_hand = set(game.hands[0])
    code, out = play(monkeypatch, capsys, "quit\n", "--seed", "5", "--seat", "1")
    assert code == 0 and "You left the game" in out
    led = [c for c in bot_hand if f"play: seat 0, card {c}" in out]
    assert len(led) == 1  # the bot led one card, openly
    for card in bot_hand - set(led):
        assert card not in out, f"the bot's hidden {card} was shown"


def test_end_of_input_abandons_the_game_cleanly(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, "1\n", "--seed", "2")
    assert code == 1
    assert "Input ended: game abandoned." in out
    assert "Traceback" not in out


def test_ctrl_c_abandons_the_game_cleanly():
    lines: list[str] = []

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    code = play_terminal(ToyTrick.new(seed=1), 0, {1: make_bot("random", 1)}, read=interrupted, out=lines.append)
    assert code == 130
    assert lines[-1] == "Interrupted: game abandoned."


def test_help_during_play_lists_the_choices_again():
    lines: list[str] = []
    answers = iter(["help", "quit"])
    game = ToyTrick.new(seed=1)
    play_terminal(game, 0, {1: make_bot("random", 1)}, read=lambda _: next(answers), out=lines.append)
    listed = [ln for ln in lines if ln.strip().startswith("1. ")]
    assert len(listed) == 2  # shown with the turn, and again after 'help'


# ----- the real command ------------------------------------------------------------------------------------


def test_kabuto_cards_is_routed_here():
    if not cards.GAMES:
        pytest.skip("no engine installed")
    name = sorted(cards.GAMES)[0]
    proc = subprocess.run(
        [sys.executable, "-m", "kabuto", "cards", "selfplay", name, "--games", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == 2
    proc = subprocess.run(
        [sys.executable, "-m", "kabuto", "cards", "selfplay", "nope"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


@pytest.mark.parametrize("game,players", [("sumo", 2), ("sumo-card-game", 2), ("sumida-river", 3)])
def test_the_terminal_game_speaks_a_players_words(game, players):
    """`kabuto cards play`: seats by the table's colours, cards as printed, the ring and the trick in
    sentences; no observation keys, seat numbers, raw card codes or returns."""
    import re

    from kabuto.cli.cards import _game_class, _new_game

    g = _new_game(_game_class(game), players, 5, {})
    bots = {s: make_bot("random", s) for s in range(1, players)}
    lines: list[str] = []
    answers = iter(["1"] * 2000)
    assert play_terminal(g, 0, bots, seed=5, read=lambda _: next(answers), out=lines.append) == 0
    text = "\n".join(lines)
    assert "You play Red" in text and "Game over." in text
    for raw in ("seat 0", "seat 1", "Returns", "void", "wrestler -1", "wrestler 0", "to play", "hand size",
                "opponent_", "rank_to_meet", "None"):
        assert raw not in text, raw
    # Cards as the table prints them (10♥, K♠), never engine codes such as TD or 5S.
    assert not re.search(r"\b(?:[2-9TJQKA][CDHS]|W[BR])\b", text), re.search(r"\b(?:[2-9TJQKA][CDHS]|W[BR])\b", text)
