"""One shape for every card game, in the OpenSpiel mould.

A game is a mutable state object. Every engine in :mod:`cards` subclasses :class:`CardGame` and
keeps to these promises, which the shared tests in ``tests/cards`` check for all of them:

* ``Game.new(players, seed, **options)`` deals with a private ``random.Random(seed)`` whose state
  lives inside the game (so ``clone`` and JSON round trips continue identically).
* ``to_play`` (a property) is the seat to act, or None once the game is over; ``is_over`` (a bool
  property) says the same in one word. There are no chance nodes visible to callers: shuffles and
  draws happen inside ``apply``, from the game's own generator - unless the game was made with
  ``new(..., chance=OutsideChance(...))``, when every random event is an outcome given from
  outside (that is how the OpenSpiel adapter turns them into explicit chance nodes).
* Simultaneous choices (face-down cards, secret declarations) are *sequentialised*: seats choose one
  after another, and nothing about an earlier, still-hidden choice appears in a later chooser's
  ``observation`` or in the public ``events`` until every seat has chosen and it is revealed.
* ``legal_actions()`` lists every legal action for the current player as JSON-able values
  (short readable strings), in a stable sorted order; it is empty only at a terminal state.
* ``apply(action)`` plays one legal action. An illegal action raises :class:`IllegalMove`, whose
  message says in plain words why, and leaves the state exactly as it was.
* ``returns()`` gives one float per seat (+1 win / -1 loss / 0 draw, or the game's own scores).
* ``observation(player)`` is a JSON-able dict of exactly what that seat may see. Every game's has
  the same core keys - ``game`` (registry name), ``seat``, ``to_play`` (the seat to act, or
  None once the game is over), ``phase``, ``hand`` (the seat's own cards) and ``events`` (the log as that seat may
  see it; an event names the seat it is about as ``seat``) - plus the game's own.
* ``clone()`` is an independent deep copy; ``to_json()`` / ``from_json()`` round trip through
  plain data (json.dumps-able) and the restored game continues identically.
* ``events`` is a list of JSON-able dicts, one per thing a table view would animate; each has a
  ``"type"`` and, when something is secret, a ``"to"`` list of the seats allowed to see it
  (``observation(p)["events"]`` filters by it).
* ``card_zones()`` maps zone name -> list of cards, covering every card of the game exactly once;
  the conservation tests use it.
* ``resample_hidden(player, rng)`` returns a clone in which every card ``player`` cannot see has
  been re-dealt at random, consistently with everything ``player`` knows. Search bots use it
  (determinisation) so they never look at hidden cards.
"""
from __future__ import annotations

import functools
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from itertools import combinations
from math import comb
from typing import Any, ClassVar, Protocol

# An action that is not legal now: the project's one refusal, which Kabuto Sumo raises too (its
# ``code`` and ``fields`` say which rule refused and about what).
from kabuto_base.errors import IllegalMove as IllegalMove

Action = str


class NeedChance(Exception):
    """Raised by a game with outside chance at a random event it has no outcome for yet.

    ``kind`` names the event ("deal", "draw", ...); ``options`` lists its equally likely outcomes
    (a value listed twice is twice as likely: a face-down pile may hold two alike cards).
    """

    def __init__(self, kind: str, options: Sequence[int]) -> None:
        super().__init__(f"{kind}: an outcome is needed")
        self.kind = kind
        self.options = tuple(options)


class OutsideChance:
    """The outcomes of a game's random events, chosen outside the engine.

    A game made with ``new(..., chance=OutsideChance(outcomes))`` takes the outcome of each random
    event, in order, from ``outcomes`` (each outcome an int: a card id of the engine, or a seat),
    and raises :class:`NeedChance` at the first event past their end. The game state is then
    half-way through an action: callers (the OpenSpiel adapter) work on a clone and replay the
    action from its start with one more outcome. :data:`NO_OUTCOMES` is the marker for a settled
    game whose next random event must also come from outside.
    """

    __slots__ = ("outcomes", "used")

    def __init__(self, outcomes: Sequence[int] = ()) -> None:
        self.outcomes = tuple(outcomes)
        self.used = 0

    def next(self, kind: str, options: Sequence[int]) -> int:
        i = self.used
        if i >= len(self.outcomes):
            raise NeedChance(kind, options)
        outcome = self.outcomes[i]
        if outcome not in options:
            raise ValueError(f"chance: {outcome!r} is not a possible outcome of this {kind}")
        self.used = i + 1
        return outcome


#: Outside chance with no outcome given yet (shared: it is never advanced).
NO_OUTCOMES = OutsideChance()
#: A hand with at most this many possible deals is dealt as one random event (see _deal_hands).
HAND_AT_ONCE = 1000


@functools.lru_cache(maxsize=4096)
def _hand_masks(pile: tuple[int, ...], size: int) -> tuple[int, ...]:
    """Every hand of ``size`` cards out of ``pile`` (sorted card ids), as bit masks."""
    return tuple(sum(1 << c for c in hand) for hand in combinations(pile, size))


