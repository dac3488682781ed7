"""``dptune`` command line: train one DP run, calibrate noise, list methods.

Bad input exits with code 2 and one line on stderr naming the field and what would be valid.
With ``--json`` the last stdout line is one JSON object (a contract other tools read).
``dptune audit`` exits with code 1 when its ε lower bound refutes the claimed ε.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any, NoReturn

from dptune.errors import InputError
from dptune.methods import METHODS, Hyper, get_method
from dptune.methods.params import parse_assignments
from dptune.privacy.accounting import ACCOUNTANTS
from dptune.privacy.calibration import calibrate_noise
from dptune.randomness import NOISE_GENERATORS
from dptune.train import SAMPLINGS, EpochResult, TrainConfig, Trainer

EXIT_BAD_INPUT = 2
EXIT_CLAIM_REFUTED = 1


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"dptune: error: {message} (see {self.prog} --help)\n")


def _add_method_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="method parameter, repeatable (see `dptune methods`)",
    )


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dptune", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    train = sub.add_parser("train", help="train one DP run at a fixed (ε, δ)")
    train.add_argument("--method", required=True, help=f"one of: {', '.join(METHODS)}")
    train.add_argument("--dataset", default="fashion-mnist")
    train.add_argument("--model", default="cnn5")
    train.add_argument("--epsilon", type=float, required=True)
    train.add_argument("--delta", type=float, default=None, help="default: a power of ten < 1/n")
    train.add_argument("--epochs", type=int, default=1)
    train.add_argument("--batch-size", type=int, default=1000, help="expected batch size B = q·n")
    train.add_argument("--lr", type=float, default=0.5)
    train.add_argument("--clip", type=float, default=1.0)
    _add_method_args(train)
    train.add_argument("--subset", type=int, default=None, help="keep N training samples")
    train.add_argument(
        "--seed",
        type=int,
        default=None,
        help="research mode: reproducible noise, batches and initialisation, labelled 'seeded' in every "
        "output (default: secret OS entropy, fresh for every run)",
    )
    train.add_argument(
        "--noise-generator",
        choices=NOISE_GENERATORS,
        default="torch",
        help="torch: a generator seeded from OS entropy (or --seed); os-csprng: every noise draw from the "
        "OS CSPRNG (Opacus secure_mode style; slower; cannot be seeded)",
    )
    train.add_argument("--sampling", choices=SAMPLINGS, default="poisson")
    train.add_argument("--accountant", choices=tuple(ACCOUNTANTS), default="rdp")
    train.add_argument(
        "--engine",
        choices=("auto", "ghost", "vmap"),
        default="auto",
        help="per-sample engine: ghost norms for Linear/Conv2d models, vmap for any model",
    )
    train.add_argument(
        "--physical-batch-size",
        type=int,
        default=1000,
        help="samples per per-sample-gradient chunk (memory bound)",
    )
    train.add_argument("--data-root", default=None, help="local dataset directory, checked first")
    train.add_argument("--device", default="cpu")
    train.add_argument("--json", action="store_true", help="last stdout line: a JSON summary")

    calibrate = sub.add_parser("calibrate", help="noise multiplier for a fixed (ε, δ)")
    calibrate.add_argument("--epsilon", type=float, required=True)
    calibrate.add_argument("--delta", type=float, required=True)
    calibrate.add_argument("--sample-rate", type=float, required=True)
    calibrate.add_argument("--steps", type=int, required=True)
    calibrate.add_argument("--method", default="dpsgd")
    _add_method_args(calibrate)
    calibrate.add_argument("--accountant", choices=tuple(ACCOUNTANTS), default="rdp")
    calibrate.add_argument("--json", action="store_true")

    sub.add_parser("methods", help="list the DP methods and their parameters")

    run = sub.add_parser("run", help="run a sweep spec (validated first)")
    run.add_argument("spec", help="YAML sweep spec, e.g. sweeps/quickstart.yaml")
    run.add_argument("--resume", action="store_true", help="continue an interrupted sweep")
    run.add_argument("--tracking-uri", default=None, help="override tracking.uri (e.g. http://HEAD:5000)")
    run.add_argument("--storage-path", default=None, help="override storage_path (shared on clusters)")

    validate = sub.add_parser("validate", help="check a sweep spec without running it")
    validate.add_argument("spec")

    report = sub.add_parser("report", help="best trade-offs per method and ε, from MLflow")
    report.add_argument("--experiment", default=None, help="default: every experiment in the store")
    report.add_argument("--tracking-uri", default="sqlite:///mlflow.db")
    report.add_argument("--json", action="store_true")

    audit = sub.add_parser("audit", help="one-run privacy audit of a method's release: an ε lower bound")
    audit.add_argument("--method", required=True, help=f"one of: {', '.join(METHODS)}")
    _add_method_args(audit)
    audit.add_argument("--epsilon", type=float, required=True, help="claimed ε of the audited release")
    audit.add_argument("--delta", type=float, default=1e-5)
    audit.add_argument("--clip", type=float, default=1.0)
    audit.add_argument("--canaries", type=int, default=50_000, help="m (run time grows as m²)")
    audit.add_argument("--steps", type=int, default=100, help="run length the method is composed for")
    audit.add_argument("--step", type=int, default=None, help="audited step (default: the last)")
    audit.add_argument("--accountant", choices=tuple(ACCOUNTANTS), default="rdp")
    audit.add_argument(
        "--seed", type=int, default=None, help="seed the audited release (default: secret OS entropy)"
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


def _train(args: argparse.Namespace) -> None:
    names = {f.name for f in fields(TrainConfig)}
    given = {k: v for k, v in vars(args).items() if k in names}
    config = TrainConfig(**given, params=parse_assignments(args.param))
    config.check()
    trainer = Trainer(config)
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
            f"epoch {result.epoch}/{config.epochs}  test_accuracy {result.test_accuracy:.4f}  "
            f"test_loss {result.test_loss:.4f}  epsilon_spent {result.epsilon_spent:.4f}  "
            f"({result.seconds:.1f}s)",
            flush=True,
        )

    trainer.fit(report)
    summary = trainer.summary()
    if args.json:
        print(json.dumps(summary))


def _calibrate(args: argparse.Namespace) -> None:
    if not args.epsilon > 0:
        raise InputError("epsilon", f"must be a number > 0, got {args.epsilon}")
    if not 0 < args.delta < 1:
        raise InputError("delta", f"must be in (0, 1), got {args.delta}")
    if not 0 < args.sample_rate <= 1:
        raise InputError("sample-rate", f"must be in (0, 1], got {args.sample_rate}")
    if args.steps < 1:
        raise InputError("steps", f"must be an integer >= 1, got {args.steps}")
    definition = get_method(args.method)
    params = definition.resolve(parse_assignments(args.param))
    schedule = definition.noise_schedule(params, Hyper(1.0, 1.0, args.steps), args.sample_rate)
    calib = calibrate_noise(args.epsilon, args.delta, schedule, args.accountant)
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


def _validate(args: argparse.Namespace) -> None:
    from dptune.spec import load_spec

    spec = load_spec(args.spec)
    print(
        f"{args.spec}: valid ({', '.join(spec.methods)}; {spec.trials.describe()} trials per method; "
        f"ε={spec.epsilon:g})"
    )


def _run(args: argparse.Namespace) -> None:
    from dptune.spec import load_spec

    overrides = {"tracking.uri": args.tracking_uri, "storage_path": args.storage_path}
    spec = load_spec(args.spec, overrides={k: v for k, v in overrides.items() if v is not None})
    quiet_libraries()
    from dptune.sweep import run_sweep

    run_sweep(
        spec, Path(args.spec).read_text(), resume=args.resume, echo=lambda line: print(line, flush=True)
    )


def _report(args: argparse.Namespace) -> None:
    quiet_libraries()
    from dptune.protocol_runs import format_protocol_table, protocol_cells
    from dptune.spec import resolve_tracking_uri
    from dptune.tracking import best_tradeoffs, client_for, format_table

    uri = resolve_tracking_uri(args.tracking_uri, Path.cwd())
    if uri.startswith("sqlite:///") and not Path(uri[len("sqlite:///") :]).is_file():
        raise InputError("--tracking-uri", f"no MLflow store at {uri}; run a sweep first or name the store")
    client = client_for(uri)
    names = [args.experiment] if args.experiment else [e.name for e in client.search_experiments()]
    if args.experiment and client.get_experiment_by_name(args.experiment) is None:
        raise InputError("--experiment", f"no experiment {args.experiment!r} in {uri}")
    rows = [row for name in names for row in best_tradeoffs(client, name)]
    cells = [cell for name in names for cell in protocol_cells(client, name)]
    if args.json:
        protocol = [
            {
                "method": c.method,
                "epsilon": c.epsilon,
                "protocol": c.protocol,
                "mean": c.mean,
                "sd": c.sd,
                "seeds": len(c.accuracies),
            }
            for c in cells
        ]
        print(json.dumps({"best_tradeoffs": [row.as_dict() for row in rows], "protocols": protocol}))
        return
    if rows:
        print(format_table(rows))
    if cells:
        print(("\n" if rows else "") + format_protocol_table(cells))
    if not rows and not cells:
        print(f"no finished trials in {uri}")


def _audit(args: argparse.Namespace) -> None:
    """Exit code 1 when the audit refutes the claim (lower bound above the claimed ε)."""
    from dptune.privacy.audit import AuditConfig, run_audit

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


def quiet_libraries() -> None:
    """Concise progress: no Ray/MLflow/Optuna info logs, no Tune tables (errors still show)."""
    os.environ.setdefault("RAY_AIR_NEW_OUTPUT", "0")
    os.environ.setdefault("TUNE_DISABLE_AUTO_CALLBACK_LOGGERS", "1")
    import mlflow  # noqa: F401  (imported first: it installs its own log handlers)
    import optuna
    import ray  # noqa: F401

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    for name in ("ray", "ray.tune", "ray._private"):  # failed trials get our one-line reason instead
        logging.getLogger(name).setLevel(logging.CRITICAL)
    for name in ("mlflow", "alembic"):
        logging.getLogger(name).setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", category=FutureWarning)
    warnings.filterwarnings("ignore", category=UserWarning)


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


if __name__ == "__main__":
    sys.exit(main())
