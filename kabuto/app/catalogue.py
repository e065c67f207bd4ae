"""The wrestler and Junior League cards as the menu shows them, loaded defensively: a broken data
file shows its error in the menu instead of stopping the app. No pyglet."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CardInfo:
    """One selectable card: its key (what the game is told), name, and full card text."""

    key: str
    name: str
    text: str


def wrestler_cards() -> tuple[list[CardInfo], str]:
    """(cards, problem): every wrestler card with its rendered text, or [] and why not."""
    try:
        from kabuto.rules.wrestlers import load_wrestlers, render_card

        return [CardInfo(w.key, w.name, render_card(w, width=52)) for w in load_wrestlers()], ""
    except Exception as exc:  # data being edited, or the module missing: say so in the menu
        return [], f"wrestler cards unavailable: {exc}"


def junior_cards() -> tuple[list[CardInfo], str]:
    """(cards, problem) for the Junior League; ``key`` is the wrestler's key."""
    try:
        from kabuto.rules.junior import load_junior, render_junior_card

        return [CardInfo(c.wrestler.key, c.name, render_junior_card(c, width=52))
                for c in load_junior()], ""
    except Exception as exc:
        return [], f"Junior League cards unavailable: {exc}"


def level_line(name: str) -> str:
    """What playing against AI level ``name`` is like, in one line (assets/help/ai_levels.toml);
    "" for a level the file does not describe."""
    try:
        import tomllib

        import kabuto_assets

        with open(kabuto_assets.path("help", "ai_levels.toml"), "rb") as f:
            lines = tomllib.load(f).get("levels", {})
    except (OSError, ValueError):
        return ""
    line = lines.get(name, "") if isinstance(lines, dict) else ""
    return line if isinstance(line, str) else ""