#: The steps of ``random.Random.shuffle`` for a pile of each length: (i, i + 1, bit length of i + 1)
#: for i from the last place down to 1 (made when a length is first shuffled; piles are decks).
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def shuffle_like_random(rng: random.Random, pile: list[Any]) -> None:
    """Shuffle ``pile`` in place exactly as ``rng.shuffle(pile)`` would, drawing the same random
    bits (a seed deals what it always dealt and leaves the generator in the same state), without
    the library loop's two Python calls per card.

    >>> a, b = list(range(10)), list(range(10))
    >>> r1, r2 = random.Random(3), random.Random(3)
    >>> r1.shuffle(a); shuffle_like_random(r2, b)
    >>> a == b and r1.random() == r2.random()
    True
    """
    if type(rng) is not random.Random:  # a subclass may draw differently: let it shuffle
        rng.shuffle(pile)
        return
    steps = _SHUFFLE_STEPS.get(len(pile))
    if steps is None:
        steps = _SHUFFLE_STEPS[len(pile)] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(pile) - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, n, k in steps:  # random.Random._randbelow_with_getrandbits, inlined
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        pile[i], pile[j] = pile[j], pile[i]


class CardGame(ABC):
    """Base class of every card-game engine.

    Besides the abstract API it holds the machinery every engine needs in the same form, so each
    engine writes only its rules:

    * **Legal actions, cached.** An engine implements :meth:`_compute_legal`; :meth:`legal_actions`
      computes it once per state and keeps it in ``_legal`` until ``apply`` clears it (set
      ``self._legal = None`` whenever the state changes). Search bots ask for the legal actions
      of the same state several times, and ``apply`` checks against the same cached list
      (:meth:`_current_legal`).
    * **A seeded generator, made late and copied on write.** ``_rng`` is the game's own
      ``random.Random``, made from its seed only when first needed (:meth:`_seed_rng`; seeding a
      Mersenne Twister costs more than a whole SUMO play-out, and most re-dealt copies a search
      makes never shuffle). A ``clone`` shares it (:meth:`_share_chance`) and whichever copy first
      needs a random number makes a private copy (:meth:`_own_rng`).
    * **Random events in three words.** Engines shuffle, draw and pick only through
      :meth:`_shuffle`, :meth:`_draw` and :meth:`_pick`, which use the game's generator - or, in a
      game with outside chance (``_chance``), take each outcome from there. A shuffled pile is
      then left unordered, and each draw from it is one random event.
    """

    #: Registry name, e.g. "sumo-card-game", "sumo", "sumida-river".
    name: ClassVar[str] = ""
    #: Allowed seat counts.
    player_counts: ClassVar[tuple[int, ...]] = (2,)

    num_players: int
    events: list[dict[str, Any]]
    _legal: Sequence[Action] | None
    _rng: random.Random | None  # None: not made yet, from _rng_seed
    _rng_seed: int
    _rng_shared: bool
    #: Outside chance (None: the game's own generator decides every random event).
    _chance: OutsideChance | None = None

    # ----- construction ------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def new(
        cls, players: int | None = None, seed: int = 0, *, chance: OutsideChance | None = None, **options: Any
    ) -> CardGame:
        """A freshly dealt game (dealt by ``chance``, if given, instead of ``seed``)."""

    # ----- flow --------------------------------------------------------------------------------
    @property
    @abstractmethod
    def to_play(self) -> int | None:
        """The seat to act, or None once the game is over."""

    @property
    def is_over(self) -> bool:
        """True once the game has ended (then nobody is to play)."""
        return self.to_play is None

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to play, sorted; [] once the game is over.

        The list is a copy: changing it does not change the game.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _current_legal(self) -> Sequence[Action]:
        """The cached legal actions themselves, for ``apply`` to check against (not a copy:
        callers must not change them)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    @abstractmethod
    def _compute_legal(self) -> Sequence[Action]:
        """Every legal action now, sorted (the result is cached and must never be mutated)."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Play one action; raise IllegalMove (state unchanged) when it is not legal."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Per-seat outcome; meaningful once the game is over (all zeros before)."""

    def winners(self) -> list[int]:
        """Seats with the best return (empty until the game is over)."""
        if not self.is_over:
            return []
        r = self.returns()
        best = max(r)
        return [i for i, v in enumerate(r) if v == best]

    # ----- the game's own generator -------------------------------------------------------------
    def _seed_rng(self, seed: int) -> None:
        """Give the game a generator of its own, seeded with ``seed`` (made when first needed)."""
        self._rng = None
        self._rng_seed = seed
        self._rng_shared = False

    def _set_rng(self, rng: random.Random) -> None:
        """Give the game this generator (a loaded save)."""
        self._rng = rng
        self._rng_shared = False

    def _own_rng(self) -> random.Random:
        """The game's generator, to draw from: made now if it was only seeded, or made private if a
        clone still shares it."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._rng_seed)
            self._rng_shared = False
        elif self._rng_shared:
            rng = random.Random()
            rng.setstate(self._rng.getstate())  # type: ignore[union-attr]
            self._rng = rng
            self._rng_shared = False
        return rng

    def _share_chance(self, clone: CardGame) -> None:
        """Let ``clone`` share this game's generator (until either of them draws from it) and its
        outside chance, if any."""
        clone._rng = self._rng
        clone._rng_seed = self._rng_seed
        clone._rng_shared = self._rng_shared = self._rng is not None
        clone._chance = self._chance

    def _shuffle(self, pile: list[Any]) -> None:
        """Shuffle a face-down pile (with outside chance: leave it; each draw will pick)."""
        if self._chance is None:
            shuffle_like_random(self._own_rng(), pile)

    def _draw(self, pile: list[int], kind: str) -> int:
        """Take the top card of a shuffled face-down pile (with outside chance: the card chosen
        outside, out of the whole pile)."""
        chance = self._chance
        if chance is None:
            return pile.pop()
        card = chance.next(kind, pile)
        i = pile.index(card)
        pile[i] = pile[-1]  # an unordered pile: fill the gap with the last card
        pile.pop()
        return card

    def _deal_hands(self, pile: list[int], sizes: Sequence[int], kind: str) -> list[list[int]]:
        """Deal hands of ``sizes`` cards from a shuffled pile, one after another.

        With outside chance, when the first hand can come out in at most :data:`HAND_AT_ONCE` ways
        (a short deal) each hand is one random event, named ``kind + " hand"``, whose outcome is the
        hand as a bit mask of card ids: the game tree then holds each deal once, not once per order
        of its cards. Otherwise (and always with the game's own generator) they are dealt card by
        card.
        """
        chance = self._chance
        if chance is None or not sizes or comb(len(pile), sizes[0]) > HAND_AT_ONCE:
            return [[self._draw(pile, kind) for _ in range(size)] for size in sizes]
        hands = []
        for size in sizes:
            mask = chance.next(kind + " hand", _hand_masks(tuple(sorted(pile)), size))
            hands.append([c for c in pile if mask >> c & 1])
            pile[:] = [c for c in pile if not mask >> c & 1]
        return hands

    def _pick(self, options: Sequence[int], kind: str) -> int:
        """One of ``options``, each as likely (a lot drawn: who draws first, who leads)."""
        chance = self._chance
        if chance is None:
            return self._own_rng().choice(options)
        return chance.next(kind, options)

    @classmethod
    def chance_name(cls, kind: str, outcome: int) -> str:
        """Plain words for an outcome of a random event (OpenSpiel prints chance actions so)."""
        return f"{kind}: {outcome}"

    def _rng_json(self) -> list[Any]:
        """The generator's state as plain data (reading it needs no private copy)."""
        return rng_state_to_json(self._rng if self._rng is not None else random.Random(self._rng_seed))

    # ----- information -------------------------------------------------------------------------
    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """JSON-able view of what ``player`` may see (never a hidden card)."""

    def visible_events(self, player: int) -> list[dict[str, Any]]:
        """The event log as ``player`` may see it."""
        return [e for e in self.events if "to" not in e or player in e["to"]]

    @abstractmethod
    def card_zones(self) -> dict[str, list[str]]:
        """Every card of the game, each in exactly one zone."""

    @abstractmethod
    def resample_hidden(self, player: int, rng: random.Random) -> CardGame:
        """A clone with the cards ``player`` cannot see re-dealt consistently with their knowledge."""

    # ----- copies and persistence ---------------------------------------------------------------
    @abstractmethod
    def clone(self) -> CardGame:
        """An independent copy that continues identically."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Plain data (json.dumps-able) from which ``from_json`` rebuilds this exact state."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> CardGame:
        """Rebuild a game saved by ``to_json``; raise ValueError naming the bad field."""

    def __str__(self) -> str:  # stable text, used by OpenSpiel's clone/serialise checks
        return json.dumps(self.to_json(), sort_keys=True)


def bit_indices(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first: the cards of a hand held as a bit
    mask (bit i = card i of the engine's deck)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def rng_state_to_json(rng: random.Random) -> list[Any]:
    """``random.Random.getstate()`` as plain JSON data."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Any) -> random.Random:
    """Inverse of :func:`rng_state_to_json`."""
    try:
        version, internal, gauss = data
        rng = random.Random()
        rng.setstate((int(version), tuple(int(x) for x in internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"rng: not a saved random state ({exc})") from None
    return rng


class Bot(Protocol):
    """Chooses an action for the current player of a game (the bots of :mod:`cards.bots`,
    :mod:`cards.mccfr`, :mod:`cards.equilibrium` and OpenSpiel's, seated by
    :mod:`cards.openspiel_bots`)."""

    name: str

    def act(self, game: CardGame, rng: random.Random | None = None) -> Action:
        """One of ``game.legal_actions()`` for ``game.to_play``.

        ``rng`` overrides the bot's own seeded generator for this one decision.
        """
        ...
