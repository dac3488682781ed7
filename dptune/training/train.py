"""One DP training run as a plain loop (no Ray, no MLflow): used by ``dptune train``, tests, trainables.

Per step t (Poisson sampling by default, rate q = B/n, expected batch size L = q·n):

    S_t ~ Poisson(q) sample of the training set D
    v_i  = Σ_j w_j ∇f_i(x_{t−j})                      per-sample signal of the method
    ĝ_t  = (Σ_{i∈S_t} clip(v_i, C_t) + N(0, s_t² I)) / L   privatize; the accountant records s_t / C_t
    d_t  = P(ĝ_t)                                      post-processing of privatized vectors only
    x_{t+1} = x_t − η d_t

The noise multiplier σ is calibrated before training so that the ε of the whole run (epochs × ⌈n/B⌉
steps) is at most the target and within 1% of it.

A tuning proxy (``proxy_fraction`` γ; Koskela & Kulkarni, NeurIPS 2023) runs the same plan (q, steps,
σ, the same ledger) on a secret Poisson subset X ⊂ D that keeps each sample with probability γ: S_t is a
Poisson(q) sample of X and L = γ·q·n, its expected size. It is DP with respect to X exactly as the full
run is with respect to D; with respect to D, the subset's secrecy amplifies it (``dptune.privacy.
amplification``). Its step is η·γ: its privatize stage divides by γ·q·n, so with a linear post-processing
η·γ keeps the noise the parameters receive per step, η·σ·C/(q·n), the full run's (Adam-type methods take
the same rule). A configuration's ``lr`` (or ``effective_lr``) thus always names the full run's step, which
a proxy's ranking extrapolates to (``bench/proxy_rank.py`` measures how well). Its cost is about γ of the
full run's. Every reported ε is the accountant's ε of the steps actually taken. Metrics use only
released parameters and held-out images: each epoch is scored on the validation part (what a sweep
selects on), and ``final_test`` scores the final-test part (what a selected configuration's re-runs
report; ``dptune.engine.dataset`` splits the two).
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

import torch
import torch.nn.functional as F

from dptune.base.errors import InputError, TrainingDivergedError
from dptune.base.randomness import Randomness, StreamSeeds, cpu_generator, poisson_mask, stream_generators
from dptune.engine.data import load_dataset
from dptune.engine.dataset import Dataset, poisson_rows
from dptune.engine.engine_choice import check_inputs, clipped_sum_engine
from dptune.engine.features import model_inputs
from dptune.engine.gpu_memory import (
    checked_physical_batch,
    measured_physical_batch,
    memory_budget,
    refused_if_out_of_memory,
)
from dptune.engine.host_memory import CPU_PHYSICAL_BATCH, measured_host_batch
from dptune.engine.persample import FlatModel
from dptune.engine.text import DEFAULT_MAX_LENGTH
from dptune.methods import get_method
from dptune.methods.privatize import (
    NoiseSampler,
    OsCsprngNoise,
    Privatized,
    TorchNoise,
    clipped_sum,
    privatized_gradient,
)
from dptune.models import build_model
from dptune.models.pretrained import TextClassifier, load_tokenizer, pretrained_weights
from dptune.models.scattering import COEFFICIENTS, SCALES, ScatteringFeatures
from dptune.models.trained_parts import Trained, merged, trained_count
from dptune.privacy.accounting import Accountant
from dptune.privacy.calibration import Calibration
from dptune.training.calibrated_run import calibrated_run
from dptune.training.config import RunConfig


@dataclass(frozen=True)
class EpochResult:
    epoch: int
    step: int
    validation_accuracy: float
    validation_loss: float
    epsilon_spent: float
    seconds: float


CPU_EVALUATION_BATCH = 2000
"""Images per forward pass of an evaluation on a CPU."""


def ema_decay(ceiling: float, step: int) -> float:
    """The decay of the iterate average at step t (0-based), with its warm-up (De, Berrada, Hayes, Smith
    & Balle 2022, "Unlocking High-Accuracy Differentially Private Image Classification through Scale",
    Sec. 3.1): μ_t = min(μ, (1 + t)/(10 + t)), so that early on the average spans about the last tenth of
    the steps taken rather than the initialisation, and at most the horizon 1/(1 − μ)."""
    return min(ceiling, (1 + step) / (10 + step))


def checked_device(config: RunConfig, n: int) -> torch.device:
    """The run's device, after what a run on ``n`` training samples refuses: a batch larger than the data,
    a CUDA device where none is visible."""
    if config.batch_size > n:
        raise InputError("batch-size", f"must be at most the training set size {n}, got {config.batch_size}")
    device = torch.device(config.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise InputError("device", "no CUDA device is visible here (no NVIDIA driver it can use): use cpu")
    return device


class Trainer:
    """A DP training run: calibrated, resumable (``state_dict``), stepped one epoch at a time."""

    def __init__(
        self,
        config: RunConfig,
        data: Dataset | None = None,
        proxy_rows: torch.Tensor | None = None,
        gpu_share: float = 1.0,
        host_share: float = 1.0,
    ) -> None:
        """``gpu_share``: the share of its GPU the run may use (a Ray trial's ``gpu``); ``host_share``: the
        share of its node's memory, on a CPU (a Ray trial's CPUs over the node's). An unset
        ``physical_batch_size`` is measured to fit the share (``dptune.engine.gpu_memory``,
        ``dptune.engine.host_memory``)."""
        self.config = config
        self.params = config.method_params
        self.definition = get_method(config.method)
        self.data = model_inputs(  # ScatterNet models: the features, computed once (cached)
            config.model,
            data
            if data is not None
            else load_dataset(config.dataset, config.data_root, config.subset, config.dataset_args),
        )
        n = len(self.data.train_y)
        self.device = checked_device(config, n)
        plan = calibrated_run(config, n)
        self.delta = plan.delta
        self.sample_rate = plan.run.sample_rate
        self.steps_per_epoch = plan.run.steps_per_epoch
        self.total_steps = plan.total_steps
        self.randomness = Randomness(config.seed)
        seeds = self.randomness.stream_seeds()
        fraction = config.proxy_fraction or 1.0
        self.expected_batch_size = self.sample_rate * n * fraction  # = B (γB for a proxy; shuffling: B)
        self._build_model(seeds.init)
        self._take_rows(proxy_rows, seeds.subset)
        self.calibration: Calibration = plan.calibration
        hyper = replace(  # the parameter tensors; a proxy's L = γ·q·n and its step η·γ
            plan.run.hyper,
            lr=plan.run.hyper.lr * fraction,
            expected_batch_size=self.expected_batch_size,
            layout=self.flat.layout,
        )
        self.method = self.definition.build(self.params, self.calibration.noise_multiplier, hyper)
        with refused_if_out_of_memory("the model's optimiser state"):
            self._start_state(seeds)
        self.engine.physical_batch_size = self._fitted_chunk(gpu_share, host_share)

    def _build_model(self, init_seed: int) -> None:
        """The model at θ₀ drawn from its own stream (the global RNG left alone), flat, on the device, and
        its per-sample engine (the ghost engine checked on two synthetic inputs first)."""
        config = self.config
        with torch.random.fork_rng(devices=[]):
            torch.random.default_generator.set_state(cpu_generator(init_seed).get_state())
            trained = Trained(config.trains, config.lora_rank, config.lora_alpha)
            model = build_model(
                config.model, config.model_args, self.data.train_x[:2], self.data.num_classes, trained
            )
        with refused_if_out_of_memory("the model"):
            self.flat = FlatModel(model.to(self.device))
        example = check_inputs(self.data.train_x[:2], self.data.num_classes, self.device, model)
        with refused_if_out_of_memory("the per-sample engine's exactness check"):
            self.engine = clipped_sum_engine(
                self.flat, config.physical_batch_size or CPU_PHYSICAL_BATCH, config.engine, example
            )

    def _take_rows(self, proxy_rows: torch.Tensor | None, subset_seed: int) -> None:
        """The training rows on the device: all of them, or a tuning proxy's secret Poisson subset (given,
        or drawn from the run's subset stream); the rate q = B/n refers to the whole set either way."""
        config, n = self.config, len(self.data.train_y)
        rows = proxy_rows
        if rows is not None and config.proxy_fraction is None:
            raise ValueError("a proxy's rows need its proxy_fraction (the expected batch size is γ·q·n)")
        if config.proxy_fraction is not None and rows is None:
            rows = poisson_rows(n, config.proxy_fraction, subset_seed)
        self.population = n
        self.train_x = (self.data.train_x if rows is None else self.data.train_x[rows]).to(self.device)
        self.train_y = (self.data.train_y if rows is None else self.data.train_y[rows]).to(self.device)

    def _start_state(self, seeds: StreamSeeds) -> None:
        """The run's state before its first step: θ₀ (and its average with ``ema``), no iterates, the
        post-processing states, an empty ledger, and the sampling, noise and held-out streams."""
        config = self.config
        theta = self.flat.flatten()
        self.theta = theta
        self.average = None if config.ema is None else theta.clone()  # x̄_t, what is evaluated and released
        self.iterates: list[torch.Tensor] = []  # x_{t−1}, x_{t−2}, … for per-sample momentum
        self.post_states = [stage.init(theta) for stage in self.method.post]
        self.steps_taken = 0
        self.epoch = 0
        self.accountant = Accountant(config.accountant)
        self.sampler = cpu_generator(seeds.sampler)
        self.held_out_noise = cpu_generator(seeds.held_out)  # read only with config.heldout_noise
        self.noise: NoiseSampler = (
            OsCsprngNoise()
            if config.noise_generator == "os-csprng"
            else TorchNoise(stream_generators(seeds.noise, self.device))
        )
        self.history: list[EpochResult] = []
        self._final_test: tuple[int, tuple[float, float]] | None = None  # (steps, its score)

    def _fitted_chunk(self, gpu_share: float, host_share: float) -> int:
        """The physical batch: the spec's (on a GPU once a chunk of it is measured to fit the trial's
        share), else the largest chunk of per-sample signals that fits the run's share of its GPU, or on
        a CPU of its node's memory, measured on its own engine and method with the method's full signal
        history and the run's state already held (``dptune.engine.gpu_memory``,
        ``dptune.engine.host_memory``). The probes run on the largest inputs the model reads, made from
        the data's shape alone (``check_inputs``: a text model's every position a token), not on records:
        the chunk, and a refusal's figures, say nothing about the data. They draw nothing from the global
        generator that training sees (a model's dropout would)."""
        config, on_cpu = self.config, self.device.type == "cpu"
        if config.physical_batch_size is not None and on_cpu:
            return config.physical_batch_size
        iterates = [self.theta] * self.method.signal.history
        floor = config.physical_batch_size or (CPU_PHYSICAL_BATCH if on_cpu else 1)
        largest = min(len(self.train_y), max(config.batch_size, floor))
        like, classes = self.train_x[:1], self.data.num_classes

        def run_chunk(size: int) -> None:  # any size the probes ask (two of PROBE), whatever the batch
            self.engine.physical_batch_size = size
            chunk = check_inputs(like, classes, self.device, self.flat.model, size)
            clipped_sum(self.method, self.engine, 0, iterates, [chunk])

        with torch.random.fork_rng(devices=[] if on_cpu else [self.device]):
            if on_cpu:  # a chunk as large as the unmeasured one, where it fits
                return measured_host_batch(run_chunk, host_share, largest)
            budget = memory_budget(self.device, gpu_share)
            with refused_if_out_of_memory("a probe chunk of per-sample signals"):
                if config.physical_batch_size is not None:
                    return checked_physical_batch(run_chunk, self.device, budget, config.physical_batch_size)
                return measured_physical_batch(run_chunk, self.device, budget, largest)

    # -- one step ---------------------------------------------------------------------------------
    def _batches(self) -> list[torch.Tensor]:
        """Index sets of one epoch: independent Poisson samples, or a shuffled partition."""
        n = len(self.train_y)
        if self.config.sampling == "poisson":
            return [
                torch.nonzero(poisson_mask(n, self.sample_rate, self.sampler)).squeeze(1)
                for _ in range(self.steps_per_epoch)
            ]
        order = torch.randperm(n, generator=self.sampler)
        return list(torch.split(order, self.config.batch_size))[: self.steps_per_epoch]

    def step(self, indices: torch.Tensor) -> Privatized:
        """One accounted step of the samples ``indices``, the only way data reaches θ or the ledger:

            ĝ_t = privatize (clipped sum + N(0, s_t² I)) / L;  accountant += (z_t, q);
            d_t = P(ĝ_t);  x_{t+1} = x_t − η d_t

        Returns the privatized gradient (for inspection; it is already accounted and applied).
        """
        idx = indices.to(self.device)
        privatized = privatized_gradient(
            self.method,
            self.engine,
            self.steps_taken,
            [self.theta, *self.iterates],
            [(self.train_x.index_select(0, idx), self.train_y.index_select(0, idx))],
            self.expected_batch_size,
            self.noise,
        )
        self.accountant.step(privatized.noise_multiplier, self.sample_rate)
        direction = privatized.vector
        for i, stage in enumerate(self.method.post):
            direction, self.post_states[i] = stage.update(direction, self.post_states[i])
        keep = self.method.signal.history - 1
        self.iterates = [self.theta, *self.iterates][:keep]
        self.theta = self.method.update.apply(self.theta, direction)
        if self.average is not None and self.config.ema is not None:
            decay = ema_decay(self.config.ema, self.steps_taken)
            self.average = decay * self.average + (1 - decay) * self.theta
        self.steps_taken += 1
        return privatized

    @property
    def released_parameters(self) -> torch.Tensor:
        """The parameters the run evaluates and releases: the iterate average x̄_t when ``ema`` is set
        (a function of privatized iterates only), else the last iterate x_t."""
        return self.theta if self.average is None else self.average

    # -- epochs -----------------------------------------------------------------------------------
    def scores_validation(self, epoch: int, final_test: bool = False) -> bool:
        """Whether the run scores its validation part after ``epoch``: always on a public split; on private
        held-out data (``heldout_noise``) only where a decision reads the score, so that a sweep counts
        every score before it runs (``dptune.sweep.held_out``): a search trial after its last epoch, or
        after every epoch with ``validation_every_epoch`` (a scheduler's rungs); a re-run or release
        (``final_test``) never, its one score being on the final-test part."""
        if self.config.heldout_noise is None:
            return True
        if final_test:
            return False
        return self.config.validation_every_epoch or epoch == self.config.epochs

    def train_epoch(
        self, on_step: Callable[[int, int], None] | None = None, final_test: bool = False
    ) -> EpochResult:
        """One epoch of accounted steps; ``on_step(i, steps)`` after the i-th of its ``steps``; the
        validation part scored where ``scores_validation`` says (NaN elsewhere)."""
        start = time.perf_counter()
        batches = self._batches()
        for i, indices in enumerate(batches, 1):
            self.step(indices)
            if on_step is not None:
                on_step(i, len(batches))
        if not bool(torch.isfinite(self.theta).all()):
            raise TrainingDivergedError(f"parameters became non-finite at step {self.steps_taken}")
        self.epoch += 1
        scored = self.scores_validation(self.epoch, final_test)
        loss, accuracy = self.evaluate(self.data.val_x, self.data.val_y) if scored else (math.nan, math.nan)
        if self.config.heldout_noise is None and not math.isfinite(loss):
            raise TrainingDivergedError(f"validation loss is {loss} after epoch {self.epoch}")
        result = EpochResult(
            self.epoch,
            self.steps_taken,
            accuracy,
            loss,
            self.accountant.epsilon(self.delta),
            time.perf_counter() - start,
        )
        self.history.append(result)
        return result

    def fit(
        self,
        on_epoch: Callable[[EpochResult], None] | None = None,
        on_step: Callable[[int, int], None] | None = None,
    ) -> list[EpochResult]:
        while self.epoch < self.config.epochs:
            result = self.train_epoch(on_step)
            if on_epoch is not None:
                on_epoch(result)
        return self.history

    def final_test(self) -> tuple[float, float]:
        """(mean cross-entropy, accuracy) on the final-test part at the released parameters: scored once
        for those parameters (on private held-out data a second call would be a second noisy count,
        which nothing counts), read back after."""
        if self._final_test is None or self._final_test[0] != self.steps_taken:
            self._final_test = (self.steps_taken, self.evaluate(self.data.test_x, self.data.test_y))
        return self._final_test[1]

    @torch.no_grad()
    def evaluate(self, x_all: torch.Tensor, y_all: torch.Tensor) -> tuple[float, float]:
        """(mean cross-entropy, accuracy) on the images ``x_all`` with labels ``y_all`` at the released
        parameters (``released_parameters``), in chunks of ``CPU_EVALUATION_BATCH`` on a CPU and of the
        measured physical batch on a GPU (a forward pass needs less than the per-sample gradients the chunk
        was measured for). On private held-out data (``heldout_noise`` σ_v): (NaN, (c + N(0, σ_v²))/n),
        the count c of correct predictions released by the Gaussian mechanism of sensitivity 1
        (``dptune.privacy.heldout``), clamped to [0, 1] (post-processing); no loss, whose sensitivity is
        unbounded."""
        batch_size = self.engine.physical_batch_size if self.device.type == "cuda" else CPU_EVALUATION_BATCH
        self.flat.load(self.released_parameters)
        model = self.flat.model.eval()
        loss, correct = 0.0, 0
        for start in range(0, len(y_all), batch_size):
            x = x_all[start : start + batch_size].to(self.device)
            y = y_all[start : start + batch_size].to(self.device)
            logits = model(x)
            loss += float(F.cross_entropy(logits, y, reduction="sum"))
            correct += int((logits.argmax(dim=1) == y).sum())
        model.train()
        noise = self.config.heldout_noise
        if noise is None:
            return loss / len(y_all), correct / len(y_all)
        draw = float(torch.randn((), generator=self.held_out_noise, dtype=torch.float64))
        return math.nan, min(1.0, max(0.0, (correct + noise * draw) / len(y_all)))

    def released_module(self) -> torch.nn.Module:
        """The model at the run's released parameters (``released_parameters``), on the CPU, mapping
        images to class scores (a ScatterNet model with its fixed transform in front,
        ``ScatteringFeatures``): what a release publishes. It holds those parameters and the architecture
        only; no generator state, no sample."""
        self.flat.load(self.released_parameters)
        model = merged(copy.deepcopy(self.flat.model).cpu().eval())
        if isinstance(model, TextClassifier):  # it reads raw text as training did
            args = self.config.dataset_args
            tokenizer = load_tokenizer(args["tokenizer"], args.get("tokenizer_revision"))
            return model.with_tokenizer(tokenizer, int(args.get("max_length", DEFAULT_MAX_LENGTH)))
        if self.data.features is None:
            return model
        per_channel, side_h, side_w = self.data.train_x.shape[1:]
        scale = 2**SCALES
        features = ScatteringFeatures(per_channel // COEFFICIENTS, side_h * scale, side_w * scale)
        return torch.nn.Sequential(features, model)

    # -- reporting and checkpoints ----------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The run's result record (the JSON contract of ``dptune train --json``): the last epoch's
        validation score and the final-test score of the parameters the run ended with; its
        ``final_test_accuracy`` (%), ``epsilon`` and ``delta`` are what a sweep's release states (the run
        is all that touched the data)."""
        last = self.history[-1] if self.history else None
        test_loss, test_accuracy = self.final_test() if last else (None, None)
        spent = self.accountant.epsilon(self.delta)
        info = {
            "method": self.config.method,
            "dataset": self.config.dataset,
            "model": self.config.model,
            "params": self.params,
            "validation_accuracy": last.validation_accuracy if last else None,
            "validation_loss": last.validation_loss if last else None,
            "test_accuracy": test_accuracy,
            "test_loss": test_loss,
            "final_test_accuracy": None if test_accuracy is None else 100 * test_accuracy,
            "epsilon_target": self.config.epsilon,
            "epsilon_spent": spent,
            "epsilon": spent,
            "delta": self.delta,
            "noise_multiplier": self.calibration.noise_multiplier,
            "steps": self.steps_taken,
            "epochs": self.epoch,
            "sample_rate": self.sample_rate,
            "batch_size": self.config.batch_size,
            "train_size": self.population,
            "proxy_fraction": self.config.proxy_fraction,
            "lr": self.config.learning_rate,
            "effective_lr": self.config.effective_lr,
            "clip": self.config.clip,
            "accountant": self.config.accountant,
            "sampling": self.config.sampling,
            **self.randomness.label(),
            "noise_generator": self.config.noise_generator,
            "engine": self.engine.choice,
            "trains": self.config.trains,
            **trained_count(self.flat.model),
            **pretrained_weights(self.config.model, self.config.model_args, self.flat.model),
            "epochs_history": [asdict(r) for r in self.history],
        }
        info.update(self.method.info)
        if self.config.sampling == "shuffle":
            info["sampling_note"] = (
                "shuffled fixed-size batches: the accountant's bound assumes Poisson sampling"
            )
        return info

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to continue exactly: parameters, their average, iterates, stage states,
        ledger, the batches' and the training noise's RNGs (the held-out scores' noise is drawn afresh on
        a restore: ``load_state_dict``).

        Private state, like the training data: the generator states predict every later batch and
        noise draw of the run, so a checkpoint must never be published.
        """
        return {
            "theta": self.theta,
            "average": self.average,
            "iterates": self.iterates,
            "post_states": self.post_states,
            "step": self.steps_taken,
            "epoch": self.epoch,
            "accountant": self.accountant.state_dict(),
            "sampler": self.sampler.get_state(),
            "noise": self.noise.get_state() if isinstance(self.noise, TorchNoise) else None,
            "noise_device": self.device.type,
            "history": [asdict(r) for r in self.history],
            "noise_multiplier": self.calibration.noise_multiplier,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Continue from ``state`` (``state_dict``), saved on this run's kind of device or another: every
        state tensor (θ, iterates, post-processing states) moves to this run's device, and the generator
        states stay CPU byte tensors, as ``set_state`` takes them. A noise stream saved on another kind
        of device (a GPU's Philox pair, a CPU's Mersenne Twister) cannot continue here: the rest of the
        run draws from the fresh secret stream this run was given, as secret and independent. The held-out
        scores' noise never continues the checkpoint's stream (``Randomness.restored_held_out_seed``): a
        score of an epoch redone after the restore is a fresh draw."""
        if abs(state["noise_multiplier"] - self.calibration.noise_multiplier) > 1e-12:
            raise ValueError("checkpoint was calibrated for a different run configuration")
        self.theta = state["theta"].to(self.device)
        self.average = None if state.get("average") is None else state["average"].to(self.device)
        self.iterates = [x.to(self.device) for x in state["iterates"]]
        self.post_states = on_device(state["post_states"], self.device)
        self.steps_taken, self.epoch = state["step"], state["epoch"]
        self.accountant = Accountant.from_state_dict(state["accountant"])
        self.sampler.set_state(state["sampler"].cpu())
        self.held_out_noise = cpu_generator(self.randomness.restored_held_out_seed(self.epoch))
        same_kind = state.get("noise_device", "cpu") == self.device.type
        if isinstance(self.noise, TorchNoise) and state["noise"] is not None and same_kind:
            if len(state["noise"]) != len(self.noise.generators):
                raise ValueError(
                    f"checkpoint's noise stream has {len(state['noise'])} generator(s), this dptune draws "
                    f"from {len(self.noise.generators)}: resume with the dptune that wrote it, or afresh"
                )
            self.noise.set_state([s.cpu() for s in state["noise"]])
        self.history = [EpochResult(**r) for r in state["history"]]


def on_device(value: Any, device: torch.device) -> Any:
    """``value`` (tensors in dicts, lists and tuples, as post-processing states hold them) with every
    tensor moved to ``device``; anything else as it is."""
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, dict):
        return {key: on_device(item, device) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(on_device(item, device) for item in value)
    return value
