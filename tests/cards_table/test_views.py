"""What each table shows a seat (no window): never a card hidden from that seat, the legal plays
highlighted, the buttons a player needs, and clicks that play what the player picked."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cards.table.config import Pacing, SeatSpec, TableConfig, table_data
from cards.table.display import ButtonItem
from cards.table.table_model import TableModel
from cards.table.views.sumida_river import guess_type, hand_keys, meld_cards
from tests.cards_table.helpers import targets_for

INSTANT = Pacing().instant()
MODES = [m.key for m in table_data().modes]


def hot_seat_model(mode: str, seed: int) -> TableModel:
    n = table_data().mode(mode).players
    return TableModel(TableConfig(mode, tuple(SeatSpec("human") for _ in range(n)), seed, pacing=INSTANT))


def advance(model: TableModel, steps: int, rng: random.Random) -> None:
    """Play ``steps`` random actions straight on the engine (the table follows)."""
    g = model.match.game
    for _ in range(steps):
        if g.is_over:
            return
        g.apply(rng.choice(g.legal_actions()))
    model.match.pending.clear()
    model.changed()


def show(model: TableModel, seat: int):
    """The table as ``seat`` would see it (their turn or not)."""
    m = model.match
    m.viewer, m.pass_to = seat, None
    model.selection = []
    model.changed()
    return model.display()


def hidden_from(game, seat: int) -> set[str]:
    """Names of the cards ``seat`` cannot see now, straight from the engine's card zones."""
    z = game.card_zones()
    name = game.name
    if name == "sumo-card-game":
        return game.hidden_from(seat)
    if name == "sumo":
        out = set(z["hand1" if seat == 0 else "hand0"]) | set(z["undealt"])
        if seat == 1:
            out |= set(z["face_down"])
        return out
    # Sumida River: every natural card in another hand, and the undealt ones. (A cards of a colour
    # are all alike; which ones a hand holds is public.)
    out = set(z["undealt"])
    for p in range(game.num_players):
        if p != seat:
            out |= {c for c in z[f"hand:{p}"] if not c.startswith("W")}
    return out


def _cards_in(event: dict) -> list[str]:
    out = []
    for v in event.values():
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            for x in v:
                out += [x] if isinstance(x, str) else [y for y in x if isinstance(y, str)] if isinstance(x, list) else []
    return out


@settings(max_examples=25, deadline=None)
@given(mode=st.sampled_from(MODES), seed=st.integers(0, 10_000), steps=st.integers(0, 160))
def test_no_table_ever_shows_a_card_hidden_from_its_seat(mode, seed, steps):
    model = hot_seat_model(mode, seed)
    advance(model, steps, random.Random(seed))
    g = model.match.game
    for seat in range(g.num_players):
        d = show(model, seat)
        shown = {it.face for it in d.cards() if it.face and not it.history}
        assert not shown & hidden_from(g, seat), f"seat {seat} is shown {shown & hidden_from(g, seat)}"
        # Cards shown as history (the last round's attack) were all revealed publicly.
        public = {c for e in g.events if "to" not in e for c in _cards_in(e)}
        assert {it.face for it in d.cards() if it.history} <= public
        # The other hands are drawn as backs: as many as the seat holds, no more.
        obs = g.observation(seat)
        own = obs["hand"]
        assert sorted(it.face for it in d.cards() if it.target and it.target.startswith("card:")) == sorted(own)


def test_the_pass_screen_shows_no_card_at_all():
    for mode in MODES:
        model = hot_seat_model(mode, 1)
        d = model.display()
        assert model.match.pass_to is not None
        assert d.cards() == []
        assert any("Pass the screen to" in t for t in d.texts())


def test_sumo_highlights_exactly_the_cards_that_may_be_played():
    for seed in range(30):
        model = hot_seat_model("sumo", seed)
        advance(model, 2 + seed % 5, random.Random(seed))
        m = model.match
        if m.over:
            continue
        d = show(model, m.current)
        legal = {a.split(" ")[1] for a in m.game.legal_actions()}
        lit = {it.face for it in d.cards() if it.highlight and it.target}
        dim = {it.face for it in d.cards() if it.dim}
        assert lit == legal
        assert dim == set(m.game.observation(m.current)["hand"]) - legal


def test_sumo_card_game_highlights_cards_that_combine_with_the_ones_picked():
    for seed in range(300):
        model = hot_seat_model("sumo-card-game", seed)
        m = model.match
        hand = m.game.observation(0)["hand"]
        threes = [c for c in hand if c[0] == "3"]
        if len(threes) >= 2:
            break
    show(model, 0)
    model.selection = [threes[0]]
    model.changed()
    d = model.display()
    lit = {it.face for it in d.cards() if it.highlight}
    assert lit == set(threes)  # only the other 3s combine with a 3
    model.selection = []
    model.changed()
    assert {it.face for it in model.display().cards() if it.highlight} == set(hand)


