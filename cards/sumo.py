"""SUMO, the two-player trick-taking game (rulebook ``001_338bbad8af49abfa.txt``).

You try to push the other wrestler out of a ring that has only three places. How the engine reads
the places where the rulebook is vague is written down in ``docs/rules-notes.md`` (section SUMO).

The cards
    Twenty cards: ranks 1-5 in four suits. A card is written rank then suit, ``"3H"`` is the three
    of hearts. Hearts ``H`` and diamonds ``D`` are red, clubs ``C`` and spades ``S`` are black;
    the colour only matters for the sumo moves below.

The table
    Seat 0 sits on the left of the ring, seat 1 on the right. The wrestlers card starts in the
    centre. Its position is an integer: ``-1`` left edge (next to seat 0), ``0`` centre, ``+1``
    right edge (next to seat 1); ``-2`` / ``+2`` mean pushed out on that side.

The deal
    Each seat gets eight cards; the other four stay face down out of play, seen by nobody.

Who leads first (actions ``"reveal <card>"``)
    Each seat puts a card face down (seat 0 first, then seat 1; seat 1 cannot see seat 0's card)
    and both are turned up. The higher rank leads the first trick; suits do not matter. Revealed
    cards are set aside face up and take no part in the tricks. On a tie both reveal again. If all
    eight cards have been revealed, the twenty cards are shuffled and dealt again.

    >>> g = Sumo.new(seed=1, hands=[["1C", "1D", "1H", "2C", "2S", "3H", "4C", "5D"],
    ...                              ["1S", "2D", "2H", "3C", "3S", "4D", "4H", "5H"]])
    >>> g.apply("reveal 4C"); g.apply("reveal 3S")   # 4 beats 3: seat 0 leads
    >>> g.to_play, g.legal_actions()[:2]
    (0, ['play 1C', 'play 1D'])

Tricks (actions ``"play <card>"``)
    The leader plays any card; the other seat must follow suit if they can. An off-suit card loses;
    otherwise the higher card wins. The winner pushes the wrestlers one place away from
    themselves (seat 0 pushes to the right, seat 1 to the left) and leads the next trick. Pushing
    the wrestlers out of the ring wins at once; otherwise the winner of the last trick wins.

Sumo moves: instant wins for the seat that *follows* to a trick
    * Abise-taoshi: a 4 of the same colour as a led 1.
    * Hikiotoshi: a 1 of the same colour as a led 5.
    * Wucchari: a 2 of the other colour than the led card, while the wrestlers stand on the edge
      next to you.

    A sumo move is an ordinary play, so it must obey follow-suit: a same-colour card of the other
    suit (or any off-colour 2) is only playable when you hold no card of the suit led.

    >>> g.apply("play 1H")                           # seat 0 leads the one of hearts ...
    >>> g.apply("play 4H")                           # ... and seat 1 crushes it
    >>> g.winners(), g.reason
    ([1], 'abise-taoshi')

Option ``colours="suits"`` plays the other reading of the rulebook, in which each suit is its own
colour ("same colour" = same suit, "off-colour" = off-suit). Option ``hand_size`` (2 to 8, default
8 as in the rulebook) deals fewer cards with every rule unchanged: a short SUMO is small enough for
exact game-theory tools (``tools/sumo_equilibrium.py`` measures exploitability on it). For those
tools the game tree must be finite, so option ``max_deals`` (default unlimited, as in the rulebook)
ends the game drawn when the reveals of the last allowed deal use up every card; no other rule
changes.
"""
from __future__ import annotations

import random
from typing import Any

from cards import register
from cards.api import CardGame, IllegalMove, OutsideChance
from cards.saved import SavedGame

# ----- the deck ---------------------------------------------------------------------------------
RANKS = "12345"
SUITS = "CDHS"
SUIT_NAMES = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
RED_SUITS = "DH"
#: All twenty cards in sorted (string) order, which is also the order of legal actions.
DECK: tuple[str, ...] = tuple(sorted(r + s for r in RANKS for s in SUITS))
CARD_SET = frozenset(DECK)
HAND_SIZE = 8
#: The shortest deal option: with one card each the reveal would use up every card, every deal.
MIN_HAND_SIZE = 2

