"""The research library: what the balance work, the benchmarks and the tools are built from.

* :mod:`kabuto.lab.match` - one AI-vs-AI game from its :class:`~kabuto.lab.match.GameSpec`, and
  its :class:`~kabuto.lab.match.GameRecord`;
* :mod:`kabuto.lab.tournament` - many games in parallel (local processes or Ray), kept on disk game
  by game, summed up as a win-rate matrix, CSV files and a heat map;
* :mod:`kabuto.lab.balance` - the balance report and its quick sequential verdict;
* :mod:`kabuto.lab.early_wins` - the search for a win on a player's first turn;
* :mod:`kabuto.lab.ledger` - the games' resumable ledgers (the report's, a folder of kept games'),
  on :class:`kabuto_base.ledger.Ledger`, which the early-wins search and tuning sweeps keep too;
* :mod:`kabuto.lab.fingerprint` - what decides a game, so kept games survive a refactor;
* :mod:`kabuto.lab.stats` - the Wilson interval;
* :mod:`kabuto.lab.positions` - the boards, seeded pushes and AI-game positions benchmarks and tests
  share; :mod:`kabuto.lab.games` - the replay benchmarks' seeded games;
  :mod:`kabuto.lab.parse_inputs` - files for timing the replay parser; :mod:`kabuto.lab.bare` - the
  bare pymunk loop the physics benchmarks are measured against.

The command line (:mod:`kabuto.cli`) only parses arguments and prints; the scripts in ``tools/``
call this library. It sits above the rules, the AI and replays, and below the command line.
"""
from __future__ import annotations


class LabError(Exception):
    """A run that cannot go on - an unreachable Ray cluster, a kept game of another run - said in
    one line for the person who started it (the command line prints it as a usage error)."""
