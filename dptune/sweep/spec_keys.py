"""A sweep spec's plain settings as one table (``SPEC_KEYS``: path, default, reader, valid values and
meaning), and the readers every part of a spec is read with: each names the YAML path of what it
refuses. ``dptune.sweep.spec`` reads a spec with them; the documentation's spec reference is generated
from the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dptune.base.errors import InputError
from dptune.training.trial_status import CLEAR_MARGIN

SCHEDULERS = ("none", "asha")
SAMPLERS = ("tpe", "random", "gp", "nsga2")
MODEL_BASED_SAMPLERS = ("tpe", "gp")
"""The samplers that choose from earlier scores after a random start-up phase."""
DEFAULT_RERUNS = 3
"""Re-runs of each method's selected configuration, with fresh randomness, scored on the final test."""
TUNING_SHARE = 0.25
"""ρ: the share of a total ε the tuning spends unless the spec says otherwise (``privacy.tuning_share``)."""
TUNING_COMPUTE = 2.0
"""Full runs' worth of compute the tuning of one method and total may use unless the spec says
(``budget.tuning_compute``)."""
PROMOTION_FACTOR = 3
"""How many times a first-rung tuning trial's epochs a promoted trial runs (``budget.promoted_trials``;
fewer where the release's epochs do not hold that many): bench/short_trials.py measured trials 3× longer
ranking releases far better than the first rung's."""
DEFAULT_WAIT_SECONDS = 600.0
"""How long a sweep on a cluster that can grow waits for a node that fits a trial (``resources.wait``)."""