RANK = {c: int(c[0]) for c in DECK}
#: colour keys for the two readings of "same colour": red/black, or every suit its own colour.
COLOUR_TABLES = {
    "red-black": {c: ("red" if c[1] in RED_SUITS else "black") for c in DECK},
    "suits": {c: c[1] for c in DECK},
}

PLAY = {c: "play " + c for c in DECK}
REVEAL = {c: "reveal " + c for c in DECK}

# ----- the ring ---------------------------------------------------------------------------------
LEFT, CENTRE, RIGHT = -1, 0, 1
#: Seat p pushes the wrestlers this way (away from their own side).
PUSH = (1, -1)
#: The edge of the ring next to seat p.
EDGE = (LEFT, RIGHT)

# ----- phases and outcomes -----------------------------------------------------------------------
PHASES = ("reveal", "play", "over")
REVEAL_PHASE, PLAY_PHASE, OVER = 0, 1, 2

ABISE_TAOSHI = "abise-taoshi"
HIKIOTOSHI = "hikiotoshi"
WUCCHARI = "wucchari"
PUSHED_OUT = "pushed out"
FINAL_TRICK = "final trick"
NO_DEAL_LEFT = "no deal left"  # a draw: only with the max_deals option
REASONS = (ABISE_TAOSHI, HIKIOTOSHI, WUCCHARI, PUSHED_OUT, FINAL_TRICK, NO_DEAL_LEFT)


def sumo_move(lead: str, card: str, follower_edge: bool, colour: dict[str, str]) -> str | None:
    """The sumo move made by following ``lead`` with ``card``, or None.

    ``follower_edge`` says whether the wrestlers stand on the edge next to the follower (before
    this trick's push); ``colour`` is the colour table in use.
    """
    rl, rf = RANK[lead], RANK[card]
    same = colour[lead] == colour[card]
    if rl == 1 and rf == 4 and same:
        return ABISE_TAOSHI
    if rl == 5 and rf == 1 and same:
        return HIKIOTOSHI
    if rf == 2 and not same and follower_edge:
        return WUCCHARI
    return None


