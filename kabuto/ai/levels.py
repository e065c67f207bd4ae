"""The AI's data: search settings, scoring weights and difficulty levels, from ``assets/ai.toml``.

A :class:`Level` is a search budget counted in *previews* (simulated pushes) plus a hand wobble (the
aim error applied to the executed push). Budgets are never in seconds: a decision must be the same
on a fast or a loaded machine, and whatever the number of worker processes.

    >>> from kabuto.ai.levels import level
    >>> level("hard").broad > level("easy").broad
    True

Every field is validated when loaded; a bad value raises ``ValueError`` naming its key, e.g.
``levels.hard.broad: expected a whole number 1..5000, got -3``.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import kabuto_assets
from kabuto_base.fileio import read_toml
from kabuto_base.numbers import is_finite_number

LEVEL_NAMES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class SearchSettings:
    """How candidates are sampled and refined (``[search]`` in ai.toml). Speeds are fractions of the
    hand's limit (``simulation.max_speed``): see :func:`kabuto.ai.candidates.speed_options`."""

    speed_fractions: tuple[float, ...]
    aim_offsets_mm: tuple[float, ...]
    aim_spread_deg: float
    aimed_share: float
    wrestler_share: float
    edge_disc_reach: float
    edge_disc_targets: int
    refine_entry_deg: float
    refine_heading_deg: float
    refine_speed_frac: float
    spins_deg: tuple[float, ...]
    second_push_speed_fractions: tuple[float, ...]
    move_angle_step_deg: float
    max_target_combos: int
    opening_max_loss: float
    after_min_gain: float
    grip_margin_mm: float = 2.0
    #: Of the candidates aimed at opposing wrestlers, the share pushed from the flank (issue 16): the
    #: platform within ``flank_min_deg``..``flank_max_deg`` of the target's own bearing, the line
    #: passing the target's inner side ``flank_offsets_mm`` off its centre, so the piece strikes it
    #: from the inside and drives it out. A push from straight across the ring moves a wrestler near
    #: the edge by nothing (the crowd between takes it all).
    flank_share: float = 0.0
    flank_min_deg: float = 15.0
    flank_max_deg: float = 65.0
    flank_offsets_mm: tuple[float, ...] = (0.0, 4.5, 9.0, 13.5)
    #: A side with Vice Grip: this share of its pushes aimed at opposing wrestlers come from behind
    #: them (within ``grip_spread_deg`` of their bearing) and drive them towards the centre circle;
    #: the look-ahead adds ``grip_replies`` such replies when the next side has Vice Grip.
    grip_share: float = 0.0
    grip_spread_deg: float = 20.0
    grip_replies: int = 0
    #: A sketched preview (a level's ``sketch_rate``) accepts overlaps up to this (mm) at rest.
    sketch_rest_overlap_mm: float = 0.5
    #: ... and stops once no piece can fall any more nor move farther than this (mm; 0: runs to rest).
    sketch_settle_mm: float = 1.0


