"""Ray Tune trainables: one per DP method, each a thin wrapper of ``dptune.train.Trainer``."""

from trainables.trial import TRAINABLES, make_trainable

__all__ = ["TRAINABLES", "make_trainable"]
