"""A released model in MLflow: its weights as an MLflow model of the run that trained it, registered in
the Model Registry, with a privacy card (what its (ε, δ) covers) beside it.

The model is logged in MLflow's ``pt2`` format (an exported graph: it loads with
``mlflow.pytorch.load_model`` wherever torch is, without dptune), traced on an input of zeros of the
images' shape: nothing of the data goes with it, and nothing of the run but its parameters (never a
generator state: the caller hands over ``Trainer.released_module``'s module alone). As a pyfunc
(``mlflow.pyfunc.load_model``) it takes what a user has, any numeric array, a pandas frame or a list of
rows, and returns each row's class, by name where the data's labels were names
(``dptune.tracking.dptune_released_model``, shipped with the model).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import mlflow
import numpy as np
from mlflow.exceptions import MlflowException
from mlflow.models import Model, ModelSignature
from mlflow.models.model import MLMODEL_FILE_NAME
from mlflow.tracking import MlflowClient
from mlflow.types import ColSpec, Schema

from dptune.base.randomness import SEEDED, SEEDED_NO_GUARANTEE
from dptune.engine.data import PixelScale
from dptune.sweep.releases import card_alias
from dptune.tracking import dptune_released_model as released_model_loader
from dptune.training.trial_status import shown_score

CARD_ARTIFACT = "privacy_card.json"
MODEL_NAME = "model"
CARD_TAGS = (
    "epsilon",
    "delta",
    "includes_tuning",
    "noise_source",
    "method",
    "dataset",
    "model",
    "accountant",
)
"""The card's entries set as tags of the registered version (the registry's list shows them; a seeded
run's card has no ε or δ, so its version has no such tags)."""


def card_text(card: Mapping[str, Any]) -> str:
    """The registered version's description: one line of what the guarantee is, covers and assumes; of a
    seeded run, that it has none. The accuracy carries its noise's std in points on private held-out data
    (the card's ``final_test_accuracy_std``)."""
    std = card.get("final_test_accuracy_std")  # both in points, as a card states them
    accuracy = shown_score(card["final_test_accuracy"] / 100, None if std is None else std / 100)
    if card["noise_source"] == SEEDED:
        return (
            f"{SEEDED_NO_GUARANTEE.capitalize()} (research mode: whoever has the seed regenerates the "
            f"noise). {card['method']} on {card['dataset']} / {card['model']}; final-test accuracy "
            f"{accuracy}. Card: {CARD_ARTIFACT} of run {card['run_id']}."
        )
    held_out = card["held_out"]
    held_out_text = (
        f"({held_out['epsilon']:.4g}, {held_out['delta']:g})-DP: {held_out['covers']}"
        if isinstance(held_out, Mapping)
        else held_out
    )
    others = card.get("published_with_the_others")
    published = (
        f" Published with the sweep's other models: ({others['epsilon']:.4g}, {others['delta']:g})-DP; "
        f"{others['note']}."
        if isinstance(others, Mapping)
        else ""
    )
    return (
        f"({card['epsilon']:.4g}, {card['delta']:g})-DP (tuning included) for the training records: "
        f"{card['covers']} {card['method']} on {card['dataset']} / {card['model']}; final-test accuracy "
        f"{accuracy}.{published} Held-out records: {held_out_text}. Assumed: "
        f"{card['assumes']}. Privacy card: {CARD_ARTIFACT} of run {card['run_id']}."
    )


class ReleasedFlavor:
    """What ``mlflow.models.Model.log`` saves a released module with: MLflow's ``pytorch`` flavor (the
    exported graph; ``mlflow.pytorch.load_model`` gives the module, class scores out) and, as its pyfunc,
    ``dptune_released_model`` (shipped in the model's ``code``: any numeric input in, classes out), with
    the ``classes`` (names, or None for indices), the ``shape`` of one input row and, for a built-in image
    dataset, its ``pixels`` (how uint8 images become inputs) in ``classes.json``."""

    __name__ = "pytorch"

    def __init__(
        self, classes: Sequence[str] | None, shape: tuple[int, ...], pixels: PixelScale | None = None
    ) -> None:
        self.classes = None if classes is None else list(classes)
        self.shape = shape
        self.pixels = pixels

    def save_model(self, path: str, mlflow_model: Model, **kwargs: Any) -> None:
        mlflow.pytorch.save_model(
            path=path, mlflow_model=mlflow_model, code_paths=[released_model_loader.__file__], **kwargs
        )
        described: dict[str, Any] = {"classes": self.classes, "shape": list(self.shape)}
        if self.pixels is not None:
            described["pixels"] = {"mean": list(self.pixels.mean), "std": list(self.pixels.std)}
        Path(path, released_model_loader.CLASSES_FILE).write_text(json.dumps(described))
        pyfunc = mlflow_model.flavors["python_function"]
        pyfunc["loader_module"] = released_model_loader.__name__.rsplit(".", 1)[-1]
        pyfunc.pop("data", None)  # the loader reads the whole model folder
        mlflow_model.signature = released_signature(self.classes)
        mlflow_model.save(str(Path(path, MLMODEL_FILE_NAME)))


