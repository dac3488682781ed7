"""What ``dptune run`` checks before it starts anything, checked without Ray, torch or MLflow, so that
``dptune validate`` refuses what ``run`` would refuse, with the same one line naming the field:

* no sweep of the spec's name (each ε's) already exists in ``storage_path``, unless resumed; a resumed
  one exists there (``refuse_nothing_to_resume``) and was not started by a dptune that ran one Tune run
  per method (``refuse_per_method_runs``), in a local folder or behind a URI alike; its settings, plan
  and data are those it started with (``dptune.sweep.resume``, checked by ``dptune.cli``);
* the training set holds every batch size a trial can draw (``spec.check_batch_sizes``), its size that
  of the data loaded for the models' check below (a missing local copy is a one-line error); and δ is
  below 1/n (``calibrated_run.check_delta``);
* every model, built-in or from a factory (``package.module:function``), built once for the data and run
  on two of its inputs (``models.build_model``'s checks: a module, layers the per-sample engines
  support, scores of the right shape), the only check here that imports torch (and the user's code);
* a warm start's earlier sweep exists there and finished (its privacy cost is recorded);
* the trials' resources fit this machine, where the sweep starts its own Ray instance (no
  ``RAY_ADDRESS``): a cluster the driver joins is seen only once Ray starts;
* what the sweep will write to can be written, and what it will talk to answers within
  ``CONNECT_SECONDS``: a local ``storage_path`` and a SQLite store's folder are writable folders (checked
  with a temporary file, nothing left behind), an MLflow server answers its health check, and the Ray
  cluster ``RAY_ADDRESS`` names accepts a connection. Without these a sweep would end in a traceback
  after its start, or wait minutes on retries.
"""

from __future__ import annotations

import os
import socket
import tempfile
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pyarrow
import pyarrow.fs

from dptune.base.errors import InputError
from dptune.base.factories import is_import_path
from dptune.engine.data import load_dataset, train_size
from dptune.models import build_model
from dptune.sweep.spec import check_batch_sizes
from dptune.sweep.sweep_spec import SweepSpec
from dptune.training.calibrated_run import check_delta
from dptune.training.config import RunConfig

NVIDIA_GPUS = Path("/proc/driver/nvidia/gpus")
"""One entry per GPU the NVIDIA driver sees (what Ray counts through NVML)."""
ROCM_DEVICE = Path("/dev/kfd")
"""Present where an AMD ROCm driver is: Ray may count its GPUs, which this module does not."""


def local_sweep_dir(spec: SweepSpec) -> Path | None:
    """The sweep's folder under a local ``storage_path``; None for storage behind a URI (``s3://…``)."""
    return Path(spec.storage_path) / spec.name if "://" not in spec.storage_path else None


def sweep_exists(spec: SweepSpec) -> bool:
    """Whether ``storage_path`` holds a sweep of the spec's name: a local folder, or one behind a URI that
    pyarrow reaches (``file://``, ``s3://``, ``gs://``); storage it cannot reach is refused in one line."""
    local = local_sweep_dir(spec)
    if local is not None:
        return local.exists()
    try:
        fs, folder = pyarrow.fs.FileSystem.from_uri(f"{spec.storage_path}/{spec.name}")
        return bool(fs.get_file_info(folder).type != pyarrow.fs.FileType.NotFound)
    except (OSError, pyarrow.ArrowException) as error:
        raise InputError(
            "storage_path", f"cannot read {spec.storage_path} ({error}); give storage this machine reaches"
        ) from None


def refuse_existing(spec: SweepSpec) -> None:
    """A sweep of that name already in ``storage_path`` is continued with --resume, never overwritten."""
    if sweep_exists(spec):
        raise InputError(
            "name",
            f"a sweep {spec.name!r} already exists in {spec.storage_path}; continue it with "
            "--resume, or choose another name or storage_path",
        )


