"""Observation and information-state tensors of the card games, for OpenSpiel's learning algorithms.

Each game has a fixed *layout*: a list of named pieces, each a small block of floats with a shape.
The tensor is the pieces one after another (OpenSpiel sees them as ``observation.dict[name]``).
Values are 0/1 flags (one-hot positions, card sets) or counts scaled into [0, 1]. Cards are indexed
as each engine numbers them (:data:`cards.sumo.DECK`, :data:`cards.sumo_card_game.NAMES`,
:data:`cards.sumida_river.CARD_NAMES`); seats are absolute (seat 0 first), with the viewing seat
given by the piece ``seat``.

* The **observation tensor** (imperfect recall) is what the seat sees now: its hand, the table and
  the public counts.
* The **information-state tensor** (perfect recall) adds what the seat remembers. SUMO's adds the
  whole history of the current deal (reveals and tricks in order), so two different histories of
  one deal never share a tensor. The other two games can last arbitrarily long, so theirs add a
  fixed-size summary of the memory that matters instead: who played which card this round
  (Sumida River), which hidden cards can still be in the deck (Sumo Card Game).

Every piece is computed from the engine state, but only from what the seat may know: the tests
re-deal every hidden card (``resample_hidden``) and check that no tensor changes.
``docs/openspiel.md`` lists every piece (and a test checks that it does).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cards import sumida_river as sr
from cards import sumo as su
from cards import sumo_card_game as scg
from cards.api import CardGame, bit_indices

Views = dict[str, np.ndarray]


@dataclass(frozen=True)
class Piece:
    """One named block of a tensor."""

    name: str
    shape: tuple[int, ...]
    what: str  # one line for the documentation

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


@dataclass(frozen=True)
class Layout:
    """The pieces of one tensor, in order."""

    pieces: tuple[Piece, ...]

    @property
    def size(self) -> int:
        return sum(p.size for p in self.pieces)

    def views(self, tensor: np.ndarray) -> Views:
        """Reshaped views into ``tensor`` (no copies), one per piece."""
        out: Views = {}
        i = 0
        for p in self.pieces:
            out[p.name] = tensor[i : i + p.size].reshape(p.shape)
            i += p.size
        return out


@dataclass(frozen=True)
class TensorSpec:
    """How to build one game's two tensors: the layouts and the function that fills them."""

    observation: Callable[[int], Layout]  # players -> layout
    information_state: Callable[[int], Layout]
    fill: Callable[[CardGame, int, Views, bool], None]  # (game, seat, views, perfect_recall)


def _onehot(v: np.ndarray, i: int | None) -> None:
    if i is not None and 0 <= i < v.shape[-1]:
        v[i] = 1.0


def _cards(v: np.ndarray, ids: Any) -> None:
    for c in ids:
        v[c] = 1.0


# ----- SUMO ---------------------------------------------------------------------------------------------

_SUMO_ID = {c: i for i, c in enumerate(su.DECK)}
_SUMO_OBS = (
    Piece("seat", (2,), "the viewing seat"),
    Piece("phase", (3,), "reveal, play, over"),
    Piece("to_play", (2,), "the seat to act (all 0 once over)"),
    Piece("colours", (1,), "1 when playing the 'suits' reading of colours"),
    Piece("hand", (20,), "own cards"),
    Piece("hand_sizes", (2,), "cards in each seat's hand / 8"),
    Piece("my_face_down", (20,), "own face-down reveal card (seat 0, while seat 1 chooses)"),
    Piece("face_down", (1,), "seat 0 has a face-down reveal card waiting"),
    Piece("set_aside", (2, 20), "cards each seat revealed this deal"),
    Piece("lead", (20,), "the card led to the current trick"),
    Piece("leader", (2,), "the leader of the current trick (0 while revealing)"),
    Piece("played", (2, 20), "cards each seat played to finished tricks this deal"),
    Piece("void", (2, 4), "suits (C, D, H, S) each seat has shown it lacks"),
    Piece("wrestler", (5,), "the wrestlers' place: -2 (out, seat 0's side) ... +2"),
)
_SUMO_MEMORY = (
    Piece("deal", (4,), "which deal this is: 1, 2, 3, 4 or later"),
    Piece("dealt", (20,), "own hand as dealt this deal"),
    Piece("reveals", (su.HAND_SIZE, 2, 20), "the reveal rounds of this deal, in order: each seat's card"),
    Piece("tricks", (su.HAND_SIZE, 42), "the tricks of this deal, in order: leader (2), lead (20), follow (20)"),
)


