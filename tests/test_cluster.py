"""The cluster file: valid by Ray's own schema and set up for real use (trials on workers only, services
on loopback, MLflow on PostgreSQL, a prebuilt image, token auth); the head's PostgreSQL setup run for
real; and a sweep on a real Ray cluster on this machine, head without trial resources as in
cluster.yaml, logging to a real `mlflow server` over HTTP."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import tomllib
from datetime import datetime
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

import jsonschema
import pytest
import yaml
from mlflow.tracking import MlflowClient
from ray.autoscaler._private.fake_multi_node.node_provider import FAKE_HEAD_NODE_ID

import cluster_local
from cluster_local import free_port
from tests.local_cluster import BIN, RESTARTED, LocalCluster, Watched, restarts, wait_for_checkpoints
from tests.mlflow_server import MlflowServer, postgres_bin
from tests.sweep_helpers import runs, write_spec

ROOT = Path(__file__).parents[1]
CONFIG = yaml.safe_load((ROOT / "cluster.yaml").read_text())


def command(commands: list[str], program: str) -> str:
    """The one command line in ``commands`` that runs ``program``."""
    (found,) = [line for line in commands if program in line]
    return found


def option(line: str, name: str) -> str:
    """The value of ``--name VALUE``, ``--name=VALUE`` or a leading ``NAME=VALUE`` in a command line."""
    words = shlex.split(line)
    for at, word in enumerate(words):
        if word == name:
            return words[at + 1]
        if word.startswith(f"{name}="):
            return word.split("=", 1)[1]
    raise AssertionError(f"{name} not in {line!r}")


def test_cluster_yaml_passes_rays_schema() -> None:
    # The schema Ray's cluster launcher checks a config against, as shipped in the ray package.
    schema = json.loads(resources.files("ray.autoscaler").joinpath("ray-schema.json").read_text())
    jsonschema.validate(CONFIG, schema)


def test_head_offers_no_resources_to_trials() -> None:
    nodes = CONFIG["available_node_types"]
    head = nodes[CONFIG["head_node_type"]]
    assert head["resources"].get("CPU") == 0 and head["resources"].get("GPU", 0) == 0
    workers = [node for name, node in nodes.items() if name != CONFIG["head_node_type"]]
    assert [node["resources"] for node in workers] == [{"CPU": 4, "GPU": 1}]


def test_local_state_is_not_shipped_to_the_nodes() -> None:
    assert {".git", ".venv", "mlflow.db", "mlruns", "ray_results"} <= set(CONFIG["rsync_exclude"])
    assert CONFIG["rsync_filter"] == [".gitignore"]


def test_services_listen_on_loopback_only() -> None:
    start = CONFIG["head_start_ray_commands"]
    assert option(command(start, "ray start --head"), "--dashboard-host") == "127.0.0.1"
    assert option(command(start, "mlflow server"), "--host") == "127.0.0.1"
    assert "0.0.0.0" not in (ROOT / "cluster.yaml").read_text()


def test_mlflow_keeps_runs_in_postgres_on_the_head_and_artifacts_on_shared_storage() -> None:
    server = command(CONFIG["head_start_ray_commands"], "mlflow server")
    store = urlsplit(option(server, "--backend-store-uri"))
    assert store.scheme.startswith("postgresql") and store.hostname == "127.0.0.1"
    assert store.password is None  # it comes from libpq's password file, written by the setup
    setup = command(CONFIG["head_setup_commands"], "docker/head-postgres.sh")
    assert option(server, "PGPASSFILE") == option(setup, "PGPASSFILE")
    assert option(setup, "PGDATA").startswith("/mnt/shared/")
    assert option(server, "--artifacts-destination").startswith("/mnt/shared/")


def test_nodes_run_the_prebuilt_image_and_ray_requires_the_token() -> None:
    docker = CONFIG["docker"]
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert docker["image"] and "cluster" in extras
    assert re.search(r"pip install .*\[cluster\]", (ROOT / "docker" / "Dockerfile").read_text())
    assert CONFIG["setup_commands"] == [] and CONFIG["worker_setup_commands"] == []  # nothing to install
    assert "--volume=/mnt/shared:/mnt/shared" in docker["run_options"]
    assert "--env=RAY_AUTH_MODE=token" in docker["run_options"]
    assert CONFIG["file_mounts"]["~/.ray/auth_token"] == "~/.ray/auth_token"


def test_gpu_workers_expose_their_gpu_to_the_container() -> None:
    """Ray adds ``--runtime=nvidia`` only where it detects NVIDIA's toolkit and never ``--gpus``, and
    NVIDIA's runtime shows no GPU to an image that does not ask for one: the GPU node type asks Docker for
    its GPUs and the image sets NVIDIA's variables (a node without them advertises a GPU nobody sees)."""
    worker = CONFIG["available_node_types"]["gpu_worker"]
    assert worker["resources"]["GPU"] >= 1
    assert "--gpus=all" in worker["docker"]["worker_run_options"]
    assert "--gpus=all" not in CONFIG["docker"]["run_options"]  # the CPU head would not start with it
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    assert re.search(r"NVIDIA_VISIBLE_DEVICES=all", dockerfile)
    assert re.search(r"NVIDIA_DRIVER_CAPABILITIES=compute,utility", dockerfile)


