"""The card table's scenes (:class:`kabuto_ui.scene.Scene`), and its window.

The scenes are shown by a :class:`kabuto_ui.window.Window`: the app's, or the one
:func:`open_window` opens when the table runs on its own (``python -m cards.table``, tests, tools).
The window (``app``) must offer ``set_scene(scene)`` and ``redraw()``.

* :class:`SetupScene`: choose the game and who sits in each seat, then *Start*.
* :class:`CardTableScene`: the game. Clicks go to :class:`~cards.table.table_model.TableModel`; a
  hand card dragged up onto the table is played. Bots act from ``update``, after a short pause (so
  people can follow) and once the cards have finished sliding; search bots think on a
  :class:`~kabuto_ui.worker.Worker` thread so the window never freezes.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import pyglet

import kabuto_assets
from cards.table import saves
from cards.table.config import MIN_WINDOW, Pacing, TableConfig
from cards.table.display import DESIGN_H, DESIGN_W, ButtonItem, CardItem, Display
from cards.table.match import BotFactory, Match
from cards.table.render import Renderer
from cards.table.setup_model import SetupModel
from cards.table.table_model import TableModel
from kabuto_ui.overlay import pause_menu, rules_page, sound_choice
from kabuto_ui.scene import Scene
from kabuto_ui.window import Window
from kabuto_ui.worker import Worker

#: Design pixels a hand card must be dragged upwards to count as played.
DROP_RISE = 70
#: Design pixels the pointer may wander between press and release and still be a click.
CLICK_SLOP = 8


def open_window(width: int = DESIGN_W, height: int = DESIGN_H, visible: bool = True) -> Window:
    """A window of the card table's own (its caption, and its smaller minimum size)."""
    return Window(width, height, visible=visible, title="Kabuto - card table", min_size=MIN_WINDOW)


class _Model(Protocol):
    """What a display scene draws from: the current picture, and a number that grows with it."""

    revision: int

    def display(self) -> Display: ...


class _DisplayScene(Scene):
    """A scene drawn from a model's :class:`~cards.table.display.Display` (see the module docstring)."""

    model: _Model

    def __init__(self, app: Window, pacing: Pacing | None = None) -> None:
        super().__init__(app)
        self.renderer = Renderer(pacing)
        self.batch = self.renderer.batch
        self._synced = -1
        self.renderer.resize(app.width, app.height)

    def layout(self, width: int, height: int) -> None:
        self.renderer.resize(width, height)
        self._synced = -1

    def sync(self) -> None:
        """Bring the renderer up to the model's latest picture."""
        if self._synced != self.model.revision:
            self.renderer.sync(self.model.display())
            self._synced = self.model.revision

    def draw(self) -> None:
        self.sync()
        self.renderer.draw()

    def close(self) -> None:
        self.renderer.delete()

    def _redraw(self) -> None:
        self.app.redraw()

    def design(self, x: float, y: float) -> tuple[float, float]:
        return self.renderer.to_design(x, y)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool:
        item = self.model.display().hit(*self.design(x, y))
        self.renderer.set_hover(item.key if isinstance(item, ButtonItem) and item.enabled else None)
        return True


class SetupScene(_DisplayScene):
    """Choose the game and the seats (see :mod:`cards.table.setup_model`)."""

    model: SetupModel

    def __init__(self, app: Window, mode: str | None = None, back: Callable[[], None] | None = None,
                 seed: int | None = None, pacing: Pacing | None = None,
                 bot_factory: BotFactory | None = None, save_dir: Path | None = None) -> None:
        super().__init__(app, pacing)
        self.save_dir = save_dir
        self.back = back
        self.pacing = pacing
        self.bot_factory = bot_factory
        self.model = SetupModel(mode, back=back is not None, seed=seed)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        return True

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        self._follow(self.model.press(*self.design(x, y)))
        self._redraw()
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol == pyglet.window.key.ESCAPE and self.back is not None:
            self.back()
            return True
        if symbol in (pyglet.window.key.ENTER, pyglet.window.key.RETURN):
            self._follow(self.model.handle("ui:start"))
            return True
        return False

    def _follow(self, out: tuple[str, TableConfig | None] | None) -> None:
        if out is None:
            return
        what, config = out
        if what == "start" and config is not None:
            if self.pacing is not None:
                config = TableConfig(config.mode, config.seats, config.seed, pacing=self.pacing)
            self.app.set_scene(CardTableScene(self.app, config, back=self.back, save_dir=self.save_dir,
                                              bot_factory=self.bot_factory))
        elif what == "back" and self.back is not None:
            self.back()