def _fill_sumo(g: Any, p: int, v: Views, recall: bool) -> None:
    _onehot(v["seat"], p)
    _onehot(v["phase"], g.phase)
    _onehot(v["to_play"], g.to_play)
    v["colours"][0] = 1.0 if g.colours == "suits" else 0.0
    ids = _SUMO_ID
    _cards(v["hand"], (ids[c] for c in g.hands[p]))
    v["hand_sizes"][:] = [len(g.hands[0]) / su.HAND_SIZE, len(g.hands[1]) / su.HAND_SIZE]
    if g.face_down is not None:
        v["face_down"][0] = 1.0
        if p == 0:
            v["my_face_down"][ids[g.face_down]] = 1.0
    for s in (0, 1):
        _cards(v["set_aside"][s], (ids[c] for c in g.set_aside[s]))
        for suit in g.void[s]:
            v["void"][s, su.SUITS.index(suit)] = 1.0
    if g.lead is not None:
        v["lead"][ids[g.lead]] = 1.0
    if g.phase != su.REVEAL_PHASE:
        _onehot(v["leader"], g.leader)
    for leader, lead, follow, _winner in g.tricks:
        v["played"][leader, ids[lead]] = 1.0
        v["played"][1 - leader, ids[follow]] = 1.0
    _onehot(v["wrestler"], g.wrestler + 2)
    if not recall:
        return
    _onehot(v["deal"], min(g.deal_no, 4) - 1)
    dealt = list(g.hands[p]) + list(g.set_aside[p])
    dealt += [t[1] if t[0] == p else t[2] for t in g.tricks]
    if g.lead is not None and g.leader == p:
        dealt.append(g.lead)
    if g.face_down is not None and p == 0:
        dealt.append(g.face_down)
    _cards(v["dealt"], (ids[c] for c in dealt))
    for k, (c0, c1) in enumerate(zip(g.set_aside[0], g.set_aside[1], strict=True)):
        v["reveals"][k, 0, ids[c0]] = 1.0
        v["reveals"][k, 1, ids[c1]] = 1.0
    for k, (leader, lead, follow, _winner) in enumerate(g.tricks):
        row = v["tricks"][k]
        row[leader] = 1.0
        row[2 + ids[lead]] = 1.0
        row[22 + ids[follow]] = 1.0


SUMO = TensorSpec(lambda n: Layout(_SUMO_OBS), lambda n: Layout(_SUMO_OBS + _SUMO_MEMORY), _fill_sumo)


# ----- Sumo Card Game -------------------------------------------------------------------------------------

