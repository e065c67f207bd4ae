"""The wrestler cards and Junior League cards as data, their pieces, and how the cards read."""
from __future__ import annotations

import math
import re

import pytest

from kabuto import Game
from kabuto.cli.wrestlers import main as wrestlers_main
from kabuto.rules.inventory import BOARD
from kabuto.rules.junior import load_junior, render_junior_card
from kabuto.rules.wrestlers import load_wrestlers, render_card, wrestler
from physics import Polygons
from tests.kabuto.scenarios import arena

WRESTLERS = load_wrestlers()


def test_eight_distinct_wrestlers():
    assert len(WRESTLERS) == 8
    assert len({w.key for w in WRESTLERS}) == len({w.name for w in WRESTLERS}) == 8
    assert len({w.beetle for w in WRESTLERS}) == 8
    assert all(len(w.moves) == 2 for w in WRESTLERS)
    names = [m.name for w in WRESTLERS for m in w.moves]
    assert len(set(names)) == 16


def test_mighty_jaw_mike_exactly_as_printed():
    mike = wrestler("Mighty Jaw Mike")
    assert mike.beetle == "Giant Stag Beetle"
    claw, grip = mike.moves
    assert (claw.name.upper(), claw.text) == (
        "MANDIBLE CLAW", "Pay 3 small discs to your opponent. Add the large disc to your inventory.")
    assert (grip.name.upper(), grip.text) == (
        "VICE GRIP", "Pay 1 small disc to your opponent. If any part of a piece is inside and "
        "touching the center circle, immediately knock out that piece and all pieces stacked on "
        "it. Add all standard discs knocked out this way to your inventory.")


def test_card_text_states_the_cost_the_engine_charges():
    for w in WRESTLERS:
        for m in w.moves:
            for c in m.cost:
                assert c.text() in m.text, f"{w.name} / {m.name}: card does not say {c.text()!r}"
            assert ("Replaces your turn" in m.text) == m.replaces_turn
            assert ("Not on your first turn" in m.text) == (m.from_turn == 2), m.name


@pytest.mark.parametrize("bad", ["0", "true", "1.5", "\"2\"", "10"])
def test_a_move_that_waits_a_turn_must_say_a_whole_turn(tmp_path, bad):
    import kabuto_assets
    from kabuto.rules.wrestlers import load_wrestlers

    text = kabuto_assets.path("wrestlers.toml").read_text(encoding="utf-8")
    path = tmp_path / "wrestlers.toml"
    path.write_text(text.replace("from_turn = 2", f"from_turn = {bad}"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"wrestler rita\.move\[0\]\.from_turn: expected a whole number 1\.\.9"):
        load_wrestlers(path)


def test_pieces_have_their_own_shapes():
    for w in WRESTLERS:
        assert isinstance(w.piece_type.shape, Polygons), f"{w.name}'s piece is perfectly round"
        assert not w.piece_type.stackable
        assert w.piece_type.size <= 0.017
        for s in w.signature:
            assert isinstance(s.type.shape, Polygons) and s.type.stackable
        assert all("." not in k for k in w.kinds())   # tuning keys are FIELD.KIND


def test_eight_signature_move_pieces_in_the_box():
    """Components: 8 Signature Move Pieces."""
    assert sum(s.count for w in WRESTLERS for s in w.signature) == 8


def test_the_roster_covers_the_required_kinds_of_move():
    effects = {m.effect for w in WRESTLERS for m in w.moves}
    costs = {c.action for w in WRESTLERS for m in w.moves for c in m.cost}
    assert "stack" in costs and "place_on" in effects                     # stacks pieces
    assert "extra_push" in effects                                        # pushes twice
    assert {"slide_from_wrestler", "turn_wrestler"} <= effects            # moves / turns a piece
    assert {"place_touching_wrestler", "place_on"} <= effects             # signature piece into play
    assert "knockout_touching_opponent" in effects                        # depends on touching
    assert "push_from_opponent" in effects                                # breaks a standard rule
    assert any(m.replaces_turn for w in WRESTLERS for m in w.moves)
    sig_gains = [m for w in WRESTLERS for m in w.moves
                 if m.effect == "gain" and m.params["piece"] in {s.key for s in w.signature}]
    assert sig_gains


@pytest.mark.parametrize("key", [w.key for w in WRESTLERS if w.signature])
def test_signature_pieces_can_be_pushed_like_any_disc(key):
    g = arena(2, [key, "rita" if key != "rita" else "mike"])
    pid = wrestler(key).signature_ids()[0]
    g.edit(pid, "seat:0")
    o = g.push(pid, 180.0, 0.0, 0.4, spin_deg=30.0)
    assert g.locations()[pid] == BOARD and not o.physics.stalled
    assert math.hypot(g.world.piece(pid).x, g.world.piece(pid).y) < g.materials.ring.radius


def test_render_card_reads_like_the_card():
    text = render_card(wrestler("hank"))
    assert text.splitlines()[0] == "HERCULES HANK (Hercules Beetle)"
    assert "Signature pieces: Horn Bar" in text
    assert "* HORN TOSS: Replaces your turn. Discard 1 small disc." in text
    flat = re.sub(r"\s+", " ", text)
    for m in wrestler("hank").moves:
        assert m.text in flat


def test_kabuto_wrestlers_lists_all_eight_cards(capsys):
    assert wrestlers_main([]) == 0
    out = capsys.readouterr().out
    for w in WRESTLERS:
        assert render_card(w) in out


def test_kabuto_wrestlers_junior_and_errors(capsys):
    assert wrestlers_main(["--junior"]) == 0
    out = capsys.readouterr().out
    assert all(render_junior_card(c) in out for c in load_junior())
    assert wrestlers_main(["nobody"]) == 2
    assert "unknown wrestler 'nobody'" in capsys.readouterr().err


# ----- Junior League ------------------------------------------------------------------------------
def test_five_junior_league_cards():
    cards = load_junior()
    assert len(cards) == 5 and len({c.wrestler.key for c in cards}) == 5
    for c in cards:
        assert c.signature and sum(c.discs.values()) >= 1


def test_junior_league_replaces_the_starting_inventory():
    """Junior League 1: "Each player replaces their starting inventory with the pieces shown on
    their wrestler card." """
    g = Game.new(players=2, wrestlers=["dora", "hank"], junior=True)
    assert g.ledger.contents("seat:0") == {"small": 2, "dora_ball": 1}
    assert g.ledger.contents("seat:1") == {"medium": 1, "small": 1, "hank_bar": 1}


def test_junior_league_team_never_more_than_three_small_discs():
    """Junior League 1: "Teams begin with both sets of pieces, except a team cannot start with more
    than three small discs." """
    g = Game.new(players=4, wrestlers=["jade", "hank", "dora", "gus"], junior=True)
    team0 = g.ledger.contents("team:0")                  # Jade (2 small) and Dora (2 small)
    assert team0 == {"small": 3, "jade_gem": 3, "dora_ball": 1}
    assert g.ledger.contents("team:1") == {"medium": 2, "small": 2, "hank_bar": 1, "gus_boulder": 1}

