"""The app as a whole: the window, the start menu, and going from one mode to another.

:class:`App` registers the built-in modes (Kabuto Sumo, the physics sandbox, replays and a
placeholder for the card table that the card-table module replaces when it registers ``"cards"``).
"""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

import pyglet

from kabuto.app import modes
from kabuto.app.modes import GameConfig, Mode
from kabuto.app.scene.menu import MenuScene
from kabuto.app.scene.table import TableScene
from kabuto.app.session import SandboxSession
from kabuto.app.tuning import default_profile_dir, load_profile
from kabuto.app.window import AppWindow
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
    extra: dict = field(default_factory=dict)


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


class App:
    """Owns the window; switches between the menu and the modes."""

    def __init__(self, options: Options | None = None, window: AppWindow | None = None):
        self.options = options or Options()
        self.base_materials = Materials.load()
        self.materials = (load_profile(self.options.tuning, self.base_materials)
                          if self.options.tuning else self.base_materials)
        self.window = window or AppWindow(*self.options.size, visible=self.options.visible)
        self.last_config = self.options.config or GameConfig()
        self.last_mode = "kabuto"
        _register_builtin_modes(self)

    # ----- navigation --------------------------------------------------------------------------------
    def open_menu(self) -> None:
        self.window.set_scene(MenuScene(self.window, self.start, self.last_config, self.last_mode))

    def start(self, mode: Mode, config: GameConfig) -> None:
        scene = mode.start(self, config)  # may raise ValueError: the menu shows it
        self.last_config = config
        self.last_mode = mode.key
        self.window.set_scene(scene)

    def table(self, session, rematch=None) -> TableScene:
        return TableScene(self.window, session, on_menu=self.open_menu, on_rematch=rematch,
                          ai_delay=self.options.ai_delay,
                          profile_dir=self.options.profiles or default_profile_dir(),
                          defaults=self.base_materials)

    def first_scene(self) -> None:
        """What ``kabuto play`` opens: a resumed game, a replay, a game set by flags, or the menu."""
        o = self.options
        if o.resume is not None:
            from kabuto.app.game_session import GameSession

            session = GameSession.resume(o.resume, o.config.seats if o.config else None,
                                         record=o.record, data_dir=o.data_dir,
                                         ai_workers=o.ai_workers)
            if o.tuning is not None:
                session.set_materials(load_profile(o.tuning, session.materials))
            self.window.set_scene(self.table(session))
        elif o.replay is not None:
            from kabuto.app.scene.replay_view import ReplayScene

            self.window.set_scene(ReplayScene.open(self, o.replay))
        elif o.sandbox:
            self.start(modes.MODES["sandbox"], self.last_config)
        elif o.config is not None:
            self.start(modes.MODES["kabuto"], o.config)
        else:
            self.open_menu()

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
def _register_builtin_modes(app: App) -> None:
    def start_kabuto(app_: App, config: GameConfig):
        from kabuto.app.game_session import GameSession

        session = GameSession.new(config, app_.materials, record=app_.options.record,
                                  data_dir=app_.options.data_dir, ai_workers=app_.options.ai_workers)
        return app_.table(session, rematch=lambda: app_.start(modes.MODES["kabuto"], config))

    def kabuto_available() -> str:
        if not _has("kabuto.rules.game"):
            return "the rules engine (kabuto.rules.game) is not in this build yet"
        return ""

    def start_sandbox(app_: App, config: GameConfig):
        session = SandboxSession(app_.materials, players=config.players)
        return app_.table(session, rematch=lambda: app_.start(modes.MODES["sandbox"], config))

    def start_replays(app_: App, config: GameConfig):
        from kabuto.app.scene.replay_view import ReplayBrowser

        return ReplayBrowser(app_)

    def replays_available() -> str:
        return kabuto_available()  # replays are re-played by the rules engine

    def cards_placeholder(app_: App, config: GameConfig):
        raise ValueError("the card table is not in this build yet")

    modes.register_mode(Mode("kabuto", "Kabuto Sumo", "2, 3 or 4 players (4: two teams of two). "
                             "Push your rivals' beetle out of the ring.", start_kabuto, order=10,
                             available=kabuto_available))
    if "cards" not in modes.MODES:
        # The card table (issue #8) replaces this entry by registering its own "cards" mode.
        modes.register_mode(Mode("cards", "Card games", "Sumo Card Game, SUMO and Sumida River at "
                                 "the card table.", cards_placeholder, order=20,
                                 uses_kabuto_setup=False,
                                 available=lambda: "the card table is not in this build yet"))
    modes.register_mode(Mode("sandbox", "Free push (sandbox)", "The starting board and every disc "
                             "kind, no rules: try pushes, tune the physics.", start_sandbox, order=30,
                             uses_kabuto_setup=False))
    modes.register_mode(Mode("replays", "Replays", "Watch a saved game turn by turn.", start_replays,
                             order=40, uses_kabuto_setup=False, available=replays_available))
