"""The product's top-level name for its Ray Tune trainable: the sweep's one trainable, which runs the
trial of the method its config names (``dptune.tune.trainable``)."""

from dptune.tune.trainable import dptune_sweep, run_trial

__all__ = ["dptune_sweep", "run_trial"]
