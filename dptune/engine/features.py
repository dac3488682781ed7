"""What a model trains on: a dataset's inputs, or features computed once from them.

A model in ``dptune.models.MODEL_FEATURES`` (the ScatterNet models) trains on a fixed, data-independent
transform of each sample (``dptune.models.scattering``): it has no parameters and touches one sample at a
time, so it costs no privacy, and it is computed once per dataset, here, not once per step. The
features of a dataset are cached on disk (``CACHE_ROOT/features``; ``DPTUNE_CACHE`` moves it, e.g. to a
cluster's shared storage) under a digest of its inputs (``Dataset.inputs_digest``), so a sweep's driver
computes them once for all its trials (each reads them from the cache, by the digest the driver's copy of
the data carries) and a later sweep of the same data not at all; the cached file is written whole and
then renamed, so an interrupted computation leaves nothing half-written.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import torch

from dptune.engine.cache import CACHE_ROOT
from dptune.engine.dataset import Dataset
from dptune.models import MODEL_FEATURES
from dptune.models.scattering import ANGLES, SCALES, scattering_features

FEATURES_DIR = CACHE_ROOT / "features"


def cached_features(data: Dataset, kind: str, folder: Path | None = None) -> Dataset:
    """``data`` with its inputs replaced by their ``kind`` features, from the cache (``folder``, by
    default ``FEATURES_DIR``) or computed and cached (a temporary file renamed into place)."""
    folder = folder or FEATURES_DIR
    if kind != "scattering":
        raise ValueError(f"no features named {kind!r}")
    path = folder / f"{data.name.replace(':', '_')}-scattering-J{SCALES}-L{ANGLES}-{data.inputs_digest}.pt"
    if path.is_file():
        parts = torch.load(path)
    else:
        parts = {name: scattering_features(getattr(data, name)) for name in ("train_x", "val_x", "test_x")}
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        torch.save(parts, partial)
        partial.replace(path)
    return replace(data, **parts, features=kind)


def sample_inputs(model: str, images: torch.Tensor) -> torch.Tensor:
    """What ``model`` trains on for a few ``images``: the images, or their features computed here (a
    cheap check of a model's fit, without the whole dataset's features)."""
    kind = MODEL_FEATURES.get(model)
    if kind is None:
        return images
    if kind != "scattering":
        raise ValueError(f"no features named {kind!r}")
    return scattering_features(images)


def model_inputs(model: str, data: Dataset, folder: Path | None = None) -> Dataset:
    """The data ``model`` trains on: ``data`` itself, or its features (already computed: returned as is)."""
    kind = MODEL_FEATURES.get(model)
    if data.features is not None and data.features != kind:
        raise ValueError(f"{model} trains on {kind or 'the inputs'}, the data holds {data.features} features")
    if kind is None or data.features == kind:
        return data
    return cached_features(data, kind, folder)
