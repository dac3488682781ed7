"""Shared fixtures: the real digits dataset (scikit-learn, offline) loaded once."""

from __future__ import annotations

import pytest
import torch

from dptune.data import Dataset, load_dataset

torch.set_num_threads(2)


@pytest.fixture(scope="session")
def digits() -> Dataset:
    return load_dataset("digits")
