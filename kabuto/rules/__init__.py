"""The rules of Kabuto Sumo on top of the :mod:`physics` world: setup, turns, pushes, signature
moves, knock-outs, submission and the end of the game. Nothing here draws or reads the keyboard."""
