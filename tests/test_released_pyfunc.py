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
