"""Sumida River, the shedding/climbing game for 3 or 4 players (rulebook ``004_aba9f55de8f260f1.txt``).

Players race to shed every card. Each trick is a row of eight meld *spaces*; once a meld type has
been played to a trick, nobody may play that type again until the trick is over. How the engine reads
the places where the rulebook is garbled, truncated or silent is written down in
``docs/rules-notes.md`` (section Sumida River).

The cards
    A standard 52-card deck, written rank then suit: ``"5H"`` is the five of hearts, ``"TD"`` the
    ten of diamonds, ``"AS"`` the ace of spades. Clubs ``C`` and spades ``S`` are black, diamonds
    ``D`` and hearts ``H`` are red. Ranks climb as in most climbing games, **3 lowest, 2 highest**::

        3 4 5 6 7 8 9 T J Q K A 2

    so every rank has exactly two black and two red cards. "The Red 3" is the three of diamonds.

    The twelve *A cards* of the rulebook are wild cards, six black and six red. To keep them apart
    from the ace of a suit they are written ``"WB"`` (a Black A) and ``"WR"`` (a Red A). An A card
    is wild for rank only: a Black A is always a black card, a Red A a red one.

Setup
    With 3 players each seat puts 2 Black A and 2 Red A cards face up in front of itself. The box
    holds only twelve, so with 4 players each seat gets 1 Black A and 1 Red A and the remaining four
    (two of each colour) are shuffled and dealt one per seat, face up: three A cards each. Each seat
    is dealt 13 cards; with 3 players the other 13 stay face down, unseen by anybody.

    The game lasts as many rounds as there are players. Each round: a trade phase, then shedding.

Trade phase (actions ``"keep"``, ``"trade"``, ``"add <b> black <r> red"``)
    Everybody secretly declares Keep or Trade (you may only Trade with an A card in front of you;
    seats without one keep automatically). Declarations are made one seat after another in seat
    order, and nobody sees an earlier one until all are revealed together.

    * Keep: you hold your hand and are out of the trade phase.
    * Two or more Trade: each trader adds one A card from the table to their hand (``"add 1 black 0
      red"`` or ``"add 0 black 1 red"``, chosen in secret too, asked only if the trader still has
      both colours) and passes the whole hand to the next *trader* clockwise (to higher seat numbers,
      wrapping round). The traders then declare again.
    * One Trade: the lone trader adds any number of their A cards to their hand (``"add 2 black 0
      red"``, zero is allowed) and keeps it. The trade phase ends.
    * Nobody trades: the trade phase ends.

    Which A cards move is public (everybody sees the cards leave the table), and so is every pass of
    a hand, so everybody always knows how many A cards of each colour each hand holds. What a
    passed hand held is known to the seat that passed it; :meth:`SumidaRiver.observation` lists
    these under ``"known"``.

Shedding (actions ``"meld <type> <cards>"`` and ``"pass"``)
    The holder of the Red 3 (3D) leads the first trick, playing any meld (not necessarily the 3D).
    With 3 players the 3D may be undealt; then the seat with the lowest score leads (a seeded random
    one of the tied lowest). The eight meld types, one space each:

    =============  ========================================  =================================
    type           cards                                     note
    =============  ========================================  =================================
    single-black   one black card
    single-red     one red card
    black-pair     two black cards of one rank
    red-run-2      two red cards of consecutive ranks
    red-triple     three cards of one rank, at least 2 red   may hold one black card
    black-run-3    three consecutive ranks, at least 2 black may hold one red card
    black-four     four black cards of one rank              may end the trick at once
    red-run-4      four red cards of consecutive ranks       may then discard a card
    =============  ========================================  =================================

    Runs follow the rank order above and do not wrap (``QD,KH,AD,2H`` is a run, ``AD,2H,3D`` is
    not). Since a rank has only two black cards, a black four of a kind needs at least two Black A.

    After the lead, each seat in turn clockwise either passes or plays a meld of a type not yet used
    in this trick whose rank is **equal to or higher** than the rank of the meld played just before.
    A meld's rank is its rank (sets) or the rank of its lowest card (runs); A cards are ignored for
    this, so ``TD,9H,WR`` (a red run) has rank 9. A meld made only of A cards has the lowest rank
    allowed: the rank of the meld before it, or 3 when it leads. A pass is a *hard pass*: that seat
    is out of the trick. When every other seat still holding cards has passed, the seat that played
    last wins the trick, the cards are cleared, all eight spaces are free again and the winner leads.

    Specials, chosen right after playing the meld:

    * black-four: ``"end-trick"`` (you win the trick now and lead the next) or ``"play-on"``.
    * red-run-4: if you still hold 2 or more cards, ``"discard <card>"`` (face up, any card of your
      hand, ``WB``/``WR`` included) or ``"discard none"``.

Action strings for melds are canonical: ``"meld <type> "`` then the cards joined by commas, the
natural cards in rank order (suits C, D, H, S within a rank) and then the A cards, ``WB`` before
``WR``; for example ``"meld red-run-4 6D,7H,8D,WR"`` or ``"meld black-pair 5S,WB"``. Any other
spelling is refused with the canonical one named in the message. A cards of one colour are
interchangeable, so an action never says *which* Red A (or Black A) is meant. Legal actions are
listed in plain string order; the engine builds them already sorted, from per-rank tables of melds
cached once for all games, so listing them stays fast although the melds of a hand are many.

Shedding out, scoring and the end
    A seat with no cards left (A cards included) is out of the round and takes the next place. If
    the winner of a trick has gone out, the next seat clockwise still holding cards leads. The round
    ends when one seat still holds cards; it takes last place. Places score 3/2/1/0 points with 4
    players, 2/1/0 with 3. A cards played or still in a hand at the end of a round leave the game;
    A cards still on the table carry over. After the last round the most points wins; a tie goes
    to the tied seat with the fewest A cards left on the table; a further tie is a shared victory.
    :meth:`SumidaRiver.returns` gives +1 to each winner and -1 to the others (all 0 if every seat
    shares the victory).

    >>> g = SumidaRiver.new(3, seed=1)
    >>> g.phase, g.to_play, g.legal_actions()
    ('declare', 0, ['keep', 'trade'])

Options of :meth:`SumidaRiver.new` (for puzzles and tests): ``hands`` (a list of natural cards per
seat for the first round's deal; cards not listed stay undealt) and ``a_cards`` (a ``[black, red]``
count of A cards per seat, at most six of each colour in all; the rest stay in the box).
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from cards import register
from cards.api import CardGame, IllegalMove, OutsideChance, shuffle_like_random
from cards.saved import SavedGame

# ----- the deck ------------------------------------------------------------------------------------
RANKS = "3456789TJQKA2"
SUITS = "CDHS"
#: Natural card c (0..51) is rank c >> 2 (0 = "3" ... 12 = "2") and suit c & 3 (C, D, H, S).
CARD_NAMES: tuple[str, ...] = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in range(52))
CARD_INDEX: dict[str, int] = {n: i for i, n in enumerate(CARD_NAMES)}
FULL_MASK = (1 << 52) - 1
#: The bit of each natural card (the cards are distinct, so summing bits is OR-ing them).
_BIT = tuple(1 << c for c in range(52))
#: Suit bits inside one rank's 4-bit group: C=1, D=2, H=4, S=8.
BLACK_SUITS = 0b1001
RED_SUITS = 0b0110
RED_THREE = CARD_INDEX["3D"]
WB, WR = "WB", "WR"
WILDS_PER_COLOUR = 6
_WB_IDS = [f"WB{i + 1}" for i in range(WILDS_PER_COLOUR)]
_WR_IDS = [f"WR{i + 1}" for i in range(WILDS_PER_COLOUR)]
POINTS = {3: (2, 1, 0), 4: (3, 2, 1, 0)}
#: _AFTER[n][p]: the seats after seat p clockwise, ending with p itself (n players).
_AFTER = {n: tuple(tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)) for n in (3, 4)}
#: The event of each seat's pass (event records are never changed, so one serves every game).
_PASS_EVENTS = tuple({"type": "pass", "seat": p} for p in range(4))
#: _WON_EVENTS[early][p]: the event of seat p winning a trick (at once, after a black four: early).
_WON_EVENTS = tuple(tuple({"type": "trick-won", "seat": p, "early": early} for p in range(4)) for early in (False, True))
#: _OUT[passed][s]: whether seat s is among the seats (bits) ``passed``, and _WITH[passed][p]:
#: those seats and seat p. apply reads these on every turn: a table read costs CPython 3.11 about
#: half of what a shift and an AND cost (integer bit operations have no fast path there).
_OUT = tuple(tuple(passed >> s & 1 == 1 for s in range(4)) for passed in range(16))
_WITH = tuple(tuple(passed | 1 << p for p in range(4)) for passed in range(16))
#: ``to_move`` once the game is over (as saved: the save format keeps an integer there).
NOBODY = -1


def shuffled_deck(rng: random.Random, faces: tuple[int, ...] = tuple(range(52))) -> list[int]:
    """The 52 card ids shuffled exactly as ``rng.shuffle(list(range(52)))`` would shuffle them
    (:func:`cards.api.shuffle_like_random`: the same random bits, without the library loop's two
    Python calls per card), or, given ``faces`` (one value per card id), those values in that
    order: a deal shuffles the cards' bits (``_BIT``), so a hand is the sum of a slice."""
    deck = list(faces)
    shuffle_like_random(rng, deck)
    return deck


def is_black(c: int) -> bool:
    return (BLACK_SUITS >> (c & 3)) & 1 == 1


#: Names of the cards of each byte of a mask: _BYTE_NAMES[i][b] for bits 8i..8i+7.
_BYTE_NAMES = tuple(
    tuple(tuple(CARD_NAMES[8 * i + j] for j in range(8) if (b >> j) & 1 and 8 * i + j < 52) for b in range(256))
    for i in range(7)
)


def mask_names(mask: int) -> list[str]:
    """Natural cards of a bit mask, in rank order."""
    a, b, c, d, e, f, g = _BYTE_NAMES
    return [
        *a[mask & 255], *b[mask >> 8 & 255], *c[mask >> 16 & 255], *d[mask >> 24 & 255],
        *e[mask >> 32 & 255], *f[mask >> 40 & 255], *g[mask >> 48 & 255],
    ]


def nibbles(mask: int) -> tuple[int, ...]:
    """The suit bits of each rank (13 values), padded with three zeros so runs can look ahead."""
    return tuple((mask >> (r << 2)) & 15 for r in range(13)) + (0, 0, 0)


def names_mask(names: list[str], field: str) -> int:
    mask = 0
    for n in names:
        c = CARD_INDEX.get(n) if isinstance(n, str) else None
        if c is None:
            raise ValueError(f"{field}: {n!r} is not a card")
        if mask >> c & 1:
            raise ValueError(f"{field}: {n} is listed twice")
        mask |= 1 << c
    return mask


