"""What a run is: one ``RunConfig``, whose fields are the one table of every knob, its default and check.

Each field carries a ``Param`` (kind, default, check, help; whether its value can change the noise
schedule a run is calibrated to; whether a sweep may search it). ``KNOBS`` is derived from the fields,
and everything else reads it: ``dptune train``'s flags (``cli``), a spec's ``privacy``, ``training``
and searchable knobs (``spec``), the privacy-knob enumeration of a sweep's bound (``space``), the
columns of reports. A ``RunConfig`` is validated once, when it is made (``__post_init__``: every knob
converted and checked, the method's parameters resolved); ``parse`` names a bad field the way its
caller's user wrote it (``--batch-size``, ``training.batch_size``). Every layer builds runs here: the
CLI, a sweep (``SweepSpec.runs`` per method, ``with_knobs`` per trial), the trainables, the campaigns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from functools import cached_property
from typing import Any

from dptune.base.errors import InputError
from dptune.base.factories import is_import_path, load_factory
from dptune.base.randomness import NOISE_GENERATORS, SEED_LIMIT
from dptune.engine.data import ALL_DATASETS
from dptune.engine.text_names import TEXT_DATASETS
from dptune.methods import METHODS, Hyper, get_method
from dptune.methods.params import Param
from dptune.models import MODELS
from dptune.models.pretrained_names import (
    PRETRAINED_PREFIX,
    TEXT_TASK,
    check_model_args,
    is_pretrained,
    task_of,
)
from dptune.models.trained_parts import TRAINS
from dptune.privacy.accounting import ACCOUNTANTS

KNOB = "dptune.knob"
OPTIONS = "dptune.options"
SAMPLINGS = ("poisson", "shuffle")
ENGINES = ("vmap", "ghost")
"""The per-sample engines by name, the keys of ``dptune.engine.persample.ENGINES`` (which imports torch: this
module does not; ``tests/test_torch_free.py`` checks that the two agree)."""


def _one_of(options: tuple[str, ...]) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: v in options), f"one of {', '.join(options)}"


def _positive(v: float) -> bool:
    return math.isfinite(v) and v > 0


def _in_open_unit(v: float) -> bool:
    return 0 < v < 1


def _at_least_one(v: int) -> bool:
    return v >= 1


def knob(
    kind: str,
    default: Any,
    check: Callable[[Any], bool],
    valid: str,
    help: str,
    *,
    changes_noise: bool = False,
    searchable: bool = False,
    options: tuple[str, ...] | None = None,
) -> Any:
    """A ``RunConfig`` field with its ``Param`` (``default`` MISSING: required) and, for a choice among
    names, its ``options``."""
    param = Param(
        "", kind, None if default is MISSING else default, check, valid, help, changes_noise, searchable
    )
    metadata = {KNOB: param} | ({OPTIONS: options} if options else {})
    return field(default=default, metadata=metadata)


def choice(options: tuple[str, ...], default: Any, help: str, **flags: Any) -> Any:
    """A knob whose value is one of ``options``."""
    check, valid = _one_of(options)
    return knob("str", default, check, valid, help, options=options, **flags)


def built_in_or_factory(
    names: tuple[str, ...], default: str, help: str, pretrained: bool = False, **flags: Any
) -> Any:
    """A knob whose value is one of ``names`` or the import path of the user's factory (``pretrained``:
    or a pretrained model ``hf:NAME``)."""
    valid = f"one of {', '.join(names)}, or a factory package.module:function"
    if pretrained:
        valid += f", or a pretrained model {PRETRAINED_PREFIX}NAME"

    def check(v: str) -> bool:
        return v in names or is_import_path(v) or (pretrained and is_pretrained(v))

    return knob("str", default, check, valid, help, **flags)


@dataclass(frozen=True)
class RunConfig:
    """One DP training run: every knob (see the module docstring) and the method's ``params``."""

    method: str = choice(tuple(METHODS), MISSING, "the DP method (`dptune methods`)")
    epsilon: float = knob(
        "float",
        MISSING,
        _positive,
        "a number > 0",
        "ε of the whole run (σ is calibrated to it)",
        changes_noise=True,
    )
    dataset: str = built_in_or_factory(
        ALL_DATASETS,
        "fashion-mnist",
        "training data (local copy first), or the user's from a factory or text files (their arguments: "
        "dataset_args)",
        changes_noise=True,
    )
    model: str = built_in_or_factory(
        tuple(MODELS),
        "cnn5",
        "the model, the user's from a factory, or a pretrained Hugging Face model hf:NAME, Transformers' or "
        "timm's (their arguments: model_args)",
        pretrained=True,
        searchable=True,
    )
    dataset_args: dict[str, Any] = field(default_factory=dict)  # a dataset factory's keyword arguments
    model_args: dict[str, Any] = field(default_factory=dict)  # a model factory's keyword arguments
    delta: float | None = knob(
        "float",
        None,
        _in_open_unit,
        "in (0, 1), e.g. 1e-5",
        "default: a power of ten < 1/n",
        changes_noise=True,
    )
    epochs: int = knob(
        "int",
        10,
        _at_least_one,
        "an integer >= 1",
        "epochs (T = epochs·⌈n/B⌉ steps)",
        changes_noise=True,
        searchable=True,
    )
    batch_size: int = knob(
        "int",
        1000,
        _at_least_one,
        "an integer >= 1",
        "expected batch size B = q·n",
        changes_noise=True,
        searchable=True,
    )
    lr: float = knob("float", 0.5, _positive, "a number > 0", "learning rate η", searchable=True)
    effective_lr: float | None = knob(
        "float",
        None,
        _positive,
        "a number > 0",
        "effective step E = η·C·g (g: the post-processing's DC gain, 1/(1−μ) for heavy ball); given, it "
        "sets η = E/(C·g) (η = E for Adam-type methods) instead of lr",
        searchable=True,
    )
    clip: float = knob("float", 1.0, _positive, "a number > 0", "clip bound C", searchable=True)
    trains: str = choice(
        TRAINS,
        "all",
        "what of the model trains: every parameter; the head only; the bias terms and the head (BitFit); "
        "LoRA adapters and the head (a pretrained model); frozen parameters take no clipping and no noise",
        searchable=True,
    )
    lora_rank: int = knob("int", 8, _at_least_one, "an integer >= 1", "LoRA's rank r", searchable=True)
    lora_alpha: int = knob(
        "int",
        16,
        _at_least_one,
        "an integer >= 1",
        "LoRA's α (the adapters' product scaled by α/r)",
        searchable=True,
    )
    ema: float | None = knob(
        "float",
        None,
        _in_open_unit,
        "a number in (0, 1), e.g. 0.999",
        "evaluate and release the exponential moving average of the iterates, with decay at most this "
        "(x̄_{t+1} = μ_t x̄_t + (1 − μ_t) x_{t+1}, μ_t = min(ema, (1 + t)/(10 + t)); post-processing "
        "of released iterates, no privacy cost; default: the last iterate)",
    )
    heldout_noise: float | None = knob(
        "float",
        None,
        _positive,
        "a number > 0",
        "private held-out data: every score on the held-out split (validation, final test) is its count "
        "of correct predictions plus Gaussian noise of this std, divided by its size, and no loss is "
        "computed on it (a sweep with privacy.validation: private sets it; default: the split is public)",
    )
    validation_every_epoch: bool = False
    """With private held-out data (``heldout_noise``): whether a search trial scores its validation part
    after every epoch (a scheduler such as ASHA reads its rungs) or only after its last (what the
    selection reads: the default, the fewest scores); a re-run or release never scores it
    (``Trainer.scores_validation``). A sweep sets it (``dptune.sweep.held_out``); a public split is scored
    after every epoch."""
    params: dict[str, Any] = field(default_factory=dict)
    subset: int | None = knob(
        "int",
        None,
        _at_least_one,
        "a positive number of samples",
        "keep N training samples",
        changes_noise=True,
    )
    proxy_fraction: float | None = knob(
        "float",
        None,
        _in_open_unit,
        "a number in (0, 1), e.g. 0.2",
        "tuning proxy: train on a secret Poisson subset that keeps each training sample with this "
        "probability, at the full run's sampling rate B/n, steps and σ (the same privacy plan, about this "
        "share of the compute; a sweep's figures amplify by it) and the step lr × this fraction (lr names "
        "the full run's step)",
    )
    seed: int | None = knob(
        "int",
        None,
        lambda v: 0 <= v < SEED_LIMIT,
        "an integer in [0, 2^62)",
        "research mode: reproducible noise, batches and initialisation, labelled 'seeded' in every "
        "output (default: secret OS entropy, fresh for every run)",
    )
    noise_generator: str = choice(
        NOISE_GENERATORS,
        "torch",
        "torch: a generator seeded from OS entropy (or the seed); os-csprng: every noise draw from the "
        "OS CSPRNG (Opacus secure_mode style; slower; cannot be seeded)",
    )
    sampling: str = choice(SAMPLINGS, "poisson", "Poisson sampling (what the accountant assumes) or shuffle")
    accountant: str = choice(tuple(ACCOUNTANTS), "rdp", "privacy accountant", changes_noise=True)
    physical_batch_size: int | None = knob(
        "int",
        None,
        _at_least_one,
        "an integer >= 1",
        "samples per per-sample-gradient chunk (memory bound; default: the largest that fits the trial's "
        "share of its GPU, or on a CPU of its node's memory, measured; on a CPU at most the larger of the "
        "batch and 1000)",
    )
    engine: str = choice(
        ("auto", *ENGINES),
        "auto",
        "per-sample engine: ghost (book-keeping) for Linear/Conv/Embedding/GroupNorm/LayerNorm models, "
        "vmap for any",
    )
    data_root: str | None = knob("str", None, lambda v: True, "a directory", "local dataset directory")
    device: str = knob("str", "cpu", lambda v: True, "a torch device", "torch device (cpu, cuda, cuda:1)")

    def __post_init__(self) -> None:
        for name, param in KNOBS.items():
            value = getattr(self, name)
            if value is not None or param.default is not None:
                object.__setattr__(self, name, param.checked(value, name))
        if self.noise_generator == "os-csprng" and self.seed is not None:
            raise InputError(
                "seed", "the OS CSPRNG cannot be seeded; drop the seed or use the torch generator"
            )
        for name in ("dataset", "model"):  # a factory is importable, or the run is refused now
            if is_import_path(getattr(self, name)):
                load_factory(getattr(self, name), name)
            elif getattr(self, f"{name}_args") and not self._takes_args(name):
                raise InputError(
                    f"{name}_args",
                    f"only a {name} factory (package.module:function), text data or a pretrained model "
                    "takes arguments",
                )
        self._pretrained_parts()
        if self.proxy_fraction is not None and self.sampling != "poisson":
            raise InputError(
                "proxy_fraction", "needs Poisson sampling (the subset's privacy amplification assumes it)"
            )
        _ = self.method_params

    def _takes_args(self, name: str) -> bool:
        return self.dataset in TEXT_DATASETS if name == "dataset" else is_pretrained(self.model)

    def _pretrained_parts(self) -> None:
        """A pretrained model's arguments checked; text data given the model's tokenizer (its
        ``dataset_args.tokenizer``, set here: the data is tokenized as the model reads); ``trains``
        beyond ``all``/``bias`` refused for a model without a known head."""
        if is_pretrained(self.model):
            check_model_args(self.model, self.model_args)
            task = task_of(self.model, self.model_args)
            if (task == TEXT_TASK) != (self.dataset in TEXT_DATASETS):
                kind = "text" if self.dataset in TEXT_DATASETS else "images"
                raise InputError(
                    "model.args.task",
                    f"{self.dataset} is {kind}, and {self.model}'s task is {task}: give a model and task "
                    "that read it (sequence-classification for text, image-classification for images)",
                )
        if self.dataset in TEXT_DATASETS:
            if not is_pretrained(self.model):
                raise InputError(
                    "model",
                    f"{self.dataset} is text: give a pretrained model (model: {{hf: NAME}}) whose "
                    "tokenizer reads it",
                )
            tokenizer = {"tokenizer": self.model, "tokenizer_revision": self.model_args.get("revision")}
            object.__setattr__(self, "dataset_args", {**self.dataset_args, **tokenizer})
        if self.trains in ("head", "lora") and not is_pretrained(self.model):
            raise InputError(
                "trains", f"{self.trains} needs a pretrained model (model: {{hf: NAME}}); use all or bias"
            )

    @cached_property
    def method_params(self) -> dict[str, Any]:
        """The method's parameters, typed, validated and with defaults filled in (filters resolved)."""
        return get_method(self.method).resolve(self.params)

    @cached_property
    def learning_rate(self) -> float:
        """η of the run: ``lr``, or from ``effective_lr`` E as η = E / (C·g).

        With every per-sample signal clipped, the release is about C·u (u a unit-norm direction) and the
        post-processing's steady state multiplies it by its DC gain g (``stages.Method.gain``: 1/(1−μ) for
        heavy-ball momentum, 1 for the unit-DC-gain filters), so a step moves θ by about η·C·g: E keeps
        that fixed when C, μ or the batch size change (the scaling Tramèr & Boneh 2021 and Sander et al.
        2023 tune in). A post-processing that normalises (Adam: g None) moves θ by about η: η = E.
        """
        if self.effective_lr is None:
            return self.lr
        method = get_method(self.method).build(self.method_params, 1.0, Hyper(self.clip, 1.0, 1))
        return self.effective_lr if method.gain is None else self.effective_lr / (self.clip * method.gain)

    @classmethod
    def parse(cls, values: Mapping[str, Any], where: Callable[[str], str]) -> RunConfig:
        """A validated run from ``values``; a bad knob's error names it as ``where(knob)``."""
        try:
            return cls(**values)
        except InputError as exc:
            raise InputError(where(exc.field), exc.problem) from None

    def with_knobs(self, knobs: Mapping[str, Any]) -> RunConfig:
        """This run with knobs of a trial: a knob's value replaces the field, a method parameter's is added
        to ``params``; other keys (a search's own draws, e.g. a filter family's parameters) are not part
        of the run."""
        parameters = {p.name for p in get_method(self.method).params}
        changes = {k: v for k, v in knobs.items() if k in KNOBS}
        params = {k: v for k, v in knobs.items() if k in parameters}
        return replace(self, **changes, params={**self.params, **params})


