"""One DP training run as a plain loop (no Ray, no MLflow): used by ``dptune train``, tests, trainables.

Per step t (Poisson sampling by default, rate q = B/n, expected batch size L = q·n):

    S_t ~ Poisson(q) sample of the training set
    v_i  = Σ_j w_j ∇f_i(x_{t−j})                      per-sample signal of the method
    ĝ_t  = (Σ_{i∈S_t} clip(v_i, C_t) + N(0, s_t² I)) / L   release; the accountant records s_t / C_t
    d_t  = P(ĝ_t)                                      post-processing of released vectors only
    x_{t+1} = x_t − η d_t

The noise multiplier σ is calibrated before training so that the ε of the whole run (epochs × ⌈n/B⌉
steps) is at most the target and within 1% of it. Every reported ε is the accountant's ε of the steps
actually taken. Metrics use only released parameters and the held-out test set.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import torch
import torch.nn.functional as F

from dptune.data import Dataset, check_dataset_name, load_dataset
from dptune.errors import InputError, TrainingDivergedError
from dptune.methods import Hyper, Method, get_method
from dptune.methods.release import NoiseSampler, OsCsprngNoise, TorchNoise, privatize
from dptune.models import build_model, check_model_name
from dptune.persample import ClippedSumEngine, FlatModel, clipped_sum_engine
from dptune.privacy.accounting import Accountant, HistoryEntry, check_accountant, truncate
from dptune.privacy.calibration import Calibration, NoiseSchedule, calibrate_noise
from dptune.randomness import Randomness, check_noise_generator, check_seed

SAMPLINGS = ("poisson", "shuffle")
ENGINES = ("auto", "ghost", "vmap")


@dataclass(frozen=True)
class TrainConfig:
    """Everything that defines a run. ``params`` are the method's parameters (names as in the CLI)."""

    method: str
    dataset: str = "fashion-mnist"
    model: str = "cnn5"
    epsilon: float = 1.0
    delta: float | None = None
    epochs: int = 1
    batch_size: int = 1000
    lr: float = 0.5
    clip: float = 1.0
    params: dict[str, Any] = field(default_factory=dict)
    subset: int | None = None
    seed: int | None = None  # None: secret OS entropy (``dptune.randomness``); an int: seeded research mode
    noise_generator: str = "torch"
    sampling: str = "poisson"
    accountant: str = "rdp"
    physical_batch_size: int = 1000
    engine: str = "auto"
    data_root: str | None = None
    device: str = "cpu"

    def check(self) -> dict[str, Any]:
        """Validate every field that needs no data; return the method's resolved parameters."""
        definition = get_method(self.method)
        check_dataset_name(self.dataset)
        check_model_name(self.model)
        check_accountant(self.accountant)
        if self.engine not in ENGINES:
            raise InputError("engine", f"must be one of {', '.join(ENGINES)}, got {self.engine!r}")
        if self.sampling not in SAMPLINGS:
            raise InputError("sampling", f"must be one of {', '.join(SAMPLINGS)}, got {self.sampling!r}")
        if not (math.isfinite(self.epsilon) and self.epsilon > 0):
            raise InputError("epsilon", f"must be a number > 0, got {self.epsilon}")
        if self.delta is not None and not 0 < self.delta < 1:
            raise InputError("delta", f"must be in (0, 1), e.g. 1e-5, got {self.delta}")
        for name, value in (
            ("epochs", self.epochs),
            ("batch-size", self.batch_size),
            ("physical-batch-size", self.physical_batch_size),
        ):
            if value < 1:
                raise InputError(name, f"must be an integer >= 1, got {value}")
        for name, value in (("lr", self.lr), ("clip", self.clip)):
            if not (math.isfinite(value) and value > 0):
                raise InputError(name, f"must be a number > 0, got {value}")
        if self.subset is not None and self.subset < 1:
            raise InputError("subset", f"must be a positive number of samples, got {self.subset}")
        check_seed(self.seed, "seed")
        check_noise_generator(self.noise_generator, self.seed, "noise-generator", "seed")
        return definition.resolve(self.params)


