"""Fixtures for the replay tests.

Every test runs with ``KABUTO_DATA_DIR`` pointing at its own temporary folder, so nothing is ever
recorded into the real per-user data folder. The recorded games are played once per session (they
cost a second or two) into a session folder and copied by the tests that change them.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from kabuto import Game
from tests.replay.games import rich_game


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch) -> Path:
    """The per-user data folder for this test (empty, not created yet)."""
    d = tmp_path / "kabuto-data"
    monkeypatch.setenv("KABUTO_DATA_DIR", str(d))
    return d


@dataclass(frozen=True)
class Recorded:
    """A game recorded to ``path``; ``game`` is the live game as it stood at the end."""

    path: Path
    game: Game
    undone_hash: str | None = None

    def copy_to(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copy(self.path, folder / self.path.name))


@pytest.fixture(scope="session")
def rich(tmp_path_factory) -> Recorded:
    """Pushes, a signature move, edits, a tuning change and an undo (see games.rich_game)."""
    folder = tmp_path_factory.mktemp("rich")
    game, rec, undone = rich_game(folder)
    return Recorded(rec.path, game, undone)
