"""The Sumo Card Game table, drawn from one seat's observation.

Layout (design pixels): the other seat's hand at the top; in the middle the ring - seven columns,
the other seat's row above the viewer's, each seat's sumo card outside its own row at the column
the wrestlers stand in (the column is outlined); columns stay left to right for both seats, with
seat 0's side (Red) on the left and seat 1's on the right. The deck and the discard pile on the
left; on the right "this round" (face-down placements, then the revealed attack values while a
challenge is decided) and "last round" (what was played and what happened). The viewer's hand at
the bottom with the action buttons beside it.

Playing: click cards to pick an attack (one card, or a combo of 3s, 4s or 5s), then *Attack*. The
cards that can still make a legal attack with the ones picked are highlighted. When pushed: the
buttons *Accept the push*, *Challenge with ring cards*, *Challenge with sumo cards* (only the
legal ones are shown; a forced challenge says so).
"""
from __future__ import annotations

from cards.table import sizes
from cards.table.describe import column_word, plural
from cards.table.display import LAYER_TABLE, BoxItem, CardItem, Display
from cards.table.faces import pretty_list
from cards.table.views.common import (
    MAIN,
    NOTHING,
    Intent,
    ViewContext,
    backs_row,
    button,
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

GAME = "sumo-card-game"
COLUMNS = 7
RING_CARD = (60, 84)
COL_GAP = 6
ROW_GAP = 10
RING_X0 = 252  # left edge of column 0
ROW_Y = {"opp_sumo": 528, "opp_ring": 434, "my_ring": 340, "my_sumo": 246}
HAND_AREA = Rect(230, 14, 500, 118)
OPP_HAND_AREA = Rect(380, 640, 220, 70)
RANK_ORDER = "23456789TJQKA"


def sort_key(card: str) -> tuple[int, int]:
    """Rank-major order (the engine's "write the cards in order"): 2s first, Aces last, Jokers after."""
    if card.startswith("JK"):
        return (99, int(card[2:]))
    return (RANK_ORDER.index(card[0]), "CDHS".index(card[1]))


def column_x(col: int) -> float:
    return RING_X0 + col * (RING_CARD[0] + COL_GAP)


def play_cards(action: str) -> list[str]:
    return action[5:].split("+") if action.startswith("play ") else []


class SumoCardGameView:
    game = GAME

    # ----- building the picture ------------------------------------------------------------------
    def build(self, ctx: ViewContext) -> Display:
        obs = ctx.obs
        me, opp = ctx.viewer, 1 - ctx.viewer
        d = Display()
        d.add(panel("felt", MAIN, theme.FELT, None, 0))
        self._opponent(ctx, d, opp)
        self._ring(ctx, d, me, opp)
        self._piles(ctx, d)
        self._round_panel(ctx, d, me, opp)
        self._hand(ctx, d, me)
        side_lines = [(s, f"{ctx.labels[s]}" + (" - draws first" if s == obs["draw_first"] else ""))
                      for s in (0, 1)]
        d.extend(side_panel(ctx, side_lines))
        return d

    def _opponent(self, ctx: ViewContext, d: Display, opp: int) -> None:
        obs = ctx.obs
        n = obs["opponent_hand_size"]
        d.add(BoxItem(key="opp:dot", rect=Rect(24, 682, 14, 14), fill=ctx.colour(opp), radius=7, layer=3))
        d.add(text("opp:name", 46, 684, ctx.labels[opp], theme.FONT_HEADING, bold=True))
        # A face-down choice stays in its owner's hand until the reveal and how many cards it is
        # stays hidden (docs/rules-notes.md): the backs shown are all the cards they hold.
        held = (f"{plural(n, 'attack card')}, the face-down choice among them" if obs["opponent_chosen"]
                else f"{plural(n, 'attack card')} in hand")
        d.add(text("opp:count", 46, 664, held, theme.FONT_SMALL, theme.TEXT_DIM))
        d.extend(backs_row(ctx, opp, n, OPP_HAND_AREA, sizes.CARD_S, "opphand"))

    def _ring(self, ctx: ViewContext, d: Display, me: int, opp: int) -> None:
        obs = ctx.obs
        pos = obs["position"]
        w, h = RING_CARD
        ring = obs["ring"]
        top = ROW_Y["opp_sumo"] + h + 10
        bottom = ROW_Y["my_sumo"] - 10
        d.add(BoxItem(key="ring:bg", rect=Rect(RING_X0 - 12, bottom, 7 * w + 6 * COL_GAP + 24, top - bottom),
                      fill=theme.FELT_DARK, border=theme.FELT_LINE, radius=14))
        if 0 <= pos < COLUMNS:
            x = column_x(pos)
            d.add(BoxItem(key="ring:column", rect=Rect(x - 5, bottom + 4, w + 10, top - bottom - 8),
                          fill=(60, 96, 70, 255), border=theme.ACCENT, radius=8))
        for col in range(COLUMNS):
            x = column_x(col)
            d.add(text(f"ring:colno:{col}", x + w / 2, ROW_Y["my_ring"] + h + ROW_GAP / 2 - 4, str(col + 1),
                       theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="center", layer=LAYER_TABLE + 2))
            for seat, row in ((opp, "opp_ring"), (me, "my_ring")):
                face = ring[seat][col]
                d.add(CardItem(key=f"ring:{seat}:{col}", rect=Rect(x, ROW_Y[row], w, h), face=face, game=GAME,
                               track=face))
        for seat, row in ((opp, "opp_sumo"), (me, "my_sumo")):
            face = obs["sumo"][seat]
            # Pushed out: drawn just outside the ring, on the side it left by.
            if pos < 0:
                x = RING_X0 - 12 - 8 - w
            elif pos >= COLUMNS:
                x = column_x(COLUMNS - 1) + w + 12 + 8
            else:
                x = column_x(pos)
            d.add(CardItem(key=f"sumo:{seat}", rect=Rect(x, ROW_Y[row], w, h), face=face, game=GAME,
                           badge="SUMO" if face is None else "", slide="push", track=None))
        # Sides: seat 0 pushes towards column 1 (left), seat 1 towards column 7 (right).
        mid = ROW_Y["my_ring"] + h + ROW_GAP / 2
        left, right = ctx.names[0], ctx.names[1]
        # Lines a line-height apart (a 10-point line is 16 design pixels tall, a 12-point one 19).
        d.add(text("ring:left", RING_X0 - 24, mid + 10, f"← {left}", theme.FONT_SIZE, ctx.colour(0), anchor_x="right", bold=True))
        d.add(text("ring:left2", RING_X0 - 24, mid - 8, "pushes out", theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="right"))
        d.add(text("ring:left3", RING_X0 - 24, mid - 25, "this side", theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="right"))
        rx = column_x(COLUMNS - 1) + w + 24
        d.add(text("ring:right", rx, mid + 10, f"{right} →", theme.FONT_SIZE, ctx.colour(1), bold=True))
        d.add(text("ring:right2", rx, mid - 8, "pushes out", theme.FONT_SMALL, theme.TEXT_DIM))
        d.add(text("ring:right3", rx, mid - 25, "this side", theme.FONT_SMALL, theme.TEXT_DIM))
        d.add(text("ring:rowopp", RING_X0 - 24, ROW_Y["opp_ring"] + h / 2, f"{ctx.names[opp]}'s row",
                   theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="right", anchor_y="center"))
        d.add(text("ring:rowme", RING_X0 - 24, ROW_Y["my_ring"] + h / 2, f"{ctx.names[me]}'s row",
                   theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="right", anchor_y="center"))

    def _piles(self, ctx: ViewContext, d: Display) -> None:
        obs = ctx.obs
        w, h = sizes.CARD_S
        x = 26
        d.add(text("pile:decklabel", x, 600, f"Deck: {obs['deck_size']}", theme.FONT_SMALL, theme.TEXT_DIM))
        if obs["deck_size"]:
            d.add(CardItem(key="pile:deck", rect=Rect(x, 525, w, h), face=None, game=GAME))
        discard = obs["discard"]
        d.add(text("pile:disclabel", x, 500, f"Discard: {len(discard)}", theme.FONT_SMALL, theme.TEXT_DIM))
        if discard:
            top = discard[-1]
            d.add(CardItem(key="pile:discard", rect=Rect(x, 425, w, h), face=top, game=GAME, track=top))
        d.add(text("pile:round", x, 396, f"Round {obs['round']}", theme.FONT_SMALL, theme.TEXT_DIM))
        if obs.get("jokers"):
            d.add(text("pile:jokers", x, 380, "with Jokers", theme.FONT_SMALL, theme.TEXT_DIM))

    # ----- this round / last round ------------------------------------------------------------------
    def _round_panel(self, ctx: ViewContext, d: Display, me: int, opp: int) -> None:
        obs = ctx.obs
        px, pw = 812, 160
        d.add(panel("round:panel", Rect(px - 8, 236, pw + 16, 420), theme.FELT_DARK, theme.FELT_LINE, 10))
        d.add(text("round:title", px, 638, f"This round ({obs['round']})", theme.FONT_SIZE, bold=True))
        size = sizes.CARD_XS
        slots = {opp: Rect(px, 560, pw, 56), me: Rect(px, 470, pw, 56)}
        for seat, r in slots.items():
            d.add(text(f"round:who:{seat}", px, r.top + 4, ctx.names[seat], theme.FONT_SMALL, ctx.colour(seat)))
            plays = obs["plays"][seat]
            cards: list[str | None]
            badge = ""
            if plays is not None:
                cards = list(plays)
                v = obs["values"][seat] if obs["values"] else None
                if v is not None:
                    d.add(text(f"round:val:{seat}", r.right, r.top + 4, f"= {v}", theme.FONT_SMALL,
                               theme.TEXT, anchor_x="right", bold=True))
            elif seat == me and obs["chosen"]:
                cards, badge = list(obs["chosen"]), "face down"
            elif seat == opp and obs["opponent_chosen"]:
                cards = []  # not a card more: the choice is among the backs of their hand
                d.add(text(f"round:wait:{seat}", px + 4, r.cy + 6, "chosen face down", theme.FONT_SMALL,
                           theme.TEXT, anchor_y="center"))
                d.add(text(f"round:hidden:{seat}", px + 4, r.cy - 10, "how many: at the reveal",
                           theme.FONT_SMALL - 1, theme.TEXT_DIM, anchor_y="center"))
            else:
                cards = []
                wait = "" if ctx.over or obs["phase"] != "attack" else (
                    "choosing..." if seat == ctx.current else "chooses next")
                d.add(text(f"round:wait:{seat}", px + 4, r.cy, wait, theme.FONT_SMALL, theme.TEXT_DIM,
                           anchor_y="center"))
            if plays is not None:
                drew = self._wild_draw(obs["events"], seat)
                if drew:
                    d.add(text(f"round:wild:{seat}", px + 48, r.y + 18, drew, theme.FONT_SMALL - 1, theme.TEXT_DIM,
                               width=pw - 48))
            origin = (OPP_HAND_AREA.cx, OPP_HAND_AREA.cy) if seat == opp else (HAND_AREA.cx, HAND_AREA.cy)
            for i, (c, cr) in enumerate(zip(cards, row_rects(len(cards), Rect(r.x, r.y - 4, r.w, size[1]), size,
                                                             4, "left"), strict=True)):
                d.add(CardItem(key=f"round:card:{seat}:{i}" if c is None else f"round:{c}", rect=cr, face=c,
                               game=GAME, track=c, enter_from=origin, badge=badge if i == 0 else ""))
        if obs.get("push"):
            p = obs["push"]
            out = not 0 <= p["target"] < COLUMNS
            where = "out of the ring!" if out else column_word(p["target"])
            d.add(text("round:push", px, 447, f"{ctx.names[p['pusher']]} pushes {plural(p['distance'], 'column')}",
                       theme.FONT_SMALL, theme.ACCENT))
            d.add(text("round:push2", px, 431, f"to {where}", theme.FONT_SMALL, theme.ACCENT))
        self._last_round(ctx, d, Rect(px, 244, pw, 166))

    @staticmethod
    def _wild_draw(events: list[dict], seat: int) -> str:
        """What a wild 2 (or lone Joker) played this round drew, in words ("wild: drew 6♣")."""
        for e in reversed(events):
            if e["type"] == "reveal":
                return ""
            if e["type"] == "wild" and e["seat"] == seat and e["source"] == "attack":
                return "wild: drew " + pretty_list(e["drawn"], GAME)
        return ""

    def _last_round(self, ctx: ViewContext, d: Display, r: Rect) -> None:
        """The last resolved round, from the events the viewer saw: plays, values, what happened."""
        events = ctx.obs["events"]
        start = None
        for i in range(len(events) - 1, -1, -1):
            if events[i]["type"] == "reveal":
                start = i
                break
        d.add(text("last:title", r.x, r.top - 4, "Last round", theme.FONT_SIZE, bold=True))
        if start is None:
            d.add(text("last:none", r.x, r.top - 24, "nothing yet", theme.FONT_SMALL, theme.TEXT_DIM))
            return
        rest = events[start:]
        # The round in progress (a challenge being decided) is "this round", not the last one.
        if ctx.obs["plays"][0] is not None:
            prev = [i for i in range(start) if events[i]["type"] == "reveal"]
            if not prev:
                d.add(text("last:none", r.x, r.top - 24, "nothing yet", theme.FONT_SMALL, theme.TEXT_DIM))
                return
            rest = events[prev[-1]:start]
        plays = rest[0]["plays"]
        values = next((e["values"] for e in rest if e["type"] in ("clash", "tie")), None)
        size = sizes.CARD_XS
        y = r.top - 24
        for seat in (0, 1):
            d.add(text(f"last:who:{seat}", r.x, y - 12, ctx.names[seat], theme.FONT_SMALL, ctx.colour(seat)))
            if values:
                d.add(text(f"last:val:{seat}", r.right, y - 12, f"= {values[seat]}", theme.FONT_SMALL,
                           anchor_x="right"))
            cards = plays[seat]
            for i, cr in enumerate(row_rects(len(cards), Rect(r.x + 44, y - 24, 80, size[1] * 0.6), (28, 39), 3, "left")):
                c = cards[i]
                if ctx.obs["plays"][0] is None:  # after the round the same cards may also show in the pile
                    d.add(CardItem(key=f"last:{seat}:{i}", rect=cr, face=c, game=GAME, track=c, history=True,
                                   enter_from=(OPP_HAND_AREA.cx, OPP_HAND_AREA.cy) if seat != ctx.viewer else None))
                else:
                    d.add(CardItem(key=f"last:{seat}:{i}", rect=cr, face=c, game=GAME, history=True))
            y -= 44
        outcome = []
        for e in rest:
            t = e["type"]
            if t == "tie":
                outcome.append("Tie: nobody pushed.")
            elif t == "clash":
                outcome.append(f"{ctx.names[e['pusher']]} wins the clash.")
            elif t == "wild":
                outcome.append(f"{ctx.names[e['seat']]}'s 2 drew {pretty_list(e['drawn'], GAME)} = {e['value']}")
            elif t == "challenge":
                ok = "cancels the push" if e["success"] else "fails"
                outcome.append(f"{ctx.names[e['seat']]}'s {e['kind']} challenge {ok}.")
            elif t == "push":
                to = e["to_column"]
                outcome.append(f"Pushed {plural(e['distance'], 'column')}" +
                               (f", to column {to + 1}." if 0 <= to < COLUMNS else ": out!"))
            elif t == "accept":
                outcome.append(f"{ctx.names[e['seat']]} accepted.")
        if outcome:
            d.add(text("last:outcome", r.x, y + 4, " ".join(outcome[-3:]), theme.FONT_SMALL - 1, theme.TEXT_DIM,
                       anchor_y="top", width=r.w))

    # ----- the viewer's hand and buttons ---------------------------------------------------------------
    def _hand(self, ctx: ViewContext, d: Display, me: int) -> None:
        obs = ctx.obs
        hand = list(obs["hand"])
        legal = ctx.legal
        phase = obs["phase"]
        sel = [c for c in ctx.selection if c in hand]
        playable: set[str] = set()
        if ctx.my_turn and phase == "attack":
            for a in legal:
                cards = play_cards(a)
                if set(sel) <= set(cards):
                    playable.update(cards)
        chosen = set(obs["chosen"] or [])
        items = hand_items(ctx, hand, hand, HAND_AREA, sizes.CARD_L, playable, card_choice=phase == "attack")
        for it in items:
            if it.face in chosen:
                it.badge = "face down"
        d.extend(items)
        d.add(BoxItem(key="me:dot", rect=Rect(24, 124, 14, 14), fill=ctx.colour(me), radius=7, layer=3))
        d.add(text("me:name", 46, 126, ctx.labels[me], theme.FONT_HEADING, bold=True))
        d.add(text("me:hint", 46, 106, "attack cards" if ctx.bots[me] else "your attack cards", theme.FONT_SMALL,
                   theme.TEXT_DIM))
        buttons: list[tuple[str, str, bool, bool]] = []
        prompt = waiting_prompt(ctx)
        if ctx.my_turn and phase == "attack":
            match = self.match_selection(sel, legal)
            if sel:
                cap = f"Attack with {pretty_list(sorted(sel, key=sort_key), GAME, ' + ')}"
                buttons.append((cap, "act:attack", True, match is not None))
                buttons.append(("Clear", "ui:clear", True, False))
            else:
                buttons.append(("Attack", "act:attack", False, False))
            prompt = "Your attack: click one card (or a combo of 3s, 4s or 5s), then Attack."
        elif ctx.my_turn:
            p = obs["push"]
            names = ctx.names
            target = p["target"]
            where = "out of the ring" if not 0 <= target < COLUMNS else column_word(target)
            prompt = (f"{names[p['pusher']]} pushes you {plural(p['distance'], 'column')}, to {where}. "
                      + ("You must challenge." if p["fatal"] else "Accept or challenge?"))
            captions = {"accept": "Accept the push", "challenge-ring": "Challenge with ring cards",
                        "challenge-sumo": "Challenge with sumo cards"}
            for a in legal:
                buttons.append((captions.get(a, a), f"act:{a}", True, a != "accept"))
        bar_area = Rect(HAND_AREA.right + 10, 0, MAIN.right - HAND_AREA.right - 20, 0)
        y = 100
        for caption, target, enabled, primary in buttons:
            w = bar_area.w
            d.add(button(f"bar:{target}", Rect(bar_area.x, y, w, 32), caption, target, enabled, primary,
                         size=theme.FONT_SMALL + 1))
            y -= 40
        d.extend(status_items(ctx, prompt, 206))

    @staticmethod
    def match_selection(sel: list[str], legal: list[str]) -> str | None:
        want = sorted(sel)
        for a in legal:
            if sorted(play_cards(a)) == want:
                return a
        return None

    # ----- clicks --------------------------------------------------------------------------------------
    def click(self, target: str, ctx: ViewContext) -> Intent:
        kind, _, arg = target.partition(":")
        phase = ctx.obs["phase"]
        if kind == "card":
            if not ctx.my_turn:
                return not_your_turn(ctx)
            if phase != "attack":
                # Let the engine say why a card cannot be played now.
                return Intent("apply", action=f"play {arg}")
            sel = list(ctx.selection)
            if arg in sel:
                sel.remove(arg)
            else:
                sel.append(arg)
            return Intent("select", selection=tuple(sel))
        if kind == "act":
            if arg == "attack":
                sel = [c for c in ctx.selection if c in ctx.obs["hand"]]
                if not sel:
                    return Intent("explain", message="Pick your attack cards first.")
                action = self.match_selection(sel, ctx.legal) or "play " + "+".join(sorted(sel, key=sort_key))
                return Intent("apply", action=action)
            return Intent("apply", action=arg)
        return NOTHING

    def drop(self, key: str, ctx: ViewContext) -> Intent:
        """A hand card dragged onto the table: attack with it (with any cards already picked)."""
        if not ctx.my_turn or ctx.obs["phase"] != "attack":
            return self.click(f"card:{key}", ctx)
        sel = list(ctx.selection)
        if key not in sel:
            sel.append(key)
        action = self.match_selection(sel, ctx.legal) or "play " + "+".join(sorted(sel, key=sort_key))
        return Intent("apply", action=action)

