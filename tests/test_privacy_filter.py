"""The Rényi privacy filter, against dp-accounting's independent RDP accountant and conversion."""

from __future__ import annotations

import math

import numpy as np
import pytest
from dp_accounting.rdp.rdp_privacy_accountant import compute_epsilon

from dptune.privacy.accounting import RDP_ORDERS, rdp_curve
from dptune.privacy.filter import RenyiFilter, rdp_budget, runs_that_fit
from tests.helpers import dp_accounting_epsilon, subsampled_gaussian

DELTA = 1e-5


@pytest.mark.parametrize("epsilon", [0.5, 3.0, 12.0])
def test_the_budget_at_each_order_converts_to_exactly_the_total(epsilon: float) -> None:
    budget = rdp_budget(epsilon, DELTA)
    usable = [i for i in range(len(RDP_ORDERS)) if budget[i] > 0.1 and RDP_ORDERS[i] > 1.01]
    assert usable
    for index in usable[::5]:
        only_here = np.full(len(RDP_ORDERS), 1e6)  # every other order useless
        only_here[index] = budget[index]
        converted, _ = compute_epsilon(list(RDP_ORDERS), list(only_here), DELTA)
        assert converted == pytest.approx(epsilon, abs=1e-9)


@pytest.mark.parametrize(("sigma", "q", "steps", "total"), [(1.5, 0.02, 300, 4.0), (2.0, 0.01, 1000, 2.0)])
def test_fixed_count_fits_what_dp_accounting_says(sigma: float, q: float, steps: int, total: float) -> None:
    run = rdp_curve([(sigma, q, steps)])
    count = runs_that_fit(total, DELTA, run)
    event = subsampled_gaussian(sigma, q, steps)
    assert count >= 1
    assert (
        dp_accounting_epsilon([event] * count, DELTA)
        <= total
        < dp_accounting_epsilon([event] * (count + 1), DELTA)
    )


def test_an_adaptive_sequence_of_stopped_runs_never_exceeds_the_total() -> None:
    """Runs of random lengths (as if stopped by their scores), each reserving the worst full plan first
    and keeping only what it took: the filter admits more runs than a fixed count of full plans, and
    dp-accounting's composition of everything admitted stays within the total."""
    rng = np.random.default_rng(7)
    sigma, q, full_steps, total = 1.5, 0.02, 300, 4.0
    worst = rdp_curve([(sigma, q, full_steps)])
    filter_ = RenyiFilter.for_search(total, DELTA, worst)
    committed, admitted = np.zeros_like(worst), []
    while filter_.admits(committed, worst):
        steps = int(rng.choice([full_steps // 4, full_steps // 2, full_steps]))
        committed = committed + rdp_curve([(sigma, q, steps)])
        admitted.append(subsampled_gaussian(sigma, q, steps))
    assert len(admitted) > runs_that_fit(total, DELTA, worst) >= 1
    assert dp_accounting_epsilon(admitted, DELTA) <= total
    assert filter_.used(committed) <= total


def test_shares_split_the_budget_so_every_method_together_stays_within_the_total() -> None:
    worst = rdp_curve([(1.5, 0.02, 300)])
    whole = RenyiFilter.for_search(6.0, DELTA, 3 * worst)
    share = RenyiFilter(whole.epsilon, whole.delta, whole.order_index, share=1 / 3)
    assert share.budget * 3 == pytest.approx(whole.budget)
    per_method = 0
    while share.admits(per_method * worst, worst):
        per_method += 1
    everything = [subsampled_gaussian(1.5, 0.02, 300)] * (3 * per_method)
    assert per_method >= 1 and dp_accounting_epsilon(everything, DELTA) <= 6.0
    assert math.isfinite(share.order)


def test_a_re_run_beyond_the_reserved_ones_starts_only_while_the_filter_has_room(tmp_path) -> None:
    """With three full runs' room (by dp-accounting) and two re-runs reserved, one search trial and its
    two re-runs fit; a third re-run (one lost with a killed driver, to be replaced) does not."""
    from ray.tune.search import Searcher

    from dptune.sweep.ledger import FINAL, PrivateSweepState
    from dptune.tune.searcher import AccountedSearcher

    class One(Searcher):
        def suggest(self, trial_id: str) -> dict:
            return {"lr": 1.0}

    sigma, q, steps = 1.5, 0.02, 300
    worst = rdp_curve([(sigma, q, steps)])
    event = subsampled_gaussian(sigma, q, steps)
    total = (dp_accounting_epsilon([event] * 3, DELTA) + dp_accounting_epsilon([event] * 4, DELTA)) / 2
    filter_ = RenyiFilter.for_search(total, DELTA, worst)
    state = PrivateSweepState(str(tmp_path), "s")
    searcher = AccountedSearcher(One(), state, "dpsgd", worst, filter_, None, 1, reruns=2)  # type: ignore[arg-type]
    assert isinstance(searcher.suggest("search-0"), dict)
    assert searcher.suggest("search-1") is None  # the re-runs' room is reserved: it waits for search-0
    state.end("dpsgd", "search-0", worst)
    for index in range(2):
        assert searcher.admits_rerun()
        state.start("dpsgd", f"rerun-{index}", role=FINAL)
    assert not searcher.admits_rerun()
    assert dp_accounting_epsilon([event] * 3, DELTA) <= total < dp_accounting_epsilon([event] * 4, DELTA)
