"""What a sweep tells a person, before its trials and after them, as lines of text (no Ray, no I/O).

Everything here is released: a line never counts, times or scores the trials of a secret trial count
(repeat-and-select), which only ``tuning.secret_count`` and ``spec.trials.random`` reveal as such.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dptune.base.randomness import SEEDED_NO_GUARANTEE
from dptune.engine.dataset import Dataset
from dptune.privacy.compositions import BASIC
from dptune.privacy.filter import RenyiFilter
from dptune.privacy.heldout import PrivateHeldOut
from dptune.privacy.plan_privacy import promoted_note
from dptune.privacy.plans import MethodPlan, Phase
from dptune.privacy.tuning import TrialCount
from dptune.sweep.bound import SweepTuningCost, format_costs
from dptune.sweep.disclosure import STATED, Disclosure, seed_disclosure
from dptune.sweep.release_policies import ONE, ReleasePolicy
from dptune.sweep.releases import ReleasedModel, records_word
from dptune.sweep.spec_keys import MODEL_BASED_SAMPLERS
from dptune.sweep.sweep_spec import SweepSpec

WITHHELD = "withheld: the trial count is secret (repeat-and-select), and counts or times would reveal it"
"""What the console and ``dptune report`` show in place of a secret count's compute (runs, hours, wall)."""


def randomness_line(spec: SweepSpec) -> str:
    """Where the sweep's trials' noise, batches and initialisation come from."""
    seed = spec.shared.seed
    if seed is None:
        return "randomness: secure (secret OS entropy, fresh for every trial; no seed is recorded)"
    return (
        f"randomness: SEEDED research mode (training.seed = {seed}): anyone who knows the seed can "
        "regenerate the noise, so no privacy claim holds; no seed is recorded, and every release says "
        f"'{SEEDED_NO_GUARANTEE}' in place of an (ε, δ)"
    )


def selection_line(spec: SweepSpec, data: Dataset) -> str:
    """How a result is selected and what it is reported on, and whether the held-out split is public."""
    what = records_word(spec.shared.dataset)
    scored = f"trials scored and selected on a validation part ({len(data.val_y)} held-out {what})"
    if not spec.reruns:
        line = f"selection: {scored}; no re-runs (selection.reruns: 0), so no final-test score"
    else:
        line = (
            f"selection: {scored}; each method's selected configuration re-run {spec.reruns}× with fresh "
            f"randomness and scored on the final-test part ({len(data.test_y)} {what}), counted in ε"
        )
    return f"{line}\n{held_out_line(spec.held_out, seed_disclosure(spec.shared.seed))}"


def held_out_line(held_out: PrivateHeldOut | None, disclosure: Disclosure = STATED) -> str:
    """What the held-out split's records are given: taken as public, or their own guarantee (none in a
    seeded sweep, whose held-out scores' noise comes from the seed too: ``disclosure``)."""
    if held_out is None:
        return "held-out split: taken as public (privacy.validation: public); its scores are exact"
    records = held_out.records
    points = (
        ""
        if records is None
        else f" (± {100 * held_out.score_std(records.validation):.2g} points on a validation score, "
        f"± {100 * held_out.score_std(records.final_test):.2g} on a final-test one)"
    )
    return (
        f"held-out split: private (privacy.validation: private): every score a count with Gaussian noise "
        f"of std {held_out.noise:.3g}{points}, at most {held_out.scores.validation} on the validation part "
        f"(each trial where a decision reads it) and {held_out.scores.final_test} on the final-test part "
        "(the releases and the majority-class baseline), "
        + disclosure.figure(f"({held_out.epsilon:g}, {held_out.delta:g})-DP for its records")
        + " (no loss on them is computed)"
    )


@dataclass(frozen=True)
class Opening:
    """What a sweep's opening lines read: its data, δ, each trial's GPU share, its privacy filter (None:
    none) and each method's warm-start points."""

    data: Dataset
    delta: float
    gpu: float
    filter: RenyiFilter | None
    warm_points: Mapping[str, Sequence[Any]]


