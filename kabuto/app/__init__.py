"""The Kabuto desktop app (pyglet): `kabuto play` opens it.

Layout of the package (each module small and named for what it holds):

* ``window``      - the one window, the 60 Hz tick, scenes, screenshots
* ``view``        - ring metres <-> window pixels (pure arithmetic)
* ``aim``         - the mouse/keyboard aiming gesture as geometry (pure)
* ``animation``   - real-time playback of a push's recorded trajectory (pure)
* ``session``     - what the table plays: the physics sandbox, or a game (``game_session``)
* ``panels``, ``widgets``, ``tuning_panel`` - the side panel, aim bar, buttons, sliders
* ``tuning``      - tuning profiles as TOML (pure)
* ``modes``       - the start menu's registry of things to play (the card table adds itself here)
* ``scene/``      - the menu, the table (ring + panels), the replay viewer

Importing a module that draws needs a display (pyglet opens one on import of its GL layer); the
pure modules above do not. Rules never import anything from here.
"""
