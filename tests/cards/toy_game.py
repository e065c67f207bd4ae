"""A tiny hidden-information trick game that implements the whole :class:`cards.api.CardGame` API.

It exists so the game-independent infrastructure (bots, command line, OpenSpiel adapter, the
conformance tests) can be tested without depending on the real engines.

Rules of "toy-trick" (two players):

* The deck has twelve cards: ranks 1-6 in two suits, clubs ``c`` and diamonds ``d`` (``"4d"`` is
  the four of diamonds). Each player is dealt five cards face down; the last two cards stay face
  down in the stock and are never seen by anybody.
* Seat 0 leads the first trick. The other player must follow the suit led if they can; otherwise
  they may play any card. The higher card of the suit led wins the trick, and its winner leads the
  next one.
* After five tricks the player who won more tricks wins the game (five is odd: no draws).

A player who fails to follow suit shows everybody that they hold no card of that suit: the
:meth:`ToyTrick.resample_hidden` re-deal keeps to that knowledge.
"""
from __future__ import annotations

import random
from typing import Any

from cards.api import CardGame, IllegalMove, OutsideChance
from cards.saved import SavedGame

SUITS = ("c", "d")
RANKS = (1, 2, 3, 4, 5, 6)
DECK = tuple(f"{r}{s}" for s in SUITS for r in RANKS)
HAND_SIZE = 5
TRICKS = HAND_SIZE


def _rank(card: str) -> int:
    return int(card[0])


def _suit(card: str) -> str:
    return card[1]


