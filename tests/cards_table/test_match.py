"""The table's referee (no window): whose view is on screen, hot-seat pass screens, bots, refusals,
summaries and rematches."""
from __future__ import annotations

import json
import random

import pytest

from cards import IllegalMove
from cards.table.config import Pacing, SeatSpec, TableConfig
from cards.table.match import Match, new_match
from cards.table.table_model import TableModel

INSTANT = Pacing().instant()


def config(mode: str, seats: str, seed: int = 0) -> TableConfig:
    """``seats`` like "hb" (human, bot) - bots play at random."""
    return TableConfig(mode, tuple(SeatSpec("human") if c == "h" else SeatSpec("bot", "random") for c in seats),
                       seed, pacing=INSTANT)


def frozen(m: Match) -> str:
    return json.dumps(m.game.to_json(), sort_keys=True)


def play_out(m: Match, rng: random.Random, until=lambda m: False, max_steps: int = 5000) -> None:
    """Play the match on (people at random), dismissing round summaries, until ``until`` or the end."""
    for _ in range(max_steps):
        if until(m) or m.over:
            return
        if m.pass_to is not None:
            m.confirm_pass()
        elif m.summary is not None:
            m.dismiss_summary()
        elif m.bot_to_act():
            m.step_bot()
        else:
            assert m.try_action(rng.choice(m.game.legal_actions())) is None
    raise AssertionError("the match did not end")


def test_against_bots_the_person_always_sees_their_own_seat():
    m = new_match(config("sumida-river-4", "bhbb", seed=3))
    assert not m.hot_seat and m.pass_to is None and m.viewer == 1
    rng = random.Random(1)
    people_turns = 0
    while not m.over:
        assert m.viewer == 1 and m.pass_to is None
        if m.summary is not None:
            m.dismiss_summary()
        elif m.bot_to_act():
            m.step_bot()
        else:
            assert m.current == 1 and m.waiting_for_human()
            assert m.try_action(rng.choice(m.game.legal_actions())) is None
            people_turns += 1
    assert people_turns > 0 and m.game.is_over


def test_hot_seat_raises_the_pass_screen_before_the_other_persons_turn():
    m = new_match(config("sumo-card-game", "hh", seed=1))
    assert m.pass_to == 0  # nobody sees a hand before the first player has the screen
    assert m.try_action(m.game.legal_actions()[0]) == "it is not your turn"
    m.confirm_pass()
    assert m.viewer == 0 and m.waiting_for_human()
    assert m.try_action(m.game.legal_actions()[0]) is None
    # Seat 1 must choose now, but the screen still shows seat 0 until seat 1 has it.
    assert m.current == 1 and m.pass_to == 1 and m.viewer == 0
    assert not m.waiting_for_human()
    before = frozen(m)
    assert m.try_action(m.game.legal_actions()[0]) == "it is not your turn"
    assert frozen(m) == before
    m.confirm_pass()
    assert m.viewer == 1 and m.waiting_for_human()


def test_a_bot_between_two_people_does_not_take_the_screen():
    m = new_match(config("sumida-river-3", "hbh", seed=2))
    m.confirm_pass()
    rng = random.Random(0)
    seen_viewers = set()
    for _ in range(400):
        if m.over:
            break
        if m.pass_to is not None:
            assert m.pass_to in (0, 2)
            m.confirm_pass()
        elif m.summary is not None:
            m.dismiss_summary()
        elif m.bot_to_act():
            viewer = m.viewer
            m.step_bot()
            assert m.viewer == viewer
        else:
            seen_viewers.add(m.viewer)
            m.try_action(rng.choice(m.game.legal_actions()))
    assert seen_viewers == {0, 2}


def test_an_illegal_action_is_refused_in_the_engines_words_and_changes_nothing():
    for seed in range(100):
        m = new_match(config("sumo-card-game", "hb", seed=seed))
        hand = m.game.observation(0)["hand"]
        pair = [(a, b) for i, a in enumerate(hand) for b in hand[i + 1:] if a[0] != b[0]]
        if pair:
            break
    a, b = pair[0]
    action = f"play {a}+{b}"
    probe = m.game.clone()
    with pytest.raises(IllegalMove) as exc:
        probe.apply(action)
    before = frozen(m)
    reason = m.try_action(action)
    assert reason == str(exc.value)
    assert "combine" in reason  # "those cards do not combine: ..."
    assert frozen(m) == before
    assert m.last_refusal is not None and m.last_refusal.action == action