_SCG_CARDS = 54
_SCG_OBS = (
    Piece("seat", (2,), "the viewing seat"),
    Piece("phase", (4,), "attack, challenge-ring, challenge-sumo, over"),
    Piece("to_play", (2,), "the seat to act (all 0 once over)"),
    Piece("jokers", (1,), "1 when the two Jokers are in the game"),
    Piece("draw_first", (2,), "the seat that draws first"),
    Piece("hand", (_SCG_CARDS,), "own attack cards"),
    Piece("chosen", (_SCG_CARDS,), "own face-down attack play, until the reveal"),
    Piece("opponent_chosen", (1,), "the other seat has placed its attack face down"),
    Piece("opponent_hand_size", (1,), "cards in the other seat's hand / 3"),
    Piece("position", (scg.COLUMNS + 2,), "the sumo cards' column: beyond 0, columns 0-6, beyond 6"),
    Piece("ring_up", (scg.COLUMNS,), "columns whose ring cards are face up"),
    Piece("ring", (2, scg.COLUMNS, 14), "face-up ring cards by seat and column: rank 2..A, or Joker"),
    Piece("sumo", (2, 14), "face-up sumo cards by seat: rank 2..A, or Joker"),
    Piece("plays", (2, _SCG_CARDS), "each seat's revealed attack play this round"),
    Piece("values", (2, 13), "each seat's attack value this round: 2..14"),
    Piece("push", (6,), "the push to answer: pusher (2), distance 1-3 (3), would put the pushed out (1)"),
    Piece("table", (_SCG_CARDS,), "cards on the table this round (attacks, wild draws, challenges)"),
    Piece("discard", (_SCG_CARDS,), "the discard pile"),
    Piece("deck_size", (1,), "cards in the deck / 54"),
    Piece("unseen", (_SCG_CARDS,), "cards of the game this seat does not see anywhere now"),
)
_SCG_MEMORY = (
    Piece("reshuffles", (1,), "reshuffles so far / 10 (at most 1)"),
    Piece("deck_pool", (_SCG_CARDS,),
          "hidden cards that may be in the deck: the deck is the discard pile of the last reshuffle, "
          "less what was drawn since"),
    Piece("old_pool", (_SCG_CARDS,), "hidden cards of earlier decks: face-down ring and sumo cards, older opponent cards"),
)


def _scg_rank(c: int) -> int:
    return 13 if c >= 52 else scg.RANK[c] - 2


def _fill_scg(g: Any, p: int, v: Views, recall: bool) -> None:
    other = 1 - p
    _onehot(v["seat"], p)
    _onehot(v["phase"], g.phase)
    _onehot(v["to_play"], g.to_play)
    v["jokers"][0] = 1.0 if g.jokers else 0.0
    _onehot(v["draw_first"], g.draw_first)
    _cards(v["hand"], g.hands[p])
    if g.pending[p] is not None:
        _cards(v["chosen"], g.pending[p])
    v["opponent_chosen"][0] = 1.0 if g.pending[other] is not None else 0.0
    v["opponent_hand_size"][0] = len(g.hands[other]) / scg.HAND_SIZE
    _onehot(v["position"], min(max(g.position + 1, 0), scg.COLUMNS + 1))
    seen = set(g.hands[p]) | set(g.table) | set(g.discard)
    for col in range(scg.COLUMNS):
        if g.ring_up[col]:
            v["ring_up"][col] = 1.0
            for s in (0, 1):
                c = g.ring[s][col]
                v["ring"][s, col, _scg_rank(c)] = 1.0
                seen.add(c)
    if g.sumo_up:
        for s in (0, 1):
            v["sumo"][s, _scg_rank(g.sumo[s])] = 1.0
        seen.update(g.sumo)
    for s in (0, 1):
        if g.plays[s] is not None:
            _cards(v["plays"][s], g.plays[s])
        if g.values is not None:
            v["values"][s, g.values[s] - 2] = 1.0
    if g.phase in (scg.RING, scg.SUMO):
        v["push"][g.pusher] = 1.0
        v["push"][1 + g.distance] = 1.0
        v["push"][5] = 1.0 if g._push_is_fatal() else 0.0
    _cards(v["table"], g.table)
    _cards(v["discard"], g.discard)
    v["deck_size"][0] = len(g.deck) / _SCG_CARDS
    total = _SCG_CARDS if g.jokers else 52
    v["unseen"][:total] = 1.0
    for c in seen:
        v["unseen"][c] = 0.0
    if not recall:
        return
    v["reshuffles"][0] = min(g.reshuffles, 10) / 10
    # The same epochs resample_hidden keeps apart (see SumoCardGame.resample_hidden).
    _cards(v["deck_pool"], g.deck)
    for c, epoch in zip(g.hands[other], g.hand_epochs[other], strict=True):
        (v["deck_pool"] if epoch == g.reshuffles else v["old_pool"])[c] = 1.0
    for col in range(scg.COLUMNS):
        if not g.ring_up[col]:
            v["old_pool"][g.ring[0][col]] = v["old_pool"][g.ring[1][col]] = 1.0
    if not g.sumo_up:
        _cards(v["old_pool"], g.sumo)
    if g.reshuffles == 0:  # one deck so far: every hidden card is of the same epoch
        v["deck_pool"] += v["old_pool"]
        v["old_pool"][:] = 0.0


