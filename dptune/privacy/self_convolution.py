"""The truncation window of a PLD's self-composition as dp-accounting computes it, at a twentieth of its cost.

dp-accounting self-composes a discretised privacy-loss PMF p (support 0 … n − 1) k times by FFT, on the
window of outputs that the Chernoff bound keeps (``dp_accounting.pld.common.compute_self_convolve_bounds``):
for each order λ in ±{1, …, 20}/n, with M(λ) = Σ_i p_i·e^{λi} the PMF's moment generating function,

    upper ≤ ⌈(k·log M(λ) + log(2/τ)) / λ⌉  (λ > 0),    lower ≥ ⌊(k·log M(λ) + log(2/τ)) / λ⌋  (λ < 0),

where τ is the tail mass the composition may drop (which dp-accounting adds to the PLD's mass at
infinity: the bound stays an upper bound whatever the window). dp-accounting evaluates each M(λ) by its
own ``logsumexp`` over the n points, 40 exponentials of the whole PMF per composition: in a plan whose
runs decay their clip (a different z at many steps, ``dptune.privacy.pld.PLD_DISTINCT``) that was
most of its planning time. Here the orders are multiples of one u_i = e^{i/n} (or e^{−i/n}), so
p_i·e^{λi} for the next order is the last one times u_i: one exponential of the PMF per sign, then a
product and a sum per order. The terms stay within [e^{−20}, e^{20}]·p_i, far from float64's range, so
M(λ) needs no log-sum-exp shift; the window is dp-accounting's (tested on Gaussian PLDs of every grid,
rate and noise a plan uses, ``tests/test_accounting.py``).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Sequence

import numpy as np

ORDERS = 20
"""dp-accounting's orders: λ = ±1/n, …, ±20/n."""


def chernoff_window(
    probabilities: Sequence[float] | np.ndarray,
    num_times: int,
    tail_mass_truncation: float = 0.0,
    orders: Sequence[float] | None = None,
) -> tuple[int, int]:
    """(lower, upper): dp-accounting's ``compute_self_convolve_bounds`` (same signature, same window; the
    module docstring's formula), its default orders by powers; given orders, or a PMF with a negative
    entry (which its log-sum-exp turns to NaN and skips), dp-accounting's own."""
    from dp_accounting.pld import common

    p = np.asarray(probabilities, dtype=float)
    n = len(p)
    lower, upper = 0, (n - 1) * num_times
    if tail_mass_truncation == 0:
        return lower, upper
    if orders is not None or (p < 0).any():
        low, high = common.compute_self_convolve_bounds(
            probabilities, num_times, tail_mass_truncation, orders
        )
        return int(low), int(high)
    log_tail = math.log(2 / tail_mass_truncation)
    for sign in (1, -1):
        factor = np.exp(sign * np.arange(n) / n)
        terms = p.copy()
        for step in range(1, ORDERS + 1):
            terms *= factor
            moment = float(terms.sum())
            if moment <= 0:
                continue
            order = sign * step / n
            bound = (num_times * math.log(moment) + log_tail) / order
            if not math.isfinite(bound):
                continue
            if order > 0:
                upper = min(upper, math.ceil(bound))
            else:
                lower = max(lower, math.floor(bound))
    return lower, upper


@contextlib.contextmanager
def windows_by_powers() -> Iterator[None]:
    """Within the block, dp-accounting's self-compositions find their window by ``chernoff_window``
    (the same window: nothing they compute changes but its cost)."""
    from dp_accounting.pld import common

    original = common.compute_self_convolve_bounds
    common.compute_self_convolve_bounds = chernoff_window
    try:
        yield
    finally:
        common.compute_self_convolve_bounds = original
