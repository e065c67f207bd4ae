"""The card table's scenes, in the shape the desktop app's window expects of a scene.

A scene is shown by a window (the app's ``kabuto.app.window.AppWindow``, or
:class:`cards.table.host.TableWindow` when the table runs on its own) that calls ``layout(w, h)``,
``update(dt) -> moving``, ``draw()``, ``close()`` and forwards mouse and key events, which return
True when handled. The window (``app``) must offer ``set_scene(scene)``; ``redraw()`` is used if
present.

* :class:`SetupScene`: choose the game and who sits in each seat, then *Start*.
* :class:`TableScene`: the game. Clicks go to :class:`~cards.table.table_model.TableModel`; a hand
  card dragged up onto the table is played. Bots act from ``update``, after a short pause (so people
  can follow) and once the cards have finished sliding; search bots think in a background thread so
  the window never freezes.
"""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pyglet

from cards.table.config import Pacing, TableConfig
from cards.table.display import ButtonItem, CardItem
from cards.table.match import BotFactory
from cards.table.render import Renderer
from cards.table.setup_model import SetupModel
from cards.table.table_model import TableModel

#: Design pixels a hand card must be dragged upwards to count as played.
DROP_RISE = 70
#: Design pixels the pointer may wander between press and release and still be a click.
CLICK_SLOP = 8


class _DisplayScene:
    """A scene drawn from a model's :class:`~cards.table.display.Display` (see the module docstring)."""

    def __init__(self, app: Any, pacing: Pacing | None = None) -> None:
        self.app = app
        self.renderer = Renderer(pacing)
        self.batch = self.renderer.batch
        self._synced = -1
        self._size = (getattr(app, "width", 1280), getattr(app, "height", 720))
        self.renderer.resize(*self._size)

    # The model (a TableModel or a SetupModel) provides display() and revision.
    model: Any

    def layout(self, width: int, height: int) -> None:
        self._size = (width, height)
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
        fn = getattr(self.app, "redraw", None)
        if fn is not None:
            fn()

    def design(self, x: float, y: float) -> tuple[float, float]:
        return self.renderer.to_design(x, y)

    def on_mouse_motion(self, x, y, dx, dy) -> bool:
        item = self.model.display().hit(*self.design(x, y))
        self.renderer.set_hover(item.key if isinstance(item, ButtonItem) and item.enabled else None)
        return True

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers) -> bool:
        return False

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y) -> bool:
        return False

    def on_key_press(self, symbol, modifiers) -> bool:
        return False

    def on_text(self, text) -> bool:
        return False


class SetupScene(_DisplayScene):
    """Choose the game and the seats (see :mod:`cards.table.setup_model`)."""

    def __init__(self, app: Any, mode: str | None = None, back: Callable[[], None] | None = None,
                 seed: int | None = None, pacing: Pacing | None = None,
                 bot_factory: BotFactory | None = None) -> None:
        super().__init__(app, pacing)
        self.back = back
        self.pacing = pacing
        self.bot_factory = bot_factory
        self.model = SetupModel(mode, back=back is not None, seed=seed)

    def update(self, dt: float) -> bool:
        return False

    def on_mouse_press(self, x, y, button, modifiers) -> bool:
        return True

    def on_mouse_release(self, x, y, button, modifiers) -> bool:
        self._follow(self.model.press(*self.design(x, y)))
        self._redraw()
        return True

    def on_key_press(self, symbol, modifiers) -> bool:
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
            self.app.set_scene(TableScene(self.app, config, back=self.back, bot_factory=self.bot_factory))
        elif what == "back" and self.back is not None:
            self.back()


class TableScene(_DisplayScene):
    """A card game at the table (see the module docstring)."""

    def __init__(self, app: Any, config: TableConfig, back: Callable[[], None] | None = None,
                 bot_factory: BotFactory | None = None) -> None:
        super().__init__(app, config.effective_pacing())
        self.config = config
        self.back = back
        self.bot_factory = bot_factory
        self.model = TableModel(config, bot_factory)
        self.pacing = config.effective_pacing()
        self._bot_wait = 0.0
        self._summary_wait = 0.0
        self._executor: ThreadPoolExecutor | None = None
        self._future: Future | None = None
        self._future_token: tuple[int, int] | None = None
        self._press: tuple[float, float, str | None] | None = None
        self._dragging: str | None = None

    # ----- time --------------------------------------------------------------------------------------
    def update(self, dt: float) -> bool:
        """Advance slides; let a bot act when it is its turn and the table is still."""
        moving = self.renderer.update(dt)
        changed = self._bots(dt)
        return moving or changed

    def _bots(self, dt: float) -> bool:
        model = self.model
        m = model.match
        if self._future is not None:
            if not self._future.done():
                return False
            future, token = self._future, self._future_token
            self._future = self._future_token = None
            if token != (id(m), m.actions_played):
                return False  # the table moved on (rematch, menu) while the bot was thinking
            model.apply_bot(future.result())
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
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="card-bot")
            model.thinking = True
            model.changed()
            self._future_token = (id(m), m.actions_played)
            # The copy is made here, on the window's thread: the bot never touches the real game.
            self._future = self._executor.submit(m.bot(m.current).act, m.game.clone())
            return True
        model.bot_step()
        return True

    def settle(self, max_steps: int = 100_000) -> int:
        """Run bots (and finish slides) until a person must act, a summary or pass screen shows, or
        the game ends - without waiting (tests and tools). Returns the bot actions played."""
        n = 0
        m = self.model.match
        while n < max_steps and m.bot_to_act():
            if self._future is not None:
                self._future.result()
                self._bots(0.0)
            else:
                self.model.bot_step()
            n += 1
            m = self.model.match
        self.renderer.finish()
        return n

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        self._future = None
        super().close()

    # ----- input -------------------------------------------------------------------------------------
    def on_mouse_press(self, x, y, button, modifiers) -> bool:
        dx, dy = self.design(x, y)
        item = self.model.item_at(dx, dy)
        key = None
        if isinstance(item, CardItem) and item.target and item.target.startswith("card:"):
            key = item.target[5:]
        self._press = (dx, dy, key)
        self._dragging = None
        return True

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers) -> bool:
        if self._press is None or self._press[2] is None:
            return False
        px, py, key = self._press
        qx, qy = self.design(x, y)
        if abs(qx - px) + abs(qy - py) > CLICK_SLOP:
            self._dragging = key
            self.renderer.nudge(f"hand:{key}", qx - px, qy - py)
        return True

    def on_mouse_release(self, x, y, button, modifiers) -> bool:
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
        if out == "menu":
            self.leave()
        self._redraw()
        return True

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y) -> bool:
        item = self.model.item_at(*self.design(x, y))
        if item is not None and item.target == "ui:log":
            self.model.scroll_log(int(round(scroll_y)) * 2)
            self._redraw()
            return True
        return False

    def on_key_press(self, symbol, modifiers) -> bool:
        if symbol == pyglet.window.key.ESCAPE:
            if self.model.selection:
                self.model.handle("ui:clear")
                self._redraw()
                return True
            return False
        return False

    def leave(self) -> None:
        """Back to the menu: the app's own, or the card table's set-up screen."""
        self.close_thread()
        if self.back is not None:
            self.back()
        else:
            self.app.set_scene(SetupScene(self.app, self.config.mode, back=None, pacing=self.config.pacing,
                                          bot_factory=self.bot_factory))

    def close_thread(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        self._future = None
