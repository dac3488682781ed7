"""A sweep's answer, built once from what its trials reported and what its ledger recorded: per method,
the selected configuration (the trial its searcher selected on validation accuracy), the final-test
scores of its re-runs and the privacy of the whole search (the bound's public record). Nothing here
reads a tracking store: a store that is down at the end of a sweep delays its records, not its answer.
A trial's settings are its run's configuration with the knobs it drew (``run_settings``,
``trial_settings``), as a tracking store records them too.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import yaml

from dptune.methods.filters import DrawnFilter
from dptune.models.trained_parts import LORA_KNOBS
from dptune.training.config import RunConfig
from dptune.training.trial_status import FINAL_SCORE, OBJECTIVE, RERUN_OF, SCORE_STD, TrialStatus

PLACE_KNOBS = ("params", "device", "data_root")
"""Run-configuration fields that are not settings of a trial's result: the method's parameters (logged
flattened) and where it ran (its device is chosen per trial, its data's folder is the machine's)."""


UNRECORDED = ("seed",)
"""Settings never recorded, whatever the mode: a run's seed (research mode; a trial's own, or the sweep's
``training.seed``) lets whoever has it regenerate the run's noise and batches."""


def recorded_spec(spec_text: str) -> str:
    """The spec as a sweep's record stores it: its text, but without ``training.seed`` (``UNRECORDED``;
    then re-written from its YAML, comments dropped)."""
    doc = yaml.safe_load(spec_text)
    training = doc.get("training") if isinstance(doc, dict) else None
    if not isinstance(training, dict) or "seed" not in training:
        return spec_text
    doc["training"] = {k: v for k, v in training.items() if k not in UNRECORDED}
    return str(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))


def run_settings(run: RunConfig, delta: float) -> dict[str, Any]:
    """The settings every trial of a method starts from: its whole run configuration (method, dataset,
    model, ε target, δ resolved, epochs, batch size, clip, lr, accountant, sampling, …, the method's fixed
    parameters flattened), unset knobs and LoRA's without LoRA left out; a trial's drawn knobs replace some
    of them."""
    unused = () if run.trains == "lora" else LORA_KNOBS  # no adapters: their rank and α shape nothing
    settings = {
        f.name: getattr(run, f.name) for f in fields(run) if f.name not in PLACE_KNOBS + UNRECORDED + unused
    }
    kept = {k: v for k, v in settings.items() if v is not None and v != {}}  # no factory: no arguments
    return kept | {"delta": delta} | run.params


def trial_settings(base: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, Any]:
    """A trial's settings as recorded: its method's ``base`` (``run_settings``) with the knobs it drew,
    a drawn filter as ``filter``, ``a`` and ``b`` (a re-run's ``RERUN_OF`` is not a setting: it names the
    trial it re-runs); ``lr`` left out where ``effective_lr`` sets η (``RunConfig.learning_rate``: the run
    never reads it, and a stale value would mislead whoever reads the record)."""
    settings = dict(base)
    for key, value in config.items():
        if key != RERUN_OF and key not in UNRECORDED:
            settings |= value.as_params() if isinstance(value, DrawnFilter) else {key: value}
    if settings.get("effective_lr") is not None:
        settings.pop("lr", None)
    return settings


