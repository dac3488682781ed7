"""What each ``dptune`` command does with its parsed arguments (``arguments``)."""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from dptune.base.errors import InputError
from dptune.base.factories import is_import_path
from dptune.engine.data import train_size, users_own
from dptune.methods import METHODS, Hyper, get_method
from dptune.methods.params import parse_assignments
from dptune.privacy.calibration import calibrate_noise, method_schedule
from dptune.sweep.spec_parts import parse_validation
from dptune.training.calibrated_run import check_delta
from dptune.training.config import KNOBS, RunConfig

if TYPE_CHECKING:
    from dptune.engine.dataset import Dataset
    from dptune.privacy.heldout import PrivateHeldOut
    from dptune.privacy.plans import MethodPlan
    from dptune.sweep.results import TradeOff
    from dptune.sweep.sweep_spec import SweepSpec
    from dptune.tracking import ResultsReader
    from dptune.training.train import EpochResult

from dptune.cli.arguments import (
    EXIT_CLAIM_REFUTED,
    EXIT_NO_RESULT,
    _build_parser,
    cli_field,
    default_batch_size,
)


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
    """The run ``dptune train ARGV`` trains (``ARGV`` without ``train``), validated as that command does,
    its defaults that depend on the data resolved (``_train_run``): the size of a built-in dataset read
    from its local copy, a factory's data loaded (and kept for a run in this process)."""
    args = _build_parser().parse_args(["train", *argv])
    config = _train_config(args)
    return _train_run(
        args, config, lambda: train_size(config.dataset, config.data_root, config.subset, config.dataset_args)
    )[0]


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


def _train_run(
    args: argparse.Namespace, config: RunConfig, train_size: Callable[[], int]
) -> tuple[RunConfig, PrivateHeldOut | None]:
    """``config`` with ``dptune train``'s defaults that depend on the data (``train_size()``: n, asked
    only where one is needed), and the held-out split's guarantee where it is private:

    - without ``--batch-size``, B = ``default_batch_size(n)``: min(1000, n // 4);
    - the held-out split as ``dptune run`` takes it (``parse_validation``, a spec's ``privacy.validation``):
      public for a built-in dataset, private for a factory's, unless ``--validation`` says; private, the
      validation part is scored after the last epoch only and the final-test part once, each score with the
      least noise that keeps them (ε, δ)-DP for the held-out examples (ε the run's, δ its δ on n), or with
      ``--heldout-noise`` (then its ε is stated)."""
    from dptune.privacy.heldout import HeldOutScores, PrivateHeldOut, heldout_epsilon
    from dptune.training.calibrated_run import resolved_delta

    n = functools.cache(train_size)
    changes: dict[str, Any] = {}
    if "batch_size" not in vars(args):
        changes["batch_size"] = default_batch_size(n())
    noise = config.heldout_noise
    if args.validation == "public" and noise is not None:
        raise InputError(
            "--validation", "public takes the held-out scores as exact: drop --heldout-noise or use private"
        )
    chosen = {} if args.validation is None else {"validation": args.validation}
    if noise is None and parse_validation(chosen, users_own(config.dataset)) == "public":
        return replace(config, **changes), None
    delta = resolved_delta(config, n())
    scores = HeldOutScores(validation=1, final_test=1)
    held_out = (
        PrivateHeldOut.calibrated(scores, config.epsilon, delta)
        if noise is None
        else PrivateHeldOut(scores, noise, heldout_epsilon(scores.most, noise, delta), delta)
    )
    changes |= {"heldout_noise": held_out.noise, "validation_every_epoch": False}
    return replace(config, **changes), held_out


def epoch_line(result: EpochResult, epochs: int) -> str:
    """``dptune train``'s line for one epoch: its validation score (where the held-out split is scored),
    the ε spent so far and its time."""
    scored = (
        f"validation_accuracy {result.validation_accuracy:.4f}"
        if math.isfinite(result.validation_accuracy)
        else "validation not scored (private held-out split: after the last epoch only)"
    )
    if math.isfinite(result.validation_loss):
        scored += f"  validation_loss {result.validation_loss:.4f}"
    return (
        f"epoch {result.epoch}/{epochs}  {scored}  epsilon_spent {result.epsilon_spent:.4f}  "
        f"({result.seconds:.1f}s)"
    )


