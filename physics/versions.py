"""Which physics engine a result was computed with.

Chipmunk promises bit-identical results for the same operations on the same build and platform,
not across versions or processors, so a replay records these and ``kabuto replay --verify`` warns
when they differ from the running ones (a difference is a reason to expect drift, not a failure).

>>> sorted(engine())
['chipmunk', 'platform', 'pymunk']
"""
from __future__ import annotations

import platform
import sys

import pymunk


def engine() -> dict[str, str]:
    """The running pymunk and Chipmunk versions and the platform (OS and processor)."""
    return {
        "pymunk": pymunk.version,
        # pymunk reports "2.0.1-<git hash>"; the hash names the exact Chipmunk sources it built.
        "chipmunk": pymunk.chipmunk_version,
        "platform": f"{sys.platform}-{platform.machine()}",
    }


def describe(info: dict[str, str]) -> str:
    """``pymunk 7.3.1 (Chipmunk 2.0.1) on linux-x86_64``, for messages."""
    chip = str(info.get("chipmunk", "?")).split("-")[0]
    return f"pymunk {info.get('pymunk', '?')} (Chipmunk {chip}) on {info.get('platform', '?')}"
