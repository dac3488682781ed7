"""Where a sweep keeps its Optuna studies (one per method): a journal file on the driver's disk.

Beside the Tune experiments when they are local, else under ``~/.dptune/optuna``. Ray's OptunaSearch
writes every trial there as it is asked and told, so an interrupted sweep resumes with its model and a
later sweep can warm-start from it (``dptune.tune.warm_start``). Internal, like the private state: it
holds every trial's configuration and score.
"""

from __future__ import annotations

from pathlib import Path

from optuna.storages import JournalStorage
from optuna.storages.journal import JournalFileBackend

JOURNAL_FILE = "optuna-journal.log"


def journal_path(storage_path: str, name: str) -> Path:
    """The journal file of sweep ``name`` under ``storage_path``."""
    folder = (
        Path(storage_path) / name if "://" not in storage_path else Path.home() / ".dptune" / "optuna" / name
    )
    return folder / JOURNAL_FILE


def study_storage(storage_path: str, name: str) -> JournalStorage:
    """The journal storage of sweep ``name`` (its folder made if need be)."""
    path = journal_path(storage_path, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    return JournalStorage(JournalFileBackend(str(path)))