def _train(args: argparse.Namespace) -> None:
    from dptune.engine.data import load_dataset
    from dptune.sweep.disclosure import seed_disclosure
    from dptune.training.train import Trainer

    config = _train_config(args)
    try:
        data = load_dataset(config.dataset, config.data_root, config.subset, config.dataset_args)
        config, held_out = _train_run(args, config, lambda: len(data.train_y))
        trainer = Trainer(config, data)
    except InputError as exc:
        raise InputError(cli_field(exc.field), exc.problem) from None
    calib = trainer.calibration
    print(
        f"{config.method} on {config.dataset}/{config.model}: n={len(trainer.train_y)}, "
        f"B={config.batch_size}, q={trainer.sample_rate:.5g}, {trainer.total_steps} steps, "
        f"σ={calib.noise_multiplier:.4f} for ε={config.epsilon} at δ={trainer.delta:g} ({config.accountant}, "
        f"{config.sampling})",
        flush=True,
    )
    if held_out is not None:
        stated = seed_disclosure(config.seed).figure(
            f"({held_out.epsilon:.3g}, {held_out.delta:g})-DP for its examples"
        )
        print(
            f"held-out split: private (--validation private): the validation part scored after the last "
            f"epoch, the final-test part once, each score a count with Gaussian noise of std "
            f"{held_out.noise:.3g}, {stated} (no loss on them is computed)",
            flush=True,
        )
    if config.seed is not None:
        print(
            f"seeded research mode (--seed {config.seed}): anyone who knows the seed can regenerate this "
            "run's noise; its privacy claim holds only while the seed stays secret",
            flush=True,
        )

    def report(result: EpochResult) -> None:
        print(epoch_line(result, config.epochs), flush=True)

    trainer.fit(report, StepProgress(config.epochs, lambda: trainer.epoch + 1))
    summary = trainer.summary()
    loss = f"  loss {summary['test_loss']:.4f}" if math.isfinite(summary["test_loss"]) else ""
    print(
        f"final test (the held-out part no epoch was scored on): accuracy {summary['test_accuracy']:.4f}"
        f"{loss}",
        flush=True,
    )
    if args.json:
        print(json.dumps(finite_json(summary), allow_nan=False))


def finite_json(value: Any) -> Any:
    """``value`` with every non-finite number as None: JSON has no NaN (a loss on private held-out data is
    never computed), and a script reading the line parses it with any JSON reader."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: finite_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite_json(item) for item in value]
    return value


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
    from dptune.sweep.default_spaces import DEFAULT_SPACES, described

    for definition in METHODS.values():
        print(f"{definition.name}: {definition.summary}")
        for p in definition.params:
            print(f"    {p.name} ({p.valid}; default {p.default}): {p.help}")
        space = described(DEFAULT_SPACES[definition.name])
        print(f"    default space (methods: [{definition.name}]): {space}")


def spec_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The spec settings ``run``'s and ``validate``'s flags override, by dotted path (flags not given left
    out); ``--release per_method`` also drops ``selection.keep_method``: a model per method leaves no pick
    across methods to keep one in."""
    from dptune.sweep.release_policies import PER_METHOD
    from dptune.sweep.spec_parts import resolve_tracking_uri

    overrides: dict[str, Any] = {"storage_path": args.storage_path}
    if args.includes_tuning:
        overrides["privacy.includes_tuning"] = True
    if args.release is not None:
        overrides["privacy.release"] = args.release
    if args.trials is not None:
        overrides["budget.trials_per_method"] = args.trials
    if args.promoted_trials is not None:
        overrides["budget.promoted_trials"] = args.promoted_trials
    if args.epsilon:
        overrides["privacy.epsilon"] = args.epsilon if len(args.epsilon) > 1 else args.epsilon[0]
    if args.tracking_uri is not None:
        overrides["tracking.uri"] = resolve_tracking_uri(args.tracking_uri, Path.cwd(), "--tracking-uri")
    given = {k: v for k, v in overrides.items() if v is not None}
    if args.release == PER_METHOD.name:
        given["selection.keep_method"] = None
    return given


def _sweep_spec(args: argparse.Namespace) -> tuple[SweepSpec, list[MethodPlan] | None]:
    """The spec ``run`` and ``validate`` are given, with their flags' overrides, checked as ``run`` checks
    it before it starts anything (``dptune.sweep.preflight``), and where its ε includes the tuning, the
    plan of what it releases."""
    from dptune.engine.data import load_dataset
    from dptune.sweep.held_out import check_noise, held_out_records, with_held_out
    from dptune.sweep.pipeline import planned
    from dptune.sweep.preflight import preflight
    from dptune.sweep.spec import load_spec
    from dptune.training.calibrated_run import resolved_delta

    spec = load_spec(args.spec, overrides=spec_overrides(args), methods=args.method or ())
    n = preflight(spec, args.resume)
    plans = planned(spec, n)
    if not args.resume and spec.validation == "public":
        return spec, plans
    shared = spec.shared
    data = load_dataset(shared.dataset, shared.data_root, shared.subset, shared.dataset_args)  # once
    if args.resume:
        _refuse_changed_sweeps(spec, plans, data)
    if spec.validation == "public":
        return spec, plans
    private = with_held_out(spec, plans, resolved_delta(shared, n), held_out_records(data))
    warning = check_noise(private)
    if warning is not None:
        print(warning, file=sys.stderr)
    return private, plans