# ----- meld types ----------------------------------------------------------------------------------
#: In the lexical order of their names, which is also the order of legal actions.
MELD_TYPES = (
    "black-four", "black-pair", "black-run-3", "red-run-2",
    "red-run-4", "red-triple", "single-black", "single-red",
)
MELD_INDEX = {n: i for i, n in enumerate(MELD_TYPES)}
BLACK_FOUR, RED_RUN_4 = MELD_INDEX["black-four"], MELD_INDEX["red-run-4"]
#: (is_run, size, main colour is black, off-colour cards allowed)
SPEC: tuple[tuple[bool, int, bool, int], ...] = (
    (False, 4, True, 0),
    (False, 2, True, 0),
    (True, 3, True, 1),
    (True, 2, False, 0),
    (True, 4, False, 0),
    (False, 3, False, 1),
    (False, 1, True, 0),
    (False, 1, False, 0),
)
#: Suit bits (repeated per rank of a run) that can take part in a meld of each type.
RELEVANT = tuple(
    sum(((15 if off else (BLACK_SUITS if black else RED_SUITS)) << (4 * i)) for i in range(size if run else 1))
    for run, size, black, off in SPEC
)
#: Suit bits a meld's lowest natural card may have.
ELIGIBLE = tuple(15 if off else (BLACK_SUITS if black else RED_SUITS) for _, _, black, off in SPEC)
#: Ranks in the lexical order of their characters ("2" < "3" < ... < "9" < "A" < "J" < ...).
LEX_RANKS = tuple(sorted(range(13), key=lambda r: RANKS[r]))
LEX_FROM = tuple(tuple(r for r in LEX_RANKS if r >= lo) for lo in range(13))


def render_meld(t: int, nat: list[int], nwb: int, nwr: int) -> str:
    """The canonical action string of a meld."""
    return "meld " + MELD_TYPES[t] + " " + ",".join(
        [CARD_NAMES[c] for c in sorted(nat)] + [WB] * nwb + [WR] * nwr
    )


def _split_wilds(black: bool, main: int, off: int) -> tuple[int, int]:
    return (main, off) if black else (off, main)


_WILD_TOKENS = [[[WB] * b + [WR] * r for r in range(5)] for b in range(5)]


def _build_combos(t: int, r: int, bits: int, wm: int, wo: int) -> tuple[str, ...]:
    """Every meld of type ``t`` whose lowest natural card has rank ``r``.

    ``bits`` holds the suit bits of ranks r, r+1, ... (4 per rank); ``wm``/``wo`` are the A cards
    of the type's main / off colour available.
    """
    is_run, size, black, off = SPEC[t]
    main_sb = BLACK_SUITS if black else RED_SUITS
    out: set[str] = set()
    if not is_run:
        mains = [r * 4 + s for s in range(4) if (main_sb >> s) & 1 and (bits >> s) & 1]
        offs = [r * 4 + s for s in range(4) if off and not (main_sb >> s) & 1 and (bits >> s) & 1]
        off_opts: list[tuple[int | None, int]] = [(None, 0)] + [(c, 0) for c in offs]
        if off and wo:
            off_opts.append((None, 1))
        for k in range(len(mains) + 1):
            for sub in combinations(mains, k):
                for oc, ow in off_opts:
                    nat = list(sub) if oc is None else [*sub, oc]
                    if not nat:
                        continue
                    w = size - len(nat) - ow
                    if 0 <= w <= wm:
                        out.add(render_meld(t, nat, *_split_wilds(black, w, ow)))
    else:
        # A run: its natural cards from the lowest up (one per rank, or a gap an A card fills),
        # grown rank by rank and kept only while the off-colour cards stay within the allowance.
        prefix = "meld " + MELD_TYPES[t] + " "
        options = _RUN_OPTIONS[t]
        partial: list[tuple[list[str], int]] = [([nm], o) for nm, o in options[r][bits & 15]]
        for i in range(1, size):
            here = options[r + i][(bits >> (4 * i)) & 15] if r + i < 13 else ()
            grown = [(names, o) for names, o in partial]  # a gap at rank r + i
            for names, o in partial:
                for nm, oo in here:
                    if o + oo <= off:
                        grown.append(([*names, nm], o + oo))
            partial = grown
        for names, nat_off in partial:
            gaps = size - len(names)
            for ow in range(min(off - nat_off, wo, gaps) + 1):
                w = gaps - ow
                if w <= wm:
                    nwb, nwr = (w, ow) if black else (ow, w)
                    out.add(prefix + ",".join(names + _WILD_TOKENS[nwb][nwr]))
    return tuple(sorted(out))


def _run_options(t: int, rank: int, bits: int) -> tuple[tuple[str, int], ...]:
    """The natural cards of ``rank`` among suit bits ``bits`` a run of type ``t`` may use, each with
    1 if it is off-colour (else 0), in suit order."""
    _, _, black, off = SPEC[t]
    main_sb = BLACK_SUITS if black else RED_SUITS
    return tuple(
        (CARD_NAMES[rank * 4 + s], 0 if (main_sb >> s) & 1 else 1)
        for s in range(4)
        if (bits >> s) & 1 and ((main_sb >> s) & 1 or off)
    )


#: _RUN_OPTIONS[type][rank][suit bits]: :func:`_run_options` for every run type (None for sets).
_RUN_OPTIONS = tuple(
    tuple(tuple(_run_options(t, rank, bits) for bits in range(16)) for rank in range(13)) if SPEC[t][0] else ()
    for t in range(8)
)


def _build_all_wild(t: int, wm: int, wo: int) -> tuple[str, ...]:
    _, size, black, off = SPEC[t]
    out = []
    for ow in range(0, off + 1):
        w = size - ow
        if ow <= wo and w <= wm:
            out.append(render_meld(t, [], *_split_wilds(black, w, ow)))
    return tuple(sorted(out))


#: How many meld tables of hands with A cards are filled (see _WILD_TABLES): most belong to
#: black-run-3 (12 suit bits and the A cards); after thousands of random games there are some tens
#: of thousands, and _CACHE_LIMIT bounds the memory of endless play-outs.
_CACHE_SIZE = [0]
_CACHE_LIMIT = 400_000


def _clear_combo_cache() -> None:
    for tables in _WILD_TABLES:
        for table in tables:
            table.clear()
    for selectors in _SELECT:
        for selector in selectors:
            if selector is not None:
                selector[4].clear()
    _CACHE_SIZE[0] = 0


_ALL_WILD = tuple(
    tuple(tuple(_build_all_wild(t, wm, wo) for wo in range(2)) for wm in range(5)) for t in range(8)
)


# ----- the melds of a hand, bit-parallel ------------------------------------------------------------


def _lex_table() -> dict[int, tuple[int, ...]]:
    """Every set of ranks (bit 2r for rank r) -> the values 2r of its ranks in the lexical order of
    legal actions: 8192 sets, made at import from smaller ones (a set's order is its first rank,
    then the rest's)."""
    # Indexed by m, bit i set for the i-th rank in lexical order: the first rank is m's lowest bit.
    doubled: list[tuple[int, ...]] = [()] * 8192
    spread = [0] * 8192
    for m in range(1, 8192):
        rest = m & (m - 1)
        first = LEX_RANKS[(m ^ rest).bit_length() - 1]
        doubled[m] = (2 * first, *doubled[rest])
        spread[m] = spread[rest] | 1 << (2 * first)
    return dict(zip(spread, doubled, strict=True))


_LEX2 = _lex_table()


def meld_ranks(bl: int, rd: int, wb: int, wr: int) -> tuple[int, ...]:
    """For each meld type, the ranks (a rank set, bit 2r for rank r) at which the hand with natural
    cards ``bl``, ``rd`` (its colour masks, see :func:`split_hand`), ``wb`` Black A and ``wr`` Red A
    holds a meld whose lowest natural card has that rank.

    This is the rulebook's table worked out once for whole hands with bit operations, instead of
    trying every rank of every type: a rank's black cards are its clubs and spades, its red ones its
    diamonds and hearts, and ``x >> 2`` moves a rank set one rank down (so ``ra & ra >> 2`` are the
    ranks whose next rank also holds a red card). The differential test checks it against trying
    every rank (:func:`reference_melds`).
    """
    even = _EVEN
    c, s, d, hh = bl & even, (bl >> 1) & even, rd & even, (rd >> 1) & even
    ba, bb, ra, rb = c | s, c & s, d | hh, d & hh
    w1 = even if wb >= 1 else 0
    w2 = even if wb >= 2 else 0
    q1 = even if wr >= 1 else 0
    q2 = even if wr >= 2 else 0
    # black-run-3: the lowest card black (then the one off-colour card may fill a gap) or red.
    b1, b2, r1, r2 = ba >> 2, ba >> 4, ra >> 2, ra >> 4
    e0, e1, e2 = b1 & b2, b1 ^ b2, even & ~(b1 | b2)
    run3 = (ba & (e0 | (e1 & (w1 | q1 | (b1 & r2) | (b2 & r1))) | (e2 & (w2 | (w1 & (r1 | r2 | q1))))))
    run3 |= ra & (e0 | (e1 & w1) | (e2 & w2))
    # red-run-4: the red ranks among the next three, the gaps filled by Red A.
    x, y, z = r1, r2, ra >> 6
    if wr >= 3:
        run4 = ra
    elif wr == 2:
        run4 = ra & (x | y | z)
    elif wr == 1:
        run4 = ra & ((x & y) | (x & z) | (y & z))
    else:
        run4 = ra & x & y & z
    return (
        (bb if wb >= 2 else 0) | (ba if wb >= 3 else 0),  # black-four (two black cards a rank)
        bb | (ba & w1),  # black-pair
        run3,  # black-run-3
        ra & (x | q1),  # red-run-2
        run4,  # red-run-4
        (rb & (ba | w1 | q1)) | (ra & ((ba & q1) | (w1 & q1) | q2)) | (ba & q2),  # red-triple
        ba,  # single-black
        ra,  # single-red
    )


def _table_row(t: int, wb: int, wr: int) -> tuple[int, int, tuple[str, ...]]:
    """(suit bits that matter, A-card code of the table key, the melds of A cards only) for type
    ``t`` and a hand's A cards."""
    _, size, black, off = SPEC[t]
    wm, wo = (wb, wr) if black else (wr, wb)
    wm, wo = min(wm, size), min(wo, off)
    # A meld with a natural card uses at most size - 1 A cards: the key is capped there.
    code = ((wm if wm < size else size - 1) << 1 | wo) << 16
    return RELEVANT[t], code, _ALL_WILD[t][wm][wo]


#: _ROWS[wb][wr][t]: _table_row for every A-card count a hand can hold.
_ROWS = tuple(tuple(tuple(_table_row(t, wb, wr) for t in range(8)) for wr in range(13)) for wb in range(13))
_FREE_TYPES = tuple(tuple(t for t in range(8) if not blocked >> t & 1) for blocked in range(256))


