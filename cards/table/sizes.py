"""Sizes of the card table, in design pixels (the table is laid out at 1280 x 720 and scaled to
the window): the cards, how far a picked card rises, the pop-ups' titles. The colours and the
other font sizes are the shared palette's (:mod:`kabuto_ui.theme`).

Presentation constants only: nothing here changes a rule.
"""
from __future__ import annotations

#: Card sizes (about 5:7).
CARD_L = (84, 118)
CARD_M = (64, 90)
CARD_S = (48, 67)
CARD_XS = (38, 53)

#: Pixels a selected card rises out of the hand.
LIFT = 18

#: The title of a pop-up over the table (a summary, the hot-seat pass screen): smaller than a
#: screen's title (``theme.FONT_TITLE``), it sits inside a box.
POPUP_TITLE = 22
