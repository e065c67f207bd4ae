"""Player-facing words: the rules' refusals are said from their code and fields, never by
rewriting the engine's sentence, at the hot-seat table and online alike; the tuning panel and the
signature moves' previews name kinds as players do. (That each refusal the rules raise has a code
with words is tests/app/test_refusal_words.py.)
"""
from __future__ import annotations

from tests.app.helpers import leaks


def test_the_two_refusals_the_issue_quoted_are_said_from_their_codes():
    """A platform spot blocked by a piece hanging over, a swap that does not fit: the engine's
    sentences name 'M10' and 2.43091 degrees; the table names the piece and no number."""
    from kabuto.app.game_session import GameSession
    from kabuto.rules.game import Game
    from kabuto_base.errors import IllegalMove

    game = Game.new(players=2, wrestlers=["gus", "hank"], seed=1)
    session = GameSession(game, ("human", "human"), record=False)
    medium = next(p.id for p in game.world.pieces if p.kind == "medium")
    blocked = IllegalMove(f"push: the platform spot at 2.43091 degrees is blocked by piece {medium!r} "
                          "hanging over the edge", "spot_blocked", piece=medium, entry_deg=2.43091)
    swap = IllegalMove("the swap does not fit: piece 'M03' would overlap piece 'L2'", "does_not_fit",
                       kind="gus_wrestler")
    assert session.refused(blocked) == ("The platform cannot stand there: the medium disc hangs over the "
                                        "edge at that spot.")
    assert session.refused(swap) == ("The Goliath Gus's wrestler piece does not fit there: another piece "
                                     "is in the way.")


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


def test_a_push_the_server_refuses_is_said_online_as_at_the_hot_seat_table():
    """The server sends the rules' code and fields beside its sentence: the online table says the
    refusal in its own words, the same as a local game would."""
    from kabuto.app.game_session import GameSession
    from kabuto.app.online_session import OnlineSession
    from kabuto.net import protocol
    from kabuto.net.tables import ActionError
    from kabuto.rules.game import Game
    from kabuto_base.errors import IllegalMove

    server = Game.new(players=2, wrestlers=["hank", "gus"], seed=5, first_player=0)
    try:
        server.push("gus_wrestler", 0.0, 0.0, 0.3)
    except IllegalMove as exc:
        refused = ActionError.illegal(exc)
        local = GameSession(Game.from_json(server.to_json()), ("human", "human"), record=False).refused(exc)
    msg = protocol.error(refused.code, str(refused), "act-1", refused.rule, refused.fields)
    seats = [{"name": "Ann", "taken": True, "bot": None, "connected": True}] * 2
    session = OnlineSession(server.to_json(), 0, 0, "ROOM22", seats, lambda m: None)
    session.receive(msg)
    assert session.refusal == local and not leaks(local)
    assert "gus_wrestler" in msg["message"] or "gus" in str(msg["fields"])  # the wire keeps the data