def test_every_node_reads_the_drivers_feature_cache_on_shared_storage() -> None:
    (cache,) = [o for o in CONFIG["docker"]["run_options"] if o.startswith("--env=DPTUNE_CACHE=")]
    assert cache.removeprefix("--env=DPTUNE_CACHE=").startswith("/mnt/shared/")


def test_a_fresh_ami_waits_for_apts_lock_and_the_laptop_installs_no_torch() -> None:
    apt = [line for line in CONFIG["initialization_commands"] if "apt-get" in line]
    assert apt and all(line.count("DPkg::Lock::Timeout=") == line.count("apt-get") for line in apt)
    wanted = [
        line.strip()
        for line in (ROOT / "docker" / "launcher-requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert not [line for line in wanted if re.match(r"(torch|dptune|mlflow)\b", line)]
    cluster = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(wanted) <= set(cluster["cluster"])  # the same pins as the image's Ray and boto3
    readme = (ROOT / "docs" / "cluster.md").read_text()
    assert "pip install -r docker/launcher-requirements.txt" in readme
    assert "--platform linux/amd64" in readme and "2049" in readme


@pytest.mark.skipif(
    postgres_bin() is None or os.geteuid() != 0,
    reason="needs Debian's postgresql, and root: the script runs as root on the head",
)
@pytest.mark.slow
def test_head_postgres_setup_makes_a_password_protected_database_on_loopback() -> None:
    psql = str(postgres_bin() / "psql")
    folder = Path(tempfile.mkdtemp(prefix="dptune-head-pg-"))  # not pytest's tmp: postgres must reach it
    folder.chmod(0o755)
    port = free_port()
    env = os.environ | {
        "PGDATA": str(folder / "data"),
        "PGPASSFILE": str(folder / "pass"),
        "PGPORT": str(port),
    }
    setup = ["bash", str(ROOT / "docker" / "head-postgres.sh")]

    def query(sql: str, passfile: Path) -> subprocess.CompletedProcess:
        uri = f"postgresql://mlflow@127.0.0.1:{port}/mlflow"
        return subprocess.run(
            [psql, uri, "--no-password", "-tAc", sql],
            env=os.environ | {"PGPASSFILE": str(passfile)},
            capture_output=True,
            text=True,
            check=False,
        )

    try:
        subprocess.run(setup, env=env, capture_output=True, timeout=120, check=True)
        subprocess.run(setup, env=env, capture_output=True, timeout=120, check=True)  # `ray up` again
        assert query("SHOW listen_addresses", folder / "pass").stdout.strip() == "127.0.0.1"
        assert re.fullmatch(r"127\.0\.0\.1:\*:mlflow:mlflow:[0-9a-f]{48}\n", (folder / "pass").read_text())
        assert (folder / "pass").stat().st_mode & 0o077 == 0
        assert query("SELECT 1", folder / "no-such-file").returncode != 0  # no password, no entry
        # A new head on the same shared storage: the server stopped, the setup run again.
        pg_ctl = [str(postgres_bin() / "pg_ctl"), "stop", "--wait", f"--pgdata={folder / 'data'}"]
        subprocess.run(["runuser", "-u", "postgres", "--", *pg_ctl], capture_output=True, check=True)
        subprocess.run(setup, env=env, capture_output=True, timeout=120, check=True)
        assert query("SELECT current_user", folder / "pass").stdout.strip() == "mlflow"
    finally:
        pg_ctl = [str(postgres_bin() / "pg_ctl"), "stop", "--mode=immediate", f"--pgdata={folder / 'data'}"]
        subprocess.run(["runuser", "-u", "postgres", "--", *pg_ctl], capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)


USER_MODEL = """
from torch import nn


def mlp(hidden=16):
    return nn.Sequential(nn.Flatten(), nn.Linear(64, hidden), nn.Tanh(), nn.Linear(hidden, 10))
"""


@pytest.mark.slow
def test_sweep_of_a_users_model_on_a_cluster_runs_trials_on_workers_and_logs_to_mlflow_server(
    tmp_path: Path,
) -> None:
    """The user's model module is on the driver's PYTHONPATH only: the worker node imports it because
    the sweep ships it (Ray's runtime environment, ``py_modules``), or every trial fails."""
    code = tmp_path / "code"
    code.mkdir()
    (code / "cluster_model.py").write_text(USER_MODEL)
    cluster = LocalCluster(cpus=0)  # as cluster.yaml's head: no trial resources
    try:
        cluster.add_worker(cpus=2)
        head = cluster.head_node_id()
        with MlflowServer(f"sqlite:///{tmp_path / 'server.db'}", tmp_path / "server") as server:
            path = write_spec(
                tmp_path,
                "cluster",
                {"dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}},
                model={"factory": "cluster_model:mlp", "args": {"hidden": 16}},
                training={"epochs": 3, "batch_size": 64, "lr": 1.0},
                budget={"trials_per_method": 4, "max_concurrent": 2},
                resources={"cpu": 1, "gpu": 0},
            )
            proc = subprocess.run(
                [str(BIN / "dptune"), "run", str(path), "--tracking-uri", server.url],
                cwd=tmp_path,
                env=cluster.env | {"PYTHONPATH": str(code)},
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            assert proc.returncode == 0, proc.stderr[-3000:]
            assert len(re.findall(r"trial \d/4", proc.stdout)) == 4
            parents, children = runs(server.url, "cluster")
            artifacts = MlflowClient(server.url).list_artifacts(parents[0].info.run_id)
    finally:
        cluster.stop()
    assert not cluster.running(), "the test cluster outlived its test"
    assert len(parents) == 1 and len(children) == 4
    assert all(c.data.tags["dptune.status"] == "finished" for c in children), proc.stdout[-3000:]
    assert {c.data.params["model"] for c in children} == {"cluster_model:mlp"}
    assert "pareto_accuracy_vs_epsilon.png" in {a.path for a in artifacts}
    nodes = {c.data.tags["dptune.node"] for c in children}
    assert head and head not in nodes, proc.stdout[-3000:]  # each trial ran on the worker


def raylet_of(node_id: str, temp_dir: str) -> int:
    """The PID of the raylet of node ``node_id`` of the cluster kept in ``temp_dir``."""
    pattern = f"raylet.*--node_id={node_id}.*{temp_dir}"
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True, check=False)
    (pid,) = found.stdout.split()
    return int(pid)


def cluster_nodes(temp_dir: str) -> list[str]:
    """The node ID of every raylet of the cluster kept in ``temp_dir``."""
    found = subprocess.run(
        ["pgrep", "-af", f"raylet.*{temp_dir}"], capture_output=True, text=True, check=False
    )
    return [
        arg.split("=", 1)[1]
        for line in found.stdout.splitlines()
        for arg in line.split()
        if arg.startswith("--node_id=")
    ]


@pytest.mark.slow
def test_the_cluster_rehearsal_scales_from_zero_runs_a_submitted_job_and_loses_no_trial_with_a_node(
    tmp_path: Path,
) -> None:
    """``cluster_local.py up`` (cluster-local.yaml: Ray's autoscaler and fake multi-node provider, a head
    without trial resources, GPU workers from zero): ``ray job submit --working-dir`` of a sweep of 4
    trials of 1 CPU + 0.25 GPU. Two workers join for them; one's raylet is killed while it holds two
    trials. The job succeeds, every trial and the re-run finished on a worker, MLflow holds one parent,
    every child and the registered model, the compute line counts the slots as they came and went;
    ``down`` leaves no process of the cluster."""
    state_file = tmp_path / "cluster-local.json"
    state = cluster_local.up(state_file=state_file)
    try:
        job = tmp_path / "job"
        job.mkdir()
        spec = write_spec(
            tmp_path,
            "rehearsal",
            {"dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}},
            training={"epochs": 400, "batch_size": 64, "lr": 1.0},
            budget={"trials_per_method": 4, "max_concurrent": 4},
            resources={"cpu": 1, "gpu": 0.25, "wait": 240, "gpu_fallback": "cpu"},
            selection={"reruns": 1},  # released, and registered in MLflow's model registry
        )
        shutil.move(spec, job / spec.name)  # the job ships its working folder; its stores are absolute
        submit = [str(BIN / "ray"), "job", "submit", "--address", state["jobs"], "--working-dir", str(job)]
        submitted = Watched(
            [*submit, "--", str(BIN / "dptune"), "run", spec.name],
            env={**os.environ, "RAY_AUTH_MODE": "disabled"},
        )
        trials = tmp_path / "ray_results" / "rehearsal" / "trials"
        wait_for_checkpoints(trials, 4, submitted, 420)
        workers = [node for node in cluster_nodes(state["folder"]) if node != FAKE_HEAD_NODE_ID]
        assert len(workers) == 2  # scaled from zero to the two the four trials need
        killed = datetime.now().replace(microsecond=0)
        os.kill(raylet_of(workers[0], state["folder"]), signal.SIGKILL)
        code = submitted.wait(timeout=900)
        store = f"sqlite:///{tmp_path / 'mlflow.db'}"
        parents, children = runs(store, "rehearsal")
        versions = MlflowClient(store).search_model_versions("name='rehearsal.dpsgd'")
    finally:
        cluster_local.down(state_file)
    output = submitted.output
    assert not cluster_local.cluster_processes(state["folder"]), "the rehearsal outlived its down"
    assert code == 0 and "succeeded" in output, output[-3000:]
    assert "a node that fits a trial joined after" in output  # from zero workers
    assert len(parents) == 1 and len(children) == 5, output[-3000:]  # 4 trials and the released re-run
    assert all(c.data.tags["dptune.status"] == "finished" for c in children), output[-3000:]
    assert len(versions) == 1  # the model registered
    assert FAKE_HEAD_NODE_ID not in {c.data.tags["dptune.node"] for c in children}  # all on workers
    assert "5 of the trials trained on the CPU although given 0.25 GPU" in output
    assert re.search(r"on [0-3] to 4 slots of 1 CPU \+ 0\.25 GPU", output), output[-3000:]
    failures = restarts(trials)
    assert all(count == 0 for f in failures for count, _ in f), failures  # no retry spent on a loss
    # the lost worker's trials (one may have ended first) each lost once to the kill, no retry placed on the
    # dying node, and none lost before it (each node unpacks the job in a folder of its own)
    assert all(at >= killed for f in failures for _, at in f), failures
    assert 1 <= len(failures) <= 2 and all(len(f) == 1 for f in failures), failures
    said = RESTARTED.search(output)
    assert said and said.groups() == (str(len(failures)), str(sum(len(f) for f in failures))), output[-3000:]
