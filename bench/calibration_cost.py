"""Benchmark: cost of calibrating σ for each DP method relative to calibrating DP-SGD.

Every method of the registry with its default parameters, its schedule built as ``dptune calibrate``
builds it (``method_schedule`` with clip 1 and T steps at rate q), calibrated to each ε at δ by
``calibrate_noise`` (RDP). Each timing starts from an empty curve cache, as a fresh process would.
Rounds interleave the methods so machine noise hits all of them alike; the ratio is the median over
rounds of (method time / DP-SGD time in the same round). The goal: at most 2× for every method.

``--before`` also times dpsgd-momentum and dpsgd with the accounting of commit ``BEFORE`` (Opacus's
scalar ``compute_rdp`` for every distinct z at every probe), loaded from git; that takes minutes.

    python bench/calibration_cost.py [--rounds 9] [--before] [--out bench/RESULTS.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

import numpy as np
import scipy
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script

from dptune.methods import METHODS, Hyper
from dptune.privacy.accounting import forget_curves, rdp_epsilon
from dptune.privacy.calibration import NoiseSchedule, calibrate_noise, method_schedule

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "c952668"  # the last commit whose RDP accountant called Opacus's compute_rdp per distinct z
TITLE = "## Calibration cost: every method against DP-SGD"


def before_calibrate() -> Callable[..., object] | None:
    """``calibrate_noise`` as of ``BEFORE`` with its own accounting module, or None without git."""
    for name in ("accounting", "calibration"):
        try:
            source = subprocess.run(
                ["git", "show", f"{BEFORE}:dptune/privacy/{name}.py"],
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        except (OSError, subprocess.CalledProcessError):
            return None
        module = types.ModuleType(f"before_{name}")
        sys.modules[module.__name__] = module
        exec(
            compile(source.replace("dptune.privacy.accounting", "before_accounting"), name, "exec"),
            vars(module),
        )
    return vars(sys.modules["before_calibration"])["calibrate_noise"]


def timed(calibrate: Callable[..., object], epsilon: float, delta: float, schedule: NoiseSchedule) -> float:
    forget_curves()
    start = time.perf_counter()
    calibrate(epsilon, delta, schedule)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2760)
    parser.add_argument("--sample-rate", type=float, default=0.0445)
    parser.add_argument("--delta", type=float, default=1e-5)
    parser.add_argument("--epsilons", type=float, nargs="+", default=[1.0, 3.0, 8.0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--before", action="store_true", help="also time the accounting of BEFORE (minutes)")
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    args = parser.parse_args()
    load_before = os.getloadavg()[0]

    schedules = {
        name: method_schedule(
            definition, definition.resolve({}), Hyper(1.0, 1.0, args.steps), args.sample_rate
        )
        for name, definition in METHODS.items()
    }
    ratios: dict[str, dict[float, float]] = {name: {} for name in schedules}
    dpsgd_ms: dict[float, float] = {}
    checks = []
    for epsilon in args.epsilons:
        rounds = []
        for _ in range(args.rounds):
            rounds.append(
                {name: timed(calibrate_noise, epsilon, args.delta, s) for name, s in schedules.items()}
            )
        dpsgd_ms[epsilon] = 1e3 * statistics.median(r["dpsgd"] for r in rounds)
        for name in schedules:
            ratios[name][epsilon] = statistics.median(r[name] / r["dpsgd"] for r in rounds)
        calibration = calibrate_noise(epsilon, args.delta, schedules["dpsgd-momentum"])
        exact = rdp_epsilon(schedules["dpsgd-momentum"](calibration.noise_multiplier), args.delta)
        checks.append((epsilon, calibration.noise_multiplier, calibration.epsilon, exact))

    flag = " --before" if args.before else ""
    columns = " | ".join(f"ε = {e:g}" for e in args.epsilons)
    lines = [
        TITLE,
        "",
        f"- date: {dt.date.today().isoformat()}; machine: {cpu_name()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}; "
        f"command: `python bench/calibration_cost.py --rounds {args.rounds}{flag}`",
        f"- T = {args.steps} steps, q = {args.sample_rate}, δ = {args.delta:g}, RDP, default parameters, "
        f"cold curve cache; ratio = median over {args.rounds} rounds of (method time / dpsgd time in the "
        "same round); goal: at most 2×",
        "",
        f"| method | {columns} |",
        "|---|" + "---|" * len(args.epsilons),
    ]
    for name, by_epsilon in ratios.items():
        lines.append(f"| {name} | " + " | ".join(f"{by_epsilon[e]:.2f}×" for e in args.epsilons) + " |")
    lines.append("| (dpsgd itself, ms) | " + " | ".join(f"{dpsgd_ms[e]:.1f}" for e in args.epsilons) + " |")
    lines += [
        "",
        "dpsgd-momentum, checked: the returned ε (exact, or a certified upper bound) against the exact ε "
        "of the whole schedule at the returned σ (every distinct z evaluated):",
        "",
        "| target ε | σ | returned ε | exact ε | exact / target |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {e:g} | {s:.5f} | {r:.5f} | {x:.5f} | {x / e:.4f} |" for e, s, r, x in checks]
    if args.before:
        before = before_calibrate()
        if before is None:
            lines += ["", f"(`--before`: commit {BEFORE} not readable with git here)"]
        else:
            epsilon = 3.0 if 3.0 in args.epsilons else args.epsilons[0]
            old = {
                name: timed(before, epsilon, args.delta, schedules[name])
                for name in ("dpsgd", "dpsgd-momentum")
            }
            new = {name: timed(calibrate_noise, epsilon, args.delta, schedules[name]) for name in old}
            lines += [
                "",
                f"Before (commit {BEFORE}: Opacus's scalar `compute_rdp` for every distinct z at every "
                f"probe) and now, ε = {epsilon:g}, one cold run each:",
                "",
                "| accounting | dpsgd | dpsgd-momentum | momentum / dpsgd |",
                "|---|---|---|---|",
                f"| before | {1e3 * old['dpsgd']:.0f} ms | {old['dpsgd-momentum']:.1f} s | "
                f"{old['dpsgd-momentum'] / old['dpsgd']:.0f}× |",
                f"| now | {1e3 * new['dpsgd']:.1f} ms | {1e3 * new['dpsgd-momentum']:.1f} ms | "
                f"{new['dpsgd-momentum'] / new['dpsgd']:.2f}× |",
            ]
    load_after = os.getloadavg()[0]
    lines += [
        "",
        f"Load average (1 min; a shared machine), start and end: {load_before:.1f}, {load_after:.1f}.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    write_section(Path(args.out), TITLE, text)


if __name__ == "__main__":
    main()
