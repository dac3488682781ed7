"""A resumed sweep is the sweep that started: what a sweep keeps of itself in its private state when it
starts (``resumable_identity``: its spec with its flags applied, its plan, and the data it runs on), and
the refusal of a resume that differs (``refuse_changed``), checked by ``dptune.cli`` before anything
starts and again by the sweep's driver.

The data's part (``data_identity``) is the training set's size and each held-out part's (public, as the
training set's size is) and a digest of every label (private: it stays in the private state, beside the
Tune experiments): a dataset factory edited between start and resume, or ``DPTUNE_DATA`` pointed at
another copy, changes what δ's default, the plan and the held-out noise were computed from, and the
earlier trials' figures would count other records.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from dptune.base.errors import InputError
from dptune.sweep.spec import methods_section
from dptune.sweep.spec_keys import SPEC_KEYS, read_spec_keys
from dptune.sweep.sweep_spec import SweepSpec

if TYPE_CHECKING:
    from dptune.engine.dataset import Dataset

DATA_KEY = "data"
"""The identity's entry for the data a sweep runs on (``data_identity``)."""


def data_identity(data: Dataset) -> dict[str, Any]:
    """The data a sweep runs on: the training set's and each held-out part's size, and a SHA-256 of every
    label of the three parts (16 hex digits; private, like the private state that keeps it)."""
    digest = hashlib.sha256()
    for labels in (data.train_y, data.val_y, data.test_y):
        digest.update(str(tuple(labels.shape)).encode())
        digest.update(labels.detach().cpu().to(dtype=labels.dtype).contiguous().numpy().tobytes())
    return {
        "training_records": len(data.train_y),
        "validation_records": len(data.val_y),
        "final_test_records": len(data.test_y),
        "labels_sha256": digest.hexdigest()[:16],
    }


MAY_CHANGE_ON_RESUME = (
    "storage_path",
    "tracking.uri",
    "resources",
    "budget.max_concurrent",
    "privacy.noisy_scores",
)
"""The settings a resumed sweep may be given anew: where its files and records are reached from, what a
trial asks of a node, and whether a noisy held-out split is refused. Every other setting, flags included,
fixed the sweep's mechanisms and plan when it started: changed on a resume, its figures would count a
sweep other than the one that ran."""
READ_APART = (
    "privacy.delta",
    "privacy.includes_tuning",
    "privacy.tuning_share",
    "privacy.release",
    "privacy.validation",
    "budget.trials_per_method",
    "dataset.root",
    "methods",
    *(key.path for key in SPEC_KEYS),
)
"""The spec's paths an identity holds as the spec reads them (a default given or left out, ``1e-5`` that
YAML reads as text, a relative folder resolved, methods named in a list with their default spaces), not as
written. The others, the whole list of ε targets among them (each total's sweep, its held-out noise and a
warm start from the previous ε depend on it), as written."""


def _pop(doc: dict[str, Any], dotted: str) -> None:
    """Remove a dotted path from a document, and each section it leaves empty."""
    *parents, last = dotted.split(".")
    nodes = [doc]
    for key in parents:
        node = nodes[-1].get(key)
        if not isinstance(node, dict):
            return
        nodes.append(node)
    nodes[-1].pop(last, None)
    for parent, key, node in reversed(list(zip(nodes[:-1], parents, nodes[1:], strict=True))):
        if not node:
            parent.pop(key)


