"""The Kabuto Sumo AI: choose a turn by simulating candidate pushes from the at-rest state.

A push's outcome depends only on the at-rest state and the push, so :meth:`kabuto.Game.preview_push`
shows exactly what the real push would do. :func:`choose` plans one turn:

1. **Openings.** Each usable signature move (and, from medium up, each pair) is tried before the
   push on a clone, with its best targets (:mod:`kabuto.ai.signature`). A move that wins outright is
   the plan; a move that replaces the turn is kept as a rival to the best push; other moves whose
   cost a push could plausibly win back become *openings* searched with the push.
2. **Broad sampling** (:func:`kabuto.ai.candidates.broad`): entries all round, headings within the
   platform's range, speeds, every kind of piece the side may push, for each opening.
3. **Refinement** around the best few, in rounds of shrinking steps.
4. **Robustness** (medium, hard): the best few are scored again under the level's own hand wobble and
   the mean decides, so the AI prefers a push that still works when the hand shakes.
4b. **Look-ahead** (hard, expert: ``reply_top``, ``reply_broad``): the best few are checked against
   the next side's replies (:mod:`kabuto.ai.lookahead`), and the one whose worst reply leaves the AI
   best is played, so it does not leave its own wrestler to be knocked out next turn.
5. **Execution plan.** The chosen aim is wobbled (seeded) into the push actually executed, played on
   a clone - a second push after Rhino Rita's Charge is searched there, from the locked platform -
   and signature moves after the push are chosen greedily on the real outcome.

Candidates are generated in this process from one seeded ``random.Random``; they are scored in
order (:func:`kabuto.ai.pool.evaluate`, over worker processes if asked) and ties go to the earlier
candidate, so the plan is identical whatever the number of workers.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kabuto.ai import candidates as cand
from kabuto.ai import scoring
from kabuto.ai.levels import AIConfig, Level, config
from kabuto.ai.levels import level as get_level
from kabuto.ai.lookahead import after_reply, turn_ended
from kabuto.ai.plan import MoveChoice, Plan, Prediction, PushChoice, Step
from kabuto.ai.pool import Base, Candidate, Prefix, Scored, Sketch, default_workers, evaluate
from kabuto.ai.scoring import score_game
from kabuto.ai.signature import try_moves
from kabuto.rules.errors import IllegalMove

if TYPE_CHECKING:
    from kabuto.rules.game import Game


@dataclass
class _Opening:
    moves: tuple[MoveChoice, ...]
    game: Game
    score: float

    @property
    def prefix(self) -> Prefix:
        return tuple((m.name, dict(m.targets)) for m in self.moves)


def _check_args(game: Game, seed: object, workers: object) -> None:
    from kabuto.rules.game import Game

    if not isinstance(game, Game):
        raise ValueError(f"game: expected a kabuto.Game, got {type(game).__name__}")
    if game.is_over:
        raise ValueError("the game is over: there is no turn to plan")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed: expected a whole number, got {seed!r}")
    if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool) or workers < 1):
        raise ValueError(f"workers: expected a number of processes >= 1, got {workers!r}")


def choose(game: Game, level: str | Level = "hard", seed: int = 0, workers: int | None = None) -> Plan:
    """Plan the turn of the seat to move in ``game`` (which is not changed).

    ``level``: "easy", "medium", "hard" (``assets/ai.toml``) or a :class:`~kabuto.ai.levels.Level`.
    ``seed``: seeds the sampling and the hand wobble (same game, level and seed: same plan).
    ``workers``: processes scoring candidates (default: one per core); the plan does not depend on it.
    Execute the plan with :func:`kabuto.ai.play_turn`.
    """
    lvl = get_level(level)
    _check_args(game, seed, workers)
    return _Search(game, lvl, seed, default_workers() if workers is None else workers, config()).run()


class _Search:
    def __init__(self, game: Game, lvl: Level, seed: int, workers: int, cfg: AIConfig):
        self.game = game
        self.seat = game.current_seat
        self.side = game.current_side
        self.lvl = lvl
        self.seed = seed
        self.workers = workers
        self.search = cfg.search
        self.weights = cfg.weights
        self.base = Base.of(game)
        self.rng = random.Random(f"kabuto-ai|{lvl.name}|{seed}|{self.base.key}")
        self.previews = 0
        self.sketch = Sketch.of(lvl, cfg.search)
        #: Candidates (indices) whose score is an exact preview's: with no sketch, every one.
        self.exact: set[int] = set()

    # ----- scoring ------------------------------------------------------------------------------
    def _evaluate(self, base: Base, prefixes: list[Prefix], cands: list[Candidate],
                  exact: bool = False) -> list[Scored | None]:
        """Scores of ``cands``: sketched when the level sketches, unless ``exact``."""
        self.previews += len(cands)
        return evaluate(base, prefixes, cands, self.workers, sketch=None if exact else self.sketch)

    def _recheck(self, prefixes: list[Prefix], cands: list[Candidate], scored: list[Scored | None],
                 which: list[int]) -> None:
        """Score the candidates ``which`` again with exact previews (in place), once each."""
        if self.sketch is None:
            return
        todo = [i for i in which if i not in self.exact]
        again = self._evaluate(self.base, prefixes, [cands[i] for i in todo], exact=True)
        for i, s in zip(todo, again, strict=True):
            scored[i] = s
            self.exact.add(i)

    @staticmethod
    def _ranked(scored: list[Scored | None]) -> list[int]:
        """Indices of the scored candidates, best first; ties go to the earlier candidate."""
        ok = [(i, s) for i, s in enumerate(scored) if s is not None]
        return [i for i, _ in sorted(ok, key=lambda p: (-p[1].score, p[0]))]

    @staticmethod
    def _at(scored: list[Scored | None], i: int) -> Scored:
        """Candidate ``i``'s score, for an index :meth:`_ranked` gave (those are never None)."""
        s = scored[i]
        assert s is not None
        return s

    # ----- the search ---------------------------------------------------------------------------
    def run(self) -> Plan:
        game, lvl, search = self.game, self.lvl, self.search
        openings, rivals = self._openings()
        for t in rivals:  # a move that wins outright needs no push
            if t.game.is_over and t.game.winner == self.side:
                return self._plan(t.moves, (), Prediction(t.score, (), self.side))
        won = self._push_then_win(openings[0])
        if won is not None:
            return won
        prefixes = [o.prefix for o in openings]
        weights = [2.0] + [1.0] * (len(openings) - 1)
        total = sum(weights)
        cands: list[Candidate] = []
        for i, o in enumerate(openings):
            n = lvl.broad if len(openings) == 1 else max(4, round(lvl.broad * weights[i] / total))
            cands += cand.broad(o.game, i, n, self.rng, search)
        scored = self._evaluate(self.base, prefixes, cands)

        for r in range(lvl.refine_rounds):
            top = self._ranked(scored)[:lvl.refine_top]
            new: list[Candidate] = []
            for i in top:
                c = cands[i]
                new += cand.neighbours(openings[c[0]].game, c, lvl.refine_per, 0.5 ** r, self.rng, search)
            cands += new
            scored += self._evaluate(self.base, prefixes, new)

        ranked = self._rechecked(prefixes, cands, scored)
        if not ranked:
            # Every candidate was refused (platform spots blocked by pieces hanging over the edge):
            # sweep the ring, straight in, before giving up.
            speeds = cand.speed_options(search.speed_fractions, game.materials.sim)
            middle = speeds[len(speeds) // 2]
            sweep = [cand.rounded(0, k, e, 0.0, middle, 0.0) for k in game.legal_kinds()
                     for e in range(-180, 180, 10)]
            cands += sweep
            scored += self._evaluate(self.base, prefixes, sweep)
            ranked = self._rechecked(prefixes, cands, scored)
        best_i = ranked[0] if ranked else None
        value = self._at(scored, best_i).score if best_i is not None else -math.inf
        means: dict[int, float] = {i: self._at(scored, i).score for i in ranked[:lvl.reply_top]}
        if best_i is not None and lvl.robust_top and lvl.robust_samples:
            top = ranked[:lvl.robust_top]
            variants: list[Candidate] = []
            for i in top:
                g = openings[cands[i][0]].game
                variants += [self._jitter(g, cands[i], self.rng) for _ in range(lvl.robust_samples)]
            vs = self._evaluate(self.base, prefixes, variants)
            for k, i in enumerate(top):
                part = vs[k * lvl.robust_samples:(k + 1) * lvl.robust_samples]
                # A wobble onto a blocked platform spot is steadied when played (see _commit): it
                # counts as the aim itself.
                own = self._at(scored, i).score
                vals = [own] + [(s.score if s else own) for s in part]
                # fsum: the built-in sum of floats is compensated since CPython 3.12, and a mean a
                # last bit apart can pick another push on another Python.
                means[i] = math.fsum(vals) / len(vals)
            best_i = min(top, key=lambda i: (-means[i], i))
            value = means[best_i]

        if best_i is not None and lvl.looks_ahead:
            order = [best_i] + [i for i in ranked if i != best_i]
            best_i, value = self._look_ahead(openings, prefixes, cands, scored, order, value, means)
            rivals = [_Opening(r.moves, r.game, self._reply_value(r.game, None, r.score)[0])
                      for r in rivals]

        rival = max(rivals, key=lambda t: t.score, default=None)
        if rival is not None and (best_i is None or rival.score > value):
            return self._plan(rival.moves, (), Prediction(rival.score))
        if best_i is None:
            raise ValueError("no legal push or signature move was found for this turn")
        c = cands[best_i]
        s = self._at(scored, best_i)
        opening = openings[c[0]]
        aim = PushChoice(c[1], c[2], c[3], c[4], c[5])
        return self._finish(opening, aim, Prediction(s.score, s.knocked_out, s.winner))

    def _push_then_win(self, opening: _Opening) -> Plan | None:
        """A push after which a move wins: Vice Grip on a wrestler the push drove into the centre
        circle. The broad sample scores a push by where it leaves the pieces, and a wrestler
        driven in towards the centre scores as a worse position, so a push that sets up the grip
        is never chosen on its own score. A side with such a move tries the pushes from behind
        the opposing wrestlers that the look-ahead answers with on its behalf (``grip_replies``
        of them, each played exactly, every move after it tried). The plan's hand still wobbles:
        the grip follows only if the push played leaves the wrestler in the circle."""
        n = self.search.grip_replies
        if not (self.lvl.after_moves and n and scoring.grips(self.game, self.game.seats[self.seat])):
            return None
        rng = random.Random(f"kabuto-ai-push-then-win|{self.lvl.name}|{self.seed}|{self.base.key}")
        for c in cand.inward(opening.game, 0, n, rng, self.search):
            aim = PushChoice(*c[1:])
            g = opening.game.clone()
            try:
                g.apply(aim.action())
            except IllegalMove:
                continue
            self.previews += 1
            if not self._my_turn(g):
                continue
            for t in try_moves(g, self.seat, self.search, self.weights):
                if t.game.is_over and t.game.winner == self.side:
                    return self._finish(opening, aim, Prediction(self.weights.win, (), self.side))
        return None

    def _rechecked(self, prefixes: list[Prefix], cands: list[Candidate],
                   scored: list[Scored | None]) -> list[int]:
        """The candidates best first, with the best ``recheck_top`` of the sketched ones scored
        again exactly and ranked on that, ahead of the rest (which keep their sketched order)."""
        ranked = self._ranked(scored)
        if self.sketch is None:
            return ranked
        top = ranked[:max(1, self.lvl.recheck_top)]
        self._recheck(prefixes, cands, scored, top)
        return self._ranked([scored[i] if i in top else None for i in range(len(scored))]) + ranked[len(top):]

    def _look_ahead(self, openings: list[_Opening], prefixes: list[Prefix], cands: list[Candidate],
                    scored: list[Scored | None], order: list[int], value: float,
                    means: dict[int, float]) -> tuple[int, float]:
        """(the candidate whose worst reply leaves the AI best, that value): the look-ahead
        (:mod:`kabuto.ai.lookahead`) over the first ``reply_top`` of ``order`` (best first). When
        every one of them loses to a reply (they are often variations of one idea), it looks
        further down the list for one that does not, until it has sampled replies for three times
        as many. A push that wins at once needs no look."""
        best, best_v = order[0], value
        if value >= self.weights.win:
            return best, best_v
        top = self.lvl.reply_top
        sampled = 0
        for n, i in enumerate(order):
            if (n >= top and best_v > self.weights.loss) or sampled >= 3 * top:
                break
            c = cands[i]
            if i not in means:
                self._recheck(prefixes, cands, scored, [i])
                if scored[i] is None:  # the exact preview refuses what the sketch allowed: never
                    continue
            own = means.get(i, self._at(scored, i).score)
            v, spent = self._reply_value(openings[c[0]].game, PushChoice(*c[1:]), own)
            sampled += spent > 0
            if n == 0 or v > best_v:
                best, best_v = i, v
        return best, best_v

    def _reply_value(self, game: Game, aim: PushChoice | None, own: float) -> tuple[float, int]:
        """(``own``, the 1-ply score, replaced by the worst the next side's replies leave when the
        turn can end after ``aim`` - a win stays a win -, the replies previewed for it)."""
        if own >= self.weights.win:
            return own, 0
        after = turn_ended(game, aim)
        if after is None:
            return own, 0
        rng = random.Random(f"kabuto-ai-reply|{self.lvl.name}|{self.seed}|{self.base.key}|{aim}")
        lvl = self.lvl
        v, spent = after_reply(after, self.seat, lvl.reply_broad, rng, self.search, self.weights,
                               self.workers, self.sketch,
                               (lvl.reply_refine_top, lvl.reply_refine_per, lvl.refine_rounds))
        self.previews += spent + (aim is not None)
        return v, spent

    def _openings(self) -> tuple[list[_Opening], list[_Opening]]:
        """(openings to search with a push - the empty one first -, rivals: moves that are a whole
        turn by themselves, because they win outright or replace the turn)."""
        game, seat = self.game, self.seat
        none = _Opening((), game, score_game(game, seat, self.weights))
        if self.lvl.move_prefixes == 0 or game.junior:
            return [none], []
        rivals: list[_Opening] = []
        found: list[_Opening] = []
        for a in try_moves(game, seat, self.search, self.weights):
            if a.game.is_over or a.replaces_turn:
                rivals.append(_Opening((a.move,), a.game, a.score))
                continue
            found.append(_Opening((a.move,), a.game, a.score))
            if self.lvl.move_prefixes >= 2:
                for b in try_moves(a.game, seat, self.search, self.weights):
                    if b.game.is_over and b.game.winner == self.side:
                        rivals.append(_Opening((a.move, b.move), b.game, b.score))
                    elif not (b.game.is_over or b.replaces_turn):
                        found.append(_Opening((a.move, b.move), b.game, b.score))
        keep = [o for o in found if o.game.legal_kinds()
                and o.score >= none.score - self.search.opening_max_loss]
        keep.sort(key=lambda o: -o.score)  # stable: card order breaks ties
        return [none] + keep[:self.lvl.move_prefixes], rivals

    def _jitter(self, game: Game, c: Candidate, rng: random.Random) -> Candidate:
        """``c`` shaken by this level's hand wobble (one draw)."""
        ge, gh, gs = rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0)
        return self._wobbled(game, c, ge, gh, gs, 1.0)

    def _wobbled(self, game: Game, c: Candidate, ge: float, gh: float, gs: float,
                 scale: float) -> Candidate:
        sim = game.materials.sim
        lvl = self.lvl
        pi, kind, entry, heading, speed, spin = c
        if game.locked_platform() is None:
            entry = entry + scale * ge * lvl.wobble_entry_deg
            limit = game.world.steepest_heading(kind)
            heading = max(-limit, min(limit, heading + scale * gh * lvl.wobble_heading_deg))
        speed = max(sim.min_speed, min(sim.max_speed, speed * (1.0 + scale * gs * lvl.wobble_speed_frac)))
        return cand.rounded(pi, kind, entry, heading, speed, spin)

    # ----- from the chosen aim to the plan ------------------------------------------------------
    def _commit(self, g: Game, aim: PushChoice, k: int) -> PushChoice:
        """Wobble ``aim`` (seeded by the plan's seed and push number ``k``) and push it on ``g``. If
        the wobble lands on a blocked platform spot, the hand steadies: half the error, a quarter,
        then none."""
        rng = random.Random(f"kabuto-ai-wobble|{self.lvl.name}|{self.seed}|{self.base.key}|{k}")
        ge, gh, gs = rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0)
        c = (0, *aim.args())
        last: IllegalMove | None = None
        for scale in (1.0, 0.5, 0.25, 0.0):
            _, kind, e, h, s, spin = self._wobbled(g, c, ge, gh, gs, scale)
            push = PushChoice(kind, e, h, s, spin)
            try:
                g.apply(push.action())
                return push
            except IllegalMove as exc:
                last = exc
        raise ValueError(f"the chosen push cannot be played: {last}")

    def _second_push(self, g: Game) -> tuple[PushChoice, Scored] | None:
        """The best further push this turn from the locked platform (after a Charge)."""
        kinds = g.legal_kinds()
        lock = g.locked_platform()
        if not kinds or lock is None or g.is_over:
            return None
        speeds = cand.speed_options(self.search.second_push_speed_fractions, g.materials.sim)
        cands = [cand.rounded(0, k, lock[0], lock[1], s, 0.0) for k in kinds for s in speeds]
        scored = self._evaluate(Base.of(g), [()], cands, exact=True)  # few: the real outcome decides
        ranked = self._ranked(scored)
        if not ranked:
            return None
        c = cands[ranked[0]]
        return PushChoice(*c[1:]), self._at(scored, ranked[0])

    def _finish(self, opening: _Opening, aim: PushChoice, predicted: Prediction) -> Plan:
        g = opening.game.clone()
        steps: list[Step] = list(opening.moves)
        aims = [aim]
        steps.append(self._commit(g, aim, 0))
        while self._my_turn(g) and g.turn.pushes < g.turn.pushes_allowed and g.legal_pieces():
            nxt = self._second_push(g)  # a Charge used before the first push
            if nxt is None:
                break
            aims.append(nxt[0])
            steps.append(self._commit(g, nxt[0], len(aims) - 1))
        if self.lvl.after_moves:
            for _ in range(3):
                if not self._my_turn(g):
                    break
                step = self._best_after(g)
                if step is None:
                    break
                move, g, second = step
                steps.append(move)
                if second is not None:  # a Charge after the push: its push follows it
                    aims.append(second)
                    steps.append(self._commit(g, second, len(aims) - 1))
        return self._plan(tuple(steps), tuple(aims), predicted)

    def _my_turn(self, g: Game) -> bool:
        """Whether the turn being planned is still going on in ``g`` (a push may end the game, or
        in 3P put the pusher out, which passes the turn)."""
        return not g.is_over and g.turn.number == self.game.turn.number and g.current_seat == self.seat

    def _best_after(self, g: Game) -> tuple[MoveChoice, Game, PushChoice | None] | None:
        """The signature move after the push that gains most (at least ``after_min_gain``), with the
        game after it and, for a move that grants another push, that push's aim."""
        now = score_game(g, self.seat, self.weights)
        best = None
        for t in try_moves(g, self.seat, self.search, self.weights):
            value, second = t.score, None
            if t.effect == "extra_push":
                nxt = self._second_push(t.game)
                if nxt is None:
                    continue
                second, value = nxt[0], nxt[1].score
            if value >= now + self.search.after_min_gain and (best is None or value > best[0]):
                best = (value, t.move, t.game, second)
        return None if best is None else best[1:]

    def _plan(self, steps: tuple[Step, ...], aims: tuple[PushChoice, ...], predicted: Prediction) -> Plan:
        return Plan(self.seat, self.lvl.name, self.seed, self.base.key, self.game.turn.number,
                    steps, aims, predicted, self.previews)