@dataclass(frozen=True)
class Closing:
    """What a sweep's closing lines read: its selected configurations as a table, its search bound's
    figures, where its private state is kept, the compute it used, the models it released and its public
    privacy record."""

    table: str
    tuning: SweepTuningCost
    private_state: str
    compute: str
    releases: Sequence[ReleasedModel]
    record: Mapping[str, Any]


def pipeline_opening_lines(
    spec: SweepSpec, plan: MethodPlan, opening: Opening, disclosure: Disclosure = STATED
) -> list[str]:
    """The lines before a pipeline sweep's first trial (``plan``: one of its methods' plans, all on one
    subset rate): what it tunes and releases (as its release policy says), its randomness, selection and
    held-out split (their figures as ``disclosure`` states them)."""
    shared, data = spec.shared, opening.data
    n, delta = len(data.train_y), opening.delta
    fraction = plan.tuning.fraction
    subset = f"a secret subset of rate {fraction:g}" if fraction < 1 else "all data"
    released = spec.release.opening
    promoted = f"then {promoted_note(plan.tuning)} (successive halving), " if plan.tuning.promoted else ""
    return [
        f"sweep {spec.name}: {', '.join(spec.methods)} on {shared.dataset} (n={n}) / {shared.model}, "
        f"{disclosure.total(spec.epsilons[0])} ({disclosure.figure(f'tuning included, δ={delta:g}')}): "
        f"{plan.tuning.count.describe()} tuning trials per method on {subset}, {promoted}then {released}",
        randomness_line(spec),
        f"selection: trials scored and selected on a validation part ({len(data.val_y)} held-out "
        f"{records_word(shared.dataset)}); the release scored on the final-test part ({len(data.test_y)} "
        f"{records_word(shared.dataset)})",
        held_out_line(spec.held_out, disclosure),
    ]


def search_opening_lines(spec: SweepSpec, opening: Opening) -> list[str]:
    """The lines before a per-run sweep's first trial: what the sweep is, its randomness and selection, and
    what its bound, sampler, filter or warm start mean for what it shows."""
    data, delta, gpu, filter_, warm_points = (
        opening.data,
        opening.delta,
        opening.gpu,
        opening.filter,
        opening.warm_points,
    )
    shared, n = spec.shared, len(data.train_y)
    lines = [
        f"sweep {spec.name}: {', '.join(spec.methods)} on {shared.dataset} (n={n}) / {shared.model}, "
        f"ε={shared.epsilon:g}, δ={delta:g}, {spec.trials.describe()} trials per method"
        + (" (the number drawn is secret)" if spec.trials.random else ""),
        randomness_line(spec),
        selection_line(spec, data),
    ]
    if spec.trials.random:
        lines.append(
            "repeat-and-select: the search trials are withheld (no line, count, score, plot point or "
            "Optuna page: each would tell how many ran); only the selected configuration is released"
        )
        if gpu > 0 and spec.gpu_fallback == "cpu":
            lines.append(
                "note: a trial given a GPU trains on the CPU where its node shows no CUDA device "
                "(gpu_fallback: cpu); whether any did is withheld with the trial count (each trial's "
                "record says)"
            )
    if filter_ is not None:
        lines.append(
            f"privacy filter: total ε = {filter_.epsilon:g} for the whole sweep (Rényi filter at order "
            f"{filter_.order:g}, an equal share per method); trials run while their worst plan fits"
        )
    if spec.sampler in MODEL_BASED_SAMPLERS and 0 < spec.trials.mean <= spec.startup_trials:
        lines.append(
            f"note: {spec.sampler} draws each method's first {spec.startup_trials} trials at random "
            f"(search.startup_trials), so the search of {', '.join(spec.methods)} draws at random; its "
            "bound still counts it as adaptive (a tpe or gp sampler may choose from earlier results)"
        )
    if spec.warm_start is not None:
        lines.append(
            f"warm start from sweep {spec.warm_start.sweep}: "
            + ", ".join(f"{m} {len(p)}" for m, p in warm_points.items())
            + " configurations first; its ε and δ add to this sweep's figures"
        )
    return lines


