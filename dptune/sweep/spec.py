"""Sweep specs: YAML -> validated, typed objects. Every error names the YAML path of its field.

The top-level keys (see ``sweeps/quickstart.yaml`` and docs/reference.md):

    name (default: the file's name), dataset {name, subset, root} | {factory, args, subset},
    model {name} | {factory, args} | {hf, task, revision, lora_targets},
    privacy {epsilon: ε | [ε, ...], delta, accountant, sampling, total_epsilon},
    training {epochs, lr, clip, batch_size, physical_batch_size, engine, seed, noise_generator},
    budget {trials_per_method: N | {distribution, mean, shape}, max_concurrent},
    resources {cpu, gpu, gpu_fallback, wait},
    scheduler {name: none|asha, grace_period (epochs of the longest plan; ASHA's rungs are shares of each
               trial's plan: ``dptune.tune.schedulers.asha``)},
    search {sampler: tpe|random|gp|nsga2, seed, startup_trials, warm_start: {sweep, previous_epsilon, top},
            proxy: {fraction, trials, top}},
    selection {reruns, keep_method}, tracking {uri, experiment}, storage_path,
    methods {METHOD: {KNOB: DIST, ..., start: [...]}}

A knob is a training setting (``lr``, ``clip``, ``batch_size``, ``epochs``) or a method parameter;
its value is a fixed scalar or one distribution: ``{uniform: [lo, hi]}``, ``{loguniform: [lo, hi]}``,
``{int: [lo, hi]}``, ``{choice: [v, ...]}``. Filters have their own families
(``dptune.methods.filter_families``).

``privacy.epsilon`` may list several targets: the spec then stands for one sweep per ε
(``SweepSpec.at_epsilon``), run one after another with the same per-(method, ε) budget, named
``NAME.epsE`` and tracked in one MLflow experiment, so that each method gets an accuracy-vs-ε curve.
With ``search.warm_start.previous_epsilon`` each ε's search starts from the configurations the
previous ε's sweep released (and its privacy figures count that sweep's whole ε and δ).
``dataset.factory`` and ``model.factory`` name the user's own code (``package.module:function``, called
with ``args``; ``dptune.base.factories``), imported with the spec's folder first on the path.
``search.proxy`` puts a tuning proxy's sweep on a secret subset of the data before each ε's search
(``SweepSpec.sweeps_at``), which then starts from the proxy's best configurations.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from dptune.base.errors import InputError
from dptune.engine.data import users_own
from dptune.methods import METHODS, get_method
from dptune.sweep.default_spaces import default_space, fine_tuning_space
from dptune.sweep.space import (
    KEEP_START,
    privacy_configurations,
)
from dptune.sweep.spec_keys import (
    integer,
    mapping,
    number,
    only,
    read_spec_keys,
    section_keys,
)
from dptune.sweep.spec_parts import (
    PRETRAINED_KEYS,
    PRIVACY_EXTRAS,
    beside,
    factory_value,
    method_space,
    parse_epsilons,
    parse_includes_tuning,
    parse_noisy_scores,
    parse_proxy,
    parse_trial_count,
    parse_validation,
    parse_warm_start,
    pretrained_value,
    resolve_tracking_uri,
    search_seed,
    startup_trials,
    text_files_beside,
)
from dptune.sweep.spec_rules import check_rules
from dptune.sweep.sweep_spec import SweepSpec
from dptune.training.config import KNOBS, RunConfig

RUN_SECTIONS = {
    "dataset": {"name": "dataset", "subset": "subset", "root": "data_root", "args": "dataset_args"},
    "model": {"name": "model", "args": "model_args"},
    "privacy": {"epsilon": "epsilon", "delta": "delta", "accountant": "accountant", "sampling": "sampling"},
}
"""Where a spec gives the run's knobs outside ``training``: section -> YAML key -> knob."""
SPEC_FIELD = {
    knob: f"{section}.{key}" for section, keys in RUN_SECTIONS.items() for key, knob in keys.items()
}
TRAINING_KEYS = tuple(k for k in KNOBS if k not in SPEC_FIELD and k not in ("method", "device"))
"""The ``training`` section's keys: every other knob of ``RunConfig`` but the method and the device."""


