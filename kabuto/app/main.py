"""The app as a whole: the window, the start menu, and going from one mode to another.

This is the app's composition root, the one place that wires the parts together: :class:`App`
fills its :class:`~kabuto_ui.modes.ModeRegistry` with the built-in modes (Kabuto Sumo, the physics
sandbox, replays) and the card table's (:data:`cards.table.app_mode.MODE`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import pyglet

import kabuto_assets
from cards.table.app_mode import MODE as CARD_TABLE
from kabuto.app import settings as app_settings
from kabuto.app.game_config import GameConfig
from kabuto.app.game_session import GameSession
from kabuto.app.scene.menu import MenuScene
from kabuto.app.scene.replay_view import ReplayBrowser, ReplayScene
from kabuto.app.scene.table import TableScene
from kabuto.app.session import SandboxSession, Session
from kabuto.app.tuning import default_profile_dir, load_profile
from kabuto.rules.errors import ReplayError
from kabuto_ui.modes import Mode, ModeRegistry
from kabuto_ui.scene import Scene
from kabuto_ui.sound import Sounds
from kabuto_ui.window import Window
from physics import Materials


@dataclass
class Options:
    """Everything ``kabuto play`` can set (see :mod:`kabuto.cli.play`)."""

    config: GameConfig | None = None      # start this game at once instead of the menu
    sandbox: bool = False
    resume: Path | None = None
    replay: Path | None = None
    tuning: Path | None = None
    profiles: Path | None = None
    data_dir: Path | None = None           # where games are recorded (kabuto.replay.userdata)
    record: bool = True
    ai_workers: int | None = None          # processes the AI may use (None: one per core)
    ai_delay: float = 0.9
    size: tuple[int, int] = (1280, 720)
    screenshot: Path | None = None
    visible: bool = True


class App:
    """Owns the window and the modes; switches between the menu and the modes. It is the
    :class:`~kabuto_ui.modes.Host` the modes start in."""

    def __init__(self, options: Options | None = None, window: Window | None = None):
        self.options = options or Options()
        self.base_materials = Materials.load()
        self.materials = (load_profile(self.options.tuning, self.base_materials)
                          if self.options.tuning else self.base_materials)
        self.window = window or Window(*self.options.size, visible=self.options.visible)
        self.settings = app_settings.load(self.data_dir)
        self.window.sounds = Sounds(kabuto_assets.path("sounds"), self.settings.volume,
                                    self.settings.mute, on_change=self._sound_changed)
        self.last_config = self.options.config or self.settings.setup or GameConfig(seed=None)
        self.last_mode = "kabuto"
        self.modes = ModeRegistry()
        for mode in (*builtin_modes(), CARD_TABLE):
            self.modes.add(mode)

    @property
    def data_dir(self) -> Path:
        from kabuto.replay.userdata import data_dir

        return data_dir(self.options.data_dir)

    def _sound_changed(self, volume: float, muted: bool) -> None:
        self.settings = replace(self.settings, volume=volume, mute=muted)
        app_settings.save(self.data_dir, self.settings)

    def set_pace(self, pace: str) -> None:
        self.settings = replace(self.settings, pace=pace)
        app_settings.save(self.data_dir, self.settings)

    def set_coach(self, on: bool) -> None:
        """The player switched the coach (C): later games start with it so too."""
        self.settings = replace(self.settings, coach=on)
        app_settings.save(self.data_dir, self.settings)

    @property
    def card_saves(self) -> Path:
        """Where the card table saves unfinished games (``cards/`` in the data folder)."""
        from kabuto.replay.userdata import data_dir

        return data_dir(self.options.data_dir) / "cards"

    # ----- navigation --------------------------------------------------------------------------------
    def open_menu(self) -> None:
        last = self.last_unfinished()
        self.window.set_scene(MenuScene(self.window, self.modes, self.start, self.last_config,
                                        self.last_mode,
                                        on_continue=self.continue_last if last else None,
                                        on_rules=self.show_rules))

    def show_rules(self) -> None:
        """The start menu's Rules: the game pages, one after another from a small chooser."""
        from kabuto_ui.overlay import Dialog, DialogButton, TextPage, rules_page

        path = kabuto_assets.path("help", "rules.toml")
        pages = [(k, rules_page(path, k)) for k in ("kabuto", "sumo-card-game", "sumo", "sumida-river")]
        def show(page: tuple[str, str]) -> None:
            self.window.show_overlay(TextPage(*page, on_close=self.show_rules))

        choices = [DialogButton(page[0], partial(show, page), f"rules:{k}") for k, page in pages
                   if page is not None]
        self.window.show_overlay(Dialog("Rules", choices + [DialogButton("Back", lambda: None, "rules:back")]))

    def start(self, mode: Mode, config: GameConfig) -> None:
        scene = mode.start(self, config)  # may raise ValueError: the menu shows it
        self.last_config = config
        self.last_mode = mode.key
        if mode.uses_menu_setup and self.options.config is None:  # the menu's choices, kept
            self.settings = replace(self.settings, setup=replace(config, seed=None))
            app_settings.save(self.data_dir, self.settings)
        self.window.set_scene(scene)

    def table(self, session: Session, rematch: Callable[[], None] | None = None) -> TableScene:
        return TableScene(self.window, session, on_menu=self.open_menu, on_rematch=rematch,
                          ai_delay=self.options.ai_delay, pace=self.settings.pace,
                          on_pace=self.set_pace, coach=self.settings.coach, on_coach=self.set_coach,
                          profile_dir=self.options.profiles or default_profile_dir(),
                          defaults=self.base_materials, data_dir=self.data_dir)

    def resume(self, path: Path) -> None:
        """Go on with a recorded game (Continue, the replay browser's Resume, ``--resume``);
        ValueError (one line) if the file cannot be resumed."""
        o = self.options
        try:
            session = GameSession.resume(path, o.config.seats if o.config else None, record=o.record,
                                         data_dir=o.data_dir, ai_workers=o.ai_workers)
        except (OSError, ReplayError) as exc:
            raise ValueError(f"{Path(path).name}: {exc}") from None
        if o.tuning is not None:
            session.set_materials(load_profile(o.tuning, session.materials))
        self.window.set_scene(self.table(session))

    def continue_last(self) -> None:
        """The start menu's Continue: the newest unfinished game, Kabuto Sumo or at the card table."""
        last = self.last_unfinished()
        if last is None:
            return
        kind, what = last
        if kind == "kabuto":
            self.resume(what.path)
        elif kind == "cards":
            from cards.table.scene import CardTableScene

            self.window.set_scene(CardTableScene(self.window, what.config, back=self.open_menu,
                                                 save_dir=self.card_saves, resume=what))

    def last_unfinished(self) -> tuple[str, Any] | None:
        """("kabuto", a ReplayEntry) or ("cards", a card-table save): the newest unfinished game."""
        from cards.table.saves import unfinished
        from kabuto.app.replay_list import last_unfinished
        from kabuto.replay.userdata import replays_dir

        kabuto = last_unfinished(replays_dir(self.options.data_dir))
        cards = next(iter(unfinished(self.card_saves)), None)
        if kabuto is None and cards is None:
            return None
        if cards is None or (kabuto is not None and kabuto.saved_at >= cards.saved_at):
            return "kabuto", kabuto
        return "cards", cards

    def first_scene(self) -> None:
        """What ``kabuto play`` opens: a resumed game, a replay, a game set by flags, or the menu."""
        o = self.options
        if o.resume is not None:
            self.resume(o.resume)
        elif o.replay is not None:
            self.window.set_scene(ReplayScene.open(self, o.replay))
        elif o.sandbox:
            self.start(self.modes["sandbox"], self.last_config)
        elif o.config is not None:
            self.start(self.modes["kabuto"], o.config)
        else:
            self.open_menu()
            self.offer_tutorial()

    def offer_tutorial(self) -> None:
        """On the first launch, offer the tutorial over the menu (once: the settings remember it)."""
        if self.settings.tutorial_offered:
            return
        from kabuto_ui.overlay import Dialog, DialogButton

        self.settings = replace(self.settings, tutorial_offered=True)
        app_settings.save(self.data_dir, self.settings)
        self.window.show_overlay(Dialog(
            "First time here?",
            [DialogButton("Play the tutorial", partial(self.start, self.modes["tutorial"], self.last_config),
                    "offer:tutorial"),
             DialogButton("Not now", lambda: None, "offer:skip")],
            message="A short guided game against the computer: aiming, the crowd, knock-outs and "
                    "the two ways to win. The menu's Tutorial opens it again later."))

    def run(self) -> None:
        self.first_scene()
        if self.options.screenshot is not None:
            for _ in range(3):
                self.window.pump()
            self.window.screenshot(self.options.screenshot)
            self.window.close()
            return
        self.window.start()
        pyglet.app.run(None)


