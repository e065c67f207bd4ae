"""Colours and sizes of the card table, in one place (the same palette as the Kabuto Sumo table).

Presentation constants only: nothing here changes a rule.
"""
from __future__ import annotations

from cards.table.config import SEAT_COLOURS

RGBA = tuple[int, int, int, int]

BACKGROUND: RGBA = (28, 30, 36, 255)
FELT: RGBA = (24, 70, 52, 255)
FELT_DARK: RGBA = (18, 54, 40, 255)
FELT_LINE: RGBA = (60, 110, 86, 255)
PANEL: RGBA = (40, 43, 52, 255)
PANEL_EDGE: RGBA = (70, 75, 90, 255)
SLOT: RGBA = (16, 48, 36, 255)
SLOT_EDGE: RGBA = (80, 130, 104, 255)
SLOT_USED: RGBA = (60, 44, 30, 255)
TEXT: RGBA = (232, 232, 236, 255)
TEXT_DIM: RGBA = (170, 176, 186, 255)
TEXT_BAD: RGBA = (255, 130, 120, 255)
TEXT_GOOD: RGBA = (150, 226, 150, 255)
ACCENT: RGBA = (250, 200, 70, 255)
BUTTON: RGBA = (62, 68, 84, 255)
BUTTON_HOVER: RGBA = (86, 94, 118, 255)
BUTTON_PRIMARY: RGBA = (170, 120, 40, 255)
BUTTON_DISABLED: RGBA = (46, 48, 56, 255)
BUTTON_ON: RGBA = (60, 120, 90, 255)
HIGHLIGHT: RGBA = (255, 226, 80, 255)
SELECTED: RGBA = (90, 220, 255, 255)
DIMMER: RGBA = (0, 0, 0, 170)
WRESTLER: RGBA = (240, 236, 224, 255)

#: Card sizes (design pixels, about 5:7).
CARD_L = (84, 118)
CARD_M = (64, 90)
CARD_S = (48, 67)
CARD_XS = (38, 53)

FONT_SMALL = 10
FONT = 12
FONT_HEADING = 14
FONT_TITLE = 22

#: Pixels a selected card rises out of the hand.
LIFT = 18


def seat_colour(seat: int) -> RGBA:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def with_alpha(c: RGBA, a: int) -> RGBA:
    return (c[0], c[1], c[2], a)
