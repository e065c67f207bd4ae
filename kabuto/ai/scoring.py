"""How good the end of a turn is for the side that played it: one number, from ``[scoring]``.

The AI compares outcomes of candidate pushes (and signature moves) with :func:`score_position`:

* the game's result: an opposing wrestler out is a win, its own out a loss (3P: a draw when one push
  knocks out everybody still in contention);
* each wrestler's farthest reach from the centre, as a fraction of the ring's radius, squared: the
  opposing ones near the edge are good, its own near the edge bad; with 3 players only the next
  player's is good (``handed_edge``): the third player's wrestler near the edge is the next
  player's to knock out, and a knock-out wins for whoever makes it;
* its own wrestler near the centre circle when an opponent has Vice Grip (``grip_danger``): the
  middle of the ring is no hiding place from Mighty Jaw Mike, who pushes a wrestler in and grips it
  in one turn;
* the pieces in each inventory (discs gained count here: a piece is a future turn), up to
  ``piece_enough`` of them (a side holding more gains nothing by collecting), with a bonus for large
  discs; the pieces the turn's signature moves cost (``move_piece_cost``), however many are held;
  ending the turn with an empty inventory is nearly a loss, and leaving the next side with nothing
  to push is a win in 2P and 4P (it submits at once).

:func:`score_push` scores a :meth:`kabuto.Game.preview_push` outcome without changing the game;
:func:`score_game` scores the game as it stands (after a signature move, say).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kabuto.ai.levels import Weights, config
from kabuto.rules.inventory import is_inventory
from kabuto.rules.moves import grips_wrestlers
from physics.shapes import extent_from_origin

if TYPE_CHECKING:
    from kabuto.rules.game import Game, Seat
    from kabuto.rules.outcomes import GameResult, PushOutcome

#: id -> (kind, x, y, angle) of every piece on the ring
Positions = dict[str, tuple[str, float, float, float]]


def inventories(game: Game) -> dict[int, Counter[str]]:
    """{side: Counter(kind)} of every side's inventory now."""
    return {side: game.ledger.contents(game.inventory_place(side)) for side in range(len(game.sides))}


def _side_of_place(game: Game, place: str) -> int | None:
    for side in range(len(game.sides)):
        if game.inventory_place(side) == place:
            return side
    return None


def score_position(game: Game, seat: int, positions: Positions, inv: dict[int, Counter[str]],
                   result: GameResult | None, out: set[int], weights: Weights | None = None) -> float:
    """The value, for ``seat``'s side, of a turn ending with ``positions`` on the ring, inventories
    ``inv``, ``result`` and the seats ``out`` of a 3P game. ``game`` supplies the seats and shapes."""
    w = weights or config().weights
    side = game.side_of(seat)
    if result is not None:
        if result.winner is None:
            return w.draw
        return w.win if result.winner == side else w.loss
    if seat in out:
        return w.loss
    kinds = game.materials.kinds
    R = game.materials.ring.radius
    gripped = bool(w.grip_danger) and _faces_grip(game, side, out)
    nxt = _next_seat(game, seat, out)
    # 3 players, everyone for themselves: the next player moves before anyone can use a wrestler
    # it could knock out, so only its own wrestler near the edge is a threat worth making.
    handed = game.players == 3 and bool(w.handed_edge)
    next_grips = (handed and nxt is not None and bool(w.grip_danger)
                  and grips(game, game.seats[nxt]))
    centre = game.materials.ring.centre_radius
    opponent_edge, own_edge = w.edges(game.turn.number)
    score = 0.0
    for s in game.seats:
        p = positions.get(s.piece_id)
        if p is None:
            continue
        kind, x, y, angle = p
        near, far = extent_from_origin(kinds[kind].shape, x, y, angle)
        reach = far / R
        if game.side_of(s.index) == side:
            score -= own_edge * reach * reach
            if gripped:
                score -= _grip_danger(w, near, centre)
        elif handed and s.index != nxt:
            score -= w.handed_edge * reach * reach
            if next_grips:
                score -= _grip_danger(w, near, centre)
        else:
            score += opponent_edge * reach * reach
    own = inv.get(side, Counter())
    n_own = sum(own.values())
    score += w.own_piece * _enough(w, n_own) + w.large_bonus * own.get("large", 0)
    opp_sides = sorted({game.side_of(q) for q in range(game.players) if q not in out} - {side})
    if opp_sides:
        n_opp = sum(sum(inv.get(o, Counter()).values()) for o in opp_sides) / len(opp_sides)
        score -= w.opponent_piece * _enough(w, n_opp)
    if n_own == 0:
        score += w.own_empty
    if w.move_piece_cost or w.move_gain_piece:
        # A move that replaces the turn passes it on at once: try_moves charges that one.
        turn = game.turn
        net = move_net_cost(game, turn.seat, turn.moves_used, turn.gained, w)
        score -= (1.0 if game.side_of(turn.seat) == side else -1.0) * net
    if nxt is not None and game.side_of(nxt) != side and not sum(inv.get(game.side_of(nxt), Counter()).values()):
        score += w.opponent_eliminated if game.players == 3 else w.opponent_submits
    return score


