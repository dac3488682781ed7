"""The plots a sweep and a reproduction attach: accuracy against ε, drawn off-screen for a paper.

API (nothing here knows a tracking backend; matplotlib is imported inside the functions so the CLI does not
pay for it at start-up):

- ``tradeoff_figure(rows, trials, context) -> Figure`` builds, does not save. With several ε targets it
  draws accuracy against ε (log axis when ε spans a range); with one ε target a strip plot by method.
- ``save_figure(figure, path) -> Path`` writes the format of the path's suffix: ``.png`` at 300 dpi or
  ``.pdf`` (TrueType fonts, text stays editable).
- ``plot_tradeoffs(rows, path, trials=(), context=None) -> (png, pdf)`` builds and saves both formats
  beside each other (``path`` with its suffix replaced).
- ``method_colours(methods)``: one colour per method, by its index in the sorted list of methods, so a
  method keeps its colour in every plot of the same methods.

Every series carries a ``gid`` naming what it is and its method, so a test can find it from its data:
``trials:M`` (search trials, validation accuracy), ``reruns:M`` (re-runs of the selected configuration,
final-test accuracy), ``selected:M`` and ``selected-sd:M`` (final-test mean of the re-runs and its ± sd
bars), ``validation:M`` (the validation accuracy that selected it), ``tuning:M`` and ``tuning-span:M``
(ε including tuning, at the selected configuration's accuracy, and the dotted span from ε spent to it).
Accuracies are drawn in percent.
"""

from __future__ import annotations

import math
import random
import textwrap
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dptune.privacy.plan_privacy import PLAN_BOUND
from dptune.sweep.results import TradeOff
from dptune.tracking.report import PlotContext, TrialPoint, format_tuning

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

