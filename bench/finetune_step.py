"""Benchmark: a DP fine-tuning step against a non-private step and Opacus, side by side (RoBERTa, ViT).

Three rows, each on one fixed batch, its models built from their configurations with random weights (no
hub access is needed; the cost of a step does not depend on the weights' values), dropout off as
``dptune.models.pretrained`` loads them:

* ``roberta-full``: a RoBERTa-base-sized ``RobertaForSequenceClassification`` (``RobertaConfig()``'s
  defaults: 12 layers, hidden 768, vocabulary 50,265; 2 labels) in ``TextClassifier``, every parameter
  trained, ``--seq-len`` tokens per sequence (no padding);
* ``roberta-lora``: the same with LoRA (rank 8, α 16, on query and value; the head trained whole) through
  ``select_trained(model, Trained("lora", 8, 16, ["query", "value"]))``;
* ``vit``: a small ``ViTForImageClassification`` (32×32 images, patch 4, 6 layers of width 192, 3
  heads, MLP 768, 10 labels) in ``ImageClassifier``, every parameter trained, on random pixels.

Per row, three steps on the same model, batch and device:

1. **non-private**: plain autograd, forward and backward of the batch's mean cross-entropy, then SGD's
   update of the trained parameters;
2. **dptune DP**: the clipped sum Σ_i clip(∇f_i, C) of the engine training would use
   (``clipped_sum_engine(flat, B, "auto", check_inputs(...))``: checked against autograd once, before
   timing), plus Gaussian noise N(0, σ²C²) (σ = C = 1) from the sampler training uses (``TorchNoise`` on
   a secret ``stream_generators`` stream: on a CPU two Mersenne Twisters, each drawing half the vector,
   in threads), then θ ← θ − η·(sum + noise)/B;
3. **Opacus**, in its two modes, on a deep copy of the model in training mode (its hooks record nothing
   in eval mode; with dropout off the function is the same), σ = C = 1: fast gradient clipping with
   ghost norms (``PrivacyEngine.make_private(..., grad_sample_mode="ghost")``: a first backward pass for
   the per-sample norms, a second for the clipped sum; its ``DPOptimizerFastGradientClipping`` adds the
   noise and steps SGD), and per-sample gradients by hooks (``"hooks"``); "Opacus's best" is the faster.
   Opacus's embedding norm sampler ``.view``s the token ids, which fails on ``TextClassifier``'s strided
   slice ``x[:, 0]``, so the Opacus copy of a text model passes the backbone contiguous copies of the
   ids, mask and token types (the same values: what an Opacus user feeding ``input_ids`` directly does).
   A mode that fails on a row has why in the table instead of a time (``--opacus-modes`` picks them).

Every step is called once first (warm-up); then ``--repeats`` rounds interleave the row's steps, and a
time is the median over rounds. Ratios (DP / non-private, DP / Opacus) are of those medians, in the same
run. Peak memory is what one step holds at its peak above what was held just before it, the largest over
the timed calls: on CUDA the allocator's peak; on a CPU the resident set's high-water mark (``VmHWM``),
reset through ``/proc/self/clear_refs`` after freed memory is handed back to the system
(``malloc_trim``), outside the timed region. Every step frees its gradients after its update, so they
count; what persists between steps (the weights, θ) does not. A step whose allocations reuse memory the
allocator kept would be undercounted: read the figures as sizes, not to the MiB.

    python bench/finetune_step.py [--device cpu] [--threads 2] [--repeats 3] [--batch roberta=8]
                                  [--batch vit=32] [--seq-len 128] [--rows roberta-full,vit]
                                  [--opacus-modes ghost,hooks] [--profile] [--quick] [--note TEXT]

``--profile`` also runs one DP step and one non-private step of each row under ``torch.profiler`` and
prints their top operators (not written to RESULTS.md). ``--quick`` runs a 2-layer RoBERTa on 32 tokens
and small batches once: a check that the script runs, no figures written. On CUDA the section's title
names the GPU, so a GPU run writes a section of its own.
"""

from __future__ import annotations

import argparse
import copy
import ctypes
import datetime as dt
import json
import os
import platform
import secrets
import statistics
import subprocess
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script
from torch import nn

from dptune.base.randomness import SEED_BITS, stream_generators
from dptune.engine.engine_choice import check_inputs, clipped_sum_engine
from dptune.engine.persample import FlatModel
from dptune.methods.privatize import TorchNoise
from dptune.models.pretrained import ImageClassifier, TextClassifier, image_side
from dptune.models.trained_parts import Trained, select_trained

