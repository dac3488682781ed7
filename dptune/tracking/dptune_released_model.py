"""How a model that dptune released loads as an MLflow pyfunc, without dptune: the model's ``code`` holds
this file, and ``mlflow.pyfunc.load_model(URI).predict(x)`` takes what a user has, a numpy array of any
numeric dtype, a pandas frame of one column per feature, a list of rows or a torch tensor, and returns
each row's class: its name where the data's labels were names (``classes.json``), else its index.

It imports numpy, torch and MLflow only (the model's requirements), never dptune: a released model loads
wherever torch is. Its ``pytorch`` flavor is MLflow's own (``mlflow.pytorch.load_model`` gives the module,
class scores out).
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

CLASSES_FILE = "classes.json"
"""Beside the model's ``MLmodel``: the class names (or null) and the shape of one input row."""


class ReleasedClassifier:
    """A released module behind MLflow's pyfunc interface: inputs as float32 ``[n, *shape]``, the class of
    the largest score out."""

    def __init__(self, module: Any, classes: list[str] | None, shape: tuple[int, ...]) -> None:
        self.module = module
        self.classes = classes
        self.shape = shape

    def inputs(self, data: Any) -> np.ndarray:
        """``data`` as float32 rows of the model's input shape (a frame's columns, or a flat row of an
        image, in order)."""
        values = data.to_numpy() if hasattr(data, "to_numpy") else data
        if hasattr(values, "detach"):
            values = values.detach().cpu().numpy()
        array = np.asarray(values, dtype=np.float32)
        return array.reshape((-1, *self.shape))

    def predict(self, data: Any, params: dict[str, Any] | None = None) -> np.ndarray:
        import torch

        with torch.no_grad():
            scores = self.module(torch.from_numpy(self.inputs(data)))
        index = scores.argmax(dim=1).cpu().numpy()
        return np.asarray(self.classes, dtype=object)[index] if self.classes else index


def _load_pyfunc(path: str, model_config: dict[str, Any] | None = None) -> ReleasedClassifier:
    """MLflow's pyfunc loader: the model at ``path`` (its folder) through MLflow's pytorch flavor."""
    import mlflow.pytorch

    with open(os.path.join(path, CLASSES_FILE)) as file:
        described = json.load(file)
    module = mlflow.pytorch.load_model(path, map_location="cpu")
    return ReleasedClassifier(module, described["classes"], tuple(described["shape"]))