def test_bots_wait_while_a_round_summary_is_open():
    m = new_match(config("sumida-river-3", "bbh", seed=4))
    rng = random.Random(4)
    play_out(m, rng, until=lambda m: m.summary is not None)
    s = m.summary
    assert s is not None and not s.final and s.title == "Round 1 over"
    # The points of a round at three players are 2, 1 and 0, one place each.
    points = sorted(int(row[2]) for row in s.table[1:])
    assert points == [0, 1, 2]
    assert m.is_bot(m.current) and not m.bot_to_act()
    m.dismiss_summary()
    assert m.bot_to_act()


def test_the_final_summary_names_the_winner_and_a_rematch_deals_again():
    m = new_match(config("sumo", "hb", seed=6))
    play_out(m, random.Random(6))
    s = m.summary
    assert s is not None and s.final
    (winner,) = m.game.winners()
    assert s.title == f"{m.names[winner]} wins!"
    again = m.rematch()
    assert again.config.seats == m.config.seats and again.config.seed == m.config.seed + 1
    assert not again.over and again.game is not m.game


def test_each_hot_seat_player_reads_only_their_own_private_log_lines():
    m = new_match(config("sumo-card-game", "hh", seed=8))
    play_out(m, random.Random(8), until=lambda m: m.game.observation(0)["round"] >= 4)
    m.confirm_pass()
    m.viewer, m.pass_to = 0, None
    red = m.log()
    m.viewer = 1
    blue = m.log()
    assert any(line.startswith("You (Red) draw") for line in red)
    assert not any(line.startswith("You (Blue)") for line in red)
    assert any(line.startswith("You (Blue) draw") for line in blue)
    assert not any(line.startswith("You (Red)") for line in blue)


def test_the_table_model_shows_the_engines_refusal_and_keeps_the_state():
    model = TableModel(config("sumo", "hb", seed=0))
    m = model.match
    # Reveal phase: SUMO's engine refuses a "play" before the first leader is decided.
    card = m.game.observation(0)["hand"][0]
    before = frozen(m)
    assert not model.play(f"play {card}")
    assert model.message_bad and "reveal" in model.message.lower()
    assert model.message[0].isupper() and model.message.endswith(".")
    assert frozen(m) == before


def test_bad_set_ups_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="needs 4 seats"):
        Match(config("sumida-river-4", "hbb"))
    with pytest.raises(ValueError, match="no card-table mode"):
        Match(config("poker", "hb"))
    with pytest.raises(ValueError, match="strength"):
        Match(TableConfig("sumo", (SeatSpec("human"), SeatSpec("bot", "godlike"))))


def test_after_the_game_the_results_can_be_seen_again_and_the_log_scrolled():
    model = TableModel(config("sumo-card-game", "hb", seed=2))
    m = model.match
    play_out(m, random.Random(2), until=lambda m: m.over)
    model.changed()
    assert model.match.summary is not None and model.match.summary.final
    model.handle("ui:dismiss")  # "See the table"
    d = model.display()
    assert d.button("ui:results") is not None and d.button("ui:rematch") is not None
    model.handle("ui:results")
    assert model.match.summary is not None and model.match.summary.final
    model.handle("ui:dismiss")
    newest = model.display().find("side:log").text.split("\n")[-1]
    model.scroll_log(3)
    older = model.display().find("side:log").text.split("\n")
    assert newest == model.match.log()[-1]
    assert older[-1] == model.match.log()[-4] and model.log_scroll == 3
    model.scroll_log(-10)
    assert model.log_scroll == 0


def test_rematch_on_a_table_that_cannot_deal_again_leaves_it():
    """An online match deals again only in a new room: its Rematch takes the player back (to the
    lobby), and a local match's deals again on the same table."""

    class NoRedeal(Match):
        def rematch(self) -> Match:
            return self

    m = new_match(config("sumo", "hb", seed=6))
    play_out(m, random.Random(6))
    model = TableModel(m.config, match=m)
    assert model.handle("ui:rematch") is None and model.match is not m
    online = new_match(config("sumo", "hb", seed=6))
    online.__class__ = NoRedeal
    play_out(online, random.Random(6))
    model = TableModel(online.config, match=online)
    assert model.handle("ui:rematch") == "menu" and model.match is online