ROWS = ("roberta-full", "roberta-lora", "vit")
BATCH = {"cpu": {"roberta": 8, "vit": 32}, "cuda": {"roberta": 32, "vit": 256}}
"""Batch sizes by device and model family: on a CPU small enough that a row takes about a minute."""
GOALS = {"roberta-full": 1.3, "roberta-lora": 1.1, "vit": 1.3}
"""Goals on a CPU: the DP step at most this many non-private steps (full fine-tuning 1.3×, LoRA 1.1×), and
below Opacus on every row."""
LR = 1e-3
SIGMA = 1.0
CLIP = 1.0
NO_DROPOUT: dict[str, Any] = {"hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0}


@dataclass
class Row:
    """One row's model (trained parameters requiring a gradient), fixed batch and description."""

    name: str
    title: str
    model: nn.Module
    x: torch.Tensor
    y: torch.Tensor
    classes: int


def roberta_row(name: str, batch: int, seq_len: int, quick: bool, device: torch.device) -> Row:
    """RoBERTa-base from ``RobertaConfig()`` (2 layers with ``quick``), full or LoRA."""
    import transformers

    torch.manual_seed(0)
    layers = {"num_hidden_layers": 2} if quick else {}
    config = transformers.RobertaConfig(**{"num_labels": 2} | NO_DROPOUT | layers)
    model: torch.nn.Module = TextClassifier(
        transformers.RobertaForSequenceClassification(config), config.vocab_size
    )
    if name == "roberta-lora":
        model = select_trained(model, Trained("lora", 8, 16, ["query", "value"]))
    ids = torch.randint(3, config.vocab_size, (batch, seq_len))  # 0-2: <s>, <pad>, </s>
    x = torch.stack([ids, torch.ones_like(ids), torch.zeros_like(ids)], dim=1)
    y = torch.randint(0, 2, (batch,))
    what = "LoRA r=8, α=16 (query, value) + head" if name == "roberta-lora" else "full"
    size = f"{config.num_hidden_layers} layers" if quick else "roberta-base size"
    title = f"RoBERTa ({size}, random weights), {what}, {seq_len} tokens"
    return Row(name, title, model.train().to(device), x.to(device), y.to(device), 2)


def vit_row(batch: int, device: torch.device) -> Row:
    """The small ViT (module docstring) on random 3×32×32 pixels."""
    import transformers

    torch.manual_seed(0)
    config = transformers.ViTConfig(
        image_size=32,
        patch_size=4,
        hidden_size=192,
        num_hidden_layers=6,
        num_attention_heads=3,
        intermediate_size=768,
        **{"num_labels": 10} | NO_DROPOUT,
    )
    backbone = transformers.ViTForImageClassification(config)
    model = ImageClassifier(backbone, image_side(backbone))
    x, y = torch.randn(batch, 3, 32, 32), torch.randint(0, 10, (batch,))
    title = "ViT (6 layers × 192, patch 4, random weights), full, 3×32×32"
    return Row("vit", title, model.train().to(device), x.to(device), y.to(device), 10)


class ContiguousText(nn.Module):
    """``TextClassifier`` for Opacus: the backbone gets contiguous ids, mask and token types (module
    docstring)."""

    def __init__(self, text: TextClassifier) -> None:
        super().__init__()
        self.backbone = text.backbone

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        ids, mask, types = (x[:, k].contiguous() for k in range(3))
        return self.backbone(input_ids=ids, attention_mask=mask, token_type_ids=types).logits


def trained(model: nn.Module) -> list[nn.Parameter]:
    return [p for p in model.parameters() if p.requires_grad]


def nonprivate_step(row: Row) -> Callable[[], None]:
    """Forward and backward of the mean loss, then SGD's update."""
    optimizer = torch.optim.SGD(trained(row.model), lr=LR)

    def step() -> None:
        F.cross_entropy(row.model(row.x), row.y).backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)  # after the update: no gradient is held between steps

    return step


def dptune_step(row: Row) -> tuple[Callable[[], None], str, str]:
    """dptune's DP-SGD step (module docstring); also the engine's name and its ``choice``."""
    flat = FlatModel(row.model)
    example = check_inputs(row.x[:2], row.classes, row.x.device, row.model)
    engine = clipped_sum_engine(flat, row.x.shape[0], "auto", example)
    theta = flat.flatten()
    ones = torch.ones(1, device=theta.device)
    batch = row.x.shape[0]
    noise = TorchNoise(stream_generators(secrets.randbits(SEED_BITS), theta.device))

    def step() -> None:
        total = engine.clipped_sum([theta], ones, row.x, row.y, CLIP)
        total.add_(noise.gaussian(total, SIGMA * CLIP))
        theta.sub_(total, alpha=LR / batch)

    return step, engine.name, engine.choice


