"""One seeded AI-vs-AI game of Kabuto Sumo: what decides it (:class:`GameSpec`), how it went
(:class:`GameRecord`), and the loop that plays it (:func:`play_game`).

A game is fully decided by its spec (wrestlers by seat, first player, AI levels, seed, turn limit)
and by the code and data here, so this module is apart from the tournament's and the balance
report's command lines: its source is part of the fingerprint a kept game is checked against
(:mod:`kabuto.lab.fingerprint`), and editing how a tournament is reported or resumed leaves the
games it already played standing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides one game: wrestlers by seat, first player, AI level by seat, seed."""

    index: int
    wrestlers: tuple[str, ...]
    first_player: int
    levels: tuple[str, ...]
    seed: int
    max_turns: int
    junior: bool = False

    @property
    def players(self) -> int:
        return len(self.wrestlers)

    def to_json(self) -> dict[str, Any]:
        d = {"index": self.index, "wrestlers": list(self.wrestlers), "first_player": self.first_player,
             "levels": list(self.levels), "seed": self.seed, "max_turns": self.max_turns}
        if self.junior:  # only when set: files of earlier tournaments keep matching
            d["junior"] = True
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameSpec:
        return cls(int(d["index"]), tuple(d["wrestlers"]), int(d["first_player"]), tuple(d["levels"]),
                   int(d["seed"]), int(d["max_turns"]), bool(d.get("junior", False)))


@dataclass
class GameRecord:
    """How one game went. ``winner`` is the winning seat (None: a draw, or stopped at max turns; in
    a 4-player game, the first seat of the winning team). ``result`` is the game's
    :class:`~kabuto.rules.outcomes.GameResult` as JSON (None when stopped at max turns): the winning
    seats, and who ended the game and whose wrestlers fell.

    ``replay`` is the game in the replay format of :mod:`kabuto.replay.format` (or, if that module is not
    available, ``Game.to_json``); ``plans`` the AI's plan for every turn (aims before the hand wobble,
    pushes executed, predictions).
    """

    spec: GameSpec
    winner: int | None
    reason: str
    turns: int
    previews: int
    replay: dict[str, Any] = field(repr=False)
    plans: list[dict[str, Any]] = field(repr=False, default_factory=list)
    result: dict[str, Any] | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """Every winning seat (both of a team in 4-player games); () for a draw or a stopped game."""
        if self.result is not None:
            return tuple(self.result["seats"]) if self.result["winner"] is not None else ()
        return () if self.winner is None else (self.winner,)

    def to_json(self) -> dict[str, Any]:
        d = {"spec": self.spec.to_json(), "winner": self.winner, "reason": self.reason,
             "turns": self.turns, "previews": self.previews, "replay": self.replay,
             "plans": self.plans}
        if self.result is not None:
            d["result"] = self.result
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameRecord:
        return cls(GameSpec.from_json(d["spec"]), d["winner"], d["reason"], d["turns"], d["previews"],
                   d["replay"], d.get("plans", []), d.get("result"))


def ai_seed(spec: GameSpec, seat: int) -> int:
    """The AI seed of ``seat`` in a game: its plans also depend on the position, so one per seat."""
    return spec.seed * 10 + seat


def _recorder(game: Any, spec: GameSpec) -> Any:
    """A :class:`kabuto.replay.recorder.Recorder` for the game (never saving by itself)."""
    from kabuto.replay import format as rp
    from kabuto.replay.recorder import Recorder

    seats = tuple(f"AI {lvl}" for lvl in spec.levels)
    return Recorder(Path("."), game.setup, seats=seats, pieces=rp.pieces_of(game.world))


def play_game(spec: GameSpec, ai_workers: int = 1, levels: dict[str, Any] | None = None) -> GameRecord:
    """Play one AI-vs-AI game to the end (or ``max_turns``). ``levels`` may map a level name in
    ``spec.levels`` to a :class:`kabuto.ai.Level` to use instead of ai.toml's (tests, benchmarks)."""
    from kabuto.ai import choose, play_turn
    from kabuto.rules.game import Game

    game = Game.new(players=spec.players, wrestlers=list(spec.wrestlers), junior=spec.junior,
                    seed=spec.seed, first_player=spec.first_player)
    rec = _recorder(game, spec)
    plans = []
    previews = 0
    while not game.is_over and game.turn.number <= spec.max_turns:
        seat = game.current_seat
        lvl = spec.levels[seat]
        plan = choose(game, (levels or {}).get(lvl, lvl), seed=ai_seed(spec, seat), workers=ai_workers)
        play_turn(game, plan, on_action=rec.sync)
        previews += plan.previews
        plans.append(plan.to_json())
    r = game.result
    if r is not None:
        winner = None if r.winner is None else r.seats[0]
        reason, text = r.reason.value, r.text
    else:
        winner, reason, text = None, "max_turns", f"stopped after {spec.max_turns} turns"
    replay = rec.to_json(game)
    # Deterministic metadata: the same game gives the same file, however it was scheduled.
    replay["meta"] = {"game_id": f"tournament-{spec.seed}", "kabuto": replay["meta"].get("kabuto"),
                      "physics_model": replay["meta"].get("physics_model"),
                      "start_hash": replay["meta"].get("start_hash"),
                      "seats": list(rec.meta.get("seats", [])), "result": text,
                      "note": f"kabuto tournament game {spec.index}, seed {spec.seed}"}
    return GameRecord(spec, winner, reason, game.turn.number - (0 if game.is_over else 1), previews,
                      replay, plans, None if r is None else r.to_json())


def play_json(spec: dict[str, Any]) -> dict[str, Any]:
    """Worker entry point: JSON in, JSON out (no game objects cross process boundaries)."""
    return play_game(GameSpec.from_json(spec)).to_json()
