"""Evidence for tuning how discs slide and shove: scenarios, parameter sweeps and calibration.

The app's sliders are for feel; these modules are for numbers. They sit on :mod:`physics` alone
(no game rules) and are driven by ``kabuto tune`` (:mod:`kabuto.cli.tune`).

* :mod:`kabuto.tuning.scenario` - a scenario file (pieces, pushes, metrics) and running it under
  given materials to get the metrics.
* :mod:`kabuto.tuning.params` - tuning parameters by name, and sweep ranges (``LO:HI:N``).
* :mod:`kabuto.tuning.sweep` - a grid of runs over a process pool, written to CSV.
* :mod:`kabuto.tuning.plots` - PNG plots of a sweep's metrics.
* :mod:`kabuto.tuning.calibrate` - fitting parameters to measured targets with scipy.optimize.
* :mod:`kabuto.tuning.profile` - writing a tuning profile TOML that ``physics.Materials.load`` reads.

Every function here is a pure function of its inputs: the same inputs give bit-identical outputs
in any process, whatever the number of workers.
"""
from kabuto.tuning.errors import TuneError

__all__ = ["TuneError"]
