"""ε of a history under dp-accounting's privacy-loss-distribution accountant (Meiser & Mohammadi 2018;
Koskela, Jälkö & Honkela 2020; Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022): the PLD of each
(z, q) entry, discretized pessimistically (an upper bound on ε whatever the grid), self-composed by FFT.
Equal (z, q) entries anywhere in the history cost one self-composition; a history with a different z at
every step has its z rounded onto a lattice (``PLD_DISTINCT``), which bounds it from above. The grid is
chosen per history (``pld_interval``), and ``pld_epsilon_bounds`` brackets ε cheaply first.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence
from typing import Any

from dptune.privacy.history import EpsilonBounds, HistoryEntry
from dptune.privacy.self_convolution import windows_by_powers

PLD_INTERVALS = (10**-2.5, 1e-3, 10**-3.5, 1e-4, 10**-4.5, 1e-5)
"""Grids of privacy-loss values the PLD is discretized on, coarsest first, each √10 times finer than the
last: the pessimistic discretization keeps ε an upper bound on any grid (``pld_interval`` chooses one)."""
PLD_TOLERANCE = 5e-4
"""How far above the exact ε (relative) the grid ``pld_interval`` chooses may put ε, as extrapolated."""
_CACHED_STEPS = 256  # one-step PLDs kept (1 MB each on a grid of 1e-4, 10 MB on the finest)
_CACHED_COMPOSED = 128  # self-composed PLDs kept (2 MB each on a grid of 1e-4, 20 MB on the finest)


def pld_epsilon(history: Sequence[HistoryEntry], delta: float, interval: float | None = None) -> float:
    """ε of a history under dp-accounting's PLD accountant, add-or-remove-one neighbours (those of the RDP
    accountant): each distinct (z, q) a Poisson-subsampled Gaussian self-composed its total count of
    steps (composition commutes, so equal entries anywhere in the history merge), the PLDs composed and
    read at δ (the pessimistic estimate: an upper bound on any grid), on the grid of ``interval``, by
    default the one ``pld_interval`` chooses."""
    entries = _merged(history)
    if not entries:
        return 0.0
    grid = _pld_interval(_sketch(entries), delta) if interval is None else interval
    return _composed_epsilon(entries, delta, grid)


def pld_interval(history: Sequence[HistoryEntry], delta: float) -> float:
    """The grid ``pld_epsilon`` reads ``history``'s ε on: the coarsest of ``PLD_INTERVALS`` whose error is
    at most ``PLD_TOLERANCE``·ε (``_pld_interval``)."""
    return _pld_interval(_sketch(_merged(history)), delta) if history else PLD_INTERVALS[0]


PLD_DISTINCT = 32
"""The most distinct noise multipliers z per sampling rate q that a PLD composes one by one. A history with
more (a clip bound that decays every step while the noise std stays: a new z every step) has each z
rounded down onto the lattice 2^(k/``PLD_BINS_PER_OCTAVE``) (``_merged``): an upper bound, since a
Poisson-subsampled Gaussian step with more noise is the same step with independent Gaussian noise added to
its output (post-processing), so a step at the lattice's z dominates the step it stands for."""
PLD_BINS_PER_OCTAVE = 32
"""The lattice of ``PLD_DISTINCT``: each z moves by less than a factor 2^(1/32), 2.2%; a clip that halves
over the run spans 33 of its points. One lattice for every σ, so that the ledgers of a calibration's probes
share their one-step PLDs (``_step_pld``)."""


PLD_SKETCH_BINS = 4
"""The lattice of the sketch a grid is chosen on (``_sketch``): 2^(k/4), a few PLDs."""


PLD_BRACKET_BINS = 8
"""The lattice of the cheap bounds ``pld_epsilon_bounds`` gives first: 2^(k/8), nine PLDs an octave."""


