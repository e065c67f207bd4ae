"""Every writer of the project goes through the one atomic write (:mod:`kabuto_base.fileio`): a
save or the settings is either the old file or the whole new one, and a failed write leaves no
temporary file behind (it used to: the card-table saves and the settings' fixed ``.tmp`` name)."""
from __future__ import annotations

import json

import pytest

from cards.table import saves
from cards.table.config import SeatSpec, TableConfig
from kabuto.app import settings
from kabuto_base import fileio


def _break_writes(monkeypatch):
    def broken(path, data):
        def write(tmp):
            with open(tmp, "w") as fh:
                fh.write("half")
            raise OSError(28, "No space left on device")
        return fileio.write_atomic_with(path, write)
    monkeypatch.setattr(saves, "write_atomic", broken)
    monkeypatch.setattr(settings, "write_atomic", broken)


def test_a_card_table_save_that_fails_keeps_the_old_save_and_leaves_no_litter(tmp_path, monkeypatch):
    config = TableConfig("sumo", (SeatSpec(), SeatSpec("bot")), seed=7)
    path = saves.save(tmp_path, config, {"turn": 1}, moves=1, name="game.json")
    _break_writes(monkeypatch)
    with pytest.raises(OSError):
        saves.save(tmp_path, config, {"turn": 2}, moves=2, name="game.json")
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert json.loads(path.read_text())["moves"] == 1


def test_settings_that_cannot_be_written_keep_the_old_ones_and_leave_no_litter(tmp_path, monkeypatch):
    settings.save(tmp_path, settings.Settings(pace="fast"))
    _break_writes(monkeypatch)
    settings.save(tmp_path, settings.Settings(pace="slow"))  # a full disk is not worth a crash
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
    assert settings.load(tmp_path).pace == "fast"
