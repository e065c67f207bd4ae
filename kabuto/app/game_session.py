"""A Kabuto Sumo game at the table: :class:`kabuto.Game` behind the app's :class:`Session` API.

The rules stay in :mod:`kabuto.rules.game`; this module only translates: inventories to panel rows,
signature moves to buttons and click prompts, knock-outs to "where the piece flies", AI seats to
:mod:`kabuto.app.bot`. What is allowed, whose turn it is and every sentence about it come from the
rules engine; the game is given the table's names for the seats (:attr:`kabuto.Game.names`: "Red",
"team A"), so the engine's texts need no rewording here.

Every game is recorded (:mod:`kabuto.replay.recorder`): the recorder is told after each action - a push,
a move, an end of turn, a tuning change, an undo - and saves the replay into the per-user replays
folder after every turn. Hot-seat undo restores the game kept from before the last human action
(its JSON continues bit-identically); the recorder sees the shorter history and writes an
``undo`` entry, so the replay shows the undo as such. ``kabuto play --resume FILE`` continues a
replay (:func:`kabuto.replay.format.load_for_resume`) or a bare ``Game.to_json()`` file.
"""
from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

from kabuto.app.aim import Aim
from kabuto.app.bot import plan_turn
from kabuto.app.game_config import GameConfig
from kabuto.app.session import (
    AIStep,
    MoveView,
    PieceChoice,
    Prompt,
    SeatView,
    Session,
    ShownPreview,
    TableOutcome,
    Winner,
)
from kabuto.app.words import and_list
from kabuto.replay.format import use_materials
from kabuto.replay.recorder import record as start_recording
from kabuto.rules import actions
from kabuto.rules.errors import IllegalMove
from kabuto.rules.game import Game
from kabuto.rules.inventory import STANDARD_KINDS, parse_place, seat_place
from kabuto.rules.naming import SeatNames
from kabuto.rules.outcomes import Knockout
from kabuto_base.numbers import wrap_deg
from kabuto_ui import theme
from physics import Materials, Push, World


def _card_effect(text: str) -> str:
    """A move card's text without its cost and turn sentences (what the move itself does), as a
    clause: "this turn you may push a second piece ..." (said when the move changes the turn,
    not the ring).

    >>> _card_effect("Pay 1 medium disc to your opponent. This turn you may push again.")
    'lets you: this turn you may push again'
    """
    keep = [s.strip() for s in text.split(". ")
            if s.strip() and not s.strip().startswith(("Pay ", "Discard ", "Stack ", "Replaces "))]
    said = ". ".join(keep).rstrip(".")
    return "lets you: " + said[:1].lower() + said[1:] if said else ""


def _and(words) -> str:
    """"a", "a and b", "a, b and c"."""
    w = list(words)
    return ", ".join(w[:-1]) + " and " + w[-1] if len(w) > 1 else "".join(w)


#: How the table calls the two teams of a 4-player game (the seats are theme.SEAT_NAMES).
TEAM_NAMES = theme.TEAM_NAMES


