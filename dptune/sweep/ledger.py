"""A sweep's private state: what its privacy bound needs and no reader of the results may see.

Kept in ``{storage_path}/{name}/private_state.json`` beside the Tune experiments (also internal), it
holds, per method:

* the secret trial count K of a repeat-and-select search (drawn from OS entropy when the sweep starts,
  read back on resume; Papernot & Steinke's bound needs K secret);
* the secret key that breaks ties of the selection (``tie_key``) and each method's selected trial;
* a write-ahead record of every trial the search started, made *before* Tune receives the trial: a
  trial that touched the data is counted even if the driver is killed before Tune or MLflow saved it.
  A record is ``running`` until the trial ends; an ended one may carry the RDP curve of the steps it
  took (what a privacy filter gets back from a trial that was stopped early);
* a write-ahead record of every re-run of a method's selected configuration (``role: final``), made
  the same way before Tune receives it: each is one more release of a full run, counted at the worst
  plan even once it ended;
* a write-ahead record of every promoted trial of a pipeline's second rung (``role: promoted``), made the
  same way: a tuning trial counted at its whole plan;
* what the sweep started as (``started_as``: its spec, plan and data, ``dptune.sweep.resume``), and its
  secret draws (``kept_draw``: the noise of its majority-class baseline), so that a resume neither
  changes the sweep nor draws a second value that no count covers.

Only the sweep driver writes it, one whole-file replace per change (a few per trial), and every
read-modify-write holds the file's lock.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pyarrow.fs

FILE_NAME = "private_state.json"
STARTED_AS = "started_as"
"""The private state's key for what the sweep was when it started (``PrivateSweepState.started_as``)."""
_LOCKS: dict[str, threading.RLock] = {}
_LOCKS_GUARD = threading.Lock()
RUNNING = "running"
ENDED = "ended"
SEARCH = "search"
FINAL = "final"
PROMOTED = "promoted"
TUNE_RUN_ENDED = "stage_ended"
"""The private state's key that marks the sweep's Tune run ended whole (the name sweeps have stored it
under since before the glossary kept "stage" for a method's step: a sweep written then still resumes)."""


@dataclass(frozen=True)
class TrialRecord:
    """A started trial: ``spent`` is the RDP curve of the steps it took, None while unknown (running,
    failed, lost: then it counts its worst full plan); ``role`` is ``search`` (a trial of the search),
    ``promoted`` (a trial of a pipeline's second rung) or ``final`` (a re-run of the selected configuration);
    the last two always counted at their full plan."""

    trial_id: str
    state: str
    spent: np.ndarray | None
    role: str = SEARCH


def committed(records: list[TrialRecord], worst: np.ndarray) -> np.ndarray:
    """Σ over started trials of the RDP curve each spent (ended, known) or ``worst`` (running, failed,
    lost): what a search holds of its privacy budget."""
    return sum((worst if r.spent is None else r.spent for r in records), np.zeros_like(worst))


class Started(NamedTuple):
    """The trials a method's records say were started: search trials, re-runs, promoted trials."""

    searched: int
    finals: int
    promoted: int


def ledger_counts(records: list[TrialRecord]) -> Started:
    """What the records say was started (``Started``)."""
    finals = sum(r.role == FINAL for r in records)
    promoted = sum(r.role == PROMOTED for r in records)
    return Started(len(records) - finals - promoted, finals, promoted)


