"""The fingerprint of what decides a game: a kept game (a balance report's ledger line, a
tournament's replay folder) counts only if today's code and data would play it the same way.

A game's fingerprint follows *behaviour*, not source text. It covers the data that decide games
(``materials.toml``, ``wrestlers.toml``, ``ai.toml``, ``junior.toml``, and of ``setups.toml`` the
supply and the board and inventories of the game's number of players), pymunk's version, and a
**probe**: a fixed set of short seeded games (:data:`PROBES`) played through the very loop that
plays the report's games (:func:`kabuto.lab.match.play_game`), every level of the AI taking part,
whose every action and the state hash after it are digested. A refactor of the physics, the rules,
the AI or the loop that changes no decision and no position keeps every finished game; a change that
moves a piece or a decision in the probe makes them stale. A change that would alter only positions
the probe never reaches goes unseen: the probe's games cover every wrestler, every level and every
board, and a design change (a change of data) always counts.

How a tournament or a report is run, resumed or written is not in it, so editing those never
throws away games already played.

The early-wins search (``tools/early_wins.py``) keeps its units of work under
:func:`search_fingerprint`: the same data, the physics and rules' sources, but of the AI only what
the search asks of it - the settings of ``ai.toml``'s ``[search]`` table as read, and the target
combinations it tries for each signature move, digested from a fixed set of options - and of the
wrestler cards only those of the unit's lineup. Retuning how the AI scores or plays replays the
report's games and not the search; retuning one wrestler searches again only its lineups.
"""
from __future__ import annotations

import ast
import hashlib
import json
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from kabuto.lab import match
from kabuto.lab.match import GameSpec

#: The data files that decide how a game goes (the rest of assets/ is help, sounds, card faces).
GAME_DATA = ("materials.toml", "setups.toml", "wrestlers.toml", "ai.toml", "junior.toml")


def source_digest(text: str) -> str:
    """What the interpreter sees of a module: its syntax tree with docstrings dropped (comments and
    layout are not in the tree), so editing prose never makes a ledger's games stale.

    >>> source_digest('def f():\\n    "Why."\\n    return 1  # one') == source_digest('def f():\\n  return 1')
    True
    """
    tree = ast.parse(text)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


def data_digest(name: str, text: str, players: int, table: str | None = None,
                wrestlers: tuple[str, ...] | None = None) -> str:
    """What a game of ``players`` sees of the data file ``name``: its values (comments and layout
    are not data), and of ``setups.toml`` only the supply and the sections for that many players;
    ``table``: only that top-level table of the file; ``wrestlers``: of ``wrestlers.toml`` only
    those wrestlers' cards, in the game's seat order.

    >>> a = '[supply]\\nlarge = 5\\n[boards.3]\\nlarge = [[0.0, 0.1]]\\n[boards.2]\\nlarge = []\\n'
    >>> b = a.replace('0.1', '0.2') + '# a note\\n'
    >>> data_digest('setups.toml', a, 2) == data_digest('setups.toml', b, 2)
    True
    >>> data_digest('setups.toml', a, 3) == data_digest('setups.toml', b, 3)
    False
    """
    data = tomllib.loads(text)
    if table is not None:
        data = {table: data.get(table)}
    if name == "setups.toml":
        data = {key: section.get(str(players)) if key != "supply" and isinstance(section, dict)
                else section for key, section in data.items()}
    if name == "wrestlers.toml" and wrestlers is not None:
        cards = {card.get("key"): card for card in data.get("wrestler", [])}
        data = {**data, "wrestler": [cards.get(key) for key in wrestlers]}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


#: The probe's games for each number of players: (wrestler keys, first player, levels, turns).
#: Every wrestler and every level of ``ai.toml`` plays in the two-player probe; the three- and
#: four-player probes play their own boards.
PROBES: dict[int, tuple[tuple[tuple[str, ...], int, tuple[str, ...], int], ...]] = {
    2: ((("annie", "bea"), 0, ("hard", "medium"), 2),
        (("dora", "gus"), 1, ("easy", "hard"), 2),
        (("hank", "jade"), 0, ("medium", "easy"), 2),
        (("mike", "rita"), 1, ("expert", "hard"), 2)),
    3: ((("bea", "hank", "rita"), 0, ("hard", "medium", "easy"), 1),),
    4: ((("annie", "gus", "jade", "mike"), 0, ("hard", "medium", "hard", "easy"), 1),),
}


@cache
def fingerprint(players: int) -> str:
    """The fingerprint of the data and the behaviour that play a game of ``players`` here (16 hex
    digits)."""
    import pymunk

    h = hashlib.sha256(f"pymunk {pymunk.version}\n".encode())
    _data(h, players, {})
    h.update(f"behaviour {behaviour_digest(players)}\n".encode())
    return h.hexdigest()[:16]