class ToyTrick(CardGame):
    """Two-player, five-trick, must-follow-suit game with hidden hands and a hidden stock."""

    name = "toy-trick"
    player_counts = (2,)

    __slots__ = ("num_players", "hands", "stock", "trick", "leader", "won", "void", "events")

    def __init__(self) -> None:
        self.num_players = 2
        self.hands: list[list[str]] = [[], []]
        self.stock: list[str] = []
        self.trick: list[tuple[int, str]] = []  # (seat, card) in play order
        self.leader = 0
        self.won: list[list[str]] = [[], []]  # cards of the tricks each seat took
        self.void: list[list[str]] = [[], []]  # suits each seat has shown they do not hold
        self._seed_rng(0)
        self.events: list[dict[str, Any]] = []
        self._legal = None

    # ----- construction ------------------------------------------------------------------------
    @classmethod
    def new(
        cls, players: int | None = None, seed: int = 0, *, chance: OutsideChance | None = None, **options: Any
    ) -> ToyTrick:
        if players not in (None, 2):
            raise ValueError(f"players: toy-trick is for 2 players, not {players}")
        if options:
            raise ValueError(f"unknown option(s) for toy-trick: {', '.join(sorted(options))}")
        g = cls()
        g._seed_rng(seed)
        g._chance = chance
        deck = list(range(len(DECK)))
        g._shuffle(deck)
        g.hands = [sorted(DECK[g._draw(deck, "deal")] for _ in range(HAND_SIZE)) for _ in (0, 1)]
        g.stock = [DECK[i] for i in deck]
        for p in (0, 1):
            g.events.append({"type": "deal", "seat": p, "cards": list(g.hands[p]), "to": [p]})
        return g

    # ----- flow --------------------------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        if len(self.won[0]) + len(self.won[1]) == 2 * TRICKS:
            return None
        if not self.trick:
            return self.leader
        return 1 - self.trick[0][0]

    def _compute_legal(self) -> list[str]:
        p = self.to_play
        if p is None:
            return []
        hand = self.hands[p]
        if self.trick:
            led = _suit(self.trick[0][1])
            follow = [c for c in hand if _suit(c) == led]
            if follow:
                hand = follow
        return sorted("play " + c for c in hand)

    def apply(self, action: str) -> None:
        p = self.to_play
        if p is None:
            raise IllegalMove("the game is over")
        if not isinstance(action, str) or not action.startswith("play "):
            raise IllegalMove(f"{action!r} is not an action: write 'play <card>', e.g. 'play 4d'")
        card = action[5:]
        hand = self.hands[p]
        if card not in hand:
            raise IllegalMove(f"you do not hold {card!r}")
        if self.trick:
            led = _suit(self.trick[0][1])
            if _suit(card) != led and any(_suit(c) == led for c in hand):
                raise IllegalMove(f"you must follow suit: you hold a card of suit {led!r}")
            if _suit(card) != led and led not in self.void[p]:
                self.void[p].append(led)
        # Validated: now mutate.
        self._legal = None
        hand.remove(card)
        self.trick.append((p, card))
        self.events.append({"type": "play", "seat": p, "card": card})
        if len(self.trick) == 2:
            (s0, c0), (s1, c1) = self.trick
            winner = s1 if _suit(c1) == _suit(c0) and _rank(c1) > _rank(c0) else s0
            self.won[winner].extend((c0, c1))
            self.trick = []
            self.leader = winner
            self.events.append({"type": "trick", "winner": winner})
            if self.is_over:
                self.events.append({"type": "game_over", "returns": self.returns()})

    def returns(self) -> list[float]:
        if not self.is_over:
            return [0.0, 0.0]
        return [1.0, -1.0] if len(self.won[0]) > len(self.won[1]) else [-1.0, 1.0]

    # ----- information -------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        return {
            "seat": player,
            "to_play": self.to_play,
            "hand": sorted(self.hands[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "tricks_won": [len(w) // 2 for w in self.won],
            "won_cards": [sorted(w) for w in self.won],
            "stock_size": len(self.stock),
            "events": self.visible_events(player),
        }

    def card_zones(self) -> dict[str, list[str]]:
        return {
            "hand0": list(self.hands[0]),
            "hand1": list(self.hands[1]),
            "stock": list(self.stock),
            "trick": [c for _, c in self.trick],
            "won0": list(self.won[0]),
            "won1": list(self.won[1]),
        }

    def resample_hidden(self, player: int, rng: random.Random) -> ToyTrick:
        """Re-deal the other hand and the stock, respecting the suits the other seat showed void."""
        g = self.clone()
        other = 1 - player
        # Sorted so the re-deal depends only on what `player` knows, never on where the hidden
        # cards really are (the same rng then gives the same re-deal from any consistent state).
        pool = sorted(g.hands[other] + g.stock)
        void = set(g.void[other])
        allowed = [c for c in pool if _suit(c) not in void]
        forced_to_stock = [c for c in pool if _suit(c) in void]
        rng.shuffle(allowed)
        k = len(g.hands[other])
        g.hands[other] = sorted(allowed[:k])
        g.stock = allowed[k:] + forced_to_stock
        # The other seat's secret deal event must not carry the true deal into the clone: rewrite it
        # as the re-dealt hand plus the cards that seat has played openly since.
        played = [e["card"] for e in g.events if e["type"] == "play" and e["seat"] == other]
        for e in g.events:
            if e["type"] == "deal" and e["seat"] == other:
                e["cards"] = sorted(g.hands[other] + played)
        g._seed_rng(rng.getrandbits(64))
        return g

    # ----- copies and persistence ---------------------------------------------------------------
    def clone(self) -> ToyTrick:
        g = type(self).__new__(type(self))  # subclasses (the tests' broken toys) stay themselves
        g.num_players = 2
        g.hands = [list(self.hands[0]), list(self.hands[1])]
        g.stock = list(self.stock)
        g.trick = list(self.trick)
        g.leader = self.leader
        g.won = [list(self.won[0]), list(self.won[1])]
        g.void = [list(self.void[0]), list(self.void[1])]
        self._share_chance(g)
        g.events = [dict(e) for e in self.events]
        g._legal = None
        return g

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "version": 1,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "trick": [[s, c] for s, c in self.trick],
            "leader": self.leader,
            "won": [list(w) for w in self.won],
            "void": [list(v) for v in self.void],
            "rng": self._rng_json(),
            "events": [dict(e) for e in self.events],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ToyTrick:
        saved = SavedGame(data, cls.name)

        def card_lists(name: str, cards: tuple[str, ...]) -> list[list[str]]:
            return [saved.cards(name, cards, v) for v in saved.seq(name, 2)]

        g = cls()
        g.hands = card_lists("hands", DECK)
        g.stock = saved.cards("stock", DECK)
        trick = saved.seq("trick")
        if not all(
            isinstance(t, list) and len(t) == 2 and t[0] in (0, 1) and t[1] in DECK for t in trick
        ):
            raise ValueError("trick: expected [[seat, card], ...]")
        g.trick = [(s, c) for s, c in trick]
        g.leader = saved.one_of("leader", (0, 1))
        g.won = card_lists("won", DECK)
        g.void = card_lists("void", SUITS)
        g._set_rng(saved.rng())
        g.events = saved.events()
        zones = g.card_zones()
        all_cards = sorted(c for z in zones.values() for c in z)
        if all_cards != sorted(DECK):
            raise ValueError("hands: the saved cards are not exactly the twelve-card deck")
        return g


def heuristic_action(game: ToyTrick, player: int, rng: random.Random) -> str:
    """Rule of thumb: lead your highest card; when following, win as cheaply as possible, else
    throw your lowest card. Uses only the observation and the legal actions."""
    obs = game.observation(player)
    legal = game.legal_actions()
    cards = [a[5:] for a in legal]
    if not obs["trick"]:
        return "play " + max(cards, key=_rank)
    led = obs["trick"][0][1]
    winners = [c for c in cards if _suit(c) == _suit(led) and _rank(c) > _rank(led)]
    if winners:
        return "play " + min(winners, key=_rank)
    return "play " + min(cards, key=_rank)
