"""Text from files, made safe to show: the one helper every place that prints or draws it uses.

A replay, a saved game, a tuning profile or a card-table config is written by whoever sent it.
Its text (a wrestler key, ``meta.result``, an unknown field's name, a message quoting one) may
hold terminal escape sequences (``ESC [ 2 J`` clears the screen), newlines that forge extra
output lines, right-to-left overrides that reorder what is shown, or lone surrogates that cannot
be encoded at all (printing one raises ``UnicodeEncodeError``). :func:`shown` escapes all of
those and leaves every other character, accents and any script included, as it is:

>>> shown("Mike wins")
'Mike wins'
>>> shown("red \\x1b[31m alert\\nsecond line")
'red \\\\x1b[31m alert\\\\nsecond line'
>>> shown("lone \\ud800 surrogate"), shown("Kabuto \u7532\u866b")
('lone \\\\ud800 surrogate', 'Kabuto \u7532\u866b')

Standard library only and no pyglet, so the CLI, the app, the card table and the card CLI all use it
(this module is part of :mod:`kabuto_ui`, which the card code may import).
"""
from __future__ import annotations

import re

# C0 controls and DEL, C1 controls, line/paragraph separators, bidirectional embeddings, overrides
# and isolates, and the surrogate range (only lone surrogates ever reach a str).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    if c in _SHORT:
        return _SHORT[c]
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def shown(text: object) -> str:
    """``str(text)`` with control characters, line breaks, bidirectional overrides and lone
    surrogates written as escapes (``\\x1b``, ``\\n``, ``\\u202e``, ``\\ud800``): one line that any
    terminal or font shows as it reads and that every encoding can write."""
    return _UNSAFE.sub(_escape, str(text))


def shown_lines(text: object) -> str:
    """:func:`shown` line by line, keeping the line breaks: for multi-line labels, whose text is
    meant to break (every other control character is still escaped)."""
    return "\n".join(shown(line) for line in str(text).split("\n"))
