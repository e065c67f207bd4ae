"""The per-user data folder: where every game's replay is recorded.

Which folder, first match wins:

1. an explicit folder (the ``--data-dir`` option of ``kabuto sim``, ``kabuto replay``, ...);
2. the ``KABUTO_DATA_DIR`` environment variable (tests and CI point it at a temporary folder);
3. the platform's per-user data folder (:func:`kabuto_base.userdirs.user_data_dir`): on Linux
   ``$XDG_DATA_HOME/kabuto`` when ``XDG_DATA_HOME`` is an absolute path (the XDG Base Directory
   spec says a relative value is to be ignored), else ``~/.local/share/kabuto``.

Replays live in its ``replays/`` sub-folder. Nothing is created until :func:`ensure_dir` is called,
so merely asking where the folder is never writes anything.
"""
from __future__ import annotations

import os
from pathlib import Path

from kabuto_base.userdirs import user_data_dir

#: The environment variable that moves the data folder (below an explicit option).
ENV_VAR = "KABUTO_DATA_DIR"
#: The sub-folder replays are recorded in.
REPLAYS = "replays"


class UserDataError(ValueError):
    """The data folder cannot be used (not a folder, cannot be created, not writable)."""


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The per-user data folder (see the module docstring for the order of precedence)."""
    if override is not None and str(override) != "":
        return Path(override).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return user_data_dir()


def replays_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The folder games are recorded in: ``<data folder>/replays``."""
    return data_dir(override) / REPLAYS


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (and its parents) if needed and check it is a writable folder.

    Raises :class:`UserDataError` with a one-line reason, so a bad ``--data-dir`` is reported
    before a game starts rather than when its first turn is saved.
    """
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), path)
        raise UserDataError(f"{blocker}: exists and is not a folder") from None
    except OSError as exc:
        raise UserDataError(f"{path}: cannot create the folder ({exc.strerror})") from None
    if not path.is_dir():
        raise UserDataError(f"{path}: exists and is not a folder")
    if not os.access(path, os.W_OK | os.X_OK):
        raise UserDataError(f"{path}: the folder is not writable")
    return path
