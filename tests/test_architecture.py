"""The package layout the import contracts rely on: every module of dptune sits in a package the
``layers`` contract names, so a new module is covered by the contracts without editing them."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_module_is_in_a_package_the_layers_contract_names() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in config["contracts"] if c["type"] == "layers"]
    named = {name.strip() for layer in layers for name in layer.replace(":", "|").split("|")}
    outside = []
    for path in sorted((ROOT / "dptune").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        if module == "dptune.__init__":
            continue
        if not any(module == name or module.startswith(name + ".") for name in named):
            outside.append(module)
    assert outside == [], f"modules outside the contracted packages: {outside}"


def test_only_the_tune_adapter_and_tracking_may_name_ray_optuna_or_mlflow() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    forbidden = {
        tuple(c["forbidden_modules"]): set(c["source_modules"])
        for c in config["contracts"]
        if c["type"] == "forbidden"
    }
    (layers,) = [c["layers"] for c in config["contracts"] if c["type"] == "layers"]
    packages = {name.strip() for layer in layers for name in layer.split("|")}
    assert forbidden[("ray", "optuna")] == packages - {"dptune.cli", "trainables", "dptune.tune"}
    assert forbidden[("mlflow",)] == packages - {"dptune.tracking"}