def refuse_nothing_to_resume(spec: SweepSpec, sweeps: list[SweepSpec]) -> None:
    """``--resume`` of a sweep none of whose sweeps exists in ``storage_path`` (a local folder or a URI) is
    refused: it would start a fresh sweep, and a fresh private state, without a word."""
    if not any(sweep_exists(sweep) for sweep in sweeps):
        raise InputError(
            "--resume",
            f"no sweep {spec.name!r} in {spec.storage_path} to resume; start it without --resume",
        )


def refuse_per_method_runs(spec: SweepSpec) -> None:
    """A sweep that an earlier dptune started with one Tune run per method (folders named by its methods)
    is not resumed by one that runs one Tune run per sweep: it would start every search anew."""
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


def earlier_cost(storage_path: str, sweep: str) -> dict[str, Any]:
    """The privacy cost an earlier sweep recorded in its private state (what a warm start from it adds
    to every figure); refused when it has none."""
    from dptune.sweep.ledger import PrivateSweepState

    cost: dict[str, Any] | None = PrivateSweepState(storage_path, sweep).read().get("tuning_cost")
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
    its GPUs too unless ``resources.gpu_fallback`` is ``cpu`` (``dptune.tune.resources``)."""
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


SPEC_FIELDS = {"data_root": "dataset.root", "subset": "dataset.subset"}
"""A data error's field as the spec spells it."""
CONNECT_SECONDS = 5.0
"""How long a server the sweep needs (MLflow's, Ray's) has to answer before ``run`` refuses to start."""
RAY_DEFAULT_PORTS = {"": 6379, "ray": 10001, "http": 8265, "https": 443}


def unanswered(host: str, port: int) -> str | None:
    """None when a TCP connection to host:port opens within ``CONNECT_SECONDS``, else why it did not."""
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            return None
    except OSError as exc:
        return exc.strerror or str(exc) or type(exc).__name__


def check_writable_folder(path: Path, field: str) -> None:
    """``path`` is, or can be made as, a folder this process writes in: its nearest existing ancestor is
    a folder where a temporary file can be made (and is removed at once)."""
    ancestor = path
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise InputError(field, f"{path} lies under {ancestor}, a file, not a folder; choose a folder path")
    try:
        with tempfile.TemporaryFile(dir=ancestor):
            pass
    except OSError as exc:
        raise InputError(
            field, f"cannot write in {ancestor} ({exc.strerror or exc}); choose a folder you can write in"
        ) from None


def check_tracking_store(uri: str, field: str = "tracking.uri") -> None:
    """A SQLite store's folder exists and is writable (a missing one is not made without a word); an
    MLflow server answers ``/health`` within ``CONNECT_SECONDS`` (else a sweep would wait minutes on
    MLflow's retries before a traceback)."""
    if uri.startswith("sqlite:///"):
        file = Path(uri.removeprefix("sqlite:///"))
        if not file.parent.is_dir():
            raise InputError(field, f"the folder {file.parent} of the SQLite store does not exist; create it")
        if file.exists() and not file.is_file():
            raise InputError(field, f"{file} is not a file; name a SQLite file such as mlflow.db")
        check_writable_folder(file.parent, field)
    elif uri.startswith(("http://", "https://")):
        parts = urlsplit(uri)
        host = parts.hostname or ""
        address = parts._replace(netloc=f"{host}:{parts.port}" if parts.port else host).geturl()
        try:  # without the URI's login, if any: urllib takes none there, and /health needs none
            with urllib.request.urlopen(f"{address.rstrip('/')}/health", timeout=CONNECT_SECONDS):
                pass
        except urllib.error.HTTPError:
            pass  # it answered (a proxy in front may refuse /health without a login): it is there
        except OSError as exc:
            reason = getattr(exc, "reason", None) or exc
            raise InputError(
                field,
                f"the MLflow server at {address} does not answer within {CONNECT_SECONDS:g}s ({reason}); "
                "start it, fix the URI, or use a local store such as sqlite:///mlflow.db",
            ) from None


