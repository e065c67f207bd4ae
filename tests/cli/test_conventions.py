"""The ``kabuto`` command behaves like installed software: versions, help texts that play as
written, one-line errors, quiet progress when nobody watches, and a package that ships its data."""
from __future__ import annotations

import fnmatch
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import kabuto_assets
from kabuto.cli import UsageError, main, require_extra

ROOT = Path(__file__).resolve().parents[2]


def kabuto(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None,
           timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``python -m kabuto ARGS`` the way a person does, in a folder outside the checkout."""
    return subprocess.run([sys.executable, "-m", "kabuto", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, cwd=cwd, timeout=timeout)


def test_version_names_kabuto_pymunk_chipmunk_pyglet_and_python(tmp_path):
    import pyglet
    import pymunk

    r = kabuto("--version", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"pymunk {pymunk.version} (Chipmunk {pymunk.chipmunk_version.split('-')[0]})" in r.stdout
    assert f"pyglet {pyglet.version}" in r.stdout
    assert f"Python {sys.version.split()[0]}" in r.stdout
    assert re.search(r"^kabuto \d+\.\d+", r.stdout, re.M)


def test_tune_list_names_every_scenario_file(capsys):
    assert main(["tune", "list"]) == 0
    out = capsys.readouterr().out
    names = sorted(p.stem for p in kabuto_assets.path("scenarios").glob("*.toml")
                   if p.stem != "calibration-example")
    assert names and all(re.search(rf"^{re.escape(n)}:", out, re.M) for n in names)


def test_the_example_in_sim_help_plays_as_written(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    help_text = capsys.readouterr().out
    intro, example = help_text.split("example pushes file (play it with: ", 1)[1].split("):\n", 1)
    example = example[: example.index("]") + 1]
    pushes = tmp_path / "pushes.json"
    pushes.write_text(example)
    steps = json.loads(example)
    command = intro.split()
    assert command[:2] == ["kabuto", "sim"] and command[-1] == "FILE"
    assert main([*command[1:-1], str(pushes), "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("used ") == sum("move" in s for s in steps) == 1
    assert out.count("pushed ") == sum("piece" in s for s in steps) == 2


@pytest.mark.parametrize("command", ["demo", "sim", "replay", "wrestlers", "tournament", "tune", "play"])
def test_help_has_no_rest_markup(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "``" not in out and ":func:" not in out and ":class:" not in out


def test_cards_help_lists_each_command_once(capsys):
    assert main(["cards", "--help"]) == 0
    out = capsys.readouterr().out
    for name in ("selfplay", "play", "games"):
        assert len(re.findall(rf"^\s+{name}\s", out, re.M)) == 1, out


def test_cards_games_shows_no_internal_file_names(capsys):
    assert main(["cards", "games"]) == 0
    out = capsys.readouterr().out
    assert "SUMO" in out and "Sumida River" in out and "Sumo Card Game" in out
    assert ".txt" not in out and "rulebook" not in out and "_" not in out


def test_progress_bars_stay_off_when_stderr_is_not_a_terminal(tmp_path):
    r = kabuto("cards", "selfplay", "sumo", "--games", "25", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == ""
    assert json.loads(r.stdout)["games"] == 25


def test_replay_with_no_display_names_itself(tmp_path):
    data = tmp_path / "data"
    pushes = tmp_path / "p.json"
    pushes.write_text('[{"piece": "small", "entry_deg": 180, "speed": 0.3}]')
    assert kabuto("sim", "--pushes", str(pushes), "--data-dir", str(data)).returncode == 0
    (replay,) = (data / "replays").glob("*.replay.json")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "PYGLET_HEADLESS")}
    r = subprocess.run([sys.executable, "-m", "kabuto", "replay", str(replay)], capture_output=True,
                       text=True, env=env, cwd=tmp_path, timeout=60)
    assert r.returncode == 3
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("kabuto replay: no display") and f"xvfb-run -a kabuto replay {replay}" in line
    assert "kabuto play" not in line


def test_window_size_is_checked_before_the_display(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "PYGLET_HEADLESS")}
    r = subprocess.run([sys.executable, "-m", "kabuto", "play", "--size", "big"], capture_output=True,
                       text=True, env=env, cwd=tmp_path, timeout=60)
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()
    assert "--size" in line and "display" not in line


def _no_ray_running(within: float) -> bool:
    """Whether no Ray server process is alive, waiting up to ``within`` seconds for one that a
    test just shut down to exit."""
    import time
    from pathlib import Path

    def running() -> bool:
        for d in Path("/proc").iterdir():
            try:
                if d.name.isdigit() and b"gcs_server" in (d / "cmdline").read_bytes():
                    return True
            except OSError:
                continue
        return False

    deadline = time.monotonic() + within
    while running():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


@pytest.mark.xdist_group("ray")  # never beside a test that starts a Ray instance "auto" would find
def test_ray_with_no_cluster_is_one_clear_line(tmp_path):
    pytest.importorskip("ray")
    if not _no_ray_running(within=60.0):  # "auto" joins any Ray it finds running on this machine
        pytest.skip("a Ray instance is running on this machine")
    r = kabuto("tournament", "--games", "1", "--wrestlers", "mike,hank", "--backend", "ray",
               "--ray-address", "auto", "--out", str(tmp_path / "out"), cwd=tmp_path,
               env={"RAY_ADDRESS": ""}, timeout=300)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr
    assert lines[0].startswith("kabuto tournament: --backend ray: cannot reach the Ray cluster at 'auto'")


def test_a_missing_extra_is_named_in_one_line(monkeypatch, capsys):
    with pytest.raises(UsageError, match=r"pip install 'kabuto\[tools\]'"):
        require_extra("no_such_module_for_this_test", "tools", "this")
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "scipy" else real(name, *a))
    targets = kabuto_assets.path("scenarios", "calibration-example.toml")
    assert main(["tune", "calibrate", "--targets", str(targets)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["kabuto tune: kabuto tune calibrate needs the optional 'tools' dependencies: "
                   "pip install 'kabuto[tools]'"]


def test_python_dash_m_kabuto_is_the_kabuto_command(tmp_path):
    r = kabuto("--help", cwd=tmp_path)
    assert r.returncode == 0 and "commands:" in r.stdout and "tournament" in r.stdout


# ----- the package ------------------------------------------------------------------------------
def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_folder_is_listed_in_pyproject():
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for top in ("physics", "kabuto", "cards", "kabuto_base", "kabuto_ui")
             for p in (ROOT / top).rglob("__init__.py")}
    assert found | {"kabuto_assets"} == listed


def test_every_data_file_ships_in_the_wheel():
    globs = _pyproject()["tool"]["setuptools"]["package-data"]["kabuto_assets"]
    assets = ROOT / "assets"
    files = [p.relative_to(assets).as_posix() for p in assets.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py"]
    assert files
    unshipped = [f for f in files if not any(fnmatch.fnmatch(f, g) and f.count("/") == g.count("/")
                                             for g in globs)]
    assert unshipped == []


def test_no_code_finds_data_next_to_its_own_file():
    offenders = []
    for top in ("physics", "kabuto", "cards"):
        for path in (ROOT / top).rglob("*.py"):
            text = path.read_text()
            if re.search(r"__file__.*assets|parents?\[\d\].*assets", text):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_replays_record_the_engine_and_verify_warns_when_it_differs(tmp_path, capsys):
    from physics.versions import engine

    pushes = tmp_path / "p.json"
    pushes.write_text('[{"piece": "small", "entry_deg": 180, "speed": 0.3}]')
    assert main(["sim", "--pushes", str(pushes), "--data-dir", str(tmp_path)]) == 0
    (replay,) = (tmp_path / "replays").glob("*.replay.json")
    data = json.loads(replay.read_text())
    assert data["meta"]["engine"] == engine()
    capsys.readouterr()
    assert main(["replay", str(replay), "--verify"]) == 0
    assert "warning" not in capsys.readouterr().err
    data["meta"]["engine"] = {**engine(), "pymunk": "6.0.0", "platform": "win32-ARM64"}
    replay.write_text(json.dumps(data))
    assert main(["replay", str(replay), "--verify"]) == 0  # a warning, not a failure
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kabuto replay: warning: recorded with pymunk 6.0.0")
    assert "win32-ARM64" in err[0]


def test_a_ray_address_where_nothing_listens_is_one_clear_line_at_once(tmp_path):
    pytest.importorskip("ray")
    import socket

    with socket.socket() as s:  # a loopback port nothing listens on (bound, then let go)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = kabuto("tournament", "--games", "1", "--wrestlers", "mike,hank", "--backend", "ray",
               "--ray-address", f"127.0.0.1:{port}", "--out", str(tmp_path / "out"), cwd=tmp_path,
               env={"RAY_ADDRESS": ""}, timeout=120)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr
    assert lines[0].startswith(f"kabuto tournament: --backend ray: cannot reach the Ray cluster at "
                               f"'127.0.0.1:{port}'")
