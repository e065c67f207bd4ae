"""The Kabuto table's turn flow without a window (kabuto.app.table_flow): every transition, what is
refused in each phase, random input never leading it astray, and whole games played through it.

The tests stand in for the screen: they hand the flow the player's input, take the outcome it asks
to have animated and say when it has landed, and make the AI plans it asks for - as the table scene
does (tests/app/test_table.py plays the real scene in a real window)."""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kabuto import IllegalMove
from kabuto.app.aim import Aim
from kabuto.app.game_session import GameSession
from kabuto.app.session import AIStep, PieceChoice, SandboxSession, TableOutcome
from kabuto.app.table_flow import Phase, TableFlow
from kabuto.rules.game import Game
from physics import Materials, World
from tests.app.helpers import wrestler_on_the_edge
from tests.kabuto.scenarios import give

#: A push from the left of the ring into the crowd that every test board allows.
STEADY = Aim(entry_deg=150.0, heading_deg=-10.0, speed=0.4)


def _session(wrestlers=("gus", "mike"), seats=("human", "human"), first=0, seed=7) -> GameSession:
    game = Game.new(players=len(wrestlers), wrestlers=list(wrestlers), seed=seed, first_player=first)
    # The AI on its easiest level, in this process: quick, and no worker processes to start.
    return GameSession(game, tuple(seats), ai_level="easy", ai_workers=1, record=False)


def _flow(*args, ai_delay: float = 0.5, **kw) -> tuple[GameSession, TableFlow]:
    session = _session(*args, **kw)
    return session, TableFlow(session, ai_delay=ai_delay)


def _land(flow: TableFlow) -> None:
    """What the screen does with an outcome: animate it (taken once), then say it has landed."""
    assert flow.phase is Phase.PLAYING and flow.take_outcome() is not None
    assert flow.take_outcome() is None
    assert flow.landed()


def _push(flow: TableFlow, aim: Aim = STEADY) -> None:
    assert flow.set_aim(aim) and flow.push(), flow.message
    _land(flow)
    assert not flow.problems()


def _finish_turn(flow: TableFlow) -> None:
    """A person's push, and the end of the turn if a usable move kept it open."""
    _push(flow)
    if flow.can_end_turn:
        assert flow.end_turn()


def _ai_turn(flow: TableFlow, session: GameSession) -> list[Phase]:
    """Carry out an AI turn as the screen does; the phases it went through."""
    seen = []
    request = flow.take_plan_request()
    assert request is not None and request.seat == session.current_seat()
    assert flow.ai_planned(request.token, session.ai_plan(request.seat))
    while flow.phase in (Phase.AI_SHOWING, Phase.PLAYING):
        seen.append(flow.phase)
        if flow.phase is Phase.AI_SHOWING:
            assert flow.aim_preview().by_ai
            assert not flow.tick(flow.ai_delay / 2)           # shown for ai_delay, then pushed
            assert flow.tick(flow.ai_delay)
        else:
            _land(flow)
        assert not flow.problems()
    return seen


# ----- pushing and turns ---------------------------------------------------------------------------
def test_a_push_plays_once_with_the_panels_as_before_then_the_turn_passes():
    session, flow = _flow()
    assert flow.phase is Phase.AIM and flow.view().may_aim and flow.choice_key == "medium"
    before_seats, before_status = session.seats(), session.status()
    assert flow.set_aim(STEADY) and flow.push()
    assert flow.phase is Phase.PLAYING and flow.pushes == 1
    view = flow.view()
    # While it plays the side panel and the status still show the state before the push.
    assert view.panels.seats() == before_seats and view.status == before_status
    assert not view.may_aim and view.choices == () and view.idle == "..."
    assert flow.message.startswith("Red pushed a medium")
    assert flow.aim_preview() is None
    _land(flow)
    if flow.can_end_turn:                    # Gus may still drop his Boulder this turn
        assert flow.phase is Phase.AIM and flow.view().idle.startswith("pushed")
        assert flow.end_turn()
    assert flow.phase is Phase.AIM and session.current_seat() == 1 and not flow.can_end_turn


