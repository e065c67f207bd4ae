"""The wrestler cards: who they are, their pieces, their signature moves (data from assets/).

``assets/wrestlers.toml`` holds the eight cards. Each wrestler's piece and signature pieces are
:class:`physics.PieceType` kinds, parsed with :func:`physics.materials.piece_type_from_dict` and named
``<key>_wrestler`` and ``<key>_<signature key>`` (no dots: tuning keys use dots). Piece ids are
``<key>:wrestler`` and ``<key>:<signature key><n>`` (``hank:bar1``, ``jade:gem1..3``).

The move *effects* live in :mod:`kabuto.rules.moves`; here a move is its card data
(:class:`kabuto.rules.specs.MoveSpec`: name, text, cost, effect type and parameters), and the parser
checks that every effect a card names is one of :data:`kabuto.rules.moves.EFFECTS`.

    >>> from kabuto.rules.wrestlers import wrestler, render_card
    >>> print(render_card(wrestler("Mighty Jaw Mike")).splitlines()[0])
    MIGHTY JAW MIKE (Giant Stag Beetle)
"""
from __future__ import annotations

import functools
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kabuto_assets
from kabuto.rules.inventory import STANDARD_KINDS, signature_ids, wrestler_id
from kabuto.rules.moves import EFFECTS
from kabuto.rules.specs import COST_ACTIONS, Cost, MoveSpec, norm_name
from kabuto_base.fileio import read_toml
from physics import PieceType
from physics.materials import piece_type_from_dict

#: Room the starting boards leave around a wrestler spot (metres from the piece's centre of mass).
MAX_WRESTLER_SIZE = 0.017


@dataclass(frozen=True)
class SignaturePiece:
    """A kind of signature piece (``count`` identical pieces, e.g. three Gems)."""

    key: str
    name: str
    count: int
    colour: str
    kind: str
    type: PieceType

    def ids(self, wrestler_key: str) -> list[str]:
        return signature_ids(wrestler_key, self.key, self.count)


@dataclass(frozen=True)
class Wrestler:
    """One wrestler card and its pieces."""

    key: str
    name: str
    beetle: str
    colour: str
    flavour: str
    piece_kind: str
    piece_type: PieceType
    signature: tuple[SignaturePiece, ...]
    moves: tuple[MoveSpec, ...]

    @property
    def piece_id(self) -> str:
        """The id of this wrestler's piece on the board."""
        return wrestler_id(self.key)

    def signature_ids(self) -> list[str]:
        return [pid for s in self.signature for pid in s.ids(self.key)]

    def signature_piece(self, key: str) -> SignaturePiece:
        for s in self.signature:
            if s.key == key:
                return s
        raise KeyError(key)

    def move(self, name: str) -> MoveSpec:
        """The move called ``name`` (case and spacing insensitive); KeyError if not this card's."""
        want = norm_name(name)
        for m in self.moves:
            if norm_name(m.name) == want:
                return m
        raise KeyError(name)

    def kinds(self) -> dict[str, PieceType]:
        """Every piece kind this wrestler brings: its piece and its signature pieces."""
        out = {self.piece_kind: self.piece_type}
        out.update({s.kind: s.type for s in self.signature})
        return out


def _need(d: dict, key: str, where: str, typ: type | tuple[type, ...] = str) -> Any:
    if key not in d:
        raise ValueError(f"{where}.{key}: missing")
    v = d[key]
    if not isinstance(v, typ) or isinstance(v, bool) and typ is not bool:
        raise ValueError(f"{where}.{key}: expected {getattr(typ, '__name__', typ)}, got {v!r}")
    return v