def ray_address(address: str) -> tuple[str, int] | None:
    """(host, port) of a ``RAY_ADDRESS`` (``host:port``, ``ray://host:port``, ``http://host:port``;
    ``auto``: the cluster Ray's own file on this machine names), or None for ``auto`` without one."""
    if address == "auto":
        current = Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster"
        if not current.is_file():
            return None
        address = current.read_text().strip()
    parts = urlsplit(address if "://" in address else f"//{address}")
    return parts.hostname or "127.0.0.1", parts.port or RAY_DEFAULT_PORTS.get(parts.scheme, 6379)


def check_ray_cluster(environ: Mapping[str, str] = os.environ) -> None:
    """The cluster ``RAY_ADDRESS`` names accepts a connection within ``CONNECT_SECONDS`` (``ray.init``
    would otherwise wait on it for minutes, or for ever). Without ``RAY_ADDRESS`` the sweep starts a Ray
    of its own, whatever an earlier, perhaps dead, local cluster left behind."""
    address = environ.get("RAY_ADDRESS")
    if not address:
        return
    found = ray_address(address)
    if found is None:
        raise InputError(
            "RAY_ADDRESS",
            "is auto, but no Ray cluster was started on this machine; start one (ray start --head) or unset "
            "RAY_ADDRESS to let the sweep start its own",
        )
    reason = unanswered(*found)
    if reason is not None:
        raise InputError(
            "RAY_ADDRESS",
            f"the Ray cluster at {address} does not answer within {CONNECT_SECONDS:g}s ({reason}); start it, "
            "fix RAY_ADDRESS, or unset it to let the sweep start its own",
        )


def check_models(run: RunConfig, models: tuple[str, ...] = (), parts: tuple[str, ...] = ()) -> int:
    """Each of ``models`` (default: ``run``'s), built-in or the user's, built for ``run``'s data with each
    of ``parts`` trained (default: ``run.trains``; a LoRA target the model lacks is found only when LoRA
    is built) and run on two of its training inputs (their features, for a ScatterNet model):
    ``models.build_model`` refuses what does not fit, naming the field. The number of training samples."""
    from dptune.engine.features import sample_inputs  # torch: the data and the models are built here
    from dptune.models.trained_parts import Trained

    try:
        if not is_import_path(run.dataset):
            # a local copy, found without loading it
            train_size(run.dataset, run.data_root, run.subset, run.dataset_args)
        data = load_dataset(run.dataset, run.data_root, run.subset, run.dataset_args)
    except InputError as exc:
        raise InputError(SPEC_FIELDS.get(exc.field, exc.field), exc.problem) from None
    for model in models or (run.model,):
        inputs = sample_inputs(model, data.train_x[:2])
        for part in parts or (run.trains,):
            build_model(
                model, run.model_args, inputs, data.num_classes, Trained(part, run.lora_rank, run.lora_alpha)
            )
    return len(data.train_y)


def preflight(spec: SweepSpec, resume: bool) -> int:
    """Every check above (module docstring), in the order ``dptune run`` makes them; the number of
    training samples a trial gets."""
    sweeps = [sweep for index in range(len(spec.epsilons)) for sweep in spec.sweeps_at(index)]
    for sweep in sweeps:
        (refuse_per_method_runs if resume else refuse_existing)(sweep)
    if resume:
        refuse_nothing_to_resume(spec, sweeps)
    shared = spec.shared
    n = check_models(shared, spec.models, spec.trained_parts)
    check_batch_sizes(spec, n)
    if shared.delta is not None:
        check_delta(shared.delta, n, "privacy.delta")
    check_warm_start(spec)
    check_local_resources(spec)
    if local_sweep_dir(spec) is not None:
        check_writable_folder(Path(spec.storage_path), "storage_path")
    check_tracking_store(spec.tracking_uri)
    check_ray_cluster()
    return n
