"""Ray Tune trainables: one per DP method, each a thin wrapper of ``dptune.train.Trainer``, and the sweep's,
which runs the trial of the method its config names."""

from trainables.trial import TRAINABLES, dptune_sweep, make_trainable

__all__ = ["TRAINABLES", "dptune_sweep", "make_trainable"]