KNOBS: dict[str, Param] = {
    f.name: replace(f.metadata[KNOB], name=f.name) for f in fields(RunConfig) if KNOB in f.metadata
}
"""Every knob of a run by name, in field order."""

KNOB_OPTIONS: dict[str, tuple[str, ...]] = {
    f.name: f.metadata[OPTIONS] for f in fields(RunConfig) if OPTIONS in f.metadata
}
"""The values of every knob that is a choice among names (``dptune train --help`` lists them)."""

SEARCHABLE_KNOBS: dict[str, Param] = {name: p for name, p in KNOBS.items() if p.searchable}
"""The knobs a sweep spec may search besides the method's parameters."""


def noise_knobs(method: str) -> tuple[str, ...]:
    """The searchable knobs and the parameters of ``method`` whose values can change its noise schedule."""
    searched = [name for name, p in SEARCHABLE_KNOBS.items() if p.changes_noise]
    return (*searched, *get_method(method).noise_params)


def report_columns() -> tuple[str, ...]:
    """The settings a report shows: the searchable knobs, then every method's parameters (registry order)."""
    names = dict.fromkeys(SEARCHABLE_KNOBS)
    for definition in METHODS.values():
        names |= dict.fromkeys(p.name for p in definition.params)
    return tuple(names)


def required(name: str) -> bool:
    """Whether the knob ``name`` has no default."""
    return next(f for f in fields(RunConfig) if f.name == name).default is MISSING