@dataclass(frozen=True)
class TradeOff:
    """The selected configuration of one method at one privacy target: the search trial chosen on
    validation accuracy, and the final-test accuracies of its re-runs (none when the sweep re-ran
    nothing). Built by a sweep from its trials' reports (``selected_tradeoffs``), or read back from a
    tracking store (``run_id``: its run there; empty for a sweep's own)."""

    method: str
    epsilon_target: float
    epsilon_spent: float
    delta: float
    validation_accuracy: float
    test_accuracies: tuple[float, ...]
    sweep: str
    run_id: str
    params: dict[str, Any]  # the run's settings, as the values they were
    epsilon_including_tuning: float | None = None  # the method's whole search in its sweep
    delta_including_tuning: float | None = None  # its δ: ``delta``, or more after a warm start
    tuning_bound: str | None = None  # repeat-and-select, composition, filter or plan
    tuning_note: str | None = None  # what the bound counts (a pipeline's: its plan's phases)
    epsilon_all_trials: float | None = None  # releasing every trial of the search (None: private)
    noise_source: str = "secure"  # or "seeded" (research mode: no guarantee; the seeds are never logged)
    validation_noise: float | None = None  # std of the validation score's private noise (None: public)
    test_noise: float | None = None  # std of each final-test score's private noise (None: public)

    @property
    def test_accuracy(self) -> float | None:
        """Mean final-test accuracy of the re-runs (None without re-runs)."""
        return statistics.fmean(self.test_accuracies) if self.test_accuracies else None

    @property
    def test_sd(self) -> float | None:
        """Sample standard deviation of the re-runs' final-test accuracy (None with fewer than two)."""
        return statistics.stdev(self.test_accuracies) if len(self.test_accuracies) > 1 else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "noise_source": self.noise_source,
            "method": self.method,
            "epsilon_target": self.epsilon_target,
            "epsilon_spent": self.epsilon_spent,
            "epsilon_including_tuning": self.epsilon_including_tuning,
            "delta_including_tuning": self.delta_including_tuning,
            "tuning_bound": self.tuning_bound,
            "epsilon_all_trials": self.epsilon_all_trials,
            "delta": self.delta,
            "validation_accuracy": self.validation_accuracy,
            "validation_noise": self.validation_noise,
            "test_accuracy": self.test_accuracy,
            "test_noise": self.test_noise,
            "test_accuracy_sd": self.test_sd,
            "test_accuracies": list(self.test_accuracies),
            "sweep": self.sweep,
            "run_id": self.run_id,
            "params": self.params,
        }


def finished_reruns(results: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The re-runs among ``results`` that finished with a final-test score, in the order they started."""
    return [
        result
        for result in sorted(results, key=lambda r: str(r["trial_id"]))
        if RERUN_OF in result["config"]
        and "test_accuracy" in result
        and TrialStatus.of_ended(result) is TrialStatus.FINISHED
    ]


def selected_tradeoffs(
    results: Sequence[Mapping[str, Any]],
    selected: Mapping[str, str],
    settings: Mapping[str, Mapping[str, Any]],
    costs: Sequence[Mapping[str, Any]],
    noise_source: str,
) -> list[TradeOff]:
    """Per method, its selected configuration: the search trial ``selected[method]`` (a trial id) with
    its last report, the final-test scores of the finished re-runs of it, its settings (the method's
    ``settings`` and the trial's drawn knobs) and its search's privacy (the method's row of ``costs``,
    the bound's public record). ``results``: every trial's last report with its ``trial_id``, ``method``
    and ``config``. Ordered as a report orders one setting: by ε target, then best validation first."""
    by_trial = {result["trial_id"]: result for result in results}
    rows = {row["method"]: row for row in costs}
    scores: dict[str, list[float]] = {}  # the finished re-runs' final-test scores by the trial they repeat
    noise: dict[str, float] = {}  # the std of their private noise (a private held-out split's)
    for result in finished_reruns(results):
        scores.setdefault(result["config"][RERUN_OF], []).append(float(result["test_accuracy"]))
        if result.get(SCORE_STD[FINAL_SCORE]) is not None:
            noise[result["config"][RERUN_OF]] = float(result[SCORE_STD[FINAL_SCORE]])
    found = []
    for method, trial_id in selected.items():
        chosen = by_trial.get(trial_id)
        if chosen is None:
            continue
        cost = rows.get(method, {})
        found.append(
            TradeOff(
                method=method,
                epsilon_target=float(chosen["epsilon_target"]),
                epsilon_spent=float(chosen["epsilon_spent"]),
                delta=float(chosen["delta"]),
                validation_accuracy=float(chosen["validation_accuracy"]),
                test_accuracies=tuple(scores.get(trial_id, ())),
                sweep="",
                run_id="",
                params=trial_settings(settings.get(method, {}), chosen["config"]),
                epsilon_including_tuning=cost.get("epsilon_including_tuning"),
                delta_including_tuning=cost.get("delta"),
                tuning_bound=cost.get("tuning_bound"),
                tuning_note=cost.get("note"),
                epsilon_all_trials=cost.get("epsilon_all_trials"),
                noise_source=noise_source,
                validation_noise=None if (std := chosen.get(SCORE_STD[OBJECTIVE])) is None else float(std),
                test_noise=noise.get(trial_id),
            )
        )
    return sorted(found, key=lambda t: (t.epsilon_target, -t.validation_accuracy))
