"""The scores a sweep makes on a private held-out split, counted before anything runs, and the noise that
covers them (``privacy.validation: private``; the mechanism and its guarantee: ``dptune.privacy.heldout``).

A run scores its validation part only where a decision reads the score (``Trainer.scores_validation``): a
search trial after its last epoch (the selection and the searcher read it), or after every epoch where a
scheduler reads its rungs (ASHA); a promoted trial after its last epoch; a re-run or a release never, and
its final-test part once, at its end. Per total (or per-run ε) and method, a spec of K trials (a tuning
proxy's P more), m promoted trials and R re-runs (a pipeline: one release per model) therefore makes

    validation:  (K + P)·s + m·s'   scores,  s = s' = 1; with a scheduler, s each trial's most epochs
    final test:  R + 1              scores   (the 1: the majority-class baseline, ``majority_baseline``)

where a pipeline's tuning trial runs its plan's T_t epochs (which may exceed the release's T) and a
promoted one r·T_t. Each held-out record is in one part, so a record sees only its own part's scores
(parallel composition): every score gets the noise σ_v that keeps the larger of the two counts
(ε, δ)-DP (``PrivateHeldOut``).

A validation score's noise has standard deviation σ_v/n_val (n_val the validation part's records). Where
that is above ``SWAMPED`` (10 points of accuracy) the noise is larger than the differences a selection
reads (on 86 records σ_v = 112 gave scores of 0% or 100% and a coin toss for a selection): such a plan is
refused before anything runs (``check_noise``), unless the spec opts in to a warning."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from dptune.base.errors import InputError
from dptune.privacy.heldout import HeldOutScores, PrivateHeldOut
from dptune.privacy.plans import MethodPlan
from dptune.sweep.sweep_spec import SweepSpec

if TYPE_CHECKING:
    from dptune.engine.dataset import Dataset


def scored_every_epoch(spec: SweepSpec) -> bool:
    """Whether a search trial of ``spec`` scores its validation part after every epoch: where a scheduler
    reads its rungs; else after its last epoch only."""
    return spec.scheduler == "asha"


def validation_scores(spec: SweepSpec, method: str, plan: MethodPlan | None) -> int:
    """The validation scores of ``method``'s trials at one ε: its tuning trials (and promoted trials) by
    its ``plan`` where the ε includes the tuning, else its search trials and a tuning proxy's."""
    every = scored_every_epoch(spec)
    if plan is None:
        trials = int(spec.trials.mean) + (spec.proxy.trials if spec.proxy is not None else 0)
        return trials * (int(spec.knob_range(method, "epochs")[1]) if every else 1)
    tuning = plan.tuning
    longest = max(tuned for _, tuned in plan.epochs)
    return tuning.runs * (longest if every else 1) + tuning.promoted * (
        tuning.factor * longest if every else 1
    )


def held_out_scores(spec: SweepSpec, plans: Sequence[MethodPlan] | None) -> HeldOutScores:
    """Every score a run of ``spec`` (with its ``plans`` where its ε includes the tuning) can make on each
    part of its held-out split (the module docstring's counts, over every ε and method)."""
    validation = final_test = 0
    for epsilon in spec.epsilons:
        mine = {p.method: p for p in plans or () if p.total_epsilon == epsilon}
        validation += sum(validation_scores(spec, method, mine.get(method)) for method in spec.methods)
        final_test += spec.release.final_test_runs(list(spec.methods), spec.reruns)
        final_test += 1  # the ε's sweep's majority-class baseline (``majority_baseline``; a proxy's: none)
    return HeldOutScores(validation, final_test)


def held_out_records(data: Dataset) -> HeldOutScores:
    """The records of each part of ``data``'s held-out split."""
    return HeldOutScores(len(data.val_y), len(data.test_y))


