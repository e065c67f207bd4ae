"""The tutorial's steps as data and functions: a guided game, one lesson at a time. No pyglet.

The game is a real :class:`kabuto.Game` (the rules engine's starting board for the tutorial's two
wrestlers) against the real AI. Each :class:`Step` (from ``assets/help/tutorial.toml``) first sets
up what its lesson needs with the rules' own editing action (:meth:`kabuto.Game.edit`): a disc
hanging over the edge, the player's wrestler by the edge, an empty inventory. Then the player plays;
after each of their actions :meth:`Tutorial.observe` reads the game - its actions since the step
began and where the pieces are - and says whether the lesson was done, failed (the step can be
tried again from its start), or is still going on. No timer decides anything.

Places are given round the ring and against its edge (:class:`Spot`), never as coordinates of a
standard board, so the lessons hold when the ring, the pieces or the starting boards change.

    >>> tut = Tutorial.load()
    >>> [s.key for s in tut.steps]
    ['push', 'crowd', 'gain', 'guard', 'move', 'submission', 'knockout']
    >>> game = tut.new_game()
    >>> tut.begin(game)            # step 1 set up: the player (seat 0) is to push
    >>> tut.observe(game) is None  # nothing done yet
    True
    >>> _ = game.push("medium", entry_deg=180.0, heading_deg=0.0, speed=0.3)
    >>> tut.observe(game).passed
    True
"""
from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import kabuto_assets
from kabuto.rules.actions import EndTurn, Move, Push
from kabuto.rules.game import Game
from kabuto.rules.inventory import STANDARD_KINDS
from kabuto.rules.outcomes import KNOCKOUT, SUBMISSION

#: The seat the player has (the AI plays the other).
YOU, RIVAL = 0, 1
#: A piece counts as moved by a push when it ends this far from where it stood (metres).
MOVED = 0.003
#: Whole turns of the ring tried, either way, when a spot is taken by a wrestler piece.
_NUDGES = [0.0, *(s * k for k in range(1, 19) for s in (5.0, -5.0))]

CHECKS = ("pushed", "crowd", "gained", "guarded", "move", "submission", "knockout")


class TutorialError(ValueError):
    """The tutorial file is wrong (one line naming the problem)."""


@dataclass(frozen=True)
class Spot:
    """Where a step puts a piece: ``angle`` degrees round the ring, and either ``radius`` (the
    centre, as a share of the ring's radius) or ``edge`` (the share of the piece's width that sticks
    out over the edge; negative: that many widths inside it). ``room``: other pieces within that
    many widths of it go back to the supply (wrestler pieces stay)."""

    piece: str
    angle: float
    radius: float | None = None
    edge: float | None = None
    room: float = 0.0

    def centre_distance(self, ring_radius: float, size: float) -> float:
        """How far from the middle the piece's centre goes (``size``: its bounding radius).

        >>> Spot("medium", 90, edge=0.4).centre_distance(0.1, 0.01)   # 8 of its 20 mm hang over
        0.098
        """
        if self.edge is not None:
            return ring_radius - size + self.edge * 2 * size
        return (self.radius or 0.0) * ring_radius


@dataclass(frozen=True)
class Step:
    """One lesson: its words, what it sets up, and what the player must do (``check``)."""

    key: str
    title: str
    text: str
    done: str
    check: str
    fail: str = "Not quite. Try again."
    place: tuple[Spot, ...] = ()
    inventory: dict[str, int] = field(default_factory=dict)
    rival_inventory: dict[str, int] | None = None
    clear_centre: bool = True
    choose: str | None = None        # the disc the aim bar offers first (the lesson's best one)


@dataclass(frozen=True)
class Verdict:
    """What the player's action did for the step: ``passed``, or not (``why`` says what went
    wrong; the step can be tried again)."""

    passed: bool
    why: str = ""


@dataclass
class Mark:
    """The game as a step began: its history's length and where every piece was."""

    history: int
    places: dict[str, str]
    poses: dict[str, tuple[float, float]]


