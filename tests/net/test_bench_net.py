"""tools/bench_net.py --attack at its smallest size, so the benchmark does not rot (its figures are
read from its output by people, never asserted here: a benchmark is not a timed test)."""
from __future__ import annotations

import json
import subprocess
import sys

from tests.net.helpers import ROOT, env


def test_bench_net_attack_runs_at_its_smallest_size_and_prints_one_json_line():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_net.py"), "--attack", "--attack-rooms", "4",
                        "--pushes", "2", "--flooders", "1", "--idle", "10", "--seconds", "1"],
                       capture_output=True, text=True, env=env(), timeout=240)
    (line,) = r.stdout.splitlines()
    out = json.loads(line)
    assert out["public_rooms"] == 4 and out["attacked_pushes"] >= 1 and out["new_clients"] >= 1
    assert {"attacked_p95_ms", "p95_vs_quiet", "connect_share", "server_rss_mb", "ok"} <= out.keys()
    assert r.returncode == (0 if out["ok"] else 1)
