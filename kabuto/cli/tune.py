"""``kabuto tune``: evidence for tuning how discs slide and shove.

    kabuto tune list
    kabuto tune run --scenario free-slide --param table_friction=0.25
    kabuto tune sweep --scenario small-hits-large --param mass.small=0.001:0.004:4
    kabuto tune calibrate --targets assets/scenarios/calibration-example.toml --out my-profile.toml

Scenarios live in ``assets/scenarios/``; the formats of scenarios, targets and tuning profiles are in
``docs/tuning.md``. The work is in :mod:`kabuto.tuning`; this module only reads the command line.
Bad input gets one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from kabuto.cli import UsageError, command, progress_wanted, require_extra, subparser

DESCRIPTION = """\
Sweep and calibrate the physics materials (friction, mass, restitution) on small fixed scenarios.

  list       the scenarios in assets/scenarios/ and the metrics each reports
  run        one run of a scenario; prints its metrics
  sweep      a scenario over a grid of parameter values: a CSV and one PNG plot per metric
  calibrate  fit parameters to measured targets; writes a tuning profile TOML

Parameters: table_friction, piece_friction, restitution, mass, thickness (every kind), or one
kind's with FIELD.KIND (mass.small); simulation.KEY, ring.KEY; push.speed, push.heading_deg,
push.entry_deg, push.spin_deg (every push of the scenario).
Ranges: NAME=LO:HI:N (N values, ends included), NAME=V1,V2,... or NAME=V.
'kabuto tune <command> --help' explains each command."""


def _default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def build_parser() -> argparse.ArgumentParser:
    parser = subparser("tune", DESCRIPTION)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="command", metavar="{list,run,sweep,calibrate}")
    materials_help = ("base materials: a tuning profile or materials file "
                      "(default assets/materials.toml)")

    sub.add_parser("list", help="list the scenarios and their metrics",
                   description="List the scenarios in assets/scenarios/ and the metrics each reports.")

    run = sub.add_parser("run", help="run a scenario once and print its metrics",
                         description="Run a scenario once and print its metrics.")
    run.add_argument("--scenario", required=True, help="a scenario name (see 'list') or a .toml path")
    run.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                     help="a parameter value for this run (repeatable)")
    run.add_argument("--materials", type=Path, help=materials_help)

    sweep = sub.add_parser(
        "sweep", help="run a scenario over a parameter grid; write CSV and PNG plots",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run a scenario at every combination of the given parameter values (the first "
                    "--param varies slowest),\non a process pool, and write OUT/SCENARIO.csv (one "
                    "row per run: the parameters, every metric,\nand stalled/capped flags) and "
                    "OUT/SCENARIO-METRIC.png per metric. The CSV is identical for the\nsame inputs "
                    "whatever --workers is.",
        epilog="example (mass matters where pieces collide: a heavier small disc shoves the large one"
               " further):\n  kabuto tune sweep --scenario small-hits-large --param mass.small=0.001:0.004:4\n"
               "(a piece sliding alone goes as far whatever its mass: its friction grows with it)")
    sweep.add_argument("--scenario", required=True, help="a scenario name (see 'list') or a .toml path")
    sweep.add_argument("--param", action="append", default=[], metavar="NAME=RANGE", required=True,
                       help="a swept parameter: NAME=LO:HI:N, NAME=V1,V2,... or NAME=V (repeatable)")
    sweep.add_argument("--out", type=Path, default=Path("tune-out"),
                       help="folder for the CSV and plots (default ./tune-out)")
    sweep.add_argument("--workers", type=int, default=_default_workers(),
                       help="worker processes (default: one per core)")
    sweep.add_argument("--materials", type=Path, help=materials_help)
    sweep.add_argument("--no-plots", action="store_true", help="write the CSV only")
    sweep.add_argument("--quiet", action="store_true", help="no progress bar")
    sweep.add_argument("--resume", action="store_true",
                       help="keep the runs an interrupted sweep of the same grid finished (in "
                            "OUT/SCENARIO.runs.jsonl) and run only the rest")

    cal = sub.add_parser(
        "calibrate", help="fit parameters to measured targets; write a tuning profile",
        description="Fit the parameters named in the targets file's [fit] table, within their "
                    "bounds, so that the scenarios' metrics match the measured values "
                    "(bounded least squares). Prints the fit and each residual, and writes a "
                    "tuning profile that physics.Materials.load (the app, replays) reads.")
    cal.add_argument("--targets", type=Path, required=True, help="the targets TOML file")
    cal.add_argument("--out", type=Path, default=Path("tuning-profile.toml"),
                     help="the tuning profile to write (default ./tuning-profile.toml)")
    cal.add_argument("--materials", type=Path,
                     help=materials_help + "; also the fit's start and every value not fitted")
    cal.add_argument("--workers", type=int, default=1,
                     help="worker processes (default 1: each model run takes milliseconds, so a "
                          "pool pays off only for crowded scenarios or many targets)")
    cal.add_argument("--max-evals", type=int, default=60,
                     help="most residual evaluations the optimizer may make (default 60)")
    cal.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


@command("tune")
def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.command is None:
        parser.print_help()
        return 2
    from kabuto.tuning.errors import TuneError

    try:
        return {"list": _list, "run": _run, "sweep": _sweep, "calibrate": _calibrate}[args.command](args)
    except TuneError as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        print("kabuto tune: interrupted", file=sys.stderr)
        return 130


def _materials(path: Path | None):
    from kabuto.tuning.errors import TuneError
    from physics import Materials

    try:
        return Materials.load(path)
    except ValueError as exc:
        raise TuneError(f"--materials: {exc}") from None


def _list(args: argparse.Namespace) -> int:
    from kabuto.tuning.scenario import describe, list_scenarios, load_scenario

    for name in list_scenarios():
        print(describe(load_scenario(name)))
    return 0


def _run(args: argparse.Namespace) -> int:
    from kabuto.tuning import params
    from kabuto.tuning.errors import TuneError
    from kabuto.tuning.scenario import load_scenario
    from kabuto.tuning.sweep import run_point

    materials = _materials(args.materials)
    scenario = load_scenario(args.scenario)
    point: dict[str, float] = {}
    for spec in args.param:
        r = params.parse_range(spec)
        if len(r.values) != 1:
            raise TuneError(f"--param {spec}: 'run' takes one value per parameter (NAME=VALUE)")
        params.check_name(r.name, materials)
        point[r.name] = r.values[0]
    try:
        outcome = run_point(scenario, materials, point)
    except TuneError:
        raise
    except ValueError as exc:
        raise TuneError(f"{scenario.name}: {exc}") from None
    for name, value in outcome.metrics.items():
        print(f"{name} = {value:.6g}")
    if outcome.stalled or outcome.capped:
        print(f"warning: stalled={outcome.stalled} capped={outcome.capped}")
    return 0


def _sweep(args: argparse.Namespace) -> int:
    from kabuto.tuning import params
    from kabuto.tuning.errors import TuneError
    from kabuto.tuning.scenario import build_world, load_scenario
    from kabuto.tuning.sweep import run_sweep, write_csv

    materials = _materials(args.materials)
    scenario = load_scenario(args.scenario)
    grid = params.make_grid(args.param, materials)
    if args.workers < 1:
        raise TuneError(f"--workers must be at least 1, got {args.workers}")
    try:
        build_world(scenario, materials)  # a scenario that cannot be set up fails before the pool
    except ValueError as exc:
        raise TuneError(f"{scenario.name}: {exc}") from None
    journal = args.out / f"{scenario.name}.runs.jsonl"
    try:
        result = run_sweep(scenario, materials, grid, workers=min(args.workers, len(grid)),
                           progress=progress_wanted(args.quiet), journal=journal, resume=args.resume)
    except KeyboardInterrupt:
        print(f"kabuto tune: interrupted: every finished run is kept in {journal}; run the same "
              f"sweep again with --resume to run the rest", file=sys.stderr)
        return 130
    written = [write_csv(result, args.out / f"{scenario.name}.csv")]
    plots_skipped = False
    if not args.no_plots:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            plots_skipped = True  # the sweep's numbers need no plot; say how to get them
        else:
            from kabuto.tuning.plots import plot_sweep

            written += plot_sweep(result, args.out)
    print(f"{scenario.name}: {len(grid)} runs over {', '.join(grid.names)}")
    for m in scenario.metric_names:
        vals = result.metric(m)
        print(f"  {m}: {min(vals):.4g} .. {max(vals):.4g}")
    flagged = sum(1 for o in result.outcomes if o.stalled or o.capped)
    if flagged:
        print(f"  warning: {flagged} run(s) stalled or hit the time cap (see the CSV's flags)")
    for path in written:
        print(f"wrote {path}")
    if plots_skipped:
        print("no plots: they need the optional 'tools' dependencies (pip install 'kabuto[tools]')")
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    require_extra("scipy", "tools", "kabuto tune calibrate")
    from kabuto.tuning.calibrate import calibrate, load_targets, report
    from kabuto.tuning.errors import TuneError
    from kabuto.tuning.profile import write_profile

    if args.workers < 1:
        raise TuneError(f"--workers must be at least 1, got {args.workers}")
    if args.max_evals < 1:
        raise TuneError(f"--max-evals must be at least 1, got {args.max_evals}")
    materials = _materials(args.materials)
    targets = load_targets(args.targets, materials)
    cal = calibrate(targets, materials, workers=args.workers, max_evals=args.max_evals,
                    progress=progress_wanted(args.quiet))
    print(report(cal))
    base = str(args.materials) if args.materials else "assets/materials.toml"
    header = [
        "Tuning profile written by `kabuto tune calibrate`.",
        f"Targets: {args.targets}; base materials: {base}.",
        "Fitted: " + ", ".join(f"{k} = {v:.6g}" for k, v in cal.fitted.items()) + ".",
        "Every other value is the base materials'. Load with physics.Materials.load(path).",
    ]
    write_profile(args.out, cal.materials, header)
    print(f"wrote {args.out}")
    return 0 if cal.success else 1


if __name__ == "__main__":
    sys.exit(main())
