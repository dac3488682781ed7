"""What ``dptune run`` checks before it starts anything, checked without Ray, torch or MLflow, so that
``dptune validate`` refuses what ``run`` would refuse, with the same one line naming the field:

* no sweep of the spec's name (each ε's) already exists in ``storage_path``, unless resumed; a resumed
  one was not started by a dptune that ran one Tune run per method (``refuse_per_method_runs``);
* the training set holds every batch size a trial can draw (``spec.check_batch_sizes``), its size read
  from the local copy of the data (``data.train_size``), which also says when there is none;
* a model or dataset from a factory (``package.module:function``): the data loaded and the model built
  on it once (``models.build_model``'s checks: a module, layers the per-sample engines support, scores
  of the right shape), the only check here that imports torch (and the user's code);
* a warm start's earlier sweep exists there and finished (its privacy cost is recorded);
* the trials' resources fit this machine, where the sweep starts its own Ray instance (no
  ``RAY_ADDRESS``): a cluster the driver joins is seen only once Ray starts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from dptune.config import RunConfig
from dptune.data import load_dataset, train_size
from dptune.errors import InputError
from dptune.factories import is_import_path
from dptune.models import build_model
from dptune.spec import SweepSpec, check_batch_sizes

NVIDIA_GPUS = Path("/proc/driver/nvidia/gpus")
"""One entry per GPU the NVIDIA driver sees (what Ray counts through NVML)."""
ROCM_DEVICE = Path("/dev/kfd")
"""Present where an AMD ROCm driver is: Ray may count its GPUs, which this module does not."""


def local_sweep_dir(spec: SweepSpec) -> Path | None:
    """The sweep's folder under a local ``storage_path``; None for storage behind a URI (``s3://…``)."""
    return Path(spec.storage_path) / spec.name if "://" not in spec.storage_path else None


def refuse_existing(spec: SweepSpec) -> None:
    """A sweep of that name already in ``storage_path`` is continued with --resume, never overwritten."""
    local_dir = local_sweep_dir(spec)
    if local_dir is not None and local_dir.exists():
        raise InputError(
            "name",
            f"a sweep {spec.name!r} already exists in {spec.storage_path}; continue it with "
            "--resume, or choose another name or storage_path",
        )


def refuse_per_method_runs(spec: SweepSpec) -> None:
    """A sweep that an earlier dptune started with one Tune run per method (folders named by its methods)
    is not resumed by one that runs one Tune run per sweep stage: it would start every search anew."""
    local_dir = local_sweep_dir(spec)
    if local_dir is None:
        return
    older = sorted(m for m in spec.methods if (local_dir / m / "tuner.pkl").exists())
    if older:
        raise InputError(
            "--resume",
            f"sweep {spec.name!r} in {spec.storage_path} was started by an earlier dptune (one Tune run "
            f"per method: {', '.join(older)}); finish it with the dptune version that started it, or "
            "start it anew under another name",
        )


def earlier_cost(storage_path: str, sweep: str) -> dict:
    """The privacy cost an earlier sweep recorded in its private state (what a warm start from it adds
    to every figure); refused when it has none."""
    from dptune.sweep_state import PrivateSweepState

    cost = PrivateSweepState(storage_path, sweep).read().get("tuning_cost")
    if cost is None:
        raise InputError(
            "search.warm_start.sweep",
            f"sweep {sweep!r} in {storage_path} has no recorded privacy cost (it does not exist "
            "there, or has not finished: finish it with --resume first)",
        )
    return cost


def check_warm_start(spec: SweepSpec) -> None:
    """The earlier sweep the first ε's search starts from has its privacy cost recorded in
    ``storage_path`` (later ε's warm starts name sweeps this run makes)."""
    warm = spec.at_epsilon(0).warm_start
    if warm is not None and warm.sweep is not None:
        earlier_cost(spec.storage_path, warm.sweep)


def local_gpus(environ: Mapping[str, str]) -> int | None:
    """The GPUs a Ray instance started on this machine would have: ``CUDA_VISIBLE_DEVICES`` where it is
    set, else those the NVIDIA driver lists; None where that cannot be told (an AMD ROCm driver)."""
    visible = environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len([d for d in visible.split(",") if d.strip() and d.strip() != "NoDevFiles"])
    if NVIDIA_GPUS.is_dir():
        return len(list(NVIDIA_GPUS.iterdir()))
    return None if ROCM_DEVICE.exists() else 0


def check_local_resources(spec: SweepSpec, environ: Mapping[str, str] = os.environ) -> None:
    """Without ``RAY_ADDRESS`` the sweep's trials run on this machine: a trial's CPUs must fit it, and
    its GPUs too unless ``resources.gpu_fallback`` is ``cpu`` (``dptune.sweep.resources``)."""
    if environ.get("RAY_ADDRESS"):
        return
    cpus = os.cpu_count() or 1
    if spec.cpu > cpus:
        raise InputError(
            "resources.cpu",
            f"each trial asks for {spec.cpu:g} CPU but this machine has {cpus}; lower resources.cpu or "
            "join a larger Ray cluster (RAY_ADDRESS)",
        )
    gpus = local_gpus(environ)
    if spec.gpu > 0 and spec.gpu_fallback == "fail" and gpus is not None and spec.gpu > gpus:
        raise InputError(
            "resources.gpu",
            f"each trial asks for {spec.gpu:g} GPU but this machine has {gpus}; set resources.gpu: 0, "
            "set resources.gpu_fallback: cpu, or join a Ray cluster with GPUs (RAY_ADDRESS)",
        )


def check_user_code(run: RunConfig, models: tuple[str, ...] = ()) -> int:
    """Each of ``models`` (default: ``run``'s) built once on ``run``'s data, where the data or a model is
    the user's (``models.build_model`` refuses what does not fit, naming the field); the number of
    training samples."""
    from dptune.features import model_inputs  # torch: only a spec with the user's code gets here

    data = load_dataset(run.dataset, run.data_root, run.subset, run.dataset_args)
    for model in models or (run.model,):
        inputs = model_inputs(model, data)
        build_model(model, run.model_args, inputs.train_x[:2], inputs.num_classes)
    return len(data.train_y)


def preflight(spec: SweepSpec, resume: bool) -> int:
    """Every check above (module docstring), in the order ``dptune run`` makes them; the number of
    training samples a trial gets."""
    for index in range(len(spec.epsilons)):
        for stage in spec.stages(index):
            (refuse_per_method_runs if resume else refuse_existing)(stage)
    shared = spec.shared
    n = (
        check_user_code(shared, spec.models)
        if any(is_import_path(name) for name in (shared.dataset, *spec.models))
        else train_size(shared.dataset, shared.data_root, shared.subset)
    )
    check_batch_sizes(spec, n)
    check_warm_start(spec)
    check_local_resources(spec)
    return n