PNG_DPI = 300
# Okabe & Ito's colour-blind-safe palette without its yellow (too faint on white); tab20 beyond 7 methods.
OKABE_ITO = ("#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#000000")
TRIAL_ALPHA = 0.3
MARK_COLOUR = "#555555"  # the legend of marks is drawn in grey: colour names a method, shape a mark
STYLE: dict[Any, Any] = {  # matplotlib rc keys
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 8,
    "legend.title_fontsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
DODGE = 0.014  # horizontal offset between neighbouring methods, as a fraction of the x axis
JITTER = 0.14  # half-width of a strip's cloud of trials, in method slots


def method_colours(methods: Iterable[str]) -> dict[str, str]:
    """One colour per method (hex), by its index in the sorted list of distinct methods."""
    names = sorted(set(methods))
    if len(names) <= len(OKABE_ITO):
        return {name: OKABE_ITO[index] for index, name in enumerate(names)}
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    tab20: Any = colormaps["tab20"]  # a ListedColormap: its colours are a list
    palette = [to_hex(colour) for colour in tab20.colors]
    return {name: palette[index % len(palette)] for index, name in enumerate(names)}


def tradeoff_figure(rows: Sequence[TradeOff], trials: Sequence[TrialPoint], context: PlotContext) -> Figure:
    """Accuracy against privacy for every method, one colour each: every search trial faint at its
    validation accuracy, each method's selected configuration bold at the final-test mean ± sd of its
    re-runs (the re-runs small beside it), the validation accuracy that selected it as a hollow diamond, and
    its ε including tuning as a triangle at the same accuracy. With several ε targets x is ε spent (log
    scale when ε spans more than a factor 3; methods dodged apart) and a method's selected configurations
    are joined by a line; with one ε target x is the method (a strip plot) and each tick label states its
    ε spent and ε including tuning. The title names the dataset, model, δ and epochs.

    Raises:
        ValueError: nothing to plot (no rows and no trials).
    """
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    targets = sorted({r.epsilon_target for r in rows} | {t.epsilon_target for t in trials})
    if not targets:
        raise ValueError("no selected configurations and no trials to plot")
    colours = method_colours([r.method for r in rows] + [t.method for t in trials])
    with rc_context(STYLE):
        if len(targets) == 1:
            width = 1.45 * len(colours) + 2.6
            figure = Figure(figsize=(width, 4.2), layout="constrained")
            ax = figure.add_subplot()
            marks = _strip_by_method(ax, rows, trials, colours)
            heading = f"Accuracy at ε target {targets[0]:g}, per method"
        else:
            width = 7.0
            figure = Figure(figsize=(width, 4.2), layout="constrained")
            ax = figure.add_subplot()
            marks = _accuracy_vs_epsilon(ax, rows, trials, colours)
            heading = "Accuracy vs ε, per method"
            figure.legend(handles=_method_handles(colours), title="method", loc="outside right upper")
        figure.legend(handles=marks, loc="outside right lower")
        # the axes get about the figure's width less the legends' 2.2 in; 8.5 pt text: ~11 characters an inch
        ax.set_title(f"{heading}\n{_describe(context, max(24, int(11 * (width - 2.2))))}")
        ax.set_ylabel("accuracy (%)")
        ax.grid(alpha=0.3, linewidth=0.5, axis="y" if len(targets) == 1 else "both")
    return figure


def save_figure(figure: Figure, path: Path) -> Path:
    """Write ``figure`` in the format of ``path``'s suffix: ``.png`` at 300 dpi or ``.pdf``; return path.

    Raises:
        ValueError: another suffix.
    """
    from matplotlib import rc_context

    suffix = path.suffix.lower()
    if suffix not in (".png", ".pdf"):
        raise ValueError(f"cannot save a plot as {suffix or 'no suffix'!r}: use .png or .pdf")
    with rc_context({"pdf.fonttype": 42}):  # TrueType: the text of a PDF stays text
        figure.savefig(path, dpi=PNG_DPI if suffix == ".png" else "figure")
    return path


def plot_tradeoffs(
    rows: Sequence[TradeOff],
    path: Path,
    trials: Sequence[TrialPoint] = (),
    context: PlotContext | None = None,
) -> tuple[Path, Path]:
    """``tradeoff_figure`` saved as PNG (300 dpi) and PDF at ``path`` with suffix .png and .pdf; return both.
    Without a context the title names δ only (that of the first row)."""
    if context is None:
        context = PlotContext(dataset="", model="", delta=rows[0].delta if rows else math.nan, epochs="")
    figure = tradeoff_figure(rows, trials, context)
    return save_figure(figure, path.with_suffix(".png")), save_figure(figure, path.with_suffix(".pdf"))


def _epsilon_axis(ax: Axes, xs: Sequence[float]) -> tuple[bool, float]:
    """Set the ε axis for the values ``xs``: logarithmic where they span more than a factor 3; returns
    whether it is, and the span the methods are dodged by (in decades on a log axis)."""
    positive = [x for x in xs if x > 0]
    if positive and max(positive) / min(positive) > 3:
        low, high = math.log10(min(positive)), math.log10(max(positive))
        span = max(high - low, 0.3)
        ax.set_xscale("log")
        ax.set_xlim(10 ** (low - 0.08 * span), 10 ** (high + 0.08 * span))
        return True, span
    return False, max(max(xs) - min(xs), 0.1 * max(abs(x) for x in xs), 1e-3)


def _tuning_spans(
    ax: Axes, method: str, colour: str, tuned: Sequence[TradeOff], at: Callable[[float], float]
) -> None:
    """Each selection's step from its ε spent to its ε including the tuning (dotted, an arrow head)."""
    for point in tuned:
        ax.plot(
            [at(point.epsilon_spent), at(point.epsilon_including_tuning or 0.0)],
            [_accuracy(point)] * 2,
            color=colour,
            linestyle=":",
            linewidth=1.0,
            zorder=2,
            gid=f"tuning-span:{method}",
        )
    ax.scatter(
        [at(p.epsilon_including_tuning or 0.0) for p in tuned],
        [_accuracy(p) for p in tuned],
        marker=">",
        s=30,
        color=colour,
        zorder=3,
        gid=f"tuning:{method}",
    )


def _method_marks(
    ax: Axes,
    method: str,
    colour: str,
    rows: Sequence[TradeOff],
    trials: Sequence[TrialPoint],
    at: Callable[[float], float],
) -> set[str]:
    """One method's marks: its trials, re-runs, released models (a pipeline's, at its total ε, from the
    tuning trials at their own ε) and selections with their tuning's step; the kinds of mark drawn."""
    searched = [t for t in trials if t.method == method and t.role == "search"]
    drawn = _trials(ax, method, colour, [(at(t.epsilon_spent), t) for t in searched])
    reruns = [t for t in trials if t.method == method and t.role == "final"]
    drawn |= _reruns(ax, method, colour, [(at(t.epsilon_spent), t) for t in reruns], size=6)
    mine = [r for r in rows if r.method == method]
    released = sorted((r for r in mine if r.tuning_bound == PLAN_BOUND), key=lambda r: r.epsilon_target)
    if released:
        drawn |= _selected(
            ax,
            method,
            colour,
            [(at(p.epsilon_target), p) for p in released],
            line=True,
            validation_at=[at(p.epsilon_spent) for p in released],
            mark="released",
        )
    points = sorted((r for r in mine if r.tuning_bound != PLAN_BOUND), key=lambda r: r.epsilon_spent)
    drawn |= _selected(ax, method, colour, [(at(p.epsilon_spent), p) for p in points], line=True)
    tuned = [p for p in points if p.epsilon_including_tuning is not None]
    if tuned:
        drawn.add("tuning")
        _tuning_spans(ax, method, colour, tuned, at)
    return drawn


def _accuracy_vs_epsilon(
    ax: Axes, rows: Sequence[TradeOff], trials: Sequence[TrialPoint], colours: dict[str, str]
) -> list[Artist]:
    """Draw the several-ε-targets view on ``ax`` (x = ε spent, dodged by method); return the legend's
    handles for the marks drawn."""
    xs = [r.epsilon_spent for r in rows] + [t.epsilon_spent for t in trials]
    xs += [r.epsilon_including_tuning for r in rows if r.epsilon_including_tuning is not None]
    log, span = _epsilon_axis(ax, xs)
    drawn: set[str] = set()
    for index, method in enumerate(colours):
        offset = DODGE * span * (index - (len(colours) - 1) / 2)

        def at(x: float, offset: float = offset) -> float:
            return x * 10**offset if log else x + offset

        drawn |= _method_marks(ax, method, colours[method], rows, trials, at)
    if log:
        _nice_log_ticks(ax)
    scale = "log scale, " if log else ""
    # a released model's label takes two lines: one would run under the legend of marks
    at_total = "; a released model at its total ε\n" if "released" in drawn else " "
    ax.set_xlabel(f"ε spent{at_total}({scale}methods offset apart for legibility)")
    return _mark_handles(drawn)


def _strip_by_method(
    ax: Axes, rows: Sequence[TradeOff], trials: Sequence[TrialPoint], colours: dict[str, str]
) -> list[Artist]:
    """Draw the one-ε-target view on ``ax``: slot i is the i-th method, its search trials jittered to the
    left of the slot, its selected configuration (and re-runs) to the right; tick labels state ε spent and
    ε including tuning. Return the legend's handles for the marks drawn."""
    drawn: set[str] = set()
    labels = []
    for index, method in enumerate(colours):
        colour = colours[method]
        jitter = random.Random(index)  # the same cloud on every drawing
        searched = [t for t in trials if t.method == method and t.role == "search"]
        placed = [(index - 0.12 + jitter.uniform(-JITTER, JITTER), t) for t in searched]
        drawn |= _trials(ax, method, colour, placed)
        reruns = [t for t in trials if t.method == method and t.role == "final"]
        drawn |= _reruns(ax, method, colour, [(index + 0.30, t) for t in reruns], size=8)
        row = next((r for r in rows if r.method == method), None)
        chosen = next((x for x, t in placed if t.selected), index + 0.22)
        if row is not None:
            drawn |= _selected(ax, method, colour, [(index + 0.22, row)], line=False, validation_at=[chosen])
        labels.append(_strip_label(method, row))
    ax.set_xticks(range(len(colours)), labels)
    for tick, colour in zip(ax.get_xticklabels(), colours.values(), strict=True):
        tick.set_color(colour)
    ax.set_xlim(-0.6, len(colours) - 0.4)
    return _mark_handles(drawn)


def _trials(ax: Axes, method: str, colour: str, placed: list[tuple[float, TrialPoint]]) -> set[str]:
    """Faint dots of the search trials with a validation score at the given x; the marks drawn."""
    scored = [(x, t) for x, t in placed if t.validation_accuracy is not None]
    if not scored:
        return set()
    ax.scatter(
        [x for x, _ in scored],
        [100 * (t.validation_accuracy or 0.0) for _, t in scored],
        s=14,
        color=colour,
        alpha=TRIAL_ALPHA,
        linewidths=0,
        zorder=1,
        gid=f"trials:{method}",
    )
    return {"trials"}


def _reruns(
    ax: Axes, method: str, colour: str, placed: list[tuple[float, TrialPoint]], size: float
) -> set[str]:
    """Small dots of the re-runs with a final-test score at the given x; the marks drawn."""
    scored = [(x, t) for x, t in placed if t.test_accuracy is not None]
    if not scored:
        return set()
    ax.scatter(
        [x for x, _ in scored],
        [100 * (t.test_accuracy or 0.0) for _, t in scored],
        s=size,
        color=colour,
        alpha=0.6,
        linewidths=0,
        zorder=2,
        gid=f"reruns:{method}",
    )
    return {"reruns"}


def _selected(
    ax: Axes,
    method: str,
    colour: str,
    placed: list[tuple[float, TradeOff]],
    *,
    line: bool,
    validation_at: list[float] | None = None,
    mark: str = "selected",
) -> set[str]:
    """The selected configurations at the given x: final-test mean ± sd of the re-runs (bold, joined by a
    line when ``line``; the legend's ``mark``) and the validation accuracy (hollow diamond, at
    ``validation_at`` when given); return the marks drawn."""
    drawn: set[str] = set()
    if not placed:
        return drawn
    tested = [(x, p) for x, p in placed if p.test_accuracy is not None]
    if tested:
        bars = ax.errorbar(
            [x for x, _ in tested],
            [100 * (p.test_accuracy or 0.0) for _, p in tested],
            yerr=[100 * (p.test_sd or 0.0) for _, p in tested],
            color=colour,
            marker="o",
            markersize=6,
            linewidth=1.6 if line else 0,
            elinewidth=1.4,
            capsize=3,
            zorder=4,
        )
        bars.lines[0].set_gid(f"{mark}:{method}")
        bars.lines[2][0].set_gid(f"{mark}-sd:{method}")
        drawn.add(mark)
    ax.scatter(
        validation_at if validation_at is not None else [x for x, _ in placed],
        [100 * p.validation_accuracy for _, p in placed],
        marker="D",
        s=24,
        facecolors="none",
        edgecolors=colour,
        linewidths=1.2,
        zorder=5,
        gid=f"validation:{method}",
    )
    return drawn | {"validation"}


def _accuracy(row: TradeOff) -> float:
    """The accuracy (%) a selected configuration is drawn at: final test, or validation without re-runs."""
    return 100 * (row.test_accuracy if row.test_accuracy is not None else row.validation_accuracy)


def _strip_label(method: str, row: TradeOff | None) -> str:
    """A strip plot's tick label: the method, its ε spent and its ε including tuning (with the bound)."""
    if row is None:
        return method
    label = f"{method}\nε spent {row.epsilon_spent:.3g}"
    if row.epsilon_including_tuning is not None:
        label += f"\nε incl. tuning {format_tuning(row, '.3g')}"
    return label


def _describe(context: PlotContext, width: int) -> str:
    """The title's lines after the first: dataset, model, δ and epochs, leaving out what is unknown,
    joined by `` · `` and wrapped at ``width`` characters (a long factory name broken where it must be),
    so that a title never runs past the axes into the legends or off the figure; then, on lines of their
    own, what releasing every model of a list of totals costs (``context.releases``) and what each phase
    of the released models' plans spent (``context.phases``)."""
    parts = [context.dataset, context.model]
    if not math.isnan(context.delta):
        parts.append(f"δ = {context.delta:.2g}")
    if context.epochs:
        parts.append(f"{context.epochs} epochs")
    lines: list[str] = []
    for part in (p for p in parts if p):
        for piece in textwrap.wrap(part, width, break_on_hyphens=False) or [part]:
            if lines and len(lines[-1]) + 3 + len(piece) <= width:
                lines[-1] += f" · {piece}"
            else:
                lines.append(piece)
    lines += textwrap.wrap(context.releases, width)
    for phase in context.phases:
        lines += textwrap.wrap(phase, width)
    return "\n".join(lines)


def _nice_log_ticks(ax: Axes) -> None:
    """Major ticks of a log x axis at 1-2-5 steps labelled as plain numbers, no minor labels."""
    from matplotlib.ticker import FixedLocator, NullFormatter, StrMethodFormatter

    low, high = ax.get_xlim()
    ticks = [
        m * 10**e
        for e in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
        for m in (1, 2, 5)
    ]
    ax.xaxis.set_major_locator(FixedLocator([t for t in ticks if low <= t <= high]))
    ax.xaxis.set_major_formatter(StrMethodFormatter("{x:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())


def _method_handles(colours: dict[str, str]) -> list[Artist]:
    """Legend entries naming each method's colour."""
    from matplotlib.lines import Line2D

    return [
        Line2D([], [], color=c, marker="o", markersize=5, linewidth=1.6, label=m) for m, c in colours.items()
    ]


def _mark_handles(drawn: set[str]) -> list[Artist]:
    """Legend entries, in grey, explaining each kind of mark that was drawn. Where a released model is
    drawn, its phases are too, each at what one of its runs spent: the tuning trials at their ε_t, the
    release run at its ε_B, the model at the total the two compose to."""
    from matplotlib.lines import Line2D

    grey: dict[str, Any] = {"color": MARK_COLOUR, "linestyle": "none"}
    by_phase = "released" in drawn
    entries = {
        "trials": Line2D(
            [],
            [],
            marker="o",
            markersize=4,
            alpha=TRIAL_ALPHA,
            label="search trial (validation);\na tuning trial at its ε_t"
            if by_phase
            else "search trial (validation)",
            **grey,
        ),
        "selected": Line2D(
            [], [], marker="o", markersize=6, label="selected: final test,\nmean ± sd of re-runs", **grey
        ),
        "released": Line2D(
            [],
            [],
            marker="o",
            markersize=6,
            label="released model: final test\nat its total ε (tuning incl.)",
            **grey,
        ),
        "reruns": Line2D(
            [],
            [],
            marker="o",
            markersize=2.5,
            alpha=0.6,
            label="re-run (final test); a\nrelease run at its ε_B" if by_phase else "re-run (final test)",
            **grey,
        ),
        "validation": Line2D(
            [], [], marker="D", markersize=5, markerfacecolor="none", label="selected: validation", **grey
        ),
        "tuning": Line2D(
            [], [], marker=">", markersize=5, label="ε including tuning", color=MARK_COLOUR, linestyle=":"
        ),
    }
    return [handle for name, handle in entries.items() if name in drawn]
