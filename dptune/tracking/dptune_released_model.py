"""How a model that dptune released loads as an MLflow pyfunc, without dptune: the model's ``code`` holds
this file, and ``mlflow.pyfunc.load_model(URI).predict(x)`` takes what a user has, a numpy array of any
numeric dtype, a pandas frame of one column per feature, a list of rows or a torch tensor, and returns
each row's class: its name where the data's labels were names (``classes.json``), else its index. A
model of a built-in image dataset also takes that dataset's own uint8 images (MNIST's ``[n, 28, 28]``,
CIFAR's ``[n, 32, 32, 3]``), one image alone, or images of another size (resized to the data's), and
scales them as training did (``classes.json``'s ``pixels``).

It imports numpy, torch and MLflow only (the model's requirements), never dptune: a released model loads
wherever torch is. Its ``pytorch`` flavor is MLflow's own (``mlflow.pytorch.load_model`` gives the module,
class scores out).

A fine-tuned text model (``classes.json``'s ``kind`` is ``text``) is kept as ``transformers`` keeps it, its
weights and tokenizer in the folder ``TEXT_FOLDER``: its pyfunc takes raw text (a list of strings, a
pandas frame of one text column, or of two for text pairs) and tokenizes it as training did; it needs
``transformers`` beside torch.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

CLASSES_FILE = "classes.json"
"""Beside the model's ``MLmodel``: the class names (or null) and the shape of one input row (a text model:
its kind, ``text``, and ``max_length``)."""
TEXT_FOLDER = "transformers"
"""A text model's weights and tokenizer (``save_pretrained``), beside its ``MLmodel``."""


class ReleasedClassifier:
    """A released module behind MLflow's pyfunc interface: inputs as float32 ``[n, *shape]`` (a built-in
    image dataset's model also takes its uint8 images, ``pixels``), the class of the largest score out."""

    def __init__(
        self,
        module: Any,
        classes: list[str] | None,
        shape: tuple[int, ...],
        pixels: dict[str, list[float]] | None = None,
    ) -> None:
        self.module = module
        self.classes = classes
        self.shape = shape
        self.pixels = pixels

    def inputs(self, data: Any) -> np.ndarray:
        """``data`` as float32 rows of the model's input shape (a frame's columns, or a flat row of an
        image, in order); uint8 images, where the model has ``pixels``, as training read them
        (``scaled``)."""
        values = data.to_numpy() if hasattr(data, "to_numpy") else data
        if hasattr(values, "detach"):
            values = values.detach().cpu().numpy()
        array = np.asarray(values)
        if array.dtype == np.uint8 and self.pixels is not None:
            return self.scaled(array, self.pixels)
        return np.asarray(array, dtype=np.float32).reshape((-1, *self.shape))

    def scaled(self, images: np.ndarray, pixels: dict[str, list[float]]) -> np.ndarray:
        """uint8 images as the model's inputs ``[n, c, h, w]``: a batch ``[n, h, w, c]`` or ``[n, c, h, w]``
        (grey: ``[n, h, w]`` too), or one image without its batch axis; x/255 − mean, divided by std, per
        channel (``pixels``: the dataset's public constants, those training used). Images of another size
        than the data's are resized to it (bilinear, antialiased), as a photo is brought to a dataset's."""
        channels, height, width = self.shape
        x = images.astype(np.float32) / 255.0
        if x.ndim == (2 if channels == 1 else 3) or (channels == 1 and x.ndim == 3 and x.shape[-1] == 1):
            x = x[None]  # one image
        if x.ndim == 3 and channels == 1:
            x = x[:, None]
        if x.ndim == 4 and x.shape[1] != channels and x.shape[3] == channels:
            x = x.transpose(0, 3, 1, 2)
        if x.ndim != 4 or x.shape[1] != channels:
            grey = ", [n, h, w]" if channels == 1 else ""
            raise ValueError(
                f"uint8 images must be [n, h, w, {channels}] or [n, {channels}, h, w]{grey}, or one such "
                f"image ({channels} channel{'s' if channels > 1 else ''}); got {list(images.shape)}"
            )
        if x.shape[2:] != (height, width):
            import torch
            import torch.nn.functional as F

            resized = F.interpolate(
                torch.from_numpy(np.ascontiguousarray(x)), (height, width), mode="bilinear", antialias=True
            )
            x = resized.numpy()
        mean = np.asarray(pixels["mean"], dtype=np.float32).reshape(1, -1, 1, 1)
        std = np.asarray(pixels["std"], dtype=np.float32).reshape(1, -1, 1, 1)
        return np.ascontiguousarray((x - mean) / std, dtype=np.float32)

    def predict(self, data: Any, params: dict[str, Any] | None = None) -> np.ndarray:
        import torch

        with torch.no_grad():
            scores = self.module(torch.from_numpy(self.inputs(data)))
        index = scores.argmax(dim=1).cpu().numpy()
        return np.asarray(self.classes, dtype=object)[index] if self.classes else index


class ReleasedTextClassifier:
    """A released text classifier behind MLflow's pyfunc interface: raw text in (pairs as two columns),
    tokenized as in training (``max_length``, truncated), the class of the largest score out."""

    def __init__(self, model: Any, tokenizer: Any, classes: list[str] | None, max_length: int) -> None:
        self.model, self.tokenizer, self.classes, self.max_length = model, tokenizer, classes, max_length

    @staticmethod
    def texts(data: Any) -> tuple[list[str], list[str] | None]:
        """The text (and the pair's second text) of every row of ``data``."""
        if hasattr(data, "columns"):
            columns = [[str(v) for v in data[c].tolist()] for c in data.columns]
            return columns[0], columns[1] if len(columns) > 1 else None
        values = np.asarray(data, dtype=object)
        if values.ndim == 2:
            return [str(v) for v in values[:, 0]], [str(v) for v in values[:, 1]] if values.shape[
                1
            ] > 1 else None
        return [str(v) for v in values.reshape(-1)], None

    def predict(self, data: Any, params: dict[str, Any] | None = None) -> np.ndarray:
        import torch

        first, second = self.texts(data)
        encoded = self.tokenizer(
            first, second, max_length=self.max_length, truncation=True, padding=True, return_tensors="pt"
        )
        with torch.no_grad():
            scores = self.model(**encoded).logits
        index = scores.argmax(dim=1).cpu().numpy()
        return np.asarray(self.classes, dtype=object)[index] if self.classes else index


def _load_pyfunc(
    path: str, model_config: dict[str, Any] | None = None
) -> ReleasedClassifier | ReleasedTextClassifier:
    """MLflow's pyfunc loader: the model at ``path`` (its folder) through MLflow's pytorch flavor, or a
    text model through ``transformers``."""
    with open(os.path.join(path, CLASSES_FILE)) as file:
        described = json.load(file)
    if described.get("kind") == "text":
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        folder = os.path.join(path, TEXT_FOLDER)
        model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
        tokenizer = AutoTokenizer.from_pretrained(folder)
        return ReleasedTextClassifier(model, tokenizer, described["classes"], int(described["max_length"]))
    import mlflow.pytorch

    module = mlflow.pytorch.load_model(path, map_location="cpu")
    return ReleasedClassifier(
        module, described["classes"], tuple(described["shape"]), described.get("pixels")
    )
