"""The five Junior League cards (data from ``assets/junior.toml``).

"Swap in the Junior League wrestler cards instead of the standard cards ... Each player replaces
their starting inventory with the pieces shown on their wrestler card." A Junior League card stands
for one of the eight wrestlers (same piece, same signature pieces) and lists its starting inventory:
standard discs and whole signature pieces (all copies of each listed signature piece). Junior League
cards have no signature moves.
"""
from __future__ import annotations

import functools
import textwrap
from dataclasses import dataclass
from pathlib import Path

import kabuto_assets
from kabuto.rules.inventory import STANDARD_KINDS
from kabuto.rules.specs import norm_name
from kabuto.rules.wrestlers import Wrestler, load_wrestlers
from kabuto_base.fileio import read_toml


@dataclass(frozen=True)
class JuniorCard:
    key: str
    name: str
    wrestler: Wrestler
    #: Standard discs the card starts with: {"small": 2, ...}.
    discs: dict[str, int]
    #: Keys of the wrestler's signature pieces the card starts with (every copy of each).
    signature: tuple[str, ...]
    text: str

    def signature_ids(self) -> list[str]:
        return [pid for k in self.signature for pid in self.wrestler.signature_piece(k).ids(self.wrestler.key)]


@functools.lru_cache(maxsize=8)
def _load(path: Path) -> tuple[JuniorCard, ...]:
    data = read_toml(path)
    by_key = {w.key: w for w in load_wrestlers()}
    out = []
    for i, d in enumerate(data.get("card", [])):
        where = f"{path.name}: card[{i}]"
        try:
            key, name, wkey, text = d["key"], d["name"], d["wrestler"], d["text"]
        except KeyError as exc:
            raise ValueError(f"{where}.{exc.args[0]}: missing") from None
        if wkey not in by_key:
            raise ValueError(f"{where}.wrestler: unknown wrestler {wkey!r}")
        w = by_key[wkey]
        discs = dict(d.get("inventory", {}))
        for k, n in discs.items():
            if k not in STANDARD_KINDS or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise ValueError(f"{where}.inventory.{k}: expected a count of small/medium/large discs")
        sig = tuple(d.get("signature", []))
        for s in sig:
            try:
                w.signature_piece(s)
            except KeyError:
                raise ValueError(f"{where}.signature: {w.name} has no signature piece {s!r}") from None
        out.append(JuniorCard(key, name, w, discs, sig, text))
    if len({c.wrestler.key for c in out}) != len(out):
        raise ValueError(f"{path.name}: two Junior League cards stand for the same wrestler")
    return tuple(out)


def load_junior(path: str | Path | None = None) -> tuple[JuniorCard, ...]:
    """The Junior League cards, in file order (cached)."""
    return _load(Path(path) if path else kabuto_assets.path("junior.toml"))


def junior_card(name: str) -> JuniorCard:
    """The Junior League card for this wrestler (key or name) or card (key or name)."""
    want = norm_name(name)
    for c in load_junior():
        if want in (c.key, norm_name(c.name), c.wrestler.key, norm_name(c.wrestler.name)):
            return c
    known = ", ".join(c.wrestler.key for c in load_junior())
    raise ValueError(f"no Junior League card for {name!r} (Junior League wrestlers: {known})")


def render_junior_card(c: JuniorCard, width: int = 78) -> str:
    """A Junior League card as plain text."""
    lines = [f"{c.name.upper()} ({c.wrestler.beetle})"]
    lines.extend(textwrap.wrap(c.text, width=width, initial_indent="  ", subsequent_indent="  "))
    return "\n".join(lines)
