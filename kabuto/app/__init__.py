"""The Kabuto desktop app (pyglet 2.1): `kabuto play` opens it (:mod:`kabuto.cli.play`).

It is built on the shared UI toolkit :mod:`kabuto_ui` (the window, scenes, widgets, partial frames,
the palette, the mode registry, the worker thread, the virtual display), which the card table
(:mod:`cards.table`) uses too. Layout of the package (each module small and named for what it holds):

* ``main``        - the composition root: the App (the window, the start menu, switching modes),
                    its built-in modes, and the card table's mode wired in
* ``game_config`` - the start menu's choices for a Kabuto Sumo game
* ``scene/``      - ``menu``, ``table`` (ring + panels + aim + AI + win screen), ``ring_view``
                    (the ring drawn to scale), ``replay_view`` (the replay viewer and browser)
* ``session``     - what the table plays: the :class:`SandboxSession` (physics only) ...
* ``game_session``- ... or a Kabuto Sumo game through :mod:`kabuto.rules.game`, recorded by
                    :mod:`kabuto.replay.recorder`
* ``bot``         - AI seats, through :mod:`kabuto.ai`
* ``aim``, ``view``, ``animation``, ``tuning``, ``replay_model``, ``catalogue`` - pure logic
                    (no pyglet): aiming geometry, metres <-> pixels, trajectory playback,
                    tuning profiles (TOML), replay stepping, the cards the menu shows
* ``panels``, ``tuning_panel`` - what is drawn around the ring

Importing a module that draws needs a display (pyglet opens one when its GL layer is imported);
the pure modules do not import pyglet. The rules never import anything from here.
"""