def test_a_steep_aim_is_held_at_the_steepest_the_chosen_piece_can_take():
    session, flow = _flow()
    for kind in ("small", "medium"):
        assert flow.pick_choice(kind)
        steepest = session.world().steepest_heading(kind)
        assert steepest < 60.0                                    # less than the platform allows
        for side in (1, -1):
            assert flow.set_aim(Aim(entry_deg=150.0, heading_deg=side * 60.0, speed=0.4))
            assert flow.aim.heading_deg == side * steepest       # held, not refused
            assert not flow.aim_preview().blocked


def test_a_push_the_rules_refuse_says_why_and_changes_nothing():
    session, flow = _flow()
    game = session.game
    R = game.materials.ring.radius
    # A disc by the rim moved out along its bearing until its centre is just inside the edge.
    for p in sorted(game.world.pieces, key=lambda p: -math.hypot(p.x, p.y)):
        if game.is_wrestler_piece(p.id) or game.world.riders(p.id):
            continue
        angle = math.degrees(math.atan2(p.y, p.x))
        a = math.radians(angle)
        try:
            game.edit(p.id, "board", (R - 0.0005) * math.cos(a), (R - 0.0005) * math.sin(a))
            break                                                # it hangs over the edge there
        except IllegalMove:
            continue
    before = game.to_json()
    assert flow.set_aim(Aim(entry_deg=float(angle), heading_deg=0.0, speed=0.4))
    preview = flow.aim_preview()
    assert preview.blocked and "hangs over the edge" in preview.reason and preview.start is None
    assert not flow.push()
    assert flow.phase is Phase.AIM and flow.message == preview.reason
    assert session.game.to_json() == before


def test_aiming_is_held_to_the_hands_range_and_the_locked_platform():
    session, flow = _flow(("rita", "hank"))
    assert flow.set_aim(Aim(entry_deg=190.0, heading_deg=80.0, speed=9.0))
    lim = flow.limits
    steepest = min(lim.heading_deg, session.world().steepest_heading(flow.choice.kind))
    assert flow.aim == Aim(-170.0, steepest, lim.max_speed)
    give(session.game, "seat:0", "small")                 # a small for her first turn:
    for entry in (30.0, -30.0):                           # Charge waits for Rita's second turn
        assert flow.pick_choice("small")
        _push(flow, Aim(entry, 0.0, 0.2))
        if flow.can_end_turn:
            assert flow.end_turn()
    assert flow.pick_choice("small")                      # Charge costs the medium
    _push(flow, Aim(140.0, 10.0, 0.3))
    (charge,) = [m for m in session.moves() if m.name == "Charge"]
    assert flow.pick_move(charge) and flow.confirm()      # one more push, from the same spot
    _land(flow)
    assert flow.set_aim(Aim(120.0, -30.0, 0.25))
    assert (flow.aim.entry_deg, flow.aim.heading_deg) == (140.0, 10.0) and flow.aim.speed == 0.25
    assert not flow.view().speed_slider and "push 2 of 2" in flow.view().status
    assert flow.push()
    push = flow.take_outcome().result.push
    assert (push.entry_deg, push.heading_deg) == (140.0, 10.0)


def test_pieces_are_picked_by_key_cycled_with_tab_and_chosen_by_number():
    session, flow = _flow()
    keys = [c.key for c in session.choices()]
    assert keys == ["small", "medium"]
    assert flow.cycle_choice() and flow.choice_key == "small"
    assert flow.choose_nth(1) and flow.choice_key == "medium"
    assert not flow.choose_nth(5) and not flow.pick_choice("large")
    assert flow.choice_key == "medium"


def test_end_turn_only_after_a_push():
    session, flow = _flow()
    assert not flow.can_end_turn and not flow.end_turn()
    _push(flow)
    if session.current_seat() == 0:
        assert flow.view().can_end_turn and flow.end_turn()
    assert session.current_seat() == 1 and flow.phase is Phase.AIM


