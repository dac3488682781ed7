"""Real multi-node Ray clusters on this machine (``ray start`` processes) for end-to-end tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

from cluster_local import cluster_processes, free_port, stop

BIN = Path(sys.executable).parent


class LocalCluster:
    """A Ray head started with ``ray start --head`` in its own temp dir, and workers joined to it.

    ``env`` is the environment a driver uses to join it (``RAY_ADDRESS`` set: not ``auto``, which reads
    /tmp/ray rather than this temp dir). ``stop`` ends only this cluster's processes, not ``ray stop``:
    that would stop every Ray process on the machine, a user's running sweep included.
    """

    def __init__(self, cpus: float, gpus: float = 0) -> None:
        self.base_env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
        self.temp_dir = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # short: socket paths are limited
        head = self._ray(
            "--head",
            f"--port={free_port()}",
            f"--temp-dir={self.temp_dir}",
            f"--num-cpus={cpus:g}",
            f"--num-gpus={gpus:g}",
            "--include-dashboard=false",
        )
        self.address = re.search(r"--address='([^']+)'", head).group(1)
        self.env = {**self.base_env, "RAY_ADDRESS": self.address}
        self.nodes = 1

    def _ray(self, *args: str) -> str:
        return subprocess.run(
            [str(BIN / "ray"), "start", *args, "--disable-usage-stats"],
            env=self.base_env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout

    def add_worker(self, cpus: float, gpus: float = 0, wait: bool = True) -> None:
        """Join a worker node; with ``wait``, return once the scheduler sees it (``ray start`` returns
        before a worker's resources reach the scheduler)."""
        self._ray(f"--address={self.address}", f"--num-cpus={cpus:g}", f"--num-gpus={gpus:g}")
        self.nodes += 1
        if wait:
            self.wait_for_nodes(self.nodes)

    def wait_for_nodes(self, count: int) -> None:
        probe = (
            "import ray, sys, time\n"
            f"ray.init(address={self.address!r}, logging_level='ERROR')\n"
            "deadline = time.time() + 120\n"
            f"while sum(n['Alive'] for n in ray.nodes()) < {count}:\n"
            "    if time.time() > deadline: sys.exit('nodes did not come up')\n"
            "    time.sleep(0.5)\n"
        )
        subprocess.run([sys.executable, "-c", probe], env=self.env, timeout=180, check=True)

    def head_node_id(self) -> str:
        """The Ray node ID of the head (what a trial's ``dptune.node`` tag names where it ran there)."""
        probe = (
            "import ray\n"
            "ray.init(logging_level='ERROR')\n"
            "print(next(n['NodeID'] for n in ray.nodes() if 'node:__internal_head__' in n['Resources']))\n"
        )
        return subprocess.run(
            [sys.executable, "-c", probe],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout.strip()

    def running(self) -> bool:
        return bool(cluster_processes(self.temp_dir))

    def stop(self) -> None:
        stop(self.temp_dir)


class Watched:
    """A process whose output (stdout and stderr together) is read into ``lines`` while it runs."""

    def __init__(self, command: list[str], **popen: object) -> None:
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            **popen,  # type: ignore[call-overload]
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=lambda: self.lines.extend(self.process.stdout), daemon=True)
        self._reader.start()

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def wait(self, timeout: float) -> int:
        """Its exit code, once it and its reader have ended."""
        code = self.process.wait(timeout=timeout)
        self._reader.join(timeout=10)
        return code


def wait_for_checkpoints(trials: Path, count: int, driver: Watched, seconds: float) -> None:
    """Until ``count`` trials under ``trials`` (a sweep's Tune run) have a checkpoint each, while
    ``driver`` runs, at most ``seconds``."""
    deadline = time.time() + seconds
    while sum(any(t.glob("checkpoint_*")) for t in trials.glob("dptune_sweep_*")) < count:
        assert driver.process.poll() is None and time.time() < deadline, driver.output[-3000:]
        time.sleep(0.5)


def restarts(trials: Path) -> list[list[tuple[int, datetime]]]:
    """The failures Tune wrote for each trial it restarted under ``trials`` (its error files): the count of
    the trial's failures at each (``Failure # N``) and when it occurred (to the second)."""
    return [
        [(int(n), datetime.strptime(at, "%Y-%m-%d_%H-%M-%S")) for n, at in FAILURE.findall(p.read_text())]
        for p in trials.rglob("error.txt")
    ]


FAILURE = re.compile(r"Failure # (\d+) \(occurred at (\S+)\)")

RESTARTED = re.compile(r"(\d+) trials? restarted from (?:its|their) last checkpoint \((\d+) after a lost")
"""The summary's count of restarted trials and of their restarts after a lost node or process."""