SCG = TensorSpec(lambda n: Layout(_SCG_OBS), lambda n: Layout(_SCG_OBS + _SCG_MEMORY), _fill_scg)


# ----- Sumida River ---------------------------------------------------------------------------------------

_SR_PHASES = sr.PHASES
_SR_MOST_IN_HAND = 13 + 2 * sr.WILDS_PER_COLOUR


def _sr_obs(n: int) -> tuple[Piece, ...]:
    return (
        Piece("seat", (n,), "the viewing seat"),
        Piece("round", (n,), "the round (one per player)"),
        Piece("phase", (len(_SR_PHASES),), "declare, add, solo, play, discard, end-choice, over"),
        Piece("to_play", (n,), "the seat to act (all 0 once over)"),
        Piece("hand", (52,), "own natural cards"),
        Piece("my_a_cards", (2,), "own Black A and Red A cards in hand / 6"),
        Piece("hand_sizes", (n,), "cards (A cards included) in each seat's hand / 25 (13 cards and every A card)"),
        Piece("a_in_hand", (n, 2), "Black and Red A cards in each seat's hand / 6"),
        Piece("a_on_table", (n, 2), "Black and Red A cards on the table in front of each seat / 6"),
        Piece("a_out_of_game", (2,), "Black and Red A cards out of the game / 6"),
        Piece("scores", (n,), "each seat's points / (3 x players)"),
        Piece("known", (n + 1, 52), "natural cards this seat knows to be in each other hand (last row: undealt)"),
        Piece("cleared", (52,), "cards of finished tricks and face-up discards this round"),
        Piece("trick_cards", (52,), "natural cards in the current trick"),
        Piece("trick_a_cards", (2,), "Black and Red A cards in the current trick / 6"),
        Piece("trick_used", (8,), "meld types already used in this trick (in cards.sumida_river.MELD_TYPES order)"),
        Piece("rank_to_meet", (14,), "the rank to meet, 3 ... 2, or (last) a new trick to lead"),
        Piece("last_player", (n,), "the seat that melded last in this trick"),
        Piece("passed", (n,), "seats that passed in this trick"),
        Piece("finished", (n, n), "each seat's place, once it has shed out this round"),
        Piece("deciders", (n,), "seats deciding Keep or Trade now"),
        Piece("declared", (n,), "seats that have declared (not what)"),
        Piece("traders", (n,), "seats trading, once the declarations are revealed"),
        Piece("my_declaration", (2,), "own secret declaration: keep, trade"),
        Piece("my_add", (2,), "own secret choice of A card to add: black, red"),
        Piece("undealt_count", (1,), "natural cards left undealt / 13"),
    )


def _sr_memory(n: int) -> tuple[Piece, ...]:
    return (
        Piece("played_by", (n, 52), "natural cards each seat melded or discarded this round"),
        Piece("trick_plays", (8, n), "in this trick, which seat played each meld type"),
    )