@dataclass(frozen=True)
class Weights:
    """Points for the state at the end of a turn (``[scoring]`` in ai.toml); see the file."""

    win: float
    loss: float
    draw: float
    opponent_edge: float
    own_edge: float
    own_piece: float
    opponent_piece: float
    large_bonus: float
    own_empty: float
    opponent_submits: float
    opponent_eliminated: float
    #: Own wrestler(s) in front of an opposing Vice Grip (a move that knocks out what is in the centre
    #: circle): minus this, scaled from all of it with the outline touching the circle down to none
    #: ``grip_reach_mm`` or more from its line - the distance one push can drive a wrestler inwards,
    #: so that the gripper cannot push it in and grip it in one turn (issue 16).
    grip_danger: float = 0.0
    grip_reach_mm: float = 30.0
    #: 3 players: each wrestler of a player other than the one who moves next, minus this times the
    #: same edge measure as ``own_edge``. Whoever knocks out any wrestler wins, so a wrestler left
    #: near the edge is the next player's win before it is anybody else's (issue 16).
    handed_edge: float = 0.0
    #: From this turn on (0: never) the AI presses for the win: ``press_opponent_edge`` and
    #: ``press_own_edge`` stand for ``opponent_edge`` and ``own_edge``. A side that keeps saving its
    #: own wrestler before threatening the other's can make a game last for ever (issue 42).
    press_from_turn: float = 0.0
    press_opponent_edge: float = 0.0
    press_own_edge: float = 0.0
    #: Pieces count towards ``own_piece`` and ``opponent_piece`` only up to this many in an inventory
    #: (0: every piece counts). A piece is a future turn, but a side holding more than it needs
    #: gains nothing from more; a player who collects every piece it can drains the ring, since each
    #: push puts one piece on and a good push knocks several off (issue 42, point 3).
    piece_enough: float = 0.0
    #: Points off for each piece the side's signature moves took from its inventory this turn (paid,
    #: stacked or discarded), whatever ``piece_enough`` says: a side that holds plenty still weighs
    #: a move's price against what the move does (and an opponent's spending counts for the side).
    move_piece_cost: float = 0.0
    #: Points back for each piece a side's signature moves added to its inventory this turn (Atlas
    #: Annie's Tower gains a medium for a small; Vice Grip keeps the discs it knocks out): with
    #: ``piece_enough`` the inventory no longer shows the gain, and a move that trades a piece for a
    #: piece would look like a pure loss.
    move_gain_piece: float = 0.0

    def edges(self, turn: int) -> tuple[float, float]:
        """The (opponent's, own) wrestler edge weights on turn ``turn``."""
        if self.press_from_turn and turn >= self.press_from_turn:
            return self.press_opponent_edge, self.press_own_edge
        return self.opponent_edge, self.own_edge


@dataclass(frozen=True)
class Level:
    """One difficulty level: the search budget and the hand's wobble (``[levels.NAME]``)."""

    name: str
    broad: int
    refine_top: int
    refine_rounds: int
    refine_per: int
    robust_top: int
    robust_samples: int
    move_prefixes: int
    after_moves: bool
    wobble_entry_deg: float
    wobble_heading_deg: float
    wobble_speed_frac: float
    reply_top: int = 0
    reply_broad: int = 0
    #: Sketched previews (:class:`kabuto.ai.pool.Sketch`, issue 16 point 6): the broad look, the
    #: refinement, the wobble re-scoring and the replies simulated at this many steps a second (0:
    #: every preview exact), and the best ``recheck_top`` of the sketched pushes previewed again
    #: exactly before the level chooses among them (the push played is always judged exactly).
    sketch_rate: int = 0
    recheck_top: int = 0
    #: Refining the replies (expert): the ``reply_refine_top`` most damaging sampled replies get
    #: ``reply_refine_per`` neighbours each, in ``refine_rounds`` rounds of shrinking steps, as the
    #: AI refines its own pushes - the killing reply is often a narrow variation of a merely good
    #: one, which a broad sample misses and a refining opponent finds.
    reply_refine_top: int = 0
    reply_refine_per: int = 0

    @property
    def budget(self) -> int:
        """Previews the push search spends (before signature-move openings and a second push)."""
        return (self.broad + self.refine_top * self.refine_rounds * self.refine_per
                + self.robust_top * self.robust_samples
                + self.reply_top * (1 + self.reply_broad + self.reply_refined)
                + (self.recheck_top if self.sketch_rate else 0))

    @property
    def reply_refined(self) -> int:
        """Refined replies previewed per checked push (see ``reply_refine_top``)."""
        return self.reply_refine_top * self.reply_refine_per * self.refine_rounds

    @property
    def looks_ahead(self) -> bool:
        """Whether the level checks its best pushes against the next side's replies."""
        return self.reply_top > 0 and self.reply_broad > 0

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, d: Any, where: str = "level") -> Level:
        if not isinstance(d, dict):
            raise ValueError(f"{where}: expected a table")
        name = d.get("name", where.rsplit(".", 1)[-1])
        return _parse_level(str(name), d, where)

    def with_changes(self, **changes: Any) -> Level:
        """A copy with some fields changed (validated like the file), e.g. a small test budget."""
        data = {**self.to_json(), **changes}
        return _parse_level(str(data["name"]), data, f"level {data['name']}")


@dataclass(frozen=True)
class AIConfig:
    search: SearchSettings
    weights: Weights
    levels: dict[str, Level]


