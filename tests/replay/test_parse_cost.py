"""The replay parser costs time in proportion to the file's size, whatever the file holds.

The old string-blanking regex was quadratic on an unterminated string full of ``\\"`` (a 65 kB file
took 17 s, and ``kabuto replay --list`` hung on it). Only relative costs are checked: adversarial
against a well-formed file of the same size, and the growth from a small to a large file
(``tools/bench_parse.py`` measures the same at 8 MiB)."""
from __future__ import annotations

from kabuto.lab import parse_inputs
from kabuto.replay import format as rp

KIB = 1024




def test_an_unterminated_string_of_escaped_quotes_costs_what_a_normal_file_does(rich):
    normal = rich.path.read_bytes()
    good = parse_inputs.normal_of_size(normal, 64 * KIB)
    bad = parse_inputs.adversarial_string(len(good))
    assert isinstance(rp._parse(good), dict)
    try:
        rp._parse(bad)
    except rp.BadReplayFile as exc:
        assert "Unterminated string starting at line 1" in str(exc)
    else:
        raise AssertionError("an unterminated string was accepted")
    assert parse_inputs.parse_cost(bad, rounds=5) < 3 * parse_inputs.parse_cost(good, rounds=5)


def test_parsing_grows_linearly_with_the_size(rich):
    normal = rich.path.read_bytes()
    for make in (lambda n: parse_inputs.normal_of_size(normal, n), parse_inputs.adversarial_string):
        small, large = make(256 * KIB), make(2048 * KIB)
        growth = parse_inputs.parse_cost(large, rounds=5) / parse_inputs.parse_cost(small, rounds=5)
        size_growth = len(large) / len(small)   # 8: a linear parser grows ~8x (cache effects to ~12x)
        assert growth < 4 * size_growth, (growth, size_growth)  # linear ~8x, quadratic ~64x
