"""A real MLflow tracking server on loopback, for tests and ``bench/``: ``mlflow server`` on a free port
over a SQLite file or a throwaway PostgreSQL cluster (Debian's ``postgresql``), killed and started
again at will."""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from cluster_local import free_port


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (``initdb``, ``pg_ctl``), newest version first."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def postgres_driver() -> str | None:
    """SQLAlchemy's name of the PostgreSQL driver installed (psycopg 3, else psycopg2)."""
    return next((name for name in ("psycopg", "psycopg2") if importlib.util.find_spec(name)), None)


def postgres_unavailable() -> str | None:
    """Why a throwaway PostgreSQL cluster cannot be started here; None if it can."""
    if postgres_bin() is None:
        return "PostgreSQL is not installed (Debian: apt-get install postgresql; `make setup` as root does)"
    if postgres_driver() is None:
        return "no PostgreSQL driver for SQLAlchemy: pip install 'psycopg[binary]'"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a 'postgres' user to run the cluster as"
    return None


def _as_owner(command: list[str]) -> list[str]:
    """``command`` run as the cluster's owner: ``postgres`` when we are root (initdb refuses root)."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """A PostgreSQL cluster on 127.0.0.1 (free port, trust login, no fsync) with a database ``mlflow``;
    yields its SQLAlchemy URI and removes the cluster afterwards."""
    binaries, driver = postgres_bin(), postgres_driver()
    assert binaries is not None and driver is not None, postgres_unavailable()
    folder = Path(tempfile.mkdtemp(prefix="dptune-pg-"))  # not under pytest's tmp: the owner must reach it
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    port = free_port()
    data = folder / "data"
    subprocess.run(
        _as_owner([str(binaries / "initdb"), "-D", str(data), "--auth=trust", "-U", "postgres", "--no-sync"]),
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    pg_ctl = [str(binaries / "pg_ctl"), "-D", str(data), "-w"]
    start = [*pg_ctl, "-o", options, "-l", str(folder / "log"), "start"]
    subprocess.run(_as_owner(start), check=True, capture_output=True)
    try:
        createdb = [str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres"]
        subprocess.run(_as_owner([*createdb, "mlflow"]), check=True, capture_output=True)
        yield f"postgresql+{driver}://postgres@127.0.0.1:{port}/mlflow"
    finally:
        subprocess.run(_as_owner([*pg_ctl, "-m", "immediate", "stop"]), check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


class MlflowServer:
    """``mlflow server`` for ``backend`` on 127.0.0.1, its artifacts and log in ``folder``; the same
    port across restarts. ``kill`` is a crash (SIGKILL to the server's process group)."""

    def __init__(self, backend: str, folder: Path, app_name: str | None = None) -> None:
        self.backend = backend
        self.folder = folder
        self.app_name = app_name  # an ``mlflow.app`` entry point (``--app-name``), e.g. dptune's
        self.port = free_port()
        self.log = folder / "server.log"
        self._process: subprocess.Popen | None = None
        folder.mkdir(parents=True, exist_ok=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 240.0) -> None:
        """Start it and wait until it answers ``/health``."""
        command = [
            str(Path(sys.executable).parent / "mlflow"),
            "server",
            "--backend-store-uri",
            self.backend,
            "--artifacts-destination",
            str(self.folder / "artifacts"),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--workers",
            "1",
            *(["--app-name", self.app_name] if self.app_name else []),
        ]
        # No job runner processes; the access log written as it happens (``requests``).
        env = os.environ | {"MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false", "PYTHONUNBUFFERED": "1"}
        with self.log.open("a") as log:
            self._process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"mlflow server exited: {self.log.read_text()[-3000:]}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/health", timeout=2) as answer,
            ):
                if answer.status == 200:
                    return
            time.sleep(0.2)
        self.kill()
        raise RuntimeError(f"mlflow server did not start in {timeout:.0f} s: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        if self._process is not None and self._process.poll() is None:
            os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait()
        self._process = None

    def requests(self) -> list[str]:
        """The requests the server has logged, e.g. ``"POST /api/2.0/mlflow/runs/log-batch HTTP/1.1"``."""
        return [line.split('"')[1] for line in self.log.read_text().splitlines() if ' HTTP/1.1" ' in line]

    def __enter__(self) -> MlflowServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()
