"""Short sounds (a push, a clack, a fall, a win, a card laid down), played with pyglet.media.

:class:`Sounds` is silent unless it can really play: it stays silent under ``KABUTO_SOUND=0`` (the
tests set it), in pyglet's headless mode, and when pyglet finds no audio device (an Xvfb session,
a server) - then ``pyglet.media`` uses its silent driver, or loading fails and is caught. Nothing
here raises: a missing file or a broken driver is one sound less, never a crash.

Files are ``<name>.wav`` in the folder given (the app passes ``kabuto_assets.path("sounds")``;
``tools/make_sounds.py`` makes them). Volume (0..1) and mute are the player's settings.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

NAMES = ("push", "clack", "fall", "win", "card")


def sound_wanted() -> bool:
    """False where sound must stay off: ``KABUTO_SOUND=0`` (tests), pyglet headless."""
    if os.environ.get("KABUTO_SOUND", "1") == "0":
        return False
    import pyglet

    return not pyglet.options.get("headless", False)


class Sounds:
    """The app's sounds. ``play(name)`` starts one (and returns at once); ``volume`` and ``muted``
    follow the settings; ``on_change(volume, muted)`` is told when the player changes them."""

    def __init__(self, folder: Path | None, volume: float = 0.7, muted: bool = False,
                 on_change: Callable[[float, bool], None] | None = None,
                 enabled: bool | None = None):
        self.folder = folder
        self.volume = max(0.0, min(1.0, volume))
        self.muted = muted
        self.on_change = on_change
        self.enabled = sound_wanted() if enabled is None else enabled
        self._loaded: dict[str, Any] = {}
        self.played: list[str] = []  # what was asked to play (tests read it; sound or not)

    def _source(self, name: str) -> Any:
        if name not in self._loaded:
            self._loaded[name] = None
            if self.folder is not None and (self.folder / f"{name}.wav").is_file():
                try:
                    import pyglet.media

                    self._loaded[name] = pyglet.media.load(str(self.folder / f"{name}.wav"),
                                                           streaming=False)
                except Exception:  # no driver, no decoder: this sound stays silent
                    self._loaded[name] = None
        return self._loaded[name]

    def play(self, name: str) -> None:
        self.played.append(name)
        if not self.enabled or self.muted or self.volume <= 0.0:
            return
        source = self._source(name)
        if source is None:
            return
        try:
            player = source.play()
            player.volume = self.volume
        except Exception:  # a driver that fails at play time: silence, not a crash
            self.enabled = False

    # ----- the settings ------------------------------------------------------------------------------
    LEVELS = (1.0, 0.7, 0.4, 0.0)  # the pause menu's Sound button steps through these (0: off)

    def describe(self) -> str:
        if self.muted or self.volume <= 0.0:
            return "Sound: off"
        return f"Sound: {int(round(self.volume * 100))}%"

    def next_level(self) -> None:
        """Louder to quieter to off and round again (the pause menu's Sound button)."""
        now = 0.0 if self.muted else self.volume
        later = [v for v in self.LEVELS if v < now - 1e-6]
        nxt = later[0] if later else self.LEVELS[0]
        self.muted = nxt <= 0.0
        self.volume = nxt if nxt > 0 else self.volume
        if self.on_change is not None:
            self.on_change(self.volume, self.muted)