def test_picking_cards_offers_the_melds_they_make():
    rng = random.Random(3)
    checked = 0
    for seed in range(40):
        model = hot_seat_model("sumida-river-3", seed)
        g = model.match.game
        while not g.is_over and g.observation(g.to_play)["phase"] != "play":
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        seat = g.to_play
        show(model, seat)
        melds = [a for a in g.legal_actions() if a.startswith("meld ")]
        meld = rng.choice(melds)
        keys = hand_keys(g.observation(seat)["hand"])
        picked, used = [], set()
        for c in meld_cards(meld):
            k = next(k for k in keys if k.split("#")[0] == c and k not in used)
            used.add(k)
            picked.append(k)
        model.selection = picked
        model.changed()
        buttons = {b.target for b in model.display().buttons()}
        assert f"act:{meld}" in buttons
        # Every highlighted card can still join the picked ones: nothing impossible is lit.
        lit = {it.face for it in model.display().cards() if it.highlight and it.target}
        assert lit <= {c for a in melds for c in meld_cards(a)}
        checked += 1
    assert checked >= 30


def test_a_pick_that_makes_no_meld_is_explained_by_the_engine():
    for seed in range(60):
        model = hot_seat_model("sumida-river-4", seed)
        g = model.match.game
        rng = random.Random(seed)
        while not g.is_over and g.observation(g.to_play)["phase"] != "play":
            g.apply(rng.choice(g.legal_actions()))
        seat = g.to_play
        show(model, seat)
        hand = [c for c in g.observation(seat)["hand"] if not c.startswith("W")]
        black = [c for c in hand if c[1] in "CS"]
        red = [c for c in hand if c[1] in "DH"]
        if black and red and black[0][0] == red[0][0]:
            continue
        if black and red:
            break
    # One black and one red card of different ranks: no meld (a red run needs two red cards).
    pick = sorted([black[0], red[0]])
    assert guess_type(pick) in ("red-run-2", "black-pair")
    model.selection = pick
    model.changed()
    before = g.to_json()
    model.handle("act:meld?")
    assert model.message_bad and model.message
    assert "red" in model.message or "rank" in model.message or "black" in model.message
    assert g.to_json() == before


def test_every_button_and_card_a_game_needs_is_on_screen():
    # Play three whole games per mode through the model's click handling only.
    for mode in MODES:
        for seed in range(2):
            model = hot_seat_model(mode, seed)
            m = model.match
            rng = random.Random(seed)
            for _ in range(3000):
                if m.over:
                    break
                if m.pass_to is not None:
                    model.handle("ui:pass")
                    continue
                if m.summary is not None:
                    model.handle("ui:dismiss")
                    continue
                action = rng.choice(m.game.legal_actions())
                before = m.actions_played
                for t in targets_for(m.game.name, action, model.display()):
                    item = next(i for i in model.display().ordered()[::-1] if i.target == t)
                    assert not isinstance(item, ButtonItem) or item.enabled, t
                    model.handle(t)
                assert m.actions_played == before + 1, (mode, action, model.message)
            assert m.over


def test_the_move_log_fits_its_panel():
    model = hot_seat_model("sumida-river-4", 2)
    advance(model, 200, random.Random(2))
    d = show(model, 0)
    log = d.find("side:log")
    assert log is not None
    rows = sum(len(__import__("cards.table.views.common", fromlist=["wrap"]).wrap(line))
               for line in log.text.split("\n"))
    from cards.table.views.common import LOG_BOTTOM, LOG_LINE_H
    assert rows * LOG_LINE_H <= log.y - LOG_BOTTOM
    assert log.text.split("\n")[-1] == model.match.log()[-1]  # the newest move is shown


def test_sumo_cards_pushed_out_of_the_ring_are_drawn_outside_it():
    from cards.table.display import BoxItem, CardItem

    for out in (-1, 7):
        model = TableModel(TableConfig("sumo-card-game", (SeatSpec("human"), SeatSpec("bot", "random")),
                                       3, pacing=INSTANT))
        model.match.game.position = out  # the sumo cards pushed past the last column
        model.changed()
        d = model.display()
        ring = next(it for it in d.items if isinstance(it, BoxItem) and it.key == "ring:bg").rect
        for seat in (0, 1):
            card = next(it for it in d.items if isinstance(it, CardItem) and it.key == f"sumo:{seat}").rect
            assert card.right <= ring.x or card.x >= ring.right, (out, card, ring)


def test_sumo_card_game_shows_as_many_backs_as_the_hidden_hand_holds():
    """Red attacks with one card face down: Blue's screen shows Red's three cards (the choice is
    among them, how many stays hidden), not three in hand and one more placed."""
    from cards.sumo_card_game import NAMES
    from cards.table.display import CardItem

    for play in ("play 3C", "play 3C+3D+3H"):
        model = hot_seat_model("sumo-card-game", 1)
        g = model.match.game
        ids = {name: i for i, name in enumerate(NAMES)}
        g.hands[0] = [ids["3C"], ids["3D"], ids["3H"]]  # Red's hand (seat 0 chooses first)
        g.apply(play)
        model.match.pending.clear()
        display = show(model, 1)
        backs = [c for c in display.ordered() if isinstance(c, CardItem) and c.face is None
                 and not c.key.startswith(("ring:", "sumo:", "pile:"))]
        assert len(backs) == len(g.hands[0]) == 3, [c.key for c in backs]
        words = [getattr(t, "text", "") for t in display.ordered()]
        assert "3 attack cards, the face-down choice among them" in words
