"""The player's settings (how pushes are paced, sound volume and mute, the last game's setup), kept in
``settings.json`` in the data folder (:func:`kabuto.replay.userdata.data_dir`). No pyglet.

A missing or unreadable file gives the defaults; a value out of range is replaced by its default,
so a hand-edited file never stops the app.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from kabuto.app.game_config import GameConfig
from kabuto_base.fileio import write_atomic

#: How pushes are played back: slow motion (the default: most pushes last 0.1-0.3 s and would look
#: like a snap), real time, or fast. The shown length is clamped so that no push is a blink and
#: none drags on (a slippery push may roll for half a minute of real time).
PACES: dict[str, tuple[float, float, float]] = {
    # name: (slow-down factor, shortest shown seconds, longest shown seconds)
    "slow": (4.0, 1.2, 6.0),
    "normal": (1.0, 0.0, 8.0),
    "fast": (0.5, 0.0, 3.0),
}
PACE_WORDS = {"slow": "slow motion", "normal": "real time", "fast": "fast"}


def playback_speed(duration: float, pace: str) -> float:
    """How much faster than real time a push of ``duration`` seconds plays at ``pace``.

    >>> round(playback_speed(0.2, "slow"), 3)   # 0.2 s shown for 1.2 s
    0.167
    >>> playback_speed(30.0, "slow")            # half a minute shown in 6 s
    5.0
    >>> playback_speed(0.2, "normal")
    1.0
    """
    factor, shortest, longest = PACES.get(pace, PACES["slow"])
    if duration <= 0:
        return 1.0
    shown = min(max(duration * factor, shortest), longest)
    return duration / shown


@dataclass(frozen=True)
class Settings:
    pace: str = "slow"
    volume: float = 0.7   # 0..1
    mute: bool = False
    setup: GameConfig | None = None   # the menu's last choices (never a seed: each game is new)
    tutorial_offered: bool = False    # the first launch's tutorial offer was made
    coach: bool | None = None         # the player's C switch; None: on against the beginner level only


def _file(data_dir: Path) -> Path:
    return data_dir / "settings.json"


def load(data_dir: Path) -> Settings:
    """The settings saved in ``data_dir`` (defaults for anything missing or wrong)."""
    try:
        raw = json.loads(_file(data_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(raw, dict):
        return Settings()
    d = Settings()
    pace = str(raw["pace"]) if raw.get("pace") in PACES else d.pace
    vol = raw.get("volume")
    volume = float(vol) if isinstance(vol, (int, float)) and 0.0 <= vol <= 1.0 else d.volume
    mute = bool(raw["mute"]) if isinstance(raw.get("mute"), bool) else d.mute
    offered = raw.get("tutorial_offered") is True
    coach = raw["coach"] if isinstance(raw.get("coach"), bool) else d.coach
    return Settings(pace, volume, mute, _setup(raw.get("setup")), offered, coach)


def _setup(raw: Any) -> GameConfig | None:
    """The saved setup, or None if it is missing or no longer valid (a wrestler or level renamed)."""
    if not isinstance(raw, dict):
        return None
    try:
        first = raw.get("first_player")
        return GameConfig(players=int(raw["players"]), seats=tuple(str(s) for s in raw["seats"]),
                          wrestlers=tuple(str(w) for w in raw.get("wrestlers") or ()),
                          junior=raw.get("junior") is True, seed=None,
                          ai_level=str(raw.get("ai_level", "medium")),
                          first_player=first if isinstance(first, int) else None)
    except (KeyError, TypeError, ValueError):
        return None


def save(data_dir: Path, settings: Settings) -> None:
    """Write the settings (atomically); an unwritable folder is not an error worth a crash."""
    try:
        raw = asdict(settings)
        if settings.setup is not None:
            raw["setup"].pop("seed", None)
        write_atomic(_file(data_dir), json.dumps(raw))
    except OSError:
        pass