class CardTableScene(_DisplayScene):
    """A card game at the table (see the module docstring)."""

    model: TableModel

    def __init__(self, app: Window, config: TableConfig, back: Callable[[], None] | None = None,
                 bot_factory: BotFactory | None = None, save_dir: Path | None = None,
                 resume: saves.Saved | None = None) -> None:
        super().__init__(app, config.effective_pacing())
        self.config = config
        self.back = back
        self.bot_factory = bot_factory
        self.save_dir = save_dir
        self._save_path: Path | None = resume.path if resume is not None else None
        match = Match.resume(config, resume.state, bot_factory) if resume is not None else None
        self.model = TableModel(config, bot_factory, match=match)
        self._actions_heard = self.model.match.actions_played
        self.pacing = config.effective_pacing()
        self._bot_wait = 0.0
        self._summary_wait = 0.0
        self.worker = Worker("card-bot")
        self._press: tuple[float, float, str | None] | None = None
        self._dragging: str | None = None

    # ----- time --------------------------------------------------------------------------------------
    def update(self, dt: float) -> bool:
        """Advance slides; let a bot act when it is its turn and the table is still."""
        moving = self.renderer.update(dt)
        changed = self._bots(dt)
        played = self.model.match.actions_played
        if played > self._actions_heard:  # a card (or cards) went down: one soft flick
            self.app.play_sound("card")
        self._actions_heard = played
        return moving or changed

    def _bots(self, dt: float) -> bool:
        model = self.model
        m = model.match
        if self.worker.busy:
            done = self.worker.poll()
            if done is None:
                return False
            if done.token != (id(m), m.actions_played):
                return False  # the table moved on (rematch, menu) while the bot was thinking
            model.apply_bot(done.value)
            self._bot_wait = 0.0
            return True
        if not m.humans and m.summary is not None:
            # Bots only: summaries close by themselves after a while.
            self._summary_wait += dt
            if self._summary_wait >= 3 * self.pacing.bot_delay:
                self._summary_wait = 0.0
                m.dismiss_summary()
                model.changed()
                return True
            return False
        if not m.bot_to_act():
            self._bot_wait = 0.0
            return False
        if self.renderer.moving and self.pacing.slide > 0:
            return False  # let the last move finish sliding first
        self._bot_wait += dt
        if self._bot_wait < self.pacing.bot_delay:
            return False
        self._bot_wait = 0.0
        if model.bot_slow():
            model.thinking = True
            model.changed()
            # The copy is made here, on the window's thread: the bot never touches the real game.
            self.worker.submit(m.bot(m.current).act, m.game.clone(), token=(id(m), m.actions_played))
            return True
        model.bot_step()
        return True

    def settle(self, max_steps: int = 100_000) -> int:
        """Run bots (and finish slides) until a person must act, a summary or pass screen shows, or
        the game ends - without waiting (tests and tools). Returns the bot actions played."""
        n = 0
        m = self.model.match
        while n < max_steps and m.bot_to_act():
            if self.worker.busy:
                self.worker.wait()
                self._bots(0.0)
            else:
                self.model.bot_step()
            n += 1
            m = self.model.match
        self.renderer.finish()
        return n

    def close(self) -> None:
        self.save()  # an unfinished game is always saved, however the table is left
        self.worker.close()
        super().close()

    # ----- input -------------------------------------------------------------------------------------
    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        dx, dy = self.design(x, y)
        item = self.model.item_at(dx, dy)
        key = None
        if isinstance(item, CardItem) and item.target and item.target.startswith("card:"):
            key = item.target[5:]
        self._press = (dx, dy, key)
        self._dragging = None
        return True

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool:
        if self._press is None or self._press[2] is None:
            return False
        px, py, key = self._press
        qx, qy = self.design(x, y)
        if abs(qx - px) + abs(qy - py) > CLICK_SLOP:
            self._dragging = key
            self.renderer.nudge(f"hand:{key}", qx - px, qy - py)
        return True

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        press, self._press = self._press, None
        dragging, self._dragging = self._dragging, None
        qx, qy = self.design(x, y)
        if dragging is not None and press is not None:
            self.renderer.nudge(f"hand:{dragging}", 0, 0)
            if qy - press[1] >= DROP_RISE:
                self.model.drop(dragging)
            self._redraw()
            return True
        if press is not None and abs(qx - press[0]) + abs(qy - press[1]) > CLICK_SLOP:
            return True  # pressed on one thing, released elsewhere: not a click
        out = self.model.press(qx, qy)
        if out == "menu" and self.model.match.over:
            self.leave()  # a finished game's "Back to menu": nothing to pause or save
        elif out == "menu":
            self.pause()
        self._redraw()
        return True

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        item = self.model.item_at(*self.design(x, y))
        if item is not None and item.target == "ui:log":
            self.model.scroll_log(int(round(scroll_y)) * 2)
            self._redraw()
            return True
        return False

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol == pyglet.window.key.ESCAPE and self.model.selection:
            self.model.handle("ui:clear")
            self._redraw()
            return True
        if symbol == pyglet.window.key.ESCAPE:
            self.pause()
            return True
        return False

    # ----- pausing, saving, leaving ------------------------------------------------------------------
    def pause(self) -> None:
        """Escape or Menu: the shared pause menu (Continue, Rules, Save and leave, Quit)."""
        game = self.model.match.mode.game
        over = self.model.match.over
        where = ("This game is over." if over
                 else "Your game is saved when you leave; Continue on the start menu goes on with it."
                 if self.save_dir is not None else "")
        pause_menu(self.app, rules=rules_page(kabuto_assets.path("help", "rules.toml"), game),
                   save_and_leave=self.leave, quit_app=self._quit, message=where,
                   settings=sound_choice(self.app, self.pause),
                   leave="Leave to the menu" if over or self.save_dir is None
                   else "Save and leave to the menu")

    def save(self) -> Path | None:
        """Write the unfinished game to ``save_dir`` (nothing when it is over or there is none)."""
        m = self.model.match
        if self.save_dir is None or m.over:
            if m.over and self._save_path is not None and self._save_path.exists():
                self._save_path.unlink()  # a finished game is nothing to continue
                self._save_path = None
            return None
        self._save_path = saves.save(self.save_dir, m.config, m.game.to_json(), m.actions_played,
                                     name=self._save_path.name if self._save_path else None)
        return self._save_path

    def _quit(self) -> None:
        self.save()
        self.app.on_close()

    def leave(self) -> None:
        """Back to the menu: the app's own, or the card table's set-up screen."""
        self.save()
        self.worker.close()
        if self.back is not None:
            self.back()
        else:
            self.app.set_scene(SetupScene(self.app, self.config.mode, back=None, pacing=self.config.pacing,
                                          save_dir=self.save_dir,
                                          bot_factory=self.bot_factory))