def resumable_identity(spec: SweepSpec, plan: str | None, data: Dataset) -> dict[str, Any]:
    """What a sweep is, as its private state keeps it when it starts: its spec document with its flags
    applied (``spec``), less ``MAY_CHANGE_ON_RESUME`` and the paths of ``READ_APART``, which ``read`` holds
    as the spec read them, by path; the plan of a sweep whose ε includes its tuning (its ``plan_text``
    by method, each plan's methods released among as a set; None for others); and the ``data`` it runs
    on (``data_identity``); as JSON reads them back."""
    doc = json.loads(json.dumps(_plain(spec.source), default=str))
    for dotted in READ_APART:
        _pop(doc, dotted)
    settings = read_spec_keys(spec.source)
    tuning, trials = spec.includes_tuning, spec.trials
    read = {path: value for path, value in settings.items() if not _may_change(path)} | {
        "privacy.delta": spec.shared.delta,
        "privacy.includes_tuning": tuning is not None,
        "privacy.tuning_share": None if tuning is None else tuning.share,
        "privacy.release": None if tuning is None else tuning.release,
        "privacy.validation": spec.validation,
        "budget.trials_per_method": trials.mean if trials.distribution == "fixed" else asdict(trials),
        "dataset.root": spec.shared.data_root,
        "methods": methods_section(spec.source),
    }
    plans = None if plan is None else {p["method"]: _as_set(p, "released_among") for p in json.loads(plan)}
    kept = {"spec": doc, "read": read, "plan": plans, DATA_KEY: data_identity(data)}
    identity: dict[str, Any] = json.loads(json.dumps(kept, default=str))
    return identity


def _plain(value: Any) -> Any:
    """A loaded YAML value with every mapping's keys as text (YAML may key by a number or a date)."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _may_change(path: str) -> bool:
    return any(path == key or path.startswith(f"{key}.") for key in MAY_CHANGE_ON_RESUME)


def _as_set(doc: dict[str, Any], key: str) -> dict[str, Any]:
    """``doc`` with its list ``key`` in one order (the spec's order of methods is not the plan's)."""
    return doc | {key: sorted(doc.get(key, []))}


PLAN_TOLERANCE = 1e-9
"""The relative difference of two plans' numbers taken as the same number: a plan made again on another
machine (another BLAS, another FFT) may differ in the last bits of its σ and ε, far below this."""


def differing(then: Any, now: Any, path: str = "", tolerance: float = 0.0) -> list[tuple[str, Any, Any]]:
    """The paths (``a.b[2].c``) where two JSON documents differ, with their values (None where absent);
    numbers within a relative ``tolerance`` of each other are the same."""
    if isinstance(then, dict) and isinstance(now, dict):
        return [
            found
            for key in sorted(set(then) | set(now))
            for found in differing(
                then.get(key), now.get(key), f"{path}.{key}" if path else str(key), tolerance
            )
        ]
    if isinstance(then, list) and isinstance(now, list) and len(then) == len(now):
        return [
            found
            for index, (a, b) in enumerate(zip(then, now, strict=True))
            for found in differing(a, b, f"{path}[{index}]", tolerance)
        ]
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (then, now))
    if numbers and (math.isclose(then, now, rel_tol=tolerance) or (math.isnan(then) and math.isnan(now))):
        return []
    return [] if then == now else [(path, then, now)]


def refuse_changed(name: str, kept: Mapping[str, Any] | None, now: Mapping[str, Any]) -> None:
    """A resumed sweep is the sweep that started (``kept``: its ``resumable_identity`` then; None for a
    sweep started by a dptune that kept none), with the settings ``now`` gives it, or it is refused."""
    if kept is None:
        return
    changed = differing({**kept["spec"], **kept["read"]}, {**now["spec"], **now["read"]})
    if changed:
        said = "; ".join(f"{path}: {then!r} then, {value!r} now" for path, then, value in changed[:3])
        raise InputError(
            "--resume",
            f"sweep {name!r} started with other settings ({said}): resume it with the spec and flags it "
            "started with, or start a new sweep under another name",
        )
    data = differing(kept.get(DATA_KEY, now[DATA_KEY]), now[DATA_KEY])
    if data:
        said = "; ".join(
            f"{path.replace('_', ' ')}: {then} then, {value} now"
            if "sha256" not in path
            else "the labels differ"
            for path, then, value in data
        )
        raise InputError(
            "--resume",
            f"sweep {name!r} started on other data ({said}): resume it on the data it started with (the same "
            "dataset factory and arguments, data folder or DPTUNE_DATA), or start a new sweep under another "
            "name",
        )
    if differing(kept["plan"], now["plan"], tolerance=PLAN_TOLERANCE):
        raise InputError(
            "--resume",
            f"sweep {name!r} is planned differently now than when it started (another dptune version, or "
            "other data?): finish it as it started, or start a new sweep under another name",
        )
