"""A real two-node Ray cluster on this machine with trials logging to a real `mlflow server` over HTTP,
and the cluster file checked by Ray's own schema validation."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
import yaml
from mlflow.tracking import MlflowClient
from ray.autoscaler._private.util import prepare_config, validate_config

from tests.sweep_helpers import runs, write_spec

ROOT = Path(__file__).parents[1]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_cluster_yaml_passes_rays_schema_validation() -> None:
    config = prepare_config(yaml.safe_load((ROOT / "cluster.yaml").read_text()))
    validate_config(config)
    workers = config["available_node_types"]["gpu_worker"]
    assert workers["resources"]["GPU"] == 1 and workers["min_workers"] >= 1
    assert any("mlflow server" in c for c in config["head_start_ray_commands"])


def stop_cluster(temp_dir: str) -> None:
    """Stop the Ray processes of one cluster: those whose command line names its temp dir.

    Not ``ray stop``: that stops every Ray process on the machine, a user's running sweep included.
    """
    for signal_name, wait in (("TERM", 10), ("KILL", 30)):
        subprocess.run(["pkill", f"-{signal_name}", "-f", temp_dir], check=False)
        deadline = time.time() + wait
        while time.time() < deadline and running(temp_dir):
            time.sleep(0.5)


def running(temp_dir: str) -> bool:
    return bool(subprocess.run(["pgrep", "-f", temp_dir], capture_output=True).stdout)


def wait_for_nodes(address: str, count: int, env: dict[str, str]) -> None:
    """Block until `count` nodes are alive in the cluster: `ray start` returns before a worker's
    resources reach the scheduler, and a sweep started earlier would place every trial on the head."""
    probe = (
        "import ray, sys, time\n"
        f"ray.init(address={address!r}, logging_level='ERROR')\n"
        "deadline = time.time() + 120\n"
        f"while sum(n['Alive'] for n in ray.nodes()) < {count}:\n"
        "    if time.time() > deadline: sys.exit('nodes did not come up')\n"
        "    time.sleep(0.5)\n"
    )
    subprocess.run([sys.executable, "-c", probe], env=env, timeout=180, check=True)


@pytest.fixture
def two_node_cluster(tmp_path: Path):
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    ray = str(BIN / "ray")
    port = free_port()
    temp_dir = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # short: Ray's socket paths have a length limit
    head = subprocess.run(
        [
            ray,
            "start",
            "--head",
            f"--port={port}",
            f"--temp-dir={temp_dir}",
            "--num-cpus=1",
            "--num-gpus=1",
            "--include-dashboard=false",
            "--disable-usage-stats",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    address = re.search(r"--address='([^']+)'", head.stdout).group(1)
    subprocess.run(
        [ray, "start", f"--address={address}", "--num-cpus=1", "--disable-usage-stats"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    try:
        wait_for_nodes(address, 2, env)
        yield {**env, "RAY_ADDRESS": address}  # not auto: that reads /tmp/ray, not this temp dir
    finally:
        stop_cluster(temp_dir)
        shutil.rmtree(temp_dir, ignore_errors=True)
    assert not running(temp_dir), "the test cluster outlived its test"


@pytest.fixture
def mlflow_server(tmp_path: Path):
    port = free_port()
    server = subprocess.Popen(
        [
            str(BIN / "mlflow"),
            "server",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--backend-store-uri",
            f"sqlite:///{tmp_path / 'server.db'}",
            "--artifacts-destination",
            str(tmp_path / "artifacts"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    uri = f"http://127.0.0.1:{port}"
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"{uri}/health", timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    else:
        server.kill()
        pytest.fail("mlflow server did not come up")
    yield uri
    os.killpg(server.pid, 15)
    server.wait(timeout=30)


def test_sweep_on_two_node_cluster_logs_to_mlflow_server(
    tmp_path: Path, two_node_cluster, mlflow_server
) -> None:
    path = write_spec(
        tmp_path,
        "cluster",
        {"dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}},
        training={"epochs": 3, "batch_size": 64, "lr": 1.0},
        budget={"trials_per_method": 4, "max_concurrent": 2},
        resources={"cpu": 1, "gpu": 0},
    )
    env = two_node_cluster
    proc = subprocess.run(
        [str(BIN / "dptune"), "run", str(path), "--tracking-uri", mlflow_server],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert len(re.findall(r"trial \d/4", proc.stdout)) == 4
    parents, children = runs(mlflow_server, "cluster")
    assert len(parents) == 1 and len(children) == 4
    assert all(c.data.tags["dptune.status"] == "finished" for c in children)
    client = MlflowClient(mlflow_server)
    assert "pareto_accuracy_vs_epsilon.png" in {a.path for a in client.list_artifacts(parents[0].info.run_id)}
    nodes = {c.data.tags["dptune.node"] for c in children}
    assert len(nodes) == 2, proc.stdout[-3000:]  # trials ran on both nodes
