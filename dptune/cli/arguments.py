"""The ``dptune`` command line's arguments: one parser per command, each knob of a run a flag from
``RunConfig``'s table (``cli_field``), and the exit codes."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from dptune.sweep.release_policies import PIPELINE_RELEASES
from dptune.sweep.spec_parts import VALIDATION_MODES
from dptune.training.config import KNOB_OPTIONS, KNOBS, required

if TYPE_CHECKING:
    pass

DESCRIPTION = (
    "Differentially private training tuned under a fixed (ε, δ): run and validate sweep specs, report their "
    "best trade-offs, train or calibrate one run, list the methods, audit a method's privatized step."
)
"""What ``dptune --help`` says first."""

EXIT_BAD_INPUT = 2
EXIT_CLAIM_REFUTED = 1
EXIT_NO_RESULT = 1
"""A sweep in which some method had no trial that trained (each such method named with its reason)."""


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"dptune: error: {message} (see {self.prog} --help)\n")


def _add_sweep_args(parser: argparse.ArgumentParser) -> None:
    """The spec and the flags of ``dptune run``, which ``dptune validate`` takes too: it checks what
    ``run`` would check with them."""
    parser.add_argument("spec", help="YAML sweep spec, e.g. sweeps/quickstart.yaml")
    parser.add_argument("--resume", action="store_true", help="continue an interrupted sweep")
    parser.add_argument(
        "--tracking-uri",
        default=None,
        help="override tracking.uri: http://HEAD:5000, sqlite:///PATH or a PATH.db file",
    )
    parser.add_argument("--storage-path", default=None, help="override storage_path (shared on clusters)")
    parser.add_argument(
        "--epsilon",
        type=float,
        action="append",
        default=None,
        help="override privacy.epsilon (repeat the flag for several targets)",
    )
    parser.add_argument(
        "--method",
        action="append",
        default=None,
        help="run only this method of the spec (repeat the flag for several)",
    )
    parser.add_argument(
        "--trials",
        type=int,
        default=None,
        help="override budget.trials_per_method (a fixed number of trials per method)",
    )
    parser.add_argument(
        "--promoted-trials",
        type=int,
        default=None,
        help="override budget.promoted_trials (with includes_tuning): successive halving, each method's best "
        "m tuning trials trained again 3× as long, the release chosen among them",
    )
    parser.add_argument(
        "--includes-tuning",
        action="store_true",
        help="set privacy.includes_tuning: each ε is the total of the model a method releases, its tuning "
        "included (dptune plans the tuning and the release inside it)",
    )
    parser.add_argument(
        "--release",
        choices=PIPELINE_RELEASES,
        default=None,
        help="override privacy.release (with includes_tuning): one model per total chosen across the "
        "methods, or each method's own",
    )


def _add_method_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="method parameter, repeatable (see `dptune methods`)",
    )


ARGUMENT_TYPES = {"float": float, "int": int}
BATCH_SHARE = 4
"""``dptune train`` without ``--batch-size``: at most a 1/``BATCH_SHARE`` share of the training set."""


def default_batch_size(n: int) -> int:
    """``dptune train``'s batch size B on ``n`` training examples where ``--batch-size`` is not given:
    min(the knob's default, n // ``BATCH_SHARE``), at least 1 (1000 on Fashion-MNIST's 60,000; 99 on a
    table of 398 rows, where 1000 would be refused)."""
    return max(1, min(int(KNOBS["batch_size"].default), n // BATCH_SHARE))


TRAIN_DEFAULTS = {
    "batch_size": f"min({KNOBS['batch_size'].default}, n // {BATCH_SHARE}) for n training examples",
    "heldout_noise": "with --validation private, the least noise that keeps the run's scores (ε, δ)-DP for "
    "the held-out examples; none with a public split",
}
"""What ``dptune train --help`` says of a knob whose default there depends on the data."""
TRAIN_HELP = {
    "heldout_noise": "private held-out data: every score on the held-out split (validation, final test) is "
    "its count of correct predictions plus Gaussian noise of this std, divided by its size, and no loss is "
    "computed on it",
}
"""``dptune train``'s own help of a knob whose table help speaks of a sweep."""


def cli_field(field: str) -> str:
    """A field as ``dptune train`` spells it: a run knob as its flag (``batch_size`` -> ``batch-size``), a
    dotted field as it is (``dataset.args.max_length``: a key of ``--dataset-arg``, spelt as given there)."""
    return field if "." in field else field.replace("_", "-")


def _add_knob(parser: argparse.ArgumentParser, name: str, shown: Any = None, **overrides: Any) -> None:
    """``--NAME`` for the run knob ``name``, help and requirement from ``RunConfig``'s table; absent
    flags are left out of the namespace, so the table's defaults apply (or what the command makes of an
    absent flag: its help says ``shown``)."""
    param = KNOBS[name]
    default = overrides.pop("default", argparse.SUPPRESS)
    needed = overrides.pop("required", required(name))
    if shown is None:
        shown = param.default if default is argparse.SUPPRESS else default
    notes = [] if name in KNOB_OPTIONS else [param.valid]  # argparse lists the options itself
    notes += [] if needed or shown is None else [f"default {shown}"]
    text = overrides.pop("help", param.help) + (f" ({'; '.join(notes)})" if notes else "")
    if name in KNOB_OPTIONS:
        overrides.setdefault("choices", KNOB_OPTIONS[name])
    if param.kind in ARGUMENT_TYPES:
        overrides.setdefault("type", ARGUMENT_TYPES[param.kind])
    parser.add_argument(f"--{cli_field(name)}", default=default, required=needed, help=text, **overrides)


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dptune", description=DESCRIPTION)
    sub = parser.add_subparsers(
        dest="command",
        required=True,
        parser_class=_Parser,
        help="what to do (`dptune COMMAND --help` for its options)",
    )

    _add_train(sub.add_parser("train", help="train one DP run at a fixed (ε, δ)"))
    _add_calibrate(sub.add_parser("calibrate", help="noise multiplier for a fixed (ε, δ)"))
    sub.add_parser("methods", help="list the DP methods and their parameters")
    _add_sweep_args(sub.add_parser("run", help="run a sweep spec (validated first)"))
    _add_sweep_args(sub.add_parser("validate", help="check a sweep spec as `run` would, start nothing"))
    _add_report(sub.add_parser("report", help="best trade-offs per method and ε, from MLflow"))
    audit = sub.add_parser(
        "audit", help="one-run privacy audit of a method's privatized step: an ε lower bound"
    )
    _add_audit(audit)
    return parser


