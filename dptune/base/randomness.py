"""Where a run's random draws come from: secret OS entropy by default, a seed only in research mode.

A run draws three streams: the model's initialisation θ₀, the Poisson batches S_t and the Gaussian noise
N(0, s_t² I) of every release (a tuning proxy a fourth: its secret training subset). The DP guarantee of
one run holds only if an adversary cannot predict them, and the guarantee of a sweep (composition,
Papernot & Steinke's repeat-and-select) only if the streams of different runs are independent
(docs/privacy.md): two runs seeded alike start at the same θ₀, draw nested batches and the same
standard-normal noise, so the difference of their first releases is noise-free; a published seed lets
anyone regenerate the noise and subtract it.

* ``secure`` (the default): each stream gets a 256-bit secret from the operating system's CSPRNG
  (``secrets``), fresh for every run and written nowhere a reader of the results sees, and its
  generator's *whole* state is expanded from that secret (``stream_generators``). Torch offers no CSPRNG
  of its own (Opacus's ``secure_mode`` relied on ``torchcsprng``, which has no build for current
  torch), so the generators are Mersenne Twister (CPU) and Philox (CUDA). ``manual_seed`` would not do:
  torch's CPU Mersenne Twister keeps only the low 32 bits of its seed (seeds that differ above bit 32
  give the same stream), so two of a few hundred runs would share a stream with probability about
  N²/2³³, near δ. Here a CPU generator's 624-word state carries 256 bits of entropy (a CPU noise
  stream's two generators, one for each part of a noise vector, share one 256-bit expansion), and a
  CUDA stream is the normalised sum of two Philox generators with 124 secret bits each (a 64-bit key
  and a 60-bit counter offset: 248 bits). Their output is unpredictable to anyone without the secret or a
  checkpoint's generator state. Checkpoints that hold generator states for an exact resume are
  therefore private state.
* ``seeded`` (research mode, ``--seed N`` / ``training.seed``): reproducible and labelled as such in
  every output (``noise_source: "seeded"``); its privacy claim holds only while the seed stays secret.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch

SECURE = "secure"
SEEDED = "seeded"
SEEDED_NO_GUARANTEE = "seeded: no privacy guarantee"
"""What a seeded run's release says in place of an (ε, δ): whoever has the seed regenerates its noise."""
SEED_BITS = 256
"""Bits of OS entropy behind each secret stream (and a proxy's subset, a sweep's tie-break key)."""
SEED_LIMIT = 2**62  # a research seed N: its streams use N, 2N + 1 and 2N + 2, each expanded whole
POOL_WORDS = SEED_BITS // 32
"""``SeedSequence`` pool size that keeps every bit of a 256-bit secret (numpy's default keeps 128)."""
MT_STATE_WORDS = 624
_MT_STATE_BYTES = 5056
_MT_WORDS_OFFSET = 24
"""torch's CPU generator state (``CPUGeneratorImplState``): int64 seed, int32 left, int32 seeded, uint64
next, then the 624 state words, each a uint32 stored in a uint64 (then the normal-sampling cache)."""
PHILOX_OFFSET_BITS = 60
"""Secret bits of a Philox counter offset: torch wants a non-negative int64 that is a multiple of 4."""
CUDA_STREAMS = 2
"""Philox generators summed per CUDA stream: 64 + 60 secret bits each, 248 in all (≥ 128)."""
CPU_NOISE_PARTS = 2
"""Mersenne Twisters of a CPU noise stream, each drawing its own contiguous part of a noise vector, the
parts at once in threads: torch draws normals serially on a CPU (one generator fills RoBERTa-base's 124.6M
coordinates in about 0.6 s, an eighth of its non-private step on 2 cores). Fixed, not the thread count, so
that a seeded stream's draws do not depend on the machine."""
PROXY_SUBSET_STREAM = "proxy-subset"
HELD_OUT_STREAM = "held-out"
TIE_BREAK_STREAM = "tie-break"
NOISE_GENERATORS = ("torch", "os-csprng")
"""``torch``: a torch generator seeded from OS entropy (or by the seed); ``os-csprng``: every noise
draw from the OS CSPRNG itself (``dptune.methods.privatize.OsCsprngNoise``), slower, never seeded."""


@dataclass(frozen=True)
class StreamSeeds:
    """Seeds of a run's random streams (private: knowing them reveals the noise); ``subset`` draws a
    tuning proxy's secret subset when the run has no subset given (``RunConfig.proxy_fraction``),
    ``held_out`` the noise of its scores on private held-out data (``RunConfig.heldout_noise``)."""

    init: int
    sampler: int
    noise: int
    subset: int
    held_out: int


@dataclass(frozen=True)
class Randomness:
    """A run's source of randomness: ``seed=None`` is secure (OS entropy), an integer is seeded."""

    seed: int | None = None

    @property
    def noise_source(self) -> str:
        return SECURE if self.seed is None else SEEDED

    def stream_seeds(self) -> StreamSeeds:
        """Fresh secret seeds, or the seeded mode's fixed ones (θ₀: N, batches: 2N + 1, noise: 2N + 2,
        a proxy's subset and the held-out scores' noise: hashed from N, so that each is no other seed's
        stream)."""
        if self.seed is None:
            return StreamSeeds(*(secrets.randbits(SEED_BITS) for _ in range(5)))
        subset = trial_seed(self.seed, PROXY_SUBSET_STREAM, 0)
        held_out = trial_seed(self.seed, HELD_OUT_STREAM, 0)
        return StreamSeeds(self.seed, 2 * self.seed + 1, 2 * self.seed + 2, subset, held_out)

    def restored_held_out_seed(self, epoch: int) -> int:
        """The seed of the held-out scores' noise of a run restored from its checkpoint after ``epoch``
        epochs: fresh secret entropy, or in a seeded run a seed hashed from N and the epoch. Never the
        checkpoint's own stream: an epoch redone after a restore (on another device its training noise is
        fresh) must not reuse a draw, or two of its scores would differ by a noise-free amount."""
        if self.seed is None:
            return secrets.randbits(SEED_BITS)
        return trial_seed(self.seed, HELD_OUT_STREAM, epoch + 1)

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
    """A numpy generator seeded with 256 bits of OS entropy (e.g. the secret trial count K)."""
    return np.random.default_rng(np.random.SeedSequence(secrets.randbits(SEED_BITS), pool_size=POOL_WORDS))