class PrivateSweepState:
    """Read-modify-write access to a sweep's private state file (local path or any pyarrow URI)."""

    def __init__(self, storage_path: str, name: str) -> None:
        self.uri = f"{storage_path}/{name}"  # the file system is opened per call: the object pickles

    def _where(self) -> tuple[pyarrow.fs.FileSystem, str]:
        fs, folder = pyarrow.fs.FileSystem.from_uri(self.uri)
        return fs, folder

    def read(self) -> dict[str, Any]:
        fs, folder = self._where()
        try:
            with fs.open_input_stream(f"{folder}/{FILE_NAME}") as stream:
                doc: dict[str, Any] = json.loads(stream.read())
                return doc
        except FileNotFoundError:
            return {"methods": {}}

    def _write(self, doc: dict[str, Any]) -> None:
        fs, folder = self._where()
        fs.create_dir(folder, recursive=True)
        partial = f"{folder}/{FILE_NAME}.partial"
        with fs.open_output_stream(partial) as stream:
            stream.write(json.dumps(doc).encode())
        fs.move(partial, f"{folder}/{FILE_NAME}")

    @contextmanager
    def _changing(self) -> Iterator[dict[str, Any]]:
        """The document, written back when the block ends; one writer at a time per file."""
        with _LOCKS_GUARD:
            lock = _LOCKS.setdefault(self.uri, threading.RLock())
        with lock:
            doc = self.read()
            yield doc
            self._write(doc)

    def _method(self, doc: dict[str, Any], method: str) -> dict[str, Any]:
        entry: dict[str, Any] = doc["methods"].setdefault(method, {"trials": {}})
        return entry

    def trial_count(self, method: str, draw: Callable[[], int]) -> int:
        """The method's K: read back, or drawn by ``draw`` and kept (the same K on every resume)."""
        with self._changing() as doc:
            entry = self._method(doc, method)
            if "trial_count" not in entry:
                entry["trial_count"] = int(draw())
        return int(entry["trial_count"])

    def proxy_subset_seed(self, draw: Callable[[], int]) -> int:
        """The seed of a tuning proxy's secret subset: read back, or drawn by ``draw`` and kept (every
        trial and every resume of the sweep trains on the same subset)."""
        with self._changing() as doc:
            if "proxy_subset_seed" not in doc:
                doc["proxy_subset_seed"] = int(draw())
        return int(doc["proxy_subset_seed"])

    def kept_draw(self, key: str, draw: Callable[[], float]) -> float:
        """A secret draw of the sweep's (the noise of its majority-class baseline on private held-out
        data): read back, or drawn by ``draw`` and kept, so that a resume releases the same value, not a
        second draw that no count covers."""
        with self._changing() as doc:
            draws = doc.setdefault("draws", {})
            if key not in draws:
                draws[key] = float(draw())
        return float(doc["draws"][key])

    def tie_key(self, draw: Callable[[], int]) -> int:
        """The sweep's secret key for breaking ties of a selection (``dptune.base.randomness.tie_rank``): read
        back, or drawn by ``draw`` and kept (a resume selects the same trial)."""
        with self._changing() as doc:
            if "tie_key" not in doc:
                doc["tie_key"] = int(draw())
        return int(doc["tie_key"])

    def kept_start(self) -> dict[str, Any] | None:
        """What the sweep was when it started, as ``started_as`` kept it (None: not started, or started by
        a dptune that kept none); read only."""
        kept: dict[str, Any] | None = self.read().get(STARTED_AS)
        return kept

    def started_as(self, identity: dict[str, Any]) -> dict[str, Any] | None:
        """What the sweep was when it started (``dptune.sweep.resume.resumable_identity``): read back, or
        ``identity`` kept on its first start (None then, and for a sweep started by a dptune that kept
        none, which is kept from now on; an entry an earlier dptune did not keep is added the same way)."""
        with self._changing() as doc:
            kept: dict[str, Any] | None = doc.get(STARTED_AS)
            if kept is None:
                doc[STARTED_AS] = identity
            else:  # what an earlier dptune did not keep (the data) is kept from this start on
                doc[STARTED_AS] = identity | kept
        return kept

    def select(self, method: str, trial_id: str, params: dict[str, Any]) -> None:
        """Record the method's selected search trial and its drawn settings (what a later sweep's warm
        start may use of a repeat-and-select search: the released configuration alone)."""
        with self._changing() as doc:
            self._method(doc, method)["selected"] = {"trial_id": trial_id, "params": params}

    def selected(self, method: str) -> dict[str, Any] | None:
        """``{"trial_id", "params"}`` of the method's selected trial, or None before its search ended."""
        selected: dict[str, Any] | None = self.read()["methods"].get(method, {}).get("selected")
        return selected

    def start(self, method: str, trial_id: str, role: str = SEARCH) -> None:
        """Write ahead a trial of the method's search (``role: search``), a promoted trial (``promoted``) or
        a re-run (``final``)."""
        with self._changing() as doc:
            self._method(doc, method)["trials"][trial_id] = {"state": RUNNING, "spent": None, "role": role}

    def end(self, method: str, trial_id: str, spent: np.ndarray | None) -> None:
        """Mark a trial ended, with the RDP curve of the steps it took where known (its role is kept)."""
        value = None if spent is None else [float(x) for x in spent]
        with self._changing() as doc:
            trials = self._method(doc, method)["trials"]
            role = trials.get(trial_id, {}).get("role", SEARCH)
            trials[trial_id] = {"state": ENDED, "spent": value, "role": role}

    def trials(self, method: str) -> list[TrialRecord]:
        """Every trial the method's search started and every re-run planned."""
        entry = self.read()["methods"].get(method, {"trials": {}})
        return [
            TrialRecord(
                tid, r["state"], None if r["spent"] is None else np.asarray(r["spent"]), r.get("role", SEARCH)
            )
            for tid, r in entry["trials"].items()
        ]

    def end_tune_run(self) -> None:
        """Mark the sweep's Tune run ended whole: every search and re-run ended, none lost (then a resume
        reads its results back and starts nothing)."""
        with self._changing() as doc:
            doc[TUNE_RUN_ENDED] = True

    def tune_run_ended(self) -> bool:
        """Whether the sweep's Tune run ended whole (``end_tune_run``)."""
        return bool(self.read().get(TUNE_RUN_ENDED, False))

    def keep(self, key: str, value: Any) -> None:
        """Store a private figure (e.g. ε of releasing every trial, which would reveal K)."""
        with self._changing() as doc:
            doc[key] = value
