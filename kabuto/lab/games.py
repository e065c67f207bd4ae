"""Games for the replay benchmarks and tests, played by a small seeded bot.

:func:`long_game` plays a 2-player game of a given number of pushes without ending it: each push
is the first of a few seeded candidates (checked with ``preview_push``) that knocks out no wrestler,
and an inventory about to run dry is topped up from the supply (or the board) by an edit, so the
game never ends by submission. Every ``move_every``-th turn the player uses a signature move that
only trades pieces when one is usable (Mike's Mandible Claw; Hank's Horn Toss, which brings his
polygon Horn Bar into play). A
:class:`~kabuto.replay.recorder.Recorder`, if given, is updated after every action.

:func:`undo` does what the app's hot-seat undo does: the game goes back to a JSON copy taken before
the last action (``Game.from_json`` continues bit-identically), keeping the tuning in force.
"""
from __future__ import annotations

import random
from typing import Any

from kabuto.replay.format import use_materials
from kabuto.rules.game import Game

#: Moves that only move pieces between inventories and the supply (they cannot end the game).
SAFE_MOVES = ("Mandible Claw", "Horn Toss")


def new_game(seed: int = 1, materials=None) -> Game:
    return Game.new(players=2, wrestlers=["mike", "hank"], seed=seed, first_player=0,
                    materials=materials)


def _top_up(game: Game, seat: int) -> None:
    place = game.seat_inventory(seat)
    if game.ledger.pieces_in(place):
        return
    spare = [p for p in game.supply() if game.kind_of(p) in ("small", "medium", "large")]
    if not spare:
        wrestlers = {s.piece_id for s in game.seats}
        spare = [p.id for p in game.world.pieces
                 if p.id not in wrestlers and game.kind_of(p.id) in ("small", "medium", "large")
                 and not game.world.riders(p.id)]
    game.edit(spare[0], place)


def bot_push(game: Game, rng: random.Random, tries: int = 8) -> dict[str, Any]:
    """A seeded push that ends nothing (falls back to the last candidate tried), at a speed in the
    upper half of what the hand allows (a push that moves the crowd)."""
    kinds = game.legal_kinds()
    lim = game.materials.sim.heading_limit_deg
    fastest = game.materials.sim.max_speed
    choice = None
    for _ in range(tries):
        cand: dict[str, Any] = dict(piece_or_kind=rng.choice(kinds), entry_deg=rng.uniform(-180.0, 180.0),
                    heading_deg=rng.uniform(-0.5 * lim, 0.5 * lim), speed=rng.uniform(0.5 * fastest, fastest))
        try:
            out = game.preview_push(**cand)
        except ValueError:
            continue
        choice = cand
        if out.result is None and not out.eliminated:
            break
    if choice is None:
        raise RuntimeError("no legal push found")
    return choice


def long_game(pushes: int, seed: int = 1, recorder=None, move_every: int = 5,
              game: Game | None = None) -> Game:
    """Play ``pushes`` pushes (fewer if a push still ends the game)."""
    game = game or new_game(seed)
    rng = random.Random(f"replay-test-{seed}-{len(game.history)}")
    done = 0
    while done < pushes and not game.is_over:
        seat = game.current_seat
        if move_every and game.turn.number % move_every == 0:
            for m in game.available_moves(seat):
                if m.usable and m.name in SAFE_MOVES:
                    game.use_move(seat, m.name)
                    _rec(recorder, game)
                    break
            seat = game.current_seat  # a move that replaces the turn (Horn Toss) passed it on
        _top_up(game, 1 - seat)
        _rec(recorder, game)
        if not game.legal_pieces():
            _top_up(game, seat)
            _rec(recorder, game)
        game.push(**bot_push(game, rng), end_turn=False)
        done += 1
        _rec(recorder, game)
        if not game.is_over and game.current_seat == seat and game.can_end_turn:
            game.end_turn()
            _rec(recorder, game)
    return game


def _rec(recorder, game: Game) -> None:
    if recorder is not None:
        recorder.update(game)


def undo(game: Game, saved: dict[str, Any]) -> Game:
    """The app's undo: the game saved before the last human action, with today's tuning."""
    back = Game.from_json(saved)
    if back.materials != game.materials:
        use_materials(back, game.materials)
    return back


def tuned(materials, factor: float = 1.6):
    """The materials with every disc's table friction multiplied by ``factor`` (a tuning)."""
    return materials.with_overrides(
        {f"table_friction.{k}": materials.kinds[k].table_friction * factor
         for k in ("small", "medium", "large")})


def rich_game(data_dir, seed: int = 2, before: int = 3, after: int = 3):
    """A recorded game with everything a replay holds: pushes, a signature move, edits (top-ups), a
    tuning change mid-game, and an app-style undo of a push made under the new tuning.

    Returns ``(game, recorder, undone_hash)``: the live game at the end, its recorder (closed, so
    the file is complete) and the state hash of the push that was undone.
    """
    from kabuto.replay.recorder import record

    game = new_game(seed)
    rec = record(game, data_dir, seats=("human", "ai"))
    long_game(before, seed, rec, move_every=2, game=game)
    # A top-up by hand, whether or not an inventory ran dry: on the crammed ring pushes knock out
    # enough that the games' own top-ups may never be needed.
    spare = [p for p in game.supply() if game.kind_of(p) in ("small", "medium", "large")]
    game.edit(spare[0], game.seat_inventory(1))
    rec.update(game)
    use_materials(game, tuned(game.materials))
    rec.update(game)
    saved = game.to_json()
    long_game(1, seed + 100, rec, move_every=0, game=game)
    undone_hash = next(h["hash"] for h in reversed(game.history) if h["type"] == "push")
    game = undo(game, saved)
    rec.update(game)
    long_game(after, seed + 200, rec, move_every=0, game=game)
    rec.close(game)
    return game, rec, undone_hash
