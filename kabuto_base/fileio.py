"""Reading data files and writing files atomically (the base layer: every package of the project uses it).

A file the project writes is always either the old version or the complete new one: the data goes
to a hidden temporary file in the same folder, is flushed and fsynced, and only then renamed over
the target (``os.replace`` is atomic on one filesystem); the folder is fsynced so the rename
survives a power cut. If anything fails the temporary file is removed and the old file is untouched.
A process killed between creating and renaming the temporary file leaves it behind; the next write
to that folder (at most once a minute per folder and process) removes such leftovers once they are
a minute old (:func:`remove_stale_temps`).
"""
from __future__ import annotations

import os
import re
import secrets
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Data files are small; a bigger one is refused before it is read.
MAX_TOML_BYTES = 4 * 1024 * 1024


def read_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Parse a TOML file; ValueError names the file and what is wrong with it.

    A UTF-8 byte order mark at the start is allowed (editors on Windows write one; TOML itself
    forbids it, so it is dropped before parsing).
    """
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_TOML_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror})") from None
    if len(raw) > MAX_TOML_BYTES:
        raise ValueError(f"{path}: too large (a data file is at most {MAX_TOML_BYTES} bytes)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML ({exc})") from None


#: The temporary files :func:`write_atomic_with` makes: ``.<name>.<8 random characters>.tmp``
#: (8 hex digits). Only files of this shape are ever cleaned up.
_OUR_TEMP = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")
#: A temporary file older than this is a leftover (a process killed mid-write); a younger one may
#: belong to a write still in progress in another process.
STALE_TEMP_SECONDS = 60.0


#: When this process last cleaned each folder (``time.monotonic()``).
_last_cleaned: dict[str, float] = {}


def remove_stale_temps(folder: str | os.PathLike[str], now: float | None = None) -> list[Path]:
    """Delete our leftover temporary files in ``folder`` (matching ``.<name>.<random>.tmp`` and
    last changed more than a minute ago); return the ones removed. Errors are ignored: cleaning up
    must never stop a write."""
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for e in entries:
        if not e.name.startswith(".") or not _OUR_TEMP.fullmatch(e.name):
            continue
        try:
            if e.is_file(follow_symlinks=False) and now - e.stat(follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS:
                os.unlink(e.path)
                removed.append(Path(e.path))
        except OSError:
            pass
    return removed


#: How :func:`write_atomic_with` creates its temporary file: new, never an existing one.
_CREATE_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def write_atomic_with(path: str | os.PathLike[str], write: Callable[[str], None]) -> Path:
    """Create ``path`` atomically; ``write(tmp_path)`` writes the temporary file (for writers that
    want a file name, such as matplotlib's ``savefig``)."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    # What an earlier process killed mid-write left behind. Once a minute per folder is enough (a
    # leftover is only removed once a minute old anyway), and a folder of many files - a server's
    # replays - is not listed again on every write.
    now = time.monotonic()
    key = os.path.abspath(folder)
    if now - _last_cleaned.get(key, -STALE_TEMP_SECONDS) >= STALE_TEMP_SECONDS:
        _last_cleaned[key] = now
        remove_stale_temps(folder)
    # The temporary file's name is known before the file exists, so an interrupt at any point -
    # even between creating it and the next line - leaves nothing behind (with mkstemp, a Ctrl-C
    # landing as it returned left an empty temporary file).
    tmp: str | None = None
    try:
        for _ in range(100):
            tmp = str(folder / f".{path.name}.{secrets.token_hex(4)}.tmp")
            try:
                os.close(os.open(tmp, _CREATE_NEW, 0o600))
                break
            except FileExistsError:
                tmp = None  # another write's file, never ours to remove
        else:
            raise FileExistsError(f"{folder}: no free name for a temporary file beside {path.name}")
        os.chmod(tmp, 0o644)  # ordinary, shareable files, whatever the umask
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if tmp is not None:
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
