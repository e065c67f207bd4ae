"""Inputs for timing the replay parser: well-formed files of any size in a replay's layout, and the
adversarial string that once made the parser quadratic (``tools/bench_parse.py`` and the tests)."""
from __future__ import annotations

import json
import time

from kabuto.replay import format as rp


def adversarial_string(size: int) -> bytes:
    """``size`` bytes of an unterminated string full of ``\\"`` (what made the old parser
    quadratic)."""
    head = b'{"format": "'
    return head + b'\\"' * ((size - len(head)) // 2)


def normal_of_size(normal: bytes, size: int) -> bytes:
    """Well-formed JSON of about ``size`` bytes in a replay's layout: the normal file's actions
    repeated (a long list of actions is what real files grow by). For timing the parser only: the
    repeated actions do not make a valid game."""
    data = json.loads(normal)
    actions = data["actions"]
    per_copy = len(json.dumps(actions))
    data["actions"] = actions * max(1, -(-(size - len(normal)) // per_copy) + 1)
    return rp.dumps(data).encode()


def parse_cost(raw: bytes, rounds: int = 3) -> float:
    """Best-of-``rounds`` seconds for the replay parser to accept or refuse ``raw`` (used by the
    parse-cost test and tools/bench_parse.py, so both time the same thing)."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        try:
            rp._parse(raw)
        except rp.BadReplayFile:
            pass
        best = min(best, time.perf_counter() - t0)
    return best