@dataclass(frozen=True)
class EpochResult:
    epoch: int
    step: int
    test_accuracy: float
    test_loss: float
    epsilon_spent: float
    seconds: float


@dataclass(frozen=True)
class RunPlan:
    """The privacy plan of a run before it starts (Abadi et al. 2016, §3.1; Mironov et al. 2019).

    q = B/n, T = epochs·⌈n/B⌉ steps, σ calibrated so that the accountant's ε of the whole run's
    ``ledger`` (the method's noise ``schedule`` at σ: one ``(z, q, count)`` entry per run of equal z)
    is at most the target and within 1% of it.
    """

    sample_rate: float
    steps_per_epoch: int
    total_steps: int
    hyper: Hyper
    schedule: NoiseSchedule
    calibration: Calibration

    @property
    def ledger(self) -> list[HistoryEntry]:
        return list(self.schedule(self.calibration.noise_multiplier))


def run_schedule(
    config: TrainConfig, params: dict[str, Any], n: int
) -> tuple[float, int, Hyper, NoiseSchedule]:
    """(q = B/n, steps per epoch ⌈n/B⌉, hyper-parameters with T = epochs·⌈n/B⌉, noise schedule σ ↦ ledger)."""
    sample_rate = config.batch_size / n
    steps_per_epoch = math.ceil(n / config.batch_size)
    hyper = Hyper(config.clip, config.lr, config.epochs * steps_per_epoch)
    return (
        sample_rate,
        steps_per_epoch,
        hyper,
        get_method(config.method).noise_schedule(params, hyper, sample_rate),
    )


def plan_run(config: TrainConfig, params: dict[str, Any], n: int, delta: float) -> RunPlan:
    """Sample rate, step count, calibrated σ and planned ledger of ``config`` on n training samples."""
    sample_rate, steps_per_epoch, hyper, schedule = run_schedule(config, params, n)
    calibration = calibrate_noise(config.epsilon, delta, schedule, config.accountant)
    return RunPlan(sample_rate, steps_per_epoch, hyper.steps, hyper, schedule, calibration)


def spent_ledger(config: TrainConfig, n: int, noise_multiplier: float, steps: int) -> list[HistoryEntry]:
    """The ledger of a run of ``config`` calibrated to σ = ``noise_multiplier`` that took ``steps`` steps."""
    *_, schedule = run_schedule(config, config.check(), n)
    return truncate(list(schedule(noise_multiplier)), steps)


def default_delta(n: int) -> float:
    """The largest power of ten strictly below 1/n (1e-5 for n = 60,000; 1e-4 for n = 1,437)."""
    return 10.0 ** -(math.floor(math.log10(n)) + 1)


def release_step(
    method: Method,
    engine: ClippedSumEngine,
    step: int,
    iterates: Sequence[torch.Tensor],
    chunks: Iterable[tuple[torch.Tensor, torch.Tensor]],
    expected_batch_size: float,
    sampler: NoiseSampler,
    noise: bool = True,
) -> torch.Tensor:
    """One release of ``method`` at step t: what training computes and ``dptune audit`` audits.

        v_i = Σ_{j<J} w_j ∇f_i(x_{t−j}),   J = min(k, len(iterates)),   w = signal.weights(J)
        ĝ_t = (Σ_i clip(v_i, C_t) + N(0, s_t² I)) / L

    ``iterates`` are x_t, x_{t−1}, … (newest first; the signal reads the first k). The samples come as
    disjoint chunks ``(x, y)``: the clipped sum is additive over samples, so a caller can stream samples
    it cannot hold at once (the audit's one-hot canaries). ``noise=False``: the clipped sum / L.
    """
    signal, release = method.signal, method.release
    used = list(iterates[: signal.history])
    weights = signal.weights(len(used))
    clip = release.clip(step)
    total = torch.zeros_like(used[0])
    for x, y in chunks:
        total += engine.clipped_sum(used, weights, x, y, clip)
    std = release.noise_std(step) if noise else 0.0
    return privatize(total, std, expected_batch_size, sampler)