ARG_TAKERS = {
    "model": "or a pretrained model (--model hf:NAME: task, revision, lora_targets)",
    "dataset": "or text data (--dataset text: train, held_out, text, text_pair, label, num_classes, "
    "max_length; a GLUE task: max_length)",
}
"""What besides a factory takes ``--model-arg`` and ``--dataset-arg``."""


def _add_train(train: argparse.ArgumentParser) -> None:
    """``dptune train``: every run knob, the method's parameters, a factory's arguments, the held-out
    split."""
    for name in KNOBS:
        own = {"help": TRAIN_HELP[name]} if name in TRAIN_HELP else {}
        _add_knob(train, name, TRAIN_DEFAULTS.get(name), **own)
    _add_method_args(train)
    train.add_argument(
        "--validation",
        choices=VALIDATION_MODES,
        default=None,
        help="the held-out split, as a spec's privacy.validation: public (the default for a built-in "
        "dataset, whose held-out split is its published test set: exact scores after every epoch) or private "
        "(the default for a dataset factory, whose held-out examples are the user's own: the validation part "
        "scored after the last epoch only and the final-test part once, each score a count with Gaussian "
        "noise calibrated so that they are (ε, δ)-DP for those examples, no loss on them computed; "
        "--heldout-noise sets that noise instead)",
    )
    for part, also in ARG_TAKERS.items():
        train.add_argument(
            f"--{part}-arg",
            action="append",
            metavar="NAME=VALUE",
            help=f"keyword argument of a {part} factory (--{part} package.module:function), {also}, "
            "repeatable; VALUE is read as YAML (64, 0.5, [1, 2], text)",
        )
    train.add_argument("--json", action="store_true", help="last stdout line: a JSON summary")


def _add_calibrate(calibrate: argparse.ArgumentParser) -> None:
    """``dptune calibrate``: the target (ε, δ), the run's sampling rate and length, the method."""
    _add_knob(calibrate, "epsilon")
    _add_knob(calibrate, "delta", required=True)
    calibrate.add_argument(
        "--sample-rate", type=float, required=True, help="Poisson sampling rate q = B/n, in (0, 1]"
    )
    calibrate.add_argument(
        "--steps", type=int, required=True, help="privatized steps T of the run (epochs·⌈n/B⌉)"
    )
    calibrate.add_argument(
        "--train-size",
        type=int,
        default=None,
        help="n, the training set's size: δ must be below 1/n (checked when given)",
    )
    _add_knob(calibrate, "method", default="dpsgd", required=False)
    _add_method_args(calibrate)
    _add_knob(calibrate, "accountant", default="rdp")
    calibrate.add_argument("--json", action="store_true", help="last stdout line: a JSON record")


def _add_report(report: argparse.ArgumentParser) -> None:
    """``dptune report``: the store, the experiment, JSON or a plot."""
    report.add_argument("--experiment", default=None, help="default: every experiment in the store")
    report.add_argument(
        "--tracking-uri",
        default="sqlite:///mlflow.db",
        help="the MLflow store: sqlite:///PATH, a PATH.db file or http://HOST:5000 (default sqlite:///mlflow.db)",
    )
    report.add_argument(
        "--json",
        action="store_true",
        help="stdout: one JSON object: the best trade-offs and the compute used",
    )
    report.add_argument(
        "--plot",
        type=Path,
        metavar="FILE",
        help="also write the experiment's accuracy-vs-ε plot (every trial, the selected configurations) to "
        "FILE: .png (300 dpi) or .pdf",
    )


def _add_audit(audit: argparse.ArgumentParser) -> None:
    """``dptune audit``: the method, its claimed (ε, δ), the canaries, the audited step, the seeds."""
    _add_knob(audit, "method")
    _add_method_args(audit)
    _add_knob(audit, "epsilon", help="claimed ε of the audited privatized step")
    _add_knob(audit, "delta", default=1e-5)
    _add_knob(audit, "clip", default=1.0)
    audit.add_argument("--canaries", type=int, default=50_000, help="m (run time grows as m²)")
    audit.add_argument("--steps", type=int, default=100, help="run length the method is composed for")
    audit.add_argument("--step", type=int, default=None, help="audited step (default: the last)")
    _add_knob(audit, "accountant", default="rdp")
    _add_knob(
        audit, "seed", default=None, type=int, help="seed the audited release (default: secret OS entropy)"
    )
    audit.add_argument(
        "--attack-seed",
        type=int,
        default=None,
        help="the adversary regenerates the release noise from this seed (as anyone can whose run's "
        "seed was published) and subtracts it before scoring the canaries",
    )
    audit.add_argument("--json", action="store_true", help="last stdout line: a JSON record")
