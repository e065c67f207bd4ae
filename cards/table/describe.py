"""The move log and the summaries in plain words, from the events a seat may see.

:func:`log_lines` turns ``observation(seat)["events"]`` (already filtered by the engine: a secret
event carries ``"to"`` and reaches only those seats) into sentences such as "Blue (K♠, 13) beats
Red (9♥, 9): a Face card pushes a Number card 2 columns". :func:`summaries` picks the events that
end a round or the game and turns them into :class:`Summary` records for the table's pop-ups.

Nothing here looks at a game's hidden state: only at events the viewer was allowed to see.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cards.table.config import table_data
from cards.table.faces import pretty, pretty_list

Event = dict[str, Any]

#: SUMO's sumo moves, in words a player would use at the table.
SUMO_MOVES = {
    "abise-taoshi": "Abise-taoshi: a 4 of the same colour as the led 1",
    "hikiotoshi": "Hikiotoshi: a 1 of the same colour as the led 5",
    "wucchari": "Wucchari: a 2 of the other colour, with the wrestlers at the player's own edge",
}


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def join_names(names: Sequence[str]) -> str:
    names = list(names)
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def column_word(col: int) -> str:
    """Sumo Card Game columns are 0..6 in the engine and 1..7 on the table."""
    return f"column {col + 1}"


def sumo_place(pos: int, names: Sequence[str]) -> str:
    """SUMO's wrestler position in words (seat 0's edge is on the left)."""
    return {-2: f"out past {names[0]}'s edge", -1: f"{names[0]}'s edge", 0: "the centre",
            1: f"{names[1]}'s edge", 2: f"out past {names[1]}'s edge"}.get(pos, str(pos))


def meld_label(meld_type: str) -> str:
    for s in table_data().sumida_spaces:
        if s.type == meld_type:
            return s.label.lower()
    return meld_type


# ----- Sumo Card Game ------------------------------------------------------------------------------
def _scg(e: Event, viewer: int, names: Sequence[str], ctx: dict[str, Any]) -> str | None:
    g = "sumo-card-game"
    t = e["type"]
    if t == "deal":
        extra = " (with the two Jokers)" if e.get("jokers") else ""
        return (f"New game{extra}: 2 x 7 ring cards and two sumo cards dealt face down, three attack "
                f"cards each. {names[e['draw_first']]} draws first.")
    if t == "arranged":
        return f"A set-up position: the sumo cards stand at {column_word(e['position'])}."
    if t == "place":
        return f"{names[e['seat']]} places attack cards face down."
    if t == "reveal":
        parts = [f"{names[s]} {pretty_list(p, g)}" for s, p in enumerate(e["plays"])]
        return "Reveal: " + " · ".join(parts) + "."
    if t == "wild":
        what = {"attack": "wild card", "ring": "ring card (a 2)", "sumo": "sumo card (a 2)"}.get(
            e["source"], e["source"])
        drawn = pretty_list(e["drawn"], g) or "nothing"
        return f"{names[e['seat']]}'s {what} draws {drawn}: it counts {e['value']}."
    if t == "tie":
        return f"Tie at {e['values'][0]}: nobody is pushed."
    if t == "clash":
        p = e["pusher"]
        q = 1 - p
        v, cl = e["values"], e["classes"]
        how = (f"{cl[p]} over {cl[q]}" if cl[p] != cl[q] else f"same class ({cl[p]})")
        return (f"{names[p]} ({v[p]}) beats {names[q]} ({v[q]}): {how}, a push of "
                f"{plural(e['distance'], 'column')}.")
    if t == "accept":
        return f"{names[e['seat']]} accepts the push."
    if t == "challenge":
        s = e["seat"]
        c, v = e["cards"], e["values"]
        cards = " vs ".join(f"{names[i]} {pretty(c[i], g)} ({v[i]})" for i in (0, 1))
        result = "the push is cancelled" if e["success"] else "the challenge fails"
        where = f"of {column_word(e['column'])}" if e["kind"] == "ring" else ""
        return f"{names[s]} challenges with the {e['kind']} cards {where}: {cards}: {result}.".replace(
            "  ", " ").replace(" :", ":")
    if t == "push":
        to = e["to_column"]
        if 0 <= to <= 6:
            return (f"{names[e['pusher']]} pushes: the sumo cards move {plural(e['distance'], 'column')} "
                    f"to {column_word(to)}.")
        return f"{names[e['pusher']]} pushes the sumo cards out of the ring!"
    if t == "game_over":
        return f"{names[e['winner']]} wins the game."
    if t == "draw":
        if e["seat"] == viewer:
            return None  # the private "draw-cards" line says which
        return f"{names[e['seat']]} draws {plural(e['count'], 'card')}."
    if t == "draw-cards":
        return f"You ({names[e['seat']]}) draw {pretty_list(e['cards'], g)}."
    if t == "reshuffle":
        return f"The deck is empty: the discard pile ({plural(e['count'], 'card')}) is shuffled into a new deck."
    return None  # discard, cancel: the lines above already say it


# ----- SUMO ----------------------------------------------------------------------------------------
def _sumo(e: Event, viewer: int, names: Sequence[str], ctx: dict[str, Any]) -> str | None:
    g = "sumo"
    t = e["type"]
    if t == "deal":
        ctx["lead"] = False
        first = "" if e["deal"] == 1 else " again"
        return f"The cards are dealt{first}: eight each, four stay face down out of play."
    if t == "hand":
        return f"Your hand ({names[e['seat']]}): {pretty_list(e['cards'], g)}."
    if t == "face_down":
        return f"{names[e['seat']]} puts a card face down to decide who leads."
    if t == "face_down_card":
        return f"You ({names[e['seat']]}) chose {pretty(e['card'], g)} to reveal."
    if t == "reveal":
        c = e["cards"]
        return f"Reveal: {names[0]} {pretty(c[0], g)} · {names[1]} {pretty(c[1], g)}."
    if t == "reveal_tie":
        return "Equal ranks: both reveal again."
    if t == "redeal":
        return "Every card was revealed without a leader: the cards are dealt again."
    if t == "first_leader":
        return f"{names[e['seat']]} leads the first trick."
    if t == "play":
        if not ctx.get("lead"):
            ctx["lead"] = True
            return f"{names[e['seat']]} leads {pretty(e['card'], g)}."
        ctx["lead"] = False
        return f"{names[e['seat']]} follows with {pretty(e['card'], g)}."
    if t == "sumo_move":
        return f"{names[e['seat']]} makes a sumo move! {SUMO_MOVES.get(e['move'], e['move'])}."
    if t == "trick":
        return f"{names[e['winner']]} wins the trick: the wrestlers go to {sumo_place(e['wrestler'], names)}."
    if t == "game_over":
        return f"{names[e['winner']]} wins ({sumo_reason(e['reason'])})."
    return None


def sumo_reason(reason: str) -> str:
    if reason in SUMO_MOVES:
        return SUMO_MOVES[reason]
    return {"pushed out": "pushed the wrestlers out of the ring",
            "final trick": "won the last trick"}.get(reason, reason)


# ----- Sumida River --------------------------------------------------------------------------------
def _sumida(e: Event, viewer: int, names: Sequence[str], ctx: dict[str, Any]) -> str | None:
    g = "sumida-river"
    t = e["type"]
    if t == "setup":
        ctx["players"] = e["players"]
        parts = [f"{names[p]} {b} black + {r} red" for p, (b, r) in enumerate(e["a_cards"])]
        return "A cards set out on the table: " + ", ".join(parts) + "."
    if t == "round":
        n = ctx.get("players", len(names))
        return f"Round {e['round']} of {n}: 13 cards each. Trade phase: declare Keep or Trade."
    if t == "deal":
        return None  # the hand is on screen
    if t == "declare":
        return f"You ({names[e['seat']]}) declare {e['choice'].upper()} (secret until all have declared)."
    if t == "declarations":
        tr = [names[p] for p in e["trade"]]
        if not tr:
            return "Declarations: everybody keeps."
        verb = "trades" if len(tr) == 1 else "trade"
        return f"Declarations: {join_names(tr)} {verb}; the others keep."
    if t == "add-choice":
        return f"You ({names[e['seat']]}) will add a {e['colour']} A card."
    if t == "trade":
        adds = ", ".join(f"{names[p]} adds a {c} A" for p, c in e["adds"])
        passes = ", ".join(f"{names[a]} → {names[b]}" for a, b in e["passes"])
        return f"Trade: {adds}; hands pass {passes}."
    if t == "receive":
        return f"You ({names[e['seat']]}) receive {names[e['from']]}'s hand."
    if t == "solo-add":
        return (f"{names[e['seat']]}, the only trader, adds {e['black']} Black A and {e['red']} Red A "
                "and keeps the hand.")
    if t == "start-player":
        who = names[e["seat"]]
        return {"red-3": f"{who} holds the 3♦ and leads the first trick.",
                "lowest-score": f"The 3♦ was not dealt: {who}, lowest score, leads.",
                "random-among-lowest": f"The 3♦ was not dealt: {who}, drawn among the lowest scores, leads."
                }.get(e["reason"], f"{who} leads.")
    if t == "pass":
        return f"{names[e['seat']]} passes (out of this trick)."
    if t == "meld":
        return (f"{names[e['seat']]} plays a {meld_label(e['meld'])}: {pretty_list(e['cards'], g)} "
                f"(rank {e['rank'].replace('T', '10')}).")
    if t == "out":
        return f"{names[e['seat']]} has shed every card: place {e['place']}."
    if t == "trick-won":
        early = " (ended at once after a black four of a kind)" if e.get("early") else ""
        return f"{names[e['seat']]} wins the trick{early}."
    if t == "no-discard":
        return f"{names[e['seat']]} discards nothing."
    if t == "discard":
        return f"{names[e['seat']]} discards {pretty(e['card'], g)} face up."
    if t == "play-on":
        return f"{names[e['seat']]} plays on after the black four."
    if t == "round-end":
        order = ", ".join(f"{i + 1}. {names[p]}" for i, p in enumerate(e["places"]))
        return f"Round {e['round']} over: {order}."
    if t == "game-end":
        w = [names[p] for p in e["winners"]]
        return f"Game over: {join_names(w)} {'wins' if len(w) == 1 else 'share the victory'}."
    return None


_DESCRIBERS = {"sumo-card-game": _scg, "sumo": _sumo, "sumida-river": _sumida}


def log_lines(game: str, events: Sequence[Event], viewer: int, names: Sequence[str]) -> list[str]:
    """Every event ``viewer`` may see, in words (events that add nothing are skipped)."""
    log = Log(game, viewer, names)
    log.feed(events)
    return log.lines


class Log:
    """A move log kept up to date as events arrive (describing only the new ones each time)."""

    def __init__(self, game: str, viewer: int, names: Sequence[str]) -> None:
        fn = _DESCRIBERS.get(game)
        if fn is None:
            raise ValueError(f"log: no descriptions for game {game!r}")
        self._fn = fn
        self.viewer = viewer
        self.names = list(names)
        self._ctx: dict[str, Any] = {}
        self.seen = 0  # events of the game's full list already read
        self.lines: list[str] = []

    def feed(self, events: Sequence[Event]) -> None:
        """Read the events from ``seen`` on (``events`` is the game's whole, growing list)."""
        for e in events[self.seen:]:
            if "to" in e and self.viewer not in e["to"]:
                continue  # never shown to this seat
            line = self._fn(e, self.viewer, self.names, self._ctx)
            if line:
                self.lines.append(line)
        self.seen = len(events)


# ----- summaries -----------------------------------------------------------------------------------
@dataclass
class Summary:
    """A round's or the game's result, shown as a pop-up. ``table`` rows start with a header."""

    title: str
    lines: list[str] = field(default_factory=list)
    table: list[list[str]] = field(default_factory=list)
    final: bool = False


def summaries(game: str, events: Sequence[Event], names: Sequence[str], start: int = 0) -> list[Summary]:
    """Summaries for the public round-end and game-end events at index ``start`` or later."""
    out = []
    for i in range(start, len(events)):
        e = events[i]
        if "to" in e:
            continue
        t = e["type"]
        s: Summary | None = None
        if game == "sumo-card-game" and t == "game_over":
            s = _scg_summary(events[: i + 1], names)
        elif game == "sumo" and t == "game_over":
            s = _sumo_summary(events[: i + 1], names)
        elif game == "sumida-river" and t == "round-end":
            s = _sumida_round(e, events[: i + 1], names)
        elif game == "sumida-river" and t == "game-end":
            s = _sumida_game(e, events[: i + 1], names)
        if s is not None:
            out.append(s)
    return out


def _scg_summary(events: Sequence[Event], names: Sequence[str]) -> Summary:
    over = events[-1]
    w = over["winner"]
    rounds = sum(1 for e in events if e["type"] == "reveal")
    pushes = [0, 0]
    challenges = [[0, 0], [0, 0]]  # per seat: [made, succeeded]
    last_push = None
    for e in events:
        if e["type"] == "push":
            pushes[e["pusher"]] += 1
            last_push = e
        elif e["type"] == "challenge":
            challenges[e["seat"]][0] += 1
            challenges[e["seat"]][1] += int(e["success"])
    lines = []
    if last_push is not None:
        lines.append(f"{names[w]} pushed the sumo cards out of the ring in round {rounds}.")
    table = [["", "pushes", "challenges", "succeeded"]]
    for s in (0, 1):
        table.append([names[s], str(pushes[s]), str(challenges[s][0]), str(challenges[s][1])])
    return Summary(f"{names[w]} wins!", lines, table, final=True)


def _sumo_summary(events: Sequence[Event], names: Sequence[str]) -> Summary:
    over = events[-1]
    w = over["winner"]
    won = [0, 0]
    for e in events:
        if e["type"] == "trick":
            won[e["winner"]] += 1
    lines = [f"{names[w]} {sumo_reason(over['reason'])}."]
    table = [["", "tricks won"], [names[0], str(won[0])], [names[1], str(won[1])]]
    return Summary(f"{names[w]} wins!", lines, table, final=True)


def _sumida_points_history(events: Sequence[Event], n: int) -> list[list[int]]:
    return [e["points"] for e in events if e["type"] == "round-end"]


def _sumida_round(e: Event, events: Sequence[Event], names: Sequence[str]) -> Summary:
    n = len(e["points"])
    table = [["place", "player", "points", "total"]]
    for i, p in enumerate(e["places"]):
        table.append([str(i + 1), names[p], f"+{e['points'][p]}", str(e["scores"][p])])
    rounds = next((ev["players"] for ev in events if ev["type"] == "setup"), n)
    lines = [f"Round {e['round']} of {rounds}."]
    if e["round"] < rounds:
        lines.append("A cards still on the table carry over; the cards are dealt again.")
    return Summary(f"Round {e['round']} over", lines, table)


def _sumida_game(e: Event, events: Sequence[Event], names: Sequence[str]) -> Summary:
    n = len(e["scores"])
    hist = _sumida_points_history(events, n)
    header = ["seat"] + [f"R{i + 1}" for i in range(len(hist))] + ["total", "A left"]
    order = sorted(range(n), key=lambda p: (-e["scores"][p], e["a_cards_left"][p], p))
    table = [header]
    for p in order:
        table.append([names[p]] + [str(h[p]) for h in hist] + [str(e["scores"][p]), str(e["a_cards_left"][p])])
    w = [names[p] for p in e["winners"]]
    top = [p for p in range(n) if e["scores"][p] == max(e["scores"])]
    lines = []
    if len(top) > 1 and len(e["winners"]) < len(top):
        lines.append("Tied on points: the fewest A cards left on the table breaks the tie.")
    elif len(e["winners"]) > 1:
        lines.append("Tied on points and on A cards left: a shared victory.")
    title = f"{w[0]} wins!" if len(w) == 1 else f"Shared victory: {join_names(w)}"
    return Summary(title, lines, table, final=True)


# ----- the situation, for the terminal -------------------------------------------------------------
#: Suit letters in words (SUMO's voids: the suits a player has shown they lack).
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_CARD = re.compile(r"\b(?:10|[2-9TJQKA1]|W[BR]|JK)[CDHS]?\b")


def action_words(game: str, action: str) -> str:
    """A legal action with its cards written as a player reads them ("play 10♥", "meld red
    triple 9♥ 9♦ 9♣"); the action's own words otherwise unchanged, so typing it still works."""
    head, _, rest = action.partition(" ")
    if not rest:
        return action
    if game == "sumida-river" and head == "meld":
        kind, _, cards = rest.partition(" ")
        return f"meld {meld_label(kind)}: {pretty_list(cards.split(','), game)}"
    words = [pretty_list(w.split("+"), game, "+") if all(_CARD.fullmatch(c) for c in w.split("+")) else w
             for w in rest.split(" ")]
    return f"{head} " + " ".join(words)


def situation(game: str, obs: dict[str, Any], names: Sequence[str]) -> list[str]:
    """What the seat ``obs`` was made for sees, in sentences: its hand, the others' card counts,
    the ring or the trick, the scores. The terminal's view of the table (``kabuto cards play``)."""
    me = int(obs["seat"])
    you = f"{names[me]} (you)"
    hand = pretty_list(list(obs.get("hand") or []), game) or "no cards"
    if game == "sumo":
        lines = [f"You are {you}. Your hand: {hand}.",
                 "Cards in hand: " + ", ".join(f"{names[s]} {n}" for s, n in enumerate(obs["hand_sizes"])) + ".",
                 f"The wrestler stands at {sumo_place(int(obs['wrestler']), names)}."]
        if obs.get("trick"):
            lines.append(f"This trick: {names[obs['leader']]} led {pretty_list(obs['trick'], game)}.")
        elif obs.get("leader") is not None:
            lines.append(f"{names[obs['leader']]} leads the next trick.")
        for s, suits in enumerate(obs.get("void") or []):
            if suits:
                lines.append(f"{names[s]} has shown no " + " or ".join(SUIT_WORDS.get(c, c) for c in suits) + ".")
        return lines
    if game == "sumo-card-game":
        other = 1 - me
        held = plural(int(obs["opponent_hand_size"]), "attack card")
        lines = [f"You are {you}. Your attack cards: {hand}.",
                 f"{names[other]} holds {held}" + (", the face-down choice among them." if obs["opponent_chosen"]
                                                   else "."),
                 f"The sumo cards stand on {column_word(int(obs['position']))} of 7 "
                 f"({names[0]} pushes towards column 1, {names[1]} towards column 7).",
                 f"Deck: {plural(int(obs['deck_size']), 'card')}; discard pile: "
                 f"{pretty_list(obs['discard'], game) or 'empty'}."]
        if obs.get("chosen"):
            lines.append(f"Your face-down choice: {pretty_list(obs['chosen'], game)}.")
        p = obs.get("push")
        if p:
            where = "out of the ring" if not 0 <= p["target"] < 7 else column_word(p["target"])
            lines.append(f"{names[p['pusher']]} pushes {names[p['pushed']]} {plural(p['distance'], 'column')}, "
                         f"to {where}" + (": it would end the game." if p["fatal"] else "."))
        return lines
    if game == "sumida-river":
        lines = [f"You are {you}, round {obs['round']} of {obs['rounds']}. Your hand: {hand}.",
                 "Cards in hand: " + ", ".join(f"{names[s]} {n}" for s, n in enumerate(obs["hand_sizes"])) + ".",
                 "A cards on the table: " + ", ".join(f"{names[s]} {b} black {r} red"
                                                      for s, (b, r) in enumerate(obs["a_on_table"])) + ".",
                 "Scores: " + ", ".join(f"{names[s]} {n}" for s, n in enumerate(obs["scores"])) + "."]
        trick = obs.get("trick") or {}
        for play in trick.get("plays", []):
            lines.append(f"  {names[play['seat']]} played {meld_label(play['meld'])}: "
                         f"{pretty_list(play['cards'], game)}")
        if trick.get("rank_to_meet"):
            lines.append(f"To play: rank {trick['rank_to_meet'].replace('T', '10')} or higher, on a space "
                         "not used in this trick.")
        return lines
    return [f"You are {you}. Your hand: {hand}."]


def result_words(names: Sequence[str], winners: Sequence[int], me: int) -> str:
    """The end of a game for the terminal: who won, in colours, and whether that is you."""
    if not winners:
        return "Nobody wins."
    who = join_names([names[w] + (" (you)" if w == me else "") for w in winners])
    if me in winners:
        return "You win!" if len(winners) == 1 else f"Shared first place: {who}."
    return f"You lose: {who} won."
