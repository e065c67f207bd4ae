#!/usr/bin/env python3
"""Rewrite the tensor-layout tables of docs/openspiel.md from cards.openspiel_tensors.

Each table sits between ``<!-- tensor-table GAME PLAYERS KIND -->`` and ``<!-- end -->`` (KIND is
``observation`` or ``memory``: the pieces the information-state tensor adds). Run it after changing a
layout; ``tests/cards/test_openspiel.py`` fails while the page and the code disagree::

    python3 tools/openspiel_tables.py
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from cards import openspiel_tensors as ot

DOC = Path(__file__).resolve().parent.parent / "docs" / "openspiel.md"
MARK = re.compile(r"(<!-- tensor-table (\S+) (\d+) (observation|memory) -->\n)(.*?)(<!-- end -->)", re.S)


def table(game: str, players: int, kind: str) -> str:
    obs = ot.layout(game, players, False).pieces
    pieces = obs if kind == "observation" else ot.layout(game, players, True).pieces[len(obs):]
    total = sum(p.size for p in pieces)
    rows = ["| piece | shape | size | what it holds |", "|---|---|---|---|", *ot.describe(pieces),
            f"| **total** | | **{total}** | |"]
    return "\n".join(rows) + "\n"


def render(text: str) -> str:
    return MARK.sub(lambda m: m.group(1) + table(m.group(2), int(m.group(3)), m.group(4)) + m.group(6), text)


def main() -> int:
    DOC.write_text(render(DOC.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
