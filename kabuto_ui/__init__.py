"""The UI toolkit both pyglet front ends share: the Kabuto app (:mod:`kabuto.app`) and the card
table (:mod:`cards.table`). It knows windows, scenes, widgets and colours, never a game: it imports
pyglet and the standard library only (``tests/ui/test_boundaries.py`` checks that).

* ``window``          - :class:`~kabuto_ui.window.Window`, the one window class: it shows one scene,
                        runs the 60 Hz tick, draws partial frames, takes screenshots
* ``scene``           - :class:`~kabuto_ui.scene.Scene`, what a window shows (the protocol and a base
                        with do-nothing defaults), and :class:`~kabuto_ui.scene.WidgetScene`, a page
                        of widgets
* ``widgets``         - labels, buttons, sliders and the container that routes the mouse to them
* ``frames``          - partial repaint: a cached still picture, repaired rectangles, partial presents
* ``theme``           - the one palette: colours, font sizes, the seats' names and colours
* ``geometry``        - :class:`~kabuto_ui.geometry.Rect`, a screen rectangle
* ``modes``           - :class:`~kabuto_ui.modes.ModeRegistry`, the start menu's modes
* ``worker``          - :class:`~kabuto_ui.worker.Worker`, one job at a time off the window's thread
* ``tween``           - easing, and boxes sliding from one place to another
* ``virtual_display`` - a private Xvfb for tests and tools

``theme``, ``geometry``, ``modes``, ``worker``, ``tween`` and ``virtual_display`` do not import pyglet, so pure
modules (models, tests) may use them without a display; the rest do (pyglet opens the display when
its GL layer is first imported).
"""
