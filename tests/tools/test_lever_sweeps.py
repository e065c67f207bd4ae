"""tools/lever_sweeps.py: the turn-1 sweeps of every board at the hand's own limit, so a faster hand is swept
with the pushes it allows."""
from __future__ import annotations

import pytest

from kabuto.rules.game import Game
from physics import Materials
from tests.tools.conftest import load_tool


@pytest.fixture(scope="module")
def lever_sweeps():
    return load_tool("lever_sweeps")


def test_the_search_sweeps_a_design_at_its_own_hands_top_speeds(monkeypatch):
    """The edge grid and the steepest ridge push at the top of the hand's range of the game they
    search (0.8-1.0 and 0.9-1.0 of it), so a design with a slower hand is swept with the pushes it
    allows, none refused as a flick (noted, not simulated)."""
    from kabuto.lab import early_wins

    made = []

    def note(game, sample):
        game.check_push(sample.kind, sample.entry_deg, sample.heading_deg, sample.speed)
        made.append(sample.speed)
        return None

    monkeypatch.setattr(early_wins, "_push", note)
    for top in (0.4, 0.5):
        slow = Materials.load().with_overrides({"simulation.max_speed": top})
        g = Game.new(players=2, wrestlers=["jade", "dora"], seed=0, first_player=0, materials=slow)
        made.clear()
        early_wins.edge_sweep(g)
        assert sorted(set(made)) == pytest.approx([0.8 * top, 0.9 * top, top])
        made.clear()
        early_wins.steepest_ridge(g)
        assert sorted(set(made)) == pytest.approx([0.9 * top, top])


def test_a_faster_hand_is_swept_up_to_its_own_limit(lever_sweeps, monkeypatch):
    """Every push the sweeps make under a 0.7 m/s hand is within it, and the fastest is at it (the
    pushes are noted, not simulated: what is swept, not what it finds)."""
    from kabuto.lab import early_wins

    made = []

    def note(game, sample):
        made.append(sample.speed)
        return None  # "could not be made": the sweep goes on to the next

    monkeypatch.setattr(early_wins, "_push", note)
    fast = Materials.load().with_overrides({"simulation.max_speed": 0.7})
    out = lever_sweeps.sweep_2p(materials=fast)
    assert out["max_speed"] == 0.7 and out["ridge_speeds"] == (0.63, 0.7)
    assert len(made) == 1248 + 1936  # every push of both sweeps, each seat moving first
    assert max(made) == pytest.approx(0.7) and min(made) == pytest.approx(0.4 * 0.7 / 0.5)


#: Pushes of each sweep from each board's start (the first seat of each side moving first, at each
#: opposing wrestler, both sides of it, smalls and mediums): edge grid 13 entries x 4 headings x 3
#: speeds, ridge 121 entries x 2 speeds (docs/rules-notes.md: 3P 3,744 and 5,808, 4P one seat a
#: side 2,496 and 3,872).
SWEPT = {2: (1248, 1936), 3: (3744, 5808), 4: (2496, 3872)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_board_is_swept_up_to_a_faster_hands_limit(lever_sweeps, monkeypatch, players):
    """The limit applies to every board: under a 0.6 m/s hand the 3P and 4P sweeps, as the 2P one,
    make every push of ``--sweep`` with the speeds scaled, the fastest at the limit (noted, not
    simulated)."""
    from kabuto.lab import early_wins

    made = []

    def note(game, sample):
        made.append((game.current_seat, sample.speed))
        return None

    monkeypatch.setattr(early_wins, "_push", note)
    fast = Materials.load().with_overrides({"simulation.max_speed": 0.6})
    out = lever_sweeps.sweep_board(players, materials=fast)
    assert out["max_speed"] == 0.6 and out["grid_speeds"] == (0.48, 0.54, 0.6)
    assert len(made) == sum(SWEPT[players])
    assert max(v for _, v in made) == pytest.approx(0.6)
    assert min(v for _, v in made) == pytest.approx(0.48)
    assert {seat for seat, _ in made} == ({0, 1, 2} if players == 3 else {0, 1})


def test_a_3p_sweep_at_a_faster_hand_pushes_for_real(lever_sweeps, monkeypatch):
    """A few real pushes of the 3P grid at 0.6 m/s (one entry and heading a wrestler and side): the
    rules take every one, each seat moving first, and a win is reported with its push."""
    import functools

    from kabuto.lab import early_wins

    monkeypatch.setattr(early_wins, "edge_sweep",
                        functools.partial(early_wins.edge_sweep, entries=1, headings=1))
    fast = Materials.load().with_overrides({"simulation.max_speed": 0.6})
    out = lever_sweeps.sweep_board(3, ridge=False, materials=fast)
    assert "ridge" not in out
    assert out["grid"]["tried"] == 3 * 2 * 2 * 2 * 3  # seats x opponents x sides x kinds x speeds
    assert out["grid"]["wins"] == len(out["grid"]["winning"])
    assert all(w["speed"] in out["grid_speeds"] for w in out["grid"]["winning"])


def test_the_large_disc_reach_counts_pushes_that_leave_one_touching_the_circle(lever_sweeps):
    """``--large-reach`` pushes from behind each large disc and counts a push when a large disc is
    left touching the centre circle: with the circle printed so wide that it takes in every spot
    a large disc can stand on, every push counts (the large discs cannot all leave the ring at
    once), and the pushes are made at the hand's speeds."""
    base = Materials.load()
    wide = base.with_overrides({"ring.centre_radius": base.ring.radius})
    out = lever_sweeps.large_reach(3, per_disc=2, materials=wide)
    assert out["tried"] == 3 * 2 and out["touching"] == out["tried"]
    assert out["max_speed"] == wide.sim.max_speed


#: The pushes that won turn 1 on the 3P board (seed 43) at a 0.6 m/s hand under physics model 4
#: (docs/rules-notes.md, "The 3P and 4P boards at a 0.6 m/s hand"): seat, entry (degrees), the
#: side of the steepest heading, speed (m/s). Mediums along the edge at the steepest heading.
EDGE_CHAIN_3P = [(0, 170.0, -1, 0.6), (0, 167.0, -1, 0.6), (0, 10.0, 1, 0.54), (0, 265.5, 1, 0.54),
                 (0, 288.0, -1, 0.6), (1, 147.5, 1, 0.6), (1, 49.0, -1, 0.6), (1, 50.0, -1, 0.6),
                 (2, 148.5, 1, 0.6), (2, 48.0, -1, 0.54), (2, 169.0, -1, 0.54)]


@pytest.mark.parametrize("seat, entry, side, speed", EDGE_CHAIN_3P)
def test_the_3p_edge_chain_stays_closed_at_a_faster_hand(lever_sweeps, seat, entry, side, speed):
    """Under model 4 each of these mediums, driven along the edge to the chord's end, swept a guard,
    a wrestler and the discs beyond it off the ring; now the hand lets go where its line passes
    nearest the centre, and at 0.6 m/s the push leaves every wrestler on the ring and off the
    centre circle, and the game goes on."""
    fast = Materials.load().with_overrides({"simulation.max_speed": 0.6})
    g = Game.new(players=3, wrestlers=lever_sweeps.lineup(3, "jade", "dora"), seed=0, first_player=seat,
                 materials=fast)
    g.push("medium", entry, side * g.world.steepest_heading("medium"), speed, end_turn=False)
    wrestlers = [s.piece_id for s in g.seats]
    assert all(w in g.world for w in wrestlers)
    assert not set(wrestlers) & set(g.world.in_circle())
    assert not g.is_over