def _int_table(raw: Any, where: str) -> dict[str, int]:
    if not isinstance(raw, dict):
        raise TutorialError(f"{where}: expected a table of disc counts")
    out = {}
    for k, v in raw.items():
        if k not in STANDARD_KINDS or not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 20:
            raise TutorialError(f"{where}.{k}: expected a standard disc and a count 0-20")
        out[k] = v
    return out


def _spot(raw: Any, where: str) -> Spot:
    if not isinstance(raw, dict):
        raise TutorialError(f"{where}: expected a table")
    piece = raw.get("piece")
    if piece not in ("you", "rival", *STANDARD_KINDS):
        raise TutorialError(f"{where}.piece: expected you, rival or a standard disc, got {piece!r}")
    nums = {}
    for k in ("angle", "radius", "edge", "room"):
        v = raw.get(k)
        if v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v)):
            raise TutorialError(f"{where}.{k}: expected a number")
        nums[k] = None if v is None else float(v)
    if (nums["radius"] is None) == (nums["edge"] is None):
        raise TutorialError(f"{where}: give either radius or edge")
    if nums["radius"] is not None and not 0.0 <= nums["radius"] <= 1.0:
        raise TutorialError(f"{where}.radius: expected a share of the ring's radius, 0-1")
    if nums["edge"] is not None and not -5.0 <= nums["edge"] < 0.5:
        raise TutorialError(f"{where}.edge: at most 0.5 (half the piece over the edge)")
    return Spot(str(piece), nums["angle"] or 0.0, nums["radius"], nums["edge"],
                max(0.0, min(3.0, nums["room"] or 0.0)))


def _step(raw: Any, i: int, inventory: dict[str, int]) -> Step:
    where = f"step {i + 1}"
    if not isinstance(raw, dict):
        raise TutorialError(f"{where}: expected a table")
    words = {}
    for k in ("key", "title", "text", "done", "check"):
        v = raw.get(k)
        if not isinstance(v, str) or not v.strip():
            raise TutorialError(f"{where}.{k}: expected some text")
        words[k] = v.strip()
    if words["check"] not in CHECKS:
        raise TutorialError(f"{where}.check: {words['check']!r} is not one of {', '.join(CHECKS)}")
    rival = raw.get("rival_inventory")
    choose = raw.get("choose")
    if choose is not None and choose not in STANDARD_KINDS:
        raise TutorialError(f"{where}.choose: expected a standard disc, got {choose!r}")
    return Step(words["key"], words["title"], words["text"], words["done"], words["check"],
                str(raw.get("fail") or Step.fail),
                tuple(_spot(s, f"{where}.place[{j}]") for j, s in enumerate(raw.get("place") or ())),
                _int_table(raw["inventory"], f"{where}.inventory") if "inventory" in raw else inventory,
                None if rival is None else _int_table(rival, f"{where}.rival_inventory"),
                raw.get("clear_centre", True) is not False, choose)