def behaviour_digest(players: int, levels: dict[str, Any] | None = None) -> str:
    """The digest of the probe's games of ``players``: every action each game made and the state
    hash after it, how it ended. ``levels`` as for :func:`kabuto.lab.match.play_game` (tests)."""
    h = hashlib.sha256()
    for i, (wrestlers, first, lv, turns) in enumerate(PROBES[players]):
        spec = GameSpec(i, wrestlers, first, lv, seed=1000 + i, max_turns=turns)
        rec = match.play_game(spec, levels=levels)
        h.update(json.dumps([rec.replay.get("actions", []), rec.winner, rec.reason, rec.turns],
                            sort_keys=True, separators=(",", ":")).encode())
    return h.hexdigest()


@cache
def search_fingerprint(players: int, wrestlers: tuple[str, ...]) -> str:
    """The fingerprint of what decides an early-wins search unit on the board of ``players`` with
    ``wrestlers`` in its seats: the data (of the wrestler cards, only theirs), the physics, the
    rules and what the search asks of the AI (:func:`search_targets_digest`) - not how the AI
    scores, searches or looks ahead, which the search never asks (so a change there, which replays
    every report game, leaves the search's CPU hours standing), nor another wrestler's card (so
    retuning one wrestler searches again only the lineups it stands in)."""
    return _fingerprint(players, {"ai.toml": "search"}, search_targets_digest(players), wrestlers)


def search_targets_digest(players: int) -> str:
    """The digest of what the early-wins search uses of the AI on the board of ``players``: the
    search settings as :func:`kabuto.ai.levels.config` reads them, and the target combinations
    :func:`kabuto.ai.signature.target_combos` gives every signature move of every wrestler at the
    start of a game, and a made-up option of every kind of target (so a change of how targets are
    spread counts even where no wrestler's move reaches it at the start)."""
    from dataclasses import asdict

    from kabuto.ai.levels import config
    from kabuto.ai.signature import target_combos
    from kabuto.rules.game import Game
    from kabuto.rules.moves import MoveOption, TargetSpec
    from kabuto.rules.wrestlers import load_wrestlers

    search = config().search
    h = hashlib.sha256(json.dumps(asdict(search), sort_keys=True).encode())
    keys = [w.key for w in load_wrestlers()]
    options: list[MoveOption] = []
    for i in range(0, len(keys), players):
        table = (keys[i:] + keys)[:players]
        game = Game.new(players=players, wrestlers=table, seed=0, first_player=0)
        options += [opt for seat in range(players) for opt in game.available_moves(seat)]
    made_up = (TargetSpec("seat", "seat", "", choices=(0, 1)),
               TargetSpec("piece", "piece", "", choices=("a", "b", "c")),
               TargetSpec("angle", "angle_deg", ""), TargetSpec("turn", "angle_deg", "", low=-30, high=45),
               TargetSpec("far", "distance_mm", "", high=20.0), TargetSpec("side", "side", "", choices=("l", "r")))
    options += [MoveOption(0, "", "made up", "", False, (t,), True, None) for t in made_up]
    options.append(MoveOption(0, "", "made up", "", False, made_up, True, None))
    for opt in options:
        h.update(json.dumps([opt.name, [t.to_json() for t in opt.targets], target_combos(opt, search)],
                            sort_keys=True, default=str).encode())
    return h.hexdigest()


def _package(package: Any) -> list[tuple[Path, str]]:
    root = Path(package.__file__ or "").parent
    return [(path, path.relative_to(root.parent).as_posix()) for path in sorted(root.rglob("*.py"))]


def _data(h: Any, players: int, tables: dict[str, str], wrestlers: tuple[str, ...] | None = None) -> None:
    """Add the game data a game of ``players`` sees to the hash ``h`` (of a file named in
    ``tables``, only that table; of the wrestler cards, only ``wrestlers``' if given)."""
    import kabuto_assets

    for name in GAME_DATA:
        text = kabuto_assets.path(name).read_text(encoding="utf-8")
        h.update(f"{name} {data_digest(name, text, players, tables.get(name), wrestlers)}\n".encode())


def _fingerprint(players: int, tables: dict[str, str], behaviour: str,
                 wrestlers: tuple[str, ...] | None = None) -> str:
    """pymunk's version, the game data (of a file named in ``tables``, only that table; of the
    wrestler cards, only ``wrestlers``' if given), the physics and the rules' sources, and the
    digest ``behaviour``, hashed."""
    import pymunk

    import kabuto.rules
    import physics

    h = hashlib.sha256(f"pymunk {pymunk.version}\n".encode())
    _data(h, players, tables, wrestlers)
    for path, rel in [*_package(physics), *_package(kabuto.rules)]:
        h.update(f"{rel} {source_digest(path.read_text(encoding='utf-8'))}\n".encode())
    h.update(f"behaviour {behaviour}\n".encode())
    return h.hexdigest()[:16]


def code_of(spec: GameSpec) -> str:
    """The fingerprint a game of ``spec`` is played under here."""
    return fingerprint(spec.players)