# ----- signature moves ------------------------------------------------------------------------------
def test_a_move_waits_for_its_clicks_rings_the_choices_and_refuses_a_wrong_one():
    session, flow = _flow()
    drop = next(m for m in session.moves() if m.name == "Boulder Drop")
    assert flow.pick_move(drop) and flow.phase is Phase.TARGETS
    assert flow.view().status.startswith("Boulder Drop: click") and flow.view().selected_move == drop.key
    offered = flow.marks().offered
    assert offered and set(offered) == set(drop.prompts[0].choices)
    wrong = next(p.id for p in session.world().pieces if p.id not in offered)
    before = session.game.to_json()
    assert not flow.click(0.0, 0.0, wrong) and not flow.click(0.0, 0.0, None)
    assert flow.phase is Phase.TARGETS and "ringed pieces" in flow.message
    assert session.game.to_json() == before
    assert not flow.push()                                 # a move is waiting: no push
    assert flow.click(0.0, 0.0, offered[0]) and flow.phase is Phase.CONFIRM
    assert session.game.to_json() == before                 # only a preview so far
    assert flow.confirm() and flow.phase is Phase.PLAYING
    _land(flow)
    boulder = [p for p in session.world().pieces if p.kind == "gus_boulder"]
    assert len(boulder) == 1 and boulder[0].base == offered[0]
    assert flow.marks() is None


def test_escape_drops_a_waiting_move():
    session, flow = _flow()
    drop = next(m for m in session.moves() if m.name == "Boulder Drop")
    before = session.game.to_json()
    assert flow.pick_move(drop) and flow.cancel()
    assert flow.phase is Phase.AIM and flow.marks() is None and not flow.cancel()
    assert session.game.to_json() == before


def test_a_direction_is_a_point_clicked_on_the_ring():
    session, flow = _flow(("rita", "hank"))
    hook = next(m for m in session.moves() if m.name == "Horn Hook")
    assert flow.pick_move(hook) and flow.marks().origin == "rita:wrestler"
    R = session.materials.ring.radius
    assert not flow.click(R * 1.2, 0.0, None) and flow.message == "click a point on the ring"
    w = session.world().piece("rita:wrestler")
    assert flow.click(w.x, w.y - 0.03, None)              # straight below the wrestler
    assert flow.confirm()
    _land(flow)
    assert session.world().piece("rita:wrestler").angle == pytest.approx(-1.5707963, abs=1e-6)


def test_a_disabled_move_says_why_and_does_nothing():
    session, flow = _flow()
    slam = next(m for m in session.moves() if m.name == "Body Slam")
    assert not slam.enabled
    assert not flow.pick_move(slam) and flow.message == slam.reason and flow.phase is Phase.AIM


# ----- AI seats -------------------------------------------------------------------------------------
def test_an_ai_turn_is_planned_then_its_aim_is_shown_before_it_pushes():
    session, flow = _flow(seats=("human", "ai"))
    assert flow.take_plan_request() is None                # a person starts
    _finish_turn(flow)
    assert flow.phase is Phase.AI_THINKING and flow.view().status == "the AI is thinking..."
    assert not flow.view().can_end_turn and flow.aim_preview() is None
    seen = _ai_turn(flow, session)
    assert Phase.AI_SHOWING in seen
    assert flow.phase is Phase.AIM and session.current_seat() == 0 and flow.take_plan_request() is None
    pushes = [a["seat"] for a in session.game.history if a["type"] == "push"]
    assert pushes == [0, 1]


def test_a_table_that_opens_on_an_ai_turn_asks_for_its_plan():
    session, flow = _flow(seats=("ai", "human"))
    assert flow.phase is Phase.AI_THINKING
    request = flow.take_plan_request()
    assert request.seat == 0 and flow.take_plan_request() is None


def test_an_undo_while_the_ai_thinks_makes_its_plan_stale():
    session, flow = _flow(seats=("human", "ai"))
    _finish_turn(flow)
    request = flow.take_plan_request()
    steps = session.ai_plan(request.seat)
    assert flow.view().can_undo and flow.undo()
    assert flow.phase is Phase.AIM and session.current_seat() == 0 and flow.message == "undone"
    assert not flow.ai_planned(request.token, steps)      # the stale plan is refused
    assert flow.phase is Phase.AIM and not session.game.history


def test_a_plan_asked_for_before_a_reset_is_refused_after_it():
    session, flow = _flow(seats=("ai", "human"))
    old = flow.take_plan_request()
    flow.reset()
    new = flow.take_plan_request()
    assert flow.phase is Phase.AI_THINKING and new.seat == old.seat
    assert not flow.ai_planned(old.token, [AIStep("move", "No Such Move")])
    assert flow.phase is Phase.AI_THINKING and flow.message == ""
    assert flow.ai_planned(new.token, session.ai_plan(new.seat))