def opacus_step(row: Row, mode: str) -> Callable[[], None]:
    """Opacus's DP-SGD step in ``mode`` (ghost or hooks) on a deep copy of the row's model."""
    from opacus import PrivacyEngine

    model = copy.deepcopy(row.model)
    if isinstance(model, TextClassifier):
        model = ContiguousText(model)
    optimizer = torch.optim.SGD(trained(model), lr=LR)
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(row.x.cpu(), row.y.cpu()), batch_size=row.x.shape[0]
    )
    criterion = nn.CrossEntropyLoss()
    made = PrivacyEngine().make_private(
        module=model,
        optimizer=optimizer,
        data_loader=loader,
        criterion=criterion,
        noise_multiplier=SIGMA,
        max_grad_norm=CLIP,
        grad_sample_mode=mode,
    )
    module, dp_optimizer = made[0], made[1]
    loss_fn = made[2] if mode == "ghost" else criterion

    def step() -> None:
        loss_fn(module(row.x), row.y).backward()
        dp_optimizer.step()
        dp_optimizer.zero_grad(set_to_none=True)  # also its per-sample norms or gradients

    return step


def _status_mib(key: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key):
            return int(line.split()[1]) / 1024
    raise KeyError(key)


def measured(step: Callable[[], None], device: torch.device) -> tuple[float, float | None]:
    """(seconds, peak MiB above what was held before) of one call of ``step`` (module docstring); the
    memory None on a CPU whose system does not let the peak be reset."""
    before: float | None = None
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        torch.cuda.reset_peak_memory_stats(device)
        before = torch.cuda.memory_allocated(device) / 2**20
    else:
        try:
            ctypes.CDLL("libc.so.6").malloc_trim(0)
            Path("/proc/self/clear_refs").write_text("5")
            before = _status_mib("VmRSS:")
        except OSError:
            before = None
    start = time.perf_counter()
    step()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    seconds = time.perf_counter() - start
    if before is None:
        return seconds, None
    if device.type == "cuda":
        return seconds, torch.cuda.max_memory_allocated(device) / 2**20 - before
    return seconds, _status_mib("VmHWM:") - before


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()).replace("|", "/")  # a table cell
    return f"{type(exc).__name__}: {text[:160]}"


