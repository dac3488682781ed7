"""What every benchmark shares: the machine's name, and replacing its own section of bench/RESULTS.md."""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from dptune.sweep.spec_parts import parse_trial_count

if TYPE_CHECKING:
    from mlflow.tracking import MlflowClient

    from dptune.privacy.tuning import TrialCount


def cpu_name() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def machine() -> str:
    """This machine as a measurement records it: the CPU, its cores and Python's version."""
    return f"{cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def fresh_process_env(code: Path) -> dict[str, str]:
    """The environment of a measured run in a fresh process: ``code``'s dptune first on the path, a
    local Ray of its own (no cluster address), Ray's token auth off for it."""
    env = {**os.environ, "PYTHONPATH": str(code), "RAY_AUTH_MODE": "disabled"}
    env.pop("RAY_ADDRESS", None)
    return env


def drawn_count(args: list[str], root: Path) -> TrialCount | None:
    """The random trial count the ``dptune`` command ``args`` runs with: its spec's (a path under ``root``)
    ``budget.trials_per_method`` as the spec's own parser reads it, where that is a distribution not
    overridden by ``--trials``; None where the count is fixed."""
    if args[0] != "run" or "--trials" in args:
        return None
    budget = yaml.safe_load((root / args[1]).read_text()).get("budget") or {}
    if "trials_per_method" not in budget:  # the spec's default: a fixed count
        return None
    count = parse_trial_count(budget["trials_per_method"], "budget.trials_per_method")
    return None if count.distribution == "fixed" else count


def secret_count(args: list[str], root: Path) -> bool:
    """Whether the ``dptune`` command ``args`` runs a search whose trial count is random (``drawn_count``).
    Such a search's ε holds only while its count stays secret, and a run's wall time or trial-hours grow
    with the count, so a record of it keeps neither."""
    return drawn_count(args, root) is not None


def experiment_id(client: MlflowClient, name: str) -> str:
    """The id of the MLflow experiment ``name``; exits naming it where the store has none."""
    found = client.get_experiment_by_name(name)
    if found is None:
        raise SystemExit(f"bench: no MLflow experiment {name!r} in {client.tracking_uri}: run a sweep first")
    return str(found.experiment_id)


def write_section(out: Path, title: str, text: str) -> None:
    """Replace the section of ``out`` headed ``title`` by ``text`` (or append it), keeping the others.

    A section runs from its ``## `` title to the next ``## `` title or the end of the file; ``text``
    starts with the title itself.
    """
    current = out.read_text() if out.exists() else "# Benchmark results\n"
    if title in current:
        head, rest = current.split(title, 1)
        tail = rest[rest.index("\n## ") :] if "\n## " in rest else "\n"
        current = head + text.rstrip("\n") + "\n" + tail
    else:
        current = current.rstrip("\n") + "\n\n" + text.rstrip("\n") + "\n"
    out.write_text(current)
