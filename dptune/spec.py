"""Sweep specs: YAML -> validated, typed objects. Every error names the YAML path of its field.

The top-level keys (see ``sweeps/quickstart.yaml`` and the README):

    name, dataset {name, subset, root}, model {name},
    privacy {epsilon, delta, accountant, sampling, total_epsilon},
    training {epochs, lr, clip, batch_size, physical_batch_size, engine, seed, noise_generator},
    budget {trials_per_method: N | {distribution, mean, shape}, max_concurrent},
    resources {cpu, gpu, gpu_fallback},
    scheduler {name: none|asha, grace_period}, search {sampler: tpe|random|gp|nsga2, seed, startup_trials},
    tracking {uri, experiment}, storage_path, methods {METHOD: {KNOB: DIST, ..., start: [...]}}

A knob is a training setting (``lr``, ``clip``, ``batch_size``, ``epochs``) or a method parameter;
its value is a fixed scalar or one distribution: ``{uniform: [lo, hi]}``, ``{loguniform: [lo, hi]}``,
``{int: [lo, hi]}``, ``{choice: [v, ...]}``. Filters have their own families (``dptune.search``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from dptune.data import check_dataset_name
from dptune.errors import InputError
from dptune.methods import METHODS, get_method
from dptune.methods.filters import PRESETS
from dptune.methods.params import Param
from dptune.models import check_model_name
from dptune.privacy.accounting import check_accountant
from dptune.privacy.tuning import TRIAL_DISTRIBUTIONS, TrialCount
from dptune.randomness import check_noise_generator, check_seed
from dptune.train import ENGINES, SAMPLINGS

DISTRIBUTIONS = ("uniform", "loguniform", "int", "choice")
FILTER_FAMILIES = ("preset", "first-order", "butterworth", "raw")
SAMPLERS = ("tpe", "random", "gp", "nsga2")
MODEL_BASED_SAMPLERS = ("tpe", "gp")
OPTUNA_STARTUP_TRIALS = 10
"""Optuna's default ``n_startup_trials`` of TPE and GP: the trials drawn at random before the model."""
SCHEDULERS = ("none", "asha")


@dataclass(frozen=True)
class Dist:
    """A searched (or fixed) value: kind in ``uniform, loguniform, int, choice, fixed``."""

    kind: str
    args: tuple[Any, ...]

    @property
    def fixed(self) -> bool:
        return self.kind == "fixed"

    def contains(self, value: Any) -> bool:
        if self.kind == "fixed":
            return value == self.args[0]
        if self.kind == "choice":
            return value in self.args
        return isinstance(value, int | float) and self.args[0] <= value <= self.args[1]


@dataclass(frozen=True)
class FilterSpace:
    """A family of valid-by-construction IIR filters and the distributions of its parameters."""

    family: str
    params: dict[str, Dist]
    raw_sizes: tuple[int, int] = (0, 0)  # raw family: (n_a, n_b) with b_0 solved


@dataclass(frozen=True)
class MethodSpace:
    method: str
    knobs: dict[str, Dist]
    filter: FilterSpace | None
    start: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class SweepSpec:
    name: str
    dataset: str
    subset: int | None
    data_root: str | None
    model: str
    epsilon: float
    delta: float | None
    accountant: str
    sampling: str
    total_epsilon: float | None  # a privacy filter's total for the whole sweep (``dptune.privacy.filter``)
    epochs: int
    training: dict[str, Any]
    trials: TrialCount
    max_concurrent: int
    cpu: float
    gpu: float
    gpu_fallback: str
    scheduler: str
    grace_period: int
    sampler: str
    seed: int
    startup_trials: int
    tracking_uri: str
    experiment: str
    storage_path: str
    methods: dict[str, MethodSpace]
    source: dict[str, Any] = field(default_factory=dict, compare=False)


TRAINING_KNOBS: dict[str, Param] = {
    "lr": Param("lr", "float", 0.5, lambda v: v > 0, "a number > 0", "learning rate"),
    "clip": Param("clip", "float", 1.0, lambda v: v > 0, "a number > 0", "clip bound C"),
    "batch_size": Param("batch_size", "int", 1000, lambda v: v >= 1, "an integer >= 1", "B"),
    "epochs": Param("epochs", "int", 10, lambda v: v >= 1, "an integer >= 1", "epochs"),
}


