"""Exact play of SUMO's tricks when every hand is known (a "double-dummy" solver).

Once the reveals are over, SUMO is a short trick-taking game: at most seven tricks, two hands, a
wrestler with three places, and always a winner (a sumo move, a push out of the ring, or the last
trick). With both hands known the outcome under best play can be found exactly by searching every
line of play. :class:`TrickSolver` does that on bit masks of the twenty cards instead of engine
copies (an engine ``clone``/``apply`` costs more than a whole node here):

* a position is ``(hand of seat 0, hand of seat 1, leader, wrestler place)`` between tricks; the
  leader wins it exactly when some lead of theirs beats every legal answer of the follower, so the
  search is an AND-OR search over two-ply steps (lead, answer) with a yes/no result;
* a win is the best a seat can get, so the first winning lead (or refuting answer) ends the
  search of its position, and answers that make a sumo move are tried first (an instant refutation,
  found with one mask test);
* positions met again (by another order of play, or in another deal of the same decision: the key
  is the whole position, so the table is valid for every deal) are looked up instead of searched.

:func:`action_values` gives every legal action's exact outcome (+1 win, -1 loss) for the seat to
play; ``tests/cards/test_sumo_solver.py`` checks it against a plain search of every line of play
through the engine. The Equilibrium level (:mod:`cards.equilibrium`) solves every deal consistent
with what a seat knows this way (perfect-information Monte Carlo) and values the reveals with it.
"""
from __future__ import annotations

from cards.api import bit_indices
from cards.sumo import COLOUR_TABLES, DECK, EDGE, PLAY, PLAY_PHASE, PUSH, RANK, Sumo, sumo_move

#: Card -> bit index (the deck's sorted order: rank-major, suits C, D, H, S).
INDEX = {c: i for i, c in enumerate(DECK)}
FULL = (1 << len(DECK)) - 1
#: The four bits of each suit, by card index (``SUIT_OF[i]`` = mask of card i's suit).
_SUIT_MASK = {s: sum(1 << i for i, c in enumerate(DECK) if c[1] == s) for s in "CDHS"}
SUIT_OF = tuple(_SUIT_MASK[c[1]] for c in DECK)
#: Trick results for the follower's card: the leader takes the trick, the follower does, or the
#: follower wins the game at once (a sumo move).
LEADER, FOLLOWER, INSTANT = 0, 1, 2