def _on_lattice(z: float, bins_per_octave: int, up: bool = False) -> float:
    """z rounded down (``up``: up) onto the lattice 2^(k/``bins_per_octave``)."""
    x = math.log2(z) * bins_per_octave
    if up:
        return max(z, math.exp2(math.ceil(x - 1e-9) / bins_per_octave))
    return min(z, math.exp2(math.floor(x + 1e-9) / bins_per_octave))


def pld_bracket(history: Sequence[HistoryEntry]) -> tuple[list[HistoryEntry], list[HistoryEntry]] | None:
    """Two histories of few distinct z whose ε by PLD brackets ``history``'s (``pld_epsilon``): its z
    rounded up, and down, onto the lattice of ``PLD_BRACKET_BINS`` (coarser than ``_merged``'s, which it
    contains, so the first is dominated by the history as ``pld_epsilon`` composes it and the second
    dominates it, by post-processing as in ``PLD_DISTINCT``); None where ``pld_epsilon`` composes no more
    than ``PLD_DISTINCT`` distinct z at any rate (then it is cheap itself). Each figure is on a pessimistic
    grid, so the second is an (ε, δ) bound of the history itself, and the first is below its ε up to the
    grid's error (``PLD_TOLERANCE``), far less than what the rounding moves it."""
    if all(count <= PLD_DISTINCT for count in _distinct_z(history).values()):
        return None
    return tuple(  # type: ignore[return-value]
        [(_on_lattice(z, PLD_BRACKET_BINS, up), q, n) for z, q, n in history] for up in (True, False)
    )


def _distinct_z(history: Sequence[HistoryEntry]) -> dict[float, int]:
    """How many distinct z ``history`` has at each sampling rate q, over its entries with steps."""
    distinct: dict[float, set[float]] = {}
    for z, q, n in history:
        if n > 0:
            distinct.setdefault(float(q), set()).add(float(z))
    return {q: len(zs) for q, zs in distinct.items()}


def _merged(
    history: Sequence[HistoryEntry], bins_per_octave: int = PLD_BINS_PER_OCTAVE, most: int = PLD_DISTINCT
) -> tuple[HistoryEntry, ...]:
    """The (z, q, steps) entries of ``history`` with steps, equal (z, q) merged, sorted; at a rate q with
    more than ``most`` distinct z, each z first rounded down onto the lattice 2^(k/``bins_per_octave``)."""
    counts: dict[tuple[float, float], int] = {}
    for z, q, n in history:
        if n > 0:
            key = (float(z), float(q))
            counts[key] = counts.get(key, 0) + int(n)
    distinct = _distinct_z(history)
    merged: dict[tuple[float, float], int] = {}
    for (z, q), n in counts.items():
        key = (_on_lattice(z, bins_per_octave), q) if distinct[q] > most else (z, q)
        merged[key] = merged.get(key, 0) + n
    return tuple(sorted((z, q, n) for (z, q), n in merged.items()))


def _sketch(entries: tuple[HistoryEntry, ...]) -> tuple[HistoryEntry, ...]:
    """``entries`` with their z rounded down onto the lattice of ``PLD_SKETCH_BINS`` where a rate has more
    distinct z than two of its octaves: what a grid's error is estimated on (``_pld_interval``). The error
    of a grid hardly depends on where within an octave each z lies, and any grid gives an upper bound."""
    return _merged(entries, PLD_SKETCH_BINS, 2 * PLD_SKETCH_BINS)


