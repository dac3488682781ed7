"""``MlflowReader``: the reading side of the tracker on an MLflow store: the experiments, each method's
selected configuration and its re-runs per sweep (``best_tradeoffs``), every trained trial's point
(``trial_points``), the compute used, and what the accuracy-vs-ε plot needs (``plot_context``), all from
the layout ``dptune.tracking.names`` describes. ``MlflowTracker`` writes that layout and reads it through
this class.
"""

from __future__ import annotations

import json
import math
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from mlflow.exceptions import MlflowException
from mlflow.tracking import MlflowClient

from dptune.sweep.plan import PLAN_ARTIFACT
from dptune.tracking import names
from dptune.tracking.plots import plot_tradeoffs
from dptune.tracking.report import (
    Compute,
    PlotContext,
    TradeOff,
    TrialPoint,
    phase_lines,
    setting,
)
from dptune.training.trial_status import FINAL_SCORE, OBJECTIVE, SCORE_STD, TrialStatus, select_trial


def logged_value(text: str) -> Any:
    """A logged parameter back as the value it was (``param_text`` in reverse)."""
    try:
        return json.loads(text)
    except ValueError:
        return {"True": True, "False": False, "None": None}.get(text, text)


def on_proxy_subset(run: Any) -> bool:
    """Whether a trial run trained on a tuning proxy's subset (its ``names.PROXY_PARAM`` set, not None)."""
    return logged_value(run.data.params.get(names.PROXY_PARAM, "None")) is not None


def is_pipeline(sweep_params: Mapping[str, str]) -> bool:
    """Whether a sweep (its parent run's params) released models at a total ε that includes the tuning."""
    return logged_value(sweep_params.get(names.INCLUDES_TUNING_PARAM, "False")) is True


def logged_values(params: Mapping[str, str]) -> dict[str, Any]:
    """A run's params back as the values they were."""
    return {key: logged_value(text) for key, text in params.items()}


def differing(runs: list[Any], candidates: tuple[str, ...]) -> list[str]:
    """The params among ``candidates`` whose value differs between runs of one method: what its search
    drew (a knob fixed for every trial of a method is left out)."""
    by_method: dict[str, list[Any]] = {}
    for run in runs:
        by_method.setdefault(run.data.tags.get(names.METHOD_TAG, ""), []).append(run)
    return [
        name
        for name in candidates
        if any(len({r.data.params.get(name) for r in group} - {None}) > 1 for group in by_method.values())
    ]


def span(values: set[Any]) -> str:
    """Epochs for a plot's title: ``10``, or ``10–40`` when trials differ."""
    numbers = sorted(v for v in values if isinstance(v, int | float))
    if not numbers:
        return ""
    return f"{numbers[0]:g}" if numbers[0] == numbers[-1] else f"{numbers[0]:g}–{numbers[-1]:g}"


def _selected(
    search: dict[tuple[str, str], Any], finals: dict[tuple[str, str], list[float]]
) -> dict[tuple[str, str], Any]:
    """(sweep id, method) -> the selected search run: the one its re-runs name, else the one its sweep's
    searcher tagged selected (``names.SELECTED_TAG``), else (a sweep whose end was never recorded) the
    one the search's selection rule picks (``trial_status.select_trial``), ties going to the highest run
    id: MLflow's run ids are random, so that tells nothing of the order trials ran in. That last case
    (a driver killed between its search's end and the first re-run reaching MLflow) shows the best
    trial even where the method keeps its start point (``keep_start``): resuming the sweep records
    the searcher's own choice."""
    groups: dict[tuple[str, str], list[Any]] = {}
    named: dict[tuple[str, str], Any] = {}
    tagged: dict[tuple[str, str], Any] = {}
    for (parent_id, trial_id), run in search.items():
        group = (parent_id, run.data.tags.get(names.METHOD_TAG, "?"))
        groups.setdefault(group, []).append(run)
        if (parent_id, trial_id) in finals:
            named[group] = run
        if run.data.tags.get(names.SELECTED_TAG) == "true":
            tagged[group] = run
    chosen = {
        group: select_trial(
            runs,
            lambda run: TrialStatus(run.data.tags.get(names.STATUS_TAG, TrialStatus.RUNNING)),
            lambda run: run.data.metrics[OBJECTIVE],
            lambda run: run.info.run_id,
        )
        for group, runs in groups.items()
        if group not in named and group not in tagged
    }
    return {group: run for group, run in chosen.items() if run is not None} | tagged | named


