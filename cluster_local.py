"""Rehearse a sweep on a Ray cluster before paying for one: a fake multi-node Ray cluster on this machine,
with Ray's autoscaler and the node types of cluster.yaml (``cluster-local.yaml``).

    .venv/bin/python cluster_local.py up      # prints what to export: RAY_ADDRESS, the job API
    .venv/bin/python cluster_local.py down    # stops only what `up` started

``up`` starts a head (no trial resources) with the autoscaler of ``cluster-local.yaml`` and Ray's fake
multi-node provider (``RAY_FAKE_CLUSTER=1``), which starts each worker it is asked for as Ray processes on
this machine, in the head's temporary folder (each with a folder of runtime environments of its own:
``cluster_local_provider.py``); its dashboard serves the job API (``ray job submit``) on
loopback. Authentication is off: every address is this machine's. ``down`` stops every process with a
command line or an open file in that folder (the dashboard and runtime-environment agents rename
themselves), then removes it: never ``ray stop``, which would stop every Ray on the machine, a user's
running sweep included. What ``up`` started is kept in ``STATE`` until ``down``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent
CONFIG = ROOT / "cluster-local.yaml"
STATE = Path(tempfile.gettempdir()) / "dptune-cluster-local.json"
RAY = Path(sys.executable).parent / "ray"
AGENT_WAIT_S = 180.0
"""How long ``up`` waits for the head's dashboard agent, through which Ray's job API submits every job."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def node_ip() -> str:
    """This machine's address as Ray's nodes take it (the fake provider points its workers there)."""
    from ray.util import get_node_ip_address

    return str(get_node_ip_address())


def up(config: Path = CONFIG, state_file: Path = STATE) -> dict[str, str]:
    """Start the head with the autoscaler of ``config``; what ``down`` stops, also kept in ``state_file``."""
    if state_file.exists():
        raise SystemExit(f"cluster_local: error: a rehearsal cluster is up ({state_file}); stop it: down")
    port, dashboard, agent = free_port(), free_port(), free_port()
    ip = node_ip()
    folder = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # short: socket paths are limited
    doc = yaml.safe_load(config.read_text())
    doc["provider"]["gcs_address"] = f"{ip}:{port}"
    resolved = Path(folder) / "cluster-local.yaml"
    resolved.write_text(yaml.safe_dump(doc))
    head = doc["available_node_types"][doc["head_node_type"]]["resources"]
    fake = {"RAY_FAKE_CLUSTER": "1", "AUTOSCALER_UPDATE_INTERVAL_S": "1", "RAY_AUTH_MODE": "disabled"}
    importable = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))  # the provider
    env = {**os.environ, **fake, "PYTHONPATH": importable}
    done = subprocess.run(
        [
            str(RAY), "start", "--head", f"--port={port}", f"--temp-dir={folder}",
            f"--num-cpus={head.get('CPU', 0):g}", f"--num-gpus={head.get('GPU', 0):g}",
            "--include-dashboard=true", "--dashboard-host=127.0.0.1", f"--dashboard-port={dashboard}",
            f"--dashboard-agent-listen-port={agent}",
            f"--autoscaling-config={resolved}", "--disable-usage-stats",
        ],
        env=env, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    state = {"address": f"{ip}:{port}", "jobs": f"http://127.0.0.1:{dashboard}", "folder": folder}
    if done.returncode != 0:
        stop(folder)
        raise SystemExit(f"cluster_local: error: the head did not start: {done.stderr.strip()[-2000:]}")
    if not answers(f"http://{ip}:{agent}/api/healthz", AGENT_WAIT_S):
        stop(folder)
        raise SystemExit(
            f"cluster_local: error: the head's dashboard agent did not answer within {AGENT_WAIT_S:g} s "
            f"(its log: {folder}/session_latest/logs/dashboard_agent.log); try up again on a quieter machine"
        )
    state_file.write_text(json.dumps(state))
    return state


def answers(url: str, within: float) -> bool:
    """Whether ``url`` answers 200 within ``within`` seconds. ``ray start`` returns before the head's
    dashboard agent serves, and a job submitted before it does is refused ("No available agent to submit
    job"): the agent registers itself with the job API as soon as it serves."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=5) as reply:  # URLError too
            if reply.status == 200:
                return True
        time.sleep(0.5)
    return False


def cluster_processes(folder: str) -> list[int]:
    """Every process whose command line names ``folder`` or that holds a file open in it."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            named = folder in (proc / "cmdline").read_bytes().decode(errors="replace")
            holds = named or any(os.readlink(fd).startswith(folder) for fd in (proc / "fd").iterdir())
        except (FileNotFoundError, PermissionError, ProcessLookupError):
            continue
        if holds:
            found.append(int(proc.name))
    return found


def stop(folder: str) -> None:
    """End the processes of the cluster kept in ``folder`` (SIGTERM, then SIGKILL), and remove it."""
    for sign, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 30.0)):
        deadline = time.monotonic() + wait
        while (left := cluster_processes(folder)) and time.monotonic() < deadline:
            for pid in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sign)
            time.sleep(0.5)
    shutil.rmtree(folder, ignore_errors=True)


def down(state_file: Path = STATE) -> None:
    """Stop what ``up`` started (nothing else), and forget it."""
    if not state_file.exists():
        raise SystemExit("cluster_local: error: no rehearsal cluster is up (nothing to stop)")
    stop(json.loads(state_file.read_text())["folder"])
    state_file.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["up", "down"])
    args = parser.parse_args()
    if args.command == "down":
        down()
        print("cluster_local: stopped")
        return
    state = up()
    print(
        "cluster_local: a head without trial resources is up; GPU workers join when a sweep asks for them\n"
        f"export RAY_ADDRESS={state['address']} RAY_AUTH_MODE=disabled   # `dptune run` joins it\n"
        f"ray job submit --address {state['jobs']} --working-dir . -- dptune run SPEC   # or submit a job\n"
        "stop it with: .venv/bin/python cluster_local.py down"
    )


if __name__ == "__main__":
    main()
