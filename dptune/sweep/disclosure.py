"""What a sweep's outputs state of its privacy: its (ε, δ) figures, or, in a seeded sweep, that none holds.

A seeded sweep (research mode, ``training.seed``) draws its noise, its batches and the noise of its scores
on private held-out data from the seed: whoever has the seed regenerates the noise and subtracts it, so no
(ε, δ) holds, not of a run, of a released model, of publishing several, nor of the held-out records
(``SEEDED_NO_GUARANTEE``). Its plan's figures are only what its runs would spend with secret randomness.

Which of the two a sweep's outputs state is decided here, once, by its randomness (``disclosure``): every
output a reader sees that would state an (ε, δ) — a privacy card, a console line, the last line's JSON, a
registered version's alias, what a sweep's tracked run keeps — asks the sweep's ``Disclosure``.
``STATED`` passes every figure on; ``SEEDED_RESEARCH`` says ``SEEDED_NO_GUARANTEE`` in a figure's place,
keeps only the entries of a card that state none, and keeps no figure apart from the lines.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from dptune.base.randomness import SEEDED, SEEDED_NO_GUARANTEE, Randomness
from dptune.sweep.results import TradeOff

T = TypeVar("T")

SEEDED_TOTAL = "seeded_total"
"""What a seeded release's card and JSON call the total ε its plan was made for, in place of
``total_epsilon``: the spec's setting, which no guarantee backs."""
SEEDED_PLAN = (
    f"{SEEDED_NO_GUARANTEE}: the plan's figures are what these runs would spend with secret randomness, "
    "not a guarantee, so the card states none of them"
)
"""A seeded card's ``plan``."""
SEEDED_HELD_OUT = (
    f"{SEEDED_NO_GUARANTEE}: the noise of every score on the held-out records comes from the seed too, "
    "so no (ε, δ) covers them"
)
"""A seeded card's ``held_out`` where the held-out split is private (a public split's statement states no
figure and stays)."""
SEEDED_CARD_KEEPS = (
    "assumes",
    "method",
    "dataset",
    "model",
    "inputs",
    "accountant",
    "noise_source",
    "final_test_accuracy",
    "final_test_accuracy_std",
    "baseline",
    "settings",
)
"""The entries of a card that state no (ε, δ): a seeded card keeps them as they are, and no other."""


def total_alias(total: float) -> str:
    """``total-3``, ``total-0_5``: a total ε as an alias of the Model Registry takes it (letters, digits,
    ``_`` and ``-``)."""
    return f"total-{total:g}".replace(".", "_")


class Disclosure(ABC):
    """Whether a sweep's outputs state its (ε, δ) figures (``STATED``) or, seeded, that none holds
    (``SEEDED_RESEARCH``); ``total_key``: the card's entry that names the total its plan was made for."""

    total_key: str
    plan_note: str
    """What the plan printed before any sweep is (its heading's parenthesis)."""

    @abstractmethod
    def figure(self, text: str) -> str:
        """A figure as a line states it (``text``: ``ε ≤ 3.992, δ ≤ 0.0001``, with what it covers), or what a
        line says in its place."""

    @abstractmethod
    def stated(self, value: T) -> T | None:
        """``value``, something that states figures (lines, a plan, a record, a curve's (ε, δ)), where the
        outputs state figures; None (nothing of it shown or kept) where they state none."""

    @abstractmethod
    def total(self, total: float, name: str = "total ε") -> str:
        """The total ε a pipeline was planned at, as a line names it: ``total ε = 3`` (``name``), or seeded
        ``seeded total 3``."""

    @abstractmethod
    def alias(self, total: float) -> str:
        """The registered version's alias of a model planned at ``total``: ``total-3``, or seeded
        ``seeded-total-3`` (``models:/NAME@ALIAS`` loads it)."""

    @abstractmethod
    def card(self, card: Mapping[str, Any]) -> dict[str, Any]:
        """A release's privacy card as published."""

    @abstractmethod
    def release(self, figures: Mapping[str, float | None]) -> dict[str, float | None]:
        """A release's ``epsilon``, ``delta`` and ``total_epsilon`` as the last line's JSON gives them."""

    @abstractmethod
    def tradeoff(self, row: TradeOff) -> TradeOff:
        """A selected configuration's row as a sweep's table and tracked run show it."""