def with_held_out(
    spec: SweepSpec, plans: Sequence[MethodPlan] | None, delta: float, records: HeldOutScores | None = None
) -> SweepSpec:
    """With ``privacy.validation: private``, ``spec`` with every run's held-out scores noisy
    (``RunConfig.heldout_noise``) and scored where read (``RunConfig.validation_every_epoch``): the least
    noise whose scores, every one a run of the spec can make (``held_out_scores``), compose to
    (ε, ``delta``) for the held-out records, ε the smallest target (each total's model then covers them at
    its own ε or better), each part's ``records`` kept beside it (a score's noise in points); with a
    public split, ``spec``."""
    if spec.validation == "public":
        return spec
    held_out = PrivateHeldOut.calibrated(held_out_scores(spec, plans), min(spec.epsilons), delta, records)
    every = scored_every_epoch(spec)
    runs = {
        m: replace(run, heldout_noise=held_out.noise, validation_every_epoch=every)
        for m, run in spec.runs.items()
    }
    return replace(spec, runs=runs, held_out=held_out)


SWAMPED = 0.1
"""The largest standard deviation of a validation score's noise (σ_v over the validation part's records,
as a share: 10 points of accuracy) a private held-out split is given without ``privacy.noisy_scores: warn``:
above it the noise swamps the differences the selection reads."""


def check_noise(spec: SweepSpec) -> str | None:
    """None where ``spec``'s held-out noise (``with_held_out``, its parts' records known) fits its
    validation part (``SWAMPED``); else an ``InputError`` naming the fixes, or with
    ``privacy.noisy_scores: warn`` the same as a warning line."""
    held_out = spec.held_out
    if held_out is None or held_out.records is None:
        return None
    validation_records = held_out.records.validation
    std = held_out.score_std(validation_records)
    if std <= SWAMPED:
        return None
    problem = (
        f"the held-out noise would swamp the selection: each validation score has noise of std "
        f"{100 * std:.1f} points ({held_out.noise:.3g} counts on {validation_records} validation records, "
        f"for {held_out.queries} scores at ε = {held_out.epsilon:g}; the rule: at most {100 * SWAMPED:.0f}); "
        "give the held-out part more records, make fewer scores (fewer trials, methods or totals, no "
        "scheduler), take the split as public (privacy.validation: public), or accept it with "
        "privacy.noisy_scores: warn"
    )
    if spec.noisy_scores == "warn":
        return f"warning: privacy.noisy_scores: {problem}"
    raise InputError("privacy.validation", problem)


@dataclass(frozen=True)
class Baseline:
    """The majority-class rate of a final-test part: what always predicting its most frequent class
    scores, the trivial baseline a release must beat. Exact on a public split (``std`` None); on a private
    one the most frequent class's count with the held-out noise (one more score on that part, counted by
    ``held_out_scores``), over the part's records."""

    rate: float
    std: float | None

    def as_card(self) -> dict[str, Any]:
        return {
            "majority_class_rate": self.rate,
            "noise_std": self.std,
            "of": "the final-test part: the share of its records in its most frequent class"
            + ("" if self.std is None else " (a noisy count, inside the held-out records' guarantee)"),
        }

    def below(self, accuracy: float) -> bool:
        """Whether a release's final-test ``accuracy`` (a share) is not above this rate."""
        return accuracy <= self.rate


def majority_baseline(
    labels: Sequence[int], held_out: PrivateHeldOut | None, draw: Callable[[], float]
) -> Baseline:
    """The ``Baseline`` of a final-test part of ``labels``: the largest class count c (one record moves it
    by at most 1: sensitivity 1) over the part's size n; on private held-out data (c + σ_v·z)/n clamped
    to [0, 1], z = ``draw()`` a standard normal from secret randomness."""
    n = len(labels)
    top = max(Counter(labels).values(), default=0)
    if held_out is None:
        return Baseline(top / max(n, 1), None)
    noisy = min(float(n), max(0.0, top + held_out.noise * draw()))
    return Baseline(noisy / max(n, 1), held_out.score_std(n))
