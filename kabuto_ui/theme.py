"""The one palette: colours, font sizes and the seats' names and colours of every screen, so the
Kabuto table and the card table agree (and a colour is changed in one place).

These are presentation constants, not game data: changing them never changes a push or a card.
No pyglet here; colours are RGBA tuples of 0-255.
"""
from __future__ import annotations

RGBA = tuple[int, int, int, int]

#: Default window size; every layout is checked readable at this size.
WINDOW_SIZE = (1280, 720)
MIN_SIZE = (960, 600)

FONT = None  # pyglet's default font (a system sans-serif); no font files are shipped
FONT_SIZE = 12
FONT_SMALL = 10
FONT_TITLE = 26
FONT_HEADING = 14

# ----- the chrome every screen shares: background, panels, text, buttons ---------------------------
BACKGROUND: RGBA = (28, 30, 36, 255)
PANEL: RGBA = (40, 43, 52, 255)
PANEL_EDGE: RGBA = (70, 75, 90, 255)
TEXT: RGBA = (232, 232, 236, 255)
TEXT_DIM: RGBA = (160, 164, 176, 255)
TEXT_BAD: RGBA = (255, 120, 110, 255)
TEXT_GOOD: RGBA = (140, 220, 140, 255)
ACCENT: RGBA = (250, 200, 70, 255)
HIGHLIGHT: RGBA = (255, 240, 90, 255)
DIMMER: RGBA = (0, 0, 0, 170)           # laid over the screen under a pop-up

BUTTON: RGBA = (62, 68, 84, 255)
BUTTON_HOVER: RGBA = (82, 90, 112, 255)
BUTTON_ON: RGBA = (150, 110, 40, 255)   # a chosen option
BUTTON_PRIMARY: RGBA = (170, 120, 40, 255)  # the call to action (Start)
BUTTON_DISABLED: RGBA = (48, 50, 58, 255)

# ----- the Kabuto ring, seen from above: a raised cloth-covered disc with a printed centre circle --
TABLE: RGBA = (22, 54, 42, 255)
RING_RIM: RGBA = (92, 60, 34, 255)
RING_SURFACE: RGBA = (226, 212, 178, 255)
RING_CENTRE_LINE: RGBA = (150, 60, 50, 255)
PLATFORM: RGBA = (120, 96, 70, 255)
PLATFORM_EDGE: RGBA = (70, 52, 36, 255)
AIM_LINE: RGBA = (250, 200, 70, 220)
AIM_LINE_BLOCKED: RGBA = (255, 90, 80, 220)
AI_AIM_LINE: RGBA = (120, 200, 255, 230)
SHADOW: RGBA = (0, 0, 0, 80)
OUTLINE: RGBA = (40, 28, 18, 255)
TARGET: RGBA = (90, 230, 255, 255)

#: Standard discs in natural wood tones (lighter = smaller), by kind name.
DISC_COLOURS: dict[str, RGBA] = {
    "small": (236, 200, 150, 255),
    "medium": (212, 168, 112, 255),
    "large": (184, 132, 82, 255),
}
UNKNOWN_PIECE: RGBA = (190, 190, 190, 255)

# ----- the card table: felt, card slots, the sumo cards' wrestler disc -----------------------------
FELT: RGBA = (24, 70, 52, 255)
FELT_DARK: RGBA = (18, 54, 40, 255)
FELT_LINE: RGBA = (60, 110, 86, 255)
SLOT: RGBA = (16, 48, 36, 255)
SLOT_EDGE: RGBA = (80, 130, 104, 255)
SLOT_USED: RGBA = (60, 44, 30, 255)
SELECTED: RGBA = (90, 220, 255, 255)    # the outline of a picked card
WRESTLER: RGBA = (240, 236, 224, 255)

# ----- seats ---------------------------------------------------------------------------------------
#: Seat names and colours (seat 0 first), the same at every table. Wrestler pieces wear them;
#: signature pieces a lighter shade.
SEAT_NAMES: tuple[str, ...] = ("Red", "Blue", "Green", "Purple")
#: How the table names the two teams of a four-player game.
TEAM_NAMES = ("team A", "team B")
SEAT_COLOURS: tuple[RGBA, ...] = (
    (214, 62, 58, 255),    # red
    (58, 110, 214, 255),   # blue
    (60, 170, 90, 255),    # green
    (150, 80, 200, 255),   # purple
)


def seat_name(seat: int) -> str:
    """The seat's name (``"Red"`` for seat 0); seats beyond the fourth reuse the names."""
    return SEAT_NAMES[seat % len(SEAT_NAMES)]


def seat_colour(seat: int) -> RGBA:
    """The seat's colour; seats beyond the fourth reuse the colours."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def text_scale(width: int, height: int) -> float:
    """How much larger text (and the boxes around it) is drawn in a window of this size: 1 up to
    the 1280 x 720 design size, growing with the window to 1.5 at 1920 x 1080 and beyond, in
    quarter steps so the picture does not shimmer as a window is dragged larger."""
    s = min(width / WINDOW_SIZE[0], height / WINDOW_SIZE[1])
    return max(1.0, min(1.5, int(s * 4) / 4))


def from_hex(text: str) -> RGBA:
    """An "#rrggbb" colour (the data files' form) as RGBA; grey if it is not one."""
    t = text.strip().lstrip("#")
    try:
        return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16), 255
    except ValueError:
        return 136, 136, 136, 255


def lighter(c: RGBA, amount: float = 0.45) -> RGBA:
    """``c`` mixed with white (signature pieces are a lighter shade of their owner's colour).

    >>> lighter((100, 0, 200, 255), 0.5)
    (177, 127, 227, 255)
    """
    r, g, b, a = c
    return (int(r + (255 - r) * amount), int(g + (255 - g) * amount), int(b + (255 - b) * amount), a)


def darker(c: RGBA, amount: float = 0.45) -> RGBA:
    """``c`` mixed with black."""
    r, g, b, a = c
    return (int(r * (1 - amount)), int(g * (1 - amount)), int(b * (1 - amount)), a)


