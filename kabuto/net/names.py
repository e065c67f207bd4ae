"""Players' display names: one spelling for each, and none that passes for somebody else.

A name is shown to every seat of a room, so the server takes no name that another seat could be
mistaken for. :func:`normalise` gives a name its one spelling (Unicode NFKC, so fullwidth ``Ｂｏｂ``
is ``Bob``; spaces collapsed and trimmed). :func:`skeleton` is what the eye sees of it: case
folded, letters of other scripts that look like Latin ones (Cyrillic ``а``, Greek ``ο``) and digits
that look like letters (``0``, ``1``) mapped to the Latin letter, separators dropped - the idea of
Unicode's confusable skeletons (UTS #39), for the characters a name may hold. :func:`check_name`
refuses a name whose skeleton is another seat's, or a name the server gives (``Bot 2``,
``Player 1``), or one that mixes Latin with Cyrillic or Greek letters.

    >>> check_name("  Ｂｏｂ   the  Bold ", [])
    'Bob the Bold'
    >>> check_name("B0T 2", [])
    Traceback (most recent call last):
    ...
    kabuto.net.names.BadName: 'B0T 2' looks like the name of a server bot or an empty seat
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

#: Letters of Cyrillic and Greek (lower case, after case folding) that look like a Latin letter,
#: and digits that look like letters.
_LOOKALIKE = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "l", "ї": "l", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x",
    "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ь": "b", "г": "r",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "μ": "u",
    # Latin and digits that pass for one another
    "0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "ı": "l",
})
_SEPARATORS = re.compile(r"[\s._'\-]+")
#: What the server names seats itself (a bot, an empty seat's player), and words that would
#: pass for the server.
_RESERVED = re.compile(r"(bot|player|seat|server|admln)[\dlos]*")
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


class BadName(ValueError):
    """A name the server does not take: the message says why, in one line."""


def normalise(name: str) -> str:
    """The name's one spelling: NFKC, runs of white space made one space, trimmed."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def skeleton(name: str) -> str:
    """What the eye sees of a name (see the module docstring): names with the same skeleton are
    too alike to tell apart at a glance."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    text = _SEPARATORS.sub("", text).translate(_LOOKALIKE)
    return text.replace("rn", "m").replace("vv", "w")


def _scripts(name: str) -> set[str]:
    out = set()
    for c in name:
        if c.isalpha():
            word = unicodedata.name(c, "").split(" ")[0]
            if word in _SCRIPTS:
                out.add(word)
    return out


def check_name(name: str, others: Iterable[str]) -> str:
    """``name`` normalised, if a seat may take it beside seats named ``others``; else BadName."""
    out = normalise(name)
    shown = repr(name[:40])
    if not out:
        raise BadName(f"{shown} has nothing to show: a name needs a letter or a digit")
    if not any(c.isalnum() for c in out):
        raise BadName(f"{shown} has no letter or digit")
    if len(_scripts(out)) > 1:
        raise BadName(f"{shown} mixes letters of {' and '.join(sorted(_scripts(out))).lower()} "
                         f"alphabets: write it in one")
    sk = skeleton(out)
    if _RESERVED.fullmatch(sk):
        raise BadName(f"{shown} looks like the name of a server bot or an empty seat")
    for other in others:
        if other and skeleton(other) == sk:
            raise BadName(f"{shown} looks like {other!r}, another seat's name: choose another")
    return out


__all__ = ["BadName", "check_name", "normalise", "skeleton"]
