"""Player-facing words: what the table shows is said the way a player would say it.

The rules engine speaks to programs as well as people: a refusal is data, a ``code`` and its
``fields`` (:class:`kabuto_base.errors.IllegalMove`), and its sentence names pieces by id. The
table never rewrites that sentence: :func:`refusal` says the refusal again from its code, naming
seats, pieces and kinds through the session (the tests check every message for ids, kind keys
and long numbers: ``tests/app/helpers.py``'s ``leaks``). No pyglet.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def _cap(text: str) -> str:
    """``text`` starting with a capital, the rest as it is ("Goliath Gus's wrestler piece", not
    str.capitalize's "Goliath gus's ...")."""
    return text[:1].upper() + text[1:]


def _nth_turn(n: int) -> str:
    """'second turn' for 2."""
    return f"{_ORDINALS[n - 1]} turn" if 1 <= n <= len(_ORDINALS) else f"turn {n}"


#: A refusal in a player's words, by its code (:class:`kabuto_base.errors.IllegalMove`): each
#: gets the refusal's fields and ``said(kind, value)``, which names a seat ("Blue"), a piece or a
#: kind ("the medium disc", "Horn Bar") or a move the way the table does.
_REFUSALS: dict[str, Callable[[dict[str, Any], Callable[[str, Any], str]], str]] = {
    "game_over": lambda f, said: "The game is over.",
    "turn_replaced": lambda f, said: "A signature move took the place of this turn.",
    "pushed_already": lambda f, said: ("You have already pushed this turn." if f.get("pushes", 1) == 1
                                       else f"You have made all {f['pushes']} pushes this turn."),
    "push_first": lambda f, said: "Push a piece before you end your turn.",
    "not_your_turn": lambda f, said: f"It is {said('seat', f['seat'])}'s turn.",
    "not_in_inventory": lambda f, said: f"{_cap(said('piece', f['piece']))} is not yours to push.",
    "none_left": lambda f, said: f"You have no {said('kind', f['kind'])} left to push.",
    "no_such_piece": lambda f, said: "There is no such piece in this game.",
    "platform_locked": lambda f, said: "The pushing platform stays where it is for this turn's second push.",
    "wrong_kind": lambda f, said: f"This turn's second push must be a {said('kind', f['kind'])}.",
    "too_fast": lambda f, said: "That is faster than a hand pushes: no flicking.",
    "junior_no_moves": lambda f, said: "Junior League wrestlers have no signature moves.",
    "too_early": lambda f, said: f"{said('move', f['move'])} can be used from your {_nth_turn(f['turn'])} on.",
    "move_used": lambda f, said: f"{said('move', f['move'])} was already used this turn.",
    "replaces_turn": lambda f, said: (f"{said('move', f['move'])} replaces your turn: use it before "
                                      "you push or use another move."),
    "nothing_to_push": lambda f, said: f"{said('move', f['move'])} would leave you nothing to push this turn.",
    "cannot_pay": lambda f, said: (f"{said('move', f['move'])} costs {f['count']} "
                                   f"{said('kind', f['kind'])}{'s' * (f['count'] != 1)}; you have {f['have']}."),
    "does_not_fit": lambda f, said: (f"{said('move', f['move'])} does not fit there: another piece is in the way."
                                     if "move" in f else
                                     f"The {said('kind', f['kind'])} does not fit there: another piece is in the way."),
    "cannot_stack": lambda f, said: f"You cannot stack the {said('kind', f['kind'])} there: {f['reason']}.",
    "choose_target": lambda f, said: f"Choose {f['choose']}.",
    "slide_blocked": lambda f, said: (f"{_cap(said('piece', f['piece']))} cannot slide that way: "
                                      "another piece is in the way."),
    # What the ring refuses (physics.PushRefused): where the platform may stand and how it may aim.
    "spot_blocked": lambda f, said: (f"The platform cannot stand there: {said('piece', f['piece'])} hangs "
                                     "over the edge at that spot."),
    "too_steep": lambda f, said: (f"At that angle the {said('kind', f['kind'])} would run along the edge: "
                                  f"at most {f['steepest_deg']:.0f}° either way for it."),
    "beyond_platform": lambda f, said: f"The platform turns at most {f['limit_deg']:.0f}° either way.",
    "no_speed": lambda f, said: "Push forward: the speed must be above zero.",
    "ring_refuses": lambda f, said: "The platform cannot push from there.",
    # Signature moves that have nothing to act on now.
    "nothing_to_pick": lambda f, said: f"{said('move', f['move'])} cannot be used now: {f['nothing']}.",
    "not_in_supply": lambda f, said: (f"{said('move', f['move'])} cannot be used now: the supply has no "
                                      f"{said('kind', f['kind'])} left."),
    "centre_empty": lambda f, said: (f"{said('move', f['move'])} would do nothing: no piece is inside the "
                                     "centre circle."),
    "no_second_push": lambda f, said: (f"{said('move', f['move'])} would do nothing: you have "
                                       + (f"no {said('kind', f['kind'])}" if "kind" in f else "nothing left")
                                       + " to push a second time."),
    "wrestler_off_ring": lambda f, said: f"{said('move', f['move'])} needs your wrestler piece on the ring.",
    "no_base": lambda f, said: (f"{said('move', f['move'])} needs a {said('kind', f['kind'])} on the ring "
                                "to stack on."),
    "hangs_over": lambda f, said: (f"The {said('kind', f['kind'])} would hang over the edge on that side: "
                                   "choose a side towards the middle."),
    "not_on_ring": lambda f, said: f"{said('move', f['move'])} needs the {said('kind', f['kind'])} on the ring.",
    "no_push_left": lambda f, said: f"{said('move', f['move'])} needs a push still to make this turn.",
    "opponent_empty": lambda f, said: (f"{said('move', f['move'])} would leave you nothing to push: "
                                       + ("every opponent's inventory is empty." if f["every"]
                                          else "that opponent's inventory is empty.")),
    "slide_range": lambda f, said: (f"{said('move', f['move'])} slides more than 0 and up to "
                                    f"{f['max_mm']:g} mm."),
    "no_such_move": lambda f, said: "Your wrestler has no such move.",
    "no_such_target": lambda f, said: f"{said('move', f['move'])} takes no such target.",
    "too_few": lambda f, said: (f"Not enough {said('kind', f['kind'])}s: {f['count']} needed, "
                                f"{f['have']} there."),
    "stacked_on": lambda f, said: f"{_cap(said('piece', f['piece']))} has pieces stacked on it: move those first.",
    "bad_field": lambda f, said: "That is not a choice the game offers here.",
}


def refusal(exc: BaseException, said: Callable[[str, Any], str]) -> str | None:
    """A refused action (its ``code`` and ``fields``) in a player's words, or None when its code
    has no words here.

    >>> from kabuto_base.errors import IllegalMove
    >>> said = lambda kind, v: {"seat": "Blue", "kind": "small disc"}.get(kind, str(v))
    >>> refusal(IllegalMove("it is seat 1's turn", "not_your_turn", seat=1), said)
    "It is Blue's turn."
    >>> refusal(IllegalMove("there is no small disc in your inventory", "none_left", kind="small"), said)
    'You have no small disc left to push.'
    """
    words = _REFUSALS.get(getattr(exc, "code", ""))
    if words is None:
        return None
    try:
        return words(getattr(exc, "fields", {}), said)
    except (KeyError, TypeError, ValueError):  # fields the words need are missing: say it plainly
        return None


def and_list(parts: list[str]) -> str:
    """Words joined as a player lists them.

    >>> and_list(["Blue's wrestler", "2 small discs", "a medium disc"])
    "Blue's wrestler, 2 small discs and a medium disc"
    >>> and_list(["a small disc"])
    'a small disc'
    """
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
