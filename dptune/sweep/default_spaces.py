"""Each method's default search space: what a spec that names a method without a space searches
(``methods: [dpsgd, dp-pmlf, lp-dpsgd]``), written as a spec would write it and read by the same reader
(``dptune.sweep.spec_parts.method_space``).

Where the ranges come from (none from Fashion-MNIST's published optimum, nor from this project's evidence
on it):

* **the step**, as the effective step E = η·C·g (``RunConfig.effective_lr``: the distance a clipped,
  post-processed release moves the parameters), log-uniform over [0.5, 10] for the SGD family: DP training
  works at large batches and effective steps of order 1 to 10 (De, Berrada, Hayes, Smith & Balle 2022,
  "Unlocking High-Accuracy Differentially Private Image Classification through Scale", Sec. 3 and App. C:
  normalised clipping at C = 1 with learning rates 1–4; Sander, Stock & Sablayrolles 2023, "TAN without a
  burn", who tune η·C in the same units), and a step that ranks well at a short tuning run is found there
  rather than among the small steps non-private training uses. Adam's step is its own scale:
  [3e-4, 3e-2] around the 1e-3 of Tang, Panda & Mittal 2024 (DP-AdamBC) and Zhang et al. 2024 (DOPPLER).
* **the clip bound** C, log-uniform over [0.1, 2]: small bounds work with a tuned step (De et al.; Li,
  Tramèr, Liang & Hashimoto 2022, "Large Language Models Can Be Strong Differentially Private Learners",
  Sec. 3.3), and the default C = 1 lies inside.
* **momentum** c of DP-SGD with momentum, uniform over [0, 0.95] (its paper's c ≈ 0.6 inside); InnerOuter's
  outer heavy ball likewise (its assumed 0.9 inside).
* **low-pass filters**, first order (pole p, zero z at unit DC gain), p uniform over [0.5, 0.95] and z over
  [−1, 0.5]: DOPPLER's first filter (p = 9/11, z = −1) and DP-PMLF's (p = 0.9, z = 0) inside.
* **per-sample momentum** (DP-PMLF, InnerOuter): k from 1 to 4 and β uniform over [0, 0.9] (the papers'
  k = 2, β = 0.1 inside; k is the compute, k passes a step).
* **fractional memory** (FO-DP-SGD): α and β uniform over [0.5, 1], the window K from 2 to 16 (its main
  setting α = 0.8, β = 0.9, K = 8 inside).

Knobs not listed (batch size, epochs, Adam's β₂, GaLore's rank) stay at the spec's settings: batch size
and epochs set the noise, which a plan fixes before the data is touched.

**Fine-tuning a pretrained model** (``model: {hf: …}``, ``fine_tuning_space``) moves Adam's step to its
fine-tuning grid: log-uniform over [1e-4, 3e-3] for full fine-tuning, the upper part of DOPPLER's GLUE grid
for Adam and GaLore (Zhang et al. 2024, App. C.1: 3e-5 to 3e-3, RoBERTa-base), with the 5e-4 of Li, Tramèr,
Liang & Hashimoto 2022 (RoBERTa on GLUE, DP-Adam) inside, and over [1e-4, 1e-2] when only adapters, biases or
the head train (Yu et al. 2022, "Differentially Private Fine-tuning of Language Models": LoRA at 5e-4 to 1e-3,
larger steps for fewer parameters). The SGD family starts where the papers fine-tune, at the step they train
from scratch with (DP-PMLF: η = 0.5 and C = 1 on GLUE as on images; DOPPLER: one SGD grid for both), the low
end of both ranges; when only adapters, biases or the head train it keeps its from-scratch range, and full
fine-tuning searches [0.5, 1.5]. The evidence on real text (bench/text_evidence.py, read from tuning and
validation records, never a final test) says why: tuning trials of one epoch (about 20 noisy steps) on a whole
pretrained body learned neither below 0.5 under the smaller range [0.05, 2] searched before (designs 2 to 4)
nor, mostly, above 3 ([0.5, 10] put most draws where one epoch moves nothing: designs 5 and 6); within
[0.5, 3] (designs 7 to 10) every SGD-family setting a per-run oracle selected, four tasks and totals out of
eight, lay at 0.53 to 0.84, and on design 10's task every one-epoch DP-SGD trial above 1.3 read one class at
both totals (14 of them, at 1.44 to 2.92), one of them released at total 3, where a first rung runs at ε 0.35
and cannot tell such a step from a good one (design 11 measures the narrower range on a fresh task). Adam's
range starts at 1e-4 rather than at the grid's 3e-5 for the same reason (the same evidence, designs 7 and 8 at
total 3): the grid's lowest half-decade held 26% of the log-uniform draws, and 17 of the 18 one-epoch
DP-AdamBC trials that drew there read 55% or less on validation, about chance, where 5 of the 12 at 1e-4 or
more read above it. With LoRA its rank r is searched over 4 to 16 (Yu et al.'s r = 16 and Hu et al.'s r = 4
and 8 inside): the rank changes the parameters, not the noise schedule.
"""

