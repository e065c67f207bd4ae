"""The Sumida River table (3 or 4 players), drawn from one seat's observation.

Layout (design pixels): the viewer at the bottom, the others clockwise from the left (left, top,
right with four players; left and right with three), each with their face-down hand, their A cards
on the table, score and status (passed, out, to play); in the middle the eight meld spaces of the
trick - a used space shows its meld and who played it, a free one only its name; the viewer's own A
cards at the bottom left; the scores of every round in the side panel above the move log.

Playing: click cards to pick a meld (A cards are the "A" cards in your hand), then the button
naming the meld ("Play black pair"); the cards that could still complete a legal meld with the
ones picked are highlighted. *Pass* is a hard pass. The trade phase, the A cards to add, the black
four's choice and the red run's discard are buttons (a discard: pick the card, then *Discard*).
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from cards.table import sizes
from cards.table.config import table_data
from cards.table.describe import plural
from cards.table.display import LAYER_UI, BoxItem, CardItem, Display
from cards.table.faces import pretty, pretty_list
from cards.table.views.common import (
    MAIN,
    NOTHING,
    SIDE,
    Intent,
    ViewContext,
    action_bar,
    hand_items,
    not_your_turn,
    panel,
    row_rects,
    side_panel,
    status_items,
    text,
    waiting_prompt,
)
from kabuto_ui import theme
from kabuto_ui.geometry import Rect

GAME = "sumida-river"
WILDS = ("WB", "WR")
RANKS = "3456789TJQKA2"
HAND_AREA = Rect(160, 14, 660, 100)
ME_PANEL = Rect(8, 14, 146, 150)
INFO_PANEL = Rect(826, 14, 146, 150)
SPACE_W, SPACE_H, SPACE_GAP = 152, 112, 8
SPACES_X0 = 490 - 2 * SPACE_W - 1.5 * SPACE_GAP
SPACES_Y = (470, 470 - SPACE_H - SPACE_GAP)
#: Where the other seats sit, by offset from the viewer (clockwise = the next seat number).
PANELS = {
    4: {1: Rect(8, 250, 150, 340), 2: Rect(330, 610, 320, 104), 3: Rect(822, 250, 150, 340)},
    3: {1: Rect(8, 250, 150, 340), 2: Rect(822, 250, 150, 340)},
}


def card_key(name: str) -> tuple[int, int]:
    """Canonical order of a meld's cards: natural cards by rank (3 low, 2 high) then suit C D H S,
    then the A cards, Black before Red."""
    if name in WILDS:
        return (100, WILDS.index(name))
    return (RANKS.index(name[0]), "CDHS".index(name[1]))


def meld_cards(action: str) -> list[str]:
    return action.split(" ")[2].split(",") if action.startswith("meld ") else []


def hand_keys(hand: list[str]) -> list[str]:
    """Unique keys for the hand: natural cards by name, A cards numbered (``WB#0``, ``WB#1``)."""
    seen: Counter[str] = Counter()
    keys = []
    for c in hand:
        if c in WILDS:
            keys.append(f"{c}#{seen[c]}")
            seen[c] += 1
        else:
            keys.append(c)
    return keys


def key_card(key: str) -> str:
    return key.split("#")[0]


def space_labels() -> dict[str, str]:
    return {s.type: s.label for s in table_data().sumida_spaces}


def guess_type(cards: list[str]) -> str | None:
    """The meld type a player most likely means by these cards (used only to ask the engine why
    they are refused): one rank -> a set (single/pair/triple/four), several ranks -> a run."""
    n = len(cards)
    nat = [c for c in cards if c not in WILDS]
    black = sum(1 for c in cards if c == "WB" or (c not in WILDS and c[1] in "CS"))
    same_rank = len({c[0] for c in nat}) <= 1
    if n == 1:
        return "single-black" if black else "single-red"
    if same_rank:
        return {2: "black-pair" if black * 2 >= n else "red-run-2", 3: "red-triple", 4: "black-four"}.get(n)
    return {2: "red-run-2", 3: "black-run-3", 4: "red-run-4"}.get(n)


@lru_cache(maxsize=64)
def _parsed(legal: tuple[str, ...]) -> tuple[tuple[str, Counter[str]], ...]:
    return tuple((a, Counter(meld_cards(a))) for a in legal if a.startswith("meld "))


def matching_melds(selection: list[str], legal: list[str]) -> list[str]:
    """Legal melds made of exactly the picked cards."""
    want = Counter(selection)
    return [a for a, c in _parsed(tuple(legal)) if c == want]


def completable(selection: list[str], legal: list[str]) -> Counter[str]:
    """How many of each card could still join the picked ones in some legal meld."""
    want = Counter(selection)
    out: Counter[str] = Counter()
    for _, c in _parsed(tuple(legal)):
        if not want - c:
            for card, k in (c - want).items():
                out[card] = max(out[card], k)
    return out


def add_caption(action: str) -> str:
    _, black, _, red, _ = action.split(" ")
    b, r = int(black), int(red)
    if b == 0 and r == 0:
        return "Add no A card"
    parts = ([f"{b} Black A"] if b else []) + ([f"{r} Red A"] if r else [])
    return "Add " + " + ".join(parts)


class SumidaRiverView:
    game = GAME

    def seat_at(self, ctx: ViewContext, offset: int) -> int:
        return (ctx.viewer + offset) % ctx.players

    # ----- building the picture ------------------------------------------------------------------
    def build(self, ctx: ViewContext) -> Display:
        d = Display()
        d.add(panel("felt", MAIN, theme.FELT, None, 0))
        anchors: dict[int, tuple[float, float]] = {ctx.viewer: (HAND_AREA.cx, HAND_AREA.cy)}
        for off, r in PANELS[ctx.players].items():
            seat = self.seat_at(ctx, off)
            anchors[seat] = (r.cx, r.cy)
            self._other(ctx, d, seat, r)
        self._spaces(ctx, d, anchors)
        self._me(ctx, d)
        self._hand_and_actions(ctx, d)
        self._side(ctx, d)
        return d

    def _status(self, ctx: ViewContext, seat: int) -> str:
        obs = ctx.obs
        if seat in obs["finished"]:
            place = obs["finished"].index(seat) + 1
            return f"out - place {place}"
        if obs["phase"] in ("declare", "add", "solo"):
            tr = obs["trade"]
            if obs["phase"] == "declare":
                if seat not in tr.get("deciders", []):
                    return "keeps (no A card)"
                return "has declared" if seat in tr.get("declared", []) else "deciding..."
            return "trading" if seat in tr.get("traders", []) else "keeps"
        if seat in obs["trick"]["passed"]:
            return "passed"
        return ""

    def _a_cards(self, ctx: ViewContext, d: Display, key: str, counts: list[int], r: Rect) -> None:
        """A seat's A cards lying on the table: a small Black A and Red A with how many."""
        b, rr = counts
        x = r.x
        for name, k in (("WB", b), ("WR", rr)):
            if k:
                d.add(CardItem(key=f"{key}:{name}", rect=Rect(x, r.y, *sizes.CARD_XS), face=name, game=GAME,
                               badge=f"x{k}"))
                x += sizes.CARD_XS[0] + 6
        if not b and not rr:
            d.add(text(f"{key}:none", r.x, r.y + 20, "no A cards left", theme.FONT_SMALL, theme.TEXT_DIM))

    def _other(self, ctx: ViewContext, d: Display, seat: int, r: Rect) -> None:
        obs = ctx.obs
        turn = seat == ctx.current and not ctx.over
        d.add(panel(f"seat:{seat}:panel", r, theme.PANEL if not turn else (70, 64, 40, 255),
                    theme.ACCENT if turn else theme.PANEL_EDGE, 8))
        d.add(BoxItem(key=f"seat:{seat}:dot", rect=Rect(r.x + 8, r.top - 22, 12, 12), fill=ctx.colour(seat),
                      radius=6, layer=LAYER_UI))
        d.add(text(f"seat:{seat}:name", r.x + 26, r.top - 20, ctx.names[seat], theme.FONT_HEADING, bold=True))
        d.add(text(f"seat:{seat}:score", r.right - 8, r.top - 20, f"{obs['scores'][seat]} pts", theme.FONT_SIZE,
                   anchor_x="right"))
        n = obs["hand_sizes"][seat]
        ina = obs["a_in_hand"][seat]
        held = f"{plural(n, 'card')}" + (f" ({ina[0] + ina[1]} A)" if ina[0] + ina[1] else "")
        wide = r.w > 200
        if wide:  # the top seat: backs on the left, A cards on the right
            backs_area = Rect(r.x + 8, r.y + 8, 150, sizes.CARD_XS[1])
            a_area = Rect(r.x + 200, r.y + 8, 110, 0)
            d.add(text(f"seat:{seat}:held", r.x + 8, r.top - 40, held, theme.FONT_SMALL, theme.TEXT_DIM))
            st = self._status(ctx, seat)
            d.add(text(f"seat:{seat}:status", r.x + 200, r.top - 40, st, theme.FONT_SMALL, theme.ACCENT))
        else:
            backs_area = Rect(r.x + 8, r.top - 114, r.w - 16, sizes.CARD_XS[1])
            a_area = Rect(r.x + 8, r.y + 50, r.w - 16, 0)
            d.add(text(f"seat:{seat}:held", r.x + 8, r.top - 40, held, theme.FONT_SMALL, theme.TEXT_DIM))
            d.add(text(f"seat:{seat}:atitle", r.x + 8, r.y + 110, "A cards on the table:", theme.FONT_SMALL,
                       theme.TEXT_DIM))
            # Under the card count: the foot of the panel is the known cards' (two lines at most).
            st = self._status(ctx, seat)
            d.add(text(f"seat:{seat}:status", r.x + 8, r.top - 56, st, theme.FONT_SMALL, theme.ACCENT,
                       bold=True))
            known = obs["known"].get(str(seat))
            if known:
                d.add(text(f"seat:{seat}:known", r.x + 8, r.y + 8, "you know: " + pretty_list(known, GAME),
                           theme.FONT_SMALL - 1, theme.TEXT_DIM, width=r.w - 16, anchor_y="bottom"))
        for i, cr in enumerate(row_rects(n, backs_area, sizes.CARD_XS, 2, "left", min_step=3)):
            d.add(CardItem(key=f"seat:{seat}:back:{i}", rect=cr, face=None, game=GAME))
        self._a_cards(ctx, d, f"seat:{seat}:a", obs["a_on_table"][seat], a_area)

    def _spaces(self, ctx: ViewContext, d: Display, anchors: dict[int, tuple[float, float]]) -> None:
        obs = ctx.obs
        trick = obs["trick"]
        by_type = {p["meld"]: p for p in trick["plays"]}
        order = {p["meld"]: i for i, p in enumerate(trick["plays"])}
        spaces = table_data().sumida_spaces
        for i, sp in enumerate(spaces):
            row, col = divmod(i, 4)
            r = Rect(SPACES_X0 + col * (SPACE_W + SPACE_GAP), SPACES_Y[row], SPACE_W, SPACE_H)
            play = by_type.get(sp.type)
            fill = theme.SLOT if play is None else theme.SLOT_USED
            border = theme.SLOT_EDGE if play is None else ctx.colour(play["seat"])
            d.add(panel(f"space:{sp.type}", r, fill, border, 8))
            colour = (230, 120, 110, 255) if sp.colour == "red" else theme.TEXT
            d.add(text(f"space:{sp.type}:label", r.x + 6, r.top - 15, sp.label, theme.FONT_SMALL, colour, bold=True))
            if play is None:
                d.add(text(f"space:{sp.type}:free", r.cx, r.cy - 8, f"{plural(sp.size, 'card')}", theme.FONT_SMALL,
                           theme.TEXT_DIM, anchor_x="center"))
                continue
            who = play["seat"]
            latest = order[sp.type] == len(trick["plays"]) - 1
            d.add(text(f"space:{sp.type}:who", r.x + 6, r.top - 32,
                       f"{ctx.names[who]}, rank {play['rank'].replace('T', '10')}", theme.FONT_SMALL - 1,
                       ctx.colour(who), bold=latest))
            cards = play["cards"]
            for j, cr in enumerate(row_rects(len(cards), Rect(r.x + 6, r.y + 4, r.w - 12, sizes.CARD_S[1]),
                                             sizes.CARD_S, 3)):
                c = cards[j]
                d.add(CardItem(key=f"space:{sp.type}:{j}", rect=cr, face=c, game=GAME,
                               track=c if c not in WILDS else None, enter_from=anchors.get(who),
                               highlight=latest))
        # What the next meld must meet.
        y = SPACES_Y[1] - 22
        if obs["phase"] in ("declare", "add", "solo"):
            line = "Trade phase: each player declares Keep or Trade in secret."
            tr = obs["trade"]
            if obs["phase"] == "declare" and tr.get("declared"):
                line += " Declared: " + ", ".join(ctx.names[s] for s in tr["declared"]) + "."
        elif trick["rank_to_meet"] is None:
            line = "A new trick: every meld space is free."
        else:
            line = (f"Play rank {trick['rank_to_meet'].replace('T', '10')} or higher, to a free space "
                    f"- or pass.")
        d.add(text("trick:info", 490, y, line, theme.FONT_SIZE, theme.TEXT, anchor_x="center"))

    def _me(self, ctx: ViewContext, d: Display) -> None:
        obs = ctx.obs
        me = ctx.viewer
        r = ME_PANEL
        turn = me == ctx.current and not ctx.over
        d.add(panel("me:panel", r, theme.PANEL if not turn else (70, 64, 40, 255),
                    theme.ACCENT if turn else theme.PANEL_EDGE, 8))
        d.add(BoxItem(key="me:dot", rect=Rect(r.x + 8, r.top - 22, 12, 12), fill=ctx.colour(me), radius=6,
                      layer=LAYER_UI))
        d.add(text("me:name", r.x + 26, r.top - 20, ctx.names[me], theme.FONT_HEADING, bold=True))
        d.add(text("me:score", r.right - 8, r.top - 20, f"{obs['scores'][me]} pts", theme.FONT_SIZE, anchor_x="right"))
        d.add(text("me:status", r.x + 8, r.top - 40, self._status(ctx, me) or "you", theme.FONT_SMALL, theme.ACCENT))
        d.add(text("me:atitle", r.x + 8, r.top - 58, "A cards on the table:", theme.FONT_SMALL - 1,
                   theme.TEXT_DIM))
        self._a_cards(ctx, d, "me:a", obs["a_on_table"][me], Rect(r.x + 8, r.y + 10, r.w - 16, 0))
        i = INFO_PANEL
        d.add(panel("info:panel", i, theme.PANEL, theme.PANEL_EDGE, 8))
        d.add(text("info:round", i.x + 8, i.top - 20, f"Round {obs['round']} of {obs['rounds']}", theme.FONT_SIZE, bold=True))
        d.add(text("info:undealt", i.x + 8, i.top - 42, f"{obs['undealt_count']} cards undealt", theme.FONT_SMALL,
                   theme.TEXT_DIM))
        gone = obs["a_out_of_game"]
        d.add(text("info:gone", i.x + 8, i.top - 60, f"A out: {gone[0]} black, {gone[1]} red",
                   theme.FONT_SMALL - 1, theme.TEXT_DIM))
        d.add(text("info:cleared", i.x + 8, i.top - 78, f"{plural(len(obs['cleared']), 'card')} cleared", theme.FONT_SMALL,
                   theme.TEXT_DIM))

    # ----- hand, prompt, buttons ---------------------------------------------------------------------
    def _hand_and_actions(self, ctx: ViewContext, d: Display) -> None:
        obs = ctx.obs
        hand = list(obs["hand"])
        keys = hand_keys(hand)
        sel_keys = [k for k in ctx.selection if k in keys]
        sel_cards = [key_card(k) for k in sel_keys]
        phase = obs["phase"]
        legal = ctx.legal
        playable: set[str] = set()
        if ctx.my_turn and phase == "play":
            room = completable(sel_cards, legal)
            # Mark that many unpicked copies of each card (A cards are interchangeable).
            left = Counter(room)
            for k in keys:
                c = key_card(k)
                if k in sel_keys:
                    playable.add(k)
                elif left[c] > 0:
                    playable.add(k)
                    left[c] -= 1
        elif ctx.my_turn and phase == "discard":
            playable = {k for k in keys if f"discard {key_card(k)}" in legal}
        d.extend(hand_items(ctx, keys, hand, HAND_AREA, sizes.CARD_M, playable,
                            card_choice=phase in ("play", "discard")))
        buttons: list[tuple[str, str, bool, bool]] = []
        prompt = waiting_prompt(ctx)
        if ctx.my_turn:
            if phase == "declare":
                prompt = "Trade phase: Keep your hand, or Trade it (add an A card and pass it on)."
                buttons = [("Keep", "act:keep", True, False), ("Trade", "act:trade", "trade" in legal, True)]
            elif phase == "add":
                prompt = "You trade: which A card do you add to the hand you pass on?"
                buttons = [("Add a Black A", "act:add 1 black 0 red", True, True),
                           ("Add a Red A", "act:add 0 black 1 red", True, True)]
            elif phase == "solo":
                prompt = "You are the only trader: add any of your A cards to your hand and keep it."
                buttons = [(add_caption(a), f"act:{a}", True, False) for a in legal]
            elif phase == "end-choice":
                prompt = "Black four of a kind: end the trick now (you lead next), or play on?"
                buttons = [("End the trick now", "act:end-trick", True, True), ("Play on", "act:play-on", True, False)]
            elif phase == "discard":
                prompt = "Red run of 4: you may discard one card from your hand, face up."
                if len(sel_cards) == 1:
                    buttons.append((f"Discard {pretty(sel_cards[0], GAME)}", f"act:discard {sel_cards[0]}", True, True))
                else:
                    buttons.append(("Discard (pick a card)", "act:discard", False, False))
                buttons.append(("Discard nothing", "act:discard none", True, False))
            elif phase == "play":
                labels = space_labels()
                lead = obs["trick"]["rank_to_meet"] is None
                prompt = ("You lead: pick cards for any meld, then press its button." if lead else
                          "Pick cards for a free space, same rank or higher, then press its button - or pass.")
                if sel_cards:
                    found = matching_melds(sel_cards, legal)
                    for a in found:
                        buttons.append((f"Play {labels.get(a.split(' ')[1], a).lower()}", f"act:{a}", True, True))
                    if not found:
                        buttons.append(("Play these cards", "act:meld?", True, False))
                    buttons.append(("Clear", "ui:clear", True, False))
                if "pass" in legal:
                    buttons.append(("Pass", "act:pass", True, False))
        d.extend(action_bar(buttons, 138, Rect(160, 0, 660, 0)))
        d.extend(status_items(ctx, prompt, 214))

    def _side(self, ctx: ViewContext, d: Display) -> None:
        """The side panel with, above the log, every seat's points in every round so far."""
        obs = ctx.obs
        rounds = [e for e in obs["events"] if e["type"] == "round-end"]
        n = ctx.players
        rows = n + 1
        d.extend(side_panel(ctx, [], reserve=rows * 17 + 20))
        x0 = SIDE.x + 14
        y = 646
        nr = obs["rounds"]
        col_x = [x0 + 96 + 34 * i for i in range(nr)] + [x0 + 96 + 34 * nr + 12]
        d.add(text("score:h:name", x0, y, "Scores", theme.FONT_SMALL, theme.TEXT_DIM, bold=True))
        for i in range(nr):
            d.add(text(f"score:h:{i}", col_x[i], y, f"R{i + 1}", theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="center"))
        d.add(text("score:h:total", col_x[-1], y, "total", theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="center"))
        for seat in range(n):
            y -= 17
            d.add(BoxItem(key=f"score:dot:{seat}", rect=Rect(x0, y - 1, 9, 9), fill=ctx.colour(seat), radius=4,
                          layer=LAYER_UI))
            who = ctx.labels[seat]
            d.add(text(f"score:name:{seat}", x0 + 14, y, who if len(who) <= 13 else ctx.names[seat],
                       theme.FONT_SMALL, theme.ACCENT if seat == ctx.current else theme.TEXT))
            for i in range(nr):
                v = str(rounds[i]["points"][seat]) if i < len(rounds) else "-"
                d.add(text(f"score:{seat}:{i}", col_x[i], y, v, theme.FONT_SMALL, anchor_x="center"))
            d.add(text(f"score:{seat}:total", col_x[-1], y, str(obs["scores"][seat]), theme.FONT_SMALL,
                       anchor_x="center", bold=True))

    # ----- clicks --------------------------------------------------------------------------------------
    def click(self, target: str, ctx: ViewContext) -> Intent:
        kind, _, arg = target.partition(":")
        phase = ctx.obs["phase"]
        if kind == "card":
            if not ctx.my_turn:
                return not_your_turn(ctx)
            if phase not in ("play", "discard"):
                return Intent("explain", message="Choose with the buttons: " + (
                    "Keep or Trade." if phase == "declare" else "which A cards to add." if phase in ("add", "solo")
                    else "end the trick or play on."))
            sel = list(ctx.selection)
            if arg in sel:
                sel.remove(arg)
            elif phase == "discard":
                sel = [arg]  # one card only
            else:
                sel.append(arg)
            return Intent("select", selection=tuple(sel))
        if kind == "act":
            if arg == "meld?":
                return self.why_not(ctx)
            if arg == "discard":
                return Intent("explain", message="Pick the card to discard first, or choose Discard nothing.")
            return Intent("apply", action=arg)
        return NOTHING

    def drop(self, key: str, ctx: ViewContext) -> Intent:
        """A hand card dragged onto the table: play the picked cards with it, if that is one meld."""
        sel = list(ctx.selection)
        if key not in sel:
            sel.append(key)
        cards = [key_card(k) for k in sel]
        found = matching_melds(cards, ctx.legal)
        if len(found) == 1:
            return Intent("apply", action=found[0])
        return Intent("select", selection=tuple(sel))

    def why_not(self, ctx: ViewContext) -> Intent:
        """The picked cards make no legal meld: offer the engine the meld they most look like, so
        its refusal names the problem in its own words (never legal: no legal meld matched)."""
        cards = sorted((key_card(k) for k in ctx.selection), key=card_key)
        if len(cards) > 4:
            return Intent("explain", message="a meld has at most four cards")
        t = guess_type(cards)
        if t is None:
            return Intent("explain", message="those cards make no meld")
        return Intent("apply", action=f"meld {t} {','.join(cards)}")