class Tutorial:
    """The tutorial's steps and where the player is in them."""

    def __init__(self, steps: list[Step], wrestlers: tuple[str, str], ai_level: str, seed: int,
                 guard_mm: float):
        if not steps:
            raise TutorialError("the tutorial has no steps")
        self.steps = steps
        self.wrestlers = wrestlers
        self.ai_level = ai_level
        self.seed = seed
        self.guard = guard_mm / 1000.0
        self.index = 0
        self.mark: Mark | None = None     # set by begin(); None: the step is not set up yet
        self.verdict: Verdict | None = None
        self.focus: tuple[str, ...] = ()  # the pieces the step put in place (the table rings them)

    @classmethod
    def load(cls, path: str | Path | None = None) -> Tutorial:
        """The tutorial in ``path`` (default ``assets/help/tutorial.toml``); TutorialError names
        the first thing wrong in it."""
        path = Path(path) if path is not None else kabuto_assets.path("help", "tutorial.toml")
        try:
            raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise TutorialError(f"{Path(path).name}: {exc}") from None
        g = raw.get("game")
        if not isinstance(g, dict):
            raise TutorialError("game: expected a [game] table")
        ws = g.get("wrestlers")
        if not isinstance(ws, list) or len(ws) != 2 or not all(isinstance(w, str) for w in ws):
            raise TutorialError("game.wrestlers: expected two wrestler keys")
        seed, guard = g.get("seed", 0), g.get("guard_mm", 4.0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TutorialError("game.seed: expected a whole number")
        if not isinstance(guard, (int, float)) or not 0 < guard < 50:
            raise TutorialError("game.guard_mm: expected a number of millimetres, 0-50")
        inventory = _int_table(g.get("inventory", {}), "game.inventory")
        steps = [_step(s, i, inventory) for i, s in enumerate(raw.get("step") or ())]
        return cls(steps, (ws[0], ws[1]), str(g.get("ai_level", "beginner")), seed, float(guard))

    # ----- where the player is ---------------------------------------------------------------------
    @property
    def step(self) -> Step:
        return self.steps[self.index]

    @property
    def finished(self) -> bool:
        """The last step was done."""
        return self.index == len(self.steps) - 1 and self.verdict is not None and self.verdict.passed

    def counter(self) -> str:
        """"Step 3 of 7"."""
        return f"Step {self.index + 1} of {len(self.steps)}"

    def next_step(self) -> bool:
        """On to the next step (set up by the next :meth:`begin`); False after the last one."""
        if self.index + 1 >= len(self.steps):
            return False
        self.index += 1
        self.mark, self.verdict = None, None
        return True

    def retry(self) -> None:
        """The step again, from its start (the caller has taken the game back to :attr:`mark`)."""
        self.verdict = None

    def rewound(self, game: Game) -> None:
        """The game may have gone back (an undo): back at the step's start, the step is open
        again; back before it, it is set up again when the player's turn comes (:meth:`begin`)."""
        if self.mark is None or len(game.history) > self.mark.history:
            return
        if len(game.history) < self.mark.history:
            self.mark = None
        self.verdict = None

    # ----- the game ------------------------------------------------------------------------------------
    def new_game(self) -> Game:
        """The tutorial's game: the rules' starting board for its two wrestlers, the player first."""
        return Game.new(players=2, wrestlers=list(self.wrestlers), seed=self.seed, first_player=YOU)

    @staticmethod
    def ready(game: Game) -> bool:
        """Whether a step can be set up now: the player's turn, not yet begun."""
        t = game.turn
        return not game.is_over and game.current_seat == YOU and not t.pushes and not t.moves_used

    def begin(self, game: Game) -> None:
        """Set the current step up on ``game`` (at the start of the player's turn: :meth:`ready`)
        and remember how the game stood, for the step's check and for trying it again."""
        step = self.step
        if step.clear_centre:
            _clear_centre(game)
        self.focus = tuple(_put(game, spot) for spot in step.place)
        _fill(game, YOU, step.inventory, exact=False)
        _fill(game, RIVAL, step.rival_inventory if step.rival_inventory is not None
              else step.inventory, exact=step.rival_inventory is not None)
        self.mark = Mark(len(game.history), dict(game.locations()),
                         {p.id: (p.x, p.y) for p in game.world.pieces})
        self.verdict = None

    def observe(self, game: Game) -> Verdict | None:
        """After each action: whether the step was passed, failed, or is still going on (None).
        A verdict given stays until :meth:`retry` or :meth:`next_step`."""
        if self.mark is None or self.verdict is not None:
            return self.verdict
        self.verdict = _judge(self, game)
        return self.verdict


# ----- setting a step up ----------------------------------------------------------------------------
def _size(game: Game, kind: str) -> float:
    return game.materials.kinds[kind].size


def _clear_centre(game: Game) -> None:
    """Nothing near the centre circle: discs back to the supply, a wrestler piece moved out a
    little (a clear circle, so that Vice Grip finds only what a lesson puts there)."""
    c = game.materials.ring.centre_radius
    R = game.materials.ring.radius
    for p in list(game.world.pieces):
        size = _size(game, p.kind)
        d = math.hypot(p.x, p.y)
        if p.id not in game.world or d >= c + size + 0.001:
            continue
        if game.is_wrestler_piece(p.id):
            angle = math.degrees(math.atan2(p.y, p.x)) if d > 0 else 0.0
            _put(game, Spot("you" if p.id == game.seats[YOU].piece_id else "rival", angle,
                            radius=min(1.0, (c + size + 0.003) / R)))
        else:
            for q in reversed([p.id, *game.world.riders(p.id)]):
                game.edit(q, "supply")


def _piece_for(game: Game, spot: Spot) -> str:
    """The piece a spot puts on the ring: a wrestler piece, or a disc of that kind from the supply
    (or, with none there, the one of that kind on the ring farthest from the spot)."""
    if spot.piece == "you":
        return game.seats[YOU].piece_id
    if spot.piece == "rival":
        return game.seats[RIVAL].piece_id
    spare = [p for p in game.supply() if game.kind_of(p) == spot.piece]
    if spare:
        return spare[0]
    a = math.radians(spot.angle)
    R = game.materials.ring.radius
    on_ring = [p for p in game.world.pieces if p.kind == spot.piece and not game.world.riders(p.id)]
    if not on_ring:
        raise TutorialError(f"no {spot.piece} disc left to put on the ring")
    return max(on_ring, key=lambda p: math.hypot(p.x - R * math.cos(a), p.y - R * math.sin(a))).id


def _put(game: Game, spot: Spot) -> str:
    """Put the spot's piece there, clearing its room; turned a little round the ring when a
    wrestler piece stands in the way. Returns the piece's id."""
    pid = _piece_for(game, spot)
    kind = game.kind_of(pid)
    size = _size(game, kind)
    d = spot.centre_distance(game.materials.ring.radius, size)
    world = game.world
    angle = world.piece(pid).angle if pid in world else 0.0
    R = game.materials.ring.radius
    middle = d < 0.3 * R   # turning round the ring would not get it away from a wrestler there
    for nudge in [0.0] if middle else _NUDGES:
        a = math.radians(spot.angle + nudge)
        x, y = d * math.cos(a), d * math.sin(a)
        room = size * (1 + 2 * spot.room)
        near = [p for p in game.world.pieces if p.id != pid
                and math.hypot(p.x - x, p.y - y) < room + _size(game, p.kind)]
        wrestlers = [p for p in near if game.is_wrestler_piece(p.id)]
        if wrestlers and middle:
            for w in wrestlers:  # moved straight away from the spot, out of its room
                away = math.atan2(w.y - y, w.x - x) if (w.x, w.y) != (x, y) else 0.0
                reach = room + _size(game, w.kind) + 0.002
                wx, wy = x + reach * math.cos(away), y + reach * math.sin(away)
                _put(game, Spot("you" if w.id == game.seats[YOU].piece_id else "rival",
                                math.degrees(math.atan2(wy, wx)),
                                radius=min(1.0, math.hypot(wx, wy) / R)))
            near = [p for p in game.world.pieces if p.id != pid and not game.is_wrestler_piece(p.id)
                    and math.hypot(p.x - x, p.y - y) < room + _size(game, p.kind)]
        elif wrestlers:
            continue
        for p in sorted(near, key=lambda q: -game.world.levels()[q.id]):  # riders first
            if p.id in game.world:
                for q in reversed([p.id, *game.world.riders(p.id)]):
                    game.edit(q, "supply")
        if pid in game.world and game.world.riders(pid):
            for q in reversed(game.world.riders(pid)):
                game.edit(q, "supply")
        game.edit(pid, "board", x, y, angle)
        return pid
    raise TutorialError(f"no room for the {spot.piece} piece near {spot.angle:g} degrees")


def _fill(game: Game, seat: int, want: dict[str, int], exact: bool) -> None:
    """Bring ``seat``'s inventory to ``want`` standard discs of each kind: up from the supply, and
    with ``exact`` down to it (what it has beyond goes back to the supply, signature pieces too)."""
    place = game.seat_inventory(seat)
    have = game.inventory(game.side_of(seat))
    if exact:
        for kind in {game.kind_of(p) for p in have}:
            mine = [p for p in have if game.kind_of(p) == kind]
            for p in mine[want.get(kind, 0):]:
                game.edit(p, "supply")
    for kind, n in want.items():
        short = n - sum(1 for p in game.inventory(game.side_of(seat)) if game.kind_of(p) == kind)
        for p in [p for p in game.supply() if game.kind_of(p) == kind][:max(0, short)]:
            game.edit(p, place)


# ----- the checks ------------------------------------------------------------------------------------
def _judge(tut: Tutorial, game: Game) -> Verdict | None:
    step, mark = tut.step, tut.mark
    assert mark is not None
    since = game.actions[mark.history:]
    mine = [a for a in since if getattr(a, "seat", None) == YOU and isinstance(a, (Push, Move))]
    r = game.result
    if step.check in ("submission", "knockout") and r is not None:
        if YOU in r.seats:
            if (r.reason is SUBMISSION) == (step.check == "submission") and \
                    (r.reason is KNOCKOUT) == (step.check == "knockout"):
                return Verdict(True)
            return Verdict(False, "You won, but the other way: " + step.fail)
    if r is not None and YOU not in r.seats:
        return Verdict(False, "Your own wrestler fell off: that loses the game." if r.actor == YOU
                       else "Blue knocked your wrestler out: that loses the game.")
    if not mine:
        return None
    # What the player's own action did: judged before the AI answers (at the first look after it).
    theirs = [a for a in since if getattr(a, "seat", None) == RIVAL and not isinstance(a, EndTurn)]
    if theirs and step.check not in ("submission", "knockout"):
        return Verdict(False, step.fail)
    ended = any(isinstance(a, EndTurn) and a.seat == YOU for a in since) or r is not None
    check = step.check
    if check == "pushed":
        return Verdict(True) if any(isinstance(a, Push) for a in mine) else None
    if check == "move":  # judged as the turn ends: the move, then a push, make the turn
        if not ended:
            return None
        return Verdict(True) if any(isinstance(a, Move) for a in mine) else Verdict(False, step.fail)
    if check in ("submission", "knockout"):
        return Verdict(False, step.fail) if ended else None
    if not any(isinstance(a, Push) for a in mine):
        return None
    if check == "crowd":
        pushed = {a.piece for a in mine if isinstance(a, Push)}
        moved = [pid for pid, (x, y) in mark.poses.items() if pid not in pushed
                 and (pid not in game.world
                      or math.hypot(game.world.piece(pid).x - x, game.world.piece(pid).y - y) >= MOVED)]
        return Verdict(True) if len(moved) >= 2 else Verdict(False, step.fail)
    if check == "gained":
        place = game.seat_inventory(YOU)
        now = game.locations()
        gained = [pid for pid, was in mark.places.items() if was == "board"
                  and now.get(pid) == place and game.kind_of(pid) in STANDARD_KINDS]
        return Verdict(True) if gained else Verdict(False, step.fail)
    if check == "guarded":
        pid = game.seats[YOU].piece_id
        if pid not in game.world or pid not in mark.poses:
            return Verdict(False, step.fail)
        p = game.world.piece(pid)
        x0, y0 = mark.poses[pid]
        inward = math.hypot(x0, y0) - math.hypot(p.x, p.y)
        return Verdict(True) if inward >= tut.guard else Verdict(False, step.fail)
    return None
