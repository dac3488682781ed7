"""Resuming a sweep's Tune run: what Tune needs saved, and when a saved experiment can be restored."""

from __future__ import annotations

import json
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.fs

CHECKPOINTS_KEPT = 2
"""A trial's newest checkpoint deletes the oldest before the step's experiment-state save: keeping two
means the state a killed driver left behind never names a deleted checkpoint."""


def save_experiment_state_every_step() -> None:
    """Make Tune save its experiment state (trials, searcher) at the end of every controller step.

    Tune's default ("auto") saves at most every 10 s, so a driver killed in between loses the trials
    started or finished since: ``Tuner.restore`` would run them again under new ids. Saving every step
    costs a few milliseconds (a small JSON and the pickled searcher) and, with ``TrialRecorder``
    writing only after the save, keeps the tracker and the restorable state in step. Ray offers no API for
    this period; the environment variable is read when ``Tuner.fit`` builds its controller.
    """
    os.environ["TUNE_GLOBAL_CHECKPOINT_S"] = "0"


STATE_FILES: dict[str, Callable[[bytes], Any]] = {
    "experiment_state-": json.loads,
    "search_gen_state-": pickle.loads,
    "searcher-state-": pickle.loads,
}
"""The files a sweep's Tune run restores from (its trials, and its searchers' state), each with a
reader that fails on a partial file."""


def restorable(path: str) -> bool:
    """Whether a sweep's Tune run can be restored from ``path``; an unusable one is cleared instead.

    ``Tuner.can_restore`` only looks for ``tuner.pkl``, which the Tuner writes before any state, and
    Ray copies its states to storage non-atomically: a driver killed before the first copy, or during
    one, leaves missing or truncated files from which Tune "restores" a search of one trial.
    Restorable here means ``tuner.pkl`` and the newest of each of ``STATE_FILES`` are there and complete.
    Otherwise the directory is emptied and the sweep's Tune run starts afresh; the runs of its earlier trials
    are then marked lost in the tracker (``TrialRecorder``) and still count in the tuning cost.
    ``path`` is a storage URI (``s3://…``) or a local path, a relative one taken from the working directory.
    """
    fs, fs_path = pyarrow.fs.FileSystem.from_uri(path if "://" in path else os.path.abspath(path))
    try:
        names = {Path(info.path).name for info in fs.get_file_info(pyarrow.fs.FileSelector(fs_path))}
    except FileNotFoundError:
        return False

    def complete(prefix: str) -> bool:
        found = sorted(name for name in names if name.startswith(prefix))
        if not found:
            return False
        with fs.open_input_stream(f"{fs_path}/{found[-1]}") as stream:
            content = stream.read()
        try:
            STATE_FILES[prefix](content)
        except Exception:  # any failure to read it back: truncated or empty
            return False
        return True

    started = "tuner.pkl" in names and all(complete(prefix) for prefix in STATE_FILES)
    if not started:
        fs.delete_dir_contents(fs_path, missing_dir_ok=True)
    return started