from __future__ import annotations

import copy
from typing import Any

SGD_STEP = {"effective_lr": {"loguniform": [0.5, 10.0]}, "clip": {"loguniform": [0.1, 2.0]}}
ADAM_STEP = {"effective_lr": {"loguniform": [3e-4, 3e-2]}, "clip": {"loguniform": [0.1, 2.0]}}
LOW_PASS = {
    "filter": {"family": "first-order", "pole": {"uniform": [0.5, 0.95]}, "zero": {"uniform": [-1.0, 0.5]}}
}
PER_SAMPLE_MOMENTUM = {"k": {"int": [1, 4]}, "beta": {"uniform": [0.0, 0.9]}}

DEFAULT_SPACES: dict[str, dict[str, Any]] = {
    "dpsgd": SGD_STEP,
    "dpsgd-momentum": SGD_STEP | {"momentum": {"uniform": [0.0, 0.95]}},
    "lp-dpsgd": SGD_STEP | LOW_PASS,
    "dp-pmlf": SGD_STEP | PER_SAMPLE_MOMENTUM | LOW_PASS,
    "innerouter": SGD_STEP | PER_SAMPLE_MOMENTUM | {"outer_momentum": {"uniform": [0.0, 0.95]}},
    "fo-dp-sgd": SGD_STEP
    | {"alpha": {"uniform": [0.5, 1.0]}, "beta": {"uniform": [0.5, 1.0]}, "memory": {"int": [2, 16]}},
    "dp-adambc": ADAM_STEP,
    "lp-dpadam": ADAM_STEP | LOW_PASS,
    "lp-dpadambc": ADAM_STEP | LOW_PASS,
    "dp-galore": ADAM_STEP,
    "lp-dp-galore": ADAM_STEP | LOW_PASS,
}
"""Per method (every one of the registry: ``tests/test_spec.py`` checks), its default space."""


def described(space: dict[str, Any]) -> str:
    """A space in one line: ``effective_lr ~ loguniform[0.5, 10]; filter ~ first-order(pole ~ …)``."""

    def one(dist: Any) -> str:
        if "family" in dist:
            parts = ", ".join(f"{k} ~ {one(v)}" for k, v in dist.items() if k != "family")
            return f"{dist['family']}({parts})"
        ((kind, args),) = dist.items()
        return f"{kind}[{', '.join(f'{a:g}' for a in args)}]"

    return "; ".join(f"{knob} ~ {one(dist)}" for knob, dist in space.items())


FINE_TUNING_STEPS = {
    "adam": {"all": [1e-4, 3e-3], "parts": [1e-4, 1e-2]},
    "sgd": {"all": [0.5, 1.5], "parts": SGD_STEP["effective_lr"]["loguniform"]},
}
"""Each family's effective step range when fine-tuning, by what trains (every parameter, or a part)."""
LORA_RANK = {"lora_rank": {"int": [4, 16]}}


def fine_tuning_space(method: str, trains: str) -> dict[str, Any]:
    """``method``'s default space for fine-tuning a pretrained model where ``trains`` (module docstring):
    its own space, its family's step range moved to fine-tuning's, and LoRA's rank searched with LoRA."""
    space = default_space(method)
    family = "adam" if space["effective_lr"] == ADAM_STEP["effective_lr"] else "sgd"
    steps = FINE_TUNING_STEPS[family]["all" if trains == "all" else "parts"]
    space["effective_lr"] = {"loguniform": list(steps)}
    return space | (copy.deepcopy(LORA_RANK) if trains == "lora" else {})


def default_space(method: str) -> dict[str, Any]:
    """The default space of ``method`` as a spec writes a space (a copy: the reader may change it)."""
    return copy.deepcopy(DEFAULT_SPACES[method])
