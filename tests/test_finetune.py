"""Fine-tuning a pretrained Transformers model with DP, offline: a small RoBERTa and its tokenizer built
here (``tests.text_models``), saved with ``save_pretrained`` and loaded by name (``hf:FOLDER``) with
``HF_HUB_OFFLINE=1``; sentiment sentences written as CSV and read through ``datasets``.

The per-sample engine is checked against an independent float64 reference: each sample's gradient by
autograd on that sample alone, cut to its own tokens (no padding, no mask), at every iterate."""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from torch.func import functional_call

from dptune.base.errors import InputError
from dptune.cli import main
from dptune.engine.data import load_dataset
from dptune.engine.engine_choice import check_inputs, clipped_sum_engine
from dptune.engine.persample import FlatModel, GhostEngine
from dptune.methods import METHODS
from dptune.models import build_model
from dptune.models.trained_parts import Trained
from dptune.training.config import RunConfig
from dptune.training.train import Trainer
from tests.text_models import sentences, tiny_roberta, write_csv

HIDDEN, LAYERS, CLASSES = 16, 2, 2


@pytest.fixture(scope="module")
def roberta(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_roberta(tmp_path_factory.mktemp("roberta"), hidden=HIDDEN, layers=LAYERS)


@pytest.fixture(scope="module")
def reviews(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """``dataset_args`` of 400 training and 200 held-out sentences."""
    folder = tmp_path_factory.mktemp("reviews")
    train = write_csv(folder / "train.csv", sentences(400, 1))
    held = write_csv(folder / "held.csv", sentences(200, 2))
    return {"train": str(train), "held_out": str(held), "num_classes": CLASSES, "max_length": 16}


def text_run(roberta: Path, reviews: dict[str, object], **knobs: object) -> RunConfig:
    values = {
        "method": "dpsgd",
        "epsilon": 8.0,
        "dataset": "text",
        "dataset_args": dict(reviews),
        "model": f"hf:{roberta}",
        "epochs": 1,
        "batch_size": 100,
        "seed": 3,
    }
    return RunConfig(**(values | knobs))


def trained_model(run: RunConfig) -> tuple[torch.nn.Module, torch.Tensor, torch.Tensor]:
    data = load_dataset(run.dataset, None, None, run.dataset_args)
    trained = Trained(run.trains, run.lora_rank, run.lora_alpha)
    model = build_model(run.model, run.model_args, data.train_x[:2], data.num_classes, trained)
    return model, data.train_x, data.train_y


def test_a_users_text_files_are_copied_only_beside_their_tokenized_data(
    roberta, reviews, tmp_path, monkeypatch
) -> None:
    """``datasets`` keeps an Arrow copy of every file it reads; a user's private files' copies go beside
    their tokenized tensors (``DPTUNE_CACHE``), none into the Hugging Face cache, which a cluster shares."""
    import datasets

    hub_cache = tmp_path / "hf-datasets"
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", hub_cache)
    monkeypatch.setenv("DPTUNE_CACHE", str(tmp_path / "dptune"))
    run = text_run(roberta, reviews)
    data = load_dataset(run.dataset, None, None, run.dataset_args)
    assert len(data.train_y) > 0
    assert not hub_cache.exists() or not any(hub_cache.rglob("*.arrow"))
    assert any((tmp_path / "dptune" / "text" / "arrow").rglob("*.arrow"))


def test_the_memory_probe_runs_on_the_longest_inputs_the_model_reads_not_on_records(
    roberta, reviews, monkeypatch
) -> None:
    """A chunk's size (and a refusal's figures) must say nothing about the data: the probes run the engine
    on inputs made from the model and the data's shape alone, every position of the first a token (the
    longest the model reads), not on the first records (short reviews here, whose chunk would be sized
    for a few tokens and then not fit a batch of long ones)."""
    import dptune.training.train as training

    seen: list[tuple[torch.Tensor, torch.Tensor]] = []

    def probe(run_chunk, share, largest):
        run_chunk(largest)
        return largest

    def recorded(method, engine, step, iterates, batches):
        seen.extend(batches)
        return torch.zeros_like(iterates[0])

    monkeypatch.setattr(training, "measured_host_batch", probe)
    monkeypatch.setattr(training, "clipped_sum", recorded)
    trainer = Trainer(text_run(roberta, reviews, trains="lora"))
    ((x, y),) = seen
    length = int(reviews["max_length"])
    assert int(trainer.train_x[:, 1].sum(1).max()) < length  # the records are all shorter than that
    assert int(x[:, 1].sum(1).max()) == length and len(x) == trainer.engine.physical_batch_size
    assert torch.equal(x, trainer.flat.model.synthetic_inputs(len(x), length))
    assert set(y.tolist()) <= set(range(trainer.data.num_classes))


@pytest.mark.slow
def test_the_text_model_reads_each_sample_as_its_own_tokens_whatever_the_padding(roberta, reviews) -> None:
    """The wrapper's scores of a padded batch equal the transformers model's on each sample alone, cut to
    its tokens: padding changes no output."""
    model, x, _ = trained_model(text_run(roberta, reviews))
    model = model.double()
    batch = x[:6]
    lengths = batch[:, 1].sum(dim=1)
    assert len(set(lengths.tolist())) > 1  # samples of different lengths, padded to 16
    with torch.no_grad():
        together = model(batch)
        for i, length in enumerate(lengths.tolist()):
            alone = model.backbone(input_ids=batch[i : i + 1, 0, :length]).logits
            torch.testing.assert_close(together[i : i + 1], alone, rtol=1e-10, atol=1e-12)


def reference_clipped_sum(
    flat: FlatModel,
    iterates: list[torch.Tensor],
    weights: list[float],
    x: torch.Tensor,
    y: torch.Tensor,
    clip: float,
) -> torch.Tensor:
    """Σ_i clip(Σ_j w_j ∇f_i(θ_j), C): each ∇f_i by autograd on sample i alone, cut to its own tokens."""
    total = torch.zeros_like(iterates[0])
    for i in range(len(y)):
        length = int(x[i, 1].sum())
        alone = x[i : i + 1, :, :length]
        signal = torch.zeros_like(total)
        for w, theta in zip(weights, iterates, strict=True):
            leaf = theta.detach().clone().requires_grad_(True)
            loss = F.cross_entropy(functional_call(flat.model, flat.unflatten(leaf), (alone,)), y[i : i + 1])
            (gradient,) = torch.autograd.grad(loss, [leaf])
            signal += w * gradient
        total += signal * min(1.0, clip / float(signal.norm()))
    return total


@pytest.mark.parametrize("trains", ["all", "lora", "bias", "head"])
@pytest.mark.parametrize("weights", [[1.0], [0.7, 0.3]])
def test_the_ghost_engines_clipped_sum_is_exact_on_roberta(roberta, reviews, trains, weights) -> None:
    """On float64, at one iterate (SGD, Adam) and at two (DP-PMLF's per-sample momentum): the ghost
    engine's clipped sum over a padded batch, with trained and frozen parameters, equals the reference to
    1e-9 relative; its dimension is the trained parameters'."""
    model, x, y = trained_model(text_run(roberta, reviews, trains=trains))
    flat = FlatModel(model.double())
    assert flat.size == sum(p.numel() for p in model.parameters() if p.requires_grad)
    generator = torch.Generator().manual_seed(0)
    start = flat.flatten()
    iterates = [
        start + 0.05 * j * torch.randn(start.shape, generator=generator, dtype=start.dtype)
        for j in range(len(weights))
    ]
    batch, labels = x[:7], y[:7]
    norms = reference_clipped_sum(flat, iterates, weights, batch, labels, math.inf)
    clip = 0.5 * float(norms.norm()) / 7  # some samples clipped, some not
    expected = reference_clipped_sum(flat, iterates, weights, batch, labels, clip)
    got = GhostEngine(flat, 4).clipped_sum(
        iterates, torch.tensor(weights, dtype=torch.float64), batch, labels, clip
    )
    assert float((got - expected).norm()) <= 1e-9 * float(expected.norm())


def test_lora_trains_the_adapters_and_the_head_only(roberta, reviews) -> None:
    """LoRA of rank r on query and value: 2·r·d per target layer, and the head (dense d×d + d, out d×K +
    K) whole; the engine is the ghost one, checked; frozen weights stay the pretrained ones."""
    run = text_run(
        roberta, reviews, trains="lora", lora_rank=4, model_args={"lora_targets": ["query", "value"]}
    )
    trainer = Trainer(run)
    d, r = HIDDEN, 4
    assert trainer.flat.size == LAYERS * 2 * (2 * r * d) + (d * d + d) + (d * CLASSES + CLASSES)
    assert trainer.engine.choice.startswith("ghost") and "checked" in trainer.engine.choice
    frozen = {n: p.detach().clone() for n, p in trainer.flat.model.named_parameters() if not p.requires_grad}
    trainer.fit()
    after = dict(trainer.flat.model.named_parameters())
    assert all(torch.equal(after[n], value) for n, value in frozen.items())
    summary = trainer.summary()
    assert summary["trained_parameters"] == trainer.flat.size and summary["trains"] == "lora"
    assert summary["pretrained"]["name"] == str(roberta) and len(summary["pretrained"]["sha256"]) == 16


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_fine_tunes_with_lora(roberta, reviews, method) -> None:
    run = text_run(roberta, reviews, method=method, trains="lora", lr=0.01)
    trainer = Trainer(run)
    start = trainer.theta.clone()
    trainer.fit()
    assert bool(torch.isfinite(trainer.theta).all()) and not torch.equal(trainer.theta, start)
    assert trainer.accountant.epsilon(trainer.delta) <= 8.0 + 1e-9


class CheckedEngine:
    """The engine training picked, each of its clipped sums compared with the batch-of-one reference
    (``reference_clipped_sum``: every sample's signal by autograd on that sample alone, cut to its own
    tokens) at the same iterates, weights and clip, the difference's norm relative to the b·C that
    bounds the norms of the sum's terms together (the sum itself may cancel to far less); training goes
    on with the engine's."""

    def __init__(self, engine: GhostEngine) -> None:
        self.engine = engine
        self.errors: list[float] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.engine, name)

    def clipped_sum(self, iterates, weights, x, y, clip) -> torch.Tensor:
        got = self.engine.clipped_sum(iterates, weights, x, y, clip)
        expected = reference_clipped_sum(self.engine.flat, iterates, weights.tolist(), x, y, clip)
        self.errors.append(float((got - expected).norm()) / (clip * len(y)))  # at most Σ_i ‖clip(v_i)‖
        return got


@pytest.mark.slow
@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_fine_tunes_with_the_clipped_sums_of_the_batch_of_one_reference(
    roberta, reviews, method
) -> None:
    """Each method, a LoRA fine-tuning of 4 steps: at every step, the clipped sum the ghost engine gives
    the method (at its iterates: DP-PMLF's k of them; its clip, its batch) equals the batch-of-one
    reference to float32's rounding; the method's own step after it (DP-GaLore's projections of the
    trained matrices, FO-DP-SGD's filter, the Adam family's moments) each method's tests check."""
    trainer = Trainer(text_run(roberta, reviews, method=method, trains="lora", lr=0.01))
    assert trainer.engine.name == "ghost"
    checked = CheckedEngine(trainer.engine)
    trainer.engine = checked
    trainer.fit()
    assert trainer.steps_taken == 4 and len(checked.errors) >= 4
    assert max(checked.errors) <= 1e-6, checked.errors


def test_the_engine_check_inputs_of_a_text_model_are_token_ids_with_padding(roberta, reviews) -> None:
    model, x, _ = trained_model(text_run(roberta, reviews))
    inputs, labels = check_inputs(x[:2], CLASSES, None, model)
    assert inputs.dtype == torch.long and inputs.shape == (2, 3, 16)
    assert int(inputs[:, 0].max()) < model.vocabulary and int(inputs[1, 1].sum()) < 16
    engine = clipped_sum_engine(FlatModel(model), 8, "auto", (inputs, labels))
    assert engine.choice.startswith("ghost")


@pytest.mark.slow
def test_the_released_text_model_reads_raw_text_through_mlflow(roberta, reviews, tmp_path) -> None:
    """A LoRA run's release: the adapters merged into the pretrained architecture, logged with its
    tokenizer; the registered model's pyfunc takes raw strings and returns the labels the run's own model
    gives."""
    import mlflow

    from dptune.tracking.mlflow_models import log_released_model

    trainer = Trainer(text_run(roberta, reviews, trains="lora", method="dp-adambc", lr=0.01, epochs=2))
    trainer.fit()
    module = trainer.released_module()
    assert not any("lora" in name for name, _ in module.named_parameters())
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    mlflow.set_tracking_uri(uri)
    run_id = mlflow.MlflowClient().create_run(mlflow.MlflowClient().create_experiment("text")).info.run_id
    card = {
        "method": "dp-adambc",
        "dataset": "text",
        "model": "hf:tiny",
        "epsilon": 8.0,
        "delta": 1e-5,
        "covers": "the run",
        "final_test_accuracy": 50.0,
        "assumes": "—",
        "held_out": "public",
        "noise_source": "secure",
    }
    loaded = mlflow.pyfunc.load_model(log_released_model(uri, run_id, module, (3, 16), card, "reviews"))
    texts = ["a gripping well acted film", "dull", "superb cast and a tender ending"]
    predicted = loaded.predict(texts)
    encoded = module.tokenizer(
        texts,
        max_length=16,
        truncation=True,
        padding="max_length",
        return_tensors="pt",
        return_token_type_ids=True,
    )
    x = torch.stack([encoded["input_ids"], encoded["attention_mask"], encoded["token_type_ids"]], 1)
    with torch.no_grad():
        expected = module(x).argmax(dim=1).tolist()
    assert list(predicted) == expected


def test_dptune_train_fine_tunes_a_pretrained_model_on_csv(roberta, reviews, capsys) -> None:
    argv = [
        "train",
        "--method",
        "dp-adambc",
        "--epsilon",
        "8",
        "--dataset",
        "text",
        "--model",
        f"hf:{roberta}",
    ]
    argv += [f"--dataset-arg={key}={value}" for key, value in reviews.items()]
    argv += ["--trains", "lora", "--lora-rank", "2", "--epochs", "1", "--lr", "0.01", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["trains"] == "lora" and summary["dataset"] == "text" and summary["pretrained"]["sha256"]


def test_train_names_a_dataset_argument_as_its_flag_takes_it(roberta, reviews, capsys) -> None:
    """``dptune train`` spells a knob as its flag (``batch-size``), and a key of ``--dataset-arg`` as that
    flag takes it (``max_length``: ``max-length`` is refused there)."""
    argv = ["train", "--method", "dpsgd", "--model", f"hf:{roberta}", "--dataset", "text", "--epsilon", "1"]
    argv += [f"--dataset-arg={key}={value}" for key, value in (reviews | {"max_length": 64}).items()]
    assert main(argv) != 0
    error = capsys.readouterr().err.strip()
    assert error.splitlines()[-1].startswith("dptune: error: dataset.args.max_length: 64 is above")


def write_labels(path: Path, labels: list[object]) -> Path:
    rows = [(text, label) for (text, _), label in zip(sentences(len(labels), 5), labels, strict=True)]
    return write_csv(path, rows)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"model": "hf:FacebookAI/roberta-base"}, "model", "FacebookAI/roberta-base"),
        ({"dataset_args": {"text": "review"}}, "dataset.args.text", "no column 'review'"),
        ({"dataset_args": {"label": "stars"}}, "dataset.args.label", "no column 'stars'"),
        ({"dataset_args": {"text_pair": "second"}}, "dataset.args.text_pair", "no column 'second'"),
        ({"dataset_args": {"max_length": 64}}, "dataset.args.max_length", "at most 32"),
        ({"model_args": {"lora_targets": ["q_proj"]}, "trains": "lora"}, "model.args.lora_targets", "q_proj"),
        (
            {"model_args": {"lora_targets": ["out_proj"]}, "trains": "lora"},
            "model.args.lora_targets",
            "out_proj lie only in the classification head, which trains whole; name the body's linear layers "
            "to adapt, e.g. [query, value] (the body's linear layers: dense, key, query, value)",
        ),
        ({"model_args": {"task": "translation"}}, "model.args.task", "sequence-classification"),
        ({"model_args": {"task": "image-classification"}}, "model.args.task", "text is text"),
        ({"dataset": "digits", "dataset_args": {}}, "model.args.task", "digits is images"),
        ({"dataset_args": {"num_classes": 1}}, "dataset.args.num_classes", ">= 2"),
        ({"model": "cnn5"}, "model", "pretrained model"),
        (
            {"dataset": "digits", "dataset_args": {}, "model": "cnn5", "trains": "lora"},
            "trains",
            "pretrained",
        ),
    ],
)
def test_bad_fine_tuning_input_is_refused_in_one_line_naming_the_field(
    roberta, reviews, change, field, words
) -> None:
    values = dict(change)
    if values.get("dataset_args"):
        values["dataset_args"] = dict(reviews) | values["dataset_args"]
    with pytest.raises(InputError) as caught:
        Trainer(text_run(roberta, reviews, **values))
    assert caught.value.field == field and words in caught.value.problem
    assert "\n" not in str(caught.value)


