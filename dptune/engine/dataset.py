"""A dataset as in-memory tensors: training, validation and final-test parts.

Every dataset's held-out examples (the published test set; digits' fixed 20%; a factory's held-out part;
a text task's labelled validation split or held-out file) are split once, by a fixed public permutation
(``HELD_OUT_SPLIT_SEED``, chosen without looking at any data), into a **validation** part, which trials
are scored and selected on, and a **final-test** part, which only the re-runs of a selected configuration
are evaluated on. Neither part is training data, so neither score costs privacy of the training set;
keeping them apart keeps the reported accuracy free of the selection's bias.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from dptune.base.randomness import cpu_generator, poisson_mask

if TYPE_CHECKING:
    import torch

SUBSET_ORDER_SEED = 0
"""Seed of the public permutation that ``--subset`` cuts: a data-independent choice, not run noise."""
HELD_OUT_SPLIT_SEED = 1
"""Seed of the public permutation that splits the held-out examples into validation and final test."""
VALIDATION_FRACTION = 0.5
"""The share of the held-out examples that the validation part gets (Fashion-MNIST: 5,000 and 5,000)."""


@dataclass(frozen=True)
class Dataset:
    """Normalised inputs (float32; a built-in dataset's images ``[n, c, h, w]``, a factory's ``[n, …]``; a
    text dataset's token ids, attention masks and token types, int64 ``[n, 3, T]``) and
    integer labels 0…K−1: training, validation and final-test parts (the last two from the held-out
    examples, ``held_out``). ``label_names``: where a factory gave its labels as strings, the name of
    each class index (sorted: ``factory_dataset``)."""

    name: str
    train_x: torch.Tensor
    train_y: torch.Tensor
    val_x: torch.Tensor
    val_y: torch.Tensor
    test_x: torch.Tensor
    test_y: torch.Tensor
    num_classes: int
    features: str | None = None  # what the inputs are when not the data's own (``dptune.engine.features``)
    label_names: tuple[str, ...] | None = None

    @functools.cached_property
    def inputs_digest(self) -> str:
        """SHA-256 of every input tensor (training, validation, final test) with its shape, 16 hex digits:
        the name a fixed transform of them is cached under (``dptune.engine.features``). Computed once per
        object and pickled with it, so the trials of a sweep whose driver computed it do not hash again."""
        digest = hashlib.sha256()
        for part in (self.train_x, self.val_x, self.test_x):
            digest.update(str(tuple(part.shape)).encode())
            # a factory's tensors may live on a GPU
            digest.update(part.detach().cpu().contiguous().numpy().data)
        return digest.hexdigest()[:16]

    @classmethod
    def held_out(
        cls,
        name: str,
        train: tuple[torch.Tensor, torch.Tensor],
        held: tuple[torch.Tensor, torch.Tensor],
        num_classes: int,
    ) -> Dataset:
        """The training examples, and the held-out ones split by the fixed public permutation: its first
        ``VALIDATION_FRACTION`` is the validation part, the rest the final-test part."""
        import torch

        held_x, held_y = held
        order = torch.randperm(len(held_y), generator=torch.Generator().manual_seed(HELD_OUT_SPLIT_SEED))
        cut = round(VALIDATION_FRACTION * len(held_y))
        val, test = order[:cut], order[cut:]
        return cls(name, *train, held_x[val], held_y[val], held_x[test], held_y[test], num_classes)

    def subset(self, size: int | None) -> Dataset:
        """The first ``size`` training samples of a fixed, public permutation (the test set is kept
        whole): every run and trial of a sweep trains on the same subset, chosen independently of the
        data and of every run's (secret) randomness."""
        import torch

        if size is None or size >= len(self.train_y):
            return self
        order = torch.randperm(len(self.train_y), generator=torch.Generator().manual_seed(SUBSET_ORDER_SEED))
        keep = order[:size]
        return replace(self, train_x=self.train_x[keep], train_y=self.train_y[keep])


def poisson_rows(n: int, fraction: float, seed: int) -> torch.Tensor:
    """The rows of a Poisson subset of ``n`` training samples: each kept independently with probability
    ``fraction`` (a tuning proxy's subset; the seed is secret, and so are the rows and their number)."""
    import torch

    return torch.nonzero(poisson_mask(n, fraction, cpu_generator(seed))).squeeze(1)