def _parse_wrestler(d: Any, where: str) -> Wrestler:
    if not isinstance(d, dict):
        raise ValueError(f"{where}: expected a table")
    key = _need(d, "key", where)
    if not re.fullmatch(r"[a-z][a-z0-9]*", key):
        raise ValueError(f"{where}.key: {key!r} must be lowercase letters and digits")
    where = f"wrestler {key}"
    piece_kind = wrestler_kind(key)
    ptype = piece_type_from_dict(piece_kind, _need(d, "piece", where, dict), f"{where}.piece")
    if ptype.stackable:
        raise ValueError(f"{where}.piece.stackable: wrestler pieces are never stackable")
    if ptype.size > MAX_WRESTLER_SIZE + 1e-9:
        raise ValueError(f"{where}.piece.shape: reaches {ptype.size * 1000:.1f} mm from its centre; "
                         f"the boards leave room for {MAX_WRESTLER_SIZE * 1000:.0f} mm")
    sigs = []
    for i, s in enumerate(d.get("signature", [])):
        w = f"{where}.signature[{i}]"
        skey = _need(s, "key", w)
        if not re.fullmatch(r"[a-z]+", skey):
            raise ValueError(f"{w}.key: {skey!r} must be lowercase letters")
        count = _need(s, "count", w, int)
        if count < 1:
            raise ValueError(f"{w}.count: must be at least 1")
        kind = f"{key}_{skey}"
        sigs.append(SignaturePiece(skey, _need(s, "name", w), count, s.get("colour", "#888888"), kind,
                                   piece_type_from_dict(kind, _need(s, "piece", w, dict), f"{w}.piece")))
    if len({s.key for s in sigs}) != len(sigs):
        raise ValueError(f"{where}.signature: two signature pieces share a key")
    moves = []
    for i, m in enumerate(d.get("move", [])):
        w = f"{where}.move[{i}]"
        costs = []
        for j, c in enumerate(_need(m, "cost", w, list)):
            cw = f"{w}.cost[{j}]"
            action = _need(c, "action", cw)
            kind = _need(c, "kind", cw)
            count = _need(c, "count", cw, int)
            if action not in COST_ACTIONS:
                raise ValueError(f"{cw}.action: {action!r} is not one of {', '.join(COST_ACTIONS)}")
            if kind not in STANDARD_KINDS:
                raise ValueError(f"{cw}.kind: {kind!r} is not one of {', '.join(STANDARD_KINDS)}")
            if count < 1:
                raise ValueError(f"{cw}.count: must be at least 1")
            costs.append(Cost(action, kind, count))
        effect = dict(_need(m, "effect", w, dict))
        etype = effect.pop("type", None)
        if not isinstance(etype, str):
            raise ValueError(f"{w}.effect.type: missing")
        if etype not in EFFECTS:
            raise ValueError(f"{w}.effect.type: unknown effect {etype!r} "
                             f"(known: {', '.join(sorted(EFFECTS))})")
        piece = effect.get("piece")
        if piece is not None and piece not in STANDARD_KINDS and piece not in {s.key for s in sigs}:
            raise ValueError(f"{w}.effect.piece: {piece!r} is neither a standard disc kind nor "
                             f"one of this wrestler's signature pieces")
        from_turn = m.get("from_turn", 1)
        if not isinstance(from_turn, int) or isinstance(from_turn, bool) or not 1 <= from_turn <= 9:
            raise ValueError(f"{w}.from_turn: expected a whole number 1..9, got {from_turn!r}")
        moves.append(MoveSpec(_need(m, "name", w), _need(m, "text", w), tuple(costs), etype, effect,
                              bool(m.get("replaces_turn", False)), from_turn))
    if len(moves) != 2:
        raise ValueError(f"{where}.move: a wrestler has exactly two signature moves, got {len(moves)}")
    return Wrestler(key, _need(d, "name", where), _need(d, "beetle", where), d.get("colour", "#888888"),
                    d.get("flavour", ""), piece_kind, ptype, tuple(sigs), tuple(moves))


@functools.lru_cache(maxsize=8)
def _load(path: Path) -> tuple[Wrestler, ...]:
    data = read_toml(path)
    try:
        out = tuple(_parse_wrestler(d, f"wrestler[{i}]") for i, d in enumerate(data.get("wrestler", [])))
    except ValueError as exc:
        raise ValueError(f"{path.name}: {exc}") from None
    keys = [w.key for w in out]
    if len(set(keys)) != len(keys):
        raise ValueError(f"{path.name}: two wrestlers share a key")
    return out


def load_wrestlers(path: str | Path | None = None) -> tuple[Wrestler, ...]:
    """Every wrestler card in ``assets/wrestlers.toml`` (or ``path``), in file order (cached)."""
    return _load(Path(path) if path else kabuto_assets.path("wrestlers.toml"))


def wrestler(name: str) -> Wrestler:
    """The wrestler with this key or name (case-insensitive); ValueError listing them if unknown."""
    want = norm_name(name)
    for w in load_wrestlers():
        if want in (w.key, norm_name(w.name)):
            return w
    known = ", ".join(w.key for w in load_wrestlers())
    raise ValueError(f"unknown wrestler {name!r} (known: {known})")


def render_card(w: Wrestler, width: int = 78) -> str:
    """A wrestler card as plain text: the text the ``kabuto wrestlers`` command and the app show."""
    lines = [f"{w.name.upper()} ({w.beetle})"]
    if w.flavour:
        lines.append(f"  {w.flavour}")
    if w.signature:
        pieces = ", ".join(f"{s.count} x {s.name}" if s.count > 1 else s.name for s in w.signature)
        lines.append(f"  Signature pieces: {pieces}")
    else:
        lines.append("  Signature pieces: none")
    for m in w.moves:
        lines.extend(textwrap.wrap(f"{m.name.upper()}: {m.text}", width=width, initial_indent="  * ",
                                   subsequent_indent="    "))
    return "\n".join(lines)


def wrestler_kind(key: str) -> str:
    """The piece kind of wrestler ``key``'s wrestler piece ("gus" -> "gus_wrestler")."""
    return f"{key}_wrestler"


def is_wrestler_kind(kind: str) -> bool:
    """Whether ``kind`` is a wrestler piece's kind (not a disc or a signature piece)."""
    return kind.endswith("_wrestler")