class Trainer:
    """A DP training run: calibrated, resumable (``state_dict``), stepped one epoch at a time."""

    def __init__(self, config: TrainConfig, data: Dataset | None = None) -> None:
        self.config = config
        self.params = config.check()
        self.definition = get_method(config.method)
        self.data = (
            data if data is not None else load_dataset(config.dataset, config.data_root, config.subset)
        )
        n = len(self.data.train_y)
        if config.batch_size > n:
            raise InputError(
                "batch-size", f"must be at most the training set size {n}, got {config.batch_size}"
            )
        self.device = torch.device(config.device)
        self.delta = config.delta if config.delta is not None else default_delta(n)
        plan = plan_run(config, self.params, n, self.delta)
        self.sample_rate = plan.sample_rate
        self.steps_per_epoch = plan.steps_per_epoch
        self.total_steps = plan.total_steps
        self.expected_batch_size = self.sample_rate * n  # = B; under shuffling, the fixed B

        self.randomness = Randomness(config.seed)
        seeds = self.randomness.stream_seeds()
        with torch.random.fork_rng(devices=[]):  # θ₀ from its own stream; the global RNG is left alone
            torch.manual_seed(seeds.init)
            model = build_model(
                config.model, self.data.in_channels, self.data.image_size, self.data.num_classes
            )
        model = model.to(self.device)
        self.flat = FlatModel(model)
        self.engine = clipped_sum_engine(self.flat, config.physical_batch_size, config.engine)
        self.train_x = self.data.train_x.to(self.device)
        self.train_y = self.data.train_y.to(self.device)

        self.calibration: Calibration = plan.calibration
        self.method = self.definition.build(self.params, self.calibration.noise_multiplier, plan.hyper)

        theta = self.flat.flatten()
        self.theta = theta
        self.iterates: list[torch.Tensor] = []  # x_{t−1}, x_{t−2}, … for per-sample momentum
        self.post_states = [stage.init(theta) for stage in self.method.post]
        self.step = 0
        self.epoch = 0
        self.accountant = Accountant(config.accountant)
        self.sampler = torch.Generator().manual_seed(seeds.sampler)
        self.noise: NoiseSampler = (
            OsCsprngNoise()
            if config.noise_generator == "os-csprng"
            else TorchNoise(torch.Generator(device=self.device).manual_seed(seeds.noise))
        )
        self.history: list[EpochResult] = []

    # -- one step ---------------------------------------------------------------------------------
    def _batches(self) -> list[torch.Tensor]:
        """Index sets of one epoch: independent Poisson samples, or a shuffled partition."""
        n = len(self.train_y)
        if self.config.sampling == "poisson":
            return [
                torch.nonzero(torch.rand(n, generator=self.sampler) < self.sample_rate).squeeze(1)
                for _ in range(self.steps_per_epoch)
            ]
        order = torch.randperm(n, generator=self.sampler)
        return list(torch.split(order, self.config.batch_size))[: self.steps_per_epoch]

    def release(self, indices: torch.Tensor, noise: bool = True) -> torch.Tensor:
        """ĝ_t for the samples ``indices`` at the current step (noise off: the clipped sum / L)."""
        idx = indices.to(self.device)
        return release_step(
            self.method,
            self.engine,
            self.step,
            [self.theta, *self.iterates],
            [(self.train_x[idx], self.train_y[idx])],
            self.expected_batch_size,
            self.noise,
            noise,
        )

    def apply(self, released: torch.Tensor) -> None:
        """Post-process a release, record it with the accountant and update the parameters."""
        self.accountant.step(self.method.release.noise_multiplier(self.step), self.sample_rate)
        direction = released
        for i, stage in enumerate(self.method.post):
            direction, self.post_states[i] = stage.update(direction, self.post_states[i])
        keep = self.method.signal.history - 1
        self.iterates = [self.theta, *self.iterates][:keep]
        self.theta = self.method.update.apply(self.theta, direction)
        self.step += 1

    # -- epochs -----------------------------------------------------------------------------------
    def train_epoch(self) -> EpochResult:
        start = time.perf_counter()
        for indices in self._batches():
            self.apply(self.release(indices))
        if not bool(torch.isfinite(self.theta).all()):
            raise TrainingDivergedError(f"parameters became non-finite at step {self.step}")
        self.epoch += 1
        loss, accuracy = self.evaluate()
        if not math.isfinite(loss):
            raise TrainingDivergedError(f"test loss is {loss} after epoch {self.epoch}")
        result = EpochResult(
            self.epoch,
            self.step,
            accuracy,
            loss,
            self.accountant.epsilon(self.delta),
            time.perf_counter() - start,
        )
        self.history.append(result)
        return result

    def fit(self, on_epoch: Callable[[EpochResult], None] | None = None) -> list[EpochResult]:
        while self.epoch < self.config.epochs:
            result = self.train_epoch()
            if on_epoch is not None:
                on_epoch(result)
        return self.history

    @torch.no_grad()
    def evaluate(self, batch_size: int = 2000) -> tuple[float, float]:
        """(mean cross-entropy, accuracy) on the test set at the current parameters."""
        self.flat.load(self.theta)
        model = self.flat.model.eval()
        loss, correct = 0.0, 0
        x_all, y_all = self.data.test_x, self.data.test_y
        for start in range(0, len(y_all), batch_size):
            x = x_all[start : start + batch_size].to(self.device)
            y = y_all[start : start + batch_size].to(self.device)
            logits = model(x)
            loss += float(F.cross_entropy(logits, y, reduction="sum"))
            correct += int((logits.argmax(dim=1) == y).sum())
        model.train()
        return loss / len(y_all), correct / len(y_all)

    # -- reporting and checkpoints ----------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The run's result record (the JSON contract of ``dptune train --json``)."""
        last = self.history[-1] if self.history else None
        info = {
            "method": self.config.method,
            "dataset": self.config.dataset,
            "model": self.config.model,
            "params": self.params,
            "test_accuracy": last.test_accuracy if last else None,
            "test_loss": last.test_loss if last else None,
            "epsilon_target": self.config.epsilon,
            "epsilon_spent": self.accountant.epsilon(self.delta),
            "delta": self.delta,
            "noise_multiplier": self.calibration.noise_multiplier,
            "steps": self.step,
            "epochs": self.epoch,
            "sample_rate": self.sample_rate,
            "batch_size": self.config.batch_size,
            "train_size": len(self.train_y),
            "lr": self.config.lr,
            "clip": self.config.clip,
            "accountant": self.config.accountant,
            "sampling": self.config.sampling,
            **self.randomness.label(),
            "noise_generator": self.config.noise_generator,
            "epochs_history": [asdict(r) for r in self.history],
        }
        info.update(self.method.info)
        if self.config.sampling == "shuffle":
            info["sampling_note"] = (
                "shuffled fixed-size batches: the accountant's bound assumes Poisson sampling"
            )
        return info

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to continue exactly: parameters, iterates, stage states, ledger, RNGs.

        Private state, like the training data: the generator states predict every later batch and
        noise draw of the run, so a checkpoint must never be published.
        """
        return {
            "theta": self.theta,
            "iterates": self.iterates,
            "post_states": self.post_states,
            "step": self.step,
            "epoch": self.epoch,
            "accountant": self.accountant.state_dict(),
            "sampler": self.sampler.get_state(),
            "noise": self.noise.generator.get_state() if isinstance(self.noise, TorchNoise) else None,
            "history": [asdict(r) for r in self.history],
            "noise_multiplier": self.calibration.noise_multiplier,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if abs(state["noise_multiplier"] - self.calibration.noise_multiplier) > 1e-12:
            raise ValueError("checkpoint was calibrated for a different run configuration")
        self.theta = state["theta"].to(self.device)
        self.iterates = [x.to(self.device) for x in state["iterates"]]
        self.post_states = state["post_states"]
        self.step, self.epoch = state["step"], state["epoch"]
        self.accountant = Accountant.from_state_dict(state["accountant"])
        self.sampler.set_state(state["sampler"])
        if isinstance(self.noise, TorchNoise) and state["noise"] is not None:
            self.noise.generator.set_state(state["noise"])
        self.history = [EpochResult(**r) for r in state["history"]]