class MlflowReader(ABC):
    """Reads sweeps back from an MLflow store; its subclass gives the store: a ``client``, an experiment's
    id, and ``flush`` (what it queued, written first)."""

    @property
    @abstractmethod
    def client(self) -> MlflowClient: ...

    @abstractmethod
    def experiment_id(self, name: str) -> str: ...

    @abstractmethod
    def flush(self, timeout: float | None = None) -> bool: ...

    def experiments(self) -> list[str]:
        client = self.client
        return [
            e.name
            for e in client.search_experiments()
            if client.search_runs([e.experiment_id], max_results=1)  # MLflow's empty "Default" left out
        ]

    def _trial_runs(self, experiment: str, sweep_id: str | None) -> list:
        """Every trial run of the experiment, or of one sweep, whatever became of it."""
        found = self.client.get_experiment_by_name(experiment)
        if found is None:
            return []
        query = f"tags.`{names.METHOD_TAG}` != ''"
        if sweep_id:
            query += f" and tags.`{names.PARENT_TAG}` = '{sweep_id}'"
        return self.client.search_runs([found.experiment_id], filter_string=query, max_results=50000)

    def _trained_runs(self, experiment: str, sweep_id: str | None) -> list:
        """The trained trials (finished or stopped) of one sweep, or, across the experiment, those on the
        whole training data and a pipeline's (whose tuning trials carry its release): a tuning proxy's
        trials (``names.PROXY_PARAM``) rank configurations for their own sweep only, and no result of the
        experiment is one of them."""
        parents: dict[str, Any] = {}
        return [
            r
            for r in self._trial_runs(experiment, sweep_id)
            if r.data.tags.get(names.STATUS_TAG) in (TrialStatus.FINISHED, TrialStatus.STOPPED)
            and (sweep_id or not on_proxy_subset(r) or self._pipeline(r, parents))
        ]

    def _pipeline(self, run: Any, parents: dict[str, Any]) -> bool:
        """Whether a trial run's sweep is a pipeline whose ε includes the tuning (its ε: the total)."""
        params = self._parent(run, parents).data.params
        return is_pipeline(params)

    def _epsilon_target(self, run: Any, parents: dict[str, Any]) -> float:
        """A trial's ε target: its logged one, or its sweep's for a pipeline's trial (the total its release
        carries) and for runs from before a trial logged its configuration; ``parents`` caches the sweeps'
        runs by id."""
        target = logged_value(run.data.params.get(names.EPSILON_PARAM, "null"))
        if target is None or self._pipeline(run, parents):
            target = logged_values(self._parent(run, parents).data.params).get(names.EPSILON_PARAM)
        return float(target) if target is not None else math.nan

    def _secret_count(self, run: Any, parents: dict[str, Any]) -> bool:
        """Whether a trial run's sweep keeps its trial count secret (``names.secret_count``)."""
        return names.secret_count(self._parent(run, parents).data.params)

    def _parent(self, run: Any, parents: dict[str, Any]) -> Any:
        """The sweep's run of a trial run, read once per sweep into ``parents``."""
        parent_id = run.data.tags.get(names.PARENT_TAG, "")
        if parent_id not in parents:
            parents[parent_id] = self.client.get_run(parent_id)
        return parents[parent_id]

    def best_tradeoffs(self, experiment: str, sweep_id: str | None = None) -> list[TradeOff]:
        """Per (method, ε target), the selected configuration: in each sweep, the search trial its re-runs
        name (else the finished search trial with the best validation accuracy, the driver's rule), with
        its re-runs' final-test accuracies; across sweeps, the one with the best validation accuracy."""
        self.flush()  # the trials' queued writes first
        parents: dict[str, Any] = {}
        search: dict[tuple[str, str], Any] = {}  # (sweep id, trial id) -> search run
        finals: dict[tuple[str, str], list[float]] = {}  # (sweep id, selected trial id) -> final-test scores
        noise: dict[tuple[str, str], float] = {}  # the same key -> the std of their private noise
        for run in self._trained_runs(experiment, sweep_id):
            metrics, tags = run.data.metrics, run.data.tags
            key = (tags.get(names.PARENT_TAG, ""), tags.get(names.SELECTED_TRIAL_TAG, ""))
            if tags.get(names.ROLE_TAG) == names.FINAL_ROLE:
                if FINAL_SCORE in metrics:
                    finals.setdefault(key, []).append(metrics[FINAL_SCORE])
                if SCORE_STD[FINAL_SCORE] in metrics:
                    noise[key] = metrics[SCORE_STD[FINAL_SCORE]]
            elif OBJECTIVE in metrics and "epsilon_spent" in metrics:
                search[(key[0], tags.get(names.TRIAL_TAG, ""))] = run
        chosen = _selected(search, finals)
        best: dict[tuple[Any, ...], TradeOff] = {}
        for (parent_id, method), run in chosen.items():
            metrics, tags = run.data.metrics, run.data.tags
            parent = self._parent(run, parents).data if parent_id else None
            params = logged_values(run.data.params)
            candidate = TradeOff(
                method=method,
                epsilon_target=self._epsilon_target(run, parents),
                epsilon_spent=metrics["epsilon_spent"],
                delta=float(params.get(names.DELTA_PARAM, math.nan)),
                validation_accuracy=metrics[OBJECTIVE],
                test_accuracies=tuple(finals.get((parent_id, tags.get(names.TRIAL_TAG, "")), ())),
                sweep=parent.tags.get(names.SWEEP_TAG, "") if parent else "",
                run_id=run.info.run_id,
                params=params,
                epsilon_including_tuning=parent.metrics.get(f"{names.TUNING_METRIC}.{method}")
                if parent
                else None,
                delta_including_tuning=parent.metrics.get(f"{names.TUNING_DELTA_METRIC}.{method}")
                if parent
                else None,
                tuning_bound=parent.tags.get(f"{names.TUNING_BOUND_TAG}.{method}") if parent else None,
                tuning_note=parent.tags.get(f"{names.TUNING_NOTE_TAG}.{method}") if parent else None,
                epsilon_all_trials=parent.metrics.get(f"{names.ALL_TRIALS_METRIC}.{method}")
                if parent
                else None,
                noise_source=tags.get(
                    names.NOISE_SOURCE_TAG, "seeded"
                ),  # runs from before the tag: a shared seed
                validation_noise=metrics.get(SCORE_STD[OBJECTIVE]),
                test_noise=noise.get((parent_id, tags.get(names.TRIAL_TAG, ""))),
            )
            rank = (*setting(candidate), candidate.method, candidate.epsilon_target)
            if rank not in best or candidate.validation_accuracy > best[rank].validation_accuracy:
                best[rank] = candidate
        return sorted(best.values(), key=lambda t: (setting(t), t.epsilon_target, -t.validation_accuracy))

    def trial_points(self, experiment: str, sweep_id: str | None = None) -> list[TrialPoint]:
        """Every trained trial (finished or stopped) of the experiment (or of one sweep) with its ε target,
        ε spent and score; ``selected``: a search trial that ``best_tradeoffs`` reports. Of a sweep whose
        trial count is secret only the selected trial and its re-runs: its other trials are not released
        (their number would tell K)."""
        selected = {row.run_id for row in self.best_tradeoffs(experiment, sweep_id)}
        parents: dict[str, Any] = {}
        points = []
        for run in self._trained_runs(experiment, sweep_id):
            metrics, tags = run.data.metrics, run.data.tags
            if "epsilon_spent" not in metrics:
                continue
            final = tags.get(names.ROLE_TAG) == names.FINAL_ROLE
            if not final and run.info.run_id not in selected and self._secret_count(run, parents):
                continue
            points.append(
                TrialPoint(
                    method=tags[names.METHOD_TAG],
                    epsilon_target=self._epsilon_target(run, parents),
                    epsilon_spent=metrics["epsilon_spent"],
                    validation_accuracy=metrics.get(OBJECTIVE),
                    role=names.FINAL_ROLE if final else names.SEARCH_ROLE,
                    test_accuracy=metrics.get(FINAL_SCORE),
                    selected=run.info.run_id in selected,
                    run_id=run.info.run_id,
                )
            )
        return points

    def compute_used(self, experiment: str) -> list[Compute]:
        """Per (method, ε target) of the experiment's trials: ``report.Compute``; withheld (no count, no
        time) where a sweep of that method and ε keeps its trial count secret, and so is the wall time of
        every ε target with such a sweep (each would tell K)."""
        self.flush()
        parents: dict[str, Any] = {}
        trials: dict[tuple[str, float], dict[str, int]] = {}
        seconds: dict[tuple[str, float], float] = {}
        sweeps: dict[float, set[str]] = {}
        secret: set[tuple[str, float]] = set()
        for run in self._trial_runs(experiment, None):
            if names.PARENT_TAG not in run.data.tags:
                continue  # a run of no sweep (a store may hold others' runs): no trial of it
            target = self._epsilon_target(run, parents)
            key = (run.data.tags[names.METHOD_TAG], target)
            if self._secret_count(run, parents):
                secret.add(key)
            kind = "proxy" if on_proxy_subset(run) else run.data.tags.get(names.ROLE_TAG, names.SEARCH_ROLE)
            counts = trials.setdefault(key, {})
            counts[kind] = counts.get(kind, 0) + 1
            ended = run.info.end_time or run.info.start_time  # a run left open: no time known
            if run.data.tags.get(names.STATUS_TAG) == TrialStatus.LOST:
                ended = run.info.start_time  # ended when marked lost, later: its true end is unknown
            seconds[key] = seconds.get(key, 0.0) + (ended - run.info.start_time) / 1000
            sweeps.setdefault(target, set()).add(self._parent(run, parents).info.run_id)

        def wall(target: float) -> float | None:
            if any(t == target for _, t in secret):
                return None
            runs = [parents[parent_id].info for parent_id in sweeps[target]]
            return sum(((r.end_time or r.start_time) - r.start_time) / 1000 for r in runs)

        return [
            Compute(method, target, None, None, wall(target))
            if (method, target) in secret
            else Compute(method, target, trials[method, target], seconds[method, target], wall(target))
            for method, target in sorted(trials, key=lambda k: (k[1], k[0]))
        ]

    def attach_plot(self, experiment: str, sweep_id: str, releases: str = "") -> None:
        self._attach_plot(experiment, sweep_id, self.best_tradeoffs(experiment), releases)

    def _attach_plot(self, experiment: str, sweep_id: str, all_best: list[TradeOff], releases: str) -> None:
        """``attach_plot`` with the experiment's best trade-offs already read (``log_sweep_summary`` has
        them: one query of the store, not two)."""
        if not all_best:
            return
        context = replace(self.plot_context(experiment), releases=releases)
        with tempfile.TemporaryDirectory() as tmp:
            plots = plot_tradeoffs(
                all_best, Path(tmp) / names.PARETO_PLOT_ARTIFACT, self.trial_points(experiment), context
            )
            for plot in plots:
                self.client.log_artifact(sweep_id, str(plot))

    def plot_context(self, experiment: str, sweep_id: str | None = None) -> PlotContext:
        """What a plot of the experiment's (or one sweep's) trials states: dataset, model, δ and epochs,
        from the trials' params (values that differ joined, epochs as a range), and what each phase of
        the released models' plans spent (``phase_lines`` of the plans their sweeps stored)."""
        runs = self._trained_runs(experiment, sweep_id)
        params = [logged_values(r.data.params) for r in runs]

        def joined(name: str) -> str:
            return ", ".join(sorted({str(p[name]) for p in params if name in p}))

        deltas = sorted({p[names.DELTA_PARAM] for p in params if names.DELTA_PARAM in p})
        return PlotContext(
            dataset=joined("dataset"),
            model=joined("model"),
            delta=float(deltas[0]) if len(deltas) == 1 else math.nan,
            epochs=span({p.get("epochs") for p in params}),
            phases=phase_lines(self._stored_plans(runs)),
        )

    def _stored_plans(self, runs: list[Any]) -> list[dict[str, Any]]:
        """The plans (``PLAN_ARTIFACT``) of the trial ``runs``' sweeps whose ε includes the tuning, oldest
        sweep first."""
        parents: dict[str, Any] = {}
        for run in runs:
            self._parent(run, parents)
        plans: list[dict[str, Any]] = []
        for sweep in sorted(parents.values(), key=lambda r: r.info.start_time):
            if not is_pipeline(sweep.data.params):
                continue
            with tempfile.TemporaryDirectory() as folder:
                try:
                    path = self.client.download_artifacts(sweep.info.run_id, PLAN_ARTIFACT, folder)
                except MlflowException:  # a sweep stopped before it stored its plan
                    continue
                plans += json.loads(Path(path).read_text())
        return plans
