"""Where a run's random draws come from: secret OS entropy by default, a seed only in research mode.

A run draws three streams: the model's initialisation θ₀, the Poisson batches S_t and the Gaussian noise
N(0, s_t² I) of every release (a tuning proxy a fourth: its secret training subset). The DP guarantee of
one run holds only if an adversary cannot predict them, and the guarantee of a sweep (composition,
Papernot & Steinke's repeat-and-select) only if the streams of different runs are independent (DESIGN
§9): two runs seeded alike start at the same θ₀, draw nested batches and the same standard-normal noise,
so the difference of their first releases is noise-free; a published seed lets anyone regenerate the
noise and subtract it.

* ``secure`` (the default): each stream is a torch generator seeded with 64 bits from the operating
  system's CSPRNG (``secrets``), fresh for every run and written nowhere a reader of the results sees.
  Torch offers no CSPRNG of its own (Opacus's ``secure_mode`` relied on ``torchcsprng``, which has no
  build for current torch), so the generators are Mersenne Twister (CPU) and Philox (CUDA) with a
  secret seed: their output is unpredictable to anyone without the seed or a checkpoint's generator
  state. Checkpoints that hold generator states for an exact resume are therefore private state.
* ``seeded`` (research mode, ``--seed N`` / ``training.seed``): reproducible and labelled as such in
  every output (``noise_source: "seeded"``); its privacy claim holds only while the seed stays secret.
"""

from __future__ import annotations

import secrets
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

SECURE = "secure"
SEEDED = "seeded"
SEED_BITS = 64
SEED_LIMIT = 2**62  # seeded streams use 2N + 2, and torch seeds stop at 2^64
PROXY_SUBSET_STREAM = "proxy-subset"
NOISE_GENERATORS = ("torch", "os-csprng")
"""``torch``: a torch generator seeded from OS entropy (or by the seed); ``os-csprng``: every noise
draw from the OS CSPRNG itself (``dptune.methods.release.OsCsprngNoise``), slower, never seeded."""


@dataclass(frozen=True)
class StreamSeeds:
    """Seeds of a run's random streams (private: knowing them reveals the noise); ``subset`` draws a
    tuning proxy's secret subset when the run has no subset given (``RunConfig.proxy_fraction``)."""

    init: int
    sampler: int
    noise: int
    subset: int


@dataclass(frozen=True)
class Randomness:
    """A run's source of randomness: ``seed=None`` is secure (OS entropy), an integer is seeded."""

    seed: int | None = None

    @property
    def noise_source(self) -> str:
        return SECURE if self.seed is None else SEEDED

    def stream_seeds(self) -> StreamSeeds:
        """Fresh secret seeds, or the seeded mode's fixed ones (θ₀: N, batches: 2N + 1, noise: 2N + 2,
        a proxy's subset: hashed from N, so that it is no other seed's stream)."""
        if self.seed is None:
            return StreamSeeds(*(secrets.randbits(SEED_BITS) for _ in range(4)))
        subset = trial_seed(self.seed, PROXY_SUBSET_STREAM, 0)
        return StreamSeeds(self.seed, 2 * self.seed + 1, 2 * self.seed + 2, subset)

    def label(self) -> dict[str, Any]:
        """What every output of a run says about its randomness: the source, and the seed if seeded."""
        if self.seed is None:
            return {"noise_source": SECURE}
        return {"noise_source": SEEDED, "seed": self.seed}


def trial_seed(seed: int, method: str, number: int) -> int:
    """The seed of trial ``number`` of ``method`` in a seeded sweep: distinct per trial and method
    (so trials never share noise), reproducible from the sweep's ``training.seed``."""
    entropy = [seed, zlib.crc32(method.encode()), number]
    return int(np.random.SeedSequence(entropy).generate_state(1, np.uint64)[0] >> 2)  # < 2^62, a valid seed


def secret_rng() -> np.random.Generator:
    """A numpy generator seeded with 128 bits of OS entropy (e.g. the secret trial count K)."""
    return np.random.default_rng(secrets.randbits(128))
