"""Where trials run: per-node fit, and a sweep that waits for the GPU worker a growing cluster adds."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np
import pytest
import ray
import torch
from ray import cloudpickle
from ray.tune import ExperimentAnalysis

from dptune.engine.dataset import Dataset
from dptune.sweep.bound import BoundedSearch
from dptune.sweep.ledger import PrivateSweepState
from dptune.sweep.modes import PipelineSweep
from dptune.sweep.spec import load_spec
from dptune.tune.resources import SlotMeter, TrialResources, node_slots
from dptune.tune.sweep_run import SweepRun, _trainable
from tests.local_cluster import BIN, LocalCluster, Watched
from tests.sweep_helpers import write_spec


def test_a_trial_needs_one_node_that_fits_it_not_the_cluster_total() -> None:
    quarter = {"CPU": 1, "GPU": 0.25}
    assert node_slots({"CPU": 4, "GPU": 1}, quarter) == 4  # four quarter-GPU trials per GPU
    assert node_slots({"CPU": 2, "GPU": 1}, quarter) == 2  # ... if the node has a CPU for each
    assert node_slots({"CPU": 16}, quarter) == 0  # no GPU: no GPU trial
    assert node_slots({"CPU": 1, "GPU": 1}, {"CPU": 0.1, "GPU": 0.1}) == 10  # Ray's fixed point
    halves = [{"CPU": 4, "GPU": 0.5}, {"CPU": 4, "GPU": 0.5}]  # one GPU in all, on two nodes
    assert sum(node_slots(node, {"CPU": 1, "GPU": 1}) for node in halves) == 0


def test_the_trainable_tune_exports_holds_none_of_the_sweeps_data(tmp_path: Path, local_ray: None) -> None:
    """Ray exports the trainable's class, with the bundle of each trial, to every node and refuses one over
    95 MiB; the data go through the object store (``tune.with_parameters``), so the export stays small
    however large the data, and holds no secret subset."""
    spec = load_spec(
        write_spec(
            tmp_path,
            "export",
            {"dpsgd": {"lr": {"loguniform": [0.1, 1.0]}}},
            privacy={"epsilon": 3.0, "delta": 1.0e-5, "includes_tuning": True},
        )
    )
    images = torch.zeros(30_000, 1, 32, 32)  # 117 MiB
    labels = torch.zeros(30_000, dtype=torch.long)
    data = Dataset("large", images, labels, images[:10], labels[:10], images[:10], labels[:10], 10)
    secret_subset = torch.arange(0, 30_000, 2)
    sweep = SweepRun(
        spec=spec,
        mode=PipelineSweep(spec, {}),
        data=data,
        resources=TrialResources(1.0, 0.0, 4, 4.0),
        concurrency=None,
        state=PrivateSweepState(spec.storage_path, spec.name),
        filter=None,
        resume=False,
        warm_points={},
        proxy_rows=secret_subset,
    )
    plans = [BoundedSearch("dpsgd", 2, "plan", "", np.zeros(1), False)]
    assert len(cloudpickle.dumps(_trainable(sweep, plans))) < 2**20


def trial_windows(sweep: Path) -> list[dict]:
    """Every trial's method, start, end and node, from the last result Tune saved of it."""
    logging.getLogger("ray.tune").setLevel(logging.ERROR)  # no per-trial result files: Tune says so
    return [
        {
            "method": trial.config["method"],
            "status": trial.status,
            "start": trial.last_result.get("trial_start"),
            "end": trial.last_result.get("trial_end"),
            "node": trial.last_result.get("node_id"),
        }
        for experiment in sweep.iterdir()
        if experiment.is_dir()
        for trial in ExperimentAnalysis(str(experiment)).trials
    ]


def most_at_once(windows: list[dict]) -> int:
    events = sorted([(w["start"], 1) for w in windows] + [(w["end"], -1) for w in windows])
    now = best = 0
    for _, change in events:
        now += change
        best = max(best, now)
    return best


@pytest.mark.slow
def test_a_sweep_waits_for_a_gpu_worker_to_join_then_packs_four_trials_per_gpu(tmp_path: Path) -> None:
    cluster = LocalCluster(cpus=1, gpus=0)  # a head without GPUs, as right after `ray up`
    try:
        path = write_spec(
            tmp_path,
            "waits",
            {"dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}, "lp-dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}},
            training={"epochs": 80, "batch_size": 64, "lr": 1.0},  # ~10 s: long enough to overlap
            budget={"trials_per_method": 3},  # 3 + 3 trials for 4 slots: the methods must share
            # the worker declares a GPU this machine does not have: its trials train on the CPU, saying so
            resources={"cpu": 1, "gpu": 0.25, "wait": 240, "gpu_fallback": "cpu"},
        )
        driver = Watched([str(BIN / "dptune"), "run", str(path)], cwd=tmp_path, env=cluster.env)
        lines = driver.lines
        deadline = time.time() + 180
        while not any("waiting up to" in line for line in lines):
            assert driver.process.poll() is None, "".join(lines)[-3000:]
            assert time.time() < deadline, "the driver never said it was waiting"
            time.sleep(0.5)
        time.sleep(5)  # the worker joins a while after the sweep started waiting
        assert driver.process.poll() is None, "".join(lines)[-3000:]
        cluster.add_worker(cpus=4, gpus=1, wait=False)
        assert driver.wait(timeout=600) == 0, "".join(lines)[-3000:]
    finally:
        cluster.stop()
    output = "".join(lines)
    assert "joined after" in output
    assert "6 of the trials trained on the CPU although given 0.25 GPU" in output
    windows = trial_windows(tmp_path / "ray_results" / "waits")
    assert len(windows) == 6 and all(w["status"] == "TERMINATED" for w in windows), windows
    assert len({w["node"] for w in windows}) == 1  # all on the GPU worker: the head fits none
    assert most_at_once(windows) == 4  # four quarter-GPU trials shared the one GPU
    dpsgd = [w for w in windows if w["method"] == "dpsgd"]
    lp = [w for w in windows if w["method"] == "lp-dpsgd"]
    assert any(a["start"] < b["end"] and b["start"] < a["end"] for a in dpsgd for b in lp)  # side by side


@pytest.mark.slow
def test_the_slot_meter_counts_the_slots_a_growing_cluster_held_when_it_held_them() -> None:
    """A head of one CPU, then a worker of two joins: the meter's slot-seconds are the slots alive over
    time (1 until the worker joined, 3 after; it joins while ``add_worker`` runs), within a sampling
    period, as a cluster that grows is billed; the fewest and most slots are 1 and 3."""
    cluster = LocalCluster(cpus=1)
    try:
        ray.init(address=cluster.address, logging_level=logging.ERROR, log_to_driver=False)
        meter = SlotMeter({"CPU": 1.0}, None, every=0.2)
        started = time.monotonic()
        time.sleep(2)
        joining = time.monotonic()
        cluster.add_worker(cpus=2)  # returns once the scheduler sees it
        grown = time.monotonic()
        time.sleep(3)
        seconds = meter.stop()
        ended = time.monotonic()
    finally:
        ray.shutdown()
        cluster.stop()
    before, during, after = joining - started, grown - joining, ended - grown
    assert (meter.fewest, meter.most) == (1, 3)
    assert before + during + 3 * after - 3 * 0.2 <= seconds <= before + 3 * during + 3 * after + 0.2
