"""IIR low-pass filters of privatized gradients (DOPPLER; DP-PMLF), their validation and presets.

The filter (Zhang et al. 2024, DOPPLER, Alg. 2; Xiao et al. DP-PMLF, Alg. 1 lines 9–11):

    m_t = −Σ_{r=1}^{n_a} a_r m_{t−r} + Σ_{r=0}^{n_b} b_r ĝ_{t−r}          (unnormalised, kept in history)
    c_t = −Σ_{r=1}^{n_a} a_r c_{t−r} + Σ_{r=0}^{min(n_b, t)} b_r           (c_{<0} = 0)
    direction_t = m_t / c_t

with every m, ĝ, c before t = 0 equal to zero. c_t is the filter's step response, so m_t/c_t is the
convolution of ĝ with the impulse response κ normalised by Σ_{τ≤t} κ_τ (DP-PMLF Lemma 2).
The papers list a without a_0 (= 1): a = (−0.9,), b = (0.1,) is m_t = 0.9·m_{t−1} + 0.1·ĝ_t.

Valid coefficients: unit DC gain −Σa + Σb = 1, every root of z^{n_a} + a_1 z^{n_a−1} + … + a_{n_a}
strictly inside the unit circle, and c_t > 0 for every t (otherwise the bias correction divides by
zero or flips the direction).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from dptune.base.errors import InputError
from dptune.methods.stages import PostProcessing, State

if TYPE_CHECKING:
    import torch

DC_GAIN_TOL = 1e-9


@dataclass(frozen=True)
class IIRCoefficients:
    """Feedback a = (a_1, …, a_{n_a}) and feedforward b = (b_0, …, b_{n_b}) of an IIR filter."""

    a: tuple[float, ...]
    b: tuple[float, ...]

    def as_dict(self) -> dict[str, list[float]]:
        return {"a": list(self.a), "b": list(self.b)}


def step_response(coeffs: IIRCoefficients, steps: int) -> np.ndarray:
    """c_0, …, c_{steps−1}: the bias-correction sequence (the response to a unit step at t = 0)."""
    a, b = coeffs.a, coeffs.b
    c = np.zeros(steps)
    for t in range(steps):
        feed = sum(b[: min(len(b) - 1, t) + 1])
        back = sum(a[r - 1] * c[t - r] for r in range(1, min(len(a), t) + 1))
        c[t] = feed - back
    return c


def validate_filter(a: tuple[float, ...], b: tuple[float, ...], field: str = "filter") -> None:
    """Raise ``InputError`` unless (a, b) has unit DC gain, stable poles and a positive c_t."""
    if not b:
        raise InputError(field, "b needs at least one coefficient (b_0)")
    values = (*a, *b)
    if not all(np.isfinite(values)):
        raise InputError(field, f"coefficients must be finite numbers, got a={list(a)}, b={list(b)}")
    gain = -sum(a) + sum(b)
    if abs(gain - 1.0) > DC_GAIN_TOL:
        raise InputError(
            field,
            f"DC gain −Σa + Σb must be 1 (±1e-9), got {gain:.12g} for a={list(a)}, b={list(b)}",
        )
    if a:
        radius = float(np.max(np.abs(np.roots([1.0, *a]))))
        if radius >= 1.0:
            raise InputError(
                field,
                f"unstable: a pole has |z| = {radius:.6g}; every root of z^n_a + a_1 z^(n_a−1) + … "
                f"must lie strictly inside the unit circle (a={list(a)})",
            )
        horizon = int(min(100_000, 50 + 50 * np.log(1e-12) / np.log(max(radius, 1e-12))))
    else:
        horizon = len(b)
    c = step_response(IIRCoefficients(tuple(a), tuple(b)), horizon)
    if np.min(c) <= 0.0:
        t = int(np.argmin(c > 0))
        raise InputError(
            field,
            f"the bias correction c_t must stay positive, but c_{t} = {c[t]:.6g} for a={list(a)}, "
            f"b={list(b)} (make b_0 positive)",
        )


def make_filter(a: tuple[float, ...], b: tuple[float, ...], field: str = "filter") -> IIRCoefficients:
    """Validated coefficients."""
    a_t, b_t = tuple(float(x) for x in a), tuple(float(x) for x in b)
    validate_filter(a_t, b_t, field)
    return IIRCoefficients(a_t, b_t)


@dataclass(frozen=True)
class DrawnFilter:
    """A filter as a search draws it: named (a preset, or the family it came from), its coefficients, and
    the ``problem`` that makes it invalid (None: valid). Made by ``drawn``, which validates once; a run
    given a valid one trusts it, and a trial given an invalid one ends as infeasible without training."""

    label: str
    coefficients: IIRCoefficients
    problem: str | None = None

    @property
    def valid(self) -> bool:
        return self.problem is None

    def as_params(self) -> dict[str, str | list[float]]:
        """The method parameters it stands for, as runs log them: ``filter`` (its label), ``a``, ``b``."""
        return {"filter": self.label, **self.coefficients.as_dict()}


def drawn(label: str, coefficients: IIRCoefficients) -> DrawnFilter:
    """``coefficients`` validated once (``validate_filter``), with the problem kept rather than raised."""
    try:
        validate_filter(coefficients.a, coefficients.b)
    except InputError as exc:
        return DrawnFilter(label, coefficients, exc.problem)
    return DrawnFilter(label, coefficients)


# The papers' filters by name. a without a_0; names of the DP-PMLF filters spell the update
# m_t = Σ (−a_r) m_{t−r} + Σ b_r ĝ_{t−r}.
PRESETS: dict[str, IIRCoefficients] = {
    # DP-PMLF, Table 4 (rows 1–8; row 4 is used for MNIST/Fashion-MNIST, row 6 for CIFAR).
    "pmlf-a0.6-b0.4": IIRCoefficients((-0.6,), (0.4,)),
    "pmlf-a0.6-b0.2,0.2": IIRCoefficients((-0.6,), (0.2, 0.2)),
    "pmlf-a0.6-b0.5,-0.1": IIRCoefficients((-0.6,), (0.5, -0.1)),
    "pmlf-a0.9-b0.1": IIRCoefficients((-0.9,), (0.1,)),
    "pmlf-a0.9-b0.05,0.05": IIRCoefficients((-0.9,), (0.05, 0.05)),
    "pmlf-a0.9-b0.15,-0.05": IIRCoefficients((-0.9,), (0.15, -0.05)),
    "pmlf-a0.7,0.2-b0.05,0.05": IIRCoefficients((-0.7, -0.2), (0.05, 0.05)),
    "pmlf-none": IIRCoefficients((), (1.0,)),
    # DOPPLER, Table 2 (the filters used in its experiments).
    "doppler-sgd": IIRCoefficients((), (1.0,)),
    "doppler-momentum": IIRCoefficients((-0.9,), (0.1,)),
    "doppler-first-order-v1": IIRCoefficients((-9 / 11,), (1 / 11, 1 / 11)),
    "doppler-first-order-v2": IIRCoefficients((-9 / 11,), (3 / 11, -1 / 11)),
    "doppler-second-order": IIRCoefficients((-92 / 58, 38 / 58), (1 / 58, 2 / 58, 1 / 58)),
    # DOPPLER, Table 4 (ablation filters f1–f6).
    "doppler-f1": IIRCoefficients((-0.9,), (0.075, 0.025)),
    "doppler-f2": IIRCoefficients((-0.9,), (0.025, 0.075)),
    "doppler-f3": IIRCoefficients((-0.8,), (0.1, 0.1)),
    "doppler-f4": IIRCoefficients((-0.6,), (0.2, 0.2)),
    "doppler-f5": IIRCoefficients((-0.9,), (0.025, 0.05, 0.025)),
    "doppler-f6": IIRCoefficients((-1.8, 0.85), (0.025, 0.025)),
}


def adam_moment(beta1: float) -> IIRCoefficients:
    """Adam's first moment m_t = β₁ m_{t−1} + (1 − β₁) ĝ_t as a filter: a = (−β₁,), b = (1 − β₁,), whose
    bias correction c_t = 1 − β₁^{t+1} is Adam's (Kingma & Ba 2015, Alg. 1)."""
    return IIRCoefficients((-beta1,), (1.0 - beta1,))


