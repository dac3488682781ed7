"""A sweep's ε must be true (docs/privacy.md), end to end on real Ray, Optuna and an MLflow
SQLite store.

Each test would have caught one defect of the review: trials sharing one public seed, a seeded sweep
not saying so, a trial count K that leaks, and a privacy filter that overspends or admits no more than
a fixed count would.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import torch
import yaml
from dp_accounting import dp_event
from dp_accounting.rdp.rdp_privacy_accountant import RdpAccountant
from mlflow.tracking import MlflowClient

from dptune.cli import main
from dptune.engine.data import load_dataset
from dptune.privacy.accounting import RDP_ORDERS
from dptune.sweep.bound import bounded_searches
from dptune.sweep.ledger import PrivateSweepState
from dptune.sweep.spec import load_spec
from dptune.tracking.names import TUNING_COST_ARTIFACT
from dptune.tune.driver import run_sweep
from tests.helpers import subsampled_gaussian
from tests.sweep_helpers import runs, write_spec
from tests.test_randomness import correlation

FAST = {"epochs": 1, "batch_size": 128, "lr": 1.0, "physical_batch_size": 128}


def trainer_states(folder: Path) -> list[dict]:
    """The newest checkpointed trainer state of every trial under a sweep's Tune directory."""
    states = []
    for trial in sorted(p for p in folder.iterdir() if p.is_dir()):
        checkpoints = sorted(trial.glob("checkpoint_*/trainer_state.pt"))
        if checkpoints:
            states.append(torch.load(checkpoints[-1], weights_only=False))
    return states


def test_trials_with_identical_settings_draw_independent_secret_randomness(tmp_path: Path, local_ray) -> None:
    path = write_spec(tmp_path, "secret", {"dpsgd": {}}, training=FAST)  # every knob fixed: 2 twin trials
    spec = load_spec(path)
    lines: list[str] = []
    run_sweep(spec, path.read_text(), echo=lines.append)

    a, b = trainer_states(Path(spec.storage_path) / "secret" / "trials")
    assert not torch.equal(a["theta"], b["theta"])  # different θ₀, batches and noise: not one run twice
    d, n = len(a["theta"]), 1437
    noise = [torch.normal(0, 1, (d,), generator=torch.Generator().set_state(s["noise"][0])) for s in (a, b)]
    assert abs(correlation(*noise)) < 5 / math.sqrt(d)  # their next releases' noise is independent
    batches = [torch.rand(n, generator=torch.Generator().set_state(s["sampler"])) < 0.09 for s in (a, b)]
    assert not torch.equal(*batches)

    parents, children = runs(spec.tracking_uri, "secret")
    assert parents[0].data.tags["noise_source"] == "secure"
    for run in (*parents, *children):
        assert "seed" not in run.data.params and "dptune.seed" not in run.data.tags  # no seed recorded
    assert all(c.data.tags["dptune.noise_source"] == "secure" for c in children)
    assert any(line.startswith("randomness: secure") for line in lines)


