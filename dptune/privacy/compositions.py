"""How a pipeline's plan composes its tuning and its release into its total: the compositions the planner
(``dptune.sweep.plan_candidates``) chooses among, each an object known by a short key that states its
own card sentence, and the accountants a plan's runs calibrate with."""

from __future__ import annotations

from dataclasses import dataclass, field

RDP = "rdp"


PLD = "pld"
"""The accountants a plan's runs calibrate with: each phase's own, the one its composition uses."""


BASIC = "basic"
"""A composition that adds the phases' (ε, δ) (``Composition.by``)."""


@dataclass(frozen=True)
class Composition:
    """How a plan's tuning and release compose into its total, known by its short name ``key``: what
    composes it (``by``: RDP order by order, dp-accounting's PLD, or ``basic``, adding (ε, δ)) and the
    sentence a card and a plan's record state (``sentence``, compared by no code: two compositions are
    equal when their keys are)."""

    key: str
    by: str
    sentence: str = field(compare=False)

    def __str__(self) -> str:
        return self.sentence

    @property
    def label(self) -> str:
        """What composes it, in a word: ``RDP``, ``PLD`` or ``basic`` (a plan table's column)."""
        return self.by if self.by == BASIC else self.by.upper()


RDP_COMPOSITION = Composition("rdp", RDP, "RDP: K·W_t + W_B composed order by order, converted once at δ")
AMPLIFIED_RDP_COMPOSITION = Composition(
    "amplified-rdp",
    RDP,
    "RDP: the tuning's K·W_t amplified by the subset (Zhu & Wang 2019, Thm. 6), + W_B, converted once at δ",
)
REPEAT_AND_SELECT_COMPOSITION = Composition(
    "repeat-and-select",
    RDP,
    "RDP: repeat-and-select of W (Papernot & Steinke 2022), + W for the re-run released, converted once at δ",
)
BASIC_COMPOSITION = Composition(
    "basic",
    BASIC,
    "basic: tuning (ε_X, δ/2γ) on the subset amplified to (ε_A, δ/2) (Balle et al. 2018, Thm. 8), + the "
    "release's (ε_B, δ/2)",
)
PLD_COMPOSITION = Composition(
    "pld",
    PLD,
    "PLD: K runs of the tuning's one mechanism and the release's, composed by dp-accounting's PLD "
    "accountant at δ",
)
AMPLIFIED_PLD_COMPOSITION = Composition(
    "amplified-pld",
    PLD,
    "PLD: K runs of the tuning's one mechanism on the subset, their PLD amplified by it (Zhu, Dong & Wang "
    "2022, Thm. 11), and the release's, composed by dp-accounting's PLD at δ",
)
COMPOSITIONS = {
    c.key: c
    for c in (
        RDP_COMPOSITION,
        AMPLIFIED_RDP_COMPOSITION,
        REPEAT_AND_SELECT_COMPOSITION,
        BASIC_COMPOSITION,
        PLD_COMPOSITION,
        AMPLIFIED_PLD_COMPOSITION,
    )
}
"""Every composition a plan may take, by its key."""
