"""The DP methods by name: each a short composition of stages, with its parameters and defaults.

| method         | signal               | release                   | post-processing                 |
|----------------|----------------------|---------------------------|---------------------------------|
| dpsgd          | gradient             | clip C, noise σC          | –                               |
| dpsgd-momentum | gradient             | clip C_t↓, noise σC       | heavy ball (c)                  |
| lp-dpsgd       | gradient             | clip C, noise σC          | IIR filter (a, b)               |
| lp-dpadam      | gradient             | clip C, noise σC          | IIR filter as Adam first moment |
| dp-pmlf        | per-sample momentum  | clip C, noise σC          | IIR filter (a, b)               |
| innerouter     | per-sample momentum  | clip C, noise σC          | heavy ball (outer momentum)     |
| fo-dp-sgd      | gradient             | clip C, noise σC/β        | fractional memory (β, α, K, …)  |

σ is always the paper's noise multiplier: noise std / C of the paper's release. For fo-dp-sgd that
release is β·s_t + (1−β)·u + N(0, σ²C²), so the accountant sees σ/β (see ``fractional``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dptune.errors import InputError
from dptune.methods.filters import (
    DrawnFilter,
    IIRCoefficients,
    filtered_adam,
    iir_filter,
    make_filter,
    preset,
)
from dptune.methods.fractional import fractional_memory
from dptune.methods.momentum import heavy_ball
from dptune.methods.params import Param, resolve_params
from dptune.methods.release import decreasing_clip_release, gaussian_release
from dptune.methods.signal import per_sample_gradient, per_sample_momentum
from dptune.methods.stages import Method, Update, chain


@dataclass(frozen=True)
class Hyper:
    """Training settings a method's composition depends on."""

    clip: float
    lr: float
    steps: int


Compose = Callable[[dict[str, Any], float, Hyper], Method]


@dataclass(frozen=True)
class MethodDefinition:
    """A method's name, parameters and composition ``(params, σ, hyper) -> Method``."""

    name: str
    summary: str
    params: tuple[Param, ...]
    compose: Compose
    resolve_extra: Callable[[dict[str, Any], str], dict[str, Any]] = lambda params, prefix: params

    def resolve(self, given: Mapping[str, Any], prefix: str = "param") -> dict[str, Any]:
        """Typed, validated parameters with defaults filled in (filters resolved to a, b)."""
        return self.resolve_extra(resolve_params(self.params, given, self.name, prefix), prefix)

    def build(self, params: dict[str, Any], noise_multiplier: float, hyper: Hyper) -> Method:
        return self.compose(params, noise_multiplier, hyper)

    def noise_multipliers(self, params: dict[str, Any], hyper: Hyper, noise_multiplier: float) -> list[float]:
        """z_0, …, z_{T−1} of a run of T = ``hyper.steps`` releases at σ: what the accountant composes."""
        release = self.compose(params, noise_multiplier, hyper).release
        return [release.noise_multiplier(t) for t in range(hyper.steps)]

    @property
    def noise_params(self) -> tuple[str, ...]:
        """Names of the parameters that can change the ledger a run is calibrated to."""
        return tuple(p.name for p in self.params if p.changes_noise)


def _unit_interval(closed_right: bool) -> Callable[[float], bool]:
    return (lambda v: 0.0 <= v <= 1.0) if closed_right else (lambda v: 0.0 <= v < 1.0)


def _filter_params(default: str) -> tuple[Param, ...]:
    """The filter, by preset name (or as a search drew it), or as coefficients a and b."""
    return (
        Param(
            "filter",
            "filter",
            default,
            lambda v: True,
            "a preset name",
            "paper filter by name",
            searchable=False,
        ),
        Param(
            "a",
            "floats",
            None,
            lambda v: True,
            "numbers a_1..a_na",
            "feedback coefficients",
            searchable=False,
        ),
        Param(
            "b", "floats", None, lambda v: len(v) >= 1, "numbers b_0..b_nb", "feedforward", searchable=False
        ),
    )


def _resolve_filter(params: dict[str, Any], prefix: str) -> dict[str, Any]:
    """Replace ``filter``/``a``/``b`` by coefficients, validated here once (the only validation a run's
    filter gets): a drawn filter as it was validated when drawn, else a and b (they win over the
    preset), else the preset."""
    chosen, a, b = params["filter"], params["a"], params["b"]
    if isinstance(chosen, DrawnFilter):
        if not chosen.valid:
            raise InputError(f"{prefix}.filter", str(chosen.problem))
        return {**params, **chosen.as_params()}
    if a is None and b is None:
        coeffs = preset(chosen, f"{prefix}.filter")
        return {**params, "a": list(coeffs.a), "b": list(coeffs.b)}
    if b is None:
        raise InputError(f"{prefix}.b", "give b together with a (or a preset via filter=NAME)")
    coeffs = make_filter(a or (), b, f"{prefix}.a/b")
    return {**params, "filter": "custom", "a": list(coeffs.a), "b": list(coeffs.b)}


def _coeffs(params: dict[str, Any]) -> IIRCoefficients:
    """The coefficients ``_resolve_filter`` validated (composing a method, e.g. once per σ probe of the
    calibration, does not validate them again)."""
    return IIRCoefficients(tuple(params["a"]), tuple(params["b"]))


K_PARAM = Param("k", "int", 2, lambda v: v >= 1, "an integer >= 1", "per-sample momentum length")
BETA_PARAM = Param("beta", "float", 0.1, _unit_interval(True), "in [0, 1]", "per-sample momentum weight")