def _fill_sr(g: Any, p: int, v: Views, recall: bool) -> None:
    n = g.num_players
    _onehot(v["seat"], p)
    _onehot(v["round"], g.round - 1)
    _onehot(v["phase"], _SR_PHASES.index(g.phase))
    _onehot(v["to_play"], g.to_play)
    hand = g.hands[p]
    _cards(v["hand"], bit_indices(hand))
    v["my_a_cards"][:] = [g.hb[p] / 6, g.hr[p] / 6]
    for q in range(n):
        v["hand_sizes"][q] = (bin(g.hands[q]).count("1") + g.hb[q] + g.hr[q]) / _SR_MOST_IN_HAND
        v["a_in_hand"][q] = [g.hb[q] / 6, g.hr[q] / 6]
        v["a_on_table"][q] = [g.tb[q] / 6, g.tr[q] / 6]
        v["scores"][q] = g.scores[q] / (3 * n)
    v["a_out_of_game"][:] = [g.gone[0] / 6, g.gone[1] / 6]
    for q in range(n + 1):
        if q != p:
            _cards(v["known"][q], bit_indices(g.known_cards(p, q)))
    _cards(v["cleared"], bit_indices(g.cleared))
    _cards(v["trick_cards"], bit_indices(g.trick_mask))
    v["trick_a_cards"][:] = [g.trick_w[0] / 6, g.trick_w[1] / 6]
    for t in range(8):
        if (g.blocked >> t) & 1:
            v["trick_used"][t] = 1.0
    v["rank_to_meet"][g.cur if g.cur >= 0 else 13] = 1.0
    _onehot(v["last_player"], g.top if g.top >= 0 else None)
    for q in range(n):
        if (g.passed >> q) & 1:
            v["passed"][q] = 1.0
    for place, q in enumerate(g.finished):
        v["finished"][q, place] = 1.0
    if g.phase in (sr.DECLARE, sr.ADD, sr.SOLO):
        for q in g.deciders:
            v["deciders"][q] = 1.0
            if g.decl[q] >= 0:
                v["declared"][q] = 1.0
        if g.phase != sr.DECLARE:
            for q in g.traders:
                v["traders"][q] = 1.0
        _onehot(v["my_declaration"], g.decl[p] if g.decl[p] >= 0 else None)
        _onehot(v["my_add"], g.adds[p] if g.adds[p] >= 0 else None)
    v["undealt_count"][0] = bin(g.undealt).count("1") / 13
    if not recall:
        return
    # The events of this round a seat may see: who melded and discarded what.
    for e in reversed(g.events):
        kind = e["type"]
        if kind == "round":
            break
        if kind == "meld":
            _cards(v["played_by"][e["seat"]], (sr.CARD_INDEX[c] for c in e["cards"] if c in sr.CARD_INDEX))
        elif kind == "discard" and e["card"] in sr.CARD_INDEX:
            v["played_by"][e["seat"], sr.CARD_INDEX[e["card"]]] = 1.0
    for seat, t, _action, _rank in g.plays:
        v["trick_plays"][t, seat] = 1.0


SUMIDA = TensorSpec(lambda n: Layout(_sr_obs(n)), lambda n: Layout(_sr_obs(n) + _sr_memory(n)), _fill_sr)

#: Tensor specs by card-game name.
SPECS: dict[str, TensorSpec] = {"sumo": SUMO, "sumo-card-game": SCG, "sumida-river": SUMIDA}


def layout(game_name: str, players: int, perfect_recall: bool) -> Layout:
    """The layout of one game's observation (``perfect_recall=False``) or information-state tensor."""
    spec = SPECS[game_name]
    return spec.information_state(players) if perfect_recall else spec.observation(players)


def encode(game: CardGame, player: int, perfect_recall: bool) -> np.ndarray:
    """A fresh tensor of ``game`` seen by ``player`` (for tests and tools; OpenSpiel fills its own)."""
    lay = layout(game.name, game.num_players, perfect_recall)
    tensor = np.zeros(lay.size, np.float32)
    SPECS[game.name].fill(game, player, lay.views(tensor), perfect_recall)
    return tensor


def describe(pieces: Sequence[Piece]) -> list[str]:
    """Markdown table rows for the documentation: name, shape, size, meaning."""
    return [f"| `{p.name}` | {' x '.join(map(str, p.shape))} | {p.size} | {p.what} |" for p in pieces]
