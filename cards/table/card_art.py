"""Card faces and backs drawn from data (``assets/cards/faces.toml``) with Pillow - no image files.

A face has the rank and suit in the top-left corner (and upside down in the bottom-right), and a
big suit symbol in the middle (a framed letter for J, Q, K). Jokers and Sumida River's wild A
cards are described under ``[games.<game>.specials]``. Every size is drawn fresh (at three times
the size, then scaled down smoothly) so a card is sharp at any window size; the renderer caches
the results.

No pyglet here: :func:`card_image` returns a ``PIL.Image`` (RGBA), so tests can look at the pixels
without a window.
"""
from __future__ import annotations

import importlib.util
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from cards.table.faces import Faces, faces, split

SUPERSAMPLE = 3


def _font_dirs() -> list[Path]:
    dirs = []
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.origin:
        dirs.append(Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    dirs += [Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/TTF"),
             Path("/Library/Fonts"), Path("C:/Windows/Fonts")]
    return dirs


@cache
def font_path(name: str) -> str | None:
    """Where a font file is (matplotlib ships DejaVu Sans, which has the suit symbols)."""
    for d in _font_dirs():
        p = d / name
        if p.is_file():
            return str(p)
    return None


@lru_cache(maxsize=256)
def _font(name: str, px: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    path = font_path(name)
    if path is None:
        return ImageFont.load_default(px)
    return ImageFont.truetype(path, max(4, px))


def _text_centre(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, font, fill) -> None:
    """Draw ``s`` with its ink box centred on ``xy``."""
    left, top, right, bottom = draw.textbbox((0, 0), s, font=font)
    draw.text((xy[0] - (left + right) / 2, xy[1] - (top + bottom) / 2), s, font=font, fill=fill)


def _fit_font(draw: ImageDraw.ImageDraw, s: str, name: str, px: int, max_w: float):
    """The font at ``px`` or smaller, so that ``s`` is at most ``max_w`` wide."""
    f = _font(name, px)
    while px > 6:
        left, _, right, _ = draw.textbbox((0, 0), s, font=f)
        if right - left <= max_w:
            break
        px = int(px * 0.9)
        f = _font(name, px)
    return f


def card_image(game: str, card: str | None, width: int, height: int, data: Faces | None = None) -> Image.Image:
    """The face of ``card`` (or the back, for None) of ``game``, ``width`` x ``height`` pixels."""
    if width < 4 or height < 4:
        raise ValueError(f"card size: {width} x {height} pixels is too small to draw")
    f = data or faces()
    k = SUPERSAMPLE
    W, H = width * k, height * k
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = max(2, int(f.style.get("corner_radius", 0.08) * W))
    edge = tuple(f.style["edge"])
    gf = f.game(game)
    if card is None:
        _back(draw, W, H, radius, gf.back, gf.back_pattern, gf.back_border, edge)
    elif card in gf.specials:
        _special(draw, f, gf.specials[card], W, H, radius, edge)
    else:
        _standard(draw, f, card, W, H, radius, edge)
    return img.resize((width, height), Image.Resampling.LANCZOS)


def _back(draw, W, H, radius, back, pattern, border, edge) -> None:
    draw.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=tuple(back), outline=edge, width=max(1, W // 60))
    m = W * 0.09
    draw.rounded_rectangle((m, m, W - 1 - m, H - 1 - m), max(1, radius // 2), outline=tuple(border),
                           width=max(1, W // 40))
    # A diamond lattice inside the border.
    step = W / 6
    lw = max(1, W // 70)
    x0, y0, x1, y1 = m * 1.6, m * 1.6, W - m * 1.6, H - m * 1.6
    i = -int(H / step) - 2
    while i * step < W + H:
        a = i * step
        # lines x - y = a and x + y = a, clipped by hand to the inner box
        for sign in (1, -1):
            pts = []
            for x in (x0, x1):
                y = (x - a) if sign == 1 else (a - x)
                if y0 <= y <= y1:
                    pts.append((x, y))
            for y in (y0, y1):
                x = (y + a) if sign == 1 else (a - y)
                if x0 <= x <= x1:
                    pts.append((x, y))
            if len(pts) >= 2:
                draw.line(pts[:2], fill=tuple(pattern), width=lw)
        i += 1
    cx, cy, r = W / 2, H / 2, W * 0.16
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=tuple(back), outline=tuple(border), width=max(1, W // 40))


def _paper(draw, f: Faces, W, H, radius, edge, tint=None) -> None:
    draw.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=tuple(tint or f.style["face"]), outline=edge,
                           width=max(1, W // 60))


def _index(draw, f: Faces, W, H, rank_text: str, suit_text: str, colour) -> None:
    """Rank and suit in the top-left corner and, turned round, in the bottom-right."""
    small = W < 150  # (supersampled) small cards: a larger corner, it is what shows in a fan
    rs = int(W * (0.34 if small else f.style.get("index_size", 0.26)))
    ss = int(W * (0.28 if small else f.style.get("index_suit_size", 0.22)))
    rf = _fit_font(draw, rank_text, f.style.get("font_bold", "DejaVuSans-Bold.ttf"), rs, W * 0.42)
    sf = _font(f.style.get("font", "DejaVuSans.ttf"), ss)
    cx = W * 0.2
    _text_centre(draw, (cx, H * 0.04 + rs * 0.55), rank_text, rf, colour)
    if suit_text:
        _text_centre(draw, (cx, H * 0.04 + rs * 1.05 + ss * 0.5), suit_text, sf, colour)
    # Bottom-right, upside down: draw on a patch and rotate it.
    patch = Image.new("RGBA", (int(W * 0.4), int(rs * 1.2 + ss * 1.2) + 4), (0, 0, 0, 0))
    pd = ImageDraw.Draw(patch)
    _text_centre(pd, (patch.width / 2, rs * 0.55), rank_text, rf, colour)
    if suit_text:
        _text_centre(pd, (patch.width / 2, rs * 1.05 + ss * 0.5), suit_text, sf, colour)
    patch = patch.rotate(180)
    draw._image.alpha_composite(patch, (int(W - cx - patch.width / 2), int(H - H * 0.04 - patch.height)))


def _standard(draw, f: Faces, card: str, W, H, radius, edge) -> None:
    rank, suit = split(card)
    if suit not in f.suits:
        raise ValueError(f"card: {card!r} is not a rank and suit, nor a special card of this game")
    symbol, _, rgb = f.suits[suit]
    colour = tuple(rgb)
    _paper(draw, f, W, H, radius, edge)
    label = f.rank_label(rank)
    _index(draw, f, W, H, label, symbol, colour)
    if rank in f.court:
        fx0, fy0, fx1, fy1 = W * 0.28, H * 0.22, W * 0.72, H * 0.78
        draw.rounded_rectangle((fx0, fy0, fx1, fy1), max(1, int(W * 0.05)), outline=tuple(f.court_frame),
                               width=max(1, W // 40), fill=(250, 240, 214))
        lf = _font(f.style.get("font_bold", "DejaVuSans-Bold.ttf"), int(W * f.style.get("court_size", 0.5)))
        _text_centre(draw, (W / 2, H * 0.45), rank, lf, colour)
        sf = _font(f.style.get("font", "DejaVuSans.ttf"), int(W * 0.2))
        _text_centre(draw, (W / 2, H * 0.66), symbol, sf, colour)
    else:
        cf = _font(f.style.get("font", "DejaVuSans.ttf"), int(W * f.style.get("centre_size", 0.55)))
        _text_centre(draw, (W * 0.56, H * 0.55), symbol, cf, colour)


def _special(draw, f: Faces, sp, W, H, radius, edge) -> None:
    colour = tuple(sp.colour)
    _paper(draw, f, W, H, radius, edge, sp.tint)
    _index(draw, f, W, H, sp.short, "★" if sp.centre != sp.short else "", colour)
    bold = f.style.get("font_bold", "DejaVuSans-Bold.ttf")
    cf = _font(bold if sp.centre.isalpha() else f.style.get("font", "DejaVuSans.ttf"), int(W * 0.5))
    _text_centre(draw, (W * 0.56, H * 0.5), sp.centre, cf, colour)
    caption = sp.sub or (sp.label if sp.label != sp.short else "")
    if caption:
        tf = _fit_font(draw, caption, bold, int(W * 0.13), W * 0.7)
        _text_centre(draw, (W * 0.56, H * 0.74), caption, tf, colour)
