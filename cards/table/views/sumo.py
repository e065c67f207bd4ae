"""The SUMO table (two players, tricks on a three-place ring), drawn from one seat's observation.

Layout (design pixels): the other seat's hand (face down) at the top; the ring across the middle -
seat 0's (Red's) edge on the left, the centre, seat 1's (Blue's) edge on the right, with the
wrestlers as a token that is pushed from place to place; below it the current trick, the last
trick, and each seat's cards revealed to decide who leads; the viewer's hand at the bottom.

Playing is one click: click a highlighted card to lead, follow or reveal it. A card that may not be
played (you must follow suit) is refused with the engine's reason.
"""
from __future__ import annotations

from cards.table import sizes
from cards.table.describe import plural, sumo_place
from cards.table.display import BoxItem, CardItem, DiscItem, Display
from cards.table.views.common import (
    MAIN,
    NOTHING,
    Intent,
    ViewContext,
    backs_row,
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

GAME = "sumo"
HAND_AREA = Rect(150, 14, 680, 118)
OPP_HAND_AREA = Rect(260, 636, 460, 72)
RING = Rect(130, 410, 720, 170)
#: x of each wrestler position -2 .. +2 (out left, left edge, centre, right edge, out right).
SPOT_X = {-2: 175, -1: 330, 0: 490, 1: 650, 2: 805}
TRICK = Rect(250, 244, 230, 150)
LAST = Rect(500, 244, 230, 150)
ASIDE = {0: Rect(20, 244, 210, 150), 1: Rect(750, 244, 210, 150)}


class SumoView:
    game = GAME

    def build(self, ctx: ViewContext) -> Display:
        obs = ctx.obs
        me, opp = ctx.viewer, 1 - ctx.viewer
        d = Display()
        d.add(panel("felt", MAIN, theme.FELT, None, 0))
        # The other seat: name, how many cards, backs.
        n = obs["hand_sizes"][opp]
        d.add(BoxItem(key="opp:dot", rect=Rect(24, 682, 14, 14), fill=ctx.colour(opp), radius=7, layer=3))
        d.add(text("opp:name", 46, 684, ctx.labels[opp], theme.FONT_HEADING, bold=True))
        d.add(text("opp:count", 46, 664, f"{plural(n, 'card')} in hand", theme.FONT_SMALL, theme.TEXT_DIM))
        d.extend(backs_row(ctx, opp, n, OPP_HAND_AREA, sizes.CARD_S, "opphand"))
        self._ring(ctx, d)
        self._tricks(ctx, d, me, opp)
        self._hand(ctx, d, me)
        lines = [(s, ctx.labels[s] + (" - leads" if obs.get("leader") == s and obs["phase"] == "play" else ""))
                 for s in (0, 1)]
        d.extend(side_panel(ctx, lines))
        return d

    def _ring(self, ctx: ViewContext, d: Display) -> None:
        pos = ctx.obs["wrestler"]
        d.add(BoxItem(key="ring:bg", rect=RING, fill=theme.FELT_DARK, border=theme.FELT_LINE, radius=20))
        d.add(BoxItem(key="ring:dohyo", rect=Rect(SPOT_X[-1] - 70, RING.y + 20, SPOT_X[1] - SPOT_X[-1] + 140, RING.h - 40),
                      fill=(196, 170, 120, 255), border=(120, 90, 50, 255), radius=50))
        labels = {-1: f"{ctx.names[0]}'s edge", 0: "centre", 1: f"{ctx.names[1]}'s edge"}
        for p in (-1, 0, 1):
            x = SPOT_X[p]
            d.add(BoxItem(key=f"ring:spot:{p}", rect=Rect(x - 40, RING.cy - 40, 80, 80), fill=(214, 192, 146, 255),
                          border=(150, 110, 60, 255), radius=40))
            d.add(text(f"ring:label:{p}", x, RING.y + 4, labels[p], theme.FONT_SMALL, theme.TEXT,
                       anchor_x="center", anchor_y="bottom", layer=3))
        d.add(text("ring:out0", SPOT_X[-2], RING.top - 26, f"{ctx.names[0]}", theme.FONT_HEADING, ctx.colour(0),
                   anchor_x="center", bold=True))
        d.add(text("ring:out0b", SPOT_X[-2], RING.top - 45, "sits here", theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="center"))
        d.add(text("ring:out1", SPOT_X[2], RING.top - 26, f"{ctx.names[1]}", theme.FONT_HEADING, ctx.colour(1),
                   anchor_x="center", bold=True))
        d.add(text("ring:out1b", SPOT_X[2], RING.top - 45, "sits here", theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="center"))
        d.add(text("ring:push0", SPOT_X[-2], RING.y + 12, "pushes →", theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="center"))
        d.add(text("ring:push1", SPOT_X[2], RING.y + 12, "← pushes", theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="center"))
        d.add(DiscItem(key="wrestler", x=SPOT_X[max(-2, min(2, pos))], y=RING.cy, r=34, fill=theme.WRESTLER,
                       border=(60, 40, 20, 255), text="SUMO", text_colour=(60, 40, 20, 255), slide="push", layer=2))
        d.add(text("ring:where", RING.cx, RING.top + 8, f"Wrestlers: {sumo_place(pos, ctx.names)}",
                   theme.FONT_SIZE, theme.TEXT, anchor_x="center"))

    def _tricks(self, ctx: ViewContext, d: Display, me: int, opp: int) -> None:
        obs = ctx.obs
        size = sizes.CARD_M
        origin = {opp: (OPP_HAND_AREA.cx, OPP_HAND_AREA.cy), me: (HAND_AREA.cx, HAND_AREA.cy)}
        for key, r in (("trick", TRICK), ("last", LAST)):
            d.add(panel(f"{key}:panel", r, theme.SLOT, theme.SLOT_EDGE, 8))
        if obs["phase"] == "reveal":
            d.add(text("trick:title", TRICK.x + 8, TRICK.top - 18, "Who leads? Reveal a card", theme.FONT_SMALL, bold=True))
            slots = row_rects(2, Rect(TRICK.x, TRICK.y + 22, TRICK.w, size[1]), size, 30)
            for seat in (0, 1):
                r = slots[seat]
                d.add(text(f"trick:who:{seat}", r.cx, r.y - 2, ctx.names[seat], theme.FONT_SMALL,
                           ctx.colour(seat), anchor_x="center", anchor_y="top"))
                if seat == 0 and obs["face_down"][0]:
                    mine = obs.get("my_face_down")
                    d.add(CardItem(key="trick:facedown", rect=r, face=mine, game=GAME, track=mine,
                                   enter_from=origin[0], badge="face down"))
                else:
                    d.add(BoxItem(key=f"trick:empty:{seat}", rect=r, fill=(0, 0, 0, 0), border=theme.SLOT_EDGE, radius=6))
        else:
            d.add(text("trick:title", TRICK.x + 8, TRICK.top - 18, "Trick", theme.FONT_SMALL, bold=True))
            slots = row_rects(2, Rect(TRICK.x, TRICK.y + 22, TRICK.w, size[1]), size, 30)
            lead = obs["trick"][0] if obs["trick"] else None
            leader = obs.get("leader")
            for i, r in enumerate(slots):
                d.add(BoxItem(key=f"trick:empty:{i}", rect=r, fill=(0, 0, 0, 0), border=theme.SLOT_EDGE, radius=6))
            if lead is not None and leader is not None:
                d.add(CardItem(key=f"trick:{lead}", rect=slots[0], face=lead, game=GAME, track=lead,
                               enter_from=origin[leader]))
                d.add(text("trick:leader", slots[0].cx, slots[0].y - 2, f"{ctx.names[leader]} led",
                           theme.FONT_SMALL, ctx.colour(leader), anchor_x="center", anchor_y="top"))
                d.add(text("trick:follow", slots[1].cx, slots[1].y - 2, f"{ctx.names[1 - leader]} follows",
                           theme.FONT_SMALL, theme.TEXT_DIM, anchor_x="center", anchor_y="top"))
        # The last trick: lead and follow, and who won it.
        d.add(text("last:title", LAST.x + 8, LAST.top - 18, "Last trick", theme.FONT_SMALL, bold=True))
        tricks = obs["tricks"]
        if tricks:
            leader, lead, follow, winner = tricks[-1]
            slots = row_rects(2, Rect(LAST.x, LAST.y + 22, LAST.w, size[1]), size, 30)
            for i, (c, seat) in enumerate(((lead, leader), (follow, 1 - leader))):
                d.add(CardItem(key=f"last:{c}", rect=slots[i], face=c, game=GAME, track=c, enter_from=origin[seat],
                               highlight=seat == winner))
                d.add(text(f"last:who:{i}", slots[i].cx, slots[i].y - 2, ctx.names[seat], theme.FONT_SMALL,
                           ctx.colour(seat), anchor_x="center", anchor_y="top"))
            d.add(text("last:won", LAST.right - 8, LAST.top - 18, f"{ctx.names[winner]} won", theme.FONT_SMALL,
                       ctx.colour(winner), anchor_x="right", bold=True))
        # Cards each seat revealed to decide the lead (face up, out of play).
        for seat in (0, 1):
            r = ASIDE[seat]
            d.add(panel(f"aside:{seat}:panel", r, theme.SLOT, theme.SLOT_EDGE, 8))
            d.add(text(f"aside:{seat}:title", r.x + 8, r.top - 18, f"{ctx.names[seat]} revealed", theme.FONT_SMALL,
                       ctx.colour(seat), bold=True))
            cards = obs["set_aside"][seat]
            for i, cr in enumerate(row_rects(len(cards), Rect(r.x + 6, r.y + 10, r.w - 12, sizes.CARD_S[1]),
                                             sizes.CARD_S, 4, "left")):
                c = cards[i]
                d.add(CardItem(key=f"aside:{c}", rect=cr, face=c, game=GAME, track=c, enter_from=origin[seat]))

    def _hand(self, ctx: ViewContext, d: Display, me: int) -> None:
        obs = ctx.obs
        hand = list(obs["hand"])
        playable = {a.split(" ", 1)[1] for a in ctx.legal}
        d.extend(hand_items(ctx, hand, hand, HAND_AREA, sizes.CARD_L, playable))
        d.add(BoxItem(key="me:dot", rect=Rect(24, 160, 14, 14), fill=ctx.colour(me), radius=7, layer=3))
        d.add(text("me:name", 46, 162, ctx.labels[me], theme.FONT_HEADING, bold=True))
        prompt = waiting_prompt(ctx)
        if ctx.my_turn:
            if obs["phase"] == "reveal":
                prompt = "Who leads? Click a card to reveal it: the higher rank leads the first trick."
            elif obs["trick"]:
                prompt = f"Follow {ctx.names[1 - me]}'s lead: click a card (follow suit if you can)."
            else:
                prompt = "Your lead: click a card."
        d.extend(status_items(ctx, prompt, 206))

    def click(self, target: str, ctx: ViewContext) -> Intent:
        kind, _, arg = target.partition(":")
        if kind != "card":
            return NOTHING
        if not ctx.my_turn:
            return not_your_turn(ctx)
        verb = "reveal" if ctx.obs["phase"] == "reveal" else "play"
        return Intent("apply", action=f"{verb} {arg}")

    def drop(self, key: str, ctx: ViewContext) -> Intent:
        return self.click(f"card:{key}", ctx)
