"""A released model read as a user would: ``mlflow.pyfunc.load_model`` takes what they have (a float64 or
integer numpy array, a pandas frame, a list of rows, a float32 tensor) and returns each row's class, by
name where the data's labels were names; ``mlflow.pytorch.load_model`` still gives the module. Checked
against the module's own argmax on float32 inputs, in a process that imports no dptune."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import mlflow
import numpy as np
import pytest
import torch
from mlflow.tracking import MlflowClient

from dptune.tracking.mlflow_models import log_released_model

CARD = {
    "method": "dpsgd",
    "dataset": "own_code:breast_cancer",
    "model": "own_code:mlp",
    "noise_source": "secure",
    "epsilon": 1.0,
    "delta": 1e-3,
    "covers": "every run",
    "assumes": "the spec",
    "final_test_accuracy": 90.0,
    "held_out": "taken as public",
}

READER = """
import json, sys
import mlflow.pyfunc, mlflow.pytorch
import numpy as np, pandas as pd, torch
mlflow.set_tracking_uri(sys.argv[1])
rows = np.asarray(json.loads(sys.argv[3]))
model = mlflow.pyfunc.load_model(sys.argv[2])
module = mlflow.pytorch.load_model(sys.argv[2])
frame = pd.DataFrame(rows, columns=[f"feature {i}" for i in range(rows.shape[1])])
answers = {
    "float64": model.predict(rows.astype(np.float64)).tolist(),
    "int": model.predict(rows.round().astype(np.int64)).tolist(),
    "frame": model.predict(frame).tolist(),
    "list": model.predict(rows.tolist()).tolist(),
    "tensor": model.predict(torch.from_numpy(rows.astype(np.float32))).tolist(),
    "module": module(torch.from_numpy(rows.astype(np.float32))).argmax(dim=1).tolist(),
    "dptune": "dptune" in sys.modules,
}
print(json.dumps(answers))
"""


@pytest.mark.slow
def test_a_released_model_reads_what_a_user_has_and_names_its_classes(tmp_path: Path) -> None:
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    client = MlflowClient(uri)
    run = client.create_run(client.create_experiment("released", str(tmp_path / "artifacts")))
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3)).eval()
    classes = ("benign", "malignant", "unsure")
    model_uri = log_released_model(uri, run.info.run_id, module, (4,), CARD, "released", classes)
    rows = np.random.default_rng(1).normal(size=(6, 4)) * 3
    read = subprocess.run(
        [sys.executable, "-c", READER, uri, model_uri, json.dumps(rows.tolist())],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert read.returncode == 0, read.stderr[-3000:]
    answers = json.loads(read.stdout.strip().splitlines()[-1])
    assert not answers["dptune"]  # the model loads without dptune
    with torch.no_grad():
        expected = module(torch.from_numpy(rows.astype(np.float32))).argmax(dim=1).tolist()
        rounded = module(torch.from_numpy(rows.round().astype(np.float32))).argmax(dim=1).tolist()
    assert answers["module"] == expected
    named = [classes[i] for i in expected]
    assert answers["float64"] == answers["frame"] == answers["list"] == answers["tensor"] == named
    assert answers["int"] == [classes[i] for i in rounded]
    mlflow.set_tracking_uri(uri)
    signature = mlflow.models.get_model_info(model_uri).signature
    assert signature is not None and signature.outputs.to_dict() == [{"type": "string", "required": True}]


@pytest.mark.slow
def test_a_released_image_model_reads_its_datasets_own_uint8_images_as_training_scaled_them(
    tmp_path: Path,
) -> None:
    """A model of a built-in image dataset takes that dataset's uint8 images, grey ``[n, h, w]``, channels
    last or first, and answers as the module does on the inputs training read: x/255 − mean over std,
    computed here by hand (digits: dptune's 0–255 copy of its 16 grey levels; a 3-channel scale like
    CIFAR's on random pixels); one image alone; images of another size resized (a constant colour stays
    itself). Float rows are still the model's own inputs; another channel count is refused."""
    from sklearn.datasets import load_digits

    from dptune.engine.data import PixelScale, pixel_scale

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    client = MlflowClient(uri)
    experiment = client.create_experiment("images", str(tmp_path / "artifacts"))
    torch.manual_seed(0)
    grey = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.Flatten(), torch.nn.Linear(144, 10)).eval()
    colour = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.Flatten(), torch.nn.Linear(16, 5)).eval()
    cifar_like = PixelScale((0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616))
    logged = {
        name: mlflow.pyfunc.load_model(
            log_released_model(
                uri, client.create_run(experiment).info.run_id, module, shape, CARD, name, None, scale
            )
        )
        for name, module, shape, scale in (
            ("digits", grey, (1, 8, 8), pixel_scale("digits")),
            ("colour", colour, (3, 4, 4), cifar_like),
        )
    }
    raw = (load_digits().images[:12] * (255.0 / 16.0)).astype(np.uint8)
    with torch.no_grad():
        scaled = (torch.from_numpy(raw).float() / 255 - 0.5) / 0.5
        expected_digits = grey(scaled[:, None]).argmax(dim=1).tolist()
    for form in (raw, raw[..., None], raw[:, None]):
        assert logged["digits"].predict(form).tolist() == expected_digits
    assert logged["digits"].predict(scaled[:, None].numpy()).tolist() == expected_digits  # float: the inputs
    pixels = np.random.default_rng(2).integers(0, 256, size=(9, 4, 4, 3), dtype=np.uint8)
    mean, std = (torch.tensor(v).view(1, 3, 1, 1) for v in (cifar_like.mean, cifar_like.std))
    with torch.no_grad():
        inputs = (torch.from_numpy(pixels).permute(0, 3, 1, 2).float() / 255 - mean) / std
        expected = colour(inputs).argmax(dim=1).tolist()
    assert logged["colour"].predict(pixels).tolist() == expected
    assert logged["colour"].predict(np.ascontiguousarray(pixels.transpose(0, 3, 1, 2))).tolist() == expected
    assert logged["colour"].predict(pixels[0]).tolist() == expected[:1]  # one image, no batch axis
    assert logged["digits"].predict(raw[0]).tolist() == logged["digits"].predict(raw[0][..., None]).tolist()
    assert logged["digits"].predict(raw[0]).tolist() == expected_digits[:1]
    plain = np.random.default_rng(3).integers(0, 256, size=(9, 1, 1, 3), dtype=np.uint8)
    small, large = np.broadcast_to(plain, (9, 4, 4, 3)), np.broadcast_to(plain, (9, 11, 7, 3))
    assert logged["colour"].predict(large).tolist() == logged["colour"].predict(small).tolist()  # resized
    with pytest.raises(Exception, match=r"uint8 images must be \[n, h, w, 3\] or \[n, 3, h, w\]"):
        logged["colour"].predict(pixels[..., :2])