def mask(cards: list[str] | tuple[str, ...] | set[str]) -> int:
    """The bit mask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << INDEX[c]
    return m


def cards_of(m: int) -> list[str]:
    """The cards of a bit mask, in deck order."""
    return [c for i, c in enumerate(DECK) if m >> i & 1]


class TrickSolver:
    """Double-dummy values of SUMO's tricks for one reading of the colours, with a table of solved
    positions kept between calls (so every deal and decision of a game shares it).

    ``max_entries`` bounds the table (it is emptied when full): the memory a solver holds stays
    bounded however long it is used.
    """

    def __init__(self, colours: str = "red-black", max_entries: int = 2_000_000) -> None:
        colour = COLOUR_TABLES[colours]
        self.colours = colours
        self.max_entries = max_entries
        #: RESULT[edge][lead][follow]: LEADER, FOLLOWER or INSTANT; ``edge`` = the wrestlers stand
        #: on the follower's edge before the trick (the condition of wucchari).
        self.result = [[[0] * 20 for _ in range(20)] for _ in range(2)]
        #: INSTANT_MASK[edge][lead]: the follower's cards that make a sumo move on that lead.
        self.instant = [[0] * 20 for _ in range(2)]
        for edge in (0, 1):
            for i, lead in enumerate(DECK):
                for j, card in enumerate(DECK):
                    if i == j:
                        continue
                    if sumo_move(lead, card, bool(edge), colour) is not None:
                        r = INSTANT
                        self.instant[edge][i] |= 1 << j
                    elif card[1] == lead[1] and RANK[card] > RANK[lead]:
                        r = FOLLOWER
                    else:
                        r = LEADER
                    self.result[edge][i][j] = r
        self.table: dict[int, bool] = {}

    # ----- the search ------------------------------------------------------------------------
    def leader_wins(self, h0: int, h1: int, leader: int, wrestler: int) -> bool:
        """Whether ``leader``, about to lead with hands ``h0``/``h1`` (equal sizes, not empty) and
        the wrestlers on ``wrestler`` (-1, 0, 1), wins under best play by both."""
        key = h0 | h1 << 20 | leader << 40 | (wrestler + 1) << 41
        got = self.table.get(key)
        if got is not None:
            return got
        hl, hf = (h0, h1) if leader == 0 else (h1, h0)
        follower = 1 - leader
        edge = 1 if wrestler == EDGE[follower] else 0
        result = self.result[edge]
        instant = self.instant[edge]
        won = False
        m = hl
        while m and not won:
            b = m & -m
            m ^= b
            c = b.bit_length() - 1
            answers = hf & SUIT_OF[c] or hf
            if answers & instant[c]:
                continue  # the follower crushes this lead with a sumo move
            won = self._lead_holds(hl ^ b, hf, c, answers, leader, wrestler, result[c])
        if len(self.table) >= self.max_entries:
            self.table.clear()
        self.table[key] = won
        return won

    def _lead_holds(self, hl: int, hf: int, c: int, answers: int, leader: int, wrestler: int,
                    row: list[int]) -> bool:
        """Whether the leader (hand ``hl`` left after leading card ``c``) wins against every answer."""
        while answers:
            b = answers & -answers
            answers ^= b
            if not self._leader_after(hl, hf ^ b, leader, wrestler, row[b.bit_length() - 1] == LEADER):
                return False
        return True

    def _leader_after(self, hl: int, hf: int, leader: int, wrestler: int, leader_took: bool) -> bool:
        """Whether the leader of a finished trick (not a sumo move) wins the game from there."""
        w = leader if leader_took else 1 - leader
        place = wrestler + PUSH[w]
        if place < -1 or place > 1 or not hl:
            return leader_took  # pushed out, or the last trick
        h0, h1 = (hl, hf) if leader == 0 else (hf, hl)
        w_wins = self.leader_wins(h0, h1, w, place)
        return w_wins == leader_took

    # ----- values of a position of the engine --------------------------------------------------
    def action_values(self, g: Sumo) -> dict[str, float]:
        """Every legal action of the seat to play in ``g`` (tricks phase, hands as in ``g``) with
        its exact outcome for that seat: +1 it wins, -1 it loses."""
        if g.phase != PLAY_PHASE:
            raise ValueError("the solver plays the tricks: the reveals are not over")
        if g.colours != self.colours:
            raise ValueError(f"this solver reads the colours as {self.colours!r}, the game as {g.colours!r}")
        values = self.values(mask(g.hands[0]), mask(g.hands[1]), g.turn,
                             None if g.lead is None else INDEX[g.lead], g.wrestler)
        return {PLAY[DECK[c]]: 1.0 if won else -1.0 for c, won in values.items()}

    def lead_wins(self, h0: int, h1: int, leader: int, card: int, wrestler: int) -> bool:
        """Whether ``leader`` wins by leading ``card`` (an index, still in its hand) between tricks:
        one entry of :meth:`values`, for a caller that needs only one lead's worth."""
        h = (h0, h1)
        follower = 1 - leader
        edge = 1 if wrestler == EDGE[follower] else 0
        answers = h[follower] & SUIT_OF[card] or h[follower]
        return not answers & self.instant[edge][card] and self._lead_holds(
            h[leader] ^ (1 << card), h[follower], card, answers, leader, wrestler, self.result[edge][card])

    def values(self, h0: int, h1: int, me: int, lead: int | None, wrestler: int) -> dict[int, bool]:
        """Every legal card (index) of seat ``me`` with whether it wins: hands as masks (a card led
        already out of its hand), ``lead`` the index of the card led to this trick or None."""
        h = (h0, h1)
        out: dict[int, bool] = {}
        if lead is None:
            for c in bit_indices(h[me]):
                out[c] = self.lead_wins(h0, h1, me, c, wrestler)
            return out
        leader = 1 - me
        edge = 1 if wrestler == EDGE[me] else 0
        row = self.result[edge][lead]
        for f in bit_indices(h[me] & SUIT_OF[lead] or h[me]):
            if row[f] == INSTANT:
                out[f] = True
            else:
                out[f] = not self._leader_after(h[leader], h[me] ^ (1 << f), leader, wrestler, row[f] == LEADER)
        return out


_SOLVERS: dict[str, TrickSolver] = {}


def solver_for(colours: str) -> TrickSolver:
    """A shared solver for one reading of the colours (its table serves every caller)."""
    s = _SOLVERS.get(colours)
    if s is None:
        s = _SOLVERS[colours] = TrickSolver(colours)
    return s


def action_values(g: Sumo, solver: TrickSolver | None = None) -> dict[str, float]:
    """Every legal action of the seat to play, with its exact outcome for that seat (+1 / -1)."""
    return (solver or solver_for(g.colours)).action_values(g)


