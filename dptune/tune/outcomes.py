"""What a sweep's trials came to, as its closing lines state it: the trials lost after their retries,
the methods with no result, and this invocation's share of the trials' time and restarts."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dptune.sweep.spec_modes import SweepOutcome, spec_mode
from dptune.sweep.summary import Restarts
from dptune.sweep.sweep_spec import SweepSpec
from dptune.training.trial_status import (
    STATUS_KEY,
    TrialStatus,
    route,
)
from dptune.tune.sweep_run import (
    FAILED_ATTEMPTS_KEY,
    LOST_KEY,
    SweepRun,
)

if TYPE_CHECKING:
    pass

SECRET_FAILURE = "withheld: the trial count is secret, and whether or why a trial failed would tell it"
NO_TRIAL = "no trial trained; the first ended so: "
"""How ``failed_methods`` states a method none of whose trials trained, before the first one's reason."""


def lost_trials(spec: SweepSpec, outcomes: list[SweepOutcome]) -> list[str]:
    """A line for each trial Tune ended in error after its retries (a lost node, a killed process): which
    trial, why, and that its ε is still counted (every started trial is, at its whole plan). Under a
    secret trial count one line that withholds which and how many (each would tell K)."""
    lost = [r for outcome in outcomes for r in outcome.results if r.get(LOST_KEY)]
    if not lost:
        return []
    if spec.trials.random:
        return [f"a trial was lost ({SECRET_FAILURE}); the sweep's ε counts every trial that started"]
    lines = []
    for result in lost:
        whose = route(result["config"])
        kind = "release" if whose.rerun else "trial"
        lines.append(
            f"{whose.method} {kind} {result.get('trial_id', '?')} was lost after its retries "
            f"({result[LOST_KEY]}); its ε is still counted (every started trial is, at its whole plan)"
        )
    return lines


def failed_methods(spec: SweepSpec, outcomes: list[SweepOutcome]) -> dict[str, str]:
    """The methods of the spec with no trial that trained (every one failed or was infeasible, or none ran)
    in any of the sweeps, or whose result is a released model that a sweep did not release
    (``SpecMode.unreleased``), each with what happened (``NO_TRIAL`` and the first trial's whole reason, or
    the release that failed): such a sweep has no result for them. Under a secret trial count the reason is
    withheld and a method that drew no trial is named alike: which of the two it was, or why a trial
    failed, would tell that K was at least one."""
    failed: dict[str, str] = {}
    mode = spec_mode(spec, [])
    for outcome in outcomes:
        by_method: dict[str, list[dict[str, Any]]] = {method: [] for method in spec.methods}
        for result in outcome.results:
            by_method.setdefault(result["method"], []).append(result)
        for method, results in by_method.items():
            if any(TrialStatus.of_ended(r).trained for r in results if STATUS_KEY in r):
                continue
            reasons = [str(r["reason"]) for r in results if r.get("reason")] or ["no trial ran to a report"]
            failed.setdefault(method, NO_TRIAL + (SECRET_FAILURE if spec.trials.random else reasons[0]))
        failed = mode.unreleased(outcome) | failed
    return failed


@dataclass(frozen=True)
class Timing:
    """This invocation's share of each trial's time (a resumed sweep's restored trials ran before it; a
    release counts once for every slot it held): seconds, trials that ran now, trials restored."""

    trial_seconds: float
    trials: int
    restored: int
    restarts: Restarts


def restarts_of(results: list[dict[str, Any]]) -> Restarts:
    """The trials Tune restarted, from the failure count it wrote as each failed attempt ended
    (``FAILED_ATTEMPTS_KEY``): an attempt after which the count did not grow lost its node or process
    (counted apart, ``dptune.tune.node_loss``), any other raised an error; the last attempt of a trial that
    ended in error was not restarted."""
    trials = after_loss = after_error = 0
    for result in results:
        attempts = result.get(FAILED_ATTEMPTS_KEY, [])
        counts = [0, *attempts]
        restarted = len(attempts) - (1 if LOST_KEY in result else 0)
        losses = sum(counts[i + 1] == counts[i] for i in range(restarted))
        trials += restarted > 0
        after_loss += losses
        after_error += restarted - losses
    return Restarts(trials, after_loss, after_error)


def timing(results: list[dict[str, Any]], sweep: SweepRun, started: float) -> Timing:
    timed = [r for r in results if "trial_start" in r]
    ended = time.time()
    ran_now = [min(r["trial_end"], ended) - max(r["trial_start"], started) for r in timed]
    held = [sweep.placement.cpus(r["config"]) / sweep.resources.cpu for r in timed]
    seconds = sum(max(0.0, s) * slots for s, slots in zip(ran_now, held, strict=True))
    trials = sum(s > 0 for s in ran_now)
    return Timing(seconds, trials, len(timed) - trials, restarts_of(results))