def move_price(game: Game, seat: int, names: Iterable[str]) -> int:
    """The pieces the moves ``names`` of ``seat``'s wrestler take from an inventory."""
    card = game.seats[seat].wrestler
    return sum(c.count for name in names for c in card.move(name).cost)


def move_net_cost(game: Game, seat: int, names: Iterable[str], gained: int, w: Weights) -> float:
    """The points the moves ``names`` of ``seat``'s wrestler cost its side: ``move_piece_cost`` for
    each piece they take from its inventory, less ``move_gain_piece`` for each of the ``gained``
    pieces they added to it (:attr:`kabuto.rules.outcomes.TurnState.gained`: "Gain 1 medium
    disc", or the discs Vice Grip knocks out)."""
    return w.move_piece_cost * move_price(game, seat, names) - w.move_gain_piece * gained


def _enough(w: Weights, n: float) -> float:
    """The pieces ``n`` as they count for the score: at most ``piece_enough`` of them."""
    return min(n, w.piece_enough) if w.piece_enough else n


def _grip_danger(w: Weights, near: float, centre: float) -> float:
    """``grip_danger``, scaled from all of it for a wrestler whose outline reaches ``near`` metres
    from the centre with the circle's radius ``centre`` (touching it) down to none ``grip_reach_mm``
    out."""
    gap_mm = max(0.0, near - centre) * 1000.0
    return w.grip_danger * max(0.0, 1.0 - gap_mm / w.grip_reach_mm)


def _faces_grip(game: Game, side: int, out: set[int]) -> bool:
    """Whether a seat of another side still in the game has a move that knocks out a wrestler in
    the centre circle (see :func:`grips`)."""
    return any(game.side_of(s.index) != side and s.index not in out and grips(game, s)
               for s in game.seats)


def grips(game: Game, seat: Seat) -> bool:
    """Whether ``seat``'s wrestler has a move that knocks out a wrestler in the centre circle
    (Vice Grip read with ``wrestlers = true``; the shipped card grips discs only, and Junior League
    cards have no moves): then a push that drives an opposing wrestler in threatens a win."""
    return not game.junior and any(grips_wrestlers(m) for m in seat.wrestler.moves)


def _next_seat(game: Game, seat: int, out: set[int]) -> int | None:
    """The seat that plays after ``seat`` (skipping seats out of a 3P game)."""
    for k in range(1, game.players + 1):
        q = (seat + k) % game.players
        if q not in out:
            return q
    return None


def positions_of(snapshot: dict[str, Any]) -> Positions:
    return {d["id"]: (d["kind"], d["x"], d["y"], d["angle"]) for d in snapshot["pieces"]}


def score_push(game: Game, outcome: PushOutcome, weights: Weights | None = None,
               seat: int | None = None) -> float:
    """Score a previewed push (``game`` is the game it was previewed on, unchanged) for the pushing
    seat's side, or for ``seat``'s side (how an opponent's reply leaves the AI)."""
    inv = {s: Counter(c) for s, c in inventories(game).items()}
    src = _side_of_place(game, game.push_source())
    if src is not None:
        inv[src][outcome.kind] -= 1
    for k in outcome.knocked_out:
        if is_inventory(k.to):
            to = _side_of_place(game, k.to)
            if to is not None:
                inv[to][k.kind] += 1
    out = set(game.out) | set(outcome.eliminated)
    return score_position(game, outcome.seat if seat is None else seat,
                          positions_of(outcome.physics.snapshot), inv, outcome.result, out, weights)


def score_game(game: Game, seat: int, weights: Weights | None = None) -> float:
    """Score the game as it stands, for ``seat``'s side (e.g. after a signature move)."""
    positions = {p.id: (p.kind, p.x, p.y, p.angle) for p in game.world.pieces}
    return score_position(game, seat, positions, inventories(game), game.result, set(game.out), weights)
