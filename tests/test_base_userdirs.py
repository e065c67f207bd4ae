"""The per-user folders stay where existing players' files are (Linux): the XDG folders when set to
an absolute path, the home defaults otherwise; a relative XDG value is ignored (XDG spec)."""
from __future__ import annotations

import sys

import pytest

from kabuto.app.tuning import default_profile_dir
from kabuto_base.userdirs import user_config_dir, user_data_dir

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG layout is Linux's")


@pytest.mark.parametrize("var, home_default, ask", [
    ("XDG_DATA_HOME", (".local", "share"), user_data_dir),
    ("XDG_CONFIG_HOME", (".config",), user_config_dir),
])
def test_the_folders_are_the_xdg_ones_and_relative_values_are_ignored(monkeypatch, tmp_path, var,
                                                                      home_default, ask):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv(var, raising=False)
    assert ask() == tmp_path.joinpath("home", *home_default, "kabuto")
    monkeypatch.setenv(var, "relative/is/ignored")
    assert ask() == tmp_path.joinpath("home", *home_default, "kabuto")
    monkeypatch.setenv(var, str(tmp_path / "xdg"))
    assert ask() == tmp_path / "xdg" / "kabuto"
    assert not (tmp_path / "xdg").exists()          # asking never creates anything


def test_tuning_profiles_stay_in_the_config_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert default_profile_dir() == tmp_path / "kabuto" / "tuning"
    monkeypatch.setenv("XDG_CONFIG_HOME", "")       # empty: unset, as the spec says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_profile_dir() == tmp_path / "home" / ".config" / "kabuto" / "tuning"
