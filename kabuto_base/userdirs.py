"""The per-user folders of the project: where its data (recorded games, saves, settings) and its
configuration (tuning profiles) live, as each platform expects them (``platformdirs``).

On Linux and the BSDs that is the XDG Base Directory layout, the same folders the project always
used: ``$XDG_DATA_HOME/kabuto`` (else ``~/.local/share/kabuto``) and ``$XDG_CONFIG_HOME/kabuto``
(else ``~/.config/kabuto``). A relative ``XDG_*`` value is ignored, as the specification says.
macOS and Windows get their own conventional folders. Nothing is created by asking.
"""
from __future__ import annotations

from pathlib import Path

import platformdirs

#: The folder name under each platform's per-user folders.
APP = "kabuto"


def user_data_dir() -> Path:
    """The per-user data folder (``~/.local/share/kabuto`` on Linux by default)."""
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def user_config_dir() -> Path:
    """The per-user configuration folder (``~/.config/kabuto`` on Linux by default)."""
    return Path(platformdirs.user_config_dir(APP, appauthor=False))
