"""``dptune`` command line: ``run`` and ``validate`` a sweep spec, ``report`` the best trade-offs of a
store, ``train`` one DP run, ``calibrate`` its noise, list the ``methods``, ``audit`` a method's release.

Bad input exits with code 2 and one line on stderr naming the field and what would be valid.
With ``--json`` the last stdout line is one JSON object (a contract other tools read).
``dptune audit`` exits with code 1 when its ε lower bound refutes the claimed ε.

Help and ``dptune validate`` start in well under a second: torch, Ray, Optuna and MLflow are imported
by the commands that use them (``tests/test_torch_free.py`` keeps it so).
"""

from __future__ import annotations

import argparse
import atexit
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import yaml

from dptune.base.errors import InputError
from dptune.base.factories import is_import_path
from dptune.methods import METHODS, Hyper, get_method
from dptune.methods.params import parse_assignments
from dptune.privacy.calibration import calibrate_noise, method_schedule
from dptune.training.calibrated_run import check_delta
from dptune.training.config import KNOB_OPTIONS, KNOBS, RunConfig, required

if TYPE_CHECKING:
    from dptune.sweep.plan import MethodPlan
    from dptune.sweep.results import TradeOff
    from dptune.sweep.spec import SweepSpec
    from dptune.tracking import ResultsReader

DESCRIPTION = (
    "Differentially private training tuned under a fixed (ε, δ): run and validate sweep specs, report their "
    "best trade-offs, train or calibrate one run, list the methods, audit a method's release."
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
        "--includes-tuning",
        action="store_true",
        help="set privacy.includes_tuning: each ε is the total of the model a method releases, its tuning "
        "included (dptune plans the tuning and the release inside it)",
    )


def _add_method_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="method parameter, repeatable (see `dptune methods`)",
    )


ARGUMENT_TYPES = {"float": float, "int": int}


def cli_field(knob: str) -> str:
    """A run knob as ``dptune train`` spells it (``batch_size`` -> ``batch-size``)."""
    return knob.replace("_", "-")


def _add_knob(parser: argparse.ArgumentParser, name: str, **overrides: Any) -> None:
    """``--NAME`` for the run knob ``name``, help and requirement from ``RunConfig``'s table; absent
    flags are left out of the namespace, so the table's defaults apply."""
    param = KNOBS[name]
    default = overrides.pop("default", argparse.SUPPRESS)
    needed = overrides.pop("required", required(name))
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

    train = sub.add_parser("train", help="train one DP run at a fixed (ε, δ)")
    for name in KNOBS:
        _add_knob(train, name)
    _add_method_args(train)
    for part in ("model", "dataset"):
        train.add_argument(
            f"--{part}-arg",
            action="append",
            metavar="NAME=VALUE",
            help=f"keyword argument of a {part} factory (--{part} package.module:function), repeatable; "
            "VALUE is read as YAML (64, 0.5, [1, 2], text)",
        )
    train.add_argument("--json", action="store_true", help="last stdout line: a JSON summary")

    calibrate = sub.add_parser("calibrate", help="noise multiplier for a fixed (ε, δ)")
    _add_knob(calibrate, "epsilon")
    _add_knob(calibrate, "delta", required=True)
    calibrate.add_argument(
        "--sample-rate", type=float, required=True, help="Poisson sampling rate q = B/n, in (0, 1]"
    )
    calibrate.add_argument("--steps", type=int, required=True, help="releases T of the run (epochs·⌈n/B⌉)")
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

    sub.add_parser("methods", help="list the DP methods and their parameters")

    _add_sweep_args(sub.add_parser("run", help="run a sweep spec (validated first)"))
    _add_sweep_args(sub.add_parser("validate", help="check a sweep spec as `run` would, start nothing"))

    report = sub.add_parser("report", help="best trade-offs per method and ε, from MLflow")
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

    audit = sub.add_parser("audit", help="one-run privacy audit of a method's release: an ε lower bound")
    _add_knob(audit, "method")
    _add_method_args(audit)
    _add_knob(audit, "epsilon", help="claimed ε of the audited release")
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
    return parser


