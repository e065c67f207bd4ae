"""Reading data files and writing files atomically (shared by every part of the project).

A file the project writes is always either the old version or the complete new one: the data goes
to a hidden temporary file in the same folder, is flushed and fsynced, and only then renamed over
the target (``os.replace`` is atomic on one filesystem); the folder is fsynced so the rename
survives a power cut. If anything fails the temporary file is removed and the old file is untouched.
"""
from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any


def read_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Parse a TOML file; ValueError names the file and what is wrong with it."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML ({exc})") from None


def write_atomic_with(path: str | os.PathLike[str], write: Callable[[str], None]) -> Path:
    """Create ``path`` atomically; ``write(tmp_path)`` writes the temporary file (for writers that
    want a file name, such as matplotlib's ``savefig``)."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        os.chmod(tmp, 0o644)  # mkstemp makes it private; these are ordinary, shareable files
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return path
    try:
        os.fsync(dir_fd)
    except OSError:
        pass  # some filesystems cannot fsync a folder; the rename itself is still atomic
    finally:
        os.close(dir_fd)
    return path


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` atomically."""
    raw = data.encode("utf-8") if isinstance(data, str) else data

    def write(tmp: str) -> None:
        with open(tmp, "wb") as fh:
            fh.write(raw)

    return write_atomic_with(path, write)