@functools.lru_cache(maxsize=4096)
def _pld_interval(entries: tuple[HistoryEntry, ...], delta: float) -> float:
    """The coarsest grid of ``PLD_INTERVALS`` on which the ε of ``entries`` (a history's ``_sketch``) is
    within ``PLD_TOLERANCE`` of the exact one, as extrapolated from the two coarsest grids.

    The connect-the-dots PLD (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi, PETS 2022, Alg. 1) takes the
    exact hockey-stick divergence δ(ε) at the grid's points and joins them by chords in e^ε, above the
    convex curve: its ε is an upper bound, whose error after composition grows as h² on a grid of step h
    (an interpolation's error). So ε(h₁) − ε(h₂) = (10 − 1)·err(h₂) for the two coarsest grids
    (h₂ = h₁/√10), and err(h) = err(h₂)·(h/h₂)² on the finer ones; the grid is the first where that is at
    most the tolerance (the finest, whatever the estimate, where the coarse grids cannot say)."""
    coarse, fine = (_composed_epsilon(entries, delta, h) for h in PLD_INTERVALS[:2])
    error = (coarse - fine) / 9 if math.isfinite(coarse) else math.inf
    for interval in PLD_INTERVALS[:-1]:
        if error * (interval / PLD_INTERVALS[1]) ** 2 <= PLD_TOLERANCE * fine:
            return interval
    return PLD_INTERVALS[-1]


@functools.lru_cache(maxsize=4096)
def _composed_epsilon(entries: tuple[HistoryEntry, ...], delta: float, interval: float) -> float:
    """ε at δ of ``entries`` (z, q, steps) composed on the grid of ``interval`` (a plan's searches probe the
    same ledgers again)."""
    return float(_composed(entries, interval).get_epsilon_for_delta(delta))


def pld_of(history: Sequence[HistoryEntry], interval: float) -> Any:
    """dp-accounting's ``PrivacyLossDistribution`` of a non-empty history on the grid of ``interval``, as
    ``pld_epsilon`` composes it (to compose with other PLDs)."""
    return _composed(_merged(history), interval)


def _composed(entries: tuple[HistoryEntry, ...], interval: float) -> Any:
    """The PLDs of ``entries`` (``_pld``) composed pairwise, as a balanced tree: each FFT composes two
    PLDs of like size, rather than one ever longer PLD with each of the rest in turn."""
    plds = [_pld(*e, interval) for e in entries]
    while len(plds) > 1:
        pairs = [a.compose(b) for a, b in zip(plds[::2], plds[1::2], strict=False)]
        plds = pairs + plds[2 * len(pairs) :]
    return plds[0]


@functools.lru_cache(maxsize=_CACHED_COMPOSED)
def _pld(z: float, q: float, steps: int, interval: float) -> Any:
    """The PLD of ``steps`` Poisson-subsampled Gaussian steps (noise multiplier z, rate q) on a grid of
    ``interval``: one step's (``_step_pld``) self-composed by dp-accounting's FFT, on the window it would
    choose, found faster (``dptune.privacy.self_convolution``)."""
    with windows_by_powers():
        return _step_pld(z, q, interval).self_compose(steps)


@functools.lru_cache(maxsize=_CACHED_STEPS)
def _step_pld(z: float, q: float, interval: float) -> Any:
    """The PLD of one Poisson-subsampled Gaussian step on a grid of ``interval``: dp-accounting's
    ``from_gaussian_mechanism``, pessimistic and connect-the-dots, as its PLD accountant builds it. Built
    once per (z, q, grid): a ledger's runs of different lengths at one σ share it."""
    from dp_accounting.pld import privacy_loss_distribution

    return privacy_loss_distribution.from_gaussian_mechanism(
        standard_deviation=z, value_discretization_interval=interval, sampling_prob=q
    )


def pld_epsilon_bounds(
    history: Sequence[HistoryEntry], delta: float, interval: float | None = None
) -> Iterator[EpsilonBounds]:
    """The PLD accountant's ε on the grid of ``interval`` (by default ``pld_interval``'s): first between
    the figures of ``pld_bracket``'s two histories where it has them (a few PLDs, where the history has a
    different z at every step), then exact."""
    interval = pld_interval(history, delta) if interval is None and history else interval
    bracket = pld_bracket(history)
    if bracket is not None:
        below, above = bracket
        yield pld_epsilon(below, delta, interval), pld_epsilon(above, delta, interval)
    epsilon = pld_epsilon(history, delta, interval)
    yield epsilon, epsilon
