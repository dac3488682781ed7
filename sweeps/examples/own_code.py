"""Bring your own data and model to dptune: a dataset factory and a model factory, named in
``own-code.yaml`` as ``own_code:digits_vectors`` and ``own_code:mlp`` (this folder, beside the spec, is
searched first), or on the command line::

    cd sweeps/examples && dptune train --method dpsgd --epsilon 1 --dataset own_code:digits_vectors \\
        --model own_code:mlp --model-arg "hidden=[64]" --epochs 20 --batch-size 256 --lr 2

A dataset factory returns ``{"train": (x, y), "held_out": (x, y), "num_classes": K}`` (tensors, arrays or
torch datasets of ``(x, y)`` items; inputs already normalised); dptune splits the held-out part into
validation and final test. A model factory returns a ``torch.nn.Module`` mapping a batch of inputs to
``[batch, K]`` scores, without layers that mix the samples of a batch (BatchNorm: wrap the module in
``opacus.validators.ModuleValidator.fix``). Both are called with their ``args`` as keyword arguments.
"""

from __future__ import annotations

from typing import Any


def digits_vectors(held_out_share: float = 0.2) -> dict[str, Any]:
    """scikit-learn's 8×8 digits as 64 features in [0, 1]: grey level / 16, a fixed public scale (a
    statistic of the training data would be a release the privacy bound does not count); a fixed split
    keeps ``held_out_share`` of the 1,797 images out of training."""
    import numpy as np
    from sklearn.datasets import load_digits

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    order = np.random.default_rng(0).permutation(len(x))
    train, held = np.split(order, [round((1 - held_out_share) * len(x))])
    return {
        "train": (x[train], digits.target[train]),
        "held_out": (x[held], digits.target[held]),
        "num_classes": 10,
    }


def mlp(inputs: int = 64, hidden: tuple[int, ...] = (64,), classes: int = 10) -> Any:
    """A tanh MLP: ``inputs`` -> each width of ``hidden`` -> ``classes`` scores."""
    from torch import nn

    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(inputs, width), nn.Tanh()]
        inputs = width
    return nn.Sequential(*layers, nn.Linear(inputs, classes))


def breast_cancer(held_out_share: float = 0.3) -> dict[str, Any]:
    """scikit-learn's breast-cancer table (Wisconsin diagnostic, 569 rows of 30 measurements, labels
    ``malignant`` / ``benign``) as a hospital's own small table: each measurement mapped by log(1 + x)/8,
    a fixed public transform that brings the raw ranges (0.001 to 4,254) within [0, 1.1] without reading
    any statistic of the private rows; a fixed split keeps ``held_out_share`` of the rows out of training."""
    import numpy as np
    from sklearn.datasets import load_breast_cancer

    table = load_breast_cancer()
    x = (np.log1p(table.data) / 8.0).astype(np.float32)
    y = table.target_names[table.target]  # the names, as a user's table has them
    order = np.random.default_rng(0).permutation(len(x))
    train, held = np.split(order, [round((1 - held_out_share) * len(x))])
    return {"train": (x[train], y[train]), "held_out": (x[held], y[held]), "num_classes": 2}