class StatedFigures(Disclosure):
    """Every figure stated: a run with secret randomness, whose (ε, δ) holds."""

    total_key = "total_epsilon"
    plan_note = "each total ε includes the tuning"

    def figure(self, text: str) -> str:
        return text

    def stated(self, value: T) -> T | None:
        return value

    def total(self, total: float, name: str = "total ε") -> str:
        return f"{name} = {total:g}"

    def alias(self, total: float) -> str:
        return total_alias(total)

    def card(self, card: Mapping[str, Any]) -> dict[str, Any]:
        return dict(card)

    def release(self, figures: Mapping[str, float | None]) -> dict[str, float | None]:
        return dict(figures)

    def tradeoff(self, row: TradeOff) -> TradeOff:
        return row


class SeededNoGuarantee(Disclosure):
    """No figure stated: a seeded run (research mode), whose noise whoever has the seed regenerates."""

    total_key = SEEDED_TOTAL
    plan_note = (
        f"{SEEDED_NO_GUARANTEE}; its figures are what the runs would spend with secret randomness, not a "
        "guarantee"
    )

    def figure(self, text: str) -> str:
        return SEEDED_NO_GUARANTEE

    def stated(self, value: T) -> T | None:
        return None

    def total(self, total: float, name: str = "total ε") -> str:
        return f"seeded total {total:g}"

    def alias(self, total: float) -> str:
        return f"seeded-{total_alias(total)}"

    def card(self, card: Mapping[str, Any]) -> dict[str, Any]:
        """``SEEDED_NO_GUARANTEE`` as the guarantee, the entries that state no figure
        (``SEEDED_CARD_KEEPS``), statements in place of the plan (``SEEDED_PLAN``) and of a private
        held-out split's guarantee (``SEEDED_HELD_OUT``), and the total the plan was made for as
        ``SEEDED_TOTAL``; nothing else (no (ε, δ), nothing of what one covers, no figure of publishing the
        sweep's models together)."""
        seeded: dict[str, Any] = {"guarantee": SEEDED_NO_GUARANTEE}
        seeded |= {key: value for key, value in card.items() if key in SEEDED_CARD_KEEPS}
        if card.get("total_epsilon") is not None:
            seeded[SEEDED_TOTAL] = card["total_epsilon"]
        if "plan" in card:
            seeded["plan"] = SEEDED_PLAN
        if "held_out" in card:
            held_out = card["held_out"]
            seeded["held_out"] = held_out if isinstance(held_out, str) else SEEDED_HELD_OUT
        return seeded

    def release(self, figures: Mapping[str, float | None]) -> dict[str, float | None]:
        """Each figure null, and the total the plan was made for as ``SEEDED_TOTAL``."""
        seeded: dict[str, float | None] = dict.fromkeys(figures)
        if figures.get("total_epsilon") is not None:
            seeded[SEEDED_TOTAL] = figures["total_epsilon"]
        return seeded

    def tradeoff(self, row: TradeOff) -> TradeOff:
        """The row without the figures of its whole search (ε and δ including the tuning, ε of releasing
        every trial, the note that states the plan's); what its own run spent stays, labelled ``seeded`` by
        its ``noise_source``."""
        return replace(
            row,
            epsilon_including_tuning=None,
            delta_including_tuning=None,
            epsilon_all_trials=None,
            tuning_note=None,
        )


STATED = StatedFigures()
SEEDED_RESEARCH = SeededNoGuarantee()


def disclosure(noise_source: str) -> Disclosure:
    """The one place that decides whether outputs state (ε, δ) figures: never for a seeded run's
    (``noise_source`` ``seeded``), always for any other's."""
    return SEEDED_RESEARCH if noise_source == SEEDED else STATED


def seed_disclosure(seed: int | None) -> Disclosure:
    """``disclosure`` of a sweep's runs, from its ``training.seed`` (None: secret randomness)."""
    return disclosure(Randomness(seed).noise_source)
