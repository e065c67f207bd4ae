"""The Kabuto Sumo AI: a bot that plans each turn by simulating candidate pushes.

    >>> from kabuto import Game
    >>> from kabuto.ai import choose, play_turn
    >>> game = Game.new(players=2, wrestlers=["mike", "hank"], seed=3, first_player=0)
    >>> plan = choose(game, level="easy", seed=7, workers=1)
    >>> outcomes = play_turn(game, plan)      # moves, push(es), moves, end of turn
    >>> game.current_seat
    1

* :func:`choose` (``kabuto.ai.search``) - the plan for the seat to move: signature moves before the
  push with their targets, the push actually executed (after the level's hand wobble) and the aim it
  came from, moves after, and the predicted outcome;
* :func:`play_turn` (``kabuto.ai.play``) - carry a plan out;
* levels easy / medium / hard are data in ``assets/ai.toml`` (``kabuto.ai.levels``);
* :func:`shutdown` stops the worker processes (they are started on first use and kept).
"""
from __future__ import annotations

from kabuto.ai.levels import LEVEL_NAMES, Level, level
from kabuto.ai.plan import MoveChoice, Plan, Prediction, PushChoice
from kabuto.ai.play import play_turn
from kabuto.ai.pool import shutdown, warm_up
from kabuto.ai.search import choose

__all__ = ["LEVEL_NAMES", "Level", "MoveChoice", "Plan", "Prediction", "PushChoice", "choose", "level",
           "play_turn", "shutdown", "warm_up"]