def hand_melds(h: int, wb: int, wr: int, blocked: int, cur: int) -> list[str]:
    """Every meld of the hand (natural cards ``h``, ``wb`` Black A, ``wr`` Red A) of a type not in
    ``blocked`` (bits) and of rank ``cur`` or higher (-1: leading), in sorted order.

    The hand is split into its colour masks (:func:`split_hand`; a game keeps them per seat) and
    listed by :func:`wild_melds`, or, without A cards - most turns of a play-out - by the shorter
    :func:`natural_melds`.
    """
    bl, rd = split_hand(h)
    if wb or wr:
        return wild_melds(bl, rd, wb, wr, blocked, cur)
    return natural_melds(bl, rd, blocked, cur)


# ----- hands without A cards, in two small masks ----------------------------------------------------
# Most shedding turns of a play-out are played without A cards. For them the hand is also kept as
# two masks of 26 bits, one per colour, two bits a rank: ``bl`` holds each rank's clubs (bit 2r)
# and spades (bit 2r + 1), ``rd`` its diamonds (2r) and hearts (2r + 1). CPython works on ints below
# 2**30 in one machine word, about twice as fast as on the two-word 52-bit hand, and the suit bits
# a meld type needs at one rank are then a small number that indexes a list directly.
#: Even bits (one per rank, bit 2r): rank sets in the split layout are masks of these.
_EVEN = sum(1 << (2 * r) for r in range(13))
#: Split-layout masks keeping the ranks from lo up.
_GE2 = tuple(sum(3 << (2 * r) for r in range(lo, 13)) for lo in range(13))
#: One byte of a 52-bit hand (ranks 2i and 2i + 1) -> its black bits | its red bits << 4, split.
_SPLIT_BYTE = tuple(
    sum(((b >> (4 * k)) & 1) << (2 * k) | ((b >> (4 * k + 3)) & 1) << (2 * k + 1) for k in range(2))
    | sum(((b >> (4 * k + 1)) & 1) << (2 * k) | ((b >> (4 * k + 2)) & 1) << (2 * k + 1) for k in range(2)) << 4
    for b in range(256)
)


def split_hand(h: int) -> tuple[int, int]:
    """The natural cards ``h`` (a 52-bit mask) as the two colour masks ``(bl, rd)``."""
    t = _SPLIT_BYTE
    a, b, c, d = t[h & 255], t[h >> 8 & 255], t[h >> 16 & 255], t[h >> 24 & 255]
    e, f, g = t[h >> 32 & 255], t[h >> 40 & 255], t[h >> 48 & 255]
    bl = (a & 15) | (b & 15) << 4 | (c & 15) << 8 | (d & 15) << 12 | (e & 15) << 16 | (f & 15) << 20 | (g & 15) << 24
    rd = a >> 4 | (b >> 4) << 4 | (c >> 4) << 8 | (d >> 4) << 12 | (e >> 4) << 16 | (f >> 4) << 20 | (g >> 4) << 24
    return bl, rd


#: Card id -> its bit in (bl, rd) as a pair (one of them 0).
_SPLIT_BIT = tuple(split_hand(1 << c) for c in range(52))


#: Per meld type, how a split key is laid out: (black bits a key takes, red bits, shift of the red
#: bits in the key). The key of type t at rank r is ((bl >> 2r) & black) | ((rd >> 2r) & red) << shift.
_SPLIT_KEY = (
    (3, 0, 0),  # black-four (never without A cards: a rank has only two black cards)
    (3, 0, 0),  # black-pair
    (63, 63, 6),  # black-run-3 (three ranks, either colour)
    (0, 15, 0),  # red-run-2 (two ranks of red)
    (0, 255, 0),  # red-run-4 (four ranks of red)
    (3, 3, 2),  # red-triple (one rank, either colour)
    (3, 0, 0),  # single-black
    (0, 3, 0),  # single-red
)
#: _SPLIT_TABLES[type][2r][split key] -> the melds without A cards of that type whose lowest card
#: has rank r (None until first needed; shared by every game).
_SPLIT_TABLES: list[list[list[tuple[str, ...] | None]]] = [
    [[None] * ((bm | rm << sh) + 1) if r % 2 == 0 else [] for r in range(26)] for bm, rm, sh in _SPLIT_KEY
]


def _supersets(need: int, space: int) -> list[int]:
    """Every value of the bits ``space`` that holds the bits ``need`` (a part of ``space``)."""
    assert need & space == need
    free = space ^ need
    out = [need | free]
    s = free
    while s:
        s = (s - 1) & free
        out.append(need | s)
    return out


#: One of :data:`_SELECT`'s entries: three indexes of bit sets and how to read a bit set out.
_Selector = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[str, ...], dict[int, tuple[str, ...]]]
#: _SELECT[type][2r]: how a missing meld table of that type and lowest rank r is filled (see
#: :func:`_selector`; made when first needed, shared by every game).
_SELECT: list[list[_Selector | None]] = [[None] * 26 for _ in range(8)]
#: _TOP[i]: the bit a bit set of length i ends with.
_TOP = (0, *(1 << i for i in range(127)))


def _selector(t: int, r2: int) -> _Selector:
    """Every meld of type ``t`` whose lowest natural card has rank ``r2 >> 1`` (its *candidates*,
    bit i of a bit set for the i-th from the end of their sorted order), in three indexes by what
    it needs, one for each part of a table key (see :data:`_SPLIT_KEY`): ``black[b]``, the
    candidates whose black cards are among the split bits ``b`` of the key; ``red[b]`` the same for
    red cards; ``code[c]``, those whose A cards a hand with A-card code ``c`` holds (the main
    colour's count << 1 | the off colour's). Then ``names[i]``, the candidate of a bit set of
    length i's highest bit (the first in sorted order), and the tables already read out of a bit set.

    A hand can make a meld exactly when it holds its black cards, its red cards and its A cards, so
    the melds of a key are the bits of two ANDs, read from the highest down: no test per candidate
    (a bit operation costs some 200-300 machine instructions in CPython 3.11, a list read 100).
    """
    got = _SELECT[t][r2]
    if got is None:
        _, size, black, off = SPEC[t]
        bm, rm, _ = _SPLIT_KEY[t]
        by_black = [0] * (bm + 1)
        by_red = [0] * (rm + 1)
        by_code = [0] * 16
        names = _build_combos(t, r2 >> 1, RELEVANT[t], size - 1, off)
        for i, action in enumerate(names):
            bit = 1 << (len(names) - 1 - i)
            m = parse_meld(action)
            assert not isinstance(m, str)
            for b in _supersets(m.split_bl >> r2, bm):
                by_black[b] |= bit
            for b in _supersets(m.split_rd >> r2, rm):
                by_red[b] |= bit
            main, other = (m.nwb, m.nwr) if black else (m.nwr, m.nwb)
            for code in range(16):
                if main <= code >> 1 and other <= code & 1:
                    by_code[code] |= bit
        got = _SELECT[t][r2] = (tuple(by_black), tuple(by_red), tuple(by_code), ("", *reversed(names)), {})
    return got


def _table_melds(t: int, r2: int, k: int) -> tuple[str, ...]:
    """The melds of type ``t`` whose lowest natural card has rank ``r2 >> 1`` that a hand with key
    ``k`` there can make (its split key | A-card code << 12), sorted (see :func:`_selector`)."""
    by_black, by_red, by_code, names, seen = _SELECT[t][r2] or _selector(t, r2)
    bm, rm, sh = _SPLIT_KEY[t]
    sel = by_red[k >> sh & rm] & by_code[k >> 12] & by_black[k & bm]
    got = seen.get(sel)
    if got is None:  # (different keys often make the same melds: a third of the misses)
        out = []
        s = sel
        while s:
            i = s.bit_length()
            out.append(names[i])
            s ^= _TOP[i]
        got = seen[sel] = tuple(out)
    return got


def _split_combos(t: int, r2: int, key: int) -> tuple[str, ...]:
    """Fill one entry of :data:`_SPLIT_TABLES`."""
    got = _SPLIT_TABLES[t][r2][key] = _table_melds(t, r2, key)
    return got


#: _WILD_TABLES[type][2r][split key | A-card code << 12] -> the melds of a hand with A cards there
#: (filled on demand, shared by every game; see :func:`wild_melds`).
_WILD_TABLES: list[list[dict[int, tuple[str, ...]]]] = [[{} for _ in range(26)] for _ in range(8)]


def _wild_combos(t: int, r2: int, k: int) -> tuple[str, ...]:
    """Fill one entry of :data:`_WILD_TABLES`."""
    got = _WILD_TABLES[t][r2][k] = _table_melds(t, r2, k)
    _CACHE_SIZE[0] += 1
    if _CACHE_SIZE[0] > _CACHE_LIMIT:  # bound memory in endless play-outs
        _clear_combo_cache()
    return got


def wild_melds(bl: int, rd: int, wb: int, wr: int, blocked: int, cur: int) -> list[str]:
    """:func:`hand_melds` of a hand with ``wb`` Black A and ``wr`` Red A, its natural cards given
    as colour masks (see :func:`split_hand`): the ranks of each type from :func:`meld_ranks` of the
    cards of rank ``cur`` or higher (a meld of that rank or higher holds no other), the melds at
    each rank from tables keyed by the suit bits there and the A cards (shared by every game)."""
    if cur > 0:
        ge = _GE2[cur]
        bl &= ge
        rd &= ge
    sets = meld_ranks(bl, rd, wb, wr)
    rows = _ROWS[wb][wr]
    out: list[str] = []
    for t in _FREE_TYPES[blocked]:
        ranks = sets[t]
        if ranks:
            bm, rm, sh = _SPLIT_KEY[t]
            code = rows[t][1] >> 4  # the A-card code at bit 12
            if code:
                tables = _WILD_TABLES[t]
                for r2 in _LEX2[ranks]:
                    k = ((bl >> r2) & bm) | ((rd >> r2) & rm) << sh | code
                    out += tables[r2].get(k) or _wild_combos(t, r2, k)
            else:  # none of the A cards fit this type: the tables of hands without them
                lists = _SPLIT_TABLES[t]
                for r2 in _LEX2[ranks]:
                    k = ((bl >> r2) & bm) | ((rd >> r2) & rm) << sh
                    out += lists[r2][k] or _split_combos(t, r2, k)
        out += rows[t][2]
    return out


