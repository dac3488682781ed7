"""What a sweep releases as models: each re-run of a method's selected configuration (or, where ε includes
the tuning, its one release run), with the privacy card that says what the model's (ε, δ) covers.

A card is public and states only what the sweep's public record states: ε and δ including the tuning
(the plan's, or the search bound's row, which withholds a secret trial count), the plan, the method,
accountant, data and model, the run's settings and its final-test accuracy. No seed and no generator
state is ever on it. A seeded run (research mode) has no guarantee: whoever has the seed regenerates the
noise, so its card, its JSON and its alias state no (ε, δ) (``dptune.sweep.disclosure`` decides what they
state instead).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dptune.base.factories import is_import_path
from dptune.base.randomness import SECURE, SEEDED_NO_GUARANTEE
from dptune.engine.text_names import TEXT_DATASETS
from dptune.models.pretrained_names import stated_weights
from dptune.privacy.heldout import PrivateHeldOut
from dptune.privacy.plan_privacy import Ran, released_privacy
from dptune.privacy.plans import MethodPlan
from dptune.sweep.disclosure import Disclosure, disclosure
from dptune.sweep.held_out import Baseline
from dptune.sweep.release_policies import ReleasePolicy
from dptune.sweep.results import finished_reruns, trial_settings
from dptune.training.config import RunConfig
from dptune.training.trial_status import FINAL_SCORE, SCORE_STD, shown_score


@dataclass(frozen=True)
class ReleasedModel:
    """A released model: ``epsilon``/``delta`` its guarantee, tuning included; ``total_epsilon`` the
    setting it was planned for (None: a per-run sweep's re-run); ``model_uri`` where it loads from,
    once the store has it."""

    method: str
    trial_id: str
    final_test_accuracy: float  # percent
    epsilon: float
    delta: float
    card: Mapping[str, Any]
    total_epsilon: float | None = None
    model_uri: str | None = None
    released_among: tuple[str, ...] = ()
    """The methods it was chosen among (one model across methods); empty: its method's own."""
    baseline: Baseline | None = None
    """The majority-class rate of the final-test part it is scored on (``majority_baseline``)."""
    accuracy_std: float | None = None
    """The standard deviation of its final-test score's noise in points (private held-out data)."""

    def registered_name(self, experiment: str) -> str:
        """Its name in the Model Registry: ``EXPERIMENT`` for one model across methods (whichever method
        it is), else ``EXPERIMENT.METHOD``."""
        return experiment if self.released_among else f"{experiment}.{self.method}"

    def logged(self, uri: str) -> ReleasedModel:
        return replace(self, model_uri=uri)

    @property
    def disclosure(self) -> Disclosure:
        """What its outputs state of its privacy (``dptune.sweep.disclosure``): a model of a seeded run
        (research mode) has no privacy guarantee, and its ε and δ (what the runs would spend with secret
        randomness) are never shown as one."""
        return disclosure(str(self.card.get("noise_source", SECURE)))

    @property
    def alias(self) -> str | None:
        """Its registered version's alias, of the total it was planned at (``Disclosure.alias``:
        ``total-3``, seeded ``seeded-total-3``); None for a per-run sweep's re-run."""
        return None if self.total_epsilon is None else self.disclosure.alias(self.total_epsilon)

    def as_dict(self) -> dict[str, Any]:
        """The release as ``dptune run`` prints it last (JSON); a seeded one with its ε, δ and total ε null
        (``Disclosure.release``)."""
        figures = {"epsilon": self.epsilon, "delta": self.delta, "total_epsilon": self.total_epsilon}
        return {
            "method": self.method,
            "final_test_accuracy": self.final_test_accuracy,
            "final_test_accuracy_std": self.accuracy_std,
            "majority_baseline": None if self.baseline is None else 100 * self.baseline.rate,
            **self.disclosure.release(figures),
            "model_uri": self.model_uri,
        }

    @property
    def shown_accuracy(self) -> str:
        """Its final-test accuracy as a line shows it, with its noise where it has any (``72.10% ± 4.3``)."""
        std = None if self.accuracy_std is None else self.accuracy_std / 100
        return shown_score(self.final_test_accuracy / 100, std)

    def baseline_warning(self) -> str | None:
        """A line where its final-test accuracy is not above the majority-class rate: it predicts no better
        than always answering the most frequent class."""
        if self.baseline is None or not self.baseline.below(self.final_test_accuracy / 100):
            return None
        return (
            f"warning: {self.method}'s release scores {self.shown_accuracy} on the final test, not above "
            f"the majority-class rate of that part ({shown_score(self.baseline.rate, self.baseline.std)}): "
            "it predicts no better than always answering the most frequent class; a larger total ε, more "
            "training records or a smaller model may help"
        )


CARD_PRIVACY = ("method", "dataset", "model", "epsilon", "delta", "accountant", "proxy_fraction")
"""A run's settings a card states apart (its ε and δ are the guarantee's, tuning included), not among
its ``settings``."""


PUBLIC_INPUTS = (
    "the spec (its search ranges, start points and fixed settings), the data's fixed split, the "
    "training set's and each held-out part's size and, where a factory's labels are names, the class names "
    "(the released model answers with them) are taken as public inputs: whatever chose them is outside "
    "this ε; a start point "
    "that is a published setting its authors tuned on this data carries their choice, which no dptune "
    "figure counts"
)
"""What a card's guarantee assumes public: it covers the runs dptune made, not how its spec came to be."""
PUBLIC_WEIGHTS = (
    "the pretrained weights the model starts from (the card's pretrained: their name and revision or file "
    "hash) are public and taken as chosen and trained without these records: a record in their training "
    "data is outside this ε"
)
"""What a card of a fine-tuned model adds to what it assumes public."""
PUBLIC_HELD_OUT = (
    "taken as public (privacy.validation: public): the selection reads the validation part's records and "
    "the final-test score the final-test part's without noise, so no ε here covers them; with a held-out "
    "split as private as the training data, set privacy.validation: private"
)
"""What a card says of the held-out split (validation and final test) when it is public."""


def held_out_statement(held_out: PrivateHeldOut | None) -> dict[str, Any]:
    """A card's ``held_out``: the held-out records' own guarantee (private: ``PrivateHeldOut``), or that
    the split is taken as public. A record is in one split, so each split's records have their guarantee."""
    return {"held_out": PUBLIC_HELD_OUT if held_out is None else held_out.as_card()}


def records_word(dataset: str) -> str:
    """What a dataset's examples are called: ``texts`` for text data, ``images`` for a built-in image
    dataset, ``records`` for a factory's (a user's table, text or signals as often as images)."""
    if dataset in TEXT_DATASETS:
        return "texts"
    return "records" if is_import_path(dataset) else "images"


def _card(
    run: RunConfig,
    settings: Mapping[str, Any],
    accuracy: float,
    noise_source: str,
    guarantee: Mapping[str, Any],
) -> dict[str, Any]:
    """What every card states: its ``guarantee`` ((ε, δ) and what they cover), the method, data, model,
    accountant, randomness, final-test accuracy, the run's other settings (the release's: its step as
    carried) and what its guarantee takes as public (a seeded run's card is made from it by
    ``sweep_releases``)."""
    weights = stated_weights(run.model, run.model_args)
    pretrained = {} if weights is None else {"pretrained": weights}
    assumes = PUBLIC_INPUTS if weights is None else f"{PUBLIC_INPUTS}; {PUBLIC_WEIGHTS}"
    return (
        dict(guarantee)
        | pretrained
        | {
            "assumes": assumes,
            "method": run.method,
            "dataset": run.dataset,
            "model": run.model,
            "inputs": records_word(run.dataset),
            "accountant": run.accountant,
            "noise_source": noise_source,
            "final_test_accuracy": accuracy,
            "settings": {
                k: v
                for k, v in settings.items()
                if isinstance(v, bool | int | float | str) and k not in CARD_PRIVACY
            },
        }
    )


def tuning_trials_ran(plan: MethodPlan, pool: Sequence[MethodPlan], counts: Mapping[str, Ran]) -> str:
    """The tuning trials the one model of ``pool`` (released by ``plan``'s method) was chosen among, as its
    card states them: a secret count, or how many ran (by method, across several), and the promoted ones."""
    methods = [p.method for p in pool]
    searched = sum(counts[m].searched for m in methods)
    promoted = sum(counts[m].promoted for m in methods)
    if plan.tuning.count.random:
        trials = f"a secret number of tuning trials ({plan.tuning.count.describe()})"
    elif len(pool) == 1:
        trials = f"{searched} tuning trials"
    else:
        each = ", ".join(f"{m} {counts[m].searched}" for m in methods)
        trials = f"{searched} tuning trials across {', '.join(methods)} ({each})"
    if promoted:
        trials += f" and {promoted} promoted ones ({plan.tuning.factor}× as long, the best by validation)"
    return trials


def pipeline_release(
    pool: Sequence[MethodPlan],
    counts: Mapping[str, Ran],
    method: str,
    result: Mapping[str, Any],
    run: RunConfig,
    settings: Mapping[str, Any],
    noise_source: str,
    release: ReleasePolicy,
    published: Mapping[str, Any] | None = None,
) -> ReleasedModel:
    """The release run of ``method``'s pipeline whose ε includes the tuning (``dptune.sweep.plan``), the
    one model of ``pool`` (its method alone, or every method of one model across methods, as the release
    policy ``release`` pools them): its card's (ε, δ) is what the pool ran (``counts`` by method), composed
    the plan's way (``released_privacy``: the plan's own figure unless a lost trial ran again), what it
    covers the policy's sentence; ``published``: what the card states of publishing every model of the
    sweep (``ReleasePolicy.published``)."""
    plans = {p.method: p for p in pool}
    plan = plans[method]
    epsilon, delta = released_privacy(pool, counts)
    accuracy = 100 * float(result["test_accuracy"])
    trials = tuning_trials_ran(plan, pool, counts)
    subset = (
        f"on a secret Poisson subset keeping each training sample with probability {plan.tuning.fraction:g}"
        if plan.tuning.fraction < 1
        else "on the whole training data"
    )
    released = sum(counts[m].released for m in plans)
    guarantee = {
        "epsilon": epsilon,
        "delta": delta,
        "includes_tuning": True,
        "covers": release.covers(trials, subset, released),
    }
    card = _card(run, settings, accuracy, noise_source, guarantee) | {
        "total_epsilon": plan.total_epsilon,
        "plan": plan.as_dict(),
    }
    if published is not None:
        card["published_with_the_others"] = dict(published)
    trial = str(result["trial_id"])
    return ReleasedModel(
        run.method,
        trial,
        accuracy,
        epsilon,
        delta,
        card,
        plan.total_epsilon,
        released_among=plan.released_among,
    )


def rerun_release(
    cost: Mapping[str, Any],
    result: Mapping[str, Any],
    run: RunConfig,
    settings: Mapping[str, Any],
    noise_source: str,
) -> ReleasedModel:
    """A re-run of a per-run sweep's selected configuration: its card's (ε, δ) is the method's whole
    search with its re-runs (``cost``: the bound's public row), its per-run ε beside it."""
    accuracy = 100 * float(result["test_accuracy"])
    epsilon, delta = float(cost["epsilon_including_tuning"]), float(cost["delta"])
    guarantee = {
        "epsilon": epsilon,
        "delta": delta,
        "includes_tuning": True,
        "per_run_epsilon": float(result["epsilon_target"]),
        "covers": f"the method's whole search and every re-run of its selection ({cost['note']});",
        "tuning_bound": cost["tuning_bound"],
    }
    card = _card(run, settings, accuracy, noise_source, guarantee)
    return ReleasedModel(run.method, str(result["trial_id"]), accuracy, epsilon, delta, card)


def card_alias(card: Mapping[str, Any]) -> str | None:
    """The registered version's alias of the model whose card is ``card``, naming the total ε it was planned
    at (``Disclosure.alias``: ``total-3``, a seeded one's ``seeded-total-3``), so that
    ``models:/NAME@total-3`` loads the model published at that total (the latest, where a sweep of the same
    name ran again); None for a per-run sweep's re-run, planned at no total."""
    stated = disclosure(str(card.get("noise_source", SECURE)))
    total = card.get(stated.total_key)
    return None if total is None else stated.alias(total)


def loading_uri(release: ReleasedModel) -> str | None:
    """Where a released model loads from: by its total's alias where it has one, else by its version."""
    if release.model_uri is None or release.alias is None:
        return release.model_uri
    return f"{release.model_uri.rsplit('/', 1)[0]}@{release.alias}"


def release_lines(releases: Sequence[ReleasedModel]) -> list[str]:
    """One line per released model, its accuracy first, and how to load one."""
    lines = []
    for r in sorted(releases, key=lambda r: (r.method, r.total_epsilon or 0.0, r.trial_id)):
        where = r.model_uri or "not logged yet (the store did not answer)"
        stated = r.disclosure.stated(f"at ε = {r.epsilon:.3f}, δ = {r.delta:g} (tuning included)")
        guarantee = stated or f"({SEEDED_NO_GUARANTEE})"
        baseline = (
            "" if r.baseline is None else f"; majority class {shown_score(r.baseline.rate, r.baseline.std)}"
        )
        lines.append(f"  {r.shown_accuracy:>7} final test {guarantee}{baseline}  {r.method:<15} {where}")
    lines += [warning for r in releases if (warning := r.baseline_warning()) is not None]
    logged = next((loading_uri(r) for r in releases if r.model_uri), None)
    if logged and releases[0].card.get("inputs") == "texts":
        lines.append(
            f'load one with: mlflow.pyfunc.load_model("{logged}").predict(["a text", …]) (raw text in, '
            "tokenized as in training, classes out; text pairs as a frame of two columns)"
        )
    elif logged:
        what = releases[0].card.get("inputs", "images")
        raw = ", or the dataset's own uint8 images," if what == "images" else ""
        lines.append(
            f'load one with: mlflow.pytorch.load_model("{logged}") ({what} in, class scores out), or '
            f'mlflow.pyfunc.load_model("{logged}").predict(rows) (any numeric array, frame or list of rows'
            f"{raw} in, classes out)"
        )
    return lines


def release_json(releases: Sequence[ReleasedModel], curve: tuple[float, float] | None = None) -> str:
    """The last line of a run whose ε includes the tuning: its releases as one JSON object; with a single
    release its ``final_test_accuracy`` (%), ``epsilon`` and ``delta`` at the top level too; with several
    releases (several totals, or one model per method) the (ε, δ) of releasing them all (``curve``; a seeded
    run has none to state: ``Disclosure.stated``)."""
    doc: dict[str, Any] = {"releases": [r.as_dict() for r in releases]}
    if len(releases) == 1:
        doc = releases[0].as_dict() | doc
    if curve is not None:
        doc["all_releases"] = {"epsilon": curve[0], "delta": curve[1]}
    return json.dumps(doc)


ReleaseOf = Callable[[str, Mapping[str, Any], RunConfig, Mapping[str, Any]], ReleasedModel | None]
"""A sweep's mode's release of one finished re-run: (method, its last report, its run, its settings as
recorded) -> the released model with its card (None: the mode releases none for it)."""


def sweep_releases(
    results: Sequence[Mapping[str, Any]],
    runs: Mapping[str, RunConfig],
    settings: Mapping[str, Mapping[str, Any]],
    release_of: ReleaseOf,
    held_out: PrivateHeldOut | None = None,
    baseline: Baseline | None = None,
) -> list[ReleasedModel]:
    """Every finished re-run of a sweep (``results``: the trials' last reports with ``trial_id``,
    ``method`` and ``config``) as its mode releases it (``release_of``: ``pipeline_release`` or
    ``rerun_release``); each card says what covers the held-out records (``held_out``: private, else
    public), and is published as its run's randomness allows (``Disclosure.card``: a seeded run's states
    no (ε, δ))."""
    statement = held_out_statement(held_out)
    if baseline is not None:
        statement["baseline"] = baseline.as_card()
    releases = []
    for result in finished_reruns(results):
        method, config = result["method"], result["config"]
        shown = trial_settings(settings.get(method, {}), config)
        released = release_of(method, result, runs[method].with_knobs(config), shown)
        if released is not None:
            std = result.get(SCORE_STD[FINAL_SCORE])
            scored = {} if std is None else {"final_test_accuracy_std": 100 * float(std)}
            card = released.disclosure.card({**released.card, **statement, **scored})
            accuracy_std = None if std is None else 100 * float(std)
            releases.append(replace(released, card=card, baseline=baseline, accuracy_std=accuracy_std))
    return releases
