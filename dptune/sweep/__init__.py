"""The sweep layer, the only one that imports Ray and Optuna: a spec becomes one Ray Tune ``Tuner`` per
sweep stage (``driver``) holding every method's search (``stage_searcher``, ASHA per method in
``schedulers``), each searched by Optuna (``define_by_run``) behind a searcher that accounts every trial
(``searcher``), recorded by callbacks (``callbacks``), resumable (``restore``)."""

from dptune.sweep.driver import SweepOutcome, find_sweep, quiet_libraries, run_sweep, run_sweeps
from dptune.sweep.interrupt import SweepInterrupted

__all__ = ["SweepInterrupted", "SweepOutcome", "find_sweep", "quiet_libraries", "run_sweep", "run_sweeps"]
