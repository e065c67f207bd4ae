"""The one error class of the tuning tools."""
from __future__ import annotations


class TuneError(ValueError):
    """Bad input to a tuning tool: a malformed scenario or targets file, an unknown parameter, a bad
    range. The message is one line naming the problem; ``kabuto tune`` prints it and exits 2."""
