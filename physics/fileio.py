"""Moved to :mod:`kabuto_base.fileio` (file reading and atomic writes are not physics); this name
stays only so modules not yet updated keep importing."""
from kabuto_base.fileio import (
    MAX_TOML_BYTES,
    STALE_TEMP_SECONDS,
    read_toml,
    remove_stale_temps,
    write_atomic,
    write_atomic_with,
)

__all__ = ["MAX_TOML_BYTES", "STALE_TEMP_SECONDS", "read_toml", "remove_stale_temps", "write_atomic",
           "write_atomic_with"]
