"""Sketched previews (issue 16 point 6): hard's broad look simulates at a coarser time step and stops
once nothing more can fall, and the pushes it may play are previewed again exactly. A sketch must
foresee what the exact preview foresees, the push played must be judged exactly, and the plan must
not depend on the number of worker processes."""
from __future__ import annotations

import functools
import random
import statistics
from typing import Any

import pytest

from kabuto import Game
from kabuto.ai import PushChoice, choose, level
from kabuto.ai import candidates as cand
from kabuto.ai.levels import config
from kabuto.ai.pool import Base, Sketch, score_chunk
from kabuto.ai.scoring import score_push
from tests.ai.helpers import small_level


def _sketch() -> Sketch:
    sketch = Sketch.of(level("hard"), config().search)
    assert sketch is not None
    return sketch


def test_hard_sketches_and_medium_does_not():
    assert level("hard").sketch_rate and level("hard").recheck_top
    assert level("medium").sketch_rate == 0


BOARDS = [(("mike", "hank"), 1), (("gus", "bea"), 2)]


@functools.cache
def _exact_and_sketched(wrestlers: tuple[str, ...], seed: int) -> tuple[tuple[Any, Any], ...]:
    """(exact preview, sketch) of each of hard's own broad candidates on a starting board."""
    game = Game.new(players=2, wrestlers=list(wrestlers), seed=seed, first_player=0)
    cands = cand.broad(game, 0, 60, random.Random(seed), config().search)
    base = Base.of(game)
    exact = score_chunk(base, [()], cands)
    sketch = score_chunk(base, [()], cands, sketch=_sketch())
    return tuple((e, s) for e, s in zip(exact, sketch, strict=True) if e is not None and s is not None)


@pytest.mark.parametrize("wrestlers, seed", BOARDS)
def test_a_sketch_foresees_the_exact_previews_falls_and_scores(wrestlers, seed):
    """Hard's own broad candidates on a starting board, each previewed exactly and sketched. On the
    crammed ring a push's chain reaction is chaotic (a piece grazing another at half the step rate
    may go the other way), so the same pieces fall in three pushes of five at least; but the sketch
    ranks the pushes as the exact previews do (rank correlation of the scores 0.85 or more), and the
    exact best push is among the sketch's ``recheck_top`` best - which is what hard uses it for: it
    screens with sketches and previews that many of the best exactly before it chooses."""
    pairs = _exact_and_sketched(wrestlers, seed)
    assert len(pairs) >= 50
    same = sum(e.knocked_out == s.knocked_out for e, s in pairs)
    assert same >= 0.6 * len(pairs)
    exact_scores = [e.score for e, _ in pairs]
    sketch_scores = [s.score for _, s in pairs]
    assert statistics.correlation(_ranks(exact_scores), _ranks(sketch_scores)) >= 0.85
    exact_order, sketch_order = _ranks_order(exact_scores), _ranks_order(sketch_scores)
    assert exact_order[0] in sketch_order[:level("hard").recheck_top]


def test_most_of_the_exact_best_pushes_are_among_the_sketchs_best():
    """Of the exact five best pushes of each board, most (six of the ten) are among the sketch's
    ten best. Counted over both boards: one chaotic graze can take two of one board's five out."""
    found = 0
    for wrestlers, seed in BOARDS:
        pairs = _exact_and_sketched(wrestlers, seed)
        exact_order = _ranks_order([e.score for e, _ in pairs])
        sketch_order = _ranks_order([s.score for _, s in pairs])
        found += len(set(exact_order[:5]) & set(sketch_order[:10]))
    assert found >= 6


def _ranks_order(values: list[float]) -> list[int]:
    """Indices from the highest value down."""
    return sorted(range(len(values)), key=lambda i: -values[i])


def _ranks(values: list[float]) -> list[float]:
    """Each value's rank (0 the lowest)."""
    ranks = [0.0] * len(values)
    for rank, i in enumerate(reversed(_ranks_order(values))):
        ranks[i] = float(rank)
    return ranks


def test_the_push_played_is_judged_exactly():
    """The plan's prediction is the exact preview of its aim, never a sketch's."""
    lvl = small_level("test-sketch", move_prefixes=0)
    assert lvl.sketch_rate
    for seed in range(3):
        g = Game.new(players=2, wrestlers=["dora", "jade"], seed=seed, first_player=seed % 2)
        plan = choose(g, lvl, seed=seed, workers=1)
        aim = plan.aim
        assert isinstance(aim, PushChoice)
        outcome = g.preview_push(*aim.args())
        assert plan.predicted.score == score_push(g, outcome)
        assert plan.predicted.knocked_out == tuple(k.piece for k in outcome.knocked_out)


def test_a_sketching_look_ahead_plans_the_same_whatever_the_number_of_workers():
    lvl = small_level("test-sketch-pool", broad=12, refine_top=1, refine_rounds=1, refine_per=2,
                      robust_top=1, robust_samples=1, reply_top=2, reply_broad=4, recheck_top=3)
    g = Game.new(players=2, wrestlers=["mike", "annie"], seed=8, first_player=1)
    one = choose(g, lvl, seed=4, workers=1)
    two = choose(g, lvl, seed=4, workers=2)
    assert one.to_json() == two.to_json()


def test_an_exact_level_and_a_sketching_one_may_differ_but_both_are_legal():
    """Sketching changes what the search sees, so the plan may change; whichever it is, the rules
    accept it (the plan is played on the real game, exactly)."""
    g = Game.new(players=2, wrestlers=["rita", "hank"], seed=3, first_player=0)
    lvl = small_level("test-sketch-legal")
    for variant in (lvl, lvl.with_changes(sketch_rate=0, recheck_top=0)):
        plan = choose(g, variant, seed=2, workers=1)
        copy = g.clone()
        from kabuto.ai import play_turn

        play_turn(copy, plan)
        assert copy.turn.number > g.turn.number or copy.is_over


def test_sketch_settings_are_checked_and_old_levels_read_as_exact():
    with pytest.raises(ValueError, match="sketch_rate"):
        level("hard").with_changes(sketch_rate=30)
    saved = {k: v for k, v in level("hard").to_json().items() if k not in ("sketch_rate", "recheck_top")}
    old = type(level("hard")).from_json(saved, "levels.hard")
    assert old.sketch_rate == 0 and old.recheck_top == 0