class ReleasedTextFlavor:
    """What a released fine-tuned text model is saved with: its ``transformers`` weights and tokenizer
    (``save_pretrained``, in ``TEXT_FOLDER``) and, as its pyfunc, ``dptune_released_model`` (raw text in,
    classes out), with ``classes.json`` (``kind: text`` and the ``max_length`` training tokenized to)."""

    __name__ = "transformers_text"

    def __init__(self, classes: Sequence[str] | None, max_length: int) -> None:
        self.classes = None if classes is None else list(classes)
        self.max_length = max_length

    def save_model(self, path: str, mlflow_model: Model, pytorch_model: Any, **kwargs: Any) -> None:
        import shutil

        from mlflow.pyfunc import add_to_model
        from transformers.utils import logging as hf_logging

        folder = Path(path)
        hf_logging.disable_progress_bar()  # the sweep's terminal shows its own lines
        pytorch_model.backbone.save_pretrained(folder / released_model_loader.TEXT_FOLDER)
        pytorch_model.tokenizer.save_pretrained(folder / released_model_loader.TEXT_FOLDER)
        (folder / "code").mkdir(parents=True, exist_ok=True)
        shutil.copy(released_model_loader.__file__, folder / "code")
        described = {"classes": self.classes, "kind": "text", "max_length": self.max_length}
        (folder / released_model_loader.CLASSES_FILE).write_text(json.dumps(described))
        (folder / "requirements.txt").write_text("\n".join(kwargs.get("pip_requirements") or []) + "\n")
        add_to_model(
            mlflow_model, loader_module=released_model_loader.__name__.rsplit(".", 1)[-1], code="code"
        )
        mlflow_model.signature = released_signature(self.classes)
        mlflow_model.save(str(folder / MLMODEL_FILE_NAME))


def released_signature(classes: Sequence[str] | None) -> ModelSignature:
    """The pyfunc's signature as the model keeps it: its output, one class a row (a name, or an index). Its
    inputs' tensor spec (float32 rows, which the ``pt2`` export is traced with) is left out of it: MLflow
    enforces a spec to the exact dtype (a float64 array refused), while the loader takes any numeric rows
    of the input's shape (``classes.json``) and converts them."""
    return ModelSignature(inputs=None, outputs=Schema([ColSpec("string" if classes else "long")]))


def log_released_model(
    uri: str,
    run_id: str,
    model: Any,
    image_shape: tuple[int, ...],
    card: Mapping[str, Any],
    registered_name: str,
    classes: Sequence[str] | None = None,
    pixels: PixelScale | None = None,
) -> str:
    """Log ``model`` (a ``torch.nn.Module``; ``pixels``: how uint8 images become its inputs, for its
    pyfunc) as the MLflow model of run ``run_id`` in the store at ``uri``, register it as a new version
    of ``registered_name`` with ``card`` (as the run's ``CARD_ARTIFACT``, the version's tags and
    description) and, for a pipeline's model, the alias of its total (``card_alias``); returns
    ``models:/NAME/VERSION``."""
    import torch

    mlflow.set_tracking_uri(uri)
    full = {**card, "run_id": run_id}
    requirements = [f"torch=={torch.__version__.split('+')[0]}"]  # what the exported graph needs
    text = getattr(model, "tokenizer", None) is not None
    if text:
        import tokenizers
        import transformers

        requirements += [f"transformers=={transformers.__version__}", f"tokenizers=={tokenizers.__version__}"]
    flavor = (
        ReleasedTextFlavor(classes, model.max_length)
        if text
        else ReleasedFlavor(classes, image_shape, pixels)
    )
    # two rows of zeros, the batch size free (a text model takes raw text: no example)
    example = None if text else np.zeros((2, *image_shape), dtype=np.float32)
    with mlflow.start_run(run_id=run_id):
        info = Model.log(
            artifact_path=None,
            name=MODEL_NAME,
            flavor=flavor,
            pytorch_model=model,
            input_example=example,
            pip_requirements=requirements,
        )
        mlflow.log_dict(full, CARD_ARTIFACT)
    client = MlflowClient(tracking_uri=uri)
    try:  # through the client: MLflow's fluent registration prints to stderr
        client.create_registered_model(
            registered_name,
            description=f"{card['method']} on {card['dataset']} / {card['model']}, released by dptune: each "
            "version one released model, its (ε, δ) (tuning included) in its tags and description",
        )
    except MlflowException as error:
        if error.error_code != "RESOURCE_ALREADY_EXISTS":
            raise
    version = client.create_model_version(
        registered_name, source=info.model_uri, run_id=run_id, model_id=info.model_id
    ).version
    for key in CARD_TAGS:
        if key in full:
            client.set_model_version_tag(registered_name, version, f"dptune.{key}", str(full[key]))
    client.update_model_version(registered_name, version, description=card_text(full))
    alias = card_alias(card)  # a pipeline's model: the total it was planned at (seeded: ``seeded-total-E``)
    if alias is not None:
        client.set_registered_model_alias(registered_name, alias, version)
    return f"models:/{registered_name}/{version}"
