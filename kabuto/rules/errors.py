"""The errors the Kabuto Sumo rules raise.

:class:`IllegalMove` is raised by every :class:`kabuto.Game` action (a push, a signature move,
ending a turn, an edit) that is refused - not your turn, a piece you do not have, a cost you cannot
pay, a platform spot that is blocked, the game is over - and leaves the game unchanged. It is the
project's one refusal (:mod:`kabuto_base.errors`), the card games' too: ``code`` and ``fields``
say which rule refused and about what, for a front end to say in its own words.
"""
from __future__ import annotations

from kabuto_base.errors import IllegalMove


class ReplayError(ValueError):
    """A recorded action could not be re-applied, or did not lead to the recorded state."""


__all__ = ["IllegalMove", "ReplayError"]