def test_an_ai_that_fails_says_so_and_waits_for_an_undo():
    session, flow = _flow(seats=("human", "ai"))
    _finish_turn(flow)
    request = flow.take_plan_request()
    assert not flow.ai_failed(request.token - 1, RuntimeError("old"))
    assert flow.ai_failed(request.token, RuntimeError("no idea"))
    assert flow.phase is Phase.AIM and "no idea" not in flow.message and "Undo" in flow.message
    assert not flow.may_aim and not flow.push() and not flow.problems()
    assert flow.undo() and flow.phase is Phase.AIM and flow.may_aim


def test_an_ai_step_the_rules_refuse_is_reported_and_its_turn_ends_if_it_can():
    session, flow = _flow(seats=("human", "ai"))
    _finish_turn(flow)
    request = flow.take_plan_request()
    kind = session.choices()[0].kind
    steps = [AIStep("push", aim=STEADY, choice=PieceChoice(kind, kind, kind, 1)),
             AIStep("move", "No Such Move")]
    assert flow.ai_planned(request.token, steps)
    assert flow.tick(10.0)
    _land(flow)
    assert flow.message.startswith("the AI's move was refused")
    assert flow.phase is Phase.AIM and session.current_seat() == 0


# ----- the end, undo, the replay viewer --------------------------------------------------------------
def test_a_knock_out_ends_on_the_win_screen_and_undo_takes_it_back():
    session, flow = _flow()
    wrestler_on_the_edge(session.game)
    assert flow.pick_choice("medium")
    _push(flow, Aim(entry_deg=90.0, heading_deg=-flow.limits.heading_deg, speed=flow.limits.max_speed))
    assert flow.phase is Phase.OVER
    over = flow.over_view()
    assert over.title == "Red (Goliath Gus) wins!"
    assert over.reason.startswith("Red (Goliath Gus) knocked out") and "seat" not in over.reason
    view = flow.view()
    assert view.status == f"Game over: {over.reason}" and view.idle == "the game is over"
    assert not view.may_aim and view.can_undo and not flow.push() and not flow.set_aim(STEADY)
    assert flow.undo()
    assert flow.phase is Phase.AIM and flow.over_view() is None and session.winner() is None


def test_the_replay_viewer_plays_outcomes_made_elsewhere_and_resets_the_table():
    session, flow = _flow()
    assert flow.play(TableOutcome(None, {}, "step 1"))
    assert flow.phase is Phase.PLAYING and not flow.play(TableOutcome(None))
    flow.reset("jumped")
    assert flow.phase is Phase.AIM and flow.message == "jumped" and flow.take_outcome() is None


def test_the_sandbox_shows_its_pieces_even_while_a_push_plays():
    session = SandboxSession(world=World(Materials.load()))
    flow = TableFlow(session)
    assert flow.view().choices and flow.view().may_aim
    _push(flow, Aim(180.0, 0.0, 0.3))
    assert flow.set_aim(STEADY) and flow.push()
    view = flow.view()
    assert view.choices and not view.may_aim          # shown, but not to be clicked
    _land(flow)
    assert flow.phase is Phase.AIM and flow.pushes == 2


# ----- what is refused where ---------------------------------------------------------------------------
def _in_playing():
    session, flow = _flow()
    assert flow.set_aim(STEADY) and flow.push()
    return session, flow


def _in_over():
    session, flow = _flow()
    wrestler_on_the_edge(session.game)
    _push(flow, Aim(entry_deg=90.0, heading_deg=-flow.limits.heading_deg, speed=flow.limits.max_speed))
    assert flow.phase is Phase.OVER
    return session, flow


def _in_confirm():
    session, flow = _flow()
    drop = next(m for m in session.moves() if m.name == "Boulder Drop")
    assert flow.pick_move(drop) and flow.click(0.0, 0.0, drop.prompts[0].choices[0])
    assert flow.phase is Phase.CONFIRM
    return session, flow


REFUSED = {
    "aim": (_flow, ["landed", "cancel", "click", "end_turn", "undo", "ai_planned", "ai_failed", "tick",
                    "confirm"]),
    "playing": (_in_playing, ["push", "pick_move", "click", "cancel", "end_turn", "undo", "play",
                              "set_aim", "pick_choice", "cycle_choice", "ai_planned", "confirm"]),
    "over": (_in_over, ["push", "pick_move", "end_turn", "set_aim", "pick_choice", "landed", "click",
                        "confirm"]),
    "confirm": (_in_confirm, ["push", "end_turn", "set_aim", "landed", "play", "tick", "ai_planned"]),
}


