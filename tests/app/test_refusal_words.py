"""Every refusal a player can meet, said in a player's words.

* Every refusal the rules raise during play carries a code (and the pieces, kinds, seats and moves
  it is about as fields), and the table has words for every code: read from the source, so a new
  refusal without words fails here.
* Each signature move of each wrestler card is driven into the refusals its situation allows -
  nothing to act on, the supply or an inventory emptied, its wrestler off the ring, a wrong or
  missing target, used twice, used after the push, too early, paid for with nothing - and what the
  table says for each (:meth:`kabuto.app.session.Session.refused`) names no piece id, kind key,
  seat number or long number. Between them the moves reach every refusal code of the move effects.
"""
from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kabuto.app.game_session import GameSession
from kabuto.app.words import _REFUSALS
from kabuto.lab.positions import free_entry
from kabuto.rules.errors import IllegalMove
from kabuto.rules.game import Game
from kabuto.rules.wrestlers import load_wrestlers
from tests.app.helpers import leaks

ROOT = Path(__file__).resolve().parents[2]
#: The modules whose refusals reach the table while a game is played.
PLAY = ("kabuto/rules/game.py", "kabuto/rules/moves.py", "kabuto/rules/inventory.py")
STANDARD = ("small", "medium", "large")


def _codes_in(rel: str) -> list[tuple[int, str | None]]:
    """(line, code) of every ``IllegalMove(...)`` made in ``rel``; code None when it has none."""
    tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalMove":
            code = node.args[1] if len(node.args) > 1 else None
            if isinstance(code, ast.Attribute) and code.attr == "reason":
                continue            # physics.PushRefused's reason passed on (checked below)
            out.append((node.lineno, code.value if isinstance(code, ast.Constant) else None))
    return out


def _push_refusal_reasons() -> set[str]:
    """The reasons physics.PushRefused gives (the rules pass them on as codes)."""
    tree = ast.parse((ROOT / "physics/world.py").read_text(encoding="utf-8"))
    return {node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "PushRefused"
            and node.args and isinstance(node.args[0], ast.Constant)}


def test_every_refusal_of_play_has_a_code_and_the_table_has_words_for_it():
    missing, unworded = [], []
    for rel in PLAY:
        for line, code in _codes_in(rel):
            if code is None:
                missing.append(f"{rel}:{line}")
            elif code not in _REFUSALS:
                unworded.append(f"{rel}:{line} {code}")
    unworded += [f"physics/world.py PushRefused {r}" for r in _push_refusal_reasons() - set(_REFUSALS)]
    assert not missing, "refusals without a code: " + ", ".join(missing)
    assert not unworded, "codes the table has no words for: " + ", ".join(unworded)


# ----- driving every move into its refusals ------------------------------------------------------
def _to_supply(game: Game, pids) -> None:
    for pid in list(pids):
        if pid in game.world and game.world.riders(pid):
            _to_supply(game, game.world.riders(pid))
        game.edit(pid, "supply")


def _empty_inventories(game: Game) -> None:
    for side in range(len(game.sides)):
        _to_supply(game, game.inventory(side))


def _one_small_left(game: Game) -> None:
    """Each side holds a single small disc: a move paid with it would leave nothing to push."""
    _empty_inventories(game)
    smalls = [p for p in game.supply() if game.kind_of(p) == "small"]
    for side in range(len(game.sides)):
        game.edit(smalls[side], game.seat_inventory(side))


def _empty_supply_of_signatures(game: Game) -> None:
    """Every signature piece in the supply goes to the second seat's inventory."""
    for pid in game.supply():
        if game.kind_of(pid) not in STANDARD:
            game.edit(pid, game.seat_inventory(1))


def _clear_centre(game: Game) -> None:
    _to_supply(game, [p for p in game.world.in_circle() if p not in {s.piece_id for s in game.seats}])


def _alone(game: Game) -> None:
    """Nothing but the wrestlers on the ring: nothing touches anything."""
    wrestlers = {s.piece_id for s in game.seats}
    _to_supply(game, [p.id for p in game.world.pieces if p.id not in wrestlers and p.base is None])


