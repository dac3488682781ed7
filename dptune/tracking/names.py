"""The one home of the MLflow layout dptune writes and reads: tags, metric names, artifact names.

A sweep is a parent run tagged ``dptune.sweep``; each trial a child run (``mlflow.parentRunId``) tagged
with its trial id, method, role (``search``, or ``final`` for a re-run of the selected configuration,
which also names the trial it re-runs), status and noise source; a protocol run (one seed of a
reproduction) a run tagged with its key and protocol. Only ``dptune.tracking.mlflow_store`` and the
readers in tests and ``bench/`` use these names.
"""

PARENT_TAG = "mlflow.parentRunId"
SWEEP_TAG = "dptune.sweep"
STORAGE_TAG = "dptune.storage_path"
TRIAL_TAG = "dptune.trial_id"
METHOD_TAG = "dptune.method"
STATUS_TAG = "dptune.status"
REASON_TAG = "dptune.reason"
NODE_TAG = "dptune.node"
NOISE_SOURCE_TAG = "dptune.noise_source"
TUNING_BOUND_TAG = "dptune.tuning_bound"
TUNING_NOTE_TAG = "dptune.tuning_note"
PROTOCOL_TAG = "dptune.protocol"
RUN_KEY_TAG = "dptune.run_key"
EPSILON_TARGET_TAG = "dptune.epsilon_target"
SEED_TAG = "dptune.seed"
ROLE_TAG = "dptune.role"
SEARCH_ROLE, FINAL_ROLE = "search", "final"
SELECTED_TRIAL_TAG = "dptune.selected_trial"
CODE_VERSION_TAG = "code_version"

CHILD_METRICS = ("validation_accuracy", "validation_loss", "epsilon_spent")
"""Per-epoch metrics of a trial's run (step = epoch)."""
TRIAL_END_METRICS = ("noise_multiplier", "delta", "steps", "epoch", "epsilon_target")
FINAL_TEST_METRICS = ("test_accuracy", "test_loss")
END_METRICS = TRIAL_END_METRICS + FINAL_TEST_METRICS
"""Logged once when a trial ends (the final-test scores: re-runs of a selected configuration only)."""
FINAL_RUN_METRICS = ("test_accuracy", "epsilon_spent", "delta", "noise_multiplier", "wall_seconds")
TUNING_METRICS = ("epsilon_including_tuning", "epsilon_all_trials", "epsilon_used", "total_epsilon")
"""A sweep's privacy figures, on its parent run (``NAME`` for the sweep, ``NAME.METHOD`` per method)."""
TUNING_METRIC, ALL_TRIALS_METRIC = TUNING_METRICS[:2]
SELECTED_VALIDATION_METRIC = "selected_validation_accuracy"
FINAL_TEST_METRIC = "final_test_accuracy"
"""On a sweep's parent run, per method (``NAME.METHOD``): the selected configuration's validation score
and its re-runs' mean final-test score."""
SUMMARY_STATUS = "summary"
FINAL_STATUS = "final"

SPEC_ARTIFACT = "spec.yaml"
TUNING_COST_ARTIFACT = "tuning_cost.json"
BEST_TABLE_ARTIFACT = "best_configurations.txt"
BEST_JSON_ARTIFACT = "best_configurations.json"
PARETO_JSON_ARTIFACT = "pareto_front.json"
PARETO_PLOT_ARTIFACT = "pareto_accuracy_vs_epsilon.png"