def test_an_empty_cell_of_the_text_pair_column_is_refused_not_read_as_none(
    roberta, reviews, tmp_path
) -> None:
    rows = [(text, "" if i == 3 else "and so on", label) for i, (text, label) in enumerate(sentences(40, 5))]
    paired = tmp_path / "paired.csv"
    with open(paired, "w", newline="") as handle:
        csv.writer(handle).writerows([("text", "second", "label"), *rows])
    run = text_run(
        roberta, reviews, dataset_args=dict(reviews) | {"train": str(paired), "text_pair": "second"}
    )
    with pytest.raises(InputError, match="'second' must hold text in every row") as caught:
        load_dataset("text", None, None, run.dataset_args)
    assert caught.value.field == "dataset.args.text_pair"


def test_labels_outside_the_classes_and_a_head_of_another_size_are_refused(
    roberta, reviews, tmp_path
) -> None:
    outside = write_labels(tmp_path / "outside.csv", [0, 1, 2, 1] * 10)
    three = text_run(roberta, reviews, dataset_args=dict(reviews) | {"train": str(outside), "num_classes": 3})
    three_classes = load_dataset("text", None, None, three.dataset_args)
    assert three_classes.num_classes == 3  # tokenized and cached for K = 3: K = 2 must not be read from it
    with pytest.raises(InputError, match=r"training labels run from 0 to 2, but must lie in 0…1") as caught:
        Trainer(text_run(roberta, reviews, dataset_args=dict(reviews) | {"train": str(outside)}))
    assert caught.value.field == "dataset.args.label" and "names in the label column" in caught.value.problem
    from transformers import RobertaForSequenceClassification

    three = tmp_path / "three-way"
    RobertaForSequenceClassification.from_pretrained(roberta, num_labels=3).save_pretrained(three)
    (three / "tokenizer.json").write_bytes((roberta / "tokenizer.json").read_bytes())
    (three / "tokenizer_config.json").write_bytes((roberta / "tokenizer_config.json").read_bytes())
    with pytest.raises(InputError, match="head of another size") as caught:
        Trainer(text_run(roberta, reviews, model=f"hf:{three}"))
    assert caught.value.field == "model"


