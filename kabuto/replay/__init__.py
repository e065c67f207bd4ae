"""Replays: the saved-game file format (:mod:`kabuto.replay.format`), the recorder that writes one
after every turn (:mod:`kabuto.replay.recorder`) and the per-user data folder that holds them."""