CARD_FIGURE = "its method's ε including tuning"
"""What a per-run sweep's re-run's card states."""


def registered_line(releases: Sequence[ReleasedModel], disclosure: Disclosure = STATED) -> list[str]:
    """Where a per-run sweep's re-runs are registered as models (none: no line)."""
    logged = [r.model_uri for r in releases if r.model_uri]
    if not logged:
        return []
    names = sorted({uri.rsplit("/", 1)[0].removeprefix("models:/") for uri in logged})
    return [
        f"re-runs registered as models ({', '.join(names)}; each card: {disclosure.figure(CARD_FIGURE)}): "
        "load one with "
        f'mlflow.pytorch.load_model("{logged[0]}")'
    ]


def closing_lines(spec: SweepSpec, closing: Closing) -> list[str]:
    """The lines after the last trial: the best trade-offs (its table), where its re-runs are registered
    (its releases), the privacy of the search, where a secret count is kept (its private state), the
    randomness and the compute used."""
    disclosure, tuning = seed_disclosure(spec.shared.seed), closing.tuning
    lines = [
        "\nbest trade-offs of this sweep:\n" + closing.table,
        *registered_line(closing.releases, disclosure),
        "\nprivacy of the search itself (each trial spends at most ε; choosing among them costs more):",
        disclosure.figure(format_costs(tuning)),
    ]
    if tuning.secret_count:
        lines.append(
            "  (a repeat-and-select bound needs the trial count secret: it is kept, with ε of releasing "
            f"every trial, in {closing.private_state}/private_state.json)"
        )
    return [*lines, randomness_line(spec), closing.compute]


def pipeline_closing_lines(spec: SweepSpec, closing: Closing, disclosure: Disclosure = STATED) -> list[str]:
    """The lines after a pipeline sweep (ε includes the tuning): the models its release policy did not
    release, the selected tuning trials (its table), what the sweep spent (as ``disclosure`` states it: a
    seeded sweep states no figure), the randomness and the compute used. The released models themselves
    are the run's last block, once for every total (``run_sweeps``)."""
    record, releases, release, table = closing.record, closing.releases, spec.release, closing.table
    total = record["total_epsilon"]
    methods = [row["method"] for row in record["methods"]]
    lines = release.not_released(methods, {r.method for r in releases}, disclosure.total(total))
    whole = release.covered()
    lines += [
        "\nthe tuning trials each release carried (validation accuracy; final test: the release):\n" + table,
        f"\nprivacy of this sweep: {len(record['methods'])} methods' pipelines on the same data; releasing "
        f"{whole}: "
        + disclosure.figure(f"ε ≤ {record['epsilon_including_tuning']:.3f}, δ ≤ {record['delta']:g}"),
    ]
    per_method = [
        f"  {row['method']:<15} ε = {row['epsilon_including_tuning']:.3f}: {row['note']}"
        for row in record["methods"]
    ]
    per_method += [
        f"note: {row['method']}'s model is at ε = {row['epsilon_including_tuning']:.3f}, above the total "
        f"{total:g}: a run lost with a stopped driver ran again (one more run on the data); its card "
        "states that ε"
        for row in record["methods"]
        if row["epsilon_including_tuning"] > total * (1 + 1e-9)
    ]
    lines += disclosure.stated(per_method) or []
    return [*lines, randomness_line(spec), closing.compute]


@dataclass(frozen=True)
class Restarts:
    """The trials Tune restarted over the sweep's life, and their restarts: after the loss of the trial's
    node or process, counted apart from the retries it has for its own errors (``dptune.tune.node_loss``),
    and after an error of its own. A restart resumes from the trial's last checkpoint (or afresh before
    its first); the lost attempt released nothing."""

    trials: int = 0
    after_loss: int = 0
    after_error: int = 0

    def phrase(self) -> str:
        """``; 2 trials restarted (2 after a lost node or process, …)``, or nothing where none was."""
        if not self.trials:
            return ""
        their = "its" if self.trials == 1 else "their"
        causes = []
        if self.after_loss:
            causes.append(f"{self.after_loss} after a lost node or process, spending none of {their} retries")
        if self.after_error:
            causes.append(f"{self.after_error} after an error of {their} own")
        trials = "1 trial" if self.trials == 1 else f"{self.trials} trials"
        return f"; {trials} restarted from {their} last checkpoint ({'; '.join(causes)})"