def spec_field(knob: str) -> str:
    """The YAML path of a run knob (``epsilon`` -> ``privacy.epsilon``, ``lr`` -> ``training.lr``)."""
    return SPEC_FIELD.get(knob, f"training.{knob}")


def parse_name(doc: Mapping[str, Any]) -> str:
    for key in ("name", "dataset", "model", "privacy", "methods"):
        if key not in doc:
            raise InputError(key, "required")
    name = doc["name"]
    if not isinstance(name, str) or not name or any(c in name for c in "/\\ "):
        raise InputError("name", f"must be a non-empty name without spaces or slashes, got {name!r}")
    return name


def run_values(doc: Mapping[str, Any], base: Path) -> tuple[dict[str, Any], set[str]]:
    """The run knobs the ``dataset``, ``model``, ``privacy`` and ``training`` sections give (by the table
    ``RUN_SECTIONS``), and which of ``dataset`` and ``model`` are the user's factories."""
    values: dict[str, Any] = {}
    factories: set[str] = set()
    for section, keys in RUN_SECTIONS.items():
        given = mapping(doc[section], section)
        extra = {"privacy": PRIVACY_EXTRAS, "dataset": ("factory",), "model": ("factory", *PRETRAINED_KEYS)}
        only(given, tuple(keys) + extra.get(section, ()), section)
        if "factory" in given:
            given = factory_value(given, section)
            factories.add(section)
        if "hf" in given:
            given = pretrained_value(given, base)
        if "args" in given:
            given["args"] = mapping(given["args"], f"{section}.args")
        if section == "dataset" and given.get("name") == "text":
            given["args"] = text_files_beside(given.get("args", {}), base)
        values |= {knob: given[key] for key, knob in keys.items() if key in given}
    if "epsilon" not in values:
        raise InputError("privacy.epsilon", "required: the fixed privacy budget ε > 0")
    for knob in ("dataset", "model"):
        if knob not in values:
            raise InputError(f"{knob}.name", "required")
    if values.get("data_root") is not None:
        values["data_root"] = str(beside(base, str(values["data_root"])))
    training = mapping(doc.get("training"), "training")
    only(training, TRAINING_KEYS, "training")
    return values | training, factories