def natural_melds(bl: int, rd: int, blocked: int, cur: int, passing: bool = False) -> list[str]:
    """:func:`hand_melds` of a hand without A cards given as its colour masks (see
    :func:`split_hand`): each type's ranks worked out only when its space is free, after dropping
    the cards below the rank to meet (a meld of rank ``cur`` or higher holds none of them).
    With ``passing``, ``"pass"`` ends the list (a game's legal actions in one call)."""
    if cur > 0:
        ge = _GE2[cur]
        bl &= ge
        rd &= ge
        if not (bl or rd):  # nothing that high left (a sixth of the turns of a play-out)
            return ["pass"] if passing else []
    # Every meld but a single needs two black cards (a black pair), two red ones (a red run of two)
    # or three cards: a hand with few cards (that high) skips the types it cannot make.
    lb, lr = bl & (bl - 1), rd & (rd - 1)  # the cards but the lowest of each colour
    if not (lb or lr):  # at most one card of each colour: singles only (a fifth of the turns)
        if (blocked & 64 or not bl) and (blocked & 128 or not rd):
            return ["pass"] if passing else []  # not even a single (a tenth of the turns)
        lone: list[str] = [_LONE[0][bl]] if bl and not blocked & 64 else []
        if rd and not blocked & 128:
            lone.append(_LONE[1][rd])
        if passing:
            lone.append("pass")
        return lone
    if not (rd or lb & (lb - 1)):  # two black cards: a black pair at most
        blocked |= 61
    elif not (bl or lr & (lr - 1)):  # two red cards: a red run of two at most
        blocked |= 55
    even = _EVEN
    # The ranks with a black card, with a red card: only when a free space needs them.
    ba = (bl | bl >> 1) & even if blocked & 36 != 36 else 0  # black-run-3, red-triple
    ra = (rd | rd >> 1) & even if blocked & 28 != 28 else 0  # black-run-3, the red runs
    out: list[str] = []
    tables, lex = _SPLIT_TABLES, _LEX2
    if not blocked & 2:  # black-pair: both black cards of a rank
        x = bl & (bl >> 1) & even
        if x:
            tab = tables[1]
            for r2 in lex[x]:
                out += tab[r2][3] or _split_combos(1, r2, 3)
    if not blocked & 4:  # black-run-3 (see meld_ranks)
        # Black at the next two ranks, led by a card of either colour; or led by a black card,
        # one of the next two ranks black and the other red (meld_ranks' "exactly one of them
        # black" needs no test here: with both black the first case holds anyway).
        b1, b2 = ba >> 2, ba >> 4
        e0 = b1 & b2
        x = (ba & (e0 | (b1 & (ra >> 4)) | (b2 & (ra >> 2)))) | (ra & e0)
        if x:
            tab = tables[2]
            for r2 in lex[x]:
                k = (bl >> r2) & 63 | ((rd >> r2) & 63) << 6
                out += tab[r2][k] or _split_combos(2, r2, k)
    if blocked & 24 != 24:  # red-run-2, red-run-4
        x = ra & (ra >> 2)
        if x:
            if not blocked & 8:
                tab = tables[3]
                for r2 in lex[x]:
                    k = (rd >> r2) & 15
                    out += tab[r2][k] or _split_combos(3, r2, k)
            if not blocked & 16:
                x &= (ra >> 4) & (ra >> 6)
                if x:
                    tab = tables[4]
                    for r2 in lex[x]:
                        k = (rd >> r2) & 255
                        out += tab[r2][k] or _split_combos(4, r2, k)
    if not blocked & 32:  # red-triple: both red cards of a rank and a third card
        x = rd & (rd >> 1) & ba
        if x:
            tab = tables[5]
            for r2 in lex[x]:
                k = (bl >> r2) & 3 | ((rd >> r2) & 3) << 2
                out += tab[r2][k] or _split_combos(5, r2, k)
    if bl and not blocked & 64:  # singles: three pieces of the lexical order, see _SINGLES
        a, b, c = _SINGLES[0]
        hi = bl >> 14
        out += a[hi]
        out += b[bl & 0x3FFF]
        out += c[hi]
    if rd and not blocked & 128:
        a, b, c = _SINGLES[1]
        hi = rd >> 14
        out += a[hi]
        out += b[rd & 0x3FFF]
        out += c[hi]
    if passing:
        out.append("pass")
    return out


def _singles(t: int, first: int, ranks: int) -> tuple[tuple[str, ...], ...]:
    """The singles of type ``t`` (single-black, single-red) among the ``ranks`` ranks from
    ``first`` up, for every value of their bits in that colour's mask (split layout), in the
    lexical order of legal actions."""
    colour = (0, 3) if t == MELD_INDEX["single-black"] else (1, 2)  # its suits, in order
    # (bit of the card in the piece, its action), in the order of the actions.
    cards = sorted(
        (("meld " + MELD_TYPES[t] + " " + CARD_NAMES[r * 4 + colour[i]]), 1 << (2 * (r - first) + i))
        for r in range(first, first + ranks) for i in range(2)
    )
    return tuple(tuple([a for a, bit in cards if bits & bit]) for bits in range(1 << (2 * ranks)))


def _low_singles(t: int) -> tuple[tuple[str, ...], ...]:
    """The singles of type ``t`` of ranks 3-9 (bits 0-13 of a colour mask), for every value of
    those bits: ranks 3-6 then 7-9 (their digits sort in rank order), from two small tables."""
    low, high = _singles(t, 0, 4), _singles(t, 4, 3)
    return tuple(low[k & 255] + high[k >> 8] for k in range(1 << 14))


#: _SINGLES[0 black, 1 red]: the singles of a colour mask in three pieces that follow one another
#: in the lexical order of legal actions ("2" first, then "3" to "9", then "A", "J", "K", "Q",
#: "T"): rank 2 (bits 24-25), ranks 3-9 (bits 0-13), ranks T-A (bits 14-23), each indexed by its
#: bits. Some 33,000 short tuples, made at import (a few ms). The first and the last piece are both
#: indexed by the bits from 14 up (ranks T-2: 4,096 entries, shared tuples), so a colour mask is cut
#: in two with two operations instead of four.
_SINGLES = tuple(
    (tuple(two[hi >> 10] for hi in range(4096)), low, tuple(high[hi & 1023] for hi in range(4096)))
    for two, low, high in (
        (_singles(t, 12, 1), _low_singles(t), _singles(t, 7, 5))
        for t in (MELD_INDEX["single-black"], MELD_INDEX["single-red"])
    )
)

#: _LONE[0 black, 1 red]: a colour mask of one card (split layout) -> its single, from _SINGLES.
_LONE = tuple(
    {bit: (a[bit >> 14] + b[bit & 0x3FFF] + c[bit >> 14])[0] for bit in (1 << i for i in range(26))}
    for a, b, c in _SINGLES
)


def reference_melds(h: int, wb: int, wr: int, blocked: int, cur: int) -> list[str]:
    """:func:`hand_melds` the slow way, trying every rank of every free type (the tests compare
    the two)."""
    nib = nibbles(h)
    present = [r for r in LEX_FROM[cur if cur > 0 else 0] if nib[r]]
    out: list[str] = []
    for t in range(8):
        if blocked >> t & 1:
            continue
        is_run, size, black, off = SPEC[t]
        wm, wo = (wb, wr) if black else (wr, wb)
        wm, wo = min(wm, size), min(wo, off)
        if wm >= (2 if t == BLACK_FOUR else 0):
            for r in present:
                if not nib[r] & ELIGIBLE[t]:
                    continue
                bits = nib[r] | (nib[r + 1] << 4 | nib[r + 2] << 8 | nib[r + 3] << 12 if is_run else 0)
                out.extend(_build_combos(t, r, bits & RELEVANT[t], min(wm, size - 1), wo))
        out.extend(_ALL_WILD[t][wm][wo])
    return out


class Meld:
    """A parsed meld action: type, natural cards (mask), A cards by colour, rank (None: all A)."""

    __slots__ = (
        "type", "mask", "nat", "nwb", "nwr", "rank", "cards", "split_bl", "split_rd", "bit", "wild", "floor",
        "events", "special",
    )

    def __init__(self, t: int, nat: list[int], nwb: int, nwr: int, rank: int | None, cards: list[str]):
        self.type, self.nat, self.nwb, self.nwr, self.rank, self.cards = t, tuple(nat), nwb, nwr, rank, cards
        self.mask = sum(1 << c for c in nat)
        # Worked out once per meld string, for apply's hot path:
        self.split_bl = sum(_SPLIT_BIT[c][0] for c in nat)  # its cards in the colour masks
        self.split_rd = sum(_SPLIT_BIT[c][1] for c in nat)
        self.bit = 1 << t  # its space in the trick
        self.wild = bool(nwb or nwr)
        self.floor = -1 if rank is None else rank  # for the check against the rank to meet
        self.special = t in (BLACK_FOUR, RED_RUN_4)  # a choice may follow it
        # Its event for each seat (event records are never changed, so one serves every game);
        # a meld of A cards only takes its rank from the trick, so it has none.
        self.events = None if rank is None else tuple(
            {"type": "meld", "seat": p, "meld": MELD_TYPES[t], "cards": cards, "rank": RANKS[rank]}
            for p in range(4)
        )


#: action string -> Meld, or the reason it is not a well-formed meld.
_PARSED: dict[str, Meld | str] = {}
#: The well-formed ones only (apply's hot path reads them without a type check).
_MELDS: dict[str, Meld] = {}


def parse_meld(action: str) -> Meld | str:
    """Parse a meld action (memoised); return the reason as a string when it is malformed."""
    got = _PARSED.get(action)
    if got is None:
        got = _parse_meld(action)
        if len(_PARSED) > 200_000:  # unbounded random strings must not grow memory forever
            _PARSED.clear()
            _MELDS.clear()
        _PARSED[action] = got
        if not isinstance(got, str):
            _MELDS[action] = got
    return got


def _parse_meld(action: str) -> Meld | str:
    parts = action.split(" ")
    if len(parts) != 3 or parts[0] != "meld":
        return "write a meld as 'meld <type> <card>,<card>,...', e.g. 'meld black-pair 5C,5S'"
    t = MELD_INDEX.get(parts[1])
    if t is None:
        return f"{parts[1]!r} is not a meld type: use one of {', '.join(MELD_TYPES)}"
    is_run, size, black, off = SPEC[t]
    nat: list[int] = []
    nwb = nwr = 0
    for n in parts[2].split(","):
        if n == WB:
            nwb += 1
        elif n == WR:
            nwr += 1
        elif n in CARD_INDEX:
            c = CARD_INDEX[n]
            if c in nat:
                return f"{n} is listed twice"
            nat.append(c)
        else:
            return f"{n!r} is not a card (cards look like 5H, TD, AS; A cards are WB and WR)"
    name = MELD_TYPES[t]
    if len(nat) + nwb + nwr != size:
        return f"a {name} has {size} card{'s' if size > 1 else ''}, not {len(nat) + nwb + nwr}"
    n_black = sum(1 for c in nat if is_black(c)) + nwb
    n_main = n_black if black else size - n_black
    if size - n_main > off:
        colour, other = ("black", "red") if black else ("red", "black")
        if off:
            return f"a {name} may hold only one {other} card"
        return f"every card of a {name} must be {colour}"
    ranks = [c >> 2 for c in nat]
    if is_run:
        if len(set(ranks)) != len(ranks):
            return f"a {name} needs different ranks"
        if ranks and max(ranks) - min(ranks) > size - 1:
            return f"the cards of a {name} must be consecutive (3 lowest ... A, 2 highest; no wrap)"
    elif len(set(ranks)) > 1:
        return f"every card of a {name} must have the same rank"
    canonical = render_meld(t, nat, nwb, nwr)
    if canonical != action:
        return f"write this meld as {canonical!r}"
    cards = [CARD_NAMES[c] for c in sorted(nat)] + [WB] * nwb + [WR] * nwr
    return Meld(t, nat, nwb, nwr, min(ranks) if ranks else None, cards)