def mapping(value: Any, path: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InputError(path, f"must be a mapping, got {value!r}")
    return dict(value)


def only(section: dict[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in section:
        if key not in allowed:
            where = f"{path}.{key}" if path else str(key)
            raise InputError(where, f"unknown key; valid keys here: {', '.join(allowed)}")


def numeric(value: Any) -> Any:
    """A number written as a string (``"2.0"``; YAML reads ``1e-5`` without a dot as one) as the number it
    spells, like every knob of a run converts it; anything else as it is. The spec's numbers are read
    the same way in ``validate`` and ``run``, and as ``dptune train`` reads its flags."""
    if not isinstance(value, str):
        return value
    try:
        return int(value.strip())
    except ValueError:
        try:
            return float(value.strip())
        except ValueError:
            return value


def number(
    value: Any, path: str, check: Callable[[float], bool] = lambda v: True, valid: str = "a number"
) -> float:
    value = numeric(value)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(path, f"must be {valid}, got {value!r}")
    if not check(value):
        raise InputError(path, f"must be {valid}, got {value!r}")
    return float(value)


def integer(value: Any, path: str, minimum: int) -> int:
    value = numeric(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(path, f"must be an integer >= {minimum}, got {value!r}")
    return value


def one_of(value: Any, options: tuple[str, ...], path: str) -> str:
    if value not in options:
        raise InputError(path, f"must be one of {', '.join(options)}, got {value!r}")
    return str(value)


Reader = Callable[[Any, str, str], Any]
"""How a setting is read: (value, YAML path, its valid values as the error states them) -> the value."""


@dataclass(frozen=True)
class SpecKey:
    """One setting of a sweep spec outside its runs' knobs: its YAML path, its default (``None``: none,
    or, where ``unset`` says so, a value derived from other settings), how it is read (a ``Reader``,
    raising an ``InputError`` that names the path and states ``valid``), its valid values (for the
    error and the docs alike) and what it means."""

    path: str
    default: Any
    read: Reader
    valid: str
    help: str
    unset: str = ""  # what an absent value means, when not ``default`` itself

    @property
    def section(self) -> str:
        return self.path.partition(".")[0] if "." in self.path else ""

    @property
    def key(self) -> str:
        return self.path.rpartition(".")[2]


def _number_where(check: Callable[[float], bool]) -> Reader:
    return lambda value, path, valid: number(value, path, check, valid)


def _at_least(minimum: int) -> Reader:
    return lambda value, path, valid: integer(value, path, minimum)


def _choice(options: tuple[str, ...]) -> Reader:
    return lambda value, path, valid: one_of(value, options, path)


def _optional(read: Reader) -> Reader:
    return lambda value, path, valid: None if value is None else read(value, path, valid)


def _text(value: Any, path: str, valid: str) -> str:
    if not isinstance(value, str) or not value:
        raise InputError(path, f"must be {valid}, got {value!r}")
    return value


SPEC_KEYS: tuple[SpecKey, ...] = (
    SpecKey(
        "budget.max_concurrent",
        None,
        _optional(_at_least(1)),
        "an integer >= 1",
        "trials at once (all methods together)",
        "what the cluster holds now, or every trial on a cluster that can grow",
    ),
    SpecKey(
        "budget.tuning_compute",
        None,
        _optional(_number_where(lambda v: v > 0)),
        "a number > 0",
        "with privacy.includes_tuning: the compute, in full runs, each method's tuning may use per total ε",
        f"{TUNING_COMPUTE:g} full runs",
    ),
    SpecKey(
        "budget.promoted_trials",
        None,
        _optional(_at_least(1)),
        "an integer >= 1, fewer than budget.trials_per_method",
        "with privacy.includes_tuning: successive halving, the best m of each method's tuning trials by "
        f"validation trained again {PROMOTION_FACTOR}× as long at the same noise, the release chosen "
        "among them",
        "none: one rung",
    ),
    SpecKey("resources.cpu", 1, _number_where(lambda v: v > 0), "a number > 0", "CPUs per trial"),
    SpecKey(
        "resources.gpu",
        0,
        _number_where(lambda v: v >= 0),
        "a number >= 0",
        "GPUs per trial (0.25: four share one)",
    ),
    SpecKey(
        "resources.gpu_fallback",
        "fail",
        _choice(("fail", "cpu")),
        "fail or cpu",
        "a trial given a GPU on a node without CUDA: fails, or trains on the CPU",
    ),
    SpecKey(
        "resources.wait",
        DEFAULT_WAIT_SECONDS,
        _number_where(lambda v: v >= 0),
        "seconds >= 0",
        "how long a sweep on a cluster that can grow waits for a node that fits a trial",
    ),
    SpecKey(
        "scheduler.name", "none", _choice(SCHEDULERS), " or ".join(SCHEDULERS), "early stopping per method"
    ),
    SpecKey(
        "scheduler.grace_period",
        1,
        _at_least(1),
        "an integer >= 1",
        "ASHA's first rung, in epochs of the longest plan (rungs are shares of each trial's plan)",
    ),
    SpecKey(
        "search.sampler", "tpe", _choice(SAMPLERS), ", ".join(SAMPLERS), "Optuna's sampler, one per method"
    ),
    SpecKey(
        "selection.reruns",
        DEFAULT_RERUNS,
        _at_least(0),
        "an integer >= 0",
        "re-runs of each method's selected configuration, with fresh randomness, on the final test",
    ),
    SpecKey(
        "selection.keep_method",
        None,
        _optional(_text),
        "one of the spec's methods",
        "with privacy.includes_tuning and one model across methods: the method whose selection is released "
        f"unless another method's beats it on validation by more than {CLEAR_MARGIN}; where that method "
        "keeps its start point too, m is instead one family, the trials that are not that start point's: "
        "within the method, its own read and the other methods' planned; across, while the start is kept, "
        "its own and the other methods' read",
        "none: the best on validation",
    ),
    SpecKey(
        "tracking.uri",
        "sqlite:///mlflow.db",
        _text,
        "a URI such as sqlite:///mlflow.db",
        "the MLflow store (relative paths: beside the spec)",
    ),
    SpecKey(
        "tracking.experiment",
        None,
        _optional(_text),
        "a non-empty name",
        "the MLflow experiment",
        "the spec's name",
    ),
    SpecKey(
        "storage_path",
        "ray_results",
        _text,
        "a path or URI",
        "where Ray Tune keeps trials, checkpoints and the sweep's private state (relative: beside the spec)",
    ),
)
"""Every plain setting of a spec outside its runs' knobs, in one table: ``parse_spec`` reads them, the
documentation's spec reference lists them."""
COMPOSITE_KEYS = {
    "": ("name", "dataset", "model", "privacy", "training", "methods"),
    "budget": ("trials_per_method",),
    "search": ("seed", "startup_trials", "warm_start", "proxy"),
}
"""The spec's keys read by a parser of their own (a run section, a trial count, a warm start, …)."""


def section_keys(section: str) -> tuple[str, ...]:
    """The keys a spec's ``section`` (``""``: the top level) may hold."""
    if section == "":
        sections = dict.fromkeys(k.section or k.key for k in SPEC_KEYS)
        return (*COMPOSITE_KEYS[""], *(name for name in sections if name not in COMPOSITE_KEYS[""]))
    return (*COMPOSITE_KEYS.get(section, ()), *(k.key for k in SPEC_KEYS if k.section == section))


def read_spec_keys(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Every ``SPEC_KEYS`` setting of the spec ``doc``, read (its default where absent), by path; the keys
    of each section checked against ``section_keys``."""
    values = {}
    for section in dict.fromkeys(k.section for k in SPEC_KEYS if k.section):
        only(mapping(doc.get(section), section), section_keys(section), section)
    for key in SPEC_KEYS:
        given = mapping(doc.get(key.section), key.section).get(key.key) if key.section else doc.get(key.key)
        values[key.path] = key.read(key.default if given is None else given, key.path, key.valid)
    return values