def compute_line(
    spec: SweepSpec,
    runs_now: int,
    runs_before: int,
    trial_seconds: float,
    slots: tuple[int, int],
    slot_seconds: float,
    slot: str,
    wall: float,
    restarts: Restarts,
) -> str:
    """Wall time, the runs this invocation trained (and those a resume found done), the trials restarted
    and how busy the slots were over the sweep's life: trial time over slot-seconds
    (``resources.SlotMeter``; a release that held n slots counts n times in ``trial_seconds``), with the
    fewest and most slots the nodes held; with a secret trial count none of it (a count, a trial time or
    the wall time would tell K)."""
    if spec.trials.random:
        return f"\ncompute {WITHHELD}"
    counted = f" for {runs_now} runs (trials and re-runs)"
    if runs_before:
        counted += f"; {runs_before} more ran before this resume"
    counted += restarts.phrase()
    busy = trial_seconds / slot_seconds if slot_seconds > 0 else 0.0
    held = f"{slots[0]} slots" if slots[0] == slots[1] else f"{slots[0]} to {slots[1]} slots"
    used = (
        f"{trial_seconds:.0f}s of trial time on {held} of {slot}, {slot_seconds:.0f} slot-seconds: "
        f"{busy:.0%} busy"
    )
    return f"\nwall time {wall:.0f}s{counted} ({used})"


def tuning_runs(count: TrialCount) -> str:
    """A phase's run count as the plan's table shows it: ``8``, ``K~P(8)`` (secret K, Poisson mean 8)
    or ``K~NB(8)`` (truncated negative binomial)."""
    if not count.random:
        return f"{int(count.mean)}"
    return f"K~{'P' if count.distribution == 'poisson' else 'NB'}({count.mean:g})"


def tuning_column(tuning: Phase) -> str:
    """A tuning phase's runs as the plan's table shows them: ``tuning_runs``, ``8+2`` with a second rung."""
    runs = tuning_runs(tuning.count)
    return f"{runs}+{tuning.promoted}" if tuning.promoted else runs


def epochs_text(plan: MethodPlan) -> str:
    """``4/40``: a tuning trial's epochs of the release's (each value of a searched epochs knob)."""
    return ",".join(f"{t}/{e}" for e, t in plan.epochs)


def spending_line(plan: MethodPlan) -> str:
    """How a total's tuning is spent and why, in one line: its trials, their length in epochs and steps,
    the ε a full run whose ranking they resemble would spend (γ·ε_t, by RDP; a plan below
    ``MIN_TUNING_EPSILON`` is refused before it runs), and the compute; a note where a trial makes fewer
    than ``MIN_RANKING_STEPS`` steps."""
    from dptune.sweep.plan import MIN_RANKING_STEPS, MIN_TUNING_EPSILON, fewest_kept

    tuning = plan.tuning
    steps = plan.tuning_steps
    ranking = plan.selection_steps
    length = ", ".join(f"{t} of {e}" for e, t in plan.epochs)
    where = f"a secret subset of rate γ = {tuning.fraction:g}" if tuning.fraction < 1 else "the whole data"
    pooled = len(plan.pool) > 1
    fewest, read = fewest_kept(tuning.promoted), "promoted trials" if tuning.promoted else "trials"
    spread = (
        f" (the planner's spread: the spec's count, or the most from {fewest} up whose {read} make at least "
        f"{MIN_RANKING_STEPS} noisy steps)"
        if pooled
        else ""
    )
    line = (
        f"(tuning at total {plan.total_epsilon:g}: {tuning_runs(tuning.count)} trials per method{spread} on "
        f"{where}, "
        f"{length} epochs ({steps} noisy steps) each, at the release's step; each ranks configurations "
        f"as a full run at ε ≈ γ·ε_t = {plan.tuning_quality:.3g} would (a plan below {MIN_TUNING_EPSILON:g} "
        f"is refused: its trials would rank noise){second_rung_text(tuning)}; γ makes that largest within "
        f"the tuning compute (here {plan.run_equivalents - 1:.2g} in full runs)"
    )
    if ranking < MIN_RANKING_STEPS:
        line += (
            f"; note: {ranking} steps rank only large differences of step: "
            + ("" if pooled else "fewer trials (a larger ε_t, longer trials), ")
            + "a smaller batch or a larger total rank finer"
        )
    return line + ")"