# ----- one seat that cannot see the other hand --------------------------------------------------
def joint_values(
    solver: TrickSolver,
    me: int,
    my_hand: int,
    worlds: list[tuple[int, float]],
    lead: int | None,
    wrestler: int,
    lookahead: int = 2,
) -> dict[int, float]:
    """Each legal card of seat ``me`` (to play, holding ``my_hand``) with its weighted mean outcome
    (-1..1) over ``worlds`` = [(the other seat's hand, weight), ...], when this seat cannot see
    which world it is in.

    Solving every world on its own (perfect-information Monte Carlo) lets the seat choose its later
    cards world by world, as if it could see the other hand ("strategy fusion"): it overrates lines
    that need a guess later, such as a second lead that one unseen card would crush. Here this
    seat's next ``lookahead - 1`` decisions are made once for all the worlds it cannot tell apart
    (those in which the other seat answered the same way so far); the other seat plays each world
    exactly, as the solver does, and from the seat's ``lookahead``-th decision on both play
    exactly. ``lookahead=1`` is plain perfect-information Monte Carlo.
    """
    return _joint(solver, me, my_hand, worlds, lead, wrestler, lookahead)


def _joint(solver: TrickSolver, me: int, mine: int, worlds: list[tuple[int, float]],
           lead: int | None, wrestler: int, lookahead: int) -> dict[int, float]:
    total_weight = sum(w for _, w in worlds)
    if lookahead <= 1:
        sums: dict[int, float] = {}
        for theirs, w in worlds:
            h0, h1 = (mine, theirs) if me == 0 else (theirs, mine)
            for c, won in solver.values(h0, h1, me, lead, wrestler).items():
                sums[c] = sums.get(c, 0.0) + (w if won else -w)
        return {c: s / total_weight for c, s in sums.items()}
    legal = (mine & SUIT_OF[lead] or mine) if lead is not None else mine
    out: dict[int, float] = {}
    for c in bit_indices(legal):
        value = 0.0
        # Worlds in which this seat decides next, grouped by what it will have seen by then.
        groups: dict[tuple[int, ...], tuple[list[tuple[int, float]], int, int | None, int]] = {}
        for theirs, w in worlds:
            outcome, seen, state = _until_my_turn(solver, me, mine ^ (1 << c), theirs, lead, c, wrestler)
            if outcome is not None:
                value += w * outcome
                continue
            assert state is not None
            theirs_now, lead_now, place = state
            group = groups.get(seen)
            if group is None:
                group = groups[seen] = ([], mine ^ (1 << c), lead_now, place)
            group[0].append((theirs_now, w))
        for members, hand, lead_now, place in groups.values():
            sub = _joint(solver, me, hand, members, lead_now, place, lookahead - 1)
            value += sum(w for _, w in members) * max(sub.values())
        out[c] = value / total_weight
    return out


def _play(solver: TrickSolver, seat: int, card: int, hands: list[int], lead: int | None,
          wrestler: int) -> tuple[int | None, int | None, int, int]:
    """Seat ``seat`` plays ``card`` (taken out of ``hands``, changed in place): (the winner if the
    game ended, the card led now, the seat to play, the wrestlers' place)."""
    hands[seat] ^= 1 << card
    if lead is None:
        return None, card, 1 - seat, wrestler
    leader = 1 - seat
    r = solver.result[1 if wrestler == EDGE[seat] else 0][lead][card]
    if r == INSTANT:
        return seat, None, seat, wrestler
    w = leader if r == LEADER else seat
    wrestler += PUSH[w]
    if wrestler < -1 or wrestler > 1 or not hands[seat]:
        return w, None, w, wrestler
    return None, None, w, wrestler


def _until_my_turn(solver: TrickSolver, me: int, mine: int, theirs: int, lead: int | None, card: int,
                   wrestler: int) -> tuple[float | None, tuple[int, ...], tuple[int, int | None, int] | None]:
    """Play on after seat ``me`` plays ``card`` (``mine`` already without it), the other seat
    playing exactly, until ``me`` is to play again or the game ends. Returns (the outcome for
    ``me`` if it ended, the other seat's cards played meanwhile, (its hand, the card led, the
    wrestlers' place) when ``me`` plays again)."""
    q = 1 - me
    hands = [0, 0]
    hands[me] = mine | 1 << card
    hands[q] = theirs
    seen: list[int] = []
    winner, lead, turn, wrestler = _play(solver, me, card, hands, lead, wrestler)
    while winner is None and turn == q:
        values = solver.values(hands[0], hands[1], q, lead, wrestler)
        answer = next((x for x, won in values.items() if won), next(iter(values)))
        seen.append(answer)
        winner, lead, turn, wrestler = _play(solver, q, answer, hands, lead, wrestler)
    if winner is not None:
        return (1.0 if winner == me else -1.0), tuple(seen), None
    return None, tuple(seen), (hands[q], lead, wrestler)
