"""The Sumo Card Game, rules version 1.1, for two players.

How the game goes (the rulebook is ``/work/shared/rules/000_ad5ad3a0ff767ff4.txt``; every reading
we had to choose is written down in ``docs/rules-notes.md`` (section Sumo Card Game)):

* **The table.** A standard 52-card deck, or 54 with the two optional Jokers (``jokers=True``).
  Fourteen face-down *ring cards* lie in two rows of seven columns: row 0 belongs to seat 0, row 1
  to seat 1. Two face-down *sumo cards*, one per seat, mark the wrestlers' column; they start in
  the centre column (column 3). Seat 0's side of the ring is beyond column 0, seat 1's side is
  beyond column 6. Each seat holds three *attack cards*; the rest is the deck.
* **A round.** Both seats place attack cards face down (seat 0 chooses, then seat 1; neither sees
  the other's choice, not even how many cards it is, until the reveal), then both are revealed.
  What may be played:

  - any single card; Jacks count 11, Queens 12, Kings 13, Aces 14;
  - two 4s as an 8, two 5s as a 10, two 3s as a 6, three 3s as a 9;
  - a **2** (or a Joker played alone) is *wild*: its owner draws from the deck and uses the drawn
    card's value instead, drawing again while the drawn card is a 2 or a Joker;
  - a Joker can also stand in for a 3, 4 or 5 in exactly these combos: Joker+3 (6), Joker+3+3 (9),
    Joker+Joker+3 (9), Joker+4 (8), Joker+5 (10).

  The higher value *pushes* the other; equal values are a tie and nobody moves. How far depends on
  the classes: Number (2-10 and every combo), Face (J, Q, K) and Ace. Same class: one column.
  Face over Number: two. Ace over Face: two. Ace over Number: three.
* **Challenges.** Before the sumo cards move, the *pushed* seat may challenge with the two ring
  cards of the column the sumo cards stand in, if they are still face down; if that fails (or those
  ring cards are already face up) it may challenge with the two sumo cards, if still face down (so
  only once per game). Both cards are turned up and stay up; the pushed seat's card must be at
  least as high as the pusher's to cancel the push (a tie cancels). Wild 2s and Jokers draw as for
  attack cards. Challenging is optional unless the push would put the pushed seat out of the ring:
  then it must challenge with whatever is still face down.
* **Pushing and winning.** A push moves the sumo cards towards the *pusher's* side. If they go
  beyond the last column, the pusher wins at once.
* **End of round.** Attack cards played and cards drawn for wild 2s go to the discard pile; both
  seats draw back up to three (the seat chosen at setup as first drawer draws first). When the
  deck is empty and a card is needed, the discard pile is shuffled into a new deck.

Actions are strings: ``"play 9H"``, ``"play 3C+3D+3H"``, ``"play 4S+JK1"`` (cards are rank then suit:
``2-9 T J Q K A`` and ``C D H S``; the Jokers are ``JK1`` and ``JK2``), and for the pushed seat
``"accept"``, ``"challenge-ring"``, ``"challenge-sumo"``.

>>> g = SumoCardGame.new(seed=1)
>>> g.to_play, g.observation(0)["position"]
(0, 3)
"""
from __future__ import annotations

import random
from typing import Any

from cards import register
from cards.api import CardGame, IllegalMove, OutsideChance
from cards.saved import SavedGame

