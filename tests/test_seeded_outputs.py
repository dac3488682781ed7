"""A seeded sweep (``training.seed``, research mode) states no (ε, δ) anywhere a reader looks: whoever has
the seed regenerates its noise, so no guarantee holds (``dptune.base.randomness.SEEDED_NO_GUARANTEE``).
One real ``dptune run`` on digits whose ε includes its tuning, with a private held-out split, two methods
released one per method at two totals, read as its readers read it: the console after the plan, the last
JSON line, every privacy card, every JSON artifact of every sweep's run and its plot's title, the
registered models' aliases, tags and descriptions; none of them holds the seed."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from mlflow.tracking import MlflowClient

from dptune.base.randomness import SEEDED, SEEDED_NO_GUARANTEE
from dptune.sweep.plan import PLAN_ARTIFACT
from dptune.tracking import tracker_for
from dptune.tracking.mlflow_models import CARD_ARTIFACT
from dptune.tracking.names import ALL_RELEASES_ARTIFACT, TUNING_COST_ARTIFACT
from tests.sweep_helpers import runs
from tests.test_release import dptune_run, pipeline_spec

pytestmark = pytest.mark.slow

TOTALS = [3.0, 6.0]
STATED = re.compile(r"ε\s*[=≤]\s*[0-9]|δ\s*[=≤]")
"""A line that states an ε or δ figure (``ε = 1.2``, ``ε ≤ 3``, ``δ = 1e-05``, ``δ ≤ …``)."""
FIGURE_KEY = re.compile("epsilon|delta")
PER_RUN = ("epsilon_target", "epsilon_spent", "delta", "params")
"""What a row of selected configurations says of its own tuning trial (its ε target, the ε it spent, its
δ, its settings): per-run calibration, which a row labelled ``noise_source: seeded`` may keep."""


def figures(value: Any, path: str = "") -> list[str]:
    """Every place in a JSON value where a key that names an ε or δ (``epsilon``, ``delta``,
    ``total_epsilon``, ``per_run_delta``, …) holds a number, by its path; a row labelled seeded is read
    without its ``PER_RUN`` entries."""
    if isinstance(value, dict):
        if value.get("noise_source") == SEEDED:
            value = {key: item for key, item in value.items() if key not in PER_RUN}
        found = [
            f"{path}.{key}"
            for key, item in value.items()
            if FIGURE_KEY.search(str(key)) and isinstance(item, int | float) and not isinstance(item, bool)
        ]
        return found + [hit for key, item in value.items() for hit in figures(item, f"{path}.{key}")]
    if isinstance(value, list):
        return [hit for index, item in enumerate(value) for hit in figures(item, f"{path}[{index}]")]
    return []


def artifacts(client: MlflowClient, run_id: str, folder: str = "") -> list[str]:
    """The paths of every artifact of a run, its folders walked."""
    found = []
    for item in client.list_artifacts(run_id, folder or None):
        found += artifacts(client, run_id, item.path) if item.is_dir else [item.path]
    return found


def test_a_seeded_sweep_states_no_epsilon_or_delta_anywhere(tmp_path: Path) -> None:
    started = time.time()
    space = {"lr": {"loguniform": [0.1, 2.0]}}
    privacy = {"epsilon": TOTALS, "delta": 1e-4, "includes_tuning": True}
    spec = pipeline_spec(
        tmp_path,
        "seeded",
        {"dpsgd": space, "dpsgd-momentum": space},
        privacy=privacy | {"release": "per_method", "validation": "private"},
        training={"epochs": 2, "batch_size": 128, "lr": 1.0, "physical_batch_size": 128, "seed": 11},
    )
    done = dptune_run(spec)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()

    # the console: the plan says what its figures are; no line after it states one
    (heading,) = [i for i, line in enumerate(lines) if line.startswith("plan of every released model")]
    assert "what the runs would spend with secret randomness, not a guarantee" in lines[heading]
    after = next(i for i in range(heading + 1, len(lines)) if not lines[i].strip())
    stated = [line for line in lines[after:] if STATED.search(line)]
    assert not stated, stated
    for total in TOTALS:
        said = f"seeded total {total:g}: one model per method"
        (covers,) = [line for line in lines if line.startswith(said)]
        assert covers.endswith(SEEDED_NO_GUARANTEE)
    assert any(line.startswith("releasing them all") and SEEDED_NO_GUARANTEE in line for line in lines)
    (hint,) = [line for line in lines if line.startswith("load one with")]
    assert "@seeded-total-" in hint

    # the last JSON line: every release's figures null, no figure of releasing them all
    last = json.loads(lines[-1])
    assert "all_releases" not in last
    assert sorted(r["seeded_total"] for r in last["releases"]) == sorted(TOTALS * 2)
    assert not figures(last), figures(last)
    assert all(r["epsilon"] is None and r["delta"] is None for r in last["releases"])

    # every card, and every JSON artifact of every sweep's run; no plan or figure kept apart
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    client = MlflowClient(uri)
    parents, children = runs(uri, "seeded")
    assert len(parents) == len(TOTALS)
    cards = 0
    for run in (*parents, *children):
        paths = artifacts(client, run.info.run_id)
        if run in parents:
            assert not {PLAN_ARTIFACT, TUNING_COST_ARTIFACT, ALL_RELEASES_ARTIFACT} & set(paths), paths
            assert not [name for name in run.data.metrics if FIGURE_KEY.search(name)], run.data.metrics
        elif CARD_ARTIFACT not in paths:
            continue
        for path in (p for p in paths if p.endswith(".json") and (run in parents or p == CARD_ARTIFACT)):
            stored = Path(client.download_artifacts(run.info.run_id, path, str(tmp_path)))
            doc = json.loads(stored.read_text())
            assert not figures(doc), (path, figures(doc))
            if path == CARD_ARTIFACT:
                cards += 1
                assert doc["guarantee"] == SEEDED_NO_GUARANTEE
                assert doc["held_out"].startswith(SEEDED_NO_GUARANTEE)  # its noise comes from the seed too
                assert "published_with_the_others" not in doc and "covers" not in doc
                assert run.info.run_name.endswith(SEEDED_NO_GUARANTEE)  # the model's page names its run
                # nor does any of them hold the seed (11), which regenerates every noise draw
                assert "seed" not in doc["settings"]
                assert all(value not in (11, "11") for value in doc["settings"].values())
                assert "seed" not in run.data.params and "epsilon_including_tuning" not in run.data.metrics
    assert cards == 2 * len(TOTALS)
    assert tracker_for(uri).plot_context("seeded").phases == ()  # the plot's title states no plan

    # the Model Registry: aliases named as seeded, no figure in a tag or a description
    versions = client.search_model_versions("name LIKE 'seeded.%'")
    assert len(versions) == 2 * len(TOTALS)
    for version in versions:
        assert not {"dptune.epsilon", "dptune.delta"} & set(version.tags)
        assert version.tags["dptune.noise_source"] == SEEDED
        assert version.description.startswith("Seeded: no privacy guarantee")
        assert "-DP" not in version.description and not STATED.search(version.description)
    for name in {version.name for version in versions}:
        registered = client.get_registered_model(name)
        assert sorted(registered.aliases) == [f"seeded-total-{total:g}" for total in TOTALS]
        assert not STATED.search(registered.description or "")
    print(f"the seeded sweep and its checks: {time.time() - started:.0f}s")
