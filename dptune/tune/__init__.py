"""The Ray Tune adapter, the only package that imports Ray and Optuna: a spec becomes one Ray Tune
``Tuner`` per sweep (``driver``) holding every method's search (``sweep_searcher``: the chain of steps
the sweep's mode builds; ASHA per method in ``schedulers``), each searched by Optuna (``define_by_run``)
behind a searcher that accounts every trial (``searcher``), run by one trainable (``trainable``), recorded
by callbacks (``callbacks``), resumable (``restore``)."""

from dptune.sweep.spec_modes import SweepOutcome
from dptune.tune.driver import run_sweep, run_sweeps
from dptune.tune.interrupt import SweepInterrupted
from dptune.tune.startup import find_sweep, quiet_libraries

__all__ = ["SweepInterrupted", "SweepOutcome", "find_sweep", "quiet_libraries", "run_sweep", "run_sweeps"]
