"""Player-facing words only: every message template the table can show - each refusal the rules
and the physics raise during play, each message the app writes itself - filled with the worst
values it could carry (piece ids, kind keys, angles to five decimals) and passed through what the
table passes it through, says no id, kind key or long number.

The templates are read from the source (every ``raise IllegalMove/ValueError(f"...")`` in the
modules play goes through, every f-string the app puts on screen), so a new message is walked as
soon as it is written.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kabuto.app.words import leaks, piece_namer, plain

ROOT = Path(__file__).resolve().parents[2]
#: Modules whose refusals reach the table while a game is played (str(exc) goes on screen).
PLAY_MODULES = ["physics/world.py", "kabuto/rules/game.py", "kabuto/rules/moves.py",
                "kabuto/rules/inventory.py", "kabuto/rules/outcomes.py"]
#: The app's own modules whose f-strings are shown (messages, statuses, readouts).
APP_MODULES = ["kabuto/app/table_flow.py", "kabuto/app/game_session.py", "kabuto/app/session.py",
               "kabuto/app/tuning_panel.py", "kabuto/app/replay_model.py", "kabuto/app/scene/table.py"]
#: What a slot in a template may hold, at worst.
SAMPLES = ["M10", 2.43091, "gus:wrestler", "hank_bar", "L2", -0.0123456]


def _render(node: ast.JoinedStr, sample) -> str:
    out = []
    for i, part in enumerate(node.values):
        if i and isinstance(part, ast.FormattedValue) and isinstance(node.values[i - 1], ast.FormattedValue):
            out.append(" ")  # two slots side by side: keep the samples apart
        if isinstance(part, ast.Constant):
            out.append(str(part.value))
            continue
        assert isinstance(part, ast.FormattedValue)
        if any(isinstance(c, ast.Constant) and isinstance(c.value, str) for c in ast.walk(part.value)):
            continue  # a plural ending ('s' * (n != 1)) or a fixed word: not a slot for values
        value = sample
        if part.conversion == ord("r"):
            out.append(repr(value))
            continue
        spec = ""
        if isinstance(part.format_spec, ast.JoinedStr):
            spec = "".join(str(c.value) for c in part.format_spec.values if isinstance(c, ast.Constant))
        try:
            out.append(format(value, spec))
        except (ValueError, TypeError):
            out.append(str(value))
    return "".join(out)


def _templates(rel: str, raises_only: bool) -> list[tuple[str, ast.JoinedStr]]:
    tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
    # Widget names (name=f"kind:{k}") are for tests to find widgets by; never shown.
    hidden = {id(k.value) for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg == "name"}
    found = []
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if raises_only:
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                first = node.exc.args[0]
                if isinstance(first, ast.JoinedStr):
                    found.append((f"{rel}:{node.lineno}", first))
        elif isinstance(node, ast.JoinedStr):
            found.append((f"{rel}:{node.lineno}", node))
    return found


@pytest.fixture(scope="module")
def namer():
    from kabuto.rules.game import Game

    game = Game.new(players=2, wrestlers=["gus", "hank"], seed=1)
    return piece_namer(game.kind_of, game.kind_name, set(game.materials.kinds))


def _all_templates():
    out = []
    for rel in PLAY_MODULES:
        out += _templates(rel, raises_only=True)
    for rel in APP_MODULES:
        out += _templates(rel, raises_only=False)
    return out


def test_there_are_templates_to_walk():
    assert len(_all_templates()) > 80


def test_every_message_template_reads_in_players_words(namer):
    bad = []
    for where, node in _all_templates():
        for sample in SAMPLES:
            text = plain(_render(node, sample), namer)
            if leaks(text):
                bad.append(f"{where}: {text!r} leaks {leaks(text)}")
    assert not bad, "\n".join(bad[:20])


def test_the_two_messages_the_issue_quotes_come_out_in_players_words(namer):
    blocked = "push: the platform spot at 2.43091 degrees is blocked by piece 'M10' hanging over the edge"
    swap = "the swap does not fit: piece 'M03' would overlap piece 'L2'"
    assert plain(blocked, namer) == ("push: the platform spot at 2.4 degrees is blocked by the "
                                     "medium disc hanging over the edge")
    assert plain(swap, namer) == ("the swap does not fit: the medium disc would overlap the large "
                                  "disc")
    assert plain("kind gus_wrestler", namer) == "kind Goliath Gus's wrestler piece"


def test_the_tuning_tabs_and_messages_name_kinds_as_players_do(display, tmp_path):
    from kabuto.app.game_session import GameSession
    from kabuto.app.scene.table import TableScene
    from kabuto.rules.game import Game
    from kabuto_ui.widgets import Button
    from kabuto_ui.window import Window

    win = Window(1280, 720)
    try:
        game = Game.new(players=2, wrestlers=["gus", "hank"], seed=1)
        scene = win.set_scene(TableScene(win, GameSession(game, ("human", "human"), record=False),
                                         profile_dir=tmp_path))
        scene.toggle_tuning()
        tabs = [w.caption.text for w in scene.widgets.items
                if isinstance(w, Button) and w.name.startswith("kind:")]
        assert "Goliath Gus" in tabs and "Horn Bar" in tabs and "medium" in tabs
        assert all(not leaks(t) for t in tabs), tabs
        scene.tuning.kind = "medium"
        scene.tuning._set_one("mass.medium", "mass (g)", lambda v: f"{v * 1000:.2f}", 0.0111)
        assert scene.message == "mass (g) of the medium disc: 11.10, from the next push"
    finally:
        win.close()


def test_every_signature_moves_preview_reads_in_players_words():
    """Each wrestler's moves, previewed on the starting board and after a few pushes, with the
    first target offered and points round the ring: what the preview says names no ids, kind keys
    or long numbers."""
    import random

    from kabuto.app.game_session import GameSession
    from kabuto.rules.game import Game
    from kabuto.rules.wrestlers import load_wrestlers

    rng = random.Random(5)
    keys = [w.key for w in load_wrestlers()]
    said = 0
    for i, key in enumerate(keys):
        game = Game.new(players=2, wrestlers=[key, keys[(i + 1) % len(keys)]], seed=i, first_player=0)
        session = GameSession(game, ("human", "human"), record=False)
        for _ in range(3):
            for move in session.moves():
                if not move.enabled:
                    continue
                for _ in range(4):
                    clicks = [rng.choice(p.choices) if p.kind == "piece" else
                              (rng.uniform(-0.07, 0.07), rng.uniform(-0.07, 0.07)) for p in move.prompts]
                    try:
                        preview = session.preview_move(move.key, clicks)
                    except ValueError:
                        continue
                    said += 1
                    for line in preview.lines:
                        assert leaks(line) == [], line
            try:  # a push, so the next previews see another board
                game.push(game.legal_kinds()[0], rng.uniform(-180, 180), 0.0, 0.4)
            except ValueError:
                pass
            if game.is_over:
                break
    assert said > 20


def test_a_refusal_is_said_from_its_code_and_fields_in_the_tables_words():
    """Seats by colour, pieces by name: said from the refusal's data, never by rewriting its text."""
    from kabuto import Game
    from kabuto.app.aim import Aim
    from kabuto.app.game_session import GameSession
    from kabuto.app.session import PieceChoice
    from kabuto_ui import theme

    game = Game.new(players=2, wrestlers=["mike", "hank"], seed=1, first_player=0)
    session = GameSession(game, ("human", "human"), record=False)
    push, why = session.check(Aim(180.0, 0.0, 0.3, 0.0), PieceChoice("hank_bar", "hank_bar", "bar", 1))
    assert push is None and why == "You have no Horn Bar left to push."
    try:
        game.use_move(1, "Horn Toss")
    except ValueError as exc:
        said = session.refused(exc)
    assert said == f"It is {theme.SEAT_NAMES[0]}'s turn." and not leaks(said)