# name -> (low, high, integer?) for numbers in each table
_SEARCH_LIMITS: dict[str, tuple[float, float, bool]] = {
    "aim_spread_deg": (0.0, 90.0, False),
    "aimed_share": (0.0, 1.0, False),
    "wrestler_share": (0.0, 1.0, False),
    "edge_disc_reach": (0.0, 1.5, False),
    "edge_disc_targets": (0, 40, True),
    "refine_entry_deg": (0.0, 90.0, False),
    "refine_heading_deg": (0.0, 90.0, False),
    "refine_speed_frac": (0.0, 1.0, False),
    "move_angle_step_deg": (1.0, 180.0, False),
    "max_target_combos": (1, 1000, True),
    "opening_max_loss": (0.0, 1e6, False),
    "after_min_gain": (0.0, 1e6, False),
    "grip_margin_mm": (0.0, 50.0, False),
    "flank_share": (0.0, 1.0, False),
    "grip_share": (0.0, 1.0, False),
    "grip_spread_deg": (0.0, 90.0, False),
    "grip_replies": (0, 200, True),
    "flank_min_deg": (0.0, 90.0, False),
    "flank_max_deg": (0.0, 90.0, False),
    "sketch_rest_overlap_mm": (0.0, 5.0, False),
    "sketch_settle_mm": (0.0, 10.0, False),
}
_SEARCH_LISTS: dict[str, tuple[float, float]] = {
    "speed_fractions": (1e-3, 1.0),
    "aim_offsets_mm": (-50.0, 50.0),
    "spins_deg": (-360.0, 360.0),
    "second_push_speed_fractions": (1e-3, 1.0),
    "flank_offsets_mm": (0.0, 50.0),
}
_LEVEL_LIMITS: dict[str, tuple[float, float, bool]] = {
    "broad": (1, 5000, True),
    "refine_top": (0, 100, True),
    "refine_rounds": (0, 20, True),
    "refine_per": (0, 200, True),
    "robust_top": (0, 100, True),
    "robust_samples": (0, 100, True),
    "move_prefixes": (0, 10, True),
    "wobble_entry_deg": (0.0, 45.0, False),
    "wobble_heading_deg": (0.0, 45.0, False),
    "wobble_speed_frac": (0.0, 1.0, False),
    "reply_top": (0, 50, True),
    "reply_broad": (0, 1000, True),
    "sketch_rate": (0, 100000, True),
    "recheck_top": (0, 100, True),
    "reply_refine_top": (0, 50, True),
    "reply_refine_per": (0, 200, True),
}


#: Added with the look-ahead and the sketches (issue 16): a level saved before them (a tournament's
#: records) has none, and so reads as 0 (no look-ahead, every preview exact).
_LOOKAHEAD_KEYS = frozenset({"reply_top", "reply_broad", "sketch_rate", "recheck_top",
                             "reply_refine_top", "reply_refine_per"})


def _num(v: Any, where: str, lo: float, hi: float, integer: bool) -> float | int:
    ok = is_finite_number(v) and lo <= v <= hi
    if integer:
        ok = ok and float(v).is_integer()
    if not ok:
        what = "a whole number" if integer else "a number"
        raise ValueError(f"{where}: expected {what} {lo:g}..{hi:g}, got {v!r}")
    return int(v) if integer else float(v)


def _need(d: dict[str, Any], key: str, where: str) -> Any:
    if key not in d:
        raise ValueError(f"{where}.{key}: missing")
    return d[key]


def _parse_search(d: Any) -> SearchSettings:
    if not isinstance(d, dict):
        raise ValueError("search: expected a table")
    unknown = sorted(set(d) - set(_SEARCH_LIMITS) - set(_SEARCH_LISTS))
    if unknown:
        # e.g. "speeds" (m/s) from before speeds became fractions of the hand's limit
        raise ValueError(f"search.{unknown[0]}: unknown setting")
    vals: dict[str, Any] = {}
    for key, (lo, hi, integer) in _SEARCH_LIMITS.items():
        vals[key] = _num(_need(d, key, "search"), f"search.{key}", lo, hi, integer)
    for key, (lo, hi) in _SEARCH_LISTS.items():
        raw = _need(d, key, "search")
        if not isinstance(raw, list) or not raw:
            raise ValueError(f"search.{key}: expected a non-empty list of numbers")
        vals[key] = tuple(_num(v, f"search.{key}[{i}]", lo, hi, False) for i, v in enumerate(raw))
    if vals["flank_min_deg"] > vals["flank_max_deg"]:
        raise ValueError("search.flank_min_deg: expected at most flank_max_deg")
    return SearchSettings(**vals)