def preset(name: str, field: str = "filter") -> IIRCoefficients:
    """The named paper filter; ``InputError`` listing the valid names otherwise."""
    if name not in PRESETS:
        raise InputError(field, f"unknown filter preset {name!r}; valid: {', '.join(PRESETS)}")
    return PRESETS[name]


def filter_step(
    coeffs: IIRCoefficients, privatized: torch.Tensor, state: State
) -> tuple[torch.Tensor, torch.Tensor, State]:
    """One step of the recursion: (m_t unnormalised, c_t as a tensor scalar, new state)."""
    import torch

    a, b = coeffs.a, coeffs.b
    t: int = state["t"]
    inputs = [privatized, *state["inputs"]]  # ĝ_t, ĝ_{t−1}, … (only those that exist)
    m = b[0] * privatized
    for r in range(1, min(len(b) - 1, t) + 1):
        m = m + b[r] * inputs[r]
    for r in range(1, min(len(a), t) + 1):
        m = m - a[r - 1] * state["outputs"][r - 1]
    c = sum(b[: min(len(b) - 1, t) + 1]) - sum(
        a[r - 1] * state["corrections"][r - 1] for r in range(1, min(len(a), t) + 1)
    )
    new_state = {
        "t": t + 1,
        "inputs": inputs[: len(b) - 1],
        "outputs": [m, *state["outputs"]][: len(a)],
        "corrections": [c, *state["corrections"]][: len(a)],
    }
    return m, torch.tensor(c, dtype=privatized.dtype), new_state