# ----- cards ------------------------------------------------------------------------------------
#: Card ids 0..51 are rank-major: id = (rank - 2) * 4 + suit. 52 and 53 are the Jokers.
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"
NAMES: tuple[str, ...] = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS) + ("JK1", "JK2")
CARD_ID: dict[str, int] = {n: i for i, n in enumerate(NAMES)}
#: The rank a card counts as: 2..14 (Ace 14). A Joker counts as a 2 except inside a combo.
RANK: tuple[int, ...] = tuple(i // 4 + 2 for i in range(52)) + (2, 2)

COLUMNS = 7
CENTRE = 3
HAND_SIZE = 3
#: Value a wild 2 keeps when nothing at all is left to draw (cannot happen: see the rules notes).
WILD_FALLBACK = 2
#: ``to_act`` once the game is over (as saved: the save format keeps an integer there).
NOBODY = -1

# Phases.
ATTACK, RING, SUMO, OVER = 0, 1, 2, 3
PHASE_NAMES = ("attack", "challenge-ring", "challenge-sumo", "over")

NUMBER, FACE, ACE = 0, 1, 2
CLASS_NAMES = ("Number", "Face", "Ace")


def card_class(value: int) -> int:
    """Class of an attack value: Number (2-10, every combo), Face (11-13) or Ace (14)."""
    return ACE if value >= 14 else FACE if value >= 11 else NUMBER


#: card_class of every attack value 0..14, and the class names (looked up on every clash).
_CLASS = tuple(card_class(v) for v in range(15))
_CLASS_NAME = tuple(CLASS_NAMES[c] for c in _CLASS)


def push_distance(winner: int, loser: int) -> int:
    """Columns the higher value ``winner`` pushes the lower value ``loser``.

    Same class: 1. Face over Number: 2. Ace over Face: 2. Ace over Number: 3.
    """
    cw, cl = _CLASS[winner], _CLASS[loser]
    if cw == cl:
        return 1
    if cw == ACE and cl == NUMBER:
        return 3
    return 2


def combo_value(cards: tuple[int, ...]) -> int | None:
    """Value of a legal attack play of two or three cards, or None if they do not combine.

    Only 3s, 4s and 5s combine, each only with its own rank: 3+3, 3+3+3, 4+4, 5+5. A Joker may take
    the place of a 3, 4 or 5 in exactly the combos the rulebook lists (Joker+3, Joker+3+3,
    Joker+Joker+3, Joker+4, Joker+5), so at least one real card is needed and 4s and 5s only pair.
    """
    real = [c for c in cards if c < 52]
    if not real:
        return None
    r = RANK[real[0]]
    if r not in (3, 4, 5) or any(RANK[c] != r for c in real):
        return None
    n = len(cards)
    if n == 2 or (n == 3 and r == 3):
        return r * n
    return None


def play_name(play: tuple[int, ...]) -> str:
    return "play " + "+".join(NAMES[c] for c in play)


def _names(cards: Any) -> list[str]:
    return [NAMES[c] for c in cards]


# Legal options depend only on the (sorted) hand, so they are computed once per hand and cached:
# at most C(54, 3) + C(54, 2) + 54 hands exist. Lists are never mutated.
_ATTACK_CACHE: dict[tuple[int, ...], list[str]] = {}
#: Every attack action listed so far -> its cards (ascending ids); filled with _ATTACK_CACHE.
_PLAYS: dict[str, tuple[int, ...]] = {}
_CHALLENGE_OPTIONS: dict[tuple[int, bool], list[str]] = {}


#: "play <card>" for every card id (single plays need no string building).
_SINGLE = tuple(play_name((c,)) for c in range(len(NAMES)))
_PLAYS.update((name, (c,)) for c, name in enumerate(_SINGLE))
#: The cards of every attack play listed so far -> their names (filled with _PLAYS).
_PLAY_NAMES: dict[tuple[int, ...], list[str]] = {(c,): [NAMES[c]] for c in range(len(NAMES))}
#: The attack value of every play listed so far (a lone 2 or Joker: WILD, drawn for when revealed).
WILD = -1
_PLAY_VALUE: dict[tuple[int, ...], int] = {(c,): WILD if RANK[c] == 2 else RANK[c] for c in range(len(NAMES))}
#: Refill by taking the top cards in one slice (tests turn it off to compare with card-by-card draws).
_SLICE_REFILL = True
#: The "place" event of each seat (event records are read-only, so one dict serves every game).
_PLACE_EVENTS = ({"type": "place", "seat": 0}, {"type": "place", "seat": 1})
#: Cards that can be part of a combo: the 3s, 4s and 5s, and the Jokers.
_COMBINES = frozenset(c for c in range(len(NAMES)) if c >= 52 or RANK[c] in (3, 4, 5))


def _attack_options(hand: tuple[int, ...]) -> list[str]:
    """Every attack play from a sorted hand, as sorted action strings (their cards: _PLAYS)."""
    hit = _ATTACK_CACHE.get(hand)
    if hit is not None:
        return hit
    names = [_SINGLE[c] for c in hand]
    parts = [c for c in hand if c in _COMBINES]
    if len(parts) > 1:  # (most hands have no two cards that could combine)
        combos = [(a, b) for i, a in enumerate(parts) for b in parts[i + 1:]]
        if len(parts) == 3:
            combos.append(tuple(parts))  # type: ignore[arg-type]
        for play in combos:
            if combo_value(play) is not None:
                name = play_name(play)
                _PLAYS[name] = play
                _PLAY_NAMES[play] = _names(play)
                _PLAY_VALUE[play] = combo_value(play)  # type: ignore[assignment]
                names.append(name)
    names.sort()
    _ATTACK_CACHE[hand] = names
    return names


for _phase, _kind in ((1, "challenge-ring"), (2, "challenge-sumo")):
    # A push that would put the pushed seat out of the ring must be challenged.
    _CHALLENGE_OPTIONS[(_phase, True)] = [_kind]
    _CHALLENGE_OPTIONS[(_phase, False)] = ["accept", _kind]


# ----- the engine -------------------------------------------------------------------------------
@register
class SumoCardGame(CardGame):
    """Mutable state of one Sumo Card Game (see the module docstring for the rules).

    Internally cards are small ints (see :data:`NAMES`); the deck's top is the end of its list.
    Event dicts are shared between clones and must be treated as read-only records.
    """

    name = "sumo-card-game"
    player_counts = (2,)

    __slots__ = (
        "num_players", "jokers", "_rng", "_rng_shared", "deck", "discard", "hands", "hand_epochs",
        "reshuffles",
        "ring", "ring_up", "sumo", "sumo_up", "position", "draw_first", "phase", "to_act",
        "pending", "table", "plays", "values", "pusher", "distance", "winner", "round", "events",
        "_legal",
    )

    def __init__(self) -> None:
        self.num_players = 2
        self.jokers = False
        self._seed_rng(0)
        self.deck: list[int] = []  # top of the deck = last element
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[], []]
        # For each hand card, how many reshuffles had happened when it was drawn. A card drawn after
        # reshuffle k came from the (publicly known) discard pile of that reshuffle: resample_hidden
        # needs this to re-deal hidden cards consistently with what a seat knows.
        self.hand_epochs: list[list[int]] = [[], []]
        self.reshuffles = 0
        self.ring: list[list[int]] = [[], []]  # ring[seat][column]
        self.ring_up: list[bool] = [False] * COLUMNS  # both ring cards of a column turn together
        self.sumo: list[int] = [0, 0]
        self.sumo_up = False
        self.position = CENTRE  # column of the sumo cards; out of 0..6 once the game is won
        self.draw_first = 0  # seat that draws first (end of round, and when both draw for 2s)
        self.phase = ATTACK
        self.to_act = 0
        self.pending: list[tuple[int, ...] | None] = [None, None]  # face-down choices, still in hand
        self.table: list[int] = []  # revealed attack cards and wild draws awaiting the discard pile
        self.plays: list[tuple[int, ...] | None] = [None, None]  # revealed attack plays this round
        self.values: list[int] | None = None  # attack values of this round once revealed
        self.pusher = -1  # seat pushing this round (-1: none)
        self.distance = 0
        self.winner = -1
        self.round = 1
        self.events: list[dict[str, Any]] = []
        self._legal = None

    # ----- construction ------------------------------------------------------------------------
    @classmethod
    def new(
        cls, players: int | None = None, seed: int = 0, *, chance: OutsideChance | None = None, **options: Any
    ) -> SumoCardGame:
        """Shuffle and deal: 2 x 7 ring cards, two sumo cards, three attack cards each.

        Option ``jokers`` (bool, default False) adds the two Jokers (54 cards).
        """
        if players not in (None, 2):
            raise ValueError(f"players: the Sumo Card Game is for 2 players, not {players}")
        jokers = options.pop("jokers", False)
        if options:
            raise ValueError(f"unknown option(s) for sumo-card-game: {', '.join(sorted(options))}")
        if not isinstance(jokers, bool):
            raise ValueError("jokers: must be true or false")
        g = cls()
        g.jokers = jokers
        g._seed_rng(seed)
        g._chance = chance
        # "If the players care about the order the players draw cards in, determine that order
        # before the game": decided by lot here, and public.
        g.draw_first = g._pick((0, 1), "first drawer")
        deck = list(range(54 if jokers else 52))
        g._shuffle(deck)
        g.ring = [[g._draw(deck, "deal") for _ in range(COLUMNS)] for _ in (0, 1)]
        g.sumo = [g._draw(deck, "deal"), g._draw(deck, "deal")]
        g.deck = deck
        g.events.append({"type": "deal", "ring": COLUMNS, "sumo": 2, "draw_first": g.draw_first,
                         "jokers": jokers})
        g._refill()
        return g

    @classmethod
    def arranged(
        cls,
        *,
        ring: list[list[str]],
        sumo: list[str],
        hands: list[list[str]],
        deck_top: list[str] = (),  # type: ignore[assignment]
        discard: list[str] = (),  # type: ignore[assignment]
        position: int = CENTRE,
        ring_up: list[int] = (),  # type: ignore[assignment]
        sumo_up: bool = False,
        draw_first: int = 0,
        jokers: bool = False,
        seed: int = 0,
    ) -> SumoCardGame:
        """A game set up in a chosen position, at the start of a round (seat 0 to choose).

        Used to replay the rulebook's worked examples and for tutorials. ``ring`` is seat 0's row
        then seat 1's row, seven card names each (column 0 first); ``sumo`` is [seat 0's, seat 1's];
        ``hands`` gives each seat's attack cards; ``deck_top`` lists the cards that will be drawn
        first, in the order they will be drawn; ``discard`` is the discard pile; every card not
        named goes into the deck under ``deck_top`` in an order shuffled with ``seed``.
        ``ring_up`` lists the columns whose ring cards are already face up.
        """
        g = cls()
        g.jokers = bool(jokers)
        g._seed_rng(seed)
        full = set(range(54 if jokers else 52))
        seen: set[int] = set()

        def ids(label: str, names: Any) -> list[int]:
            out = []
            for n in names:
                c = CARD_ID.get(n)
                if c is None or c not in full:
                    raise ValueError(f"{label}: {n!r} is not a card of this deck")
                if c in seen:
                    raise ValueError(f"{label}: {n} is used twice")
                seen.add(c)
                out.append(c)
            return out

        if len(ring) != 2 or any(len(r) != COLUMNS for r in ring):
            raise ValueError("ring: expected two rows of seven cards")
        g.ring = [ids("ring", ring[0]), ids("ring", ring[1])]
        if len(sumo) != 2:
            raise ValueError("sumo: expected two cards")
        g.sumo = ids("sumo", sumo)
        if len(hands) != 2 or any(not 1 <= len(h) <= HAND_SIZE for h in hands):
            raise ValueError("hands: expected two hands of one to three cards")
        g.hands = [ids("hands", hands[0]), ids("hands", hands[1])]
        g.hand_epochs = [[0] * len(h) for h in g.hands]
        top = ids("deck_top", deck_top)
        g.discard = ids("discard", discard)
        rest = sorted(full - seen)
        g._shuffle(rest)
        g.deck = rest + top[::-1]
        if not 0 <= position < COLUMNS:
            raise ValueError("position: must be a column 0..6")
        g.position = position
        for col in ring_up:
            if not 0 <= col < COLUMNS:
                raise ValueError(f"ring_up: {col} is not a column")
            g.ring_up[col] = True
        g.sumo_up = bool(sumo_up)
        if draw_first not in (0, 1):
            raise ValueError("draw_first: must be 0 or 1")
        g.draw_first = draw_first
        g.events.append({"type": "arranged", "position": position})
        return g

    # ----- flow --------------------------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        return None if self.phase == OVER else self.to_act

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _compute_legal(self) -> list[str]:
        if self.phase == ATTACK:
            return _attack_options(tuple(sorted(self.hands[self.to_act])))
        if self.phase == OVER:
            return []
        return _CHALLENGE_OPTIONS[(self.phase, self._push_is_fatal())]

    def apply(self, action: str) -> None:
        legal = self._legal
        if legal is None:
            legal = self._current_legal()
        if action not in legal or not isinstance(action, str):
            raise self._explain(action)
        self._legal = None
        if self.phase == ATTACK:
            # Step 1, inline (every other action is a placing): the seat places its attack
            # card(s) face down; they stay in hand until revealed.
            seat = self.to_act
            self.pending[seat] = _PLAYS[action]
            self.events.append(_PLACE_EVENTS[seat])
            if seat == 0:
                self.to_act = 1
            else:
                self._reveal()
        elif action == "accept":
            self.events.append({"type": "accept", "seat": self.to_act})
            self._push()
        elif action == "challenge-ring":
            self._challenge_ring()
        else:
            self._challenge_sumo()

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    # ----- the round, step by step -------------------------------------------------------------
    def _order(self) -> tuple[int, int]:
        return (self.draw_first, 1 - self.draw_first)

    def _reveal(self) -> None:
        """Step 2: flip the attack cards, resolve wild 2s, compare."""
        plays = self.plays = self.pending
        self.pending = [None, None]
        table = self.table
        for hand, epochs, play in zip(self.hands, self.hand_epochs, plays, strict=True):
            for c in play:  # type: ignore[union-attr]
                i = hand.index(c)
                del hand[i]
                del epochs[i]
            table += play  # type: ignore[arg-type]
        p0, p1 = plays
        events = self.events
        # (Event records are read-only, so the card names of a play are one shared list.)
        events.append({"type": "reveal", "plays": [_PLAY_NAMES[p0], _PLAY_NAMES[p1]]})  # type: ignore[index]
        v0 = _PLAY_VALUE[p0]  # type: ignore[index]
        v1 = _PLAY_VALUE[p1]  # type: ignore[index]
        if v0 == WILD or v1 == WILD:  # both wild: the first drawer draws first
            first = self.draw_first
            for seat in (first, 1 - first):
                if (v1 if seat else v0) == WILD:
                    if seat:
                        v1 = self._wild_value(1, "attack")
                    else:
                        v0 = self._wild_value(0, "attack")
        values = self.values = [v0, v1]
        if v0 == v1:
            self.events.append({"type": "tie", "values": values})
            self._end_round()
            return
        self.pusher = 0 if v0 > v1 else 1
        self.distance = push_distance(max(v0, v1), min(v0, v1))
        self.events.append({"type": "clash", "values": values, "pusher": self.pusher,
                            "distance": self.distance,
                            "classes": [_CLASS_NAME[v0], _CLASS_NAME[v1]]})
        self._offer_challenge()

    def _offer_challenge(self) -> None:
        """Steps 3-5: the pushed seat may challenge with the ring cards, then the sumo cards."""
        if not self.ring_up[self.position]:
            self.phase, self.to_act = RING, 1 - self.pusher
        elif not self.sumo_up:
            self.phase, self.to_act = SUMO, 1 - self.pusher
        else:
            self._push()

    def _target(self) -> int:
        """Where this round's push would put the sumo cards (towards the pusher's side)."""
        return self.position - self.distance if self.pusher == 0 else self.position + self.distance

    def _push_is_fatal(self) -> bool:
        t = self._target()
        return t < 0 or t >= COLUMNS

    def _wild_value(self, seat: int, source: str) -> int:
        """A revealed 2 (or lone Joker): draw until a card other than a 2 or Joker; its rank counts."""
        drawn: list[int] = []
        value = WILD_FALLBACK
        while True:
            c = self._draw_card("wild")
            if c is None:  # deck and discard both empty: unreachable, see the rules notes
                break
            drawn.append(c)
            if RANK[c] != 2:
                value = RANK[c]
                break
        self.table.extend(drawn)  # drawn cards are discarded at the end of the round
        self.events.append({"type": "wild", "seat": seat, "source": source,
                            "drawn": _names(drawn), "value": value})
        return value

    def _duel(self, cards: list[int], kind: str) -> None:
        """A ring or sumo challenge: both cards turn up; the pushed seat needs >= to cancel."""
        values = [0, 0]
        for seat in self._order():
            c = cards[seat]
            values[seat] = self._wild_value(seat, kind) if RANK[c] == 2 else RANK[c]
        pushed = 1 - self.pusher
        success = values[pushed] >= values[self.pusher]
        self.events.append({"type": "challenge", "kind": kind, "seat": pushed,
                            "column": self.position, "cards": _names(cards), "values": values,
                            "success": success})
        if success:
            self.events.append({"type": "cancel", "seat": pushed})
            self._end_round()
        elif kind == "ring" and not self.sumo_up:
            self.phase = SUMO  # the same seat may now try its sumo card
        else:
            self._push()

    def _challenge_ring(self) -> None:
        col = self.position
        self.ring_up[col] = True
        self._duel([self.ring[0][col], self.ring[1][col]], "ring")

    def _challenge_sumo(self) -> None:
        self.sumo_up = True
        self._duel(list(self.sumo), "sumo")

    def _push(self) -> None:
        """Steps 5-6: move the sumo cards; beyond the last column the pusher wins."""
        target = self._target()
        self.events.append({"type": "push", "pusher": self.pusher, "from_column": self.position,
                            "to_column": target, "distance": self.distance})
        self.position = target
        if target < 0 or target >= COLUMNS:
            self.winner = self.pusher
            self.phase = OVER
            self.to_act = NOBODY
            self.events.append({"type": "game_over", "winner": self.pusher,
                                "returns": self.returns()})
        else:
            self._end_round()

    def _end_round(self) -> None:
        """Steps 7-8: discard this round's cards, draw back up to three, next round."""
        if self.table:
            self.discard.extend(self.table)
            self.events.append({"type": "discard", "cards": [NAMES[c] for c in self.table]})
            self.table = []
        self.plays = [None, None]
        self.values = None
        self.pusher = -1
        self.distance = 0
        self._refill()
        self.round += 1
        self.phase = ATTACK
        self.to_act = 0

    def _refill(self) -> None:
        first = self.draw_first
        for seat in (first, 1 - first):
            hand = self.hands[seat]
            need = HAND_SIZE - len(hand)
            if need <= 0:
                continue
            deck = self.deck
            if _SLICE_REFILL and self._chance is None and len(deck) >= need:
                # The top ``need`` cards, top first: what ``need`` draws would take, in one slice.
                drawn = deck[-need:]
                drawn.reverse()
                del deck[-need:]
                hand += drawn
                self.hand_epochs[seat] += [self.reshuffles] * need
            else:
                epochs = self.hand_epochs[seat]
                drawn = []
                while len(hand) < HAND_SIZE:
                    c = self._draw_card("draw")
                    if c is None:  # unreachable with 52/54 cards: see the rules notes
                        break
                    hand.append(c)
                    epochs.append(self.reshuffles)
                    drawn.append(c)
            if drawn:
                self.events.append({"type": "draw", "seat": seat, "count": len(drawn)})
                self.events.append({"type": "draw-cards", "seat": seat, "cards": [NAMES[c] for c in drawn],
                                    "to": [seat]})

    def _draw_card(self, kind: str) -> int | None:
        """Top card of the deck; an empty deck is first remade from the shuffled discard pile.

        ``kind`` names the draw as a random event ("draw" back up to three, "wild" for a 2); the
        first draw from a reshuffled deck is the event "reshuffle".
        """
        if not self.deck:
            if not self.discard:
                return None
            self.deck = self.discard
            self.discard = []
            self._shuffle(self.deck)
            self.reshuffles += 1
            self.events.append({"type": "reshuffle", "count": len(self.deck)})
            kind = "reshuffle"
        if self._chance is None:
            return self.deck.pop()  # (what _draw does without outside chance, one call sooner)
        return self._draw(self.deck, kind)

    @classmethod
    def chance_name(cls, kind: str, outcome: int) -> str:
        if kind == "first drawer":
            return f"{kind}: seat {outcome}"
        return f"{kind} {NAMES[outcome]}"

    # ----- explaining refusals -------------------------------------------------------------------
    def _explain(self, action: Any) -> IllegalMove:
        """Why ``action`` is not legal now: a refusal with its code, and plain words."""
        if self.phase == OVER:
            return IllegalMove("the game is over", "game_over")
        if not isinstance(action, str):
            return IllegalMove(f"{action!r} is not an action: actions are strings such as 'play 9H' or "
                               "'accept'", "not_an_action")
        seat = self.to_act
        if self.phase == ATTACK:
            if action in ("accept", "challenge-ring", "challenge-sumo"):
                return IllegalMove(f"{action!r}: nobody is being pushed; seat {seat} must place attack "
                                   "cards ('play <cards>')", "attack_first", seat=seat)
            if not action.startswith("play ") or not action[5:]:
                return IllegalMove(f"{action!r} is not an action: write 'play <cards>', e.g. 'play 9H' or "
                                   "'play 3C+3D'", "not_an_action")
            names = action[5:].split("+")
            cards = []
            for n in names:
                c = CARD_ID.get(n)
                if c is None or (c >= 52 and not self.jokers):
                    return IllegalMove(f"{n!r} is not a card of this game", "not_a_card", card=n)
                cards.append(c)
            if len(set(cards)) != len(cards):
                return IllegalMove(f"{action!r}: the same card twice", "same_card_twice")
            missing = [NAMES[c] for c in cards if c not in self.hands[seat]]
            if missing:
                return IllegalMove(f"you do not hold {', '.join(missing)}", "not_held",
                                   card=", ".join(missing))
            if len(cards) > 1 and combo_value(tuple(sorted(cards))) is None:
                return IllegalMove("those cards do not combine: only 3s (two or three), two 4s, two 5s, "
                                   "or a Joker with them as the rulebook lists, may be played together",
                                   "no_combination")
            return IllegalMove(f"{action!r}: write the cards in order, as in {self.legal_actions()}",
                               "card_order")
        kind = "challenge-ring" if self.phase == RING else "challenge-sumo"
        if action == "accept":
            return IllegalMove("you may not accept this push: it would put you out of the ring, so you "
                               f"must challenge ('{kind}')", "must_challenge", challenge=kind)
        if action == "challenge-sumo":
            return IllegalMove("the ring cards of this column are still face down: challenge with them "
                               "first ('challenge-ring') or 'accept'", "ring_cards_first")
        if action == "challenge-ring":
            return IllegalMove("the ring cards of this column are already face up: 'challenge-sumo' or "
                               "'accept'", "ring_cards_used")
        if action.startswith("play "):
            return IllegalMove(f"seat {seat} must first decide whether to challenge the push ('accept' or "
                               f"'{kind}')", "decide_challenge", seat=seat, challenge=kind)
        return IllegalMove(f"{action!r} is not an action: expected one of {self.legal_actions()}",
                           "not_an_action")

    # ----- information -------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: own hand (and own face-down choice), face-up ring and sumo cards,
        the sumo position, pile sizes, the public discard pile and the visible events."""
        other = 1 - player
        push = None
        if self.phase in (RING, SUMO):
            push = {"pusher": self.pusher, "pushed": 1 - self.pusher, "distance": self.distance,
                    "target": self._target(), "fatal": self._push_is_fatal()}
        pend = self.pending[player]
        return {
            "game": self.name,
            "seat": player,
            "round": self.round,
            "phase": PHASE_NAMES[self.phase],
            "to_play": self.to_play,
            "hand": sorted(_names(self.hands[player])),
            "chosen": None if pend is None else _names(pend),
            # Face-down cards stay in hand until the reveal, so this never tells how many.
            "opponent_hand_size": len(self.hands[other]),
            "opponent_chosen": self.pending[other] is not None,
            "ring": [[NAMES[self.ring[s][c]] if self.ring_up[c] else None for c in range(COLUMNS)]
                     for s in (0, 1)],
            "sumo": [NAMES[c] if self.sumo_up else None for c in self.sumo],
            "position": self.position,
            "sides": "seat 0 pushes towards column 0, seat 1 towards column 6",
            "plays": [None if p is None else _names(p) for p in self.plays],
            "values": None if self.values is None else list(self.values),
            "push": push,
            "table": _names(self.table),
            "deck_size": len(self.deck),
            "discard": _names(self.discard),
            "draw_first": self.draw_first,
            "jokers": self.jokers,
            "winner": self.winner if self.winner >= 0 else None,
            "events": self.visible_events(player),
        }

    def card_zones(self) -> dict[str, list[str]]:
        return {
            "deck": _names(self.deck),
            "discard": _names(self.discard),
            "hand0": _names(self.hands[0]),
            "hand1": _names(self.hands[1]),
            "table": _names(self.table),
            "ring0": _names(self.ring[0]),
            "ring1": _names(self.ring[1]),
            "sumo": _names(self.sumo),
        }

    def hidden_from(self, player: int) -> set[str]:
        """Names of the cards ``player`` cannot see now (tests and tools use this)."""
        hidden = set(self.deck) | set(self.hands[1 - player])
        for col in range(COLUMNS):
            if not self.ring_up[col]:
                hidden.add(self.ring[0][col])
                hidden.add(self.ring[1][col])
        if not self.sumo_up:
            hidden.update(self.sumo)
        return {NAMES[c] for c in hidden}

    def resample_hidden(self, player: int, rng: random.Random) -> SumoCardGame:
        """A clone with every card ``player`` cannot see re-dealt, consistently with its knowledge.

        Hidden cards are the opponent's hand, face-down ring and sumo cards, and the deck. What the
        seat knows: after the k-th reshuffle the new deck is exactly the old discard pile, so a
        hidden card is only swapped with hidden cards of the same *epoch*: face-down ring/sumo cards
        and cards drawn before any reshuffle are epoch 0; the deck and the opponent's cards drawn
        after reshuffle k are epoch k. If the opponent has already chosen face down, a new choice is
        drawn at random from its re-dealt hand. The opponent's private events are dropped from the
        clone so it carries no trace of the real cards; the clone's RNG is reseeded from ``rng``.
        """
        g = self.clone()
        other = 1 - player
        slots: dict[int, list[tuple[list[int], int]]] = {}

        def add(epoch: int, where: list[int], i: int) -> None:
            slots.setdefault(epoch, []).append((where, i))

        for i, e in enumerate(g.hand_epochs[other]):
            add(e, g.hands[other], i)
        for col in range(COLUMNS):
            if not g.ring_up[col]:
                add(0, g.ring[0], col)
                add(0, g.ring[1], col)
        if not g.sumo_up:
            add(0, g.sumo, 0)
            add(0, g.sumo, 1)
        for i in range(len(g.deck)):
            add(g.reshuffles, g.deck, i)
        for epoch in sorted(slots):
            group = slots[epoch]
            cards = [where[i] for where, i in group]
            rng.shuffle(cards)
            for (where, i), c in zip(group, cards, strict=True):
                where[i] = c
        if g.pending[other] is not None:
            g._legal = None
            saved = g.to_act
            g.to_act = other
            g.pending[other] = _PLAYS[rng.choice(g._compute_legal())]
            g.to_act = saved
        g._legal = None
        g.events = [e for e in g.events if "to" not in e or player in e["to"]]
        g._seed_rng(rng.getrandbits(64))
        return g

    # ----- copies and persistence ---------------------------------------------------------------
    def clone(self) -> SumoCardGame:
        g = SumoCardGame.__new__(SumoCardGame)
        g.num_players = 2
        g.jokers = self.jokers
        self._share_chance(g)
        g.deck = self.deck[:]
        g.discard = self.discard[:]
        g.hands = [self.hands[0][:], self.hands[1][:]]
        g.hand_epochs = [self.hand_epochs[0][:], self.hand_epochs[1][:]]
        g.reshuffles = self.reshuffles
        g.ring = [self.ring[0][:], self.ring[1][:]]
        g.ring_up = self.ring_up[:]
        g.sumo = self.sumo[:]
        g.sumo_up = self.sumo_up
        g.position = self.position
        g.draw_first = self.draw_first
        g.phase = self.phase
        g.to_act = self.to_act
        g.pending = self.pending[:]  # tuples: immutable
        g.table = self.table[:]
        g.plays = self.plays[:]
        g.values = None if self.values is None else self.values[:]
        g.pusher = self.pusher
        g.distance = self.distance
        g.winner = self.winner
        g.round = self.round
        g.events = self.events[:]  # event dicts are read-only records, shared
        g._legal = self._legal  # never mutated once built: safe to share
        return g

    def to_json(self) -> dict[str, Any]:
        def opt(p: tuple[int, ...] | None) -> list[str] | None:
            return None if p is None else _names(p)

        return {
            "game": self.name,
            "version": 1,
            "jokers": self.jokers,
            "rng": self._rng_json(),
            "deck": _names(self.deck),
            "discard": _names(self.discard),
            "hands": [_names(self.hands[0]), _names(self.hands[1])],
            "hand_epochs": [list(self.hand_epochs[0]), list(self.hand_epochs[1])],
            "reshuffles": self.reshuffles,
            "ring": [_names(self.ring[0]), _names(self.ring[1])],
            "ring_up": list(self.ring_up),
            "sumo": _names(self.sumo),
            "sumo_up": self.sumo_up,
            "position": self.position,
            "draw_first": self.draw_first,
            "phase": PHASE_NAMES[self.phase],
            "to_act": self.to_act,
            "pending": [opt(self.pending[0]), opt(self.pending[1])],
            "table": _names(self.table),
            "plays": [opt(self.plays[0]), opt(self.plays[1])],
            "values": None if self.values is None else list(self.values),
            "pusher": self.pusher,
            "distance": self.distance,
            "winner": self.winner,
            "round": self.round,
            "events": [dict(e) for e in self.events],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SumoCardGame:
        saved = SavedGame(data, cls.name)

        def cards(name: str, value: Any) -> list[int]:
            return saved.card_ids(name, CARD_ID, value)

        def play(name: str, value: Any) -> tuple[int, ...] | None:
            return saved.optional(name, lambda v: tuple(cards(name, v)), value)

        g = cls()
        g.jokers = saved.boolean("jokers")
        g._set_rng(saved.rng())
        g.deck = cards("deck", saved.get("deck"))
        g.discard = cards("discard", saved.get("discard"))
        g.hands = [cards("hands", h) for h in saved.seq("hands", 2)]
        if any(len(h) > HAND_SIZE for h in g.hands):
            raise ValueError("hands: more than three attack cards")
        g.reshuffles = saved.integer("reshuffles", 0, 10**9)
        epochs = [saved.integers("hand_epochs", None, 0, g.reshuffles, e) for e in saved.seq("hand_epochs", 2)]
        if [len(e) for e in epochs] != [len(h) for h in g.hands]:
            raise ValueError("hand_epochs: expected one reshuffle count per hand card")
        g.hand_epochs = epochs
        g.ring = [cards("ring", r) for r in saved.seq("ring", 2)]
        if any(len(r) != COLUMNS for r in g.ring):
            raise ValueError("ring: expected two rows of seven cards")
        ring_up = saved.seq("ring_up", COLUMNS)
        if not all(isinstance(x, bool) for x in ring_up):
            raise ValueError("ring_up: expected seven true/false flags")
        g.ring_up = list(ring_up)
        g.sumo = cards("sumo", saved.get("sumo"))
        if len(g.sumo) != 2:
            raise ValueError("sumo: expected two cards")
        g.sumo_up = saved.boolean("sumo_up")
        g.position = saved.integer("position", -3, COLUMNS + 2)
        g.draw_first = saved.integer("draw_first", 0, 1)
        g.phase = PHASE_NAMES.index(saved.one_of("phase", PHASE_NAMES))
        g.to_act = saved.integer("to_act", NOBODY, 1)
        g.table = cards("table", saved.get("table"))
        g.pending = [play("pending", p) for p in saved.seq("pending", 2)]
        g.plays = [play("plays", p) for p in saved.seq("plays", 2)]
        g.values = saved.optional("values", lambda v: saved.integers("values", 2, 2, 14, v))
        g.pusher = saved.integer("pusher", -1, 1)
        g.distance = saved.integer("distance", 0, 3)
        g.winner = saved.integer("winner", -1, 1)
        g.round = saved.integer("round", 1, 10**9)
        g.events = saved.events()

        # Consistency: every card exactly once, and a phase that makes sense.
        everything = sorted(g.deck + g.discard + g.hands[0] + g.hands[1] + g.table + g.ring[0]
                            + g.ring[1] + g.sumo)
        if everything != list(range(54 if g.jokers else 52)):
            raise ValueError("deck: the saved cards are not exactly one full deck"
                             + (" with Jokers" if g.jokers else ""))
        for s in (0, 1):
            p = g.pending[s]
            if p is not None and (g.phase != ATTACK or any(c not in g.hands[s] for c in p) or (
                    len(p) > 1 and combo_value(p) is None) or list(p) != sorted(p)):
                raise ValueError("pending: a face-down choice that is not a legal play from that hand")
        if g.phase == OVER:
            if g.winner < 0 or g.to_act != NOBODY:
                raise ValueError("winner: a finished game needs a winner and no seat to act")
        elif g.winner >= 0 or g.to_act not in (0, 1) or not 0 <= g.position < COLUMNS:
            raise ValueError("phase: a game in progress has no winner, a seat to act and the sumo "
                             "cards inside the ring")
        if g.phase in (RING, SUMO):
            if g.pusher < 0 or g.distance < 1 or g.to_act != 1 - g.pusher or g.values is None:
                raise ValueError("pusher: a challenge decision needs a push by the other seat")
            if (g.phase == RING and g.ring_up[g.position]) or (g.phase == SUMO and g.sumo_up):
                raise ValueError("phase: the cards to challenge with are already face up")
        if g.phase == ATTACK and (g.to_act == 0) != (g.pending[0] is None) or g.pending[1] is not None:
            raise ValueError("pending: seat 0 chooses first, and seat 1's choice is revealed at once")
        return g


# ----- rule-of-thumb bot --------------------------------------------------------------------------
#: Expected value of a wild 2: the drawn card is, on average, about an 8 or 9 (and may be an Ace).
WILD_ESTIMATE = 8.5


def estimated_strength(card_names: list[str]) -> float:
    """How strong an attack play looks before the reveal (a wild 2 counts as its average draw)."""
    if len(card_names) == 1:
        r = RANK[CARD_ID[card_names[0]]]
        return WILD_ESTIMATE if r == 2 else float(r)
    ranks = [RANK[CARD_ID[n]] for n in card_names if not n.startswith("JK")]
    return float(ranks[0] * len(card_names))


def heuristic_action(game: SumoCardGame, player: int, rng: random.Random) -> str:
    """Rule of thumb, from ``game.observation(player)`` and ``game.legal_actions()`` only.

    * Attack: play the strongest-looking play (a wild 2 is worth about an 8.5); between equally
      strong plays prefer the one that uses more cards (you draw them back, cycling the deck), then
      the first in the legal order. Hands refill every round, so hoarding an Ace buys little.
    * Ring challenge: always take it (the ring cards of a column only ever help while the sumo cards
      stand there, and a failed challenge costs nothing).
    * Sumo challenge (once per game): only when forced, or when after the push the sumo cards would
      be one column from your losing edge or at it.
    """
    legal = game.legal_actions()
    if len(legal) == 1:
        return legal[0]
    obs = game.observation(player)
    phase = obs["phase"]
    if phase == "attack":
        def key(a: str) -> tuple[float, int]:
            names = a[5:].split("+")
            return (estimated_strength(names), len(names))

        best = max(key(a) for a in legal)
        return next(a for a in legal if key(a) == best)
    if phase == "challenge-ring":
        return "challenge-ring"
    push = obs["push"]
    # Columns left between the sumo cards and the edge this seat is pushed towards, after the push.
    room = push["target"] if push["pusher"] == 0 else COLUMNS - 1 - push["target"]
    return "challenge-sumo" if room <= 1 else "accept"