def test_a_seeded_sweep_seeds_each_trial_apart_and_says_so_everywhere(
    tmp_path: Path, local_ray, capsys
) -> None:
    path = write_spec(tmp_path, "seeded", {"dpsgd": {}}, training={**FAST, "seed": 5})
    spec = load_spec(path)
    lines: list[str] = []
    run_sweep(spec, path.read_text(), echo=lines.append)

    a, b = trainer_states(Path(spec.storage_path) / "seeded" / "trials")
    assert not torch.equal(a["theta"], b["theta"])  # each trial its own seed: reproducible, yet never shared
    parents, children = runs(spec.tracking_uri, "seeded")
    assert parents[0].data.tags["noise_source"] == "seeded"
    assert {c.data.tags["dptune.noise_source"] for c in children} == {"seeded"}
    for run in (*parents, *children):  # a seed lets whoever has it regenerate the noise: never recorded
        assert "seed" not in run.data.params and "dptune.seed" not in run.data.tags
    client = MlflowClient(spec.tracking_uri)
    stored = Path(client.download_artifacts(parents[0].info.run_id, "spec.yaml", str(tmp_path)))
    assert "seed" not in yaml.safe_load(stored.read_text())["training"]
    assert sum("SEEDED" in line for line in lines) == 2  # the summary's first and last lines
    closing = lines[next(i for i, line in enumerate(lines) if "best trade-offs" in line) :]
    stated = [line for line in closing if re.search(r"ε\s*[=≤]\s*[0-9]|δ\s*[=≤]", line)]
    assert not stated, stated  # no (ε, δ) of the search or its re-runs: none holds with a known seed
    assert "epsilon_including_tuning" not in parents[0].data.metrics
    assert TUNING_COST_ARTIFACT not in {a.path for a in client.list_artifacts(parents[0].info.run_id)}
    assert main(["report", "--tracking-uri", spec.tracking_uri, "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {row["noise_source"] for row in report["best_tradeoffs"]} == {"seeded"}
    assert main(["report", "--tracking-uri", spec.tracking_uri]) == 0
    assert "seeded" in capsys.readouterr().out


def test_the_trial_count_is_drawn_secretly_and_kept_for_resume(tmp_path: Path) -> None:
    """K is drawn from OS entropy: the spec (its search seed included) does not determine it."""
    count = {"distribution": "poisson", "mean": 8}
    path = write_spec(
        tmp_path,
        "k",
        {"dpsgd": {}},
        training=FAST,
        budget={"trials_per_method": count, "max_concurrent": 1},
        search={"sampler": "random"},
    )
    spec = load_spec(path)
    data = load_dataset("digits")
    n = len(data.train_y)
    draws = []
    for index in range(12):
        state = PrivateSweepState(str(tmp_path / f"store{index}"), spec.name)
        first = bounded_searches(spec.search_setup(), n, 1e-4, state)[0].trials
        again = bounded_searches(spec.search_setup(), n, 1e-4, state)[0].trials
        assert again == first  # the same K on resume
        draws.append(first)
    assert len(set(draws)) > 1, draws


def test_a_privacy_filter_stays_within_its_total_and_admits_more_than_fixed_count_composition(
    tmp_path: Path, local_ray
) -> None:
    total, delta = 5.0, 1e-4
    # seeded, one trial at a time: ASHA's stops, which the filter's room depends on, the same on every run
    path = write_spec(
        tmp_path,
        "filter",
        {"dpsgd": {"lr": {"loguniform": [0.01, 3.0]}}},
        privacy={"epsilon": 2.0, "delta": delta, "total_epsilon": total},
        training={"epochs": 4, "batch_size": 128, "lr": 1.0, "physical_batch_size": 128, "seed": 0},
        budget={"trials_per_method": 40, "max_concurrent": 1},
        scheduler={"name": "asha", "grace_period": 1},
        search={"sampler": "random", "seed": 3},
        selection={"reruns": 1},
    )
    spec = load_spec(path)
    outcome = run_sweep(spec, path.read_text(), echo=lambda line: None)
    parents, children = runs(spec.tracking_uri, "filter")
    reruns = [c for c in children if c.data.tags["dptune.role"] == "final"]
    assert len(reruns) == 1  # the re-run was reserved before the search admitted its trials
    n = int(parents[0].data.params["train_size"])
    q, full_steps = 128 / n, 4 * math.ceil(n / 128)

    def epsilon(events: list[dp_event.DpEvent]) -> float:
        return RdpAccountant(list(RDP_ORDERS)).compose(dp_event.ComposedDpEvent(events)).get_epsilon(delta)

    sigmas = {c.data.metrics["noise_multiplier"] for c in children}
    assert len(sigmas) == 1  # one plan (batch size and epochs fixed): every trial has the same σ
    full = subsampled_gaussian(sigmas.pop(), q, full_steps)
    fixed_count = 0
    while epsilon([full] * (fixed_count + 1)) <= total:
        fixed_count += 1

    admitted = [
        subsampled_gaussian(c.data.metrics["noise_multiplier"], q, int(c.data.metrics["steps"]))
        for c in children
    ]
    assert all(c.data.tags["dptune.status"] in ("finished", "stopped") for c in children)
    assert epsilon(admitted) <= total  # independent composition of every admitted trial and the re-run
    assert len(children) > fixed_count >= 1  # ASHA's stopped trials gave back what they did not spend
    assert "stopped" in {c.data.tags["dptune.status"] for c in children}
    assert len(children) < 40  # the filter, not the trial cap, ended the search

    assert "total_epsilon" not in parents[0].data.metrics  # seeded: its run states no figure
    cost = outcome.tuning_cost.as_dict()  # what the same sweep with secret randomness would state
    assert cost["total_epsilon"] == total and outcome.tuning_cost.epsilon_including_tuning == total
    assert cost["epsilon_used"] <= total
    records = PrivateSweepState(spec.storage_path, spec.name).trials("dpsgd")
    searched = [r for r in records if r.role == "search"]
    assert len(records) == len(children) and all(r.spent is not None for r in searched)
    assert np.isfinite([r.spent for r in searched]).all()
    assert [r.spent for r in records if r.role == "final"] == [None]  # a re-run counts its whole plan