class StepProgress:
    """A line within an epoch once a minute (``every`` s), for epochs long enough that a person would
    otherwise see nothing between two epoch lines: ``epoch 2/10: step 300/600 (1m00s)``."""

    def __init__(
        self,
        epochs: int,
        epoch: Callable[[], int],
        every: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.epochs, self.epoch, self.every, self.clock = epochs, epoch, every, clock
        self.started = self.last = clock()

    def __call__(self, step: int, steps: int) -> None:
        now = self.clock()
        if step == 1:  # the line before was the last epoch's (or the run's header)
            self.started = self.last = now
        if now - self.last >= self.every and step < steps:
            self.last = now
            print(
                f"epoch {self.epoch()}/{self.epochs}: step {step}/{steps} ({now - self.started:.0f}s)",
                flush=True,
            )


def yaml_value(text: str, flag: str, name: str) -> Any:
    """``VALUE`` of a ``NAME=VALUE`` argument read as YAML, or one line naming the flag."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise InputError(
            flag, f"{name}={text} is not valid YAML ({problem}); write it as 64, 0.5, [1, 2] or text"
        ) from None


def train_config(argv: list[str]) -> RunConfig:
    """The run ``dptune train ARGV`` trains (``ARGV`` without ``train``), validated as that command does."""
    return _train_config(_build_parser().parse_args(["train", *argv]))


def _train_config(args: argparse.Namespace) -> RunConfig:
    given = {k: v for k, v in vars(args).items() if k in KNOBS}
    if "lr" in given and "effective_lr" in given:
        raise InputError(cli_field("effective_lr"), "give --lr or --effective-lr (which sets lr), not both")
    if any(is_import_path(given.get(part)) for part in ("model", "dataset")):
        sys.path.insert(0, os.getcwd())  # a factory's module may sit in the working folder
    factory_args = {
        f"{part}_args": {
            name: yaml_value(value, f"--{part}-arg", name)
            for name, value in parse_assignments(getattr(args, f"{part}_arg"), f"--{part}-arg").items()
        }
        for part in ("model", "dataset")
    }
    return RunConfig.parse(given | factory_args | {"params": parse_assignments(args.param)}, cli_field)


def _train(args: argparse.Namespace) -> None:
    config = _train_config(args)
    from dptune.training.train import EpochResult, Trainer

    try:
        trainer = Trainer(config)
    except InputError as exc:
        raise InputError(cli_field(exc.field), exc.problem) from None
    calib = trainer.calibration
    print(
        f"{config.method} on {config.dataset}/{config.model}: n={len(trainer.train_y)}, "
        f"q={trainer.sample_rate:.5g}, {trainer.total_steps} steps, σ={calib.noise_multiplier:.4f} "
        f"for ε={config.epsilon} at δ={trainer.delta:g} ({config.accountant}, {config.sampling})",
        flush=True,
    )
    if config.seed is not None:
        print(
            f"seeded research mode (--seed {config.seed}): anyone who knows the seed can regenerate this "
            "run's noise; its privacy claim holds only while the seed stays secret",
            flush=True,
        )

    def report(result: EpochResult) -> None:
        print(
            f"epoch {result.epoch}/{config.epochs}  validation_accuracy {result.validation_accuracy:.4f}  "
            f"validation_loss {result.validation_loss:.4f}  epsilon_spent {result.epsilon_spent:.4f}  "
            f"({result.seconds:.1f}s)",
            flush=True,
        )

    trainer.fit(report, StepProgress(config.epochs, lambda: trainer.epoch + 1))
    summary = trainer.summary()
    print(
        f"final test (the held-out part no epoch was scored on): accuracy {summary['test_accuracy']:.4f}  "
        f"loss {summary['test_loss']:.4f}",
        flush=True,
    )
    if args.json:
        print(json.dumps(summary))


def _calibrate(args: argparse.Namespace) -> None:
    epsilon = KNOBS["epsilon"].checked(args.epsilon, "epsilon")
    delta = KNOBS["delta"].checked(args.delta, "delta")
    accountant = KNOBS["accountant"].checked(args.accountant, "accountant")
    if not 0 < args.sample_rate <= 1:
        raise InputError("sample-rate", f"must be in (0, 1], got {args.sample_rate}")
    if args.steps < 1:
        raise InputError("steps", f"must be an integer >= 1, got {args.steps}")
    if args.train_size is not None:
        if args.train_size < 1:
            raise InputError("train-size", f"must be an integer >= 1, got {args.train_size}")
        check_delta(delta, args.train_size, "delta")
    definition = get_method(args.method)
    params = definition.resolve(parse_assignments(args.param))
    schedule = method_schedule(definition, params, Hyper(1.0, 1.0, args.steps), args.sample_rate)
    calib = calibrate_noise(epsilon, delta, schedule, accountant)
    result: dict[str, Any] = {
        "method": args.method,
        "noise_multiplier": calib.noise_multiplier,
        "epsilon": calib.epsilon,
        "delta": calib.delta,
        "accountant": calib.accountant,
        "sample_rate": args.sample_rate,
        "steps": args.steps,
    }
    result.update(definition.build(params, calib.noise_multiplier, Hyper(1.0, 1.0, 1)).info)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"noise_multiplier {calib.noise_multiplier:.6f}  epsilon {calib.epsilon:.6f}  "
            f"delta {calib.delta:g}  ({calib.accountant}, {args.method}, q={args.sample_rate:g}, "
            f"{args.steps} steps)"
        )


def _methods(_args: argparse.Namespace) -> None:
    for definition in METHODS.values():
        print(f"{definition.name}: {definition.summary}")
        for p in definition.params:
            print(f"    {p.name} ({p.valid}; default {p.default}): {p.help}")


def _sweep_spec(args: argparse.Namespace) -> tuple[SweepSpec, list[MethodPlan] | None]:
    """The spec ``run`` and ``validate`` are given, with their flags' overrides, checked as ``run`` checks
    it before it starts anything (``dptune.sweep.preflight``), and where its ε includes the tuning, the
    plan of what it releases."""
    from dptune.sweep.pipeline import planned
    from dptune.sweep.preflight import preflight
    from dptune.sweep.spec import load_spec
    from dptune.sweep.spec_parts import resolve_tracking_uri
    from dptune.training.calibrated_run import default_delta

    overrides: dict[str, Any] = {"storage_path": args.storage_path}
    if args.includes_tuning:
        overrides["privacy.includes_tuning"] = True
    if args.epsilon:
        overrides["privacy.epsilon"] = args.epsilon if len(args.epsilon) > 1 else args.epsilon[0]
    if args.tracking_uri is not None:
        overrides["tracking.uri"] = resolve_tracking_uri(args.tracking_uri, Path.cwd(), "--tracking-uri")
    spec = load_spec(
        args.spec, overrides={k: v for k, v in overrides.items() if v is not None}, methods=args.method or ()
    )
    n = preflight(spec, args.resume)
    delta = spec.shared.delta if spec.shared.delta is not None else default_delta(n)
    return spec.with_held_out(delta), planned(spec, n)


def _validate(args: argparse.Namespace) -> None:
    spec, plans = _sweep_spec(args)
    from dptune.sweep.summary import held_out_line

    if plans is not None:
        from dptune.sweep.plan import format_plan
        from dptune.sweep.spec import unused_with_total

        print(format_plan(plans) + unused_with_total(spec))
    proxy = spec.proxy
    first = (
        f"after {proxy.trials} on a {proxy.fraction:g} subset (tuning proxy, its best {proxy.top} first); "
        if proxy
        else ""
    )
    print(
        f"{args.spec}: valid ({', '.join(spec.methods)}; {first}{spec.trials.describe()} trials per method; "
        f"{spec.describe_epsilon()})\n{held_out_line(spec.held_out)}"
    )


def _run(args: argparse.Namespace) -> None:
    spec, plans = _sweep_spec(args)
    from dptune.tune import SweepInterrupted, quiet_libraries, run_sweeps
    from dptune.tune.driver import failed_methods

    quiet_libraries()
    try:
        outcomes = run_sweeps(
            spec,
            Path(args.spec).read_text(),
            resume=args.resume,
            echo=lambda line: print(line, flush=True),
            plans=plans,
        )
    except SweepInterrupted as stop:
        late = "" if stop.recorded else "; results the tracking store lacks are recorded on resume"
        print(
            f"\ndptune: {stop}: the sweep stopped as it stood (Tune saved its state at its last step{late}); "
            f"continue it with: dptune run {args.spec} --resume",
            file=sys.stderr,
            flush=True,
        )
        sys.stdout.flush()
        # the Tune run's thread is left mid-run: Python's exit would wait for them to end the sweep
        os._exit(stop.exit_code)
    failed = failed_methods(spec, outcomes)
    for method, reason in failed.items():
        print(f"dptune: error: {method}: no trial trained; the first ended so: {reason}", file=sys.stderr)
    if failed:
        raise SystemExit(EXIT_NO_RESULT)


def _plot(tracker: ResultsReader, experiments: list[str], rows: list[TradeOff], path: Path) -> None:
    """``dptune report --plot FILE``: the one experiment's accuracy-vs-ε plot, as FILE's suffix says."""
    from dptune.privacy.tuning import REPEAT_AND_SELECT
    from dptune.tracking.plots import save_figure, tradeoff_figure

    if path.suffix.lower() not in (".png", ".pdf"):
        raise InputError("--plot", f"{path} is neither .png nor .pdf")
    if len(experiments) != 1:
        raise InputError("--plot", "the store holds several experiments: name one with --experiment")
    if not rows:
        raise InputError("--plot", f"experiment {experiments[0]!r} has no trained trial to plot")
    trials = tracker.trial_points(experiments[0])
    if any(row.tuning_bound == REPEAT_AND_SELECT for row in rows):
        print(
            "plot: a repeat-and-select sweep's search trials are left out (their number is secret); its "
            "selected trial and re-runs are drawn",
            file=sys.stderr,
        )
    save_figure(tradeoff_figure(rows, trials, tracker.plot_context(experiments[0])), path)
    print(f"plot: {path}", file=sys.stderr)


def _report(args: argparse.Namespace) -> None:
    from dptune.sweep.spec_parts import resolve_tracking_uri
    from dptune.tracking import tracker_for
    from dptune.tracking.mlflow_setup import quiet_mlflow, readable_store
    from dptune.tracking.report import format_compute, format_report

    quiet_mlflow()
    uri = resolve_tracking_uri(args.tracking_uri, Path.cwd(), "--tracking-uri")
    if uri.startswith("sqlite:///") and not Path(uri[len("sqlite:///") :]).is_file():
        raise InputError("--tracking-uri", f"no MLflow store at {uri}; run a sweep first or name the store")
    with readable_store(uri):
        tracker = tracker_for(uri)
        known = tracker.experiments()
        if args.experiment and args.experiment not in known:
            raise InputError("--experiment", f"no experiment {args.experiment!r} with runs in {uri}")
        names = [args.experiment] if args.experiment else known
        rows = [row for name in names for row in tracker.best_tradeoffs(name)]
        used = {n: tracker.compute_used(n) for n in names}
        if args.plot is not None:
            _plot(tracker, names, rows, args.plot)
    if args.json:
        best = [row.as_dict() for row in rows]
        compute = [c.as_dict() | {"experiment": n} for n, found in used.items() for c in found]
        print(json.dumps({"best_tradeoffs": best, "compute": compute}))
        return
    if rows:
        print(format_report(rows))
        for name, found in used.items():
            if found:
                print(f"\ncompute of {name}:\n" + format_compute(found))
    if not rows:
        print(f"no finished trials in {uri}")


def _audit(args: argparse.Namespace) -> None:
    """Exit code 1 when the audit refutes the claim (lower bound above the claimed ε)."""
    from dptune.training.audit import AuditConfig, run_audit

    names = {f.name for f in fields(AuditConfig)}
    given = {k: v for k, v in vars(args).items() if k in names}
    result = run_audit(AuditConfig(**given, params=parse_assignments(args.param)))
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['method']} release at step {result['step']}: claimed ε {result['epsilon_claimed']:.4f} "
            f"(z={result['step_noise_multiplier']:.4f}, δ={result['delta']:g}), lower bound "
            f"{result['epsilon_lower_bound']:.4f} at {result['confidence']:.0%} "
            f"({result['correct']}/{result['guesses']} guesses correct, {result['canaries']} canaries): "
            + ("CLAIM REFUTED" if result["claim_refuted"] else "consistent with the claim")
        )
    if result["claim_refuted"]:
        raise SystemExit(EXIT_CLAIM_REFUTED)


COMMANDS = {
    "train": _train,
    "calibrate": _calibrate,
    "methods": _methods,
    "run": _run,
    "validate": _validate,
    "report": _report,
    "audit": _audit,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = _build_parser().parse_args(argv)
    try:
        COMMANDS[args.command](args)
    except InputError as exc:
        print(f"dptune: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def console() -> NoReturn:
    """The ``dptune`` command (and ``python -m dptune.cli``): ``main``, then the process ends without
    Python's teardown of its modules' objects, which after a sweep took about 3 s of wall time on a
    2-core machine (torch, Ray, MLflow and Optuna loaded), after everything was written.

    What Python's exit does first still happens, in its order: non-daemon threads are joined, then every
    exit handler runs (Ray's shutdown, temporary folders' clean-up, MLflow's); this one is registered
    before any library's, so it runs last, flushes the output and logging, and ends the process with
    ``main``'s code (2 for bad input, 1 for an uncaught exception, whose traceback is printed before,
    130 after Ctrl+C, 141 when the reader of the output went away).
    """
    code = 1

    def end() -> None:
        try:
            logging.shutdown()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:  # a reader that went away (``dptune report | head``) leaves nothing to flush to
            os._exit(code)

    atexit.register(end)
    try:
        code = main()
    except SystemExit as stop:  # argparse's usage errors and --help, a refuted audit
        code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
        raise
    except KeyboardInterrupt:
        code = 128 + 2  # what a shell reports for SIGINT
        raise
    except BrokenPipeError:  # the reader of the output went away (``dptune methods | head``)
        code = 128 + 13  # what a shell reports for SIGPIPE; quietly, as other commands end there
    sys.exit(code)


if __name__ == "__main__":
    console()