def _wrestler_off(game: Game) -> None:
    pid = game.seats[0].piece_id
    _to_supply(game, game.world.riders(pid))
    game.edit(pid, "supply")


def _wrestler_at_edge(game: Game) -> None:
    """The first seat's wrestler alone against the right edge (a piece set beside it on the
    outside would hang over)."""
    _alone(game)
    pid = game.seats[0].piece_id
    game.edit(game.seats[1].piece_id, "board", -0.03, 0.0)
    R = game.materials.ring.radius
    for inset in (0.016, 0.018, 0.02, 0.025):
        try:
            game.edit(pid, "board", R - inset, 0.0)
            return
        except IllegalMove:
            continue


def _signature_off_ring(game: Game) -> None:
    _to_supply(game, [p.id for p in game.world.pieces if p.kind not in STANDARD
                      and p.id not in {s.piece_id for s in game.seats}])


def _pushed(game: Game) -> None:
    """The first seat has pushed (its turn goes on: moves after the push)."""
    kind = game.legal_kinds()[0]
    try:
        entry = free_entry(game, kind, 0.0, speed=0.2, step=15.0)
    except ValueError:
        return
    game.push(kind, entry, 0.0, 0.2, end_turn=False)


def _pushed_and_empty(game: Game) -> None:
    _pushed(game)
    _to_supply(game, game.inventory(0))


def _in_line(game: Game, first: str, x: float, y: float) -> None:
    """``first`` at (x, y) with two small discs from the supply touching it in a row towards +x:
    whatever slides from it that way is blocked."""
    game.edit(first, "board", x, y)
    prev = first
    for pid in [p for p in game.supply() if game.kind_of(p) == "small"][:2]:
        q = game.world.piece(prev)
        d = game.world.clear_distance(prev, "small", 1.0, 0.0)
        game.edit(pid, "board", q.x + d, q.y)
        prev = pid


def _crowded(game: Game) -> None:
    """The first seat's wrestler with discs in a row against it, and each signature piece of its
    card on the ring with discs in a row against it too."""
    _alone(game)
    game.edit(game.seats[1].piece_id, "board", 0.0, 0.055)
    _in_line(game, game.seats[0].piece_id, -0.05, -0.045)
    own = game.seats[0].wrestler.key + "_"
    signature = [p for p in game.supply() if game.kind_of(p).startswith(own)]
    for i, pid in enumerate(signature[:2]):
        _in_line(game, pid, -0.05, -0.005 + 0.035 * i)


def _second_turn(game: Game) -> None:
    """Both seats have had a turn (moves "from your second turn on" are open); the first seat has
    pushed again and has nothing left."""
    for _ in range(2):
        _pushed(game)
        if game.can_end_turn:
            game.end_turn()
    _pushed_and_empty(game)


SITUATIONS: dict[str, Callable[[Game], None]] = {
    "start": lambda g: None,
    "inventories empty": _empty_inventories,
    "one small disc left": _one_small_left,
    "no signature pieces in the supply": _empty_supply_of_signatures,
    "centre cleared": _clear_centre,
    "nothing touches": _alone,
    "wrestler off the ring": _wrestler_off,
    "wrestler at the edge": _wrestler_at_edge,
    "signature pieces off the ring": _signature_off_ring,
    "after the push": _pushed,
    "after the push, nothing left": _pushed_and_empty,
    "second turn, after the push, nothing left": _second_turn,
    "crowded": _crowded,
}


def _target_sets(game: Game, name: str) -> Iterator[dict]:
    """Targets to try: none, an unknown one, wrong values, and each offered value with points
    all round (some outward, some far)."""
    yield {}
    yield {"nonsense": 1}
    opt = next((m for m in game.available_moves(0) if m.name == name), None)
    specs = list(opt.targets) if opt else []
    if not specs:
        return
    wrong = {"piece": "not-a-piece", "base": "not-a-piece", "opponent": 7, "angle_deg": 0.0,
             "distance_mm": 999.0}
    yield {sp.name: wrong.get(sp.name, 0) for sp in specs}
    first = {sp.name: (sp.choices[0] if sp.choices else 0.0) for sp in specs}
    for angle in range(0, 360, 45):
        for far in (1.0, 999.0):
            t = dict(first)
            for sp in specs:
                if sp.kind == "angle_deg":
                    t[sp.name] = float(angle)
                elif sp.kind == "distance_mm":
                    t[sp.name] = (sp.high or 1.0) * far
            yield t


