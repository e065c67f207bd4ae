"""The tuning panel: sliders for each piece kind's table friction, piece friction, mass and
restitution, applied from the next push, and buttons to save and load tuning profiles (TOML).

Moving a slider changes nothing until it is released; then the new materials come from
:meth:`physics.Materials.with_overrides` (validated like the file) and go to the session, which
uses them from the next push on (a game records them in its replay). Profiles are complete
materials files (:mod:`kabuto.app.tuning`), listed from the profile folder, newest name last.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from pyglet import shapes
from pyglet.graphics import Batch, Group

from kabuto.app.tuning import KNOBS, list_profiles, load_profile, next_profile_path, save_profile
from kabuto_ui import theme
from kabuto_ui.geometry import Rect
from kabuto_ui.widgets import Button, Slider, Widgets, fit_text, label
from physics import Materials

WIDTH = 300

#: What the knobs change, under the sliders. Mass is the one players expect to matter most and see
#: matter least: Coulomb friction grows with the weight it brakes, so a heavier piece pushed alone
#: slides as far as before; mass counts when pieces collide (docs/tuning.md).
MASS_HELP = ("Mass alone changes little: a heavier piece presses harder on the table, so its "
             "friction grows with it and a lone push slides as far. Mass counts in collisions: "
             "a heavy piece shoves a light one further and is stopped less by it.")


class TuningPanel:
    """Builds its widgets into a :class:`Widgets` list; ``on_materials`` receives new materials."""

    def __init__(self, batch: Batch, group: Group, defaults: Materials, folder: Path,
                 on_materials: Callable[[Materials, str], None],
                 kind_label: Callable[[str], str] = str, fixed: str = ""):
        """``kind_label``: a piece kind in a player's words (the tabs and messages say it).
        ``fixed``: why the materials cannot be changed here (an online room's are the server's),
        or "": the panel then shows the values read-only and says why."""
        self.kind_label = kind_label
        self.fixed = fixed
        self.batch = batch
        self.bg = Group(order=-1, parent=group)  # below the widgets' boxes
        self.fg = Group(order=1, parent=group)
        self.defaults = defaults  # the file's values: relative ranges (mass) are taken from them
        self.folder = Path(folder)
        self.on_materials = on_materials
        self.kind: str | None = None
        self.items: list = []
        self.message = ""

    def clear(self) -> None:
        for it in self.items:
            it.delete()
        self.items = []

    def build(self, rect: Rect, materials: Materials, widgets: Widgets) -> None:
        self.clear()
        b, fg = self.batch, self.fg
        add = self.items.append
        add(shapes.Rectangle(rect.x, rect.y, rect.w, rect.h, color=(*theme.PANEL[:3], 245),
                             batch=b, group=self.bg))
        add(shapes.Rectangle(rect.right - 1, rect.y, 1, rect.h, color=theme.PANEL_EDGE, batch=b,
                             group=self.bg))
        x0 = rect.x + 12
        y = rect.top - 26
        add(label("Tuning (T closes)", x0, y, b, fg, size=theme.FONT_HEADING, bold=True))
        y -= 18
        add(label("read only: " + self.fixed if self.fixed else "applies from the next push", x0, y + 12,
                  b, fg, size=theme.FONT_SMALL, color=theme.TEXT_BAD if self.fixed else theme.TEXT_DIM,
                  width=int(rect.w - 24), multiline=True, anchor_y="top"))
        y -= self.items[-1].content_height - 14
        kinds = sorted(materials.kinds, key=lambda k: (materials.kinds[k].size, k))
        if self.kind not in materials.kinds:
            self.kind = kinds[0] if kinds else None
        # Kind tabs, wrapped over rows.
        y -= 34
        x = x0
        for k in kinds:
            text = self._tab(k)
            w = min(rect.w - 24, max(56, 10 + 7 * len(text)))
            if x + w > rect.right - 10:
                x = x0
                y -= 30
            widgets.add(Button(Rect(x, y, w, 24), text, partial(self._pick, k), b, fg,
                               selected=(k == self.kind), size=theme.FONT_SMALL, name=f"kind:{k}"))
            x += w + 4
        kind = self.kind
        if kind is not None:
            for knob in KNOBS:
                y -= 46
                base = self.defaults.kinds[kind] if kind in self.defaults.kinds else materials.kinds[kind]
                lo, hi = knob.range_for(getattr(base, knob.field))
                value = getattr(materials.kinds[kind], knob.field)
                fmt = (lambda v: f"{v * 1000:.2f}") if knob.field == "mass" else (lambda v: f"{v:.3f}")
                key = knob.key(kind)
                widgets.add(Slider(Rect(x0, y, rect.w - 24, 40), f"{knob.label}", value, lo, hi,
                                   partial(self._set_one, key, knob.label, fmt), b, fg,
                                   fmt=fmt, name=f"slider:{key}", enabled=not self.fixed))
        y -= 8
        what = label(MASS_HELP, x0, y, b, fg, size=theme.FONT_SMALL - 1, color=theme.TEXT_DIM,
                     width=int(rect.w - 24), multiline=True, anchor_y="top")
        add(what)
        y -= what.content_height + 32
        widgets.add(Button(Rect(x0, y, 86, 26), "Defaults", self._reset, b, fg, enabled=not self.fixed,
                           size=theme.FONT_SMALL, name="tuning:defaults"))
        widgets.add(Button(Rect(x0 + 92, y, 86, 26), "Save", lambda: self._save(materials), b, fg,
                           size=theme.FONT_SMALL, name="tuning:save"))
        y -= 24
        where = label("", x0, y, b, fg, size=theme.FONT_SMALL - 1, color=theme.TEXT_DIM)
        fit_text(where, f"profiles in {self._short(self.folder)}", rect.w - 24, keep_end=True)
        add(where)
        profiles = list_profiles(self.folder)
        rows = max(1, int((y - rect.y - 40) // 28))
        for p in profiles[-rows:]:
            y -= 28
            widgets.add(Button(Rect(x0, y, rect.w - 24, 24), f"load {p.name}",
                               partial(self._load, p), b, fg, size=theme.FONT_SMALL,
                               enabled=not self.fixed, name=f"profile:{p.name}"))
        if self.message:
            add(label(self.message, x0, rect.y + 12, b, fg, size=theme.FONT_SMALL - 1,
                      color=theme.ACCENT, width=int(rect.w - 24), multiline=True))
        self._materials = materials

    @staticmethod
    def _short(path: Path) -> str:
        s = str(path)
        home = str(Path.home())
        return "~" + s[len(home):] if s.startswith(home) else s

    # ----- actions -----------------------------------------------------------------------------------
    def _pick(self, kind: str) -> None:
        self.kind = kind
        self.on_materials(self._materials, "")  # same materials; the scene rebuilds the panel

    def _tab(self, kind: str) -> str:
        """A kind's tab: its name, a wrestler piece shortened to the wrestler ("Goliath Gus")."""
        text = self.kind_label(kind)
        return text.removesuffix("'s wrestler piece").removesuffix(" disc")

    def _set_one(self, key: str, caption: str, fmt: Callable[[float], str], value: float) -> None:
        """A slider let go: one materials value changed (``key`` as in ``with_overrides``); the
        message says it as the slider does ("mass (g) of the medium disc: 11.10")."""
        try:
            new = self._materials.with_overrides({key: value})
        except ValueError as exc:
            self.message = str(exc)
            self.on_materials(self._materials, self.message)
            return
        self.message = (f"{caption} of the {self.kind_label(self.kind or '')}: {fmt(value)}, from "
                        "the next push")
        self.on_materials(new, self.message)

    def _reset(self) -> None:
        kinds = {k: v for k, v in self._materials.kinds.items() if k not in self.defaults.kinds}
        self.message = "back to the file's values"
        self.on_materials(self.defaults.with_kinds(kinds), self.message)

    def _save(self, materials: Materials) -> None:
        try:
            path = save_profile(materials, next_profile_path(self.folder))
            self.message = f"saved {path.name}"
        except (OSError, ValueError) as exc:
            self.message = f"could not save: {exc}"
        self.on_materials(materials, self.message)

    def _load(self, path: Path) -> None:
        try:
            new = load_profile(path, base=self._materials)
            self.message = f"loaded {path.name}"
        except ValueError as exc:
            self.message = f"could not load: {exc}"
            new = self._materials
        self.on_materials(new, self.message)
