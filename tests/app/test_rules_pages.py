"""The rules pages teach each rulebook whole: every section of it (listed as data in
assets/help/rulebook-sections.toml) is covered under its heading, with the words a player needs;
the start menu's Rules shows those very pages in a real window."""
from __future__ import annotations

import os
import re
import shutil
import tomllib
from pathlib import Path

import pytest

import kabuto_assets
from kabuto_ui.overlay import rules_page

ROOT = Path(__file__).resolve().parents[2]
PAGES = kabuto_assets.path("help", "rules.toml")
with open(kabuto_assets.path("help", "rulebook-sections.toml"), "rb") as _fh:
    SECTIONS: dict = tomllib.load(_fh)
HEADING = re.compile(r"^[A-Z0-9][A-Z0-9 :'()\-,]+$")


def _rulebooks() -> Path | None:
    """The project's rulebooks, where this machine has them (the shared folder beside the
    checkout, or KABUTO_RULEBOOKS)."""
    for d in (os.environ.get("KABUTO_RULEBOOKS"), ROOT.parent / "shared" / "rules",
              ROOT.parent.parent / "shared" / "rules", "/work/shared/rules"):
        if d and (Path(d) / "README.md").exists():
            return Path(d)
    return None


def parts(text: str) -> dict[str, str]:
    """A page cut at its headings (lines in capitals): heading -> the text under it."""
    out: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        if HEADING.match(line.strip()):
            current = line.strip()
            out[current] = ""
        elif current is not None:
            out[current] += line + "\n"
    return out


@pytest.mark.parametrize("game", sorted(SECTIONS))
def test_each_rulebook_section_is_covered_under_its_heading(game):
    page = rules_page(PAGES, game)
    assert page is not None, f"no rules page for {game}"
    body = parts(page[1])
    missing = []
    for s in SECTIONS[game]["sections"]:
        said = body.get(s["heading"])
        if said is None:
            missing.append(f"{s['rulebook']!r}: no heading {s['heading']!r}")
            continue
        low = said.lower()
        missing += [f"{s['rulebook']!r} under {s['heading']}: does not say {w!r}"
                    for w in s.get("says", []) if w.lower() not in low]
        missing += [f"{s['rulebook']!r} under {s['heading']}: says {w!r}"
                    for w in s.get("never", []) if w.lower() in low]
    assert not missing, "\n".join(missing)


def test_every_page_heading_teaches_something():
    for game in SECTIONS:
        title, text = rules_page(PAGES, game)
        for heading, said in parts(text).items():
            assert len(said.split()) >= 5, f"{title}: {heading} is empty"


@pytest.mark.skipif(_rulebooks() is None, reason="the rulebooks are not on this machine")
def test_the_list_names_real_sections_of_the_rulebooks_in_order():
    books = _rulebooks()
    assert books is not None
    for game, entry in SECTIONS.items():
        text = (books / entry["rulebook"]).read_text(encoding="utf-8")
        # Each section is named in the rulebook's own words, in the rulebook's order.
        at = 0
        for s in entry["sections"]:
            found = text.find(s["rulebook"], at)
            assert found >= 0, f"{game}: no {s['rulebook']!r} in the rulebook after the section before"
            at = found


def test_junior_league_is_described_as_it_plays():
    """The Junior card sets the starting pieces (assets/junior.toml), it is not played each turn."""
    _, text = rules_page(PAGES, "kabuto")
    junior = parts(text)["JUNIOR LEAGUE"]
    with open(kabuto_assets.path("junior.toml"), "rb") as fh:
        cards = tomllib.load(fh)["card"]
    # The example the page gives is a real card's starting inventory.
    assert any(c["name"] in junior for c in cards)
    gus = next(c for c in cards if c["key"] == "gus")
    assert f"{gus['inventory']['medium']} medium disc" in junior and "Boulder" in junior


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_the_start_menus_rules_show_each_page(app):
    from kabuto_ui.overlay import Dialog, TextPage
    from tests.app.xinput import click, pump_until

    win = app.window
    for game in ("kabuto", "sumo-card-game", "sumo", "sumida-river"):
        app.show_rules()
        assert pump_until(win, lambda: isinstance(win.overlay, Dialog))
        button = win.overlay.widgets.find(f"rules:{game}")
        click(win, button.rect.cx, button.rect.cy)
        assert pump_until(win, lambda: isinstance(win.overlay, TextPage))
        assert (win.overlay.title, win.overlay.text) == rules_page(PAGES, game)
        win.overlay.close()
