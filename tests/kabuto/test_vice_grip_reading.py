"""Vice Grip's open readings, as the card's effect data says them.

"that piece" (issue 16, point 4): with ``pick = "one"`` (the shipped card) Mike picks one piece in
the centre circle and only it (with its stack) is knocked out; with ``pick = "every"`` (the
reading before) every piece in the circle is.

"a piece" (issue 42): with ``wrestlers = false`` (the shipped card) a wrestler in the circle is
not Mike's to grip - a game is won by pushing a wrestler out; with ``wrestlers = true`` (the
reading before) gripping an opposing wrestler wins."""
from __future__ import annotations

import pytest

from kabuto.ai.scoring import grips
from kabuto.rules.errors import IllegalMove
from kabuto.rules.inventory import BOARD
from tests.conftest import grip_assets
from tests.kabuto.scenarios import arena, put, radius, wide_circle


@pytest.fixture
def every_piece(tmp_path, monkeypatch):
    """The assets with "that piece" read as before: every piece in the circle."""
    grip_assets(tmp_path, monkeypatch, 'effect = { type = "centre_knockout", pick = "every" }')


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


def _hank_in_the_circle_beside_a_disc(g):
    c = g.materials.ring.centre_radius
    put(g, "hank:wrestler", -(c + 0.012), 0.0)            # the beetle's back reaches the circle
    put(g, "S04", c + radius(g, "small") - 0.002, 0.0)    # a small disc's rim 2 mm inside
    assert set(g.world.in_circle()) == {"hank:wrestler", "S04"}


def test_the_shipped_grip_takes_the_disc_and_leaves_the_wrestler_in_the_circle():
    g = arena(2, ["mike", "hank"])
    _hank_in_the_circle_beside_a_disc(g)
    grip = {o.name: o for o in g.available_moves(0)}["Vice Grip"]
    (target,) = [t for t in grip.targets if t.name == "piece"]
    assert target.choices == ("S04",)
    with pytest.raises(IllegalMove, match="not a wrestler"):
        g.use_move(0, "Vice Grip", piece="hank:wrestler")
    o = g.use_move(0, "Vice Grip", piece="S04")
    assert [k.piece for k in o.knocked_out] == ["S04"]
    assert g.locations()["hank:wrestler"] == BOARD and not g.is_over


def test_the_shipped_grip_is_refused_when_only_a_wrestler_is_in_the_circle():
    g = arena(2, ["mike", "hank"])
    c = g.materials.ring.centre_radius
    put(g, "hank:wrestler", -(c + 0.012), 0.0)
    assert g.world.in_circle() == ["hank:wrestler"]
    assert "Vice Grip" not in {o.name for o in g.available_moves(0) if o.usable}
    with pytest.raises(IllegalMove, match="no piece other than a wrestler is inside the centre circle"):
        g.use_move(0, "Vice Grip", piece="hank:wrestler")
    assert g.locations()["hank:wrestler"] == BOARD and g.ledger.count("seat:0", "small") == 2


def test_the_ai_fears_the_circle_only_where_the_grip_takes_wrestlers(tmp_path, monkeypatch):
    g = arena(2, ["mike", "hank"])
    assert not grips(g, g.seats[0]) and not grips(g, g.seats[1])
    grip_assets(tmp_path, monkeypatch,
                'effect = { type = "centre_knockout", pick = "one", wrestlers = true }')
    g = arena(2, ["mike", "hank"])
    assert grips(g, g.seats[0]) and not grips(g, g.seats[1])


@pytest.mark.usefixtures("grip_takes_wrestlers")
def test_gripping_a_wrestler_wins_where_the_grip_takes_wrestlers():
    g = arena(2, ["mike", "hank"])
    _hank_in_the_circle_beside_a_disc(g)
    grip = {o.name: o for o in g.available_moves(0)}["Vice Grip"]
    (target,) = [t for t in grip.targets if t.name == "piece"]
    assert set(target.choices) == {"hank:wrestler", "S04"}
    g.use_move(0, "Vice Grip", piece="hank:wrestler")
    assert g.is_over and g.result is not None and g.result.winner == 0