def _call(flow: TableFlow, session: GameSession, name: str) -> bool:
    move = next(iter(session.moves()), None)
    calls = {
        "push": flow.push, "landed": flow.landed, "cancel": flow.cancel, "end_turn": flow.end_turn,
        "confirm": flow.confirm,
        "undo": flow.undo, "cycle_choice": flow.cycle_choice,
        "click": lambda: flow.click(0.0, 0.0, session.world().pieces[0].id),
        "ai_planned": lambda: flow.ai_planned(0, []),
        "ai_failed": lambda: flow.ai_failed(0, RuntimeError("x")),
        "tick": lambda: flow.tick(100.0), "play": lambda: flow.play(TableOutcome(None)),
        "set_aim": lambda: flow.set_aim(STEADY), "pick_choice": lambda: flow.pick_choice("small"),
        "pick_move": lambda: move is not None and flow.pick_move(move),
    }
    return calls[name]()


@pytest.mark.parametrize("phase,name", [(p, n) for p, (_, names) in REFUSED.items() for n in names])
def test_a_transition_out_of_place_is_refused_and_changes_nothing(phase, name):
    session, flow = REFUSED[phase][0]()
    before, state = flow.phase, session.game.to_json()
    assert before == phase
    assert not _call(flow, session, name)
    assert flow.phase is before and session.game.to_json() == state


# ----- random input ---------------------------------------------------------------------------------
EVENTS = st.one_of(
    st.tuples(st.just("push"), st.floats(-180, 180), st.floats(-70, 70), st.floats(0.0, 1.0)),
    st.tuples(st.just("choice"), st.integers(0, 3)),
    st.tuples(st.just("move"), st.integers(0, 2)),
    st.tuples(st.just("click"), st.floats(-0.15, 0.15), st.floats(-0.15, 0.15), st.integers(-1, 40)),
    *(st.just((name,)) for name in ("cancel", "end", "undo", "landed", "fail", "reset", "play", "stale",
                                    "confirm")),
    st.tuples(st.just("tick"), st.floats(0.0, 1.0)),
    st.tuples(st.just("plan"), st.sampled_from(["push", "move", "bad", "none"]), st.floats(-180, 180)),
)


def _apply(flow: TableFlow, session: GameSession, event: tuple, token: int | None) -> bool:
    """One random input, as the screen would pass it on; whether the flow took it."""
    kind, *args = event
    if kind == "push":
        flow.set_aim(Aim(args[0], args[1], args[2]))
        return flow.push()
    if kind == "choice":
        choices = session.choices()
        return bool(choices) and flow.pick_choice(choices[args[0] % len(choices)].key)
    if kind == "move":
        moves = session.moves()
        return bool(moves) and flow.pick_move(moves[args[0] % len(moves)])
    if kind == "click":
        marks = flow.marks()
        pieces = [p.id for p in session.world().pieces]
        if args[2] < 0 or not pieces:
            piece = None
        elif marks is not None and marks.offered and args[2] % 2:
            piece = marks.offered[args[2] % len(marks.offered)]       # often a right one
        else:
            piece = pieces[args[2] % len(pieces)]
        return flow.click(args[0], args[1], piece)
    if kind == "plan":
        if token is None:
            return flow.ai_planned(-1, [])
        choices = session.choices()
        if args[0] == "push" and choices:
            c = choices[0]
            steps = [AIStep("push", aim=Aim(args[1], 0.0, 0.3), choice=PieceChoice(c.key, c.kind, c.label, 1))]
        elif args[0] == "move":
            steps = [AIStep("move", "Charge")]
        elif args[0] == "bad":
            steps = [AIStep("move", "No Such Move")]
        else:
            steps = []
        return flow.ai_planned(token, steps)
    simple = {"cancel": flow.cancel, "confirm": flow.confirm, "end": flow.end_turn, "undo": flow.undo, "landed": flow.landed,
              "fail": lambda: flow.ai_failed(token if token is not None else -1, RuntimeError("boom")),
              "reset": lambda: flow.reset("reset") or True, "play": lambda: flow.play(TableOutcome(None)),
              "stale": lambda: flow.ai_planned(-5, []), "tick": lambda: flow.tick(args[0])}
    return simple[kind]()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=st.lists(EVENTS, max_size=20), table=st.sampled_from(["gus-ai", "rita-dora"]))
