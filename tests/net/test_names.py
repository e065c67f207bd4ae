"""Names (kabuto.net.names): whatever a look-alike is made of, it is refused beside the name it
imitates, and names that differ to the eye are both taken."""
from __future__ import annotations

import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kabuto.net.names import BadName, check_name, normalise, skeleton

NAMES = st.text(alphabet="abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ", min_size=3, max_size=10)
#: Words the server keeps for itself (a generated name may happen to be one).
RESERVED = re.compile(r"(bot|player|seat|server|admin)s*")
#: Latin letters and the Cyrillic ones drawn the same.
CYRILLIC = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у"}


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def cyrillic(text: str) -> str:
    """Every Latin letter that has a Cyrillic double swapped for it (the whole name: one script)."""
    return "".join(CYRILLIC.get(c, c) for c in text)


@given(NAMES, st.sampled_from(["upper", "lower", "fullwidth", "spaced", "dotted", "zero"]))
def test_a_look_alike_of_a_name_is_refused_beside_it(name, how):
    look = {"upper": name.upper(), "lower": name.lower(), "fullwidth": fullwidth(name),
            "spaced": f"  {name[:2]}  {name[2:]} ", "dotted": ".".join(name),
            "zero": name.replace("o", "0").replace("O", "0")}[how]
    with pytest.raises(BadName):
        check_name(look, [name])


@given(st.text(alphabet="aeopcxy", min_size=3, max_size=12))
def test_a_name_spelt_in_cyrillic_doubles_is_refused_beside_the_latin_one(name):
    assert skeleton(cyrillic(name)) == skeleton(name)
    with pytest.raises(BadName):
        check_name(cyrillic(name), [name])


@given(NAMES)
def test_the_name_kept_is_the_normal_form_and_is_taken_again_as_it_is(name):
    assume(not RESERVED.fullmatch(name.lower()))
    kept = check_name(fullwidth(f"  {name}  "), [])
    assert kept == normalise(name) == name
    assert check_name(kept, ["Somebody Else"]) == kept


@pytest.mark.parametrize("name", ["Bot", "bot 7", "BOT-2", "B0t 1", "Вот", "Player 3", "player_1", "Ｂｏｔ２",
                                  "Server", "admin"])
def test_names_the_server_gives_or_that_pass_for_it_are_refused(name):
    with pytest.raises(BadName, match="server"):
        check_name(name, [])


@pytest.mark.parametrize("name", ["Robot", "Botticelli", "Anna", "Саша", "Νίκη", "李雷", "Ann B.", "Jo-Jo 2"])
def test_names_of_one_script_that_pass_for_nobody_are_taken(name):
    assert check_name(name, ["Anne", "Sasha"]) == name