def second_rung_text(tuning: Phase) -> str:
    """What the spending line says of successive halving's second rung (empty without one)."""
    if not tuning.promoted:
        return ""
    return (
        f"; then successive halving: {promoted_note(tuning)}, counted in 'its ε', the release chosen among "
        "them: longer trials rank steps the release will take better than short ones"
    )


def format_plan(plans: list[MethodPlan], release: ReleasePolicy = ONE) -> str:
    """The plan as the first table of ``dptune run``: per method and total, each phase's share, which
    selection one model across methods releases (``release``, the spec's release policy: its ``pick``) and
    the margin a kept start point must be beaten by (its ``start_margin``)."""
    lines = [
        f"{'method':<15} {'total ε':>7} │ {'tuning':>6} {'ε_t':>6} {'subset γ':>8} {'its ε':>6} │ "
        f"{'release ε_B':>11} {'epochs':>8} │ {'composed':>8} {'runs':>5}  composition"
    ]
    for p in plans:
        lines.append(
            f"{p.method:<15} {p.total_epsilon:>7g} │ {tuning_column(p.tuning):>6} "
            f"{p.tuning.per_run_epsilon:>6.3f} "
            f"{p.tuning.fraction:>8g} {p.tuning.epsilon:>6.3f} │ {p.release.per_run_epsilon:>11.3f} "
            f"{epochs_text(p):>8} │ {p.epsilon:>8.3f} {p.run_equivalents:>5.2f}  "
            f"{p.composition.label}"
        )
    delta = plans[0].delta
    lines.append(
        f"(δ = {delta:g}; tuning: trials per method (+m: promoted ones), each at ε_t on a secret subset of "
        "rate γ, 'its ε' their "
        "whole phase's; the release: one run at ε_B; 'epochs': a tuning trial's T_t of the release's T, "
        "the rule's r_B/r_t = ε_B/ε_t carried in steps; 'composed': the released model's (ε, δ), tuning "
        "included; 'runs': the compute in full runs, the tuning's K·γ·T_t/T and the release's 1)"
    )
    if any(p.composition.by == BASIC for p in plans):
        lines.append(
            "(a plan composed the basic way splits δ: δ/2 for the tuning on the data, δ/2 for the release)"
        )
    pooled = next((p for p in plans if len(p.pool) > 1), None)
    if pooled is not None:
        lines.append(
            f"(one model per total (privacy.release: one): the tuning trials of each of "
            f"{', '.join(pooled.pool)} (as many per method as the line of its total says) are one tuning "
            "phase, 'its ε' "
            "and 'composed' that phase's and the one release's; each method's selection is compared with "
            f"the others' by validation accuracy and {release.pick} released once at ε_B, "
            "composed as the worst of the methods' releases: the method is a dimension of the search, and "
            "its choice counted)"
        )
    elif len({p.method for p in plans}) > 1:
        lines.append(
            "(one model per method and total (privacy.release: per_method): publishing them all costs "
            "more than any one card's ε, and picking one of them by a score is a selection no card counts)"
        )
    lines += [spending_line(p) for p in {p.total_epsilon: p for p in plans}.values()]
    lines += [
        f"(selection: {method} keeps its start point (keep_start) unless a tuning trial beats its validation "
        f"accuracy by more than {release.start_margin(method)}; a method that keeps no start point takes "
        "its best tuning trial)"
        for method in dict.fromkeys(p.method for p in plans if p.keep_start)
    ]
    return "\n".join(lines)