def test_random_input_never_leads_the_flow_into_a_state_it_cannot_be_in(events, table):
    if table == "gus-ai":
        session, flow = _flow(("gus", "rita"), seats=("human", "ai"), ai_delay=0.3)
    else:
        session, flow = _flow(("rita", "dora"), seats=("human", "human"))
    token = None
    for event in events:
        phase, state = flow.phase, session.game.to_json()
        taken = _apply(flow, session, event, token)
        if not taken:
            assert flow.phase is phase and session.game.to_json() == state, (event, flow.message)
        request = flow.take_plan_request()                  # the screen starts each plan asked for
        token = request.token if request is not None else token
        flow.take_outcome()
        assert flow.problems() == [], (event, flow.problems())
        # Whatever the state, the screen can draw it.
        flow.view()
        flow.aim_preview()
        flow.marks()
        flow.over_view()


# ----- whole games ----------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1])
def test_a_whole_game_against_the_ai_played_through_the_flow(seed):
    """A person pushing at random (and using a signature move when one is there) against the AI,
    from the first turn to the result."""
    session, flow = _flow(("gus", "mike"), seats=("human", "ai"), seed=seed, ai_delay=0.2)
    rng = random.Random(seed)
    shown_before_push = []
    for _ in range(300):
        if flow.phase is Phase.OVER:
            break
        assert not flow.problems()
        if flow.phase is Phase.AI_THINKING:
            pushed = sum(a["type"] == "push" for a in session.game.history)
            phases = _ai_turn(flow, session)
            if sum(a["type"] == "push" for a in session.game.history) > pushed:
                # A turn with a push shows its aim first (a turn may also be a move alone).
                shown_before_push.append(Phase.AI_SHOWING in phases)
            continue
        assert flow.phase is Phase.AIM and flow.may_aim
        usable = [m for m in session.moves() if m.enabled]
        if usable and rng.random() < 0.5:
            move = rng.choice(usable)
            if flow.pick_move(move):
                for _ in range(30):  # targets the rules refuse are not taken: try others
                    if flow.phase is not Phase.TARGETS:
                        break
                    marks, prompt = flow.marks(), move.prompts[len(flow.clicks)]
                    if prompt.kind == "piece":
                        flow.click(0.0, 0.0, rng.choice(marks.offered))
                    else:
                        flow.click(rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), None)
                else:
                    assert flow.cancel()
                if flow.phase is Phase.CONFIRM:
                    assert flow.confirm()
                if flow.phase is Phase.PLAYING:
                    _land(flow)
            continue
        if flow.can_end_turn:
            assert flow.end_turn()
            continue
        flow.set_aim(Aim(rng.uniform(-180, 180), rng.uniform(-40, 40), rng.uniform(0.1, 0.5)))
        if flow.push():
            _land(flow)
    assert flow.phase is Phase.OVER and session.winner() is not None
    assert all(shown_before_push)
    history = session.game.history
    assert flow.pushes == sum(a["type"] == "push" for a in history)
    over = flow.over_view()
    assert over.reason == session.game.result_text() and "seat" not in over.reason
    assert flow.view().status == f"Game over: {over.reason}"


# ----- a push made elsewhere (a replay's step) -------------------------------------------------------
def test_a_push_made_elsewhere_shows_its_aim_with_the_panels_before_it_then_plays():
    from kabuto.app.session import PanelSnapshot

    session, flow = _flow()
    before = PanelSnapshot(session)
    choice = next(c for c in session.choices() if c.key == "medium")
    outcome = session.push(STEADY, choice)               # the session has moved on already
    assert flow.play(outcome, 0.5, before) and flow.phase is Phase.SHOWING
    shown = flow.aim_preview()
    assert shown.aim == Aim(STEADY.entry_deg, STEADY.heading_deg, STEADY.speed) and shown.kind == "medium"
    assert shown.start is not None and not shown.blocked
    assert flow.view().panels is before and flow.take_outcome() is None
    assert not flow.problems()
    assert not flow.tick(0.3) and flow.phase is Phase.SHOWING
    assert flow.tick(0.3) and flow.phase is Phase.PLAYING and flow.view().panels is before
    assert flow.take_outcome() is outcome and flow.landed()
