"""tools/gen_setups.py: a board variant packs round the wrestlers where it is asked to put them."""
from __future__ import annotations

import math
import tomllib

import pytest

from tests.tools.conftest import load_tool


def test_a_variant_puts_the_wrestlers_and_the_centre_disc_where_asked_and_packs_without_overlaps(capsys):
    tool = load_tool("gen_setups")
    assert tool.main(["--players", "2", "--seed", "32", "--wrestler-out", "47", "--centre", "large",
                      "--outset", "0"]) == 0
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


@pytest.mark.parametrize("argv", [["--write", "--seed", "3"], ["--write", "--players", "2"],
                                  ["--wrestler-out", "90"], ["--centre", "huge"]])
def test_it_refuses_to_write_a_variant_over_the_shipped_boards_and_nonsense(argv):
    with pytest.raises(SystemExit) as e:
        load_tool("gen_setups").main(argv)
    assert e.value.code == 2


def test_the_shipped_boards_are_what_the_script_packs(capsys):
    """assets/setups.toml's boards are data the script made: packed again they come out the same,
    so a change to the packer that moves a shipped disc shows here."""
    import kabuto_assets

    assert load_tool("gen_setups").main([]) == 0
    shipped = kabuto_assets.path("setups.toml").read_text(encoding="utf-8")
    assert capsys.readouterr().out == shipped[shipped.index("[boards."):] + "\n"
