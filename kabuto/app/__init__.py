"""The Kabuto desktop app (pyglet 2.1): `kabuto play` opens it (:mod:`kabuto.cli.play`).

Layout of the package (each module small and named for what it holds):

* ``main``        - the App: the window, the start menu, switching modes, the built-in modes
* ``window``      - the one window, the 60 Hz tick, scenes, screenshots
* ``modes``       - the start menu's registry; the card table (issue #8) registers "cards" here
* ``scene/``      - ``menu``, ``table`` (ring + panels + aim + AI + win screen), ``ring_view``
                    (the ring drawn to scale), ``replay_view`` (the replay viewer and browser)
* ``session``     - what the table plays: the :class:`SandboxSession` (physics only) ...
* ``game_session``- ... or a Kabuto Sumo game through :mod:`kabuto.rules.game`, recorded by
                    :mod:`kabuto.replay.recorder`
* ``bot``         - AI seats: :mod:`kabuto.ai` when present, else a small sampling bot
* ``aim``, ``view``, ``animation``, ``tuning``, ``replay_model``, ``catalogue`` - pure logic
                    (no pyglet): aiming geometry, metres <-> pixels, trajectory playback,
                    tuning profiles (TOML), replay stepping, the cards the menu shows
* ``panels``, ``widgets``, ``tuning_panel``, ``theme`` - what is drawn around the ring
* ``virtual_display`` - a private Xvfb for tests and tools

Importing a module that draws needs a display (pyglet opens one when its GL layer is imported);
the pure modules do not import pyglet. The rules never import anything from here.
"""
