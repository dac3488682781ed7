"""What became of a sweep trial: one enum, reported by the trainable and read by the searcher, the
progress lines and the tracker (``status`` in every result a trial reports), and the keys of the scores
a trial reports, and the keys of a trial's config that say whose it is."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")

STATUS_KEY = "status"
OBJECTIVE = "validation_accuracy"
"""What a search maximises and selects on: accuracy on the validation part of the held-out records."""
FINAL_SCORE = "test_accuracy"
"""What a re-run of a selected configuration reports: accuracy on the final-test part."""
SCORE_STD = {OBJECTIVE: "validation_accuracy_std", FINAL_SCORE: "test_accuracy_std"}
"""Each score's key, and the key of its noise's standard deviation on private held-out data (σ_v over the
part's records, a share as the score is; absent on a public split)."""


def shown_score(score: float, std: float | None = None, decimals: int = 2) -> str:
    """A score in percent to ``decimals`` places, with its noise's standard deviation in points where it
    has one (private held-out data): ``93.81%``, ``72.10% ± 4.3``."""
    return f"{100 * score:.{decimals}f}%" + ("" if std is None else f" ± {100 * std:.2g}")


def validation_shown(result: Mapping[str, Any]) -> str:
    """A trial's reported validation score as a line shows it, with its noise (``shown_score``)."""
    return shown_score(result[OBJECTIVE], result.get(SCORE_STD[OBJECTIVE]))


PLAN_SHARE = "plan_share"
"""The share of its planned epochs a trial has trained (epoch / epochs): ASHA's clock in a sweep."""
NODE_KEY = "node_id"
"""The Ray node a trial's report came from (its tag in the tracking store; where a lost trial last ran)."""

METHOD_KEY = "method"
"""The method a trial of a sweep trains: every method's trials share one Tune run per sweep, and
this knob of the trial's config (the run configuration's own ``method``) says whose search it is."""
RERUN_OF = "rerun_of"
"""In the config of a re-run of a selected configuration: the id of the search trial it repeats. Not a
knob: the trainable scores a trial that has it on the final-test part."""
PROMOTED_FROM = "promoted_from"
"""In the config of a promoted trial (a pipeline's second rung of successive halving): the id of the
first-rung trial whose configuration it trains again, longer. Not a knob: it is scored on validation, as
every tuning trial."""
ROUTING_KEYS = (METHOD_KEY, RERUN_OF, PROMOTED_FROM)
"""The keys of a trial's config that say whose trial it is rather than how it trains."""


DEVICE_KEY, GPU_SHARE_KEY = "device", "gpu_share"
"""What every epoch's report of a sweep trial says of where it trained: its device, and its GPU share."""


def fell_back_to_cpu(result: Mapping[str, Any]) -> bool:
    """Whether a trial given a GPU share trained on the CPU (its node showed no CUDA device, and the spec
    allows it: ``resources.gpu_fallback: cpu``)."""
    return result.get(GPU_SHARE_KEY, 0) > 0 and result.get(DEVICE_KEY) == "cpu"


def is_rerun(config: Mapping[str, Any]) -> bool:
    """Whether a sweep trial's config is a re-run's (``RERUN_OF``) rather than a search trial's."""
    return RERUN_OF in config


class Route(NamedTuple):
    """Whose trial a sweep trial is: its method, for a re-run the search trial it repeats, for a promoted
    trial the first-rung trial it trains again."""

    method: str
    rerun_of: str | None
    promoted_from: str | None = None

    @property
    def rerun(self) -> bool:
        return self.rerun_of is not None


def route(config: Mapping[str, Any]) -> Route:
    """The one place a sweep trial's config is read for whose trial it is (``ROUTING_KEYS``): the
    trainable, the searcher, the scheduler and the callbacks of a sweep all route by it."""
    rerun_of, promoted_from = config.get(RERUN_OF), config.get(PROMOTED_FROM)
    return Route(
        str(config.get(METHOD_KEY, "")),
        None if rerun_of is None else str(rerun_of),
        None if promoted_from is None else str(promoted_from),
    )


class TrialStatus(StrEnum):
    RUNNING = "running"  # reported after every epoch but the last
    FINISHED = "finished"  # trained every planned epoch
    STOPPED = "stopped"  # ended early by the scheduler (its last report said running)
    INFEASIBLE = "infeasible"  # its drawn filter is invalid: ended without touching the data
    FAILED = "failed"  # raised (e.g. diverged); counts its whole plan
    LOST = "lost"  # started, but unknown to a restored experiment (the driver was killed)

    @classmethod
    def of_ended(cls, result: Mapping[str, Any]) -> TrialStatus:
        """The status of a trial that ended without an error, from its last result."""
        status = cls(result.get(STATUS_KEY, cls.RUNNING))
        return cls.STOPPED if status is cls.RUNNING else status

    @property
    def trained(self) -> bool:
        """Whether a trial ending so has a model to compare (finished or stopped)."""
        return self in (TrialStatus.FINISHED, TrialStatus.STOPPED)


def select_trial(
    trials: Iterable[T],
    status: Callable[[T], TrialStatus],
    score: Callable[[T], float],
    rank: Callable[[T], Any],
) -> T | None:
    """A search's selection rule: among its trials that trained every planned epoch, the one with the
    best validation score after its last epoch (None if none finished); of tied ones, the one of highest
    ``rank``, a secret random draw (``dptune.base.randomness.tie_rank``), never an order the trials ran in.
    The sweep's searcher selects with it (``dptune.sweep.chain.selection``)."""
    best = best_trials(trials, status, score, rank, 1)
    return best[0] if best else None


def best_trials(
    trials: Iterable[T],
    status: Callable[[T], TrialStatus],
    score: Callable[[T], float],
    rank: Callable[[T], Any],
    count: int,
) -> list[T]:
    """The ``count`` trials ``select_trial`` would pick one after another, best first: the finished ones
    by validation score, ties by ``rank``. Successive halving promotes them
    (``dptune.sweep.chain.tuning``)."""
    finished = [t for t in trials if status(t) is TrialStatus.FINISHED]
    return sorted(finished, key=lambda t: (score(t), rank(t)), reverse=True)[:count]


def select_keeping_start(
    trials: Iterable[T],
    status: Callable[[T], TrialStatus],
    score: Callable[[T], float],
    rank: Callable[[T], Any],
    is_start: Callable[[T], bool],
    validation_size: int,
    read_noise: Callable[[T], float],
    challengers: int,
) -> T | None:
    """A search's selection rule that keeps its start point: ``select_trial``'s choice among the start
    points' trials (``is_start``), unless ``select_trial``'s choice among all beats it by more than
    ``challenge_margin(m)`` times ``difference_error`` of the two validation accuracies, each with the
    standard deviation of the noise its read carries (``read_noise``: a private held-out split's, 0 on a
    public one), m the number of trials read on validation that the best was chosen among
    (``challengers``); with no start point finished, ``select_trial``'s. A tuning trial's score is its
    validation accuracy after a short, noisy run: the rule lets a trial replace a setting tuned elsewhere
    only on a margin larger than the validation's own noise, grown with the number of trials that might
    have beaten it by chance."""
    trials = list(trials)
    best = select_trial(trials, status, score, rank)
    kept = select_trial([t for t in trials if is_start(t)], status, score, rank)
    if best is None or kept is None:
        return best
    error = difference_error(score(best), score(kept), validation_size, read_noise(best), read_noise(kept))
    return best if score(best) - score(kept) > challenge_margin(challengers) * error else kept


def challenge_margin(challengers: int) -> float:
    """z_m = Φ⁻¹(1 − Φ(−1)/m): how many standard errors of the difference the best of m challengers' reads
    must beat a kept trial's read by, so that where no challenger is better than the kept trial the chance
    that any of the m beats it by that much stays at most about Φ(−1) ≈ 0.159 (the reads' differences taken
    as normal, with the estimated standard error), one comparison's chance at one standard error
    (Bonferroni's union bound over the m comparisons): 1 for one challenger, 1.41 for two,
    1.75 for four, 2.06 for eight."""
    normal = statistics.NormalDist()
    return normal.inv_cdf(1 - normal.cdf(-1) / max(challengers, 1))


CLEAR_MARGIN = (
    "z_m standard errors of the difference, z_m = Φ⁻¹(1 − Φ(−1)/m) for the m trials read on validation that "
    "the challenger was chosen among, one per run at each rung "
    f"({challenge_margin(1):.0f} for one, {challenge_margin(4):.2f} for four)"
)
"""The margin a kept trial must be beaten by, as a line says it (``challenge_margin`` times
``difference_error``)."""


def difference_error(a: float, b: float, n: int, noise_a: float = 0.0, noise_b: float = 0.0) -> float:
    """√((a(1 − a) + b(1 − b))/n + s_a² + s_b²): the standard error of the difference of two accuracies a
    and b (as fractions), each the share of n independent examples classified right (binomial, normal
    approximation; two models scored on the same examples err alike, so this part is an upper estimate),
    each read with independent Gaussian noise of standard deviation s_a, s_b added (a private held-out
    split's σ_v/n; 0 on a public one)."""
    return math.sqrt((a * (1 - a) + b * (1 - b)) / n + noise_a**2 + noise_b**2)
