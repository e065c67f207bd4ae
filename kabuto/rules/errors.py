"""The errors the Kabuto Sumo rules raise."""
from __future__ import annotations


class IllegalMove(ValueError):
    """An action the rules do not allow now: the message says why, and the game is unchanged.

    Raised by every :class:`kabuto.Game` action (a push, a signature move, ending a turn, an edit)
    that is refused - not your turn, a piece you do not have, a cost you cannot pay, a platform spot
    that is blocked, the game is over. It is a ``ValueError`` so callers that treat bad input
    generally can catch that.
    """


class ReplayError(ValueError):
    """A recorded action could not be re-applied, or did not lead to the recorded state."""