def tie_rank(key: int, name: str) -> int:
    """A rank of ``name`` that only the holder of ``key`` can compute: HMAC-SHA256(key, name) as an integer.
    Ties of a selection go to the highest rank, so which of equally scored trials wins is a secret random
    draw, fixed for the sweep (a resume picks the same one) and unrelated to the order trials ran in."""
    digest = hmac.digest(key.to_bytes(SEED_BITS // 8, "big"), name.encode(), hashlib.sha256)
    return int.from_bytes(digest, "big")


def secret_key() -> int:
    """A fresh 256-bit secret from the OS CSPRNG (e.g. a sweep's tie-break key, a search's sampler)."""
    return secrets.randbits(SEED_BITS)


def _expanded(seed: int, words: int) -> np.ndarray:
    """``words`` uint32 words expanded from ``seed`` by ``SeedSequence`` with a 256-bit pool: every bit of
    a secret up to 256 bits reaches the words (a research seed is expanded the same way)."""
    return np.random.SeedSequence(seed, pool_size=POOL_WORDS).generate_state(words, np.uint32)


def cpu_generators(seed: int, count: int) -> tuple[torch.Generator, ...]:
    """``count`` CPU Mersenne Twisters whose 624-word states are the consecutive slices of
    ``_expanded(seed, 624·count)``, each set whole through ``set_state`` (left = 1, next = 0: the first
    draw twists the state, as after ``manual_seed``). The first is ``cpu_generator(seed)`` (the expansion's
    words are a stream: its first 624 do not depend on ``count``)."""
    import torch

    header = torch.Generator().manual_seed(0).get_state().numpy()  # valid: seeded, left = 1, next = 0
    if header.size != _MT_STATE_BYTES:
        raise RuntimeError(f"torch's CPU generator state is {header.size} bytes, not {_MT_STATE_BYTES}")
    words = _expanded(seed, MT_STATE_WORDS * count).astype("<u8").reshape(count, MT_STATE_WORDS)
    generators = []
    for state in words:
        raw = header.copy()
        raw[_MT_WORDS_OFFSET : _MT_WORDS_OFFSET + 8 * MT_STATE_WORDS] = state.view(np.uint8)
        generator = torch.Generator()
        generator.set_state(torch.from_numpy(raw))
        generators.append(generator)
    return tuple(generators)


def cpu_generator(seed: int) -> torch.Generator:
    """A CPU Mersenne Twister whose 624-word state is ``_expanded(seed, 624)`` (``cpu_generators``)."""
    return cpu_generators(seed, 1)[0]


def cuda_generators(seed: int, device: torch.device) -> tuple[torch.Generator, ...]:
    """``CUDA_STREAMS`` Philox generators on ``device``, each with a secret 64-bit key and a secret
    counter offset (a multiple of 4 below 2⁶²), all expanded from ``seed``."""
    import torch

    words = [int(w) for w in _expanded(seed, 4 * CUDA_STREAMS)]
    generators = []
    for i in range(CUDA_STREAMS):
        key = words[4 * i] << 32 | words[4 * i + 1]
        offset = 4 * ((words[4 * i + 2] << 32 | words[4 * i + 3]) & ((1 << PHILOX_OFFSET_BITS) - 1))
        state = np.array([key, offset], dtype="<u8").view(np.uint8)
        generator = torch.Generator(device=device)
        generator.set_state(torch.from_numpy(state.copy()))
        generators.append(generator)
    return tuple(generators)


def stream_generators(seed: int, device: torch.device | str = "cpu") -> tuple[torch.Generator, ...]:
    """The generators of one noise stream on ``device``, their whole state from ``seed``:
    ``CPU_NOISE_PARTS`` Mersenne Twisters on a CPU (``cpu_generators``), ``CUDA_STREAMS`` Philox
    generators on a GPU (``cuda_generators``)."""
    import torch

    device = torch.device(device)
    return cuda_generators(seed, device) if device.type == "cuda" else cpu_generators(seed, CPU_NOISE_PARTS)


def poisson_threshold(rate: float) -> float:
    """⌊rate·2⁵³⌋/2⁵³: a float64 uniform on the grid k·2⁻⁵³ (torch's) lies below it with probability
    exactly this, which is at most ``rate`` (compared with ``rate`` itself it would be ⌈rate·2⁵³⌉/2⁵³,
    and in float32 up to 2⁻²⁴ above it)."""
    return math.floor(rate * 2.0**53) / 2.0**53


def poisson_mask(n: int, rate: float, generator: torch.Generator) -> torch.Tensor:
    """n independent draws, each True with probability ``poisson_threshold(rate)`` ≤ ``rate``."""
    import torch

    return torch.rand(n, generator=generator, dtype=torch.float64) < poisson_threshold(rate)