def methods_section(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``methods``: each method with its space (``{dpsgd: {lr: …}}``; an empty one fixes every knob), or a
    list of method names (``[dpsgd, dp-pmlf]``), each then searching its default space
    (``dptune.sweep.default_spaces``; fine-tuning's where ``model`` is a pretrained one). A method given only
    where its search begins (``{dpsgd: {start: [...]}}``, a point naming a knob, with or without
    ``keep_start``) searches its default space from there."""
    methods = doc["methods"]
    if isinstance(methods, list):
        for index, method in enumerate(methods):
            get_method(method, f"methods[{index}]")
        return {method: named_default_space(doc, method) for method in methods}
    section = mapping(methods, "methods")
    for method, value in section.items():
        get_method(method, f"methods.{method}")
        if only_where_it_begins(value):
            section[method] = named_default_space(doc, method) | dict(value)
    return section


def only_where_it_begins(value: Any) -> bool:
    """Whether a method's mapping gives only where its search begins: a ``start`` list with a point that
    names a knob, with or without ``keep_start`` (a start of no such point, like an empty mapping, fixes
    every knob)."""
    start = value.get("start") if isinstance(value, Mapping) else None
    return isinstance(start, list) and any(start) and set(value) <= {"start", KEEP_START}


def named_default_space(doc: Mapping[str, Any], method: str) -> dict[str, Any]:
    """The default space of ``method`` in the spec ``doc``: fine-tuning's (by what trains) where ``model``
    is a pretrained one, its own otherwise."""
    model, training = doc.get("model"), doc.get("training")
    if isinstance(model, Mapping) and "hf" in model:
        trains = training.get("trains", "all") if isinstance(training, Mapping) else "all"
        return fine_tuning_space(method, str(trains))
    return default_space(method)


def parse_runs(doc: Mapping[str, Any], base: Path) -> tuple[dict[str, RunConfig], tuple[float, ...], bool]:
    """Each method's run (its first ε target's; ``at_epsilon`` gives each target its own), the ε targets
    and whether the dataset is the user's own (a factory's, or text files: ``users_own``)."""
    values, factories = run_values(doc, base)
    epsilons = parse_epsilons(values["epsilon"])
    methods = methods_section(doc)
    if not methods:
        raise InputError("methods", f"name at least one method: {', '.join(METHODS)}")

    def where(knob: str) -> str:
        return f"{knob}.factory" if knob in factories else spec_field(knob)

    first = values | {"epsilon": epsilons[0]}
    runs = {method: RunConfig.parse(first | {"method": method}, where) for method in methods}
    return runs, epsilons, users_own(values["dataset"])


def parse_total_epsilon(privacy: Mapping[str, Any], epsilon: float) -> float | None:
    """``privacy.total_epsilon``: a privacy filter's total for the whole sweep, at least its ε target."""
    total = privacy.get("total_epsilon")
    if total is None:
        return None
    return number(
        total, "privacy.total_epsilon", lambda v: v >= epsilon, f"a number >= privacy.epsilon ({epsilon:g})"
    )


def parse_spec(raw: Any, base: Path | None = None) -> SweepSpec:
    """Validate a loaded YAML document: its plain settings by their table (``spec_keys``), its runs, ε
    targets and spaces, then every cross-field rule (``spec_rules``); relative paths resolve against
    ``base`` (the working dir; ``load_spec`` gives the spec's folder)."""
    base = (base or Path.cwd()).resolve()
    doc = mapping(raw, "spec")
    only(doc, section_keys(""), "")
    settings = read_spec_keys(doc)
    name = parse_name(doc)
    runs, epsilons, factory = parse_runs(doc, base)
    shared = next(iter(runs.values()))
    privacy, budget = mapping(doc["privacy"], "privacy"), mapping(doc.get("budget"), "budget")
    search = mapping(doc.get("search"), "search")
    trials = parse_trial_count(budget.get("trials_per_method", 4), "budget.trials_per_method")
    startup = (
        integer(search["startup_trials"], "search.startup_trials", 1)
        if "startup_trials" in search
        else startup_trials(trials)
    )
    storage = settings["storage_path"]
    spaces = {m: method_space(m, v, f"methods.{m}") for m, v in methods_section(doc).items()}
    for space in spaces.values():
        privacy_configurations(space)  # every bound counts each trial at the worst plan it could be given
    spec = SweepSpec(
        name=name,
        runs=runs,
        total_epsilon=parse_total_epsilon(privacy, shared.epsilon),
        trials=trials,
        max_concurrent=settings["budget.max_concurrent"],
        cpu=settings["resources.cpu"],
        gpu=settings["resources.gpu"],
        gpu_fallback=settings["resources.gpu_fallback"],
        wait=settings["resources.wait"],
        scheduler=settings["scheduler.name"],
        grace_period=settings["scheduler.grace_period"],
        sampler=settings["search.sampler"],
        seed=search_seed(search.get("seed"), shared.seed),
        startup_trials=startup,
        warm_start=parse_warm_start(search.get("warm_start"), name, epsilons),
        proxy=parse_proxy(search.get("proxy"), trials),
        epsilons=epsilons,
        reruns=settings["selection.reruns"],
        tracking_uri=resolve_tracking_uri(settings["tracking.uri"], base),
        experiment=settings["tracking.experiment"] or name,
        storage_path=storage if "://" in storage else str(beside(base, storage)),
        methods=spaces,
        source=doc,
        includes_tuning=parse_includes_tuning(
            privacy, settings["budget.tuning_compute"], settings["budget.promoted_trials"]
        ),
        validation=parse_validation(privacy, factory),
        noisy_scores=parse_noisy_scores(privacy),
        keep_method=settings["selection.keep_method"],
    )
    check_rules(spec)
    return spec