class GameSession(Session):
    """One game; ``seats`` says which are AI. ``record`` (default) keeps its replay on disk in
    ``data_dir`` (default: :func:`kabuto.replay.userdata.data_dir`)."""

    def __init__(self, game: Game, seats: tuple[str, ...], ai_level: str = "medium", seed: int = 0,
                 *, ai_workers: int | None = None, record: bool = True,
                 data_dir: str | Path | None = None):
        if len(seats) != game.players:
            raise ValueError(f"seats: {len(seats)} given for {game.players} players")
        self.game = game
        self.seat_kinds = tuple(seats)
        self.ai_level = ai_level
        self.ai_workers = ai_workers  # processes the AI may use (None: its default, one per core)
        self.seed = seed
        self._undo: list[dict[str, Any]] = []   # game JSON before each human action
        self._owner_of_kind: dict[str, int] = {}
        self._own_colour: dict[str, theme.RGBA] = {}  # signature kind -> the piece's own colour
        for s in game.seats:
            self._owner_of_kind[s.wrestler.piece_kind] = s.index
            for sp in s.wrestler.signature:
                self._owner_of_kind[sp.kind] = s.index
                self._own_colour[sp.kind] = theme.from_hex(sp.colour)
        self.title = "Kabuto Sumo" + (" - Junior League" if game.junior else "")
        self.recorder = None
        self.record_problem = ""
        #: One line to show at the start, e.g. that a resumed game goes on from recorded positions.
        self.notice: str | None = None
        if record:
            try:
                self.recorder = start_recording(game, data_dir, seats=self.seat_kinds)
            except (OSError, ValueError) as exc:  # a bad data folder: play on, say so
                self.record_problem = f"not recorded: {exc}"

    @property
    def game(self) -> Game:
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        """Every game the table shows (a new one, one an undo restored, a replay's) names its seats
        the table's way, so its texts read "Red (Goliath Gus)", not "seat 0 (Goliath Gus)"."""
        game.names = SeatNames(tuple(theme.SEAT_NAMES[i % len(theme.SEAT_NAMES)]
                                     for i in range(game.players)), TEAM_NAMES)
        self._game = game

    # ----- building ------------------------------------------------------------------------------------
    @classmethod
    def new(cls, config: GameConfig, materials: Materials | None = None, **kw) -> GameSession:
        config = config.for_one_game()
        assert config.seed is not None
        wrestlers = [w for w in config.wrestlers] if config.wrestlers and all(config.wrestlers) else None
        game = Game.new(players=config.players, wrestlers=wrestlers, junior=config.junior,
                        seed=config.seed, first_player=config.first_player, materials=materials)
        return cls(game, config.seats, config.ai_level, config.seed, **kw)

    @classmethod
    def resume(cls, path: Path, seats: tuple[str, ...] | None = None, **kw) -> GameSession:
        """Go on with a replay file (its recorded seats, unless ``seats`` says otherwise) or a bare
        ``Game.to_json()`` file (every seat human unless told)."""
        from kabuto.app.replay_model import is_replay_file, read_saved_game
        from kabuto.replay import format as rp

        path = Path(path)
        notice = None
        if is_replay_file(path):
            game = rp.load_for_resume(path)
            origin = rp.origin_of(game)
            recorded = tuple(((origin.meta if origin else None) or {}).get("seats") or ())
            seats = seats or (recorded if len(recorded) == game.players else None)
            notice = rp.resume_notice(game)
        else:
            game = Game.from_json(read_saved_game(path))
        session = cls(game, seats or ("human",) * game.players, **kw)
        session.notice = notice
        return session

    def record(self) -> None:
        """Tell the recorder what just happened (it saves after each turn)."""
        if self.recorder is None:
            return
        try:
            self.recorder.update(self.game)
        except OSError as exc:
            self.record_problem = f"recording stopped: {exc}"
            self.recorder = None

    def save_now(self) -> Path | None:
        """Write the replay now (Ctrl+S); its path, or None when the game is not recorded."""
        if self.recorder is None:
            return None
        self.recorder.sync(self.game)
        return self.recorder.save(self.game)

    def close(self) -> None:
        """Leaving the table: write what is left of the replay."""
        if self.recorder is not None:
            try:
                self.recorder.close(self.game)
            except OSError as exc:
                self.record_problem = f"recording stopped: {exc}"
            self.recorder = None

    # ----- physics ---------------------------------------------------------------------------------------
    @property
    def materials(self) -> Materials:
        return self.game.materials

    def set_materials(self, materials: Materials) -> None:
        """Tuning from the next push (:func:`kabuto.replay.format.use_materials`); the recorder adds
        the new materials table to the replay."""
        use_materials(self.game, materials)
        self.record()

    def world(self) -> World:
        return self.game.world

    # ----- seats and panels ------------------------------------------------------------------------------
    def seat_name(self, seat: int) -> str:
        return self.game.names.seat(seat)

    def seat_word(self, seat: int) -> str:
        return self.seat_name(seat)

    def _whose(self, place: str) -> str | None:
        """Whose inventory ``place`` is, in the table's short words ("Blue", "team A"), or None
        when it is nobody's (the supply, the board)."""
        p = parse_place(place)
        if p.number is None:
            return None
        return self.game.names.team(p.number) if p.kind == "team" else self.seat_name(p.number)

    def _in_order(self, kinds: Counter[str]) -> list[str]:
        """Standard discs first, smallest first; then the signature pieces by name."""
        sizes = self.game.materials.kinds
        return sorted(kinds, key=lambda k: (k not in STANDARD_KINDS,
                                            sizes[k].size if k in STANDARD_KINDS else 0.0, k))

    def _inventory_rows(self, place_ids: list[str]) -> tuple[tuple[str, str, int], ...]:
        g = self.game
        counts = Counter(g.kind_of(p) for p in place_ids)
        return tuple((k, self._short_name(k), counts[k]) for k in self._in_order(counts))

    def kind_label(self, kind: str) -> str:
        return self.game.kind_name(kind)

    def owner_name(self, pid: str) -> str | None:
        seat = self.game.owner_of(pid)
        return self.seat_name(seat) if seat is not None else None

    def _short_name(self, kind: str) -> str:
        return kind if kind in STANDARD_KINDS else self.game.kind_name(kind)

    def seats(self) -> list[SeatView]:
        g = self.game
        out = []
        for s in g.seats:
            name = self.seat_name(s.index)
            if g.players == 4:
                name += f" ({g.names.team(s.side)})"
            wname = s.junior_card.name if s.junior_card is not None else s.wrestler.name
            eliminated = s.index in g.out
            note = {"submission": "out: ran out of pieces", "own_knockout": "out: own wrestler knocked out",
                    "knocked_out": "out: wrestler knocked out"}.get(g.out.get(s.index, ""), "")
            shares = ""
            if g.players == 4 and g.sides[s.side][0] != s.index:
                mate = g.sides[s.side][0]
                shares = f"shares {g.names.team(s.side)}'s inventory with {self.seat_name(mate)}"
            out.append(SeatView(s.index, name, theme.seat_colour(s.index), self.seat_is_ai(s.index),
                                wname, self._inventory_rows(g.inventory(s.side)), eliminated, note,
                                shares))
        return out

    def current_seat(self) -> int | None:
        return None if self.game.is_over else self.game.current_seat

    def seat_is_ai(self, seat: int | None) -> bool:
        return seat is not None and self.seat_kinds[seat] == "ai"

    def supply(self) -> list[tuple[str, str, int]]:
        g = self.game
        ids = [p for p in g.supply() if not g.is_wrestler_piece(p)]
        return list(self._inventory_rows(ids))

    def piece_colour(self, pid: str, kind: str) -> theme.RGBA:
        owner = self._owner_of_kind.get(kind)
        if owner is None:
            return theme.DISC_COLOURS.get(kind, theme.UNKNOWN_PIECE)
        base = theme.seat_colour(owner)
        if kind == self.game.seats[owner].wrestler.piece_kind:
            return base
        # A signature piece is drawn as itself (the Boulder grey stone, the Dung Ball brown), not
        # as a paler copy of its wrestler; its tooltip says whose it is.
        return self._own_colour.get(kind, theme.lighter(base, 0.4))

    def status(self) -> str:
        g = self.game
        if g.is_over:
            return f"Game over: {g.result_text()}"
        s = g.current_seat
        made, left = g.turn.pushes, g.pushes_left
        if not left:
            tail = "pushed - use a signature move or end the turn (E)"
        elif made + left > 1:
            tail = f"push {made + 1} of {made + left}, from the same platform spot"
        else:
            tail = "to push"
        if g.push_source() != g.seat_inventory(s):  # a move lent this turn another inventory
            tail += f" (from {g.describe_place(g.push_source())})"
        extra = f"  ({self.record_problem})" if self.record_problem else ""
        return f"Turn {g.turn.number}: {g.seat_label(s)} {tail}{extra}"

    # ----- pushing ---------------------------------------------------------------------------------------
    def choices(self) -> list[PieceChoice]:
        g = self.game
        counts = Counter(g.kind_of(p) for p in g.legal_pieces())
        return [PieceChoice(k, k, self._short_name(k), counts[k]) for k in self._in_order(counts)]

    def locked_aim(self) -> tuple[float, float] | None:
        return self.game.locked_platform()

    def check(self, aim: Aim, choice: PieceChoice) -> tuple[Push | None, str]:
        """Cheap: the rules' own check of the push (:meth:`kabuto.Game.check_push`), no simulation."""
        try:
            return self.game.check_push(choice.kind, aim.entry_deg, aim.heading_deg, aim.speed,
                                        aim.spin_deg), ""
        except IllegalMove as exc:
            return None, self.refused(exc)

    def destinations(self, knocked_out: list[Knockout]) -> dict[str, str]:
        """Where each piece flies: its new place, but a team's inventory is drawn on the row of
        the team's first seat (SeatView.shares), so pieces for it fly there."""
        out = {}
        for k in knocked_out:
            place = parse_place(k.to)
            if place.kind == "team" and place.number is not None:
                out[k.piece] = seat_place(self.game.sides[place.number][0])
            else:
                out[k.piece] = k.to
        return out

    def _ko_text(self, knocked_out: list[Knockout]) -> str:
        if not knocked_out:
            return "nothing fell"
        by_place: dict[str, Counter[str]] = {}
        for k in knocked_out:
            by_place.setdefault(k.to, Counter())[self._short_name(k.kind)] += 1
        parts = []
        for to, counts in by_place.items():
            what = and_list([name if name not in STANDARD_KINDS
                             else f"{'a' if n == 1 else n} {name} disc{'s' * (n != 1)}"
                             for name, n in counts.items()])
            whose = self._whose(to)
            where = self.game.describe_place(to) if whose is None else f"{whose}'s inventory"
            parts.append(f"{what} to {where}")
        return "knocked out " + "; ".join(parts)

    def push(self, aim: Aim, choice: PieceChoice) -> TableOutcome | None:
        g = self.game
        seat = g.current_seat
        push, reason = self.check(aim, choice)
        if push is None:
            raise ValueError(reason)
        snapshot = g.to_json() if not self.seat_is_ai(seat) else None
        out = g.push(choice.kind, aim.entry_deg, aim.heading_deg, aim.speed, aim.spin_deg,
                     end_turn=False)  # IllegalMove (a ValueError) if refused: nothing changed
        if snapshot is not None:
            self._undo.append(snapshot)
        self.record()
        self._maybe_end_turn(seat)
        return TableOutcome(out.physics, self.destinations(out.knocked_out), self.push_sentence(seat, out))

    def push_sentence(self, seat: int, out: Any, ai: bool = False) -> str:
        """A push in the table's words: "Red (Mike) pushed a small disc: knocked out ..." (``out``:
        what :meth:`kabuto.Game.push` returned). The game log and the replay viewer say it too."""
        kind = out.kind
        what = f"a {kind} disc" if kind in STANDARD_KINDS else self.game.kind_name(kind)
        who = self.seat_name(seat) + (" (AI)" if ai else "")
        return f"{who} pushed {what}: {self._ko_text(out.knocked_out)}"

    def _maybe_end_turn(self, seat: int) -> None:
        """End the turn for the player when nothing is left to do in it: no push left and no
        signature move usable now (an AI seat always ends it)."""
        g = self.game
        if g.is_over or g.current_seat != seat or not g.can_end_turn or g.can_push:
            return
        if not self.seat_is_ai(seat) and any(m.usable for m in g.available_moves(seat)):
            return
        g.end_turn()
        self.record()

    def can_end_turn(self) -> bool:
        return self.game.can_end_turn

    def end_turn(self) -> None:
        g = self.game
        if g.is_over:
            return
        if g.can_end_turn:
            g.end_turn()
            self.record()

    # ----- signature moves ----------------------------------------------------------------------------------
    def moves(self) -> list[MoveView]:
        g = self.game
        seat = self.current_seat()
        if seat is None or self.seat_is_ai(seat):
            return []
        out = []
        for opt in g.available_moves(seat):
            prompts = []
            specs = list(opt.targets)
            i = 0
            while i < len(specs):
                sp = specs[i]
                if _chosen_for_you(specs, i):
                    pass
                elif sp.kind == "piece":
                    prompts.append(Prompt("piece", f"click {sp.text}", tuple(sp.choices)))
                elif sp.kind == "seat":
                    wids = tuple(g.seats[q].piece_id for q in sp.choices if g.seats[q].piece_id in g.world)
                    prompts.append(Prompt("piece", f"click the wrestler of {sp.text}", wids))
                elif sp.kind == "angle_deg":
                    slide = i + 1 < len(specs) and specs[i + 1].kind == "distance_mm"
                    text = (f"click where to slide it (up to {specs[i + 1].high:.3g} mm)" if slide
                            else f"click a point: {sp.text}")
                    prompts.append(Prompt("point", text, (), sp.origin, side=not slide))
                    if slide:
                        i += 1
                elif sp.kind == "distance_mm":
                    after_piece = i > 0 and specs[i - 1].name == "piece"
                    text = (f"click how far to slide it (up to {sp.high:.3g} mm)" if after_piece
                            else f"click a point: {sp.text}")
                    prompts.append(Prompt("point", text, (), None if after_piece else sp.origin))
                i += 1
            why = self.refused(opt.refusal) if opt.refusal is not None else opt.reason or ""
            out.append(MoveView(opt.name, opt.name, opt.text, opt.usable, why, tuple(prompts)))
        return out

    def use_move(self, key: str, clicks: list) -> TableOutcome | None:
        g = self.game
        seat = g.current_seat
        targets = self.move_targets(key, clicks)
        before = {p.id: (p.kind, p.x, p.y) for p in g.world.pieces}
        snapshot = g.to_json()
        out = g.use_move(seat, key, **targets)  # IllegalMove (a ValueError) changes nothing
        self._undo.append(snapshot)
        self.record()
        vanished = tuple((k.piece, before[k.piece][0], before[k.piece][1], before[k.piece][2])
                         for k in out.knocked_out if k.piece in before)
        bits = []
        if out.paid:
            by_place: dict[str, Counter[str]] = {}
            for pid, place in out.paid.items():
                by_place.setdefault(place, Counter())[self._short_name(g.kind_of(pid))] += 1
            for place, counts in by_place.items():
                bits.append("paid " + ", ".join(f"{n} {k}" for k, n in counts.items())
                            + f" to {self._whose(place) or g.describe_place(place)}")
        if out.gained:
            bits.append("gained " + ", ".join(g.kind_name(g.kind_of(p)) for p in out.gained))
        if out.knocked_out:
            bits.append(self._ko_text(out.knocked_out))
        return TableOutcome(None, self.destinations(out.knocked_out),
                       f"{self.seat_name(seat)} used {key}" + (": " + "; ".join(bits) if bits else ""),
                       vanished)

    def move_targets(self, key: str, clicks: list) -> dict[str, Any]:
        """The targets of move ``key`` (the keywords of :meth:`kabuto.Game.use_move`) that the
        clicks answering its prompts choose; ValueError if they do not answer them."""
        g = self.game
        seat = g.current_seat
        opt = next((m for m in g.available_moves(seat) if m.name == key), None)
        if opt is None:
            raise ValueError(f"no move {key!r}")
        targets: dict[str, Any] = {}
        clicks = list(clicks)
        specs = list(opt.targets)
        i = 0
        while i < len(specs):
            sp = specs[i]
            if _chosen_for_you(specs, i):
                targets[sp.name] = sp.choices[0]
                i += 1
                continue
            if not clicks:
                raise ValueError(f"{key} needs {sp.text}")
            c = clicks.pop(0)
            if sp.kind == "piece":
                targets[sp.name] = c
            elif sp.kind == "seat":
                owner = g.owner_of(c) if isinstance(c, str) else None
                if owner is None:
                    raise ValueError(f"click a wrestler piece to choose {sp.text}")
                targets[sp.name] = owner
            elif sp.kind in ("angle_deg", "distance_mm"):
                if not isinstance(c, tuple):
                    raise ValueError(f"click a point on the ring for {sp.text}")
                # A distance asked right after a piece (Pitchfork) is measured from that piece.
                origin = (targets["piece"] if sp.kind == "distance_mm" and i > 0
                          and specs[i - 1].name == "piece" else sp.origin)
                if origin is None:
                    raise ValueError("the piece to measure from is not on the ring")
                o = g.world.piece(origin)
                dx, dy = c[0] - o.x, c[1] - o.y
                if sp.kind == "angle_deg":
                    targets[sp.name] = math.degrees(math.atan2(dy, dx))
                    if i + 1 < len(specs) and specs[i + 1].kind == "distance_mm":
                        hi = specs[i + 1].high or 0.0
                        targets[specs[i + 1].name] = max(0.1, min(hi, math.hypot(dx, dy) * 1000.0))
                        i += 1
                else:
                    targets[sp.name] = max(0.1, min(sp.high or 0.0, math.hypot(dx, dy) * 1000.0))
            i += 1
        return targets

    def preview_move(self, key: str, clicks: list) -> ShownPreview:
        """What the move would do (:meth:`kabuto.Game.preview_move`), in a player's words, with
        the pieces it moves or places drawn where they would end and those it knocks out."""
        g = self.game
        seat = g.current_seat
        opt = next((m for m in g.available_moves(seat) if m.name == key), None)
        pv = g.preview_move(seat, key, **self.move_targets(key, clicks))
        out, after = pv.outcome, pv.world
        levels = after.levels()
        ghosts = tuple((pid, after.piece(pid).kind, (after.piece(pid).x, after.piece(pid).y,
                                                       after.piece(pid).angle, levels[pid]))
                       for pid in dict.fromkeys([*out.moved, *out.placed]) if pid in after)
        falls = tuple(k.piece for k in out.knocked_out if k.piece in g.world)
        does = self._effect_words(out, after, seat)
        if not does and opt is not None:  # an effect on the turn, not the ring: the card says it
            does = [_card_effect(opt.text)]
        head = f"{key} " + ", ".join(does) if does else key
        if out.result is not None:
            head += ": " + self._result_for(seat, out.result.seats)
        elif out.eliminated:
            head += ": " + " and ".join(self.seat_name(q) for q in out.eliminated) + " out of the game"
        lines = [head[:1].upper() + head[1:]]
        cost = self._cost_words(out, seat, after)
        tail = "It ends your turn." if out.turn_ended and out.result is None else ""
        if cost or tail:
            lines.append(" ".join(x for x in (cost, tail) if x))
        return ShownPreview(tuple(lines), ghosts, falls)

    def _piece_words(self, pid: str, seat: int) -> str:
        """A piece as its mover says it: "your wrestler piece", "the medium disc", "the Boulder"."""
        g = self.game
        if pid == g.seats[seat].piece_id:
            return "your wrestler piece"
        name = g.kind_name(g.kind_of(pid))  # by kind: the piece may be in the supply
        return name if g.is_wrestler_piece(pid) else f"the {name}"

    def _effect_words(self, out, after: World, seat: int) -> list[str]:
        g = self.game
        does = []
        if out.knocked_out:
            does.append("knocks out " + self._falls_words(out.knocked_out, seat))
        for pid in out.placed:
            if pid in out.paid or pid not in after:
                continue  # a Stack cost: said with the cost
            base = after.piece(pid).base
            on = f"on {self._piece_words(base, seat)}" if base else "on the ring"
            does.append(f"puts {self._piece_words(pid, seat)} {on}")
        carried = {q for pid in out.moved if pid in after for q in after.riders(pid)}
        moved = [p for p in out.moved if p not in carried and p in after and p in g.world]
        if len(moved) == 2 and all(
                math.hypot(after.piece(p).x - g.world.piece(q).x, after.piece(p).y - g.world.piece(q).y)
                < 0.0005 for p, q in (moved, moved[::-1])):
            does.append(f"swaps {self._piece_words(moved[0], seat)} and {self._piece_words(moved[1], seat)}")
            moved = []
        for pid in moved:  # riders go with their base; what fell is said above
            a, b = g.world.piece(pid), after.piece(pid)
            d = math.hypot(b.x - a.x, b.y - a.y) * 1000.0
            turn = wrap_deg(math.degrees(b.angle - a.angle))
            if d >= 0.5:
                does.append(f"moves {self._piece_words(pid, seat)} {d:.0f} mm")
            elif abs(turn) >= 0.5:
                side = "anticlockwise" if turn > 0 else "clockwise"
                does.append(f"turns {self._piece_words(pid, seat)} {abs(turn):.0f}° {side}")
            else:
                does.append(f"moves {self._piece_words(pid, seat)} less than 1 mm")
        if out.gained:
            does.append("takes " + ", ".join(self._piece_words(p, seat) for p in out.gained)
                        + " from the supply into your inventory")
        return does

    def _falls_words(self, knocked_out: list[Knockout], seat: int) -> str:
        """"Hercules Hank's wrestler piece and 2 medium discs (into your inventory)"."""
        g = self.game
        mine = g.seat_inventory(seat)
        groups: dict[str, Counter[str]] = {}
        wrestlers = []
        for k in knocked_out:
            if k.wrestler_of is not None:
                wrestlers.append(self._piece_words(k.piece, seat))
            else:
                groups.setdefault(k.to, Counter())[k.kind] += 1
        parts = list(wrestlers)
        for to, counts in groups.items():
            what = _and(g.count_text(kind, n) if kind in STANDARD_KINDS or n > 1
                                else self._piece_words(next(k.piece for k in knocked_out
                                                            if k.kind == kind), seat)
                        for kind, n in counts.items())
            whose = self._whose(to)
            where = ("into your inventory" if to == mine else
                     f"to {whose}'s inventory" if whose else f"to {g.describe_place(to)}")
            parts.append(f"{what} ({where})")
        return _and(parts)

    def _result_for(self, seat: int, winners: tuple[int, ...]) -> str:
        g = self.game
        if not winners:
            return "a draw"
        if seat in winners:
            return "your team wins" if len(winners) > 1 else "you win"
        if len(winners) == 1:
            return f"you lose, {self.seat_name(winners[0])} wins"
        return f"you lose, {g.names.team(g.side_of(winners[0]))} wins"

    def _cost_words(self, out, seat: int, after: World) -> str:
        """"Costs 1 medium disc from your inventory, paid to Blue." (each way a cost goes), or
        "It costs nothing." for a free move (Sparkle)."""
        g = self.game
        if not out.paid:
            return "It costs nothing."
        by_place: dict[str, Counter[str]] = {}
        for pid, place in out.paid.items():
            by_place.setdefault(place, Counter())[g.kind_of(pid)] += 1
        bits = []
        for place, counts in by_place.items():
            what = _and(g.count_text(k, n) for k, n in counts.items())
            if place == "board":
                first = next(pid for pid in out.paid if out.paid[pid] == "board")
                base = after.piece(first).base if first in after else None
                how = f"stacked on {self._piece_words(base, seat)}" if base else "stacked"
            elif place == "supply":
                how = "returned to the supply"
            else:
                how = f"paid to {self._whose(place) or g.describe_place(place)}"
            bits.append(f"{what} from your inventory, {how}")
        return "Costs " + "; ".join(bits) + "."

    # ----- undo ------------------------------------------------------------------------------------------
    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> None:
        """Back to the game before the last human push or move (AI turns after it go too)."""
        if not self._undo:
            raise ValueError("nothing to undo")
        data = self._undo.pop()
        materials = self.game.materials
        self.game = Game.from_json(data)
        if self.game.materials != materials:
            self.set_materials(materials)  # the tuning in force stays in force
        self.record()  # the recorder sees the shorter history: an undo entry in the replay

    # ----- the end, and the AI ------------------------------------------------------------------------------
    def winner(self) -> Winner | None:
        g = self.game
        r = g.result
        if r is None:
            return None
        if not r.seats:
            title = "A draw!"
        elif len(r.seats) == 1:
            title = f"{g.seat_label(r.seats[0])} wins!"
        else:  # a team: its seats by colour, and the team's name (wrestler names would not fit)
            names = " & ".join(self.seat_name(q) for q in r.seats)
            title = f"{names} ({g.names.team(g.side_of(r.seats[0]))}) win!"
        return Winner(tuple(r.seats), g.result_text(), title)

    def ai_plan(self, seat: int) -> list[AIStep] | None:
        """The AI's turn as steps (runs in a thread: only reads the game)."""
        plan = plan_turn(self.game, seat, self.ai_level, self.seed, self.ai_workers)
        if plan is None:
            return None
        meant = iter(plan.meant)
        steps = []
        for a in plan.actions:
            if isinstance(a, actions.Move):
                steps.append(AIStep("move", a.name, dict(a.targets)))
            elif isinstance(a, actions.Push):
                m = next(meant, a)
                steps.append(AIStep("push", aim=Aim(a.entry_deg, a.heading_deg, a.speed, a.spin_deg),
                                    shown=Aim(m.entry_deg, m.heading_deg, m.speed, m.spin_deg),
                                    choice=PieceChoice(a.piece, a.piece, self._short_name(a.piece), 1)))
        return steps

    def ai_move(self, step: AIStep) -> TableOutcome:
        g = self.game
        seat = g.current_seat
        before = {p.id: (p.kind, p.x, p.y) for p in g.world.pieces}
        out = g.use_move(seat, step.move, **step.targets)
        self.record()
        vanished = tuple((k.piece, before[k.piece][0], before[k.piece][1], before[k.piece][2])
                         for k in out.knocked_out if k.piece in before)
        return TableOutcome(None, self.destinations(out.knocked_out),
                       f"{self.seat_name(seat)} (AI) used {step.move}"
                       + (": " + self._ko_text(out.knocked_out) if out.knocked_out else ""), vanished)

    def ai_push(self, step: AIStep) -> TableOutcome:
        g = self.game
        seat = g.current_seat
        a, choice = step.aim, step.choice
        if a is None or choice is None:
            raise ValueError("an AI push step needs an aim and a piece")
        out = g.push(choice.kind, a.entry_deg, a.heading_deg, a.speed, a.spin_deg, end_turn=False)
        self.record()
        return TableOutcome(out.physics, self.destinations(out.knocked_out),
                       self.push_sentence(seat, out, ai=True))

    def ai_finish(self, seat: int | None) -> None:
        g = self.game
        if not g.is_over and g.current_seat == seat and g.can_end_turn:
            g.end_turn()
            self.record()


def _chosen_for_you(specs: list, i: int) -> bool:
    """Whether target ``i`` needs no click: a piece with one choice (Vice Grip with one piece in
    the circle), unless a point is measured from it next (Pitchfork shows where it slides from)."""
    sp = specs[i]
    measured = i + 1 < len(specs) and specs[i + 1].kind in ("angle_deg", "distance_mm")
    return sp.kind == "piece" and len(sp.choices) == 1 and not measured