@register
class Sumo(CardGame):
    """The SUMO trick-taking game for two players. See the module docstring for the rules."""

    name = "sumo"
    player_counts = (2,)

    def __init__(self, seed: int = 0) -> None:
        self.num_players = 2
        self.colours = "red-black"
        self.hand_size = HAND_SIZE
        self.max_deals = 0  # 0: unlimited
        self._colour = COLOUR_TABLES["red-black"]
        self._seed_rng(seed)
        self.deal_no = 0  # 1 for the first deal, +1 for every re-deal
        self.hands: list[list[str]] = [[], []]  # each kept sorted
        self.undealt: list[str] = []  # the four cards out of play
        self.face_down: str | None = None  # seat 0's reveal card, until seat 1 has chosen
        self.set_aside: list[list[str]] = [[], []]  # revealed cards of this deal, in order
        self.phase = REVEAL_PHASE
        self.turn = 0
        self.leader = 0
        self.lead: str | None = None  # the card led to the current trick
        self.played: list[str] = []  # cards of finished tricks of this deal
        self.tricks: list[list[Any]] = []  # [leader, lead card, follow card, winner] per trick
        self.void: list[str] = ["", ""]  # suits each seat has shown it lacks (this deal)
        self.wrestler = CENTRE
        self.winner = -1
        self.reason: str | None = None
        self.events: list[dict[str, Any]] = []
        self._legal: list[str] | None = None

    # ----- construction ------------------------------------------------------------------------
    @classmethod
    def new(
        cls, players: int | None = None, seed: int = 0, *, chance: OutsideChance | None = None, **options: Any
    ) -> Sumo:
        """A freshly dealt game.

        Options: ``colours`` = ``"red-black"`` (default) or ``"suits"``; ``hand_size`` = cards per
        seat (default 8); ``hands`` = two lists of that many cards to deal instead of shuffling (for
        teaching and tests; the other cards are the undealt ones, and any re-deal shuffles with the
        seeded generator).
        """
        if players not in (None, 2):
            raise ValueError(f"players: sumo is for 2 players, not {players}")
        colours = options.pop("colours", "red-black")
        hands = options.pop("hands", None)
        hand_size = options.pop("hand_size", HAND_SIZE)
        max_deals = options.pop("max_deals", 0)
        if options:
            raise ValueError(f"unknown option(s) for sumo: {', '.join(sorted(options))}")
        if colours not in COLOUR_TABLES:
            raise ValueError(f"colours: must be 'red-black' or 'suits', not {colours!r}")
        if type(hand_size) is not int or not MIN_HAND_SIZE <= hand_size <= HAND_SIZE:
            raise ValueError(f"hand_size: must be a whole number from {MIN_HAND_SIZE} to {HAND_SIZE}")
        if type(max_deals) is not int or max_deals < 0:
            raise ValueError("max_deals: must be a whole number, 0 for unlimited")
        g = cls(seed)
        g._chance = chance
        g.hand_size = hand_size
        g.max_deals = max_deals
        g.colours = colours
        g._colour = COLOUR_TABLES[colours]
        if hands is None:
            g._deal()
        else:
            wanted = f"hands: expected two lists of {hand_size} cards"
            if not (isinstance(hands, (list, tuple)) and len(hands) == 2):
                raise ValueError(wanted)
            seen: set[str] = set()
            for h in hands:
                if not isinstance(h, (list, tuple)) or len(h) != hand_size:
                    raise ValueError(wanted)
                for c in h:
                    if c not in CARD_SET:
                        raise ValueError(f"hands: {c!r} is not a card of this deck")
                    if c in seen:
                        raise ValueError(f"hands: {c} is dealt twice")
                    seen.add(c)
            g._start_deal(list(hands[0]), list(hands[1]), [c for c in DECK if c not in seen])
        return g

    def _deal(self) -> None:
        deck = list(range(len(DECK)))  # card ids: chance outcomes are ints
        self._shuffle(deck)
        hands = [[DECK[c] for c in hand] for hand in self._deal_hands(deck, (self.hand_size,) * 2, "deal")]
        self._start_deal(hands[0], hands[1], [DECK[i] for i in deck])

    @classmethod
    def chance_name(cls, kind: str, outcome: int) -> str:
        if kind.endswith(" hand"):  # a whole hand at once: a bit mask of card ids (short deals)
            return f"{kind} " + ",".join(c for i, c in enumerate(DECK) if outcome >> i & 1)
        return f"{kind} {DECK[outcome]}"

    def _start_deal(self, h0: list[str], h1: list[str], undealt: list[str]) -> None:
        self.deal_no += 1
        self.hands = [sorted(h0), sorted(h1)]
        self.undealt = sorted(undealt)  # sorted: the deal order is nobody's business
        self.face_down = None
        self.set_aside = [[], []]
        self.phase = REVEAL_PHASE
        self.turn = 0
        self.leader = 0
        self.lead = None
        self.played = []
        self.tricks = []
        self.void = ["", ""]
        self.wrestler = CENTRE
        self._legal = None
        ev = self.events
        ev.append({"type": "deal", "deal": self.deal_no})
        for p in (0, 1):
            ev.append({"type": "hand", "deal": self.deal_no, "seat": p, "cards": list(self.hands[p]), "to": [p]})

    # ----- flow --------------------------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        return None if self.phase == OVER else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _compute_legal(self) -> list[str]:
        if self.phase == OVER:
            return []
        hand = self.hands[self.turn]
        if self.phase == REVEAL_PHASE:
            return [REVEAL[c] for c in hand]
        lead = self.lead
        if lead is not None:
            s = lead[1]
            follow = [PLAY[c] for c in hand if c[1] == s]
            if follow:
                return follow
        return [PLAY[c] for c in hand]  # hands are sorted, so this is sorted too

    def apply(self, action: str) -> None:
        if action not in self._current_legal():
            raise self._why_illegal(action)
        # Validated: from here on we mutate.
        self._legal = None
        p = self.turn
        if self.phase == REVEAL_PHASE:
            self._reveal(p, action[7:])
        else:
            self._play(p, action[5:])

    def _reveal(self, p: int, card: str) -> None:
        self.hands[p].remove(card)
        if p == 0:
            # Face down: seat 1 must choose without knowing it.
            self.face_down = card
            self.turn = 1
            self.events.append({"type": "face_down", "seat": 0})
            self.events.append({"type": "face_down_card", "seat": 0, "card": card, "to": [0]})
            return
        c0 = self.face_down
        assert c0 is not None
        self.face_down = None
        self.set_aside[0].append(c0)
        self.set_aside[1].append(card)
        self.events.append({"type": "reveal", "cards": [c0, card]})
        r0, r1 = RANK[c0], RANK[card]
        if not self.hands[0]:
            # All eight cards revealed: nothing is left to play tricks with.
            if self.max_deals and self.deal_no >= self.max_deals:
                self._finish(-1, NO_DEAL_LEFT)
                return
            self.events.append({"type": "redeal", "deal": self.deal_no})
            self._deal()
            return
        if r0 == r1:
            self.turn = 0
            self.events.append({"type": "reveal_tie"})
            return
        first = 0 if r0 > r1 else 1
        self.phase = PLAY_PHASE
        self.leader = self.turn = first
        self.events.append({"type": "first_leader", "seat": first})

    def _play(self, p: int, card: str) -> None:
        self.hands[p].remove(card)
        self.events.append({"type": "play", "seat": p, "card": card})
        lead = self.lead
        if lead is None:
            self.lead = card
            self.turn = 1 - p
            return
        # p follows to the trick led by the other seat.
        leader = 1 - p
        self.lead = None
        self.played.append(lead)
        self.played.append(card)
        if card[1] != lead[1] and lead[1] not in self.void[p]:
            self.void[p] += lead[1]
        move = sumo_move(lead, card, self.wrestler == EDGE[p], self._colour)
        if move is not None:
            self.tricks.append([leader, lead, card, p])
            self.events.append({"type": "sumo_move", "seat": p, "move": move})
            self._finish(p, move)
            return
        if card[1] == lead[1] and RANK[card] > RANK[lead]:
            w = p
        else:
            w = leader
        self.tricks.append([leader, lead, card, w])
        self.wrestler += PUSH[w]
        self.events.append({"type": "trick", "winner": w, "wrestler": self.wrestler})
        if self.wrestler < LEFT or self.wrestler > RIGHT:
            self._finish(w, PUSHED_OUT)
        elif not self.hands[p]:
            self._finish(w, FINAL_TRICK)
        else:
            self.leader = self.turn = w

    def _finish(self, winner: int, reason: str) -> None:
        self.phase = OVER
        self.winner = winner
        self.reason = reason
        self.events.append({"type": "game_over", "winner": winner, "reason": reason})

    def _why_illegal(self, action: Any) -> IllegalMove:
        """Why ``action`` is not legal now: a refusal with its code, and plain words."""
        if self.phase == OVER:
            return IllegalMove("the game is over", "game_over")
        how = "write 'reveal <card>' or 'play <card>', e.g. 'play 3H'"
        if not isinstance(action, str):
            return IllegalMove(f"{action!r} is not an action: {how}", "not_an_action")
        verb, _, card = action.partition(" ")
        if verb not in ("reveal", "play") or not card:
            return IllegalMove(f"{action!r} is not an action: {how}", "not_an_action")
        if self.phase == REVEAL_PHASE and verb == "play":
            return IllegalMove("first each player reveals a card to decide who leads: write 'reveal <card>'",
                               "reveal_first")
        if self.phase == PLAY_PHASE and verb == "reveal":
            return IllegalMove("the first leader is already decided: write 'play <card>'", "leader_decided")
        if card not in CARD_SET:
            return IllegalMove(f"{card!r} is not a card: cards are a rank 1-5 and a suit C, D, H or S, "
                               "e.g. '3H'", "not_a_card", card=card)
        p = self.turn
        if card not in self.hands[p]:
            # Only a card this seat can see placed elsewhere is named as such: seat 0's face-down
            # card is hidden from seat 1, which gets the words of any card it simply lacks.
            if card in self.set_aside[p] or (card == self.face_down and p == 0):
                return IllegalMove(f"{card} is already revealed and set aside", "set_aside", card=card)
            return IllegalMove(f"you do not hold {card}", "not_held", card=card)
        lead = self.lead
        if lead is not None and card[1] != lead[1]:
            return IllegalMove(f"you must follow suit: you hold a {SUIT_NAMES[lead[1]]}", "follow_suit",
                               suit=lead[1])
        return IllegalMove(f"{action!r} is not legal now")  # not reached: every other case is legal

    def returns(self) -> list[float]:
        if self.phase != OVER or self.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    # ----- information -------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: own hand, the table, the public history (never hidden cards)."""
        return {
            "game": self.name,
            "seat": player,
            "colours": self.colours,
            "hand_size": self.hand_size,
            "phase": PHASES[self.phase],
            "to_play": self.to_play,
            "deal": self.deal_no,
            "hand": list(self.hands[player]),
            "hand_sizes": [len(self.hands[0]), len(self.hands[1])],
            "undealt_count": len(self.undealt),
            # Seat 0's face-down reveal card exists publicly; only seat 0 knows which it is.
            "face_down": [self.face_down is not None, False],
            "my_face_down": self.face_down if player == 0 else None,
            "set_aside": [list(self.set_aside[0]), list(self.set_aside[1])],
            "wrestler": self.wrestler,
            "leader": self.leader if self.phase != REVEAL_PHASE else None,
            "trick": [self.lead] if self.lead is not None else [],
            "tricks": [list(t) for t in self.tricks],
            "void": list(self.void),
            "winner": self.winner if self.phase == OVER else None,
            "reason": self.reason,
            "events": self.visible_events(player),
        }

    def card_zones(self) -> dict[str, list[str]]:
        return {
            "hand0": list(self.hands[0]),
            "hand1": list(self.hands[1]),
            "face_down": [self.face_down] if self.face_down is not None else [],
            "set_aside0": list(self.set_aside[0]),
            "set_aside1": list(self.set_aside[1]),
            "trick": [self.lead] if self.lead is not None else [],
            "played": list(self.played),
            "undealt": list(self.undealt),
        }

    def resample_hidden(self, player: int, rng: random.Random) -> Sumo:
        """Re-deal the other seat's hand (and face-down card) and the undealt cards.

        Known to ``player``: own hand, all set-aside and played cards, and the suits the other
        seat has shown it lacks; those cards can only be among the undealt ones.
        """
        g = self.clone()
        q = 1 - player
        # Seat 0's face-down reveal card, while it waits for seat 1, is hidden from seat 1.
        hidden_fd = g.face_down is not None and q == 0
        # Sorted: the re-deal then depends only on what ``player`` knows, not on where the hidden
        # cards really are (one generator gives one re-deal from every state ``player`` cannot tell
        # apart, so a search from any of them searches the same worlds).
        pool = sorted(g.hands[q] + g.undealt + ([g.face_down] if g.face_down is not None and hidden_fd else []))
        void = g.void[q]
        allowed = [c for c in pool if c[1] not in void]
        forced = [c for c in pool if c[1] in void]
        rng.shuffle(allowed)
        k = len(g.hands[q])
        g.hands[q] = sorted(allowed[:k])
        rest = allowed[k:]
        new_fd = rest.pop() if hidden_fd else None
        if new_fd is not None:
            g.face_down = new_fd
        g.undealt = sorted(rest + forced)
        g._legal = None
        # The clone's log must not keep the true hidden cards: rewrite this deal's secret events
        # of the other seat and drop those of earlier deals (revealed face-down cards are public).
        if any(player not in e.get("to", (player,)) for e in g.events):
            original = g.hands[q] + g.set_aside[q]
            original += [t[1] if t[0] == q else t[2] for t in g.tricks]
            if g.lead is not None and g.leader == q:
                original.append(g.lead)
            if new_fd is not None:
                original.append(new_fd)
            events = []
            last = len(g.events) - 1
            for i, e in enumerate(g.events):
                if player not in e.get("to", (player,)):
                    if e["type"] == "hand":
                        if e["deal"] != g.deal_no:
                            continue
                        e = dict(e, cards=sorted(original))
                    elif e["type"] == "face_down_card" and hidden_fd and i == last:
                        e = dict(e, card=g.face_down)
                events.append(e)
            g.events = events
        g._seed_rng(rng.getrandbits(64))
        return g

    # ----- copies and persistence ---------------------------------------------------------------
    def clone(self) -> Sumo:
        g = Sumo.__new__(Sumo)
        g.num_players = 2
        g.colours = self.colours
        g.hand_size = self.hand_size
        g.max_deals = self.max_deals
        g._colour = self._colour
        self._share_chance(g)
        g.deal_no = self.deal_no
        g.hands = [self.hands[0][:], self.hands[1][:]]
        g.undealt = self.undealt[:]
        g.face_down = self.face_down
        g.set_aside = [self.set_aside[0][:], self.set_aside[1][:]]
        g.phase = self.phase
        g.turn = self.turn
        g.leader = self.leader
        g.lead = self.lead
        g.played = self.played[:]
        g.tricks = self.tricks[:]  # trick records are never mutated once appended
        g.void = self.void[:]
        g.wrestler = self.wrestler
        g.winner = self.winner
        g.reason = self.reason
        g.events = self.events[:]  # event dicts are never mutated once appended
        g._legal = self._legal
        return g

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "version": 1,
            "colours": self.colours,
            "hand_size": self.hand_size,
            "max_deals": self.max_deals,
            "deal": self.deal_no,
            "hands": [list(self.hands[0]), list(self.hands[1])],
            "undealt": list(self.undealt),
            "face_down": self.face_down,
            "set_aside": [list(self.set_aside[0]), list(self.set_aside[1])],
            "phase": PHASES[self.phase],
            "turn": self.turn,
            "leader": self.leader,
            "lead": self.lead,
            "played": list(self.played),
            "tricks": [list(t) for t in self.tricks],
            "void": list(self.void),
            "wrestler": self.wrestler,
            "winner": self.winner,
            "reason": self.reason,
            "rng": self._rng_json(),
            "events": [_copy_event(e) for e in self.events],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Sumo:
        saved = SavedGame(data, cls.name)
        seat = (0, 1)

        def card(name: str) -> str | None:
            return saved.optional(name, lambda v: saved.one_of(name, DECK, v))

        g = cls()
        g.colours = saved.one_of("colours", tuple(COLOUR_TABLES))
        g.hand_size = saved.integer("hand_size", MIN_HAND_SIZE, HAND_SIZE)
        g.max_deals = saved.integer("max_deals", 0, 10**9)
        g._colour = COLOUR_TABLES[g.colours]
        g.deal_no = saved.integer("deal", 1, 10**9)
        g.hands = [sorted(saved.cards("hands", CARD_SET, h)) for h in saved.seq("hands", 2)]
        g.undealt = sorted(saved.cards("undealt", CARD_SET))
        g.face_down = card("face_down")
        g.set_aside = [saved.cards("set_aside", CARD_SET, s) for s in saved.seq("set_aside", 2)]
        g.phase = PHASES.index(saved.one_of("phase", PHASES))
        g.turn = saved.one_of("turn", seat)
        g.leader = saved.one_of("leader", seat)
        g.lead = card("lead")
        g.played = saved.cards("played", CARD_SET)
        tricks = saved.seq("tricks")
        if not all(
            isinstance(t, list) and len(t) == 4 and type(t[0]) is int and t[0] in seat
            and t[1] in CARD_SET and t[2] in CARD_SET and type(t[3]) is int and t[3] in seat
            for t in tricks
        ):
            raise ValueError("tricks: expected [[leader, lead card, follow card, winner], ...]")
        g.tricks = [list(t) for t in tricks]
        void = saved.seq("void", 2)
        if not all(isinstance(v, str) and set(v) <= set(SUITS) for v in void):
            raise ValueError("void: expected two strings of suit letters")
        g.void = list(void)
        g.wrestler = saved.integer("wrestler", -2, 2)
        g.winner = saved.one_of("winner", (-1, 0, 1))
        g.reason = saved.one_of("reason", (None, *REASONS))
        g._set_rng(saved.rng())
        g.events = saved.events()
        g._check_consistent()
        return g

    def _check_consistent(self) -> None:
        """Raise ValueError naming the field when a loaded state cannot arise in play."""
        every = [c for zone in self.card_zones().values() for c in zone]
        if sorted(every) != list(DECK):
            raise ValueError("hands: the saved cards are not exactly the twenty-card deck, each once")
        if len(self.undealt) != len(DECK) - 2 * self.hand_size:
            raise ValueError(f"undealt: must hold exactly {len(DECK) - 2 * self.hand_size} cards")
        over = self.phase == OVER
        drawn = self.reason == NO_DEAL_LEFT
        if over != (self.winner in (0, 1) or drawn) or over != (self.reason is not None) or (
                drawn and self.winner != -1):
            raise ValueError("winner: a winner (or a draw) and a reason are given exactly when the phase is over")
        if len(self.set_aside[0]) != len(self.set_aside[1]):
            raise ValueError("set_aside: both seats reveal the same number of cards")
        if self.phase == REVEAL_PHASE:
            if self.lead is not None or self.played or self.tricks:
                raise ValueError("phase: no trick is played before the first leader is decided")
            if self.turn != (1 if self.face_down is not None else 0):
                raise ValueError("turn: seat 0 reveals first, then seat 1")
        elif self.face_down is not None:
            raise ValueError("face_down: only used while deciding the first leader")
        if self.phase == PLAY_PHASE:
            if self.lead is None and self.turn != self.leader:
                raise ValueError("turn: the leader leads")
            if self.lead is not None and self.turn == self.leader:
                raise ValueError("turn: the other seat follows the card led")
            if not -1 <= self.wrestler <= 1:
                raise ValueError("wrestler: still in the ring while the game goes on")
        a = len(self.hands[0]) + (self.face_down is not None)
        b = len(self.hands[1])
        if self.lead is not None:
            if self.leader == 0:
                a += 1
            else:
                b += 1
        if a != b:
            raise ValueError("hands: both seats must hold the same number of cards between plays")


