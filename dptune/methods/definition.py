"""What a method is to the rest of dptune: its name, parameters and composition, and what it is composed from.

A method's composition ``(params, σ, hyper) -> Method`` builds its chain of stages (``stages.chain``).
The privatize stage alone (what calibration, ``dptune calibrate`` and the audit need) depends on the clip
and the number of steps; post-processing may also need the expected batch size L (DP-AdamBC's noise variance
(σC/L)²) and the model's parameter tensors (GaLore's per-matrix projection). Those two are known only
once a run is planned and its model built, so they are optional here and a stage that needs one refuses
to start without it (``required``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from dptune.methods.params import Param, resolve_params
from dptune.methods.stages import Method

if TYPE_CHECKING:
    from dptune.engine.persample import ParamLayout

T = TypeVar("T")


@dataclass(frozen=True)
class Hyper:
    """Training settings a method's composition depends on.

    Attributes:
        clip: C.
        lr: η.
        steps: T, the run's number of privatized steps.
        expected_batch_size: L = q·n, what the privatize stage divides the noisy sum by (None: not planned).
        layout: names and shapes of the model's parameter tensors, in the order of the flat θ (None: no
            model built).
    """

    clip: float
    lr: float
    steps: int
    expected_batch_size: float | None = None
    layout: ParamLayout | None = None


def required(value: T | None, what: str, method: str) -> T:
    """``value``, or a ``ValueError`` saying that ``method``'s post-processing needs ``what`` (a run's
    ``Trainer`` always gives it; only privatize-only compositions leave it out)."""
    if value is None:
        raise ValueError(f"{method}: its post-processing needs {what}, which this composition was not given")
    return value


Compose = Callable[[dict[str, Any], float, Hyper], Method]


def _no_extra(params: dict[str, Any], prefix: str) -> dict[str, Any]:
    return params


@dataclass(frozen=True)
class MethodDefinition:
    """A method's name, parameters and composition ``(params, σ, hyper) -> Method``."""

    name: str
    summary: str
    params: tuple[Param, ...]
    compose: Compose
    resolve_extra: Callable[[dict[str, Any], str], dict[str, Any]] = _no_extra

    def resolve(self, given: Mapping[str, Any], prefix: str = "param") -> dict[str, Any]:
        """Typed, validated parameters with defaults filled in (filters resolved to a, b)."""
        return self.resolve_extra(resolve_params(self.params, given, self.name, prefix), prefix)

    def build(self, params: dict[str, Any], noise_multiplier: float, hyper: Hyper) -> Method:
        return self.compose(params, noise_multiplier, hyper)

    def noise_multipliers(self, params: dict[str, Any], hyper: Hyper, noise_multiplier: float) -> list[float]:
        """z_0, …, z_{T−1} of a run of T = ``hyper.steps`` privatized steps at σ: what the accountant
        composes."""
        privatize = self.compose(params, noise_multiplier, hyper).privatize
        return list(map(privatize.noise_multiplier, range(hyper.steps)))

    @property
    def noise_params(self) -> tuple[str, ...]:
        """Names of the parameters that can change the ledger a run is calibrated to."""
        return tuple(p.name for p in self.params if p.changes_noise)
