"""Materials are data: loaded, validated by key, overridden for tuning, carried in snapshots."""
from __future__ import annotations

import pytest

import kabuto_assets
from physics import Materials, World


def test_the_default_materials_describe_the_assumed_wooden_game():
    m = Materials.load()
    assert m.ring.radius * 2 == pytest.approx(0.17)        # crammed (issue 42; 0.20 before)
    sizes = {k: m.kinds[k].size * 2 for k in ("small", "medium", "large")}
    assert sizes == pytest.approx({"small": 0.024, "medium": 0.029, "large": 0.038})
    assert all(m.kinds[k].table_friction == pytest.approx(0.3) for k in sizes)
    assert m.kinds["small"].mass < m.kinds["medium"].mass < m.kinds["large"].mass
    text = (kabuto_assets.path("materials.toml")).read_text()
    assert "ASSUMPTIONS" in text


@pytest.mark.parametrize("key, value, message", [
    ("kinds.small.table_friction", -0.1, "kinds.small.table_friction"),
    ("kinds.large.restitution", 1.5, "kinds.large.restitution"),
    ("kinds.medium.thickness", 0, "kinds.medium.thickness"),
    ("kinds.small.mass", "heavy", "kinds.small.mass"),
    ("ring.radius", float("nan"), "ring.radius"),
    ("simulation.steps_per_second", 10, "simulation.steps_per_second"),
    ("kinds.small.colour", "red", "kinds.small.colour"),
])
def test_loading_rejects_impossible_values_naming_the_key(tmp_path, key, value, message):
    data = Materials.load().to_dict()
    node = data
    parts = key.split(".")
    for p in parts[:-1]:
        node = node[p]
    node[parts[-1]] = value
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        Materials.from_dict(data)


def test_a_broken_file_is_named(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[kinds.small\nshape = 1")
    with pytest.raises(ValueError, match="bad.toml: not valid TOML"):
        Materials.load(bad)


def test_overrides_change_one_kind_or_all_and_reject_unknown_parameters():
    m = Materials.load()
    assert m.with_overrides({"mass.small": 0.003}).kinds["small"].mass == 0.003
    assert m.with_overrides({"mass.small": 0.003}).kinds["large"].mass == m.kinds["large"].mass
    assert all(t.table_friction == 0.4 for t in m.with_overrides({"table_friction": 0.4}).kinds.values())
    with pytest.raises(ValueError, match="unknown parameter"):
        m.with_overrides({"bounciness": 1.0})
    with pytest.raises(ValueError, match="unknown piece kind"):
        m.with_overrides({"mass.giant": 1.0})


def test_tuned_materials_travel_in_the_snapshot():
    tuned = Materials.load().with_overrides({"table_friction": 0.45})
    world = World(tuned)
    again = World.from_snapshot(world.snapshot())
    assert again.materials == tuned


def test_a_polygon_outline_loads_back_bit_for_bit():
    """Outlines are centred on their centre of mass once; loading saved data never moves them."""
    from physics import Materials as M
    data = M.load().to_dict()
    data["kinds"]["bar"] = {"shape": {"polygons": [[[0, 0], [0.04, 0], [0.04, 0.01], [0, 0.013]]]},
                            "thickness": 0.006, "mass": 0.002, "table_friction": 0.3,
                            "piece_friction": 0.4, "restitution": 0.3}
    once = M.from_dict(data)
    again = M.from_dict(once.to_dict())
    assert again.kinds["bar"].shape == once.kinds["bar"].shape
    assert once.kinds["bar"].shape.parts[0][0] != (0.0, 0.0)  # it was re-centred the first time


def test_a_saved_profile_loads_back_exactly_and_a_failed_save_keeps_the_old_file(tmp_path, monkeypatch):
    tuned = Materials.load().with_overrides({"table_friction": 0.37, "mass.small": 0.0017})
    path = tmp_path / "profile.toml"
    tuned.save(path, ["a tuned profile"])
    assert Materials.load(path) == tuned
    assert path.read_text().startswith("# a tuned profile")
    before = path.read_bytes()
    import kabuto_base.fileio as fileio

    def broken(tmp):  # the disk fills up half-way through the write
        open(tmp, "w").write("[ring")
        raise OSError("No space left on device")

    monkeypatch.setattr(fileio, "write_atomic", lambda p, data: fileio.write_atomic_with(p, broken))
    monkeypatch.setattr("physics.materials.write_atomic", fileio.write_atomic)
    with pytest.raises(OSError):
        Materials.load().save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["profile.toml"]  # no temporary file left
