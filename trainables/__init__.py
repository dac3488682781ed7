"""Ray Tune trainables: one per DP method, each a thin wrapper of ``dptune.train.Trainer``."""

from trainables.trial import TRAINABLES, TrialSettings, make_trainable, train_config

__all__ = ["TRAINABLES", "TrialSettings", "make_trainable", "train_config"]