def profile(name: str, step: Callable[[], None], device: torch.device, top: int = 12) -> None:
    """Print the top operators of one call of ``step`` by their own time."""
    activities = [torch.profiler.ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    with torch.profiler.profile(activities=activities) as prof:
        step()
        if device.type == "cuda":
            torch.cuda.synchronize(device)
    key = "self_cuda_time_total" if device.type == "cuda" else "self_cpu_time_total"
    print(f"\n### profile: {name}\n")
    print(prof.key_averages().table(sort_by=key, row_limit=top, max_name_column_width=60))


def row_cost(
    row: Row, modes: list[str], repeats: int, device: torch.device, profiled: bool
) -> dict[str, Any]:
    """Every step of one row, warmed up, then ``repeats`` interleaved rounds (module docstring)."""
    started = time.perf_counter()
    dp, engine, choice = dptune_step(row)
    steps: dict[str, Callable[[], None]] = {"non-private": nonprivate_step(row), "dptune DP": dp}
    failed: dict[str, str] = {}
    for mode in modes:
        name = f"Opacus {mode}"
        try:
            steps[name] = opacus_step(row, mode)
            steps[name]()  # its warm-up: a mode that fails does so here
        except Exception as exc:  # an unsupported layer, a shape Opacus refuses: reported, not timed
            failed[name] = _short(exc)
            steps.pop(name, None)
    for name, step in steps.items():
        if not name.startswith("Opacus"):
            step()
    times: dict[str, list[float]] = {name: [] for name in steps}
    peaks: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(repeats):
        for name, step in steps.items():
            seconds, peak = measured(step, device)
            times[name].append(seconds)
            if peak is not None:
                peaks[name].append(peak)
    if profiled:
        profile(f"{row.name}: dptune DP ({engine})", dp, device)
        profile(f"{row.name}: non-private", steps["non-private"], device)
    median = {name: statistics.median(t) for name, t in times.items()}
    opacus = {name: t for name, t in median.items() if name.startswith("Opacus")}
    best = min(opacus, key=opacus.__getitem__) if opacus else None
    return {
        "title": row.title,
        "batch_size": row.x.shape[0],
        "trained_parameters": sum(p.numel() for p in trained(row.model)),
        "parameters": sum(p.numel() for p in row.model.parameters()),
        "engine": engine,
        "engine_choice": choice,
        "seconds": times,
        "median_s": median,
        "peak_mib": {name: max(p) for name, p in peaks.items() if p},
        "failed": failed,
        "dp_over_nonprivate": median["dptune DP"] / median["non-private"],
        "opacus_best": best,
        "dp_over_opacus": median["dptune DP"] / opacus[best] if best else None,
        "fastest_dp_over_nonprivate": min(times["dptune DP"]) / min(times["non-private"]),
        "fastest_dp_over_opacus": (
            min(times["dptune DP"]) / min(min(times[n]) for n in opacus) if opacus else None
        ),
        "wall_s": time.perf_counter() - started,
    }


def _cell(result: dict[str, Any], name: str) -> str:
    if name in result["failed"]:
        return f"fails: {result['failed'][name]} | –"
    if name not in result["median_s"]:
        return "not measured | –"
    peak = result["peak_mib"].get(name)
    return f"{result['median_s'][name]:.2f} | {'n/a' if peak is None else f'{peak:.0f}'}"


def _count(n: int) -> str:
    return f"{n / 1e6:.1f}M" if n >= 1e5 else f"{n / 1e3:.0f}k"


def table(results: dict[str, dict[str, Any]], modes: list[str]) -> list[str]:
    """One line per row: each step's median seconds and peak MiB, dptune's engine, and the two ratios."""
    opacus = [f"Opacus {m}" for m in modes]
    head = ["row", "batch", "trained", "non-private s", "MiB", "dptune DP s", "MiB", "engine"]
    head += [part for name in opacus for part in (f"{name} s", "MiB")]
    head += ["DP / non-private (goal)", "DP / Opacus"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, r in results.items():
        ratio = r["dp_over_opacus"]
        cells = [
            r["title"],
            str(r["batch_size"]),
            f"{_count(r['trained_parameters'])} of {_count(r['parameters'])}",
            _cell(r, "non-private"),
            _cell(r, "dptune DP"),
            r["engine"],
            *(_cell(r, m) for m in opacus),
            f"**{r['dp_over_nonprivate']:.2f}×** (≤ {GOALS[name]}×)",
            "Opacus failed" if ratio is None else f"**{ratio:.2f}×** (vs {r['opacus_best']})",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def verdicts(results: dict[str, dict[str, Any]]) -> list[str]:
    lines = []
    for name, r in results.items():
        goal, ratio = GOALS[name], r["dp_over_nonprivate"]
        against = r["dp_over_opacus"]
        opacus = (
            "Opacus could not run it"
            if against is None
            else f"{against:.2f}× {r['opacus_best']} (below it: {'met' if against < 1 else 'not met'})"
        )
        fastest = r["fastest_dp_over_opacus"]
        lines.append(
            f"- {name}: DP {ratio:.2f}× non-private (≤ {goal}×: {'met' if ratio <= goal else 'not met'}); "
            f"{opacus}; fastest rounds instead of medians: {r['fastest_dp_over_nonprivate']:.2f}× "
            f"non-private{'' if fastest is None else f', {fastest:.2f}× Opacus fastest'}; engine: "
            f"{r['engine_choice']}; rounds (s): "
            + "; ".join(f"{n} " + ", ".join(f"{t:.2f}" for t in ts) for n, ts in r["seconds"].items())
        )
    return lines


def checkout() -> str:
    """The commit the dptune measured comes from, and whether its package had uncommitted changes."""
    root = Path(__file__).resolve().parents[1]

    def git(*args: str) -> str:
        run = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)
        return run.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--", "dptune")
    return f"commit {commit}" + (" with uncommitted changes in dptune/" if changed else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=2, help="torch's CPU threads")
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds after the warm-up")
    parser.add_argument(
        "--batch", action="append", default=[], help="roberta=N or vit=N: a batch size other than the default"
    )
    parser.add_argument("--seq-len", type=int, default=128, help="tokens per sequence (RoBERTa rows)")
    parser.add_argument("--rows", default=",".join(ROWS), help=f"comma-separated, of {', '.join(ROWS)}")
    parser.add_argument("--opacus-modes", default="ghost,hooks", help="comma-separated, of ghost and hooks")
    parser.add_argument("--profile", action="store_true", help="print one DP step's top operators per row")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, once: check the script runs")
    parser.add_argument("--note", help="a line about the conditions, written under the table")
    parser.add_argument("--json", type=Path, help="also save the raw results here")
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    args = parser.parse_args()
    warnings.filterwarnings("ignore")  # Opacus's and transformers' notices, once per step
    torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    batch = BATCH[device.type] | {m: int(n) for m, n in (b.split("=", 1) for b in args.batch)}
    seq_len, repeats = args.seq_len, args.repeats
    if args.quick:
        batch, seq_len, repeats = {"roberta": 2, "vit": 4}, min(seq_len, 32), 1
    modes = [m for m in args.opacus_modes.split(",") if m]
    load_start = os.getloadavg()
    code = checkout()  # at the start: the modules are imported by now
    started = time.perf_counter()
    results: dict[str, dict[str, Any]] = {}
    for name in args.rows.split(","):
        if name == "vit":
            row = vit_row(batch["vit"], device)
        else:
            row = roberta_row(name, batch["roberta"], seq_len, args.quick, device)
        results[name] = row_cost(row, modes, repeats, device, args.profile)
        del row
        shown = {k: v for k, v in results[name].items() if k != "seconds"}
        print(f"{name}: {json.dumps(shown, default=str, ensure_ascii=False)}", flush=True)
    wall = time.perf_counter() - started
    load_end = os.getloadavg()
    machine = cpu_name() if device.type == "cpu" else torch.cuda.get_device_name(device)
    section = (
        "## Fine-tuning step: dptune's DP step against non-private and Opacus "
        f"(RoBERTa-base full and LoRA, small ViT; {'CPU' if device.type == 'cpu' else machine})"
    )
    flags = [f"--device {args.device}" if device.type != "cpu" else ""]
    flags += [f"--threads {args.threads}", f"--repeats {args.repeats}"]
    flags += [f"--batch {b}" for b in args.batch]
    flags += [f"--seq-len {args.seq_len}"] if args.seq_len != 128 else []
    flags += [f"--rows {args.rows}"] if args.rows != ",".join(ROWS) else []
    flags += [f"--opacus-modes {args.opacus_modes}"] if args.opacus_modes != "ghost,hooks" else []
    flags += ["--profile"] if args.profile else []
    import opacus
    import transformers

    lines = [
        section,
        "",
        f"- date: {dt.date.today().isoformat()}",
        f"- machine: {machine}, {os.cpu_count()} cores, {torch.get_num_threads()} torch thread(s), torch "
        f"{torch.__version__}, transformers {transformers.__version__}, Opacus {opacus.__version__}, "
        f"Python {platform.python_version()}; dptune at {code}",
        f"- `python bench/finetune_step.py {' '.join(f for f in flags if f)}`: batch {batch['roberta']} "
        f"sequences of {seq_len} tokens (RoBERTa), {batch['vit']} images (ViT); every step called once, then "
        f"{repeats} interleaved rounds; s = median seconds per step; ratios = DP's median / the other's "
        "median, same run",
        "- MiB = one step's peak resident memory (VmHWM, reset before the step) above what was resident just "
        "before it, the largest of the timed calls (the weights, θ and optimizer state that persist between "
        "steps are not in it)"
        if device.type == "cpu"
        else "- MiB = the CUDA allocator's peak during one step above what was allocated just before it",
        "- DP step: dptune = the clipped sum of `clipped_sum_engine(flat, B, 'auto', check_inputs(...))` + "
        "N(0, σ²C²) noise (training's sampler) + θ update (σ = C = 1); Opacus = "
        "`make_private(..., grad_sample_mode=MODE)`, "
        "ghost (fast gradient clipping with ghost norms: two backward passes) or hooks (per-sample "
        "gradients), σ = C = 1, token ids passed to it contiguous (its embedding norm sampler `.view`s "
        "them); non-private = mean-loss forward + backward + SGD; each frees its gradients after its update",
        f"- load average (1 min) at start and end: {load_start[0]:.2f}, {load_end[0]:.2f}; the whole run "
        f"{wall / 60:.1f} min",
        *([f"- {args.note}"] if args.note else []),
        "",
        *table(results, modes),
        "",
        *verdicts(results),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    if not args.quick:
        write_section(Path(args.out), section, text)


if __name__ == "__main__":
    main()
