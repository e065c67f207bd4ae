"""The card-face data (``assets/cards/faces.toml``) and card names in words ("10♥", "Black A").

Pure data: no pyglet, no Pillow. :mod:`cards.table.card_art` draws faces from it; the move log
and the buttons print cards with :func:`pretty`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import kabuto_assets
from cards.table.config import read_data

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Special:
    """A card that is not rank + suit (a Joker, a Sumida River A card)."""

    label: str
    short: str
    colour: RGB
    centre: str
    sub: str = ""
    name: str = ""
    tint: RGB | None = None


@dataclass(frozen=True)
class GameFaces:
    back: RGB
    back_pattern: RGB
    back_border: RGB
    specials: dict[str, Special]


@dataclass(frozen=True)
class Faces:
    style: dict[str, Any]
    suits: dict[str, tuple[str, str, RGB]]  # letter -> (symbol, name, colour)
    ranks: dict[str, str]
    court: tuple[str, ...]
    court_frame: RGB
    games: dict[str, GameFaces]

    def game(self, name: str) -> GameFaces:
        try:
            return self.games[name]
        except KeyError:
            raise ValueError(f"faces: no card faces for game {name!r}") from None

    def rank_label(self, ch: str) -> str:
        return self.ranks.get(ch, ch)


def _rgb(v: Any, where: str) -> RGB:
    if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) and 0 <= x <= 255 for x in v)):
        raise ValueError(f"{where}: expected a colour [r, g, b] of 0..255")
    return (v[0], v[1], v[2])


def parse_faces(data: dict[str, Any], source: str = "faces.toml") -> Faces:
    """Check and convert the parsed TOML; ValueError names the bad entry."""
    style = dict(data.get("style", {}))
    for k in ("face", "edge"):
        style[k] = _rgb(style.get(k), f"{source}: style.{k}")
    suits = {}
    for letter, s in data.get("suits", {}).items():
        suits[letter] = (str(s["symbol"]), str(s["name"]), _rgb(s.get("colour"), f"{source}: suits.{letter}"))
    if set(suits) != set("CDHS"):
        raise ValueError(f"{source}: expected [suits.C], [suits.D], [suits.H] and [suits.S]")
    games = {}
    for name, g in data.get("games", {}).items():
        specials = {}
        for card, sp in g.get("specials", {}).items():
            where = f"{source}: games.{name}.specials.{card}"
            specials[card] = Special(
                label=str(sp["label"]), short=str(sp.get("short", sp["label"])),
                colour=_rgb(sp.get("colour"), where), centre=str(sp.get("centre", "")),
                sub=str(sp.get("sub", "")), name=str(sp.get("name", sp["label"].title())),
                tint=_rgb(sp["tint"], where) if "tint" in sp else None,
            )
        where = f"{source}: games.{name}"
        games[name] = GameFaces(_rgb(g.get("back"), where + ".back"),
                                _rgb(g.get("back_pattern"), where + ".back_pattern"),
                                _rgb(g.get("back_border"), where + ".back_border"), specials)
    court = data.get("court", {})
    return Faces(style, suits, {str(k): str(v) for k, v in data.get("ranks", {}).items()},
                 tuple(court.get("ranks", ())), _rgb(court.get("frame", [200, 170, 80]), f"{source}: court"),
                 games)


@lru_cache(maxsize=2)
def _load(path: str) -> Faces:
    p = Path(path)
    return parse_faces(read_data(p, "card-face"), p.name)


def faces() -> Faces:
    """The card-face data (read once)."""
    return _load(str(kabuto_assets.path("cards", "faces.toml")))


def split(card: str) -> tuple[str, str]:
    """(rank character, suit letter) of a rank-suit card name."""
    return card[:-1], card[-1]


def pretty(card: str, game: str) -> str:
    """A card in words for the log and buttons: ``"10♥"``, ``"J♣"``, ``"Joker"``, ``"Red A"``."""
    f = faces()
    sp = f.games.get(game, None)
    if sp is not None and card in sp.specials:
        return sp.specials[card].name
    rank, suit = split(card)
    if suit not in f.suits:
        return card
    return f.rank_label(rank) + f.suits[suit][0]


def pretty_list(cards: list[str], game: str, sep: str = " ") -> str:
    return sep.join(pretty(c, game) for c in cards)
