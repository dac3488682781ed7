"""The released models of a sweep, from its re-runs' last checkpoints into the tracking store.

Only the file ``RELEASED_FILE`` of a checkpoint is read (the model its trial saved at its end, θ and the
architecture); the trainer's state beside it, with its generator states, is never opened here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import torch

from dptune.engine.data import PixelScale
from dptune.sweep.releases import ReleasedModel
from dptune.tracking import SweepRecord, TrialKey
from dptune.tune.trainable import RELEASED_FILE

CHECKPOINT_KEY = "checkpoint"
"""A re-run's result carries its last checkpoint (a ``ray.tune.Checkpoint``) here."""


def released_module(checkpoint: Any) -> torch.nn.Module | None:
    """The model a re-run saved beside its last checkpoint; None if it saved none (a run that ended
    before its last epoch)."""
    if checkpoint is None:
        return None
    with checkpoint.as_directory() as folder:
        path = Path(folder) / RELEASED_FILE
        if not path.is_file():
            return None
        module: torch.nn.Module = torch.load(path, map_location="cpu", weights_only=False)
        return module


def log_releases(
    tracker: SweepRecord,
    experiment: str,
    sweep_id: str,
    releases: Sequence[ReleasedModel],
    results: Sequence[Mapping[str, Any]],
    image_shape: tuple[int, ...],
    classes: Sequence[str] | None = None,
    pixels: PixelScale | None = None,
) -> list[ReleasedModel]:
    """Each release's model logged with its trial's run and registered under its name
    (``ReleasedModel.registered_name``: ``EXPERIMENT.METHOD``, or ``EXPERIMENT`` for one model across
    methods) with its card (a run that has one already keeps it: a resumed sweep registers nothing
    twice); the releases with where each loads from. A store that does not answer raises
    ``StoreUnavailableError``."""
    checkpoints = {str(r["trial_id"]): r.get(CHECKPOINT_KEY) for r in results}
    logged = []
    for release in releases:
        module = released_module(checkpoints.get(release.trial_id))
        if module is None:
            logged.append(release)
            continue
        key = TrialKey(experiment, sweep_id, release.trial_id)
        uri = tracker.release_model(
            key, module, image_shape, release.card, release.registered_name(experiment), classes, pixels
        )
        logged.append(release.logged(uri))
    return logged