# ----- phases --------------------------------------------------------------------------------------
DECLARE, ADD, SOLO, PLAY, DISCARD, END_CHOICE, OVER = (
    "declare", "add", "solo", "play", "discard", "end-choice", "over",
)
PHASES = (DECLARE, ADD, SOLO, PLAY, DISCARD, END_CHOICE, OVER)
ADD_ACTIONS = {(1, 0): "add 1 black 0 red", (0, 1): "add 0 black 1 red"}


def _add_action(b: int, r: int) -> str:
    return f"add {b} black {r} red"


@register
class SumidaRiver(CardGame):
    """The state of a game of Sumida River (see the module docstring for the rules)."""

    name = "sumida-river"
    player_counts = (3, 4)
    # Every attribute of a game is a slot. CPython 3.11 keeps at most 29 attributes of an object
    # in its fast inline layout; a game has more, so without slots each one lived in a dict and
    # every read or write of one cost about 20 machine instructions more (some 40 an action).
    # ``is_over`` is a slot too, instead of the base class's property: a play-out reads it before
    # every action.
    __slots__ = (
        "num_players", "_after", "seed", "_rng", "_rng_seed", "_rng_shared", "_chance", "round",
        "phase", "is_over", "to_move", "scores", "tb", "tr", "hb", "hr", "gone", "box", "hands",
        "_split", "undealt", "cleared", "known", "plays", "trick_mask", "trick_w", "blocked", "cur",
        "top", "passed", "finished", "deciders", "decl", "traders", "adds", "events", "_legal",
    )
    is_over: bool

    def __init__(self, players: int = 4) -> None:
        n = players
        self.num_players = n
        self._after = _AFTER[n]  # (read by apply every turn)
        self.seed = 0
        self._seed_rng(0)
        # Set here, in the order clone() sets it (with slots the order no longer matters to speed,
        # but every engine keeps to it: see docs/architecture.md).
        self._chance = None
        self.round = 0  # 1-based once dealt
        self.phase = DECLARE
        #: phase == OVER, kept as a plain attribute: play-outs ask it before every action.
        self.is_over = False
        self.to_move = 0
        self.scores = [0] * n
        # A cards by colour: on the table in front of each seat, in each hand, out of the game, box.
        self.tb = [0] * n
        self.tr = [0] * n
        self.hb = [0] * n
        self.hr = [0] * n
        self.gone = [0, 0]
        self.box = [0, 0]
        # Natural cards as 52-bit masks.
        self.hands = [0] * n
        # _split[p]: (a hand of seat p, its colour masks as split_hand gives them), the last one
        # worked out; checked against hands[p] before use, so whatever changes a hand stays right.
        self._split = [(0, 0, 0)] * n
        self.undealt = 0
        self.cleared = 0  # cards of finished tricks and face-up discards, this round
        # known[r * (n + 1) + q]: natural cards seat r has seen go to hand q (q == n: undealt).
        # Cards that hand has played since are not taken out (a meld would have to update every
        # seat's knowledge): what r knows now is that and the hand, see known_cards().
        self.known = [0] * (n * (n + 1))
        # The trick: plays as (seat, type, action, effective rank); blocked types (bits).
        self.plays: list[tuple[int, int, str, int]] = []
        self.trick_mask = 0
        self.trick_w = [0, 0]
        self.blocked = 0
        self.cur = -1  # rank to meet; -1 when the next meld leads a new trick
        self.top = -1  # seat of the last meld
        self.passed = 0  # seats (bits) that hard-passed this trick
        self.finished: list[int] = []  # seats that shed out this round, in order
        # Trade phase: deciders (in order), their secret declarations / A choices.
        self.deciders: list[int] = []
        self.decl: list[int] = [-1] * n  # -1 undecided, 0 keep, 1 trade
        self.traders: list[int] = []
        self.adds: list[int] = [-1] * n  # -1 none yet, 0 black, 1 red
        self.events: list[dict[str, Any]] = []
        self._legal = None

    # ----- construction ------------------------------------------------------------------------
    @classmethod
    def new(
        cls, players: int | None = None, seed: int = 0, *, chance: OutsideChance | None = None, **options: Any
    ) -> SumidaRiver:
        """A new game: A cards set out, first round dealt, trade phase begun."""
        n = 4 if players is None else players
        if n not in cls.player_counts:
            raise ValueError(f"players: Sumida River is for 3 or 4 players, not {n}")
        unknown = set(options) - {"hands", "a_cards"}
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))} (known: hands, a_cards)")
        g = cls(n)
        g.seed = seed
        g._seed_rng(seed)
        g._chance = chance
        a_cards = options.get("a_cards")
        if a_cards is None:
            if n == 3:
                g.tb, g.tr = [2] * 3, [2] * 3
            else:
                g.tb, g.tr = [1] * 4, [1] * 4
                extra = [0, 0, 1, 1]  # two Black A and two Red A left: one to each seat
                g._shuffle(extra)
                for p in range(n):
                    e = g._draw(extra, "A card")
                    if e:
                        g.tr[p] += 1
                    else:
                        g.tb[p] += 1
        else:
            if not (isinstance(a_cards, (list, tuple)) and len(a_cards) == n):
                raise ValueError("a_cards: give a [black, red] pair for every seat")
            for p, pair in enumerate(a_cards):
                if not (isinstance(pair, (list, tuple)) and len(pair) == 2
                        and all(type(x) is int and x >= 0 for x in pair)):
                    raise ValueError(f"a_cards: seat {p} needs a [black, red] pair of counts")
                g.tb[p], g.tr[p] = pair
            if sum(g.tb) > WILDS_PER_COLOUR or sum(g.tr) > WILDS_PER_COLOUR:
                raise ValueError("a_cards: the box holds only 6 Black A and 6 Red A cards")
        g.box = [WILDS_PER_COLOUR - sum(g.tb), WILDS_PER_COLOUR - sum(g.tr)]
        g.events.append({
            "type": "setup", "players": n,
            "a_cards": [[g.tb[p], g.tr[p]] for p in range(n)],
        })
        hands = options.get("hands")
        if hands is not None:
            if not (isinstance(hands, (list, tuple)) and len(hands) == n):
                raise ValueError("hands: give a list of cards for every seat")
            masks = [names_mask(list(h), "hands") for h in hands]
            total = 0
            for m in masks:
                if total & m:
                    raise ValueError(f"hands: {mask_names(total & m)[0]} is dealt twice")
                total |= m
        else:
            masks = None
        g._start_round(masks)
        return g

    @classmethod
    def chance_name(cls, kind: str, outcome: int) -> str:
        if kind == "A card":
            return f"{kind}: {('Black', 'Red')[outcome]} A"
        if kind == "first leader":
            return f"{kind}: seat {outcome}"
        return f"{kind} {CARD_NAMES[outcome]}"

    # ----- flow --------------------------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        return None if self.phase == OVER else self.to_move

    def legal_actions(self) -> list[str]:
        # The base class's, with the most frequent case - a shedding turn without A cards - listed
        # here directly (a call less per action of a play-out; _compute_legal lists the others).
        legal = self._legal
        if legal is None:
            p = self.to_move
            if self.phase == PLAY and not (self.hb[p] or self.hr[p]):
                h = self.hands[p]
                sp = self._split[p]
                if sp[0] != h:
                    sp = self._split[p] = (h, *split_hand(h))
                cur = self.cur
                legal = self._legal = natural_melds(sp[1], sp[2], self.blocked, cur, cur >= 0)
            else:
                legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list[str]:
        phase = self.phase
        p = self.to_move
        if phase == PLAY:
            cur = self.cur
            h = self.hands[p]
            wb, wr = self.hb[p], self.hr[p]
            sp = self._split[p]
            if sp[0] != h:
                sp = self._split[p] = (h, *split_hand(h))
            if wb or wr:
                out = wild_melds(sp[1], sp[2], wb, wr, self.blocked, cur)
            else:
                out = natural_melds(sp[1], sp[2], self.blocked, cur, cur >= 0)
                return out
            if cur >= 0:
                out.append("pass")
            return out
        if phase == DECLARE:
            return ["keep", "trade"]
        if phase == ADD:
            return [ADD_ACTIONS[(0, 1)], ADD_ACTIONS[(1, 0)]]
        if phase == SOLO:
            return sorted(_add_action(b, r) for b in range(self.tb[p] + 1) for r in range(self.tr[p] + 1))
        if phase == DISCARD:
            out = ["discard " + c for c in mask_names(self.hands[p])]
            if self.hb[p]:
                out.append("discard WB")
            if self.hr[p]:
                out.append("discard WR")
            out.append("discard none")
            return sorted(out)
        if phase == END_CHOICE:
            return ["end-trick", "play-on"]
        return []

    def _apply_other(self, action: str) -> None:
        """:meth:`apply` in every phase but shedding (and for actions that are not strings)."""
        phase = self.phase
        if not isinstance(action, str):
            raise IllegalMove(f"actions are strings such as 'pass' or 'keep', not {action!r}", "not_an_action")
        if phase == OVER:
            raise IllegalMove("the game is over: no more actions", "game_over")
        elif phase == DECLARE:
            self._apply_declare(action)
        elif phase == ADD:
            self._apply_add(action)
        elif phase == SOLO:
            self._apply_solo(action)
        elif phase == DISCARD:
            self._apply_discard(action)
        else:
            self._apply_end_choice(action)
        self._legal = None

    # ----- the trade phase -----------------------------------------------------------------------
    def _begin_declarations(self, group: list[int]) -> None:
        """Seats of ``group`` declare Keep/Trade in secret; seats without A cards keep."""
        self.deciders = [p for p in sorted(group) if self.tb[p] + self.tr[p] > 0]
        self.decl = [-1] * self.num_players
        self.adds = [-1] * self.num_players
        self.traders = []
        if not self.deciders:
            self._begin_shedding()
            return
        self.phase = DECLARE
        self.to_move = self.deciders[0]

    def _apply_declare(self, action: str) -> None:
        if action not in ("keep", "trade"):
            raise IllegalMove(f"declare 'keep' or 'trade' now, not {action!r}", "declare")
        p = self.to_move
        self.decl[p] = 1 if action == "trade" else 0
        # Secret until every decider has declared.
        self.events.append({"type": "declare", "seat": p, "choice": action, "to": [p]})
        decl = self.decl
        for q in self.deciders:
            if decl[q] < 0:  # the next seat to declare
                self.to_move = q
                return
        traders = [q for q in self.deciders if self.decl[q] == 1]
        self.traders = traders
        self.events.append({
            "type": "declarations",
            "trade": traders,
            "keep": [q for q in range(self.num_players) if q not in traders],
        })
        if not traders:
            self._begin_shedding()
        elif len(traders) == 1:
            self.phase = SOLO
            self.to_move = traders[0]
        else:
            for q in traders:  # a trader with A cards of one colour only has no choice to make
                if self.tb[q] == 0:
                    self.adds[q] = 1
                elif self.tr[q] == 0:
                    self.adds[q] = 0
            self._next_add_or_pass()

    def _next_add_or_pass(self) -> None:
        waiting = [q for q in self.traders if self.adds[q] < 0]
        if waiting:
            self.phase = ADD
            self.to_move = waiting[0]
        else:
            self._pass_hands()

    def _apply_add(self, action: str) -> None:
        p = self.to_move
        if action == ADD_ACTIONS[(1, 0)]:
            colour = 0
        elif action == ADD_ACTIONS[(0, 1)]:
            colour = 1
        else:
            raise IllegalMove(
                "with several traders you add exactly one A card: "
                "'add 1 black 0 red' or 'add 0 black 1 red'",
                "add_one",
            )
        self.adds[p] = colour
        self.events.append({"type": "add-choice", "seat": p, "colour": ("black", "red")[colour], "to": [p]})
        self._next_add_or_pass()

    def _pass_hands(self) -> None:
        """Every trader adds the chosen A card and passes the hand to the next trader clockwise."""
        n = self.num_players
        traders = self.traders
        k = len(traders)
        for q in traders:
            if self.adds[q] == 0:
                self.tb[q] -= 1
                self.hb[q] += 1
            else:
                self.tr[q] -= 1
                self.hr[q] += 1
        nxt = {traders[i]: traders[(i + 1) % k] for i in range(k)}
        old_h = list(self.hands)
        old_b, old_r = list(self.hb), list(self.hr)
        old_k = list(self.known)
        w = n + 1
        for t in traders:
            d = nxt[t]
            self.hands[d] = old_h[t]
            self.hb[d], self.hr[d] = old_b[t], old_r[t]
            for r in range(n):
                # What r knew of t's hand is now known of d's; t itself knew all of it.
                self.known[r * w + d] = old_h[t] if r == t else old_k[r * w + t]
            self.known[d * w + d] = 0
        self.events.append({
            "type": "trade",
            "adds": [[q, ("black", "red")[self.adds[q]]] for q in traders],
            "passes": [[t, nxt[t]] for t in traders],
        })
        for t in traders:
            d = nxt[t]
            self.events.append({
                "type": "receive", "seat": d, "from": t,
                "cards": mask_names(self.hands[d]) + [WB] * self.hb[d] + [WR] * self.hr[d],
                "to": [d],
            })
        self._begin_declarations(traders)

    def _apply_solo(self, action: str) -> None:
        p = self.to_move
        parts = action.split(" ")
        ok = (
            len(parts) == 5 and parts[0] == "add" and parts[2] == "black" and parts[4] == "red"
            and parts[1].isdigit() and parts[3].isdigit()
        )
        if not ok:
            raise IllegalMove("as the only trader, add A cards like 'add 1 black 2 red' (zero allowed)",
                              "add_form")
        b, r = int(parts[1]), int(parts[3])
        if _add_action(b, r) != action:
            raise IllegalMove(f"write this as {_add_action(b, r)!r}", "add_form")
        if b > self.tb[p] or r > self.tr[p]:
            raise IllegalMove(
                f"you have only {self.tb[p]} Black A and {self.tr[p]} Red A cards in front of you",
                "add_too_many",
            )
        self.tb[p] -= b
        self.tr[p] -= r
        self.hb[p] += b
        self.hr[p] += r
        self.events.append({"type": "solo-add", "seat": p, "black": b, "red": r})
        self._begin_shedding()

    # ----- rounds --------------------------------------------------------------------------------
    def _start_round(self, masks: list[int] | None = None) -> None:
        n = self.num_players
        self.round += 1
        if masks is None:
            if self._chance is None:  # the same deal as drawing card by card from the top
                bits = shuffled_deck(self._own_rng(), _BIT)
                masks = [sum(bits[39 - 13 * p: 52 - 13 * p]) for p in range(n)]
            else:
                deck = list(range(52))
                masks = []
                for _ in range(n):
                    m = 0
                    for _ in range(13):
                        m |= 1 << self._draw(deck, "deal")
                    masks.append(m)
        self.hands = list(masks)
        dealt = 0
        for m in masks:
            dealt |= m
        self.undealt = FULL_MASK & ~dealt
        self.cleared = 0
        self.known = [0] * (n * (n + 1))
        self.hb = [0] * n
        self.hr = [0] * n
        self._clear_trick_state()
        self.finished = []
        self.events.append({"type": "round", "round": self.round})
        for p in range(n):
            self.events.append({"type": "deal", "seat": p, "cards": mask_names(self.hands[p]), "to": [p]})
        self._begin_declarations(list(range(n)))

    def _clear_trick_state(self) -> None:
        self.plays = []
        self.trick_mask = 0
        self.trick_w = [0, 0]
        self.blocked = 0
        self.cur = -1
        self.top = -1
        self.passed = 0

    def _holding(self, p: int) -> bool:
        return bool(self.hands[p] or self.hb[p] or self.hr[p])

    def _begin_shedding(self) -> None:
        n = self.num_players
        self.deciders, self.traders = [], []
        self.decl = [-1] * n
        self.adds = [-1] * n
        bit = 1 << RED_THREE
        w = n + 1
        holder = next((p for p in range(n) if self.hands[p] & bit), None)
        if holder is not None:
            reason = "red-3"
            for r in range(n):
                if r != holder:
                    self.known[r * w + holder] |= bit  # everybody now knows who holds it
        else:
            for r in range(n):
                self.known[r * w + n] |= bit  # and that it lies undealt
            low = min(self.scores)
            tied = [p for p in range(n) if self.scores[p] == low]
            holder = tied[0] if len(tied) == 1 else self._pick(tied, "first leader")
            reason = "lowest-score" if len(tied) == 1 else "random-among-lowest"
        self.phase = PLAY
        self.to_move = holder
        self.events.append({"type": "start-player", "seat": holder, "reason": reason})

    def _end_round(self) -> None:
        n = self.num_players
        last = [p for p in range(n) if self._holding(p)]
        places = self.finished + last
        pts = POINTS[n]
        for i, p in enumerate(places):
            self.scores[p] += pts[i]
        for p in range(n):  # A cards left in hands leave the game with the round
            self.gone[0] += self.hb[p]
            self.gone[1] += self.hr[p]
        self.gone[0] += self.trick_w[0]
        self.gone[1] += self.trick_w[1]
        self.events.append({
            "type": "round-end", "round": self.round, "places": places,
            "points": [pts[places.index(p)] for p in range(n)], "scores": list(self.scores),
        })
        if self.round < n:
            self._start_round()
            return
        # Clear the table so every card sits in a stable zone at the end.
        self.cleared |= self.trick_mask
        self._clear_trick_state()
        self.hb = [0] * n
        self.hr = [0] * n
        self.phase = OVER
        self.is_over = True
        self.to_move = NOBODY
        self.events.append({"type": "game-end", "winners": self.winners(), "scores": list(self.scores),
                            "a_cards_left": [self.tb[p] + self.tr[p] for p in range(n)]})

    # ----- shedding ------------------------------------------------------------------------------
    def apply(self, action: str) -> None:
        # Shedding is written out here, the other phases in _apply_other: most actions of a
        # play-out are shedding turns, and a call less for each counts.
        if self.phase != PLAY or not isinstance(action, str):
            self._apply_other(action)
            return
        legal = self._legal
        self._legal = None
        p = self.to_move
        if action == "pass":
            if self.cur < 0:
                raise IllegalMove("you lead this trick: you must play a meld, you cannot pass", "must_lead")
            passed = self.passed = _WITH[self.passed][p]
            self.events.append(_PASS_EVENTS[p])
            # _advance, inlined (the hot path; the phase stays PLAY).
            top, hands, hb, hr, out = self.top, self.hands, self.hb, self.hr, _OUT[passed]
            for s in self._after[p]:
                if s == top:
                    self._win_trick(s, False)
                    return
                if not out[s] and (hands[s] or hb[s] or hr[s]):
                    self.to_move = s
                    return
            raise AssertionError("no seat to move")  # unreachable: the loop always meets self.top
        m = _MELDS.get(action)
        if m is None or legal is None or action not in legal:
            m = self._check_meld(action, parse_meld(action))  # raises IllegalMove unless legal
        t = m.type
        cur = self.cur
        hands = self.hands
        h = hands[p]
        rank = m.floor
        if rank < 0:  # A cards only: the rank to meet (3 when leading)
            rank = cur if cur > 0 else 0
        if m.nat:
            # The meld's cards are in the hand (listed, or checked above), so they are taken out
            # with an exclusive or: on these positive ints it is cheaper than and-ing a complement.
            mask = m.mask
            sp = self._split[p]
            if sp[0] == h:  # keep the colour masks up to date too
                h ^= mask
                self._split[p] = (h, sp[1] ^ m.split_bl, sp[2] ^ m.split_rd)
            else:
                h ^= mask
            hands[p] = h  # (what others knew of the cards played stays in known: see known_cards)
            self.trick_mask |= mask
        holding = h
        if m.wild:
            self.hb[p] -= m.nwb
            self.hr[p] -= m.nwr
            self.trick_w[0] += m.nwb
            self.trick_w[1] += m.nwr
            holding = h or self.hb[p] or self.hr[p]
        elif not h:
            holding = self.hb[p] or self.hr[p]
        self.blocked |= m.bit
        self.cur = rank
        self.top = p
        self.plays.append((p, t, action, rank))
        events = m.events
        self.events.append(events[p] if events else {
            "type": "meld", "seat": p, "meld": MELD_TYPES[t], "cards": m.cards, "rank": RANKS[rank]
        })
        if not holding:  # (_holding, inlined: the hot path)
            self.finished.append(p)
            self.events.append({"type": "out", "seat": p, "place": len(self.finished)})
            if self.num_players - len(self.finished) <= 1:
                self._end_round()
                return
        if m.special:
            if t == BLACK_FOUR:
                self.phase = END_CHOICE
                return
            if bin(h).count("1") + self.hb[p] + self.hr[p] >= 2:  # a red run of four
                self.phase = DISCARD
                return
        # _advance, inlined (the hot path; the phase stays PLAY and p itself is self.top).
        out, hb, hr = _OUT[self.passed], self.hb, self.hr
        for s in self._after[p]:
            if s == p:
                self._win_trick(s, False)
                return
            if not out[s] and (hands[s] or hb[s] or hr[s]):
                self.to_move = s
                return

    def _check_meld(self, action: str, m: Meld | str) -> Meld:
        """``m`` (parsed ``action``) if that meld may be played now, else raise IllegalMove: a
        well-formed meld is legal exactly when these checks pass (the legal actions need not have
        been listed)."""
        if isinstance(m, str):
            if not action.startswith("meld "):
                raise IllegalMove(f"{action!r} is not an action now: play a meld ('meld ...') or 'pass'",
                                  "not_an_action")
            raise IllegalMove(m, "bad_meld")
        p = self.to_move
        h = self.hands[p]
        t = m.type
        cur = self.cur
        if self.blocked & m.bit:
            raise IllegalMove(f"the {MELD_TYPES[t]} space is already used in this trick", "space_used")
        if m.floor < cur and m.rank is not None:
            raise IllegalMove(
                f"a {MELD_TYPES[t]} of rank {RANKS[m.rank]} is lower than the {RANKS[cur]} "
                "played before it: play the same rank or higher",
                "rank_too_low",
            )
        if m.mask & ~h:
            raise IllegalMove(f"you do not hold {', '.join(mask_names(m.mask & ~h))}", "not_held")
        if m.wild and (m.nwb > self.hb[p] or m.nwr > self.hr[p]):
            raise IllegalMove(
                f"you hold {self.hb[p]} Black A (WB) and {self.hr[p]} Red A (WR) cards in hand",
                "not_enough_a",
            )
        return m

    def _advance(self, p: int) -> None:
        """Turn passes clockwise to the next seat still in the trick; back at the last player to
        meld, that player wins the trick."""
        top, passed, hands, hb, hr = self.top, self.passed, self.hands, self.hb, self.hr
        for s in _AFTER[self.num_players][p]:
            if s == top:
                self._win_trick(s, False)
                return
            if not (passed >> s) & 1 and (hands[s] or hb[s] or hr[s]):
                self.to_move = s
                self.phase = PLAY
                return
        raise AssertionError("no seat to move")  # unreachable: the loop always meets self.top

    def _win_trick(self, winner: int, early: bool) -> None:
        self.cleared |= self.trick_mask
        tw = self.trick_w
        if tw[0] or tw[1]:
            gone = self.gone
            gone[0] += tw[0]
            gone[1] += tw[1]
            self.trick_w = [0, 0]
        self.events.append(_WON_EVENTS[early][winner])
        # _clear_trick_state, inlined.
        self.plays = []
        self.trick_mask = 0  # (a trick without A cards keeps its trick_w, zeros)
        self.blocked = 0
        self.cur = -1
        self.top = -1
        self.passed = 0
        leader = winner
        if not (self.hands[leader] or self.hb[leader] or self.hr[leader]):
            # A winner who has gone out: the next seat still holding cards leads.
            n = self.num_players
            leader = next(s for s in ((winner + i) % n for i in range(1, n)) if self._holding(s))
        self.phase = PLAY
        self.to_move = leader

    def _apply_discard(self, action: str) -> None:
        p = self.to_move
        if not action.startswith("discard "):
            raise IllegalMove("after your red run of 4, discard a card ('discard 7C') or 'discard none'",
                              "discard_now")
        card = action[8:]
        if card == "none":
            self.events.append({"type": "no-discard", "seat": p})
            self._advance(p)
            return
        if card == WB or card == WR:
            have = self.hb[p] if card == WB else self.hr[p]
            if not have:
                raise IllegalMove(f"you hold no {card} A card in hand", "not_held")
            if card == WB:
                self.hb[p] -= 1
                self.gone[0] += 1
            else:
                self.hr[p] -= 1
                self.gone[1] += 1
        else:
            c = CARD_INDEX.get(card)
            if c is None:
                raise IllegalMove(f"{card!r} is not a card", "not_a_card", card=card)
            if not (self.hands[p] >> c) & 1:
                raise IllegalMove(f"you do not hold {card}", "not_held", card=card)
            bit = 1 << c
            self.hands[p] &= ~bit
            self.cleared |= bit
            w = self.num_players + 1
            for r in range(self.num_players):
                self.known[r * w + p] &= ~bit
        self.events.append({"type": "discard", "seat": p, "card": card})
        self._advance(p)

    def _apply_end_choice(self, action: str) -> None:
        p = self.to_move
        if action == "end-trick":
            self._win_trick(p, True)
        elif action == "play-on":
            self.events.append({"type": "play-on", "seat": p})
            self._advance(p)
        else:
            raise IllegalMove("after your black four of a kind choose 'end-trick' or 'play-on'",
                              "end_or_play_on")

    # ----- outcome -------------------------------------------------------------------------------
    def standings(self) -> list[int]:
        """Seats from best to worst: points, then fewest A cards left on the table."""
        n = self.num_players
        return sorted(range(n), key=lambda p: (-self.scores[p], self.tb[p] + self.tr[p], p))

    def returns(self) -> list[float]:
        n = self.num_players
        if self.phase != OVER:
            return [0.0] * n
        key = [(self.scores[p], -(self.tb[p] + self.tr[p])) for p in range(n)]
        best = max(key)
        winners = [p for p in range(n) if key[p] == best]
        if len(winners) == n:
            return [0.0] * n
        return [1.0 if p in winners else -1.0 for p in range(n)]

    # ----- information ---------------------------------------------------------------------------
    def known_cards(self, r: int, q: int) -> int:
        """The natural cards seat ``r`` knows to be in seat ``q``'s hand now (``q`` = the number of
        players: the undealt cards), as a mask."""
        return self.known[r * (self.num_players + 1) + q] & (self.hands[q] if q < self.num_players else self.undealt)

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: own hand, the public table, and what it knows of other hands."""
        n = self.num_players
        known = {}
        for q in range(n + 1):
            if q != player:
                k = self.known_cards(player, q)
                if k:
                    known["undealt" if q == n else str(q)] = mask_names(k)
        trade: dict[str, Any] = {}
        if self.phase in (DECLARE, ADD, SOLO):
            trade = {
                "deciders": list(self.deciders),
                "my_declaration": (None, "keep", "trade")[self.decl[player] + 1],
                # Everybody knows who has declared already (seat order); not what they declared.
                "declared": [q for q in self.deciders if self.decl[q] >= 0],
                "traders": list(self.traders) if self.phase != DECLARE else [],
                "my_add": (None, "black", "red")[self.adds[player] + 1],
            }
        return {
            "game": self.name,
            "players": n,
            "seat": player,
            "round": self.round,
            "rounds": n,
            "phase": self.phase,
            "to_play": self.to_play,
            "scores": list(self.scores),
            "hand": mask_names(self.hands[player]) + [WB] * self.hb[player] + [WR] * self.hr[player],
            "hand_sizes": [bin(self.hands[q]).count("1") + self.hb[q] + self.hr[q] for q in range(n)],
            "a_in_hand": [[self.hb[q], self.hr[q]] for q in range(n)],
            "a_on_table": [[self.tb[q], self.tr[q]] for q in range(n)],
            "a_out_of_game": list(self.gone),
            "undealt_count": bin(self.undealt).count("1"),
            "known": known,
            "trade": trade,
            "trick": {
                "plays": [
                    {"seat": s, "meld": MELD_TYPES[t], "cards": self._meld_cards(a), "rank": RANKS[rk]}
                    for s, t, a, rk in self.plays
                ],
                "used": [MELD_TYPES[t] for t in range(8) if (self.blocked >> t) & 1],
                "rank_to_meet": RANKS[self.cur] if self.cur >= 0 else None,
                "last_player": self.top if self.top >= 0 else None,
                "passed": [q for q in range(n) if (self.passed >> q) & 1],
            },
            "cleared": mask_names(self.cleared),
            "finished": list(self.finished),
            "standings": self.standings() if self.phase == OVER else None,
            "events": self.visible_events(player),
        }

    @staticmethod
    def _meld_cards(action: str) -> list[str]:
        return action.split(" ")[2].split(",")

    def card_zones(self) -> dict[str, list[str]]:
        """Every card once. A cards of one colour are interchangeable, so they are numbered
        (WB1..WB6, WR1..WR6) in zone order each time."""
        n = self.num_players
        nb = [0]
        nr = [0]

        def wild(b: int, r: int) -> list[str]:
            i, j = nb[0], nr[0]
            nb[0] = i + b
            nr[0] = j + r
            return _WB_IDS[i: i + b] + _WR_IDS[j: j + r]

        zones: dict[str, list[str]] = {}
        for p in range(n):
            zones[f"hand:{p}"] = mask_names(self.hands[p]) + wild(self.hb[p], self.hr[p])
        for p in range(n):
            zones[f"a-table:{p}"] = wild(self.tb[p], self.tr[p])
        zones["trick"] = mask_names(self.trick_mask) + wild(*self.trick_w)
        zones["cleared"] = mask_names(self.cleared)
        zones["undealt"] = mask_names(self.undealt)
        zones["a-out-of-game"] = wild(*self.gone)
        zones["a-box"] = wild(*self.box)
        return zones

    def resample_hidden(self, player: int, rng: random.Random) -> SumidaRiver:
        """A copy in which the natural cards ``player`` cannot see are re-dealt at random.

        Kept: ``player``'s hand, every public card, and every card ``player`` knows the place of
        (hands it passed on in the trade, the Red 3). A cards are never hidden (their moves are
        public). Other seats' still-secret declarations / A choices are re-drawn at random, the
        events ``player`` cannot see are dropped, and the copy gets a fresh shuffle seed, so the
        copy holds nothing ``player`` could not know.
        """
        n = self.num_players
        w = n + 1
        g = self.clone()
        g.events = self.visible_events(player)
        g._seed_rng(rng.getrandbits(64))
        holders = [q for q in range(n) if q != player]
        pool: list[int] = []
        need: list[int] = []
        fixed: list[int] = []
        for q in holders + [n]:
            cards = self.hands[q] if q < n else self.undealt
            k = self.known[player * w + q] & cards
            fixed.append(k)
            free = cards & ~k
            need.append(bin(free).count("1"))
            while free:
                low = free & -free
                pool.append(low.bit_length() - 1)
                free ^= low
        rng.shuffle(pool)
        i = 0
        for j, q in enumerate(holders + [n]):
            m = fixed[j]
            for c in pool[i: i + need[j]]:
                m |= 1 << c
            i += need[j]
            if q < n:
                g.hands[q] = m
            else:
                g.undealt = m
        # Other seats' knowledge must stay true of the new deal.
        for r in range(n):
            for q in range(n + 1):
                if r != player and q != r:
                    g.known[r * w + q] &= g.hands[q] if q < n else g.undealt
        # Secret choices of the others (not yet revealed) are unknown to player: re-draw them.
        if self.phase == DECLARE:
            for q in self.deciders:
                if q != player and self.decl[q] >= 0:
                    g.decl[q] = rng.randrange(2)
        elif self.phase == ADD:
            for q in self.traders:
                if q != player and self.adds[q] >= 0 and self.tb[q] and self.tr[q]:
                    g.adds[q] = rng.randrange(2)
        g._legal = None
        return g

    # ----- copies and persistence --------------------------------------------------------------
    def clone(self) -> SumidaRiver:
        g = SumidaRiver.__new__(SumidaRiver)
        g.num_players = self.num_players
        g._after = self._after
        g.seed = self.seed
        self._share_chance(g)
        g.round = self.round
        g.phase = self.phase
        g.is_over = self.is_over
        g.to_move = self.to_move
        g.scores = self.scores[:]
        g.tb = self.tb[:]
        g.tr = self.tr[:]
        g.hb = self.hb[:]
        g.hr = self.hr[:]
        g.gone = self.gone[:]
        g.box = self.box[:]
        g.hands = self.hands[:]
        g._split = self._split[:]
        g.undealt = self.undealt
        g.cleared = self.cleared
        g.known = self.known[:]
        g.plays = self.plays[:]
        g.trick_mask = self.trick_mask
        g.trick_w = self.trick_w[:]
        g.blocked = self.blocked
        g.cur = self.cur
        g.top = self.top
        g.passed = self.passed
        g.finished = self.finished[:]
        g.deciders = self.deciders[:]
        g.decl = self.decl[:]
        g.traders = self.traders[:]
        g.adds = self.adds[:]
        g.events = self.events[:]
        g._legal = self._legal  # never mutated in place
        return g

    def to_json(self) -> dict[str, Any]:
        n = self.num_players
        return {
            "game": self.name,
            "version": 1,
            "players": n,
            "seed": self.seed,
            "rng": self._rng_json(),
            "round": self.round,
            "phase": self.phase,
            "to_move": self.to_move,
            "scores": list(self.scores),
            "a_table": [[self.tb[p], self.tr[p]] for p in range(n)],
            "a_hand": [[self.hb[p], self.hr[p]] for p in range(n)],
            "a_out_of_game": list(self.gone),
            "a_box": list(self.box),
            "hands": [mask_names(h) for h in self.hands],
            "undealt": mask_names(self.undealt),
            "cleared": mask_names(self.cleared),
            "known": [mask_names(self.known_cards(r, q)) for r in range(n) for q in range(n + 1)],
            "trick": [[s, MELD_TYPES[t], a, rk] for s, t, a, rk in self.plays],
            "passed": [q for q in range(n) if (self.passed >> q) & 1],
            "finished": list(self.finished),
            "deciders": list(self.deciders),
            "declarations": list(self.decl),
            "traders": list(self.traders),
            "adds": list(self.adds),
            "events": list(self.events),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SumidaRiver:
        saved = SavedGame(data, cls.name)

        def cards(name: str, v: Any) -> int:
            return names_mask(saved.cards(name, CARD_INDEX, v), name)

        n = saved.one_of("players", cls.player_counts)
        g = cls(n)
        g.seed = saved.get("seed")
        if type(g.seed) is not int:
            raise ValueError("seed: must be an integer")
        g._set_rng(saved.rng())
        g.round = saved.integer("round", 1, n)
        g.phase = phase = saved.one_of("phase", PHASES)
        g.is_over = phase == OVER
        g.to_move = saved.integer("to_move", NOBODY if phase == OVER else 0, n - 1)
        g.scores = saved.integers("scores", n, 0, 3 * n)

        def pairs(name: str) -> list[list[int]]:
            return [saved.integers(name, 2, 0, WILDS_PER_COLOUR, x) for x in saved.seq(name, n)]

        at = pairs("a_table")
        ah = pairs("a_hand")
        g.tb, g.tr = [x[0] for x in at], [x[1] for x in at]
        g.hb, g.hr = [x[0] for x in ah], [x[1] for x in ah]
        g.gone = saved.integers("a_out_of_game", 2, 0, WILDS_PER_COLOUR)
        g.box = saved.integers("a_box", 2, 0, WILDS_PER_COLOUR)
        g.hands = [cards("hands", h) for h in saved.seq("hands", n)]
        g.undealt = cards("undealt", saved.get("undealt"))
        g.cleared = cards("cleared", saved.get("cleared"))
        g.known = [cards("known", k) for k in saved.seq("known", n * (n + 1))]
        trick = saved.seq("trick")
        for play in trick:
            if not (isinstance(play, list) and len(play) == 4 and isinstance(play[2], str)):
                raise ValueError("trick: each play is [seat, meld type, action, rank]")
            s = saved.integer("trick", 0, n - 1, play[0])
            m = parse_meld(play[2])
            if isinstance(m, str) or play[1] != MELD_TYPES[m.type]:
                raise ValueError(f"trick: {play[2]!r} is not a meld of type {play[1]!r}")
            rk = saved.integer("trick", 0, 12, play[3])
            if (g.blocked >> m.type) & 1 or g.trick_mask & m.mask:
                raise ValueError("trick: a meld type or a card is played twice")
            g.plays.append((s, m.type, play[2], rk))
            g.blocked |= 1 << m.type
            g.trick_mask |= m.mask
            g.trick_w[0] += m.nwb
            g.trick_w[1] += m.nwr
            g.cur, g.top = rk, s
        for q in saved.integers("passed", None, 0, n - 1):
            g.passed |= 1 << q
        g.finished = saved.integers("finished", None, 0, n - 1)
        g.deciders = saved.integers("deciders", None, 0, n - 1)
        g.decl = saved.integers("declarations", n, -1, 1)
        g.traders = saved.integers("traders", None, 0, n - 1)
        g.adds = saved.integers("adds", n, -1, 1)
        g.events = saved.events()
        # Every natural card exactly once; every A card exactly once.
        seen = 0
        for name, mask in [("hands", h) for h in g.hands] + [
            ("undealt", g.undealt), ("cleared", g.cleared), ("trick", g.trick_mask)
        ]:
            if seen & mask:
                raise ValueError(f"{name}: {mask_names(seen & mask)[0]} is in two places")
            seen |= mask
        if seen != FULL_MASK:
            raise ValueError(f"hands: {mask_names(FULL_MASK & ~seen)[0]} is nowhere")
        for colour, parts in ((0, (g.tb, g.hb)), (1, (g.tr, g.hr))):
            total = sum(parts[0]) + sum(parts[1]) + g.gone[colour] + g.box[colour] + g.trick_w[colour]
            if total != WILDS_PER_COLOUR:
                raise ValueError(f"a_table: the {('Black', 'Red')[colour]} A cards do not add up to 6")
        w = n + 1
        for r in range(n):
            for q in range(n + 1):
                k = g.known[r * w + q]
                if k and (q == r or k & ~(g.hands[q] if q < n else g.undealt)):
                    raise ValueError("known: knowledge of a card that is not there")
        # Whose turn it is must follow from the rest.
        p = g.to_move
        if phase == DECLARE and p != next((q for q in g.deciders if g.decl[q] < 0), None):
            raise ValueError("to_move: not the next seat to declare")
        if phase == ADD and p != next((q for q in g.traders if g.adds[q] < 0), None):
            raise ValueError("to_move: not the next trader to choose an A card")
        if phase == SOLO and g.traders != [p]:
            raise ValueError("traders: a solo trade needs exactly the seat to move as trader")
        if phase == PLAY and not g._holding(p):
            raise ValueError("to_move: the seat to play holds no cards")
        if phase in (DISCARD, END_CHOICE) and g.top != p:
            raise ValueError("to_move: only the seat that just melded chooses its special")
        if phase in (PLAY, DISCARD, END_CHOICE) and g.plays and g.top == -1:
            raise ValueError("trick: inconsistent")
        return g


# ----- rule-of-thumb player ------------------------------------------------------------------------
def _rank_char(card: str) -> int:
    return RANKS.index(card[0])


def heuristic_action(game: CardGame, player: int, rng: random.Random) -> str:
    """A simple player using only ``game.observation(player)`` and ``game.legal_actions()``.

    * Trade when the hand is weak (fewer than three cards of rank K or higher, A cards counted),
      adding the colour of A card it holds more of; a lone trader adds one A card.
    * Lead the meld that sheds the most natural cards at the lowest rank, keeping A cards.
    * Follow with the cheapest meld (lowest rank, fewest A cards); pass rather than spend a high
      card or an A card unless somebody is close to going out.
    * Always end the trick after a black four; discard the lowest natural card after a red run.
    """
    legal = game.legal_actions()
    if len(legal) == 1:
        return legal[0]
    obs = game.observation(player)
    phase = obs["phase"]
    hand = obs["hand"]
    tb, tr = obs["a_on_table"][player]
    if phase == "declare":
        strong = sum(1 for c in hand if c in (WB, WR) or _rank_char(c) >= RANKS.index("K"))
        return "trade" if strong < 3 else "keep"
    if phase == "add":
        return "add 1 black 0 red" if tb >= tr else "add 0 black 1 red"
    if phase == "solo":
        choice = "add 1 black 0 red" if tb >= tr else "add 0 black 1 red"
        return choice if choice in legal else legal[0]
    if phase == "end-choice":
        return "end-trick"
    if phase == "discard":
        naturals = [c for c in hand if c not in (WB, WR)]
        if naturals:
            return "discard " + min(naturals, key=lambda c: (_rank_char(c), c))
        return next(a for a in legal if a != "discard none")
    # Shedding.
    sizes = obs["hand_sizes"]
    my_size = sizes[player]
    danger = any(s <= 3 for q, s in enumerate(sizes) if q != player and s > 0)
    to_meet = obs["trick"]["rank_to_meet"]
    floor = RANKS.index(to_meet) if to_meet is not None else 0
    best, best_score = None, None
    for a in legal:
        if a == "pass":
            continue
        cards = a.split(" ")[2].split(",")
        nw = sum(1 for c in cards if c in (WB, WR))
        nat = [_rank_char(c) for c in cards if c not in (WB, WR)]
        rank = min(nat) if nat else floor
        if len(cards) == my_size:
            return a  # goes out
        score = 2.0 * len(nat) - 3.0 * nw - 0.5 * rank
        if best_score is None or score > best_score or (score == best_score and rng.random() < 0.5):
            best, best_score = a, score
    if best is None:
        return "pass"
    if "pass" in legal and not danger:
        cards = best.split(" ")[2].split(",")
        nat = [_rank_char(c) for c in cards if c not in (WB, WR)]
        uses_a = len(nat) < len(cards)
        high = bool(nat) and min(nat) >= RANKS.index("A")
        if uses_a or high:
            return "pass"
    return best
