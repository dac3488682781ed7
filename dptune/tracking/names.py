"""The one home of the MLflow layout dptune writes and reads: tags, metric names, artifact names.

A sweep is a parent run tagged ``dptune.tune``, described in Markdown (``mlflow.note.content``); each
trial a child run (``mlflow.parentRunId``) tagged with its trial id, method, role (``search``, or
``final`` for a re-run of the selected configuration, which also names the trial it re-runs), number in
its method's search, status and noise source, with its whole configuration as params, what changes per
epoch as metrics (step = epoch) and its end-of-run figures as metrics logged once. An experiment
carries a saved runs view (``VIEW_TAG``) and a description linking to it. Only ``dptune.tracking`` and
the readers in tests and ``bench/`` use these names.
"""

from typing import Final

from dptune.training.trial_status import FINAL_SCORE, OBJECTIVE, SCORE_STD

PARENT_TAG = "mlflow.parentRunId"
SWEEP_TAG = "dptune.tune"
STORAGE_TAG = "dptune.storage_path"
TRIAL_TAG = "dptune.trial_id"
METHOD_TAG = "dptune.method"
STATUS_TAG = "dptune.status"
REASON_TAG = "dptune.reason"
NODE_TAG = "dptune.node"
NOISE_SOURCE_TAG = "dptune.noise_source"
TUNING_BOUND_TAG = "dptune.tuning_bound"
TUNING_NOTE_TAG = "dptune.tuning_note"
ROLE_TAG = "dptune.role"
SEARCH_ROLE: Final = "search"
FINAL_ROLE: Final = "final"
SELECTED_TRIAL_TAG = "dptune.selected_trial"
PROMOTED_FROM_TAG = "dptune.promoted_from"
"""On a promoted trial (a pipeline's second rung of successive halving): the first-rung trial it trains
again, longer."""
SELECTED_TAG = "dptune.selected"
RELEASED_MODEL_TAG = "dptune.released_model"  # a re-run's registered model, models:/NAME/VERSION
"""On the search trial that its sweep's searcher selected (``"true"``): the selection, as made, with its
secret tie-break."""
NUMBER_TAG = "dptune.number"
"""A trial's position in its method's search (re-runs counted apart), shown in its run name."""
CODE_VERSION_TAG = "code_version"
RUN_NAME_TAG = "mlflow.runName"
NOTE_TAG = "mlflow.note.content"
"""MLflow's Markdown description of a run or an experiment (shown above its page)."""
VIEW_KEY = "dptune-results"
VIEW_TAG = f"mlflow.sharedViewState.{VIEW_KEY}"
"""The experiment tag holding dptune's saved runs view (MLflow 3.17's "Views" menu; opened by the URL
parameter ``viewStateShareKey=VIEW_KEY``)."""
VIEW_PARAMETER = "viewStateShareKey"
EXPERIMENT_KIND_TAG, MODEL_TRAINING_KIND = "mlflow.experimentKind", "custom_model_development"
"""An experiment's kind: the UI opens a model-training experiment on its runs table."""

METHOD_PARAM, EPSILON_PARAM, DELTA_PARAM = "method", "epsilon", "delta"
"""Params of every trial (its whole configuration: ``dptune.sweep.results.run_settings``) and of a
sweep's parent run that readers use: the method, the ε target and δ."""
TRIALS_PARAM = "trials_per_method"
"""Param of a sweep's parent run: its trial count per method, a number, or a distribution when the count
is secret (repeat-and-select): then nothing per trial of that sweep is shown (``secret_count``)."""
PROXY_PARAM = "proxy_fraction"
"""Param of a trial trained on a tuning proxy's subset (``RunConfig.proxy_fraction``; absent or None
otherwise): its score ranks configurations for its proxy sweep, it is no result on the whole data."""
INCLUDES_TUNING_PARAM = "includes_tuning"  # a pipeline's sweep: its ε is its released models' total
RELEASE_PARAM = "release"  # a pipeline's sweep: its release policy (``privacy.release``: one or per_method)

CHILD_METRICS = ("validation_accuracy", "validation_loss", "epsilon_spent")
"""Per-epoch metrics of a trial's run (step = epoch)."""
TRIAL_END_METRICS = ("noise_multiplier", "steps", SCORE_STD[OBJECTIVE])
"""Logged once when a trial ends: σ (calibrated in the trial, to its drawn batch size and epochs) and the
steps taken (on private held-out data, the standard deviation of its validation score's noise, in the
score's units). They vary from trial to trial, so the runs table sorts by them and a chart shows one bar per
trial; the trial's constants (ε target, δ, …) are params."""
FINAL_TEST_METRICS = (FINAL_SCORE, "test_loss", SCORE_STD[FINAL_SCORE])
END_METRICS = (*TRIAL_END_METRICS, *FINAL_TEST_METRICS)
"""Logged once when a trial ends (the final-test scores: re-runs of a selected configuration only)."""
TUNING_METRICS = ("epsilon_including_tuning", "epsilon_all_trials", "epsilon_used", "total_epsilon")
"""A sweep's privacy figures, on its parent run (``NAME`` for the sweep, ``NAME.METHOD`` per method)."""
TUNING_METRIC, ALL_TRIALS_METRIC = TUNING_METRICS[:2]
TUNING_DELTA_METRIC = "delta_including_tuning"
"""δ of those figures (``NAME`` and ``NAME.METHOD``): the sweep's own, plus an earlier sweep's under a warm
start, so it can exceed the δ each run was calibrated to."""
SELECTED_VALIDATION_METRIC = "selected_validation_accuracy"
FINAL_TEST_METRIC = "final_test_accuracy"
"""On a sweep's parent run, per method (``NAME.METHOD``): the selected configuration's validation score
and its re-runs' mean final-test score."""

SPEC_ARTIFACT = "spec.yaml"
TUNING_COST_ARTIFACT = "tuning_cost.json"
ALL_RELEASES_ARTIFACT = "all_releases.json"  # a list of totals: (ε, δ) of releasing every model
"""A sweep's privacy figures as JSON, beside ``TUNING_METRICS``; a seeded pipeline's run has neither, nor
the plan (``dptune.sweep.disclosure``: its figures are no guarantee)."""
BEST_TABLE_ARTIFACT = "best_configurations.txt"
BEST_JSON_ARTIFACT = "best_configurations.json"
PARETO_JSON_ARTIFACT = "pareto_front.json"
PARETO_PLOT_ARTIFACT = "pareto_accuracy_vs_epsilon.png"
PARETO_PDF_ARTIFACT = "pareto_accuracy_vs_epsilon.pdf"


def secret_count(parent_params: dict[str, str]) -> bool:
    """Whether a sweep's trial count is secret: its ``TRIALS_PARAM`` is a distribution, not a number."""
    count = parent_params.get(TRIALS_PARAM)
    return count is not None and not count.isdigit()
