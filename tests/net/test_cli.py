"""``kabuto serve`` and ``kabuto join`` as a person runs them: one-line errors, the help's example
plays as written, one JSON line with --json, and Ctrl-C stops the server cleanly."""
from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from kabuto.cli import main
from tests.net.helpers import WAIT, ServerProcess, env


@pytest.mark.parametrize(("argv", "says"), [
    (["serve", "--port", "99999"], "a port is 0..65535"),
    (["serve", "--linger", "soon"], "not a number of seconds"),
    (["join", "ws://127.0.0.1:1", "--bot", "easy"], "--game"),
    (["join", "ws://127.0.0.1:1", "--game", "chess", "--bot", "easy"], "--game 'chess': not one of kabuto"),
    (["join", "ws://127.0.0.1:1", "--game", "sumo", "--bot", "hard"], "not a bot level for sumo"),
    (["join", "ws://127.0.0.1:1", "--game", "sumo", "--bot", "mcts"], "levels: random, heuristic"),
    (["join", "127.0.0.1:8765", "--game", "kabuto", "--bot", "easy"], "is not a server address"),
])
def test_usage_errors_are_one_line_and_exit_2(argv, says, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"kabuto {argv[0]}: ") and says in err, err


def test_join_without_a_server_fails_with_one_line(capsys):
    assert main(["join", "ws://127.0.0.1:9", "--game", "sumo", "--bot", "random"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kabuto join: cannot connect to ws://127.0.0.1:9"), err


@pytest.mark.parametrize("command", ["serve", "join"])
def test_help_has_no_rest_markup(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "``" not in out and ":func:" not in out and ":class:" not in out


def test_the_example_in_join_help_plays_as_written_and_ctrl_c_stops_the_server(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["join", "--help"])
    example = capsys.readouterr().out.split("example: ", 1)[1].split("\n")[0].split()
    assert example[:2] == ["kabuto", "join"]
    server = ServerProcess(tmp_path / "data")
    try:
        r = subprocess.run([sys.executable, "-m", "kabuto", "join", server.url, *example[3:]],
                           capture_output=True, text=True, env=env(), timeout=WAIT)
    finally:
        server.proc.send_signal(signal.SIGINT)  # Ctrl-C
        server.proc.communicate(timeout=WAIT)
    assert r.returncode == 0, r.stderr
    (line,) = r.stdout.splitlines()
    result = json.loads(line)
    assert result["game"] == "sumo" and result["winners"] and isinstance(result["won"], bool)
    log = server.log.read_text()
    # (The finished game's room leaves the server once it is saved: by the time of Ctrl-C there
    # may be that one room or none left to save.)
    assert server.proc.returncode == 0 and "stopping: saving" in log and "stopped" in log
    meta = json.loads((tmp_path / "data" / "rooms" / f"{result['room']}.json").read_text())
    assert meta["status"] == "over" and (tmp_path / "data" / "replays" / meta["record"]).exists()


def test_serve_says_in_one_line_when_it_cannot_listen_or_keep_its_data(tmp_path, capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--data-dir", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"kabuto serve: cannot listen on 127.0.0.1:{port}"), err
    (tmp_path / "file").write_text("not a folder")
    assert main(["serve", "--port", "0", "--data-dir", str(tmp_path / "file" / "data")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists and is not a folder" in err, err
