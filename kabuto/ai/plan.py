"""What the AI decided for one turn: plain records the app can show and :func:`play_turn` executes.

A :class:`Plan` lists its steps in order - the signature moves used before the push, the push(es)
actually executed (the aim after the level's hand wobble), the moves used after - and what the
search predicted. ``aims`` keeps the pushes the AI *meant* (before the wobble): the app can draw the aim,
and the game's history records the executed push, so a replay is exact.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kabuto.rules.actions import Action, EndTurn, Move, Push


@dataclass(frozen=True)
class MoveChoice:
    """A signature move and its targets (keyword arguments of :meth:`kabuto.Game.use_move`)."""

    name: str
    targets: dict[str, Any] = field(default_factory=dict, hash=False)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "targets": dict(self.targets)}

    def action(self) -> Move:
        """This step as the game's action."""
        return Move(self.name, self.targets)

    @classmethod
    def from_json(cls, d: Any) -> MoveChoice:
        if not isinstance(d, dict) or not isinstance(d.get("name"), str):
            raise ValueError("move: expected {name, targets}")
        targets = d.get("targets", {})
        if not isinstance(targets, dict):
            raise ValueError("move.targets: expected an object")
        return cls(d["name"], dict(targets))

    def text(self) -> str:
        if not self.targets:
            return self.name
        args = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                         for k, v in sorted(self.targets.items()))
        return f"{self.name} ({args})"


@dataclass(frozen=True)
class PushChoice:
    """One push: the kind pushed (the game takes the lowest id of that kind) and the platform's aim.

    The field names match :meth:`kabuto.Game.push` and :class:`physics.Push`: ``entry_deg`` (where the
    platform touches the ring), ``heading_deg`` (relative to the inward normal), ``speed`` (m/s),
    ``spin_deg`` (how a shaped piece is turned on the platform).
    """

    kind: str
    entry_deg: float
    heading_deg: float
    speed: float
    spin_deg: float = 0.0

    @property
    def piece(self) -> str:
        """What to pass as :meth:`kabuto.Game.push`'s ``piece_or_kind``."""
        return self.kind

    def args(self) -> tuple[str, float, float, float, float]:
        return (self.kind, self.entry_deg, self.heading_deg, self.speed, self.spin_deg)

    def action(self) -> Push:
        """This push as the game's action."""
        return Push(self.kind, self.entry_deg, self.heading_deg, self.speed, self.spin_deg)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "entry_deg": self.entry_deg, "heading_deg": self.heading_deg,
                "speed": self.speed, "spin_deg": self.spin_deg}

    @classmethod
    def from_json(cls, d: Any) -> PushChoice:
        if not isinstance(d, dict):
            raise ValueError("push: expected an object")
        try:
            return cls(str(d["kind"]), float(d["entry_deg"]), float(d["heading_deg"]),
                       float(d["speed"]), float(d.get("spin_deg", 0.0)))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"push: malformed ({exc})") from None

    def text(self) -> str:
        spin = f", turned {self.spin_deg:g} deg" if self.spin_deg else ""
        return (f"{self.kind} from {self.entry_deg:.1f} deg, heading {self.heading_deg:+.1f} deg, "
                f"{self.speed:.2f} m/s{spin}")


@dataclass(frozen=True)
class Prediction:
    """What the search expected of its aim: the score, the pieces knocked out, the winner (a side)."""

    score: float
    knocked_out: tuple[str, ...] = ()
    winner: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score, "knocked_out": list(self.knocked_out), "winner": self.winner}


Step = MoveChoice | PushChoice


@dataclass(frozen=True)
class Plan:
    """One turn of the AI: ``steps`` in the order they are played.

    A step is a :class:`MoveChoice` (a signature move) or a :class:`PushChoice` (a push as executed,
    after the hand wobble). Usually: moves before the push, the push, moves after it; after Rhino
    Rita's Charge used after the first push, the second push follows the Charge.

    * ``aims``: each push as the AI meant it, before the wobble (one per push, in order);
    * ``predicted``: the search's expectation of the first aim;
    * ``state_hash``: the position the plan was made for (:func:`kabuto.ai.play_turn` refuses another);
    * ``previews``: how many pushes the search simulated.
    """

    seat: int
    level: str
    seed: int
    state_hash: str
    turn: int
    steps: tuple[Step, ...] = ()
    aims: tuple[PushChoice, ...] = ()
    predicted: Prediction = field(default_factory=lambda: Prediction(0.0))
    previews: int = 0

    @property
    def pushes(self) -> tuple[PushChoice, ...]:
        """The pushes executed this turn (after the hand wobble), in order."""
        return tuple(s for s in self.steps if isinstance(s, PushChoice))

    @property
    def before(self) -> tuple[MoveChoice, ...]:
        """Signature moves used before the first push (all of them if there is no push)."""
        out = []
        for s in self.steps:
            if isinstance(s, PushChoice):
                break
            out.append(s)
        return tuple(out)

    @property
    def after(self) -> tuple[MoveChoice, ...]:
        """Signature moves used after the first push."""
        n = len(self.before)
        return tuple(s for s in self.steps[n:] if isinstance(s, MoveChoice))

    @property
    def push(self) -> PushChoice | None:
        """The (first) push executed this turn, or None when a move replaces the turn."""
        p = self.pushes
        return p[0] if p else None

    @property
    def aim(self) -> PushChoice | None:
        """The (first) push as aimed, before the hand wobble."""
        return self.aims[0] if self.aims else None

    @property
    def score(self) -> float:
        return self.predicted.score

    def actions(self) -> tuple[Action, ...]:
        """The turn as the game's actions, in order, ending with :class:`EndTurn`: the one
        translation of a plan that :func:`kabuto.ai.play_turn`, the app's AI seats and the network
        bots all play. Whoever plays them stops once the turn has passed (a push that ended the
        game, a move that replaced the turn)."""
        return (*(s.action() for s in self.steps), EndTurn())

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "level": self.level, "seed": self.seed, "state_hash": self.state_hash,
            "turn": self.turn,
            "steps": [{"push": s.to_json()} if isinstance(s, PushChoice) else {"move": s.to_json()}
                      for s in self.steps],
            "aims": [p.to_json() for p in self.aims], "predicted": self.predicted.to_json(),
            "previews": self.previews,
        }

    @classmethod
    def from_json(cls, d: Any) -> Plan:
        if not isinstance(d, dict):
            raise ValueError("plan: expected an object")
        try:
            steps: list[Step] = []
            for st in d.get("steps", []):
                if not isinstance(st, dict) or len(st) != 1 or not ({"push", "move"} & set(st)):
                    raise ValueError("plan.steps: each step is {push: ...} or {move: ...}")
                steps.append(PushChoice.from_json(st["push"]) if "push" in st
                             else MoveChoice.from_json(st["move"]))
            pred = d.get("predicted") or {}
            return cls(int(d["seat"]), str(d["level"]), int(d["seed"]), str(d["state_hash"]),
                       int(d["turn"]), tuple(steps),
                       tuple(PushChoice.from_json(p) for p in d.get("aims", [])),
                       Prediction(float(pred.get("score", 0.0)), tuple(pred.get("knocked_out", [])),
                                  pred.get("winner")),
                       int(d.get("previews", 0)))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"plan: malformed ({exc})") from None

    def text(self) -> str:
        """One line for a log or a status bar."""
        bits = [f"push {s.text()}" if isinstance(s, PushChoice) else f"use {s.text()}" for s in self.steps]
        return "; ".join(bits) or "nothing to do"