@pytest.mark.slow
def test_a_total_epsilon_sweep_fine_tunes_with_lora_on_a_cluster_and_registers_a_model_that_reads_raw_text(
    roberta, tmp_path
) -> None:
    """``dptune run`` of a spec naming a pretrained model by folder and text files beside it, on the
    cluster rehearsal (a head that offers trials nothing, as cluster.yaml's, and a worker): one model
    across two methods at total ε 8, LoRA. Every trial runs on the worker, which reads the weights from
    the folder and the text tokenized once into the feature cache on shared storage (``DPTUNE_CACHE``,
    ``HF_HOME``, as cluster.yaml sets them). The registered model at alias total-8 takes raw strings and
    answers labels; its card names the pretrained weights by their file hash among what it assumes public."""
    import shutil

    import mlflow
    import yaml

    from tests.local_cluster import LocalCluster

    shutil.copytree(roberta, tmp_path / "tiny-roberta")
    write_csv(tmp_path / "train.csv", sentences(1500, 11))
    write_csv(tmp_path / "held.csv", sentences(1000, 12))
    spec = {
        "name": "reviews",
        "dataset": {
            "name": "text",
            "args": {"train": "train.csv", "held_out": "held.csv", "num_classes": 2, "max_length": 16},
        },
        "model": {"hf": "tiny-roberta", "task": "sequence-classification"},
        "privacy": {"epsilon": 8.0, "includes_tuning": True},
        "training": {"epochs": 3, "batch_size": 150, "trains": "lora"},
        "methods": ["dpsgd", "dp-adambc"],
        "tracking": {"uri": "mlflow.db"},
    }
    path = tmp_path / "reviews.yaml"
    path.write_text(yaml.safe_dump(spec))
    shared = tmp_path / "shared"
    cluster = LocalCluster(cpus=0)
    try:
        cluster.add_worker(cpus=2)
        head = cluster.head_node_id()
        done = subprocess.run(
            [sys.executable, "-m", "dptune.cli", "run", str(path)],
            cwd=tmp_path,
            env=cluster.env | {"DPTUNE_CACHE": str(shared / "cache"), "HF_HOME": str(shared / "huggingface")},
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        cluster.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    assert "raw text in" in done.stdout and "images" not in done.stdout
    assert len(list((shared / "cache" / "text").glob("*.pt"))) == 1  # tokenized once, for every trial
    assert not list((shared / "huggingface").glob("datasets/**/*.arrow"))  # the private files' copies: ↑
    mlflow.set_tracking_uri(f"sqlite:///{tmp_path / 'mlflow.db'}")
    model = mlflow.pyfunc.load_model("models:/reviews@total-8")
    predicted = model.predict(["a gripping, well acted film", "dull"])
    assert len(predicted) == 2 and set(predicted.tolist()) <= {0, 1}
    version = mlflow.MlflowClient().get_model_version_by_alias("reviews", "total-8")
    card = json.loads(
        Path(mlflow.artifacts.download_artifacts(f"runs:/{version.run_id}/privacy_card.json")).read_text()
    )
    assert card["pretrained"]["sha256"] and "pretrained weights" in card["assumes"]
    assert card["settings"]["trains"] == "lora"
    children = mlflow.search_runs(experiment_names=["reviews"], filter_string="tags.`dptune.node` != ''")
    assert len(children) and head not in set(children["tags.dptune.node"])  # every trial ran on the worker


def test_a_spec_names_a_pretrained_model_and_text_files_beside_it_and_searches_fine_tuning_spaces(
    roberta, reviews, tmp_path
) -> None:
    """``model: {hf: FOLDER}`` and the text files resolve beside the spec; methods named without a space
    search fine-tuning's steps (Adam's 1e-4 to 1e-2 with LoRA, LoRA's rank 4 to 16; 1e-5 to 1e-3 in full);
    ``trains`` is searchable; the user's own text makes the held-out split private by default; a method
    given only its start searches fine-tuning's space from there."""
    import shutil

    from dptune.sweep.spec import parse_spec

    shutil.copytree(roberta, tmp_path / "tiny")
    for key in ("train", "held_out"):
        shutil.copy(reviews[key], tmp_path / Path(str(reviews[key])).name)
    doc = {
        "name": "reviews",
        "dataset": {"name": "text", "args": {"train": "train.csv", "held_out": "held.csv", "num_classes": 2}},
        "model": {"hf": "tiny", "lora_targets": ["query", "value"]},
        "privacy": {"epsilon": 8.0},
        "training": {"trains": "lora", "epochs": 1, "batch_size": 100},
        "methods": ["dp-adambc", "dpsgd"],
    }
    spec = parse_spec(doc, tmp_path)
    run = spec.shared
    assert run.model == f"hf:{(tmp_path / 'tiny').resolve()}" and run.model_args == {
        "lora_targets": ["query", "value"]
    }
    assert run.dataset_args["train"] == str((tmp_path / "train.csv").resolve())
    assert spec.validation == "private"
    adam = spec.methods["dp-adambc"].knobs
    assert adam["effective_lr"].args == (1e-4, 1e-2) and adam["lora_rank"].args == (4, 16)
    full = parse_spec(doc | {"training": {"trains": "all", "epochs": 1, "batch_size": 100}}, tmp_path)
    assert full.methods["dp-adambc"].knobs["effective_lr"].args == (1e-4, 3e-3)
    assert full.methods["dpsgd"].knobs["effective_lr"].args == (0.5, 1.5)
    assert spec.methods["dpsgd"].knobs["effective_lr"].args == (0.5, 10.0)
    assert "lora_rank" not in full.methods["dp-adambc"].knobs
    searched = parse_spec(doc | {"methods": {"dp-adambc": {"trains": {"choice": ["all", "lora"]}}}}, tmp_path)
    assert searched.methods["dp-adambc"].knobs["trains"].values() == ["all", "lora"]
    sgd_step = {"effective_lr": {"loguniform": [0.5, 10.0]}, "clip": {"loguniform": [0.1, 2.0]}}
    rank = {"lora_rank": {"int": [4, 16]}}
    written = {  # fine-tuning's spaces for a trained part, written out as design 19's specs write them
        "dpsgd": sgd_step | rank | {"start": [{"effective_lr": 0.5, "clip": 1.0, "lora_rank": 8}]},
        "dp-pmlf": sgd_step
        | {"k": {"int": [1, 4]}, "beta": {"uniform": [0.0, 0.9]}}
        | {
            "filter": {
                "family": "first-order",
                "pole": {"uniform": [0.5, 0.95]},
                "zero": {"uniform": [-1.0, 0.5]},
            }
        }
        | rank
        | {
            "start": [
                {
                    "effective_lr": 0.5,
                    "clip": 1.0,
                    "k": 2,
                    "beta": 0.1,
                    "filter": {"preset": "pmlf-a0.9-b0.1"},
                    "lora_rank": 8,
                }
            ]
        },
        "dp-adambc": {"effective_lr": {"loguniform": [0.0001, 0.01]}, "clip": {"loguniform": [0.1, 2.0]}}
        | rank
        | {"start": [{"effective_lr": 0.001, "clip": 1.0, "lora_rank": 8}]},
    }
    short = {method: {"start": space["start"]} for method, space in written.items()}
    expected = parse_spec(doc | {"methods": written}, tmp_path).methods
    assert parse_spec(doc | {"methods": short}, tmp_path).methods == expected


def test_a_lora_target_the_model_lacks_is_refused_where_only_a_search_draws_lora(
    roberta, reviews, tmp_path, capsys
) -> None:
    """The spec's own ``trains`` is ``all`` (the adapters' targets shape nothing there), but a method's
    search may draw ``lora``: ``dptune validate`` builds that too, and refuses the target in one line."""
    import yaml

    doc = {
        "name": "reviews",
        "dataset": {
            "name": "text",
            "args": {k: reviews[k] for k in ("train", "held_out", "num_classes", "max_length")},
        },
        "model": {"hf": str(roberta), "lora_targets": ["q_proj"]},
        "privacy": {"epsilon": 8.0},
        "training": {"trains": "all", "epochs": 1, "batch_size": 100},
        "tracking": {"uri": f"sqlite:///{tmp_path / 'mlflow.db'}"},
        "storage_path": str(tmp_path / "ray_results"),
    }
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(yaml.safe_dump(doc | {"methods": ["dpsgd"]}))
    assert main(["validate", str(fixed)]) == 0
    capsys.readouterr()
    searched = tmp_path / "searched.yaml"
    searched.write_text(yaml.safe_dump(doc | {"methods": {"dpsgd": {"trains": {"choice": ["all", "lora"]}}}}))
    assert main(["validate", str(searched)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert "model.args.lora_targets" in err and "q_proj" in err
    assert not (tmp_path / "mlflow.db").exists() and not (tmp_path / "ray_results").exists()


def test_a_specs_paths_may_start_from_the_home_folder(roberta, reviews, tmp_path, monkeypatch) -> None:
    """``~`` in ``model.hf`` and the text files is the user's home folder, whatever folder the spec is in."""
    import os

    from dptune.sweep.spec import parse_spec

    home = Path(os.path.commonpath([roberta, str(reviews["train"])]))
    monkeypatch.setenv("HOME", str(home))
    files = {key: f"~/{Path(str(reviews[key])).relative_to(home)}" for key in ("train", "held_out")}
    doc = {
        "name": "reviews",
        "dataset": {"name": "text", "args": files | {"num_classes": 2}},
        "model": {"hf": f"~/{Path(roberta).relative_to(home)}"},
        "privacy": {"epsilon": 8.0},
        "training": {"epochs": 1, "batch_size": 100},
        "methods": ["dpsgd"],
    }
    run = parse_spec(doc, tmp_path).shared
    assert run.model == f"hf:{Path(roberta).resolve()}"
    assert run.dataset_args["held_out"] == str(Path(str(reviews["held_out"])).resolve())


@pytest.fixture(scope="module")
def tiny_vit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ViT for digits' 1×8×8 images (patches of 4), random weights, saved as a pretrained body."""
    from transformers import ViTConfig, ViTModel

    folder = tmp_path_factory.mktemp("vit")
    config = ViTConfig(
        image_size=8,
        patch_size=4,
        num_channels=1,
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=32,
    )
    torch.manual_seed(0)
    ViTModel(config, add_pooling_layer=False).save_pretrained(folder)
    return folder


def assert_exact_on_images(model: torch.nn.Module, digits, weights: tuple[float, ...] = (1.0,)) -> str:
    """The engine ``auto`` picks for ``model`` on float64: its clipped sum of 6 images at ``weights``'
    iterates (Σ_j w_j ∇f_i(θ_j), DP-PMLF's per-sample momentum where there are two) equals each image's
    own autograd gradients, weighted, clipped and summed, to 1e-9 relative; which engine ran."""
    flat = FlatModel(model.double())
    x, y = digits.train_x[:6].double(), digits.train_y[:6]
    engine = clipped_sum_engine(flat, 6, "auto", check_inputs(x, digits.num_classes, None, flat.model))
    generator = torch.Generator().manual_seed(0)
    start = flat.flatten()
    iterates = [
        start + 0.05 * j * torch.randn(start.shape, generator=generator, dtype=start.dtype)
        for j in range(len(weights))
    ]
    signals = []
    for i in range(len(y)):
        signal = torch.zeros_like(start)
        for w, theta in zip(weights, iterates, strict=True):
            leaf = theta.detach().clone().requires_grad_(True)
            loss = F.cross_entropy(
                functional_call(flat.model, flat.unflatten(leaf), (x[i : i + 1],)), y[i : i + 1]
            )
            signal += w * torch.autograd.grad(loss, [leaf])[0]
        signals.append(signal)
    clip = float(torch.stack([g.norm() for g in signals]).median())
    expected = sum((g * min(1.0, clip / float(g.norm())) for g in signals), torch.zeros_like(start))
    got = engine.clipped_sum(iterates, torch.tensor(weights, dtype=torch.float64), x, y, clip)
    assert float((got - expected).norm()) <= 1e-9 * float(expected.norm())
    return engine.choice


def vit_run(vit: Path, method: str, trains: str, **knobs: object) -> RunConfig:
    """One epoch of ``method`` on digits with the ViT ``vit`` (LoRA on its query and value)."""
    return RunConfig(
        method=method,
        epsilon=8.0,
        dataset="digits",
        model=f"hf:{vit}",
        model_args={"task": "image-classification", "lora_targets": ["q_proj", "v_proj"]},
        trains=trains,
        epochs=1,
        batch_size=200,
        **knobs,
    )


@pytest.mark.parametrize("trains", ["all", "lora"])
@pytest.mark.parametrize("weights", [(1.0,), (0.7, 0.3)])
def test_the_ghost_engine_is_exact_on_a_vits_patches_class_token_and_positions(
    tiny_vit, digits, trains, weights
) -> None:
    """A ViT fine-tuned on digits: the class token and position embeddings have their own rule, so the
    ghost engine runs (checked), and its clipped sum on float64, at one iterate and at two, equals each
    image's own autograd gradients, clipped and summed, to 1e-9."""
    run = vit_run(tiny_vit, "dpsgd", trains)
    trained = Trained(run.trains, run.lora_rank, run.lora_alpha)
    model = build_model(run.model, run.model_args, digits.train_x[:2], digits.num_classes, trained)
    if trains == "all":
        names = {n for n, p in model.named_parameters() if p.requires_grad}
        assert {"backbone.vit.embeddings.cls_token", "backbone.vit.embeddings.position_embeddings"} <= names
    engine = assert_exact_on_images(model, digits, weights)
    assert engine.startswith("ghost")


@pytest.mark.parametrize("trains", ["all", "lora"])
@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_fine_tunes_a_vit(tiny_vit, method, trains) -> None:
    """Each method's step on a pretrained ViT, trained whole or with LoRA (the SGD and Adam families,
    DP-PMLF's k iterates, DP-GaLore's projected matrices, FO-DP-SGD): finite parameters that moved, within
    its ε."""
    trainer = Trainer(vit_run(tiny_vit, method, trains, lr=0.01))
    start = trainer.theta.clone()
    trainer.fit()
    assert bool(torch.isfinite(trainer.theta).all()) and not torch.equal(trainer.theta, start)
    assert trainer.accountant.epsilon(trainer.delta) <= 8.0 + 1e-9


@pytest.fixture(scope="module")
def tiny_timm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """timm's ViT for digits' 1×8×8 images (patches of 4), random weights and a 1000-class head, saved as
    timm saves a model for the hub (``save_for_hf``)."""
    import timm
    from timm.models import save_for_hf

    folder = tmp_path_factory.mktemp("timm-vit")
    shape = {"img_size": 8, "patch_size": 4, "in_chans": 1, "embed_dim": 16, "depth": 2, "num_heads": 2}
    torch.manual_seed(0)
    model = timm.create_model("vit_tiny_patch16_224", pretrained=False, num_classes=1000, **shape)
    save_for_hf(model, folder, model_args=shape, safe_serialization=True)
    return folder


@pytest.mark.parametrize("trains", ["all", "lora"])
def test_a_timm_vit_loads_by_its_folder_and_fine_tunes_exactly(tiny_timm, digits, trains) -> None:
    """A timm model by the same path as a hub name (``hf:FOLDER``, its task images by default): its
    pretrained weights loaded, its 1000-class head replaced by one of the data's 10. Trained whole, its
    class token and positions are the whole network's own parameters, so ``auto`` picks the vmap engine;
    with LoRA on its ``qkv`` they are frozen and the ghost engine runs; either's clipped sum on float64
    equals each image's own autograd gradient, clipped and summed."""
    from safetensors.torch import load_file

    run = RunConfig(
        method="dpsgd",
        epsilon=8.0,
        dataset="digits",
        model=f"hf:{tiny_timm}",
        model_args={"lora_targets": ["qkv"]},
        trains=trains,
        epochs=1,
        batch_size=200,
    )
    trained = Trained(run.trains, run.lora_rank, run.lora_alpha)
    model = build_model(run.model, run.model_args, digits.train_x[:2], digits.num_classes, trained)
    saved = load_file(str(tiny_timm / "model.safetensors"))
    loaded = {n.removeprefix("backbone."): p for n, p in model.named_parameters()}
    if trains == "all":
        assert torch.equal(loaded["pos_embed"], saved["pos_embed"]) and loaded["head.weight"].shape[0] == 10
    else:
        assert {n for n, p in model.named_parameters() if p.requires_grad} >= {
            "backbone.base_model.model.blocks.0.attn.qkv.lora_A.default.weight"
        }
    assert assert_exact_on_images(model, digits).startswith("vmap" if trains == "all" else "ghost")
    Trainer(run).fit()


def test_a_timm_model_is_an_image_model_and_its_hub_name_offline_is_refused_in_one_line(tiny_timm) -> None:
    """Text for a timm model's task, and a timm hub name neither cached nor reachable: one line each,
    naming the field (and, offline, ``HF_HOME`` and how to fetch it)."""
    with pytest.raises(InputError) as caught:
        RunConfig(
            method="dpsgd",
            epsilon=8.0,
            dataset="digits",
            model=f"hf:{tiny_timm}",
            model_args={"task": "sequence-classification"},
        )
    assert caught.value.field == "model.args.task" and "image-classification" in caught.value.problem
    with pytest.raises(InputError) as caught:
        build_model("hf:timm/vit_tiny_patch16_224.augreg_in21k", {}, torch.zeros(2, 3, 8, 8), 10)
    assert caught.value.field == "model" and "HF_HOME" in caught.value.problem
    assert "hf download timm/vit_tiny_patch16_224.augreg_in21k" in caught.value.problem
    assert "save_for_hf" in caught.value.problem and "save_pretrained" not in caught.value.problem
    assert "\n" not in str(caught.value)


def test_a_bert_whose_positions_are_one_row_for_the_batch_takes_the_exact_ghost_engine(
    roberta, reviews, tmp_path
) -> None:
    """BERT slices one ``[1, T]`` row of position ids for the whole batch, so its position embedding's
    trace would hold the batch's summed gradient (the ghost engine's check failed and the vmap engine,
    forming every per-sample gradient, was taken). Given 0…T−1 per sample (the same function), a fully
    fine-tuned BERT takes the ghost engine, and its clipped sum over a padded batch equals the
    batch-of-one reference in float64."""
    import shutil

    from transformers import BertConfig, BertModel

    config = BertConfig(
        vocab_size=len(json.loads((roberta / "tokenizer.json").read_text())["model"]["vocab"]),
        hidden_size=HIDDEN,
        num_hidden_layers=LAYERS,
        num_attention_heads=2,
        intermediate_size=2 * HIDDEN,
        max_position_embeddings=34,
        pad_token_id=1,
    )
    torch.manual_seed(0)
    BertModel(config, add_pooling_layer=False).save_pretrained(tmp_path)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(roberta / name, tmp_path / name)
    run = text_run(roberta, reviews, model=f"hf:{tmp_path}")
    trainer = Trainer(run)
    assert trainer.engine.choice.startswith("ghost")
    model, x, y = trained_model(run)
    flat = FlatModel(model.double())
    theta = [flat.flatten()]
    batch, labels = x[:7], y[:7]
    assert len(set(batch[:, 1].sum(1).tolist())) > 1  # padded to different lengths
    norms = reference_clipped_sum(flat, theta, [1.0], batch, labels, math.inf)
    clip = 0.5 * float(norms.norm()) / 7
    expected = reference_clipped_sum(flat, theta, [1.0], batch, labels, clip)
    got = GhostEngine(flat, 4).clipped_sum(theta, torch.ones(1, dtype=torch.float64), batch, labels, clip)
    assert float((got - expected).norm()) <= 1e-9 * float(expected.norm())


@pytest.mark.parametrize(
    ("kind", "per_sample"), [("Bert", True), ("Electra", True), ("Roberta", False), ("MPNet", False)]
)
def test_position_ids_are_given_only_where_they_are_the_models_own(kind, per_sample) -> None:
    """Given 0…T−1 for each sample only where that is the function the model computes without them
    (BERT's and ELECTRA's one shared row); RoBERTa and MPNet count from the padding index + 1, so theirs
    are kept. Either way the wrapper's scores of a padded batch equal ``transformers``' own forward."""
    import transformers

    from dptune.models.pretrained import TextClassifier

    config = getattr(transformers, f"{kind}Config")(
        vocab_size=40,
        hidden_size=HIDDEN,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=2 * HIDDEN,
        max_position_embeddings=34,
        pad_token_id=1,
        num_labels=2,
    )
    torch.manual_seed(0)
    backbone = getattr(transformers, f"{kind}ForSequenceClassification")(config).eval()
    model = TextClassifier(backbone, 40)
    assert model.positions_per_sample is per_sample
    x = model.synthetic_inputs(4, 12)
    x[2, 1, 5:] = 0
    x[:, 0] = torch.where(x[:, 1] == 1, x[:, 0].clamp(min=3), 1)  # padding: the pad token
    with torch.no_grad():
        own = backbone(input_ids=x[:, 0], attention_mask=x[:, 1]).logits
        torch.testing.assert_close(model(x), own, rtol=0, atol=0)


def test_the_vmap_engine_agrees_with_the_ghost_engine_on_roberta(roberta, reviews) -> None:
    """The two engines, one materialising every per-sample gradient by ``torch.func.vmap`` (the model
    given an additive attention mask there), the other from layer inputs and output gradients, give the
    same clipped sum over a padded batch in float64."""
    from dptune.engine.persample import VmapEngine

    model, x, y = trained_model(text_run(roberta, reviews, trains="lora"))
    flat = FlatModel(model.double())
    theta = [flat.flatten()]
    ones = torch.ones(1, dtype=torch.float64)
    ghost = GhostEngine(flat, 8).clipped_sum(theta, ones, x[:8], y[:8], 0.05)
    vmapped = VmapEngine(flat, 8).clipped_sum(theta, ones, x[:8], y[:8], 0.05)
    assert float((ghost - vmapped).norm()) <= 1e-9 * float(ghost.norm())


@pytest.mark.slow
@pytest.mark.parametrize("vit", ["tiny_vit", "tiny_timm"])
def test_a_released_vit_resizes_inside_the_model_and_answers_as_it_does(
    vit, digits, tmp_path, request
) -> None:
    """A pretrained ViT (transformers', timm's) at 8×8 given 4×4 images (digits cut down) resizes them
    inside the model; its release, MLflow's exported graph, answers the pyfunc's rows as the module does."""
    import mlflow

    from dptune.tracking.mlflow_models import log_released_model

    small = digits.train_x[:5, :, ::2, ::2].contiguous()
    folder = request.getfixturevalue(vit)
    model = build_model(f"hf:{folder}", {"task": "image-classification"}, small, digits.num_classes).eval()
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    client = mlflow.MlflowClient(tracking_uri=uri)
    run_id = client.create_run(client.create_experiment("vit")).info.run_id
    card = {
        "method": "dpsgd",
        "dataset": "digits",
        "model": "hf:tiny-vit",
        "epsilon": 8.0,
        "delta": 1e-5,
        "covers": "the run",
        "final_test_accuracy": 50.0,
        "assumes": "—",
        "held_out": "public",
        "noise_source": "secure",
    }
    loaded = mlflow.pyfunc.load_model(log_released_model(uri, run_id, model, (1, 4, 4), card, "vit"))
    with torch.no_grad():
        expected = model(small).argmax(dim=1).tolist()
    assert list(loaded.predict(small.reshape(5, -1).numpy())) == expected


def hub_cache(home: Path, repo: str, folder: Path, commit: str) -> None:
    """``folder``'s files as the Hugging Face cache under ``home`` holds ``repo`` at ``commit``, the main
    branch pointing at it (the layout ``hf download`` writes)."""
    import shutil

    stored = home / "hub" / f"models--{repo.replace('/', '--')}"
    shutil.copytree(folder, stored / "snapshots" / commit)
    (stored / "refs").mkdir()
    (stored / "refs" / "main").write_text(commit)


class CountingHub:
    """A hub endpoint on loopback that records the request line of each connection made to it and closes
    it at once, as one that answers nothing: every request to it fails, and none goes unseen. With
    ``reachable``, it answers ``hub_reachable``'s probe and says every file is not found (a hub that holds
    none of the model's files at the commit asked), so a load's requests show what it asked for."""

    TELEMETRY = "/api/agent-harnesses"
    """``huggingface_hub``'s own best-effort fetch of a registry for its user-agent header (at most once a
    process, 3 s at most, its failure swallowed): not a request for a model, and no choice of dptune's."""

    def __init__(self, reachable: bool = False) -> None:
        import socket
        import threading

        self.reachable = reachable
        self.requests: list[str] = []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:  # closed
                return
            line = connection.recv(4096).split(b"\r\n")[0].decode(errors="replace")
            self.requests.append(line)
            if self.reachable:
                status = (
                    "200 OK" if line.startswith("HEAD / ") else "404 Not Found\r\nX-Error-Code: EntryNotFound"
                )
                connection.sendall(
                    f"HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode()
                )
            connection.close()

    @property
    def model_requests(self) -> list[str]:
        return [line for line in self.requests if self.TELEMETRY not in line]


@pytest.mark.parametrize("offline", [True, False], ids=["HF_HUB_OFFLINE", "unreachable-hub"])
def test_a_hub_name_loads_from_the_local_cache_and_the_card_and_the_run_name_its_commit(
    roberta, tiny_timm, tmp_path, offline
) -> None:
    """With the model in the Hugging Face cache only, offline by ``HF_HUB_OFFLINE`` or with a hub that
    answers nothing (what an air-gapped user has): ``hf:ORG/NAME`` loads from the cache (transformers'
    and timm's) with no connection to the hub, and both the card's statement (``stated_weights``, made
    without loading) and the run's record (``pretrained_weights``) name the cached commit, not the
    branch. A name the cache lacks, and a snapshot that holds only a ``config.json`` (what loading a
    configuration alone leaves) asked for its tokenizer or timm weights, are each the one-line refusal
    after one connection (``hub_reachable``'s), not a tokenizer made from nothing or timm's error."""
    text_commit, image_commit = "1" * 40, "2" * 40
    hub_cache(tmp_path, "dptune-tests/tiny-roberta", roberta, text_commit)
    hub_cache(tmp_path, "timm/tiny-vit", tiny_timm, image_commit)
    only_config = tmp_path / "only-config"
    only_config.mkdir()
    for repo, folder in (("dptune-tests/partial", roberta), ("timm/partial", tiny_timm)):
        (only_config / "config.json").write_text((folder / "config.json").read_text())
        hub_cache(tmp_path, repo, only_config, "3" * 40)
    script = """
import json, torch
from dptune.base.errors import InputError
from dptune.models.pretrained import load_pretrained, load_tokenizer, pretrained_weights
from dptune.models.pretrained_names import stated_weights
found = {}
names = {"hf:dptune-tests/tiny-roberta": {}, "hf:timm/tiny-vit": {"task": "image-classification"}}
for name, args in names.items():
    model = load_pretrained(name, args, 2)
    found[name] = [stated_weights(name, args), pretrained_weights(name, args, model)["pretrained"]]
found["tokens"] = load_tokenizer("hf:dptune-tests/tiny-roberta", None)("good film")["input_ids"]
refused = {
    "not-cached": lambda: load_pretrained("hf:dptune-tests/not-cached", {}, 2),
    "partial-tokenizer": lambda: load_tokenizer("hf:dptune-tests/partial", None),
    "partial-timm": lambda: load_pretrained("hf:timm/partial", {"task": "image-classification"}, 2),
}
for what, load in refused.items():
    try:
        load()
    except InputError as refusal:
        found[what] = str(refusal)
print(json.dumps(found))
"""
    hub = CountingHub()
    env = {"HF_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HF_ENDPOINT": hub.url}
    env |= {"HF_HUB_OFFLINE": "1"} if offline else {}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
    )
    hub.server.close()
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    for name, commit in (("hf:dptune-tests/tiny-roberta", text_commit), ("hf:timm/tiny-vit", image_commit)):
        expected = {"name": name.removeprefix("hf:"), "revision": commit}
        assert found[name] == [expected, expected]
    assert len(found["tokens"]) > 2
    for what, repo in (
        ("not-cached", "dptune-tests/not-cached"),
        ("partial-tokenizer", "dptune-tests/partial"),
    ):
        assert found[what].startswith("model:") and f"hf download {repo}" in found[what]
    assert found["partial-timm"].startswith("model:") and "hf download timm/partial" in found["partial-timm"]
    assert hub.model_requests == ([] if offline else ["HEAD / HTTP/1.1"] * 3)  # a probe for each refusal


def test_a_revision_the_cache_holds_is_its_commit_for_every_file_the_hub_gives(roberta, tmp_path) -> None:
    """The cache holds a model's ``config.json`` alone at commit X, the main branch pointing at it (what
    loading a configuration leaves): its weights and its tokenizer are asked of the hub at X, not at the
    branch, which may have moved on; a model's files are one commit's, the one its card names."""
    commit = "4" * 40
    only_config = tmp_path / "only-config"
    only_config.mkdir()
    (only_config / "config.json").write_text((roberta / "config.json").read_text())
    hub_cache(tmp_path, "dptune-tests/moved", only_config, commit)
    script = """
from dptune.base.errors import InputError
from dptune.models.pretrained import load_pretrained, load_tokenizer
name = "hf:dptune-tests/moved"
for load in (lambda: load_pretrained(name, {}, 2), lambda: load_tokenizer(name, None)):
    try:
        load()
    except InputError as refusal:
        print(refusal)
"""
    hub = CountingHub(reachable=True)
    env = {"HF_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HF_ENDPOINT": hub.url}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
    )
    hub.server.close()
    assert done.returncode == 0, done.stderr[-3000:]
    weights, tokenizer = done.stdout.strip().splitlines()
    assert weights.startswith(
        f"model: hf:dptune-tests/moved: its weights not found in the Hugging Face cache or on the hub "
        f"(at {commit})"
    )
    assert tokenizer.startswith("model: hf:dptune-tests/moved: its tokenizer has no vocabulary")
    asked = [line for line in hub.model_requests if "dptune-tests/moved" in line]
    assert any(f"/resolve/{commit}/model.safetensors" in line for line in asked), hub.requests
    assert any(f"/resolve/{commit}/tokenizer" in line for line in asked), hub.requests
    assert not [line for line in asked if commit not in line], hub.requests


def test_a_folder_without_a_tokenizer_is_refused_not_read_as_two_tokens(roberta, tmp_path) -> None:
    """``transformers`` makes a tokenizer of the special tokens alone from a folder holding a
    ``config.json`` and no vocabulary, without an error: every text would be the same two tokens."""
    from dptune.models.pretrained import load_tokenizer

    folder = tmp_path / "no-tokenizer"
    folder.mkdir()
    (folder / "config.json").write_text((roberta / "config.json").read_text())
    with pytest.raises(InputError) as caught:
        load_tokenizer(f"hf:{folder}", None)
    assert caught.value.field == "model" and "has no vocabulary" in caught.value.problem
    assert len(load_tokenizer(f"hf:{roberta}", None)("a good film")["input_ids"]) > 2


def test_a_folders_identity_covers_its_configuration_and_tokenizer_not_only_its_weights(
    roberta, tmp_path
) -> None:
    """The card's hash of a checkpoint folder pins the model's function: the same weights under another
    configuration (another activation) or another vocabulary are another model; a README is not."""
    import shutil

    from dptune.models.pretrained_names import folder_identity

    copies = {}
    for name in ("same", "config", "vocabulary", "readme"):
        copies[name] = tmp_path / name
        shutil.copytree(roberta, copies[name])
    config = json.loads((copies["config"] / "config.json").read_text())
    (copies["config"] / "config.json").write_text(json.dumps(config | {"hidden_act": "relu"}))
    tokenizer = copies["vocabulary"] / "tokenizer.json"
    tokenizer.write_text(tokenizer.read_text().replace('"dull"', '"grey"', 1))
    (copies["readme"] / "README.md").write_text("a model card")
    digest = {name: folder_identity(str(folder)).sha256 for name, folder in copies.items()}
    assert folder_identity(str(roberta)).sha256 == digest["same"] == digest["readme"]
    assert len({digest["same"], digest["config"], digest["vocabulary"]}) == 3