# ----- the built-in modes ---------------------------------------------------------------------------
def _start_kabuto(app: Any, config: GameConfig) -> Scene:
    session = GameSession.new(config, app.materials, record=app.options.record,
                              data_dir=app.options.data_dir, ai_workers=app.options.ai_workers)
    return app.table(session, rematch=lambda: app.start(app.modes["kabuto"], config))


def _start_sandbox(app: Any, config: GameConfig) -> Scene:
    session = SandboxSession(app.materials, players=config.players)
    return app.table(session, rematch=lambda: app.start(app.modes["sandbox"], config))


def _start_replays(app: Any, config: GameConfig) -> Scene:
    return ReplayBrowser(app)


def _start_tutorial(app: Any, config: GameConfig) -> Scene:
    from kabuto.app.scene.tutorial_view import TutorialScene

    return TutorialScene.open(app)


def _start_online(app: Any, config: GameConfig) -> Scene:
    from kabuto.app.scene.online import LobbyScene

    return LobbyScene(app)


def builtin_modes() -> tuple[Mode, ...]:
    """The app's own modes (each ``start`` is given the :class:`App`)."""
    return (
        Mode("kabuto", "Kabuto Sumo", "2, 3 or 4 players (4: two teams of two). Push your rivals' "
             "beetle out of the ring.", _start_kabuto, order=10),
        Mode("tutorial", "Tutorial", "A short guided game: learn to push, knock out and win.",
             _start_tutorial, order=15, uses_menu_setup=False),
        Mode("online", "Play online", "Host a room on a kabuto server or join one by its code; "
             "the server's bots can fill the empty seats.", _start_online, order=25,
             uses_menu_setup=False),
        Mode("sandbox", "Free push (sandbox)", "The starting board and every disc kind, no rules: "
             "try pushes, tune the physics.", _start_sandbox, order=30, uses_menu_setup=False),
        Mode("replays", "Replays", "Watch a saved game turn by turn.", _start_replays, order=40,
             uses_menu_setup=False),
    )