def _dpsgd(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain("dpsgd", per_sample_gradient(), gaussian_release(h.clip, sigma), Update(h.lr))


def _dpsgd_momentum(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    decay = p["clip_decay_steps"] or h.steps
    return chain(
        "dpsgd-momentum",
        per_sample_gradient(),
        decreasing_clip_release(h.clip, sigma, decay),
        heavy_ball(p["momentum"]),
        Update(h.lr),
    )


def _lp_dpsgd(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "lp-dpsgd",
        per_sample_gradient(),
        gaussian_release(h.clip, sigma),
        iir_filter(_coeffs(p)),
        Update(h.lr),
    )


def _lp_dpadam(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "lp-dpadam",
        per_sample_gradient(),
        gaussian_release(h.clip, sigma),
        filtered_adam(_coeffs(p), p["beta2"], p["eps_adam"]),
        Update(h.lr),
    )


def _dp_pmlf(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "dp-pmlf",
        per_sample_momentum(p["k"], p["beta"]),
        gaussian_release(h.clip, sigma),
        iir_filter(_coeffs(p)),
        Update(h.lr),
    )


def _innerouter(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "innerouter",
        per_sample_momentum(p["k"], p["beta"]),
        gaussian_release(h.clip, sigma),
        heavy_ball(p["outer_momentum"]),
        Update(h.lr),
    )


def _fo_dp_sgd(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    beta = p["beta"]
    return chain(
        "fo-dp-sgd",
        per_sample_gradient(),
        gaussian_release(h.clip, sigma / beta),
        fractional_memory(
            beta,
            p["alpha"],
            p["memory"],
            p["lam"],
            p["tau"],
            p["gamma"],
            p["kappa"],
            p["zeta"],
            h.clip,
        ),
        Update(h.lr),
        info={"accountant_noise_multiplier": sigma / beta},
    )


def _positive(v: float) -> bool:
    return v > 0


def _nonnegative(v: float) -> bool:
    return v >= 0


def _in_open_closed_unit(v: float) -> bool:
    return 0 < v <= 1


METHODS: dict[str, MethodDefinition] = {
    "dpsgd": MethodDefinition("dpsgd", "DP-SGD (Abadi et al. 2016)", (), _dpsgd),
    "dpsgd-momentum": MethodDefinition(
        "dpsgd-momentum",
        "DP-SGD with momentum c and a clip bound decreasing to C/2 (Du et al.)",
        (
            Param("momentum", "float", 0.6, _unit_interval(False), "in [0, 1)", "momentum c"),
            Param(
                "clip_decay_steps",
                "int",
                None,
                lambda v: v >= 1,
                "an integer >= 1",
                "T_c: steps over which the clip halves (default: the whole run)",
                changes_noise=True,
            ),
        ),
        _dpsgd_momentum,
    ),
    "lp-dpsgd": MethodDefinition(
        "lp-dpsgd",
        "DP-SGD with the DOPPLER low-pass filter (Zhang et al. 2024, Alg. 2)",
        _filter_params("doppler-first-order-v1"),
        _lp_dpsgd,
        _resolve_filter,
    ),
    "lp-dpadam": MethodDefinition(
        "lp-dpadam",
        "DP-Adam with the DOPPLER low-pass filter as first moment (Zhang et al. 2024)",
        (
            *_filter_params("doppler-first-order-v1"),
            Param("beta2", "float", 0.999, lambda v: 0 <= v < 1, "in [0, 1)", "Adam β₂"),
            Param("eps_adam", "float", 1e-8, _positive, "a number > 0", "Adam ε (floor of √v̂)"),
        ),
        _lp_dpadam,
        _resolve_filter,
    ),
    "dp-pmlf": MethodDefinition(
        "dp-pmlf",
        "per-sample momentum + low-pass filter (Xiao et al., DP-PMLF, Alg. 1)",
        (K_PARAM, BETA_PARAM, *_filter_params("pmlf-a0.9-b0.1")),
        _dp_pmlf,
        _resolve_filter,
    ),
    "innerouter": MethodDefinition(
        "innerouter",
        "per-sample (inner) momentum + unnormalised heavy-ball outer momentum",
        (
            K_PARAM,
            BETA_PARAM,
            Param(
                "outer_momentum",
                "float",
                0.9,
                _unit_interval(False),
                "in [0, 1)",
                "outer heavy-ball momentum (assumed 0.9: the papers give none)",
            ),
        ),
        _innerouter,
    ),
    "fo-dp-sgd": MethodDefinition(
        "fo-dp-sgd",
        "fractional-order memory DP-SGD (Partohaghighi & Marcia, Alg. 1)",
        (
            Param("beta", "float", 0.9, _in_open_closed_unit, "in (0, 1]", "mixing β"),
            Param("alpha", "float", 0.8, _in_open_closed_unit, "in (0, 1]", "fractional order α"),
            Param("memory", "int", 8, lambda v: v >= 1, "an integer >= 1", "memory window K"),
            Param("lam", "float", 0.1, _nonnegative, "a number >= 0", "baseline tempering λ"),
            Param("tau", "float", 1.0, _nonnegative, "a number >= 0", "inconsistency tempering τ"),
            Param("gamma", "float", 0.1, _in_open_closed_unit, "in (0, 1]", "EMA coefficient γ"),
            Param("kappa", "float", 0.01, _positive, "a number > 0", "minimum scale κ (units of C)"),
            Param("zeta", "float", 0.1, _positive, "a number > 0", "confidence ζ (units of C)"),
        ),
        _fo_dp_sgd,
    ),
}


def get_method(name: str, field: str = "method") -> MethodDefinition:
    """The named method's definition; ``InputError`` listing the valid names otherwise."""
    if name not in METHODS:
        raise InputError(field, f"unknown method {name!r}; valid: {', '.join(METHODS)}")
    return METHODS[name]
