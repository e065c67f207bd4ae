#!/usr/bin/env python3
"""Synthesise the app's sounds into assets/sounds/*.wav: short, quiet, made here from sines and
seeded noise (no recordings, nothing downloaded), so the same command always writes the same bytes.

    python3 tools/make_sounds.py [OUT_DIR]      # default: assets/sounds

* push  - a soft felt-on-wood slide (low-passed noise, swelling and fading)
* clack - two wooden pieces knocking (a bright decaying tone over a click of noise)
* fall  - a piece dropping off the ring (a falling tone and a dull thud)
* win   - a short rising arpeggio
* card  - a card laid on felt (a brief flick of noise)

16-bit mono at 22050 Hz, each under a second.
"""
from __future__ import annotations

import argparse
import math
import random
import struct
import sys
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 22050


def _samples(seconds: float, fn: Callable[[float, int], float]) -> list[float]:
    return [fn(i / RATE, i) for i in range(int(seconds * RATE))]


def _lowpass(xs: list[float], a: float) -> list[float]:
    out, y = [], 0.0
    for x in xs:
        y += a * (x - y)
        out.append(y)
    return out


def push(rng: random.Random) -> list[float]:
    d = 0.45
    noise = _lowpass([rng.uniform(-1, 1) for _ in range(int(d * RATE))], 0.08)
    return [n * 2.2 * math.sin(math.pi * i / len(noise)) ** 2 for i, n in enumerate(noise)]


def clack(rng: random.Random) -> list[float]:
    return _samples(0.12, lambda t, i: math.exp(-t * 60) * (0.6 * math.sin(2 * math.pi * 1850 * t)
                                                            + 0.3 * math.sin(2 * math.pi * 2900 * t)
                                                            + 0.5 * rng.uniform(-1, 1) * math.exp(-t * 300)))


def fall(rng: random.Random) -> list[float]:
    def f(t: float, i: int) -> float:
        tone = 0.5 * math.sin(2 * math.pi * (520 - 900 * t) * t) * math.exp(-t * 6)
        thud = 0.0
        if t > 0.3:
            u = t - 0.3
            thud = 0.8 * math.sin(2 * math.pi * 90 * u) * math.exp(-u * 25)
        return tone + thud
    return _samples(0.55, f)


def win(rng: random.Random) -> list[float]:
    notes = (523.25, 659.25, 783.99, 1046.5)
    def f(t: float, i: int) -> float:
        k = min(3, int(t / 0.12))
        u = t - 0.12 * k
        env = math.exp(-u * (4 if k == 3 else 9))
        return 0.45 * env * (math.sin(2 * math.pi * notes[k] * t) + 0.3 * math.sin(4 * math.pi * notes[k] * t))
    return _samples(0.8, f)


def card(rng: random.Random) -> list[float]:
    noise = _lowpass([rng.uniform(-1, 1) for _ in range(int(0.09 * RATE))], 0.35)
    return [n * 1.4 * math.exp(-i / RATE * 45) for i, n in enumerate(noise)]


SOUNDS: dict[str, Callable[[random.Random], list[float]]] = {
    "push": push, "clack": clack, "fall": fall, "win": win, "card": card}


def write(path: Path, xs: list[float], peak: float = 0.6) -> None:
    top = max(1e-9, max(abs(x) for x in xs))
    frames = b"".join(struct.pack("<h", int(32767 * peak * x / top)) for x in xs)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = Path(__file__).resolve().parent.parent
    p.add_argument("out", nargs="?", type=Path, default=here / "assets" / "sounds")
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        path = args.out / f"{name}.wav"
        write(path, make(random.Random(name)))  # each sound its own seeded noise
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