def _mapping(value: Any, path: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InputError(path, f"must be a mapping, got {value!r}")
    return dict(value)


def _only(section: dict[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in section:
        if key not in allowed:
            where = f"{path}.{key}" if path else str(key)
            raise InputError(where, f"unknown key; valid keys here: {', '.join(allowed)}")


def _number(value: Any, path: str, check=lambda v: True, valid: str = "a number") -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(path, f"must be {valid}, got {value!r}")
    if not check(value):
        raise InputError(path, f"must be {valid}, got {value!r}")
    return float(value)


def _integer(value: Any, path: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(path, f"must be an integer >= {minimum}, got {value!r}")
    return value


def _one_of(value: Any, options: tuple[str, ...], path: str) -> str:
    if value not in options:
        raise InputError(path, f"must be one of {', '.join(options)}, got {value!r}")
    return str(value)


def parse_dist(value: Any, param: Param, path: str) -> Dist:
    """A fixed scalar or a one-key distribution mapping, every possible draw valid for ``param``."""
    if not isinstance(value, Mapping):
        return Dist("fixed", (param.convert(value, path.rsplit(".", 1)[0]),))
    if len(value) != 1 or next(iter(value)) not in DISTRIBUTIONS:
        raise InputError(
            path, f"must be a value or one of {{{', '.join(DISTRIBUTIONS)}: ...}}, got {dict(value)!r}"
        )
    kind, args = next(iter(value.items()))
    prefix = path.rsplit(".", 1)[0]
    if kind == "choice":
        if not isinstance(args, list) or not args:
            raise InputError(f"{path}.choice", "must be a non-empty list of values")
        return Dist("choice", tuple(param.convert(v, prefix) for v in args))
    if not isinstance(args, list) or len(args) != 2:
        raise InputError(f"{path}.{kind}", f"must be [low, high], got {args!r}")
    if kind == "int" and param.kind != "int":
        raise InputError(f"{path}.int", f"{param.name} is not an integer; use uniform or loguniform")
    if kind != "int" and param.kind == "int":
        raise InputError(f"{path}.{kind}", f"{param.name} is an integer; use int or choice")
    lo, hi = (param.convert(v, prefix) for v in args)
    if not lo < hi:
        raise InputError(f"{path}.{kind}", f"needs low < high, got [{lo}, {hi}]")
    if kind == "loguniform" and lo <= 0:
        raise InputError(f"{path}.loguniform", f"needs low > 0, got {lo}")
    return Dist(kind, (lo, hi))


FIRST_ORDER = {
    "pole": Param("pole", "float", None, lambda v: 0 <= v < 1, "in [0, 1) (a low-pass pole)", "pole p"),
    "zero": Param("zero", "float", 0.0, lambda v: -1 <= v < 1, "in [-1, 1)", "zero z"),
}
BUTTERWORTH = {
    "order": Param("order", "int", None, lambda v: 1 <= v <= 6, "an integer in [1, 6]", "order"),
    "cutoff": Param("cutoff", "float", None, lambda v: 0 < v < 1, "in (0, 1)", "cutoff / Nyquist"),
}
COEFF = Param("coefficient", "float", None, lambda v: -4 <= v <= 4, "in [-4, 4]", "coefficient")


def parse_filter(value: Any, path: str) -> FilterSpace:
    """``{preset: NAME}``, ``{family: preset, preset: {choice: [...]}}``, ``{family: first-order,
    pole: D, zero: D}``, ``{family: butterworth, order: D, cutoff: D}``, ``{family: raw, a: [D...],
    b: [D...]}`` (b lists b_1.. ; b_0 is solved from unit DC gain)."""
    spec = _mapping(value, path)
    family = spec.pop("family", "preset" if "preset" in spec else None)
    family = _one_of(family, FILTER_FAMILIES, f"{path}.family")
    if family == "preset":
        _only(spec, ("preset",), path)
        if "preset" not in spec:
            raise InputError(f"{path}.preset", f"required; valid presets: {', '.join(PRESETS)}")
        check = Param("preset", "str", None, lambda v: v in PRESETS, f"one of {', '.join(PRESETS)}", "")
        return FilterSpace(family, {"preset": parse_dist(spec["preset"], check, f"{path}.preset")})
    if family in ("first-order", "butterworth"):
        params = FIRST_ORDER if family == "first-order" else BUTTERWORTH
        _only(spec, tuple(params), path)
        dists = {}
        for name, param in params.items():
            if name not in spec and param.default is None:
                raise InputError(f"{path}.{name}", f"required for the {family} family ({param.valid})")
            dists[name] = parse_dist(spec.get(name, param.default), param, f"{path}.{name}")
        return FilterSpace(family, dists)
    _only(spec, ("a", "b"), path)
    a_list, b_list = spec.get("a", []), spec.get("b", [])
    for key, items in (("a", a_list), ("b", b_list)):
        if not isinstance(items, list):
            raise InputError(f"{path}.{key}", "must be a list of values or distributions")
    if not a_list and not b_list:
        raise InputError(path, "the raw family needs at least one coefficient in a or b")
    dists = {f"a{i + 1}": parse_dist(d, COEFF, f"{path}.a[{i}]") for i, d in enumerate(a_list)}
    dists |= {f"b{i + 1}": parse_dist(d, COEFF, f"{path}.b[{i}]") for i, d in enumerate(b_list)}
    return FilterSpace(family, dists, (len(a_list), len(b_list)))


def parse_trial_count(value: Any, path: str) -> TrialCount:
    """A fixed number of trials per method, or ``{distribution: poisson, mean: μ}`` /
    ``{distribution: truncated-negative-binomial, mean: μ, shape: η}`` (η ≥ 0; 1 is geometric): a
    random number of trials, drawn once per method from the search seed (``dptune.privacy.tuning``)."""
    if not isinstance(value, Mapping):
        return TrialCount("fixed", _integer(value, path, 1))
    section = dict(value)
    _only(section, ("distribution", "mean", "shape"), path)
    distribution = _one_of(section.get("distribution"), TRIAL_DISTRIBUTIONS[1:], f"{path}.distribution")
    if distribution == "poisson":
        _only(section, ("distribution", "mean"), path)
        mean = _number(section.get("mean"), f"{path}.mean", lambda v: v >= 1, "a number >= 1")
        return TrialCount(distribution, mean)
    mean = _number(section.get("mean"), f"{path}.mean", lambda v: v > 1, "a number > 1")
    shape = _number(section.get("shape", 1.0), f"{path}.shape", lambda v: v >= 0, "a number >= 0")
    return TrialCount(distribution, mean, shape)


PRIVACY_KNOBS = ("batch_size", "epochs", "clip_decay_steps")
MAX_CONFIGURATIONS = 256


def privacy_configurations(space: MethodSpace) -> list[dict[str, Any]]:
    """Every combination of privacy-relevant knob values the search can draw for ``space``.

    Only these knobs change a run's noise schedule (``tests/test_tuning.py`` checks every method), so
    the bounds of a sweep enumerate them to find the worst full plan any trial could be given;
    ``InputError`` where there are too many.
    """
    axes: list[list[tuple[str, Any]]] = []
    for knob in PRIVACY_KNOBS:
        dist = space.knobs.get(knob)
        if dist is None:
            continue
        values = range(dist.args[0], dist.args[1] + 1) if dist.kind == "int" else dist.args
        axes.append([(knob, value) for value in values])
    total = int(np.prod([len(axis) for axis in axes])) if axes else 1
    if total > MAX_CONFIGURATIONS:
        knobs = ", ".join(axis[0][0] for axis in axes)
        raise InputError(
            f"methods.{space.method}",
            f"the sweep's privacy bound enumerates every value of {knobs} ({total} combinations, at most "
            f"{MAX_CONFIGURATIONS}); draw them from a short {{choice: [...]}} or fix them",
        )
    return [dict(combo) for combo in itertools.product(*axes)]


def method_space(name: str, value: Any, path: str) -> MethodSpace:
    definition = get_method(name, path)
    section = _mapping(value, path)
    start = section.pop("start", [])
    method_params = {p.name: p for p in definition.params if p.name not in ("a", "b", "filter")}
    has_filter = any(p.name == "filter" for p in definition.params)
    allowed = (*TRAINING_KNOBS, *method_params, *(["filter"] if has_filter else []), "start")
    _only(section, allowed, path)
    knobs = {}
    for knob, raw in section.items():
        if knob == "filter":
            continue
        param = TRAINING_KNOBS.get(knob) or method_params[knob]
        knobs[knob] = parse_dist(raw, param, f"{path}.{knob}")
    filter_space = parse_filter(section["filter"], f"{path}.filter") if "filter" in section else None
    if not isinstance(start, list) or not all(isinstance(s, Mapping) for s in start):
        raise InputError(f"{path}.start", "must be a list of mappings of knob values")
    points = tuple(dict(s) for s in start)
    for i, point in enumerate(points):
        _only(point, tuple(a for a in allowed if a != "start"), f"{path}.start[{i}]")
    space = MethodSpace(name, knobs, filter_space, points)
    from dptune.search import start_point  # validates each start against the space

    for i, point in enumerate(points):
        start_point(space, point, f"{path}.start[{i}]")
    return space


def resolve_tracking_uri(uri: str, base: Path) -> str:
    """Absolute SQLite/file URIs (Tune runs trials in their own directories); others unchanged."""
    if uri.startswith("sqlite:///") and not uri.startswith("sqlite:////"):
        return f"sqlite:///{(base / uri[len('sqlite:///') :]).resolve()}"
    if "://" not in uri:
        return str((base / uri).resolve())
    return uri


def parse_spec(raw: Any, base: Path | None = None) -> SweepSpec:
    """Validate a loaded YAML document; relative paths resolve against ``base`` (the working dir)."""
    base = (base or Path.cwd()).resolve()
    doc = _mapping(raw, "spec")
    top = (
        "name",
        "dataset",
        "model",
        "privacy",
        "training",
        "budget",
        "resources",
        "scheduler",
        "search",
        "tracking",
        "storage_path",
        "methods",
    )
    _only(doc, top, "")
    for key in ("name", "dataset", "model", "privacy", "methods"):
        if key not in doc:
            raise InputError(key, "required")
    name = doc["name"]
    if not isinstance(name, str) or not name or any(c in name for c in "/\\ "):
        raise InputError("name", f"must be a non-empty name without spaces or slashes, got {name!r}")

    dataset = _mapping(doc["dataset"], "dataset")
    _only(dataset, ("name", "subset", "root"), "dataset")
    check_dataset_name(dataset.get("name"), "dataset.name")
    subset = dataset.get("subset")
    if subset is not None:
        _integer(subset, "dataset.subset", 1)

    model = _mapping(doc["model"], "model")
    _only(model, ("name",), "model")
    check_model_name(model.get("name"), "model.name")

    privacy = _mapping(doc["privacy"], "privacy")
    _only(privacy, ("epsilon", "delta", "accountant", "sampling", "total_epsilon"), "privacy")
    if "epsilon" not in privacy:
        raise InputError("privacy.epsilon", "required: the fixed privacy budget ε > 0")
    epsilon = _number(privacy["epsilon"], "privacy.epsilon", lambda v: v > 0, "a number > 0")
    delta = privacy.get("delta")
    if delta is not None:
        delta = _number(delta, "privacy.delta", lambda v: 0 < v < 1, "in (0, 1), e.g. 1.0e-5")
    accountant = check_accountant(privacy.get("accountant", "rdp"), "privacy.accountant")
    sampling = _one_of(privacy.get("sampling", "poisson"), SAMPLINGS, "privacy.sampling")
    if sampling != "poisson":
        raise InputError(
            "privacy.sampling",
            f"{sampling} is refused in sweeps: every bound of a sweep (per trial, with tuning, the "
            "filter) assumes Poisson sampling; use poisson, or `dptune train --sampling shuffle` for "
            "one labelled run",
        )
    total_epsilon = privacy.get("total_epsilon")
    if total_epsilon is not None:
        total_epsilon = _number(
            total_epsilon,
            "privacy.total_epsilon",
            lambda v: v >= epsilon,
            f"a number >= privacy.epsilon ({epsilon:g})",
        )

    training = _mapping(doc.get("training"), "training")
    _only(training, (*TRAINING_KNOBS, "physical_batch_size", "engine", "seed", "noise_generator"), "training")
    settings = {k: p.convert(training.get(k, p.default), "training") for k, p in TRAINING_KNOBS.items()}
    settings["physical_batch_size"] = _integer(
        training.get("physical_batch_size", 1000), "training.physical_batch_size", 1
    )
    settings["engine"] = _one_of(training.get("engine", "auto"), ENGINES, "training.engine")
    settings["seed"] = check_seed(training.get("seed"), "training.seed")
    settings["noise_generator"] = check_noise_generator(
        training.get("noise_generator", "torch"),
        settings["seed"],
        "training.noise_generator",
        "training.seed",
    )

    budget = _mapping(doc.get("budget"), "budget")
    _only(budget, ("trials_per_method", "max_concurrent"), "budget")
    trials = parse_trial_count(budget.get("trials_per_method", 4), "budget.trials_per_method")
    if trials.random and total_epsilon is not None:
        raise InputError(
            "budget.trials_per_method",
            "a random trial count is for the repeat-and-select bound; with privacy.total_epsilon (a filter) "
            "give a fixed number, the most trials the filter may admit",
        )
    concurrent = _integer(budget.get("max_concurrent", 1), "budget.max_concurrent", 1)

    resources = _mapping(doc.get("resources"), "resources")
    _only(resources, ("cpu", "gpu", "gpu_fallback"), "resources")
    cpu = _number(resources.get("cpu", 1), "resources.cpu", lambda v: v > 0, "a number > 0")
    gpu = _number(resources.get("gpu", 0), "resources.gpu", lambda v: v >= 0, "a number >= 0")
    fallback = _one_of(resources.get("gpu_fallback", "fail"), ("fail", "cpu"), "resources.gpu_fallback")

    scheduler = _mapping(doc.get("scheduler"), "scheduler")
    _only(scheduler, ("name", "grace_period"), "scheduler")
    scheduler_name = _one_of(scheduler.get("name", "none"), SCHEDULERS, "scheduler.name")
    grace = _integer(scheduler.get("grace_period", 1), "scheduler.grace_period", 1)

    search = _mapping(doc.get("search"), "search")
    _only(search, ("sampler", "seed", "startup_trials"), "search")
    sampler = _one_of(search.get("sampler", "tpe"), SAMPLERS, "search.sampler")
    seed = _integer(search.get("seed", 0), "search.seed", 0)
    if "startup_trials" in search and sampler not in MODEL_BASED_SAMPLERS:
        raise InputError(
            "search.startup_trials",
            f"only the model-based samplers ({', '.join(MODEL_BASED_SAMPLERS)}) have a random start-up phase",
        )
    startup = _integer(search.get("startup_trials", OPTUNA_STARTUP_TRIALS), "search.startup_trials", 1)

    tracking = _mapping(doc.get("tracking"), "tracking")
    _only(tracking, ("uri", "experiment"), "tracking")
    uri = tracking.get("uri", "sqlite:///mlflow.db")
    if not isinstance(uri, str) or not uri:
        raise InputError("tracking.uri", f"must be a URI such as sqlite:///mlflow.db, got {uri!r}")
    experiment = tracking.get("experiment", name)
    if not isinstance(experiment, str) or not experiment:
        raise InputError("tracking.experiment", f"must be a non-empty name, got {experiment!r}")

    storage = doc.get("storage_path", "ray_results")
    if not isinstance(storage, str) or not storage:
        raise InputError("storage_path", f"must be a path or URI, got {storage!r}")
    storage_path = storage if "://" in storage else str((base / storage).resolve())

    methods = _mapping(doc["methods"], "methods")
    if not methods:
        raise InputError("methods", f"name at least one method: {', '.join(METHODS)}")
    spaces = {m: method_space(m, v, f"methods.{m}") for m, v in methods.items()}
    for space in spaces.values():
        privacy_configurations(space)  # every bound counts each trial at the worst plan it could be given

    return SweepSpec(
        name=name,
        dataset=dataset["name"],
        subset=subset,
        data_root=str((base / dataset["root"]).resolve()) if dataset.get("root") else None,
        model=model["name"],
        epsilon=epsilon,
        delta=delta,
        accountant=accountant,
        sampling=sampling,
        total_epsilon=total_epsilon,
        epochs=settings["epochs"],
        training=settings,
        trials=trials,
        max_concurrent=concurrent,
        cpu=cpu,
        gpu=gpu,
        gpu_fallback=fallback,
        scheduler=scheduler_name,
        grace_period=grace,
        sampler=sampler,
        seed=seed,
        startup_trials=startup,
        tracking_uri=resolve_tracking_uri(uri, base),
        experiment=experiment,
        storage_path=storage_path,
        methods=spaces,
        source=doc,
    )


def apply_overrides(doc: Any, overrides: Mapping[str, Any]) -> Any:
    """Set dotted paths (``tracking.uri``) in a loaded spec document, e.g. from command-line flags."""
    for dotted, value in overrides.items():
        node = doc
        *parents, last = dotted.split(".")
        for key in parents:
            if not isinstance(node, dict):
                break
            node = node.setdefault(key, {})
        if isinstance(node, dict):
            node[last] = value
    return doc


def load_spec(
    path: str | Path, base: Path | None = None, overrides: Mapping[str, Any] | None = None
) -> SweepSpec:
    """Read and validate a YAML spec file, with optional dotted-path overrides."""
    file = Path(path)
    if not file.is_file():
        raise InputError("spec", f"no such file: {file}")
    try:
        raw = yaml.safe_load(file.read_text())
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise InputError("spec", f"{file} is not valid YAML{where}") from None
    return parse_spec(apply_overrides(raw, overrides or {}), base)
