"""Benchmark: the privacy of an ASHA sweep, before and after the sweep-privacy fix, and what a filter buys.

One Fashion-MNIST-like sweep (a 10,000-image Fashion-MNIST subset, cnn5, DP-SGD at ε = 1 per trial,
δ = 1e-5, TPE with 3 start-up trials over lr and batch size, ASHA with grace period 1, 8 trials):

* the **odometer** the old code reported: RDP composition of the steps each trial actually took (ASHA
  stopped some because of their scores, so this figure depends on the data: not an (ε, δ) bound);
* the composition of every trial's own full plan, both by dp-accounting (independent of dptune);
* the **valid bound** the sweep now reports: every started trial at the worst full plan W of the search.

Then the same sweep with ``privacy.total_epsilon`` set to that valid bound and a cap of 48 trials: how
many trials the Rényi filter admits, against the fixed count of full plans that composition fits in
the same total (8 by construction), and the independent composition of what it admitted.

    python bench/sweep_bound.py [--out bench/RESULTS.md]   (about 10 minutes on 2 cores)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import platform
import tempfile
from pathlib import Path
from typing import Any

import yaml
from dp_accounting import dp_event
from dp_accounting.rdp.rdp_privacy_accountant import RdpAccountant
from mlflow.tracking import MlflowClient
from results import cpu_name, experiment_id, write_section  # bench/ is on the path in a script

from dptune.privacy.accounting import RDP_ORDERS
from dptune.privacy.filter import runs_that_fit
from dptune.sweep.spec import load_spec
from dptune.tracking.names import PARENT_TAG, STATUS_TAG
from dptune.tune.driver import run_sweep

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Sweep privacy: an ASHA sweep's bound, and a privacy filter at the same total"
DELTA = 1e-5
EPOCHS = 6


def spec_doc(folder: Path, name: str, total: float | None, trials: int) -> dict[str, Any]:
    privacy: dict[str, Any] = {"epsilon": 1.0, "delta": DELTA}
    if total is not None:
        privacy["total_epsilon"] = total
    return {
        "name": name,
        "dataset": {"name": "fashion-mnist", "subset": 10000},
        "model": {"name": "cnn5"},
        "privacy": privacy,
        "training": {"epochs": EPOCHS, "lr": 0.5, "clip": 1.0, "batch_size": 500},
        "budget": {"trials_per_method": trials, "max_concurrent": 2},
        "resources": {"cpu": 1, "gpu": 0},
        "scheduler": {"name": "asha", "grace_period": 1},
        "search": {"sampler": "tpe", "seed": 0, "startup_trials": 3},
        "tracking": {"uri": f"sqlite:///{folder / 'mlflow.db'}", "experiment": name},
        "storage_path": str(folder / "ray_results"),
        "methods": {
            "dpsgd": {"lr": {"loguniform": [0.05, 4.0]}, "batch_size": {"choice": [250, 500]}},
        },
    }


def sweep(folder: Path, name: str, total: float | None, trials: int) -> tuple[Any, list, int]:
    """Run one sweep; (outcome, child runs, training-set size)."""
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(spec_doc(folder, name, total, trials)))
    spec = load_spec(path)
    outcome = run_sweep(spec, path.read_text(), echo=lambda line: print(line, flush=True))
    client = MlflowClient(spec.tracking_uri)
    experiment = experiment_id(client, name)
    children = [r for r in client.search_runs([experiment], max_results=1000) if PARENT_TAG in r.data.tags]
    parent = client.get_run(outcome.parent_run_id).data
    return outcome, children, int(parent.params["train_size"])


def composed(children: list, n: int, full: bool) -> float:
    """dp-accounting's ε of every child's ledger: its full plan, or the steps it took."""
    events = []
    for child in children:
        batch = int(json.loads(child.data.params["batch_size"]))
        steps = EPOCHS * math.ceil(n / batch) if full else int(child.data.metrics["steps"])
        gaussian = dp_event.GaussianDpEvent(child.data.metrics["noise_multiplier"])
        events.append(
            dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(batch / n, gaussian), steps)
        )
    accountant = RdpAccountant(list(RDP_ORDERS))
    return accountant.compose(dp_event.ComposedDpEvent(events)).get_epsilon(DELTA)


def measure() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        fixed, children, n = sweep(folder, "asha-fixed", None, 8)
        cost = fixed.tuning_cost.methods[0]
        valid = cost.epsilon_including_tuning
        filtered, admitted, _ = sweep(folder, "asha-filter", valid, 48)
        statuses = [c.data.tags[STATUS_TAG] for c in children]
        return {
            "trials": len(children),
            "stopped_early": statuses.count("stopped"),
            "odometer_old": composed(children, n, full=False),
            "full_plans": composed(children, n, full=True),
            "valid_bound": valid,
            "filter_total": valid,
            "fixed_count_at_total": runs_that_fit(valid, DELTA, cost.all_trials_curve / cost.started),
            "filter_admitted": len(admitted),
            "filter_stopped_early": [c.data.tags[STATUS_TAG] for c in admitted].count("stopped"),
            "filter_admitted_composed": composed(admitted, n, full=False),
            "filter_epsilon_used": filtered.tuning_cost.as_dict()["epsilon_used"],
            "wall_seconds": fixed.wall_seconds + filtered.wall_seconds,
        }


def section(result: dict[str, Any]) -> str:
    r = result
    return "\n".join(
        [
            SECTION,
            "",
            f"- date: {dt.date.today()}; machine: {r['machine']}; command: `python bench/sweep_bound.py`",
            f"- Fashion-MNIST subset of 10,000, cnn5, DP-SGD, ε = 1 per trial, δ = 1e-5, {EPOCHS} epochs, "
            "TPE (3 start-up trials) over lr and batch size {250, 500}, ASHA (grace 1), 2 at a time",
            "",
            "| figure | value |",
            "|---|---|",
            f"| trials (stopped early by ASHA) | {r['trials']} ({r['stopped_early']}) |",
            f"| old report: composition of the steps trials took (an odometer) | {r['odometer_old']:.2f} |",
            f"| composition of every trial's own full plan (dp-accounting) | {r['full_plans']:.2f} |",
            f"| **reported now**: every started trial at the search's worst full plan | "
            f"**{r['valid_bound']:.2f}** |",
            f"| filter at that total: full plans a fixed count fits | {r['fixed_count_at_total']} |",
            f"| filter at that total: trials admitted (stopped early) | {r['filter_admitted']} "
            f"({r['filter_stopped_early']}) |",
            f"| filter: composition of every admitted trial (dp-accounting) / ε used | "
            f"{r['filter_admitted_composed']:.2f} / {r['filter_epsilon_used']:.2f} |",
            "",
            f"Both sweeps took {r['wall_seconds'] / 60:.0f} min of wall time.",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS.md")
    args = parser.parse_args()
    result = measure() | {"machine": f"{cpu_name()}, 2 cores, Python {platform.python_version()}"}
    (ROOT / "bench" / "sweep_bound.json").write_text(json.dumps(result, indent=1) + "\n")
    write_section(args.out, SECTION, section(result))
    print(section(result))


if __name__ == "__main__":
    main()