def filter_init(_params: torch.Tensor) -> State:
    return {"t": 0, "inputs": [], "outputs": [], "corrections": []}


def iir_filter(coeffs: IIRCoefficients) -> PostProcessing:
    """Post-processing stage: direction_t = m_t / c_t (see the module docstring for the recursion)."""

    def update(privatized: torch.Tensor, state: State) -> tuple[torch.Tensor, State]:
        m, c, new_state = filter_step(coeffs, privatized, state)
        return m / c, new_state

    return PostProcessing(
        f"iir_filter(a={list(coeffs.a)}, b={list(coeffs.b)})", filter_init, update, gain=1.0
    )  # m_t / c_t: unit DC gain by construction


def filtered_adam(coeffs: IIRCoefficients, beta2: float, eps: float) -> PostProcessing:
    """LP-DPAdam post-processing (DOPPLER Alg. 3 without GaLore): the filter is Adam's first moment.

        m̂_t = m_t / c_t                          (IIR filter of ĝ with bias correction)
        v_t = β₂ v_{t−1} + (1 − β₂) ĝ_t²           (second moment of the raw privatized gradient)
        v̂_t = v_t / (1 − β₂^{t+1})
        direction_t = m̂_t / max(√v̂_t, ε)          (DOPPLER L467: ε is a floor, not added)

    The printed algorithm writes v_t = (1−β)v + β ĝ² and corrects by 1 − β^t from t = 0, which
    divides by zero at t = 0; we use the standard Adam form, which is what its bias correction implies.
    """

    def init(params: torch.Tensor) -> State:
        import torch

        return {"filter": filter_init(params), "v": torch.zeros_like(params), "t": 0}

    def update(privatized: torch.Tensor, state: State) -> tuple[torch.Tensor, State]:
        m, c, filter_state = filter_step(coeffs, privatized, state["filter"])
        t = state["t"]
        v = beta2 * state["v"] + (1.0 - beta2) * privatized.square()
        v_hat = v / (1.0 - beta2 ** (t + 1))
        direction = (m / c) / v_hat.sqrt().clamp(min=eps)
        return direction, {"filter": filter_state, "v": v, "t": t + 1}

    return PostProcessing(f"filtered_adam(beta2={beta2}, eps={eps})", init, update, gain=None)