def check_batch_sizes(spec: SweepSpec, n: int) -> None:
    """Every batch size a trial can draw must fit the training set (checked before anything starts)."""
    for method, space in spec.methods.items():
        _, largest = spec.knob_range(method, "batch_size")
        if largest > n:
            field = f"methods.{method}.batch_size" if "batch_size" in space.knobs else "training.batch_size"
            raise InputError(field, f"batch size {largest} exceeds the {n} training samples")


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


def refuse_duplicate_keys(node: yaml.Node | None, path: str = "") -> None:
    """An ``InputError`` naming the first key that a mapping of the YAML document ``node`` gives twice:
    PyYAML keeps the last silently, so a second ``privacy:`` would replace the first without a word."""
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key, value in node.value:
            name = str(key.value)
            where = f"{path}.{name}" if path else name
            line = key.start_mark.line + 1
            if name in seen:
                raise InputError(where, f"given twice (lines {seen[name]} and {line}); keep one")
            seen[name] = line
            refuse_duplicate_keys(value, where)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            refuse_duplicate_keys(item, f"{path}[{index}]")


def load_spec(
    path: str | Path,
    base: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    methods: Sequence[str] = (),
) -> SweepSpec:
    """Read and validate a YAML spec file, with optional dotted-path overrides, and only ``methods`` of
    its methods where given (``dptune run --method``); its relative paths (``storage_path``, a SQLite
    ``tracking.uri``, ``dataset.root``) resolved beside it, as its factories' modules are found (``base``:
    another folder to resolve them from)."""
    file = Path(path)
    if not file.is_file():
        raise InputError("spec", f"no such file: {file}")
    loader = yaml.SafeLoader(file.read_text())
    try:  # composed once: its nodes are checked for keys given twice, then built into Python values
        node = loader.get_single_node()
        refuse_duplicate_keys(node)
        raw = None if node is None else loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise InputError("spec", f"{file} is not valid YAML{where}") from None
    finally:
        loader.dispose()
    folder = file.resolve().parent  # a factory's module may sit beside the spec, as its relative paths do
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    doc = only_methods(apply_overrides(named(raw, file), overrides or {}), methods)
    return parse_spec(doc, base or folder)


def named(doc: Any, file: Path) -> Any:
    """The spec document with its ``name``: as given, or else the file's name without its extension (its
    spaces as dashes)."""
    if not isinstance(doc, dict) or "name" in doc:
        return doc
    return {"name": re.sub(r"\s+", "-", file.stem)} | doc


def only_methods(doc: Any, methods: Sequence[str]) -> Any:
    """The spec document with only ``methods`` of its ``methods`` section (all of them when empty), and
    without ``selection.keep_method`` where the kept method is not among them or fewer than two are: no pick
    across methods is left to keep it in."""
    if not methods or not isinstance(doc, dict) or not isinstance(doc.get("methods"), Mapping | list):
        return doc
    given = methods_section(doc)
    for method in methods:
        if method not in given:
            raise InputError("--method", f"{method} is not a method of the spec; it has {', '.join(given)}")
    listed = doc["methods"]
    kept = [m for m in listed if m in methods]
    doc = doc | {"methods": kept if isinstance(listed, list) else {m: listed[m] for m in kept}}
    selection = doc.get("selection")
    kept_method = selection.get("keep_method") if isinstance(selection, Mapping) else None
    if kept_method in given and (kept_method not in kept or len(kept) < 2):
        doc["selection"] = {k: v for k, v in selection.items() if k != "keep_method"}
    return doc
