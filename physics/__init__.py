"""The pymunk world of Kabuto Sumo: a round ring seen from above, pieces, pushes and falls.

No game rules live here (turns, inventories, winners are :mod:`kabuto`'s). Units are SI: metres,
kilograms, seconds.
"""
from physics.materials import Materials, PieceType, Ring, SimSettings
from physics.shapes import Circle, Polygons
from physics.state import Fall, PieceState, Push, PushResult, Trajectory
from physics.world import World, state_hash

__all__ = ["Circle", "Fall", "Materials", "PieceState", "PieceType", "Polygons", "Push",
           "PushResult", "Ring", "SimSettings", "Trajectory", "World", "state_hash"]