def _parse_weights(d: Any) -> Weights:
    if not isinstance(d, dict):
        raise ValueError("scoring: expected a table")
    unknown = sorted(set(d) - {f.name for f in fields(Weights)})
    if unknown:
        raise ValueError(f"scoring.{unknown[0]}: unknown setting")
    vals = {f.name: _num(_need(d, f.name, "scoring"), f"scoring.{f.name}", -1e6, 1e6, False)
            for f in fields(Weights)}
    if vals["grip_reach_mm"] <= 0:
        raise ValueError("scoring.grip_reach_mm: expected more than 0")
    for key in ("piece_enough", "move_piece_cost", "move_gain_piece"):
        if vals[key] < 0:
            raise ValueError(f"scoring.{key}: expected 0 or more, got {vals[key]:g}")
    w = Weights(**vals)
    if not w.loss < w.draw < w.win:
        raise ValueError("scoring: expected loss < draw < win")
    return w


def _parse_level(name: str, d: dict[str, Any], where: str) -> Level:
    vals: dict[str, Any] = {"name": name}
    for key, (lo, hi, integer) in _LEVEL_LIMITS.items():
        raw = d.get(key, 0) if key in _LOOKAHEAD_KEYS else _need(d, key, where)
        vals[key] = _num(raw, f"{where}.{key}", lo, hi, integer)
    after = _need(d, "after_moves", where)
    if not isinstance(after, bool):
        raise ValueError(f"{where}.after_moves: expected true or false, got {after!r}")
    vals["after_moves"] = after
    if vals["sketch_rate"] and vals["sketch_rate"] < 60:
        raise ValueError(f"{where}.sketch_rate: expected 0 (exact) or at least 60 steps a second, "
                         f"got {vals['sketch_rate']}")
    unknown = sorted(set(d) - set(vals) - {"name"})
    if unknown:
        raise ValueError(f"{where}.{unknown[0]}: unknown setting")
    return Level(**vals)


def parse_config(data: Any) -> AIConfig:
    """An :class:`AIConfig` from ai.toml's data; ValueError names the first bad key."""
    if not isinstance(data, dict):
        raise ValueError("ai.toml: expected tables [search], [scoring] and [levels.*]")
    search = _parse_search(data.get("search"))
    weights = _parse_weights(data.get("scoring"))
    raw = data.get("levels")
    if not isinstance(raw, dict):
        raise ValueError("levels: expected [levels.easy], [levels.medium] and [levels.hard]")
    missing = [n for n in LEVEL_NAMES if n not in raw]
    if missing:
        raise ValueError(f"levels.{missing[0]}: missing")
    levels = {}
    for name, d in raw.items():
        if not isinstance(d, dict):
            raise ValueError(f"levels.{name}: expected a table")
        levels[name] = _parse_level(name, d, f"levels.{name}")
    return AIConfig(search, weights, levels)


def load_config(path: str | Path | None = None) -> AIConfig:
    """Read ``assets/ai.toml`` (or ``path``)."""
    if path is None:
        return _default_config()
    return parse_config(read_toml(path))


@functools.lru_cache(maxsize=1)
def _default_config() -> AIConfig:
    return load_config(kabuto_assets.path("ai.toml"))


def config() -> AIConfig:
    """The configuration in ``assets/ai.toml`` (read once)."""
    return _default_config()


def level_names() -> tuple[str, ...]:
    """Every level in ``assets/ai.toml``, weakest first (the file's order): what menus offer."""
    return tuple(config().levels)


def level(name: str | Level) -> Level:
    """The level called ``name`` ("easy", "medium", "hard"); a :class:`Level` is returned as is."""
    if isinstance(name, Level):
        return name
    levels = config().levels
    if not isinstance(name, str) or name not in levels:
        raise ValueError(f"level: expected one of {', '.join(levels)}, got {name!r}")
    return levels[name]


__all__ = ["AIConfig", "LEVEL_NAMES", "Level", "SearchSettings", "Weights", "config", "level", "level_names",
           "load_config", "parse_config"]