def _refuse_changed_sweeps(spec: SweepSpec, plans: list[MethodPlan] | None, data: Dataset) -> None:
    """``--resume``: each of the spec's sweeps that started is resumed as it started, its spec, plan and
    data (``dptune.sweep.resume``), checked before anything starts (a sweep's driver checks it again when
    it prepares; ``data``: what the sweep runs on)."""
    from dptune.sweep.ledger import PrivateSweepState
    from dptune.sweep.resume import refuse_changed, resumable_identity
    from dptune.sweep.spec_modes import spec_mode

    for one in spec_mode(spec, plans).sweeps():
        kept = PrivateSweepState(one.spec.storage_path, one.spec.name).kept_start()
        refuse_changed(one.spec.name, kept, resumable_identity(one.spec, one.plan_text(), data))


def _validate(args: argparse.Namespace) -> None:
    spec, plans = _sweep_spec(args)
    from dptune.sweep.disclosure import seed_disclosure
    from dptune.sweep.summary import held_out_line

    if plans is not None:
        from dptune.sweep.summary import format_plan
        from dptune.sweep.sweep_spec import unused_with_total

        print(format_plan(plans, spec.release) + unused_with_total(spec))
    proxy = spec.proxy
    first = (
        f"after {proxy.trials} on a {proxy.fraction:g} subset (tuning proxy, its best {proxy.top} first); "
        if proxy
        else ""
    )
    counts = sorted({p.tuning.runs for p in plans or [] if not p.tuning.count.random})
    trials = (
        f"{', '.join(map(str, counts))} trials per method, as planned (the spec asks "
        f"{spec.trials.describe()}: see the plan's lines)"
        if counts and counts != [int(spec.trials.mean)]
        else f"{spec.trials.describe()} trials per method"
    )
    print(
        f"{args.spec}: valid ({', '.join(spec.methods)}; {first}{trials}; {spec.describe_epsilon()})\n"
        f"{held_out_line(spec.held_out, seed_disclosure(spec.shared.seed))}"
    )


def _leave_working_directory() -> None:
    """Move the driver from the folder it started in to the user's home (or the temporary folder): every
    path a sweep reads or writes was made absolute when its spec loaded, and a folder can be deleted under
    a running driver (a Ray job's working directory, extracted again when a node joins), which the end of a
    Tune run does not survive (its results' paths are taken relative to the working directory)."""
    home = Path.home()
    os.chdir(home if home.is_dir() else tempfile.gettempdir())


def _run(args: argparse.Namespace) -> None:
    spec, plans = _sweep_spec(args)
    from dptune.tune.driver import run_sweeps
    from dptune.tune.interrupt import SweepInterrupted
    from dptune.tune.outcomes import failed_methods, lost_trials
    from dptune.tune.startup import quiet_libraries

    spec_text = Path(args.spec).read_text()
    _leave_working_directory()
    quiet_libraries()
    try:
        outcomes = run_sweeps(
            spec,
            spec_text,
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
        print(
            f"dptune: error: {method}: {reason}; the sweep's ε is spent as planned, and a new sweep on this "
            "data adds its own ε to it",
            file=sys.stderr,
        )
    lost = lost_trials(spec, outcomes)
    for line in lost:
        print(f"dptune: error: {line}", file=sys.stderr)
    if failed or lost:
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
            f"{result['method']} privatized step {result['step']}: claimed ε {result['epsilon_claimed']:.4f} "
            f"(z={result['step_noise_multiplier']:.4f}, δ={result['delta']:g}), lower bound "
            f"{result['epsilon_lower_bound']:.4f} at {result['confidence']:.0%} "
            f"({result['correct']}/{result['guesses']} guesses correct, {result['canaries']} canaries): "
            + ("CLAIM REFUTED" if result["claim_refuted"] else "consistent with the claim")
        )
    if result["claim_refuted"]:
        raise SystemExit(EXIT_CLAIM_REFUTED)
