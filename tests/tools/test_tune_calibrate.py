"""``kabuto tune calibrate``: fits that recover known parameters, profiles the app can load."""
from __future__ import annotations

import pytest

from kabuto.cli.tune import main
from kabuto.tuning import TuneError
from kabuto.tuning.calibrate import calibrate, load_targets, targets_from_dict
from kabuto.tuning.profile import write_profile
from kabuto.tuning.scenario import load_scenario, run_scenario
from physics import Materials


def _measure(materials, scenario, metric, **settings):
    return run_scenario(load_scenario(scenario), materials, settings).metrics[metric]


def test_calibration_recovers_a_friction_from_slides_the_model_made_with_it(materials):
    truth = materials.with_overrides({"table_friction": 0.42})
    targets = targets_from_dict({
        "fit": {"table_friction": [0.1, 0.8]},
        "target": [
            {"scenario": "free-slide", "metric": "slide_mm", "set": {"push.speed": v},
             "value": _measure(truth, "free-slide", "slide_mm", **{"push.speed": v})}
            for v in (0.25, 0.5)],
    }, materials)
    cal = calibrate(targets, materials)                  # starts from the default 0.3
    assert cal.success
    assert cal.fitted["table_friction"] == pytest.approx(0.42, abs=0.002)
    assert all(abs(r) < 0.05 for r in cal.residuals)     # mm
    assert cal.materials.kinds["small"].table_friction == pytest.approx(0.42, abs=0.002)


def test_calibration_recovers_friction_restitution_and_mass_together(materials):
    truth = materials.with_overrides({"table_friction": 0.36, "restitution": 0.55,
                                      "mass.small": 0.0021})
    measured = [("free-slide", "slide_mm"), ("head-on", "target_mm"),
                ("small-hits-large", "target_mm")]
    targets = targets_from_dict({
        "fit": {"table_friction": [0.1, 0.8], "restitution": [0.05, 0.9],
                "mass.small": [0.0005, 0.004]},
        "target": [{"scenario": s, "metric": m, "value": _measure(truth, s, m), "sigma": 0.1}
                   for s, m in measured],
    }, materials)
    cal = calibrate(targets, materials)
    assert cal.fitted["table_friction"] == pytest.approx(0.36, abs=0.005)
    assert cal.fitted["restitution"] == pytest.approx(0.55, abs=0.02)
    assert cal.fitted["mass.small"] == pytest.approx(0.0021, rel=0.05)


def test_the_same_targets_give_the_same_fit_with_one_worker_or_two(materials):
    path = "assets/scenarios/calibration-example.toml"
    targets = load_targets(path, materials)
    one = calibrate(targets, materials, workers=1, max_evals=8)
    two = calibrate(targets, materials, workers=2, max_evals=8)
    assert one.fitted == two.fitted and one.model == two.model


def test_the_example_targets_calibrate_and_write_a_profile_physics_loads(tmp_path, capsys):
    out = tmp_path / "profile.toml"
    code = main(["calibrate", "--targets", "assets/scenarios/calibration-example.toml",
                 "--out", str(out), "--quiet"])
    printed = capsys.readouterr().out
    assert code == 0
    for label in ("small sliding in at 0.3 m/s slides", "large into three smalls: last moves"):
        assert label in printed
    assert "residual" in printed and "table_friction" in printed
    profile = Materials.load(out)
    defaults = Materials.load()
    assert set(profile.kinds) == set(defaults.kinds)
    assert profile.sim == defaults.sim and profile.ring == defaults.ring
    # The profile's friction is the fitted one, and it makes the disc slide as measured (15 mm).
    assert _measure(profile, "free-slide", "slide_mm", **{"push.speed": 0.3}) == pytest.approx(15.0, abs=0.5)


def test_a_profile_loads_back_as_exactly_the_materials_written(tmp_path, materials):
    tuned = materials.with_overrides({"table_friction": 0.123456789012345, "mass.small": 1.7e-3,
                                      "simulation.iterations": 12})
    path = write_profile(tmp_path / "p.toml", tuned, ["a header line"])
    assert Materials.load(path).to_dict() == tuned.to_dict()
    assert path.read_text().startswith("# a header line\n")


@pytest.mark.parametrize("text, problem", [
    ("x = [", "not valid TOML"),
    ('[fit]\ntable_friction = [0.1, 0.8]\n', "needs at least one [[target]]"),
    ('[[target]]\nscenario = "free-slide"\nmetric = "slide_mm"\nvalue = 15\n', "[fit] must name"),
    ('[fit]\ntable_friction = [0.8, 0.1]\n[[target]]\nscenario = "free-slide"\nmetric = "slide_mm"\nvalue = 15\n',
     "high must be greater than low"),
    ('[fit]\ntable_friction = [0.1, 9]\n[[target]]\nscenario = "free-slide"\nmetric = "slide_mm"\nvalue = 15\n',
     "bound 9 is not allowed"),
    ('[fit]\nwobble = [0.1, 0.8]\n[[target]]\nscenario = "free-slide"\nmetric = "slide_mm"\nvalue = 15\n',
     "unknown parameter 'wobble'"),
    ('[fit]\ntable_friction = [0.1, 0.8]\n[[target]]\nscenario = "nope"\nmetric = "slide_mm"\nvalue = 15\n',
     "unknown scenario 'nope'"),
    ('[fit]\ntable_friction = [0.1, 0.8]\n[[target]]\nscenario = "free-slide"\nmetric = "slide"\nvalue = 15\n',
     "has no metric 'slide'"),
    ('[fit]\ntable_friction = [0.1, 0.8]\n[[target]]\nscenario = "free-slide"\nmetric = "slide_mm"\n',
     "target[0].value: missing"),
    ('[fit]\ntable_friction = [0.1, 0.8]\n[[target]]\nscenario = "free-slide"\nmetric = "slide_mm"\nvalue = 15\nsigma = -1\n',
     "sigma: must be positive"),
    ('[fit]\ntable_friction = [0.1, 0.8]\n[[target]]\nscenario = "free-slide"\nmetric = "slide_mm"\nvalue = 15\nset = { table_friction = 0.3 }\n',
     "is being fitted"),
])
def test_malformed_targets_exit_2_with_one_line_and_write_no_profile(tmp_path, capsys, text, problem):
    targets = tmp_path / "t.toml"
    targets.write_text(text)
    out = tmp_path / "profile.toml"
    assert main(["calibrate", "--targets", str(targets), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert problem in err and err.count("\n") == 1
    assert not out.exists()


def test_targets_are_checked_against_the_materials(materials):
    with pytest.raises(TuneError, match="push settings cannot be fitted"):
        targets_from_dict({"fit": {"push.speed": [0.1, 0.5]},
                           "target": [{"scenario": "free-slide", "metric": "slide_mm", "value": 1}]},
                          materials)