def _copy_event(e: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in e.items()}


# ----- the rule-of-thumb bot --------------------------------------------------------------------
def heuristic_action(game: CardGame, player: int, rng: random.Random) -> str:
    """A rule-of-thumb SUMO player that looks only at its observation and the legal actions.

    * Reveal: show the highest card (the lead is worth having), taken from the longest suit.
    * Follow: make a sumo move if one is legal; else win as cheaply as possible; else throw the
      least useful card (keep 2s, 1s and 4s, the cards of the sumo moves).
    * Lead: avoid a 1 or 5 that an unseen same-colour 4 or 1 could punish, and, when the wrestlers
      stand next to the opponent, avoid suits they may lack if an off-colour 2 is unseen; among the
      rest lead the card the fewest unseen cards can beat.
    """
    obs = game.observation(player)
    legal = game.legal_actions()
    colour = COLOUR_TABLES[obs["colours"]]
    hand = obs["hand"]
    if obs["phase"] == "reveal":
        cards = [a[7:] for a in legal]
        by_suit = {s: sum(1 for c in hand if c[1] == s) for s in SUITS}
        best = max(cards, key=lambda c: (RANK[c], by_suit[c[1]], c))
        return REVEAL[best]
    cards = [a[5:] for a in legal]
    me, opp = player, 1 - player
    if obs["trick"]:
        lead = obs["trick"][0]
        at_edge = obs["wrestler"] == EDGE[me]
        for c in cards:
            if sumo_move(lead, c, at_edge, colour):
                return PLAY[c]
        winners = [c for c in cards if c[1] == lead[1] and RANK[c] > RANK[lead]]
        if winners:
            return PLAY[min(winners, key=lambda c: (RANK[c], c))]
        keep = {3: 1, 1: 2, 2: 3, 4: 4, 5: 5}
        return PLAY[min(cards, key=lambda c: (keep[RANK[c]], c))]
    # Leading: what could the opponent hold?
    gone = set(hand)
    for t in obs["tricks"]:
        gone.add(t[1])
        gone.add(t[2])
    for s in obs["set_aside"]:
        gone.update(s)
    unseen = [c for c in DECK if c not in gone]
    opp_void = obs["void"][opp]
    opp_can_have = [c for c in unseen if c[1] not in opp_void]
    threat_edge = obs["wrestler"] == EDGE[opp]

    def may_lack(suit: str) -> bool:
        # Up to four unseen cards of a suit can all be among the undealt ones.
        return suit in opp_void or sum(1 for u in unseen if u[1] == suit) <= obs["undealt_count"]

    def risk(c: str) -> int:
        r, s = RANK[c], c[1]
        for u in opp_can_have:
            ru, same = RANK[u], colour[u] == colour[c]
            playable = u[1] == s or may_lack(s)
            if same and playable and ((r == 1 and ru == 4) or (r == 5 and ru == 1)):
                return 1
            if threat_edge and not same and ru == 2 and may_lack(s):
                return 1
        return 0

    def beaters(c: str) -> int:
        if c[1] in opp_void:
            return 0
        return sum(1 for u in opp_can_have if u[1] == c[1] and RANK[u] > RANK[c])

    return PLAY[min(cards, key=lambda c: (risk(c), beaters(c), -RANK[c], c))]
