"""The replay file: what a recorded game's file holds, and that it reproduces the game exactly."""
from __future__ import annotations

import json

from kabuto import Game
from kabuto.replay import format as rp
from kabuto.replay.recorder import record
from physics import state_hash
from tests.replay.games import long_game, new_game


def test_a_recorded_file_holds_setup_materials_and_every_push_with_its_hash(rich):
    data = json.loads(rich.path.read_text())
    assert (data["format"], data["version"]) == ("kabuto-replay", 1)
    setup = rich.game.setup
    assert data["setup"] == {"players": 2, "wrestlers": ["mike", "hank"], "junior": False,
                             "seed": setup.seed, "first_player": 0}
    assert data["materials"][0]["data"] == setup.materials
    # Every push, move and edit the game still has is in the file with the hash the game computed.
    recorded = [(a["type"], a["hash"]) for a in rp.load(rich.path).actions if "hash" in a]
    played = [(h["type"], h["hash"]) for h in rich.game.history if "hash" in h]
    assert recorded == played
    kinds = {a["type"] for a in data["actions"]}
    assert kinds == {"push", "move", "edit", "end_turn", "undo"}


def test_a_tuning_change_adds_one_table_and_later_pushes_point_at_it(rich):
    text = rich.path.read_text()
    data = json.loads(text)
    assert len(data["materials"]) == 2
    assert text.count('"ring":') == 2            # each table stored once, not per push
    refs = [a["materials"] for a in data["actions"] if a["type"] == "push"]
    switch = refs.index(1)
    assert refs[:switch] == [0] * switch and set(refs[switch:]) == {1}
    t1 = rp.load(rich.path).materials[1].materials
    assert t1.kinds["small"].table_friction > rich.game.setup.materials["kinds"]["small"]["table_friction"]
    assert data["materials_in_force"] == 1


def test_a_game_without_tuning_changes_stores_one_table(data_dir):
    game = new_game(3)
    rec = record(game)
    long_game(3, 3, rec, game=game)
    data = json.loads(rec.close(game).read_text())
    assert len(data["materials"]) == 1
    assert {a.get("materials") for a in data["actions"] if a["type"] != "end_turn"} == {0}


def test_an_undo_stays_in_the_replay_and_replays_to_the_game_after_the_undo(rich):
    replay = rp.load(rich.path)
    undos = [a for a in replay.timeline if a["type"] == "undo"]
    assert len(undos) == 1 and undos[0]["undone"] >= 1
    # The undone push was played and recorded, but the game as it stands no longer has it.
    assert rich.undone_hash in [a.get("hash") for a in replay.timeline]
    assert rich.undone_hash not in [a.get("hash") for a in replay.actions]
    result = rp.verify(replay)
    assert result.ok
    assert result.game.locations() == rich.game.locations()
    assert state_hash(result.game.world.snapshot()) == state_hash(rich.game.world.snapshot())
    assert result.game.turn == rich.game.turn


def test_the_live_actions_replay_with_the_engine_itself(rich):
    """Replay.actions are Game.history entries with the replay's own fields: Game.replay accepts them (one materials table
    in force from the start; the tuning switch is the replay's job, so replay only the part
    before it)."""
    replay = rp.load(rich.path)
    before = []
    for a in replay.actions:
        if a.get("materials", 0) != 0:
            break
        before.append(a)
    game = Game.replay(replay.setup, [rp.action_of(a) for a in before], verify=True)
    assert [h["hash"] for h in game.history if "hash" in h] == [a["hash"] for a in before if "hash" in a]


def test_dumps_and_loads_round_trip_exactly(rich):
    replay = rp.load(rich.path)
    again = rp.loads(rp.dumps(replay))
    assert again.to_json() == replay.to_json()
    assert rp.dumps(again) == rp.dumps(replay)


def test_each_action_records_what_it_changed_so_positions_can_be_rebuilt(rich):
    """Applying every action's recorded changes to the start gives the final world exactly."""
    replay = rp.load(rich.path)
    pieces = rp.pieces_of(Game.from_setup(replay.setup).world)
    stack = [pieces]
    for a in replay.timeline:
        if a["type"] == "undo":
            del stack[len(stack) - a["undone"]:]
        elif "changes" in a:
            stack.append(rp.apply_changes(stack[-1], a["changes"]))
        else:
            stack.append(stack[-1])
    assert stack[-1] == rp.pieces_of(rich.game.world)


def test_playback_steps_back_to_a_checkpoint_and_forward_to_the_same_states(rich):
    """What a viewer does: play, remember a point, play on, go back, play again."""
    pb = rp.ReplayStepper(rp.load(rich.path))
    for _ in range(3):
        pb.step()
    mark = pb.checkpoint()
    first = [r.got for r in pb]
    pb.restore(mark)
    again = [r.got for r in pb]
    assert first == again and pb.done
    assert state_hash(pb.game.world.snapshot()) == state_hash(rich.game.world.snapshot())


def test_three_player_and_junior_league_team_games_replay_too(data_dir):
    import random

    from tests.replay.games import bot_push

    for game in (Game.new(players=3, seed=4), Game.new(players=4, junior=True, seed=4)):
        rec = record(game)
        rng = random.Random(4)
        for _ in range(4):
            if game.is_over or not game.legal_pieces():
                break
            game.push(**bot_push(game, rng))
            rec.update(game)
        replay = rp.load(rec.close(game))
        assert replay.setup == game.setup
        result = rp.verify(replay)
        assert result.ok and result.game.locations() == game.locations()
