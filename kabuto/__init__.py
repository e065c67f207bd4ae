"""Kabuto Sumo: the rules of the game on top of the :mod:`physics` world."""
