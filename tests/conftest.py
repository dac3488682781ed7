"""Shared fixtures: the real digits dataset (scikit-learn, offline) loaded once."""

from __future__ import annotations

import pytest
import ray
import torch

from dptune.data import Dataset, load_dataset

torch.set_num_threads(2)


@pytest.fixture(scope="session")
def digits() -> Dataset:
    return load_dataset("digits")


@pytest.fixture
def local_ray():
    """A local Ray with 4 CPUs and one declared GPU (scheduling only: no GPU is used)."""
    ray.init(num_cpus=4, num_gpus=1, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