def _refusals(key: str, partner: str, move: str) -> Iterator[tuple[str, IllegalMove, GameSession]]:
    for label, make in SITUATIONS.items():
        game = Game.new(players=2, wrestlers=[key, partner], seed=4, first_player=0)
        try:
            make(game)
        except IllegalMove:
            continue
        session = GameSession(game, ("human", "human"), record=False)
        opt = next(m for m in game.available_moves(0) if m.name == move)
        if opt.refusal is not None:
            yield label, opt.refusal, session
        for targets in _target_sets(game, move):
            for seat in (0, 1):
                trial = game.clone()
                try:
                    trial.use_move(seat, move, **targets)
                    trial.use_move(seat, move, **targets)    # and once more: used already
                except IllegalMove as exc:
                    yield f"{label}, seat {seat}, {targets}", exc, session


#: How the table may never speak to a player.
_SEAT_NUMBER = re.compile(r"\bseat \d")


@pytest.fixture(scope="module")
def driven() -> dict[tuple[str, str], dict[str, str]]:
    """{(wrestler, move): {code: what the table said}} for every move of every wrestler card."""
    cards = list(load_wrestlers())
    out: dict[tuple[str, str], dict[str, str]] = {}
    for i, w in enumerate(cards):
        partner = cards[(i + 1) % len(cards)].key
        for m in w.moves:
            said: dict[str, str] = {}
            for where, exc, session in _refusals(w.key, partner, m.name):
                text = session.refused(exc)
                assert exc.code, f"{w.name}'s {m.name} ({where}): a refusal without a code: {exc}"
                assert not leaks(text) and not _SEAT_NUMBER.search(text), (
                    f"{w.name}'s {m.name} ({where}): {text!r}")
                assert text[:1].isupper() and text.endswith("."), f"{w.name}'s {m.name}: {text!r}"
                said.setdefault(exc.code, text)
            out[(w.key, m.name)] = said
    return out


def test_every_signature_move_is_refused_somewhere_in_a_players_words(driven):
    for (key, move), said in driven.items():
        assert said, f"{key}'s {move} was never refused"
        # Used twice in one turn is refused for every move that can be used at all.
        assert "move_used" in said or "replaces_turn" in said or "not_your_turn" in said, (key, move)


def test_the_moves_between_them_reach_every_refusal_of_the_move_effects(driven):
    reached = {code for said in driven.values() for code in said}
    effects = {code for _, code in _codes_in("kabuto/rules/moves.py") if code}
    # What a card's move asks of the turn (game.py): too early, used, replacing, nothing left.
    effects |= {"not_your_turn", "move_used", "replaces_turn", "cannot_pay", "nothing_to_push",
                "no_such_target"}
    assert effects - reached == set(), sorted(effects - reached)


def test_a_refusal_names_pieces_by_what_they_are():
    """The ring's refusal of a blocked platform spot names the piece hanging over it as a player
    would ("the medium disc"), from the refusal's fields."""
    game = Game.new(players=2, wrestlers=["mike", "gus"], seed=4, first_player=0)
    session = GameSession(game, ("human", "human"), record=False)
    R = game.materials.ring.radius
    wrestlers = {s.piece_id for s in game.seats}
    _to_supply(game, [p.id for p in game.world.pieces
                      if math.hypot(p.x - R, p.y) < 0.045 and p.id not in wrestlers])
    over = next(p for p in game.supply() if game.kind_of(p) == "medium")
    game.edit(over, "board", R - 0.004, 0.0)             # hanging over the edge at 0 degrees
    with pytest.raises(IllegalMove) as refused:
        game.check_push("small", 0.0, 0.0, 0.3)
    assert refused.value.code == "spot_blocked"
    assert session.refused(refused.value) == ("The platform cannot stand there: the medium disc hangs "
                                              "over the edge at that spot.")
