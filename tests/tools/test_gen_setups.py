"""tools/gen_setups.py: a board variant packs round the wrestlers where it is asked to put them, and
the shipped boards are packings of the shipped designs."""
from __future__ import annotations

import math
import tomllib
from dataclasses import replace

import pytest

from tests.tools.conftest import load_tool


def test_a_variant_puts_the_wrestlers_and_the_centre_disc_where_asked_and_packs_without_overlaps(capsys):
    tool = load_tool("gen_setups")
    assert tool.main(["--players", "2", "--seed", "32", "--wrestler-out", "47", "--centre", "large",
                      "--outset", "0", "--aside", "0"]) == 0
    board = tomllib.loads(capsys.readouterr().out)["boards"]["2"]
    assert board["second_outset"] == 0
    assert [tuple(p) for p in board["wrestler"]] == [(0.047, 0.0), (-0.047, 0.0)]
    assert [0.0, 0.0] in board["large"] and [0.0, 0.0] not in board["medium"]
    r = {k: v / 1000.0 for k, v in tool.CRAMMED_RADIUS.items()}
    discs = [(x, y, r[k]) for k in ("large", "medium", "small") for x, y in board[k]]
    assert [len(board[k]) for k in ("large", "medium", "small")] == [3, 8, 14]
    for i, (x, y, a) in enumerate(discs):
        assert math.hypot(x, y) + a <= tool.CRAMMED_RING / 1000.0 + 1e-5  # wholly on the ring
        for u, v, b in discs[i + 1:]:
            assert math.hypot(x - u, y - v) >= a + b - 1e-5


@pytest.mark.parametrize("argv", [["--write", "--seed", "3"], ["--write", "--aside", "12"],
                                  ["--wrestler-out", "90"], ["--centre", "huge"], ["--aside", "-1"]])
def test_it_refuses_to_write_a_variant_over_the_shipped_boards_and_nonsense(argv):
    with pytest.raises(SystemExit) as e:
        load_tool("gen_setups").main(argv)
    assert e.value.code == 2


def test_writing_one_board_leaves_the_others_as_they_were():
    """``--write --players 2`` replaces only the [boards.2] table: the other boards are packings
    this machine may not repeat digit for digit (below), so they are not rewritten unasked."""
    tool = load_tool("gen_setups")
    text = "# head\n[supply]\nlarge = 5\n\n[boards.2]\nwrestler = [[1, 0]]\n\n[boards.3]\n# kept\nsmall = []\n"
    out = tool._replace_table(text, 2, "[boards.2]\nwrestler = [[2, 0]]")
    assert out == text.replace("[[1, 0]]", "[[2, 0]]")
    last = tool._replace_table(text, 3, "[boards.3]\nsmall = [[0, 0]]")
    assert last.startswith(text[: text.index("[boards.3]")]) and last.endswith("small = [[0, 0]]\n")
    added = tool._replace_table(text, 4, "[boards.4]\nsmall = []")
    assert added.startswith(text) and tomllib.loads(added)["boards"]["4"] == {"small": []}


def test_the_two_player_wrestlers_stand_aside_of_the_line_through_the_centre(capsys):
    """``--aside``: both 2P wrestlers that far to one side of the line through the centre, mirror
    images of each other."""
    tool = load_tool("gen_setups")
    assert tool.main(["--players", "2", "--aside", "10", "--outset", "0"]) == 0
    board = tomllib.loads(capsys.readouterr().out)["boards"]["2"]
    assert [tuple(p) for p in board["wrestler"]] == [(0.033, 0.01), (-0.033, 0.01)]


@pytest.mark.parametrize("aside", [0.0, 5.0])
def test_each_four_player_team_can_stand_aside_of_its_line_through_the_centre(aside):
    """``--aside`` on the 4P board: seats 0 and 2 that far to one side of their line through the
    centre, and the reflection across y = -x puts the other team as far to the other side of its
    own, each wrestler onto one of the other team (docs/rules-notes.md, "The 4P board's opening").
    With none (the shipped board) no coordinate is -0.0, which would turn a wrestler's facing."""
    tool = load_tool("gen_setups")
    _, _, spots = tool._crammed_layout(replace(tool.Design.shipped(4), aside=aside))
    out = tool.WRESTLER_OUT[4]
    assert spots == [(out, aside), (-aside, out), (-out, aside), (-aside, -out)]
    for seat, (x, y) in enumerate(spots):
        assert spots.index(SYMMETRY[4](x, y)) % 2 != seat % 2
    assert all(math.copysign(1.0, v) > 0 for spot in spots for v in spot if v == 0.0)


#: The shipped boards' symmetry (tools/gen_setups.py's docstring): 2P its own mirror x -> -x,
#: 3P a third of a turn, 4P the mirror y = -x between the teams.
_C, _S = math.cos(2 * math.pi / 3), math.sin(2 * math.pi / 3)
SYMMETRY = {2: lambda x, y: (-x, y), 3: lambda x, y: (_C * x - _S * y, _S * x + _C * y),
            4: lambda x, y: (-y, -x)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shipped_boards_are_packings_of_the_scripts_designs(players):
    """assets/setups.toml's boards are what the script's shipped designs pack to: the rulebook's
    counts, the wrestlers (3P: side-on, nearer the centre) and the centre disc where the design
    puts them, every disc wholly on the ring with the design's gap to its neighbours, and the
    board's symmetry. (Not the same digits:
    L-BFGS's path follows the CPU's floating-point kernels, so another machine may settle the same
    design into another packing just as good.)"""
    import kabuto_assets

    tool = load_tool("gen_setups")
    design = tool.Design.shipped(players)
    board = tomllib.loads(kabuto_assets.path("setups.toml").read_text(encoding="utf-8"))["boards"][str(players)]
    mm = 1000.0
    assert board.get("second_outset", 0) * mm == pytest.approx(design.outset)
    _, _, spots = tool._crammed_layout(design)
    assert board["wrestler"] == [[round(x / mm, 5) + 0.0, round(y / mm, 5) + 0.0]
                                 for x, y in tool.standing_spots(players, spots)]
    assert board.get("wrestler_turn", 0) == tool.PINWHEEL.get(players, (0, 0))[1]
    assert [0.0, 0.0] in board[design.centre]
    counts = {2: [3, 8, 14], 3: [3, 10, 12], 4: [3, 6, 14]}[players]
    assert [len(board[k]) for k in ("large", "medium", "small")] == counts
    r = {k: v / mm for k, v in tool.CRAMMED_RADIUS.items()}
    gap, digits = tool.CRAMMED_GAP / mm, 2e-5  # the file keeps 0.01 mm
    discs = [(x, y, r[k]) for k in ("large", "medium", "small") for x, y in board[k]]
    for i, (x, y, a) in enumerate(discs):
        assert math.hypot(x, y) + a + gap <= tool.CRAMMED_RING / mm + digits
        for u, v, b in discs[i + 1:]:
            assert math.hypot(x - u, y - v) >= a + b + gap - digits
    image = SYMMETRY[players]
    for kind in ("wrestler", "large", "medium", "small"):
        for x, y in board[kind]:
            u, v = image(x, y)
            assert min(math.hypot(u - p, v - q) for p, q in board[kind]) < digits, (kind, x, y)
