"""Benchmark: the replay parser is linear, whatever the file holds.

Two 8 MiB files (the largest a replay may be), parsed by the replay reader's parsing stage
(``kabuto.replay.format._parse``: size, UTF-8, nesting, JSON, forbidden numbers, duplicate keys;
what ``kabuto replay``, ``--list`` and ``--verify`` all start with, before any field is checked):

* **normal**: a recorded game's actions repeated up to 8 MiB (well-formed JSON in a replay's layout);
* **adversarial**: an unterminated string full of ``\\"``, the input that made the old
  string-blanking regex quadratic (a 65 kB file took 17 s; 8 MiB would have taken days).

Each is also timed at 1 MiB, so the growth from 1 to 8 MiB shows linearity directly (8x for a
linear parser, 64x for a quadratic one). The figures are ratios of the best of a few rounds.

    python tools/bench_parse.py           # a readable summary
    python tools/bench_parse.py --json    # one JSON object

Target (issue 17): adversarial / normal <= 2 at 8 MiB, and 8 MiB / 1 MiB <= 16 for both (linear 8, quadratic 64).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from kabuto.lab.games import rich_game
from kabuto.lab.parse_inputs import adversarial_string, normal_of_size, parse_cost
from kabuto.replay import format as rp

MIB = 1024 * 1024
TARGET_RATIO = 2.0
TARGET_GROWTH = 16.0




def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as d:
        _, rec, _ = rich_game(Path(d))
        normal = rec.path.read_bytes()
    t = {}
    for size, label in ((MIB, "1MiB"), (8 * MIB, "8MiB")):
        good = normal_of_size(normal, size - 64 * 1024)
        assert len(good) <= size and isinstance(rp._parse(good), dict)  # really parsed, not refused
        t[f"normal_{label}"] = parse_cost(good)
        t[f"adversarial_{label}"] = parse_cost(adversarial_string(size))
    out = {
        "seconds": t,
        "adversarial_over_normal_8MiB": t["adversarial_8MiB"] / t["normal_8MiB"],
        "growth_normal": t["normal_8MiB"] / t["normal_1MiB"],
        "growth_adversarial": t["adversarial_8MiB"] / t["adversarial_1MiB"],
    }
    ok = (out["adversarial_over_normal_8MiB"] <= TARGET_RATIO
          and out["growth_normal"] <= TARGET_GROWTH and out["growth_adversarial"] <= TARGET_GROWTH)
    out["ok"] = ok
    if args.json:
        print(json.dumps(out))
    else:
        print(f"8 MiB: adversarial {t['adversarial_8MiB'] * 1000:.0f} ms, normal "
              f"{t['normal_8MiB'] * 1000:.0f} ms: ratio {out['adversarial_over_normal_8MiB']:.2f} "
              f"(target <= {TARGET_RATIO:g})")
        print(f"1 -> 8 MiB growth: normal x{out['growth_normal']:.1f}, adversarial "
              f"x{out['growth_adversarial']:.1f} (linear 8, quadratic 64; target <= {TARGET_GROWTH:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
