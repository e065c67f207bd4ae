"""Vice Grip's open reading of "that piece" (issue 16, point 4): with ``pick = "one"`` in the card's
effect (the shipped card, the reading in force earlier), Mike picks one piece in the
centre circle and only it (with its stack) is knocked out. Without it (``pick = "every"``, the
reading before) every piece in the circle is."""
from __future__ import annotations

import shutil

import pytest

import kabuto_assets
from kabuto.rules.errors import IllegalMove
from kabuto.rules.inventory import BOARD
from tests.kabuto.scenarios import arena, put, radius, wide_circle

SHIPPED = 'effect = { type = "centre_knockout", pick = "one" }'


@pytest.fixture
def every_piece(tmp_path, monkeypatch):
    """The assets with Vice Grip read as before: every piece in the circle."""
    folder = tmp_path / "assets"
    shutil.copytree(kabuto_assets.folder(), folder)
    cards = folder / "wrestlers.toml"
    text = cards.read_text(encoding="utf-8")
    assert text.count(SHIPPED) == 1
    cards.write_text(text.replace(SHIPPED, 'effect = { type = "centre_knockout", pick = "every" }'),
                     encoding="utf-8")
    monkeypatch.setenv("KABUTO_ASSETS", str(folder))


def _circle_with_two_pieces(g):
    c = g.materials.ring.centre_radius
    rs, rl = radius(g, "small"), radius(g, "large")
    put(g, "S04", 0.0, 0.0)                                 # wholly inside
    put(g, "L1", -(c + rl - 0.003), 0.0)                 # its rim 3 mm inside
    put(g, "S03", -(c + rl - 0.003), 0.0, base="L1")     # stacked on it, wholly outside
    put(g, "S02", 0.0, -(c + rs + 0.001))                # 1 mm clear of the circle
    assert set(g.world.in_circle()) == {"S04", "L1"}


def test_one_piece_reading_knocks_out_only_the_piece_picked_with_its_stack():
    g = arena(2, ["mike", "hank"], materials=wide_circle())
    _circle_with_two_pieces(g)
    grip = {o.name: o for o in g.available_moves(0)}["Vice Grip"]
    (target,) = [t for t in grip.targets if t.name == "piece"]
    assert set(target.choices) == {"S04", "L1"}
    before = g.ledger.count("seat:0", "large")
    o = g.use_move(0, "Vice Grip", piece="L1")
    assert {k.piece: k.to for k in o.knocked_out} == {"L1": "seat:0", "S03": "seat:0"}
    assert g.ledger.count("seat:0", "large") == before + 1
    assert g.locations()["S04"] == BOARD and g.locations()["S02"] == BOARD


@pytest.mark.parametrize("piece", [None, "S02", "S04x"])
def test_one_piece_reading_refuses_a_piece_outside_the_circle(piece):
    g = arena(2, ["mike", "hank"], materials=wide_circle())
    _circle_with_two_pieces(g)
    kw = {} if piece is None else {"piece": piece}
    with pytest.raises(IllegalMove, match="a piece inside the centre circle"):
        g.use_move(0, "Vice Grip", **kw)
    assert set(g.world.in_circle()) == {"S04", "L1"}


@pytest.mark.usefixtures("every_piece")
def test_the_every_piece_reading_takes_every_piece_in_the_circle():
    g = arena(2, ["mike", "hank"], materials=wide_circle())
    _circle_with_two_pieces(g)
    grip = {o.name: o for o in g.available_moves(0)}["Vice Grip"]
    assert "piece" not in [t.name for t in grip.targets]
    o = g.use_move(0, "Vice Grip")
    assert {k.piece for k in o.knocked_out} == {"S04", "L1", "S03"}
