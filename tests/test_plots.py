"""The accuracy-vs-ε plots, checked from the data behind each series (not from pixels)."""

from __future__ import annotations

import statistics
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from PIL import Image

from dptune.sweep.results import TradeOff
from dptune.tracking.plots import (
    JITTER,
    OKABE_ITO,
    method_colours,
    plot_tradeoffs,
    save_figure,
    tradeoff_figure,
)
from dptune.tracking.report import PlotContext, TrialPoint

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

CONTEXT = PlotContext(dataset="Fashion-MNIST", model="cnn5", delta=1e-5, epochs="10–40")


def row(
    method: str, target: float, spent: float, validation: float, tests: tuple[float, ...], **extra
) -> TradeOff:
    return TradeOff(
        method, target, spent, 1e-5, validation, tests, "sweep", f"{method}-{target}", {}, **extra
    )


def search(
    method: str, target: float, spent: float, validation: float | None, selected: bool = False
) -> TrialPoint:
    return TrialPoint(method, target, spent, validation, "search", None, selected, f"{method}-{validation}")


def rerun(method: str, target: float, spent: float, test: float) -> TrialPoint:
    return TrialPoint(method, target, spent, None, "final", test, False, f"{method}-rerun-{test}")


def sweep_of_two_targets() -> tuple[list[TradeOff], list[TrialPoint]]:
    """Methods a and b at ε targets 1 and 8; b at 8 was not re-run, and one of a's trials has no score."""
    rows = [
        row(
            "a",
            1.0,
            0.99,
            0.71,
            (0.68, 0.70, 0.72),
            epsilon_including_tuning=2.5,
            tuning_bound="repeat-and-select",
        ),
        row(
            "a", 8.0, 7.9, 0.81, (0.79, 0.80), epsilon_including_tuning=16.0, tuning_bound="repeat-and-select"
        ),
        row(
            "b", 1.0, 0.98, 0.66, (0.64, 0.66, 0.65), epsilon_including_tuning=3.0, tuning_bound="composition"
        ),
        row("b", 8.0, 7.95, 0.77, (), epsilon_including_tuning=12.0, tuning_bound="composition"),
    ]
    trials = [
        search("a", 1.0, 0.99, 0.71, selected=True),
        search("a", 1.0, 0.97, 0.60),
        search("a", 1.0, 0.95, None),
        search("a", 8.0, 7.9, 0.81, selected=True),
        search("a", 8.0, 7.7, 0.75),
        search("b", 1.0, 0.98, 0.66, selected=True),
        search("b", 1.0, 0.96, 0.52),
        search("b", 8.0, 7.95, 0.77, selected=True),
        rerun("a", 1.0, 0.99, 0.68),
        rerun("a", 1.0, 0.99, 0.70),
    ]
    return rows, trials


def series(figure: Figure, gid: str) -> list:
    """The artists carrying ``gid``."""
    return figure.findobj(lambda artist: artist.get_gid() == gid)


def points(figure: Figure, gid: str) -> np.ndarray:
    """The (x, y) of the one scatter carrying ``gid``."""
    (collection,) = series(figure, gid)
    return np.asarray(collection.get_offsets())


def test_method_colours_come_from_the_sorted_list_of_methods() -> None:
    assert method_colours(["b", "a", "b"]) == {"a": OKABE_ITO[0], "b": OKABE_ITO[1]}
    many = method_colours(f"m{i:02d}" for i in range(12))
    assert len(set(many.values())) == 12 and list(many) == sorted(many)


def test_several_targets_draw_accuracy_against_epsilon_for_every_method() -> None:
    rows, trials = sweep_of_two_targets()
    figure = tradeoff_figure(rows, trials, CONTEXT)
    (ax,) = figure.axes
    colours = method_colours(["a", "b"])
    assert ax.get_xscale() == "log"
    assert ax.get_xlabel().startswith("ε spent (log scale")
    assert ax.get_ylabel() == "accuracy (%)"
    assert all(part in ax.get_title() for part in ("Fashion-MNIST", "cnn5", "δ = 1e-05", "10–40 epochs"))

    for method in ("a", "b"):
        mine = sorted((r for r in rows if r.method == method), key=lambda r: r.epsilon_spent)
        tested = [r for r in mine if r.test_accuracies]
        (selected,) = series(figure, f"selected:{method}")
        assert selected.get_color() == colours[method] and selected.get_linewidth() > 1
        x_selected = np.asarray(selected.get_xdata(), float)
        np.testing.assert_allclose(
            np.asarray(selected.get_ydata(), float),
            [100 * statistics.fmean(r.test_accuracies) for r in tested],
        )
        (bars,) = series(figure, f"selected-sd:{method}")
        for segment, r in zip(bars.get_segments(), tested, strict=True):
            mean, sd = 100 * statistics.fmean(r.test_accuracies), 100 * statistics.stdev(r.test_accuracies)
            np.testing.assert_allclose(segment[:, 1], [mean - sd, mean + sd])
        # every x of a method is moved by the same factor (the dodge), small against the axis
        dodge = x_selected[0] / tested[0].epsilon_spent
        assert 0.8 < dodge < 1.25

        faint = points(figure, f"trials:{method}")
        scored = [t for t in trials if t.method == method and t.role == "search" and t.validation_accuracy]
        assert len(faint) == len(scored)
        np.testing.assert_allclose(
            faint, [(t.epsilon_spent * dodge, 100 * (t.validation_accuracy or 0)) for t in scored]
        )
        (collection,) = series(figure, f"trials:{method}")
        assert collection.get_alpha() < 0.5
        assert to_hex(collection.get_facecolor()[0][:3]) == colours[method]

        validation = points(figure, f"validation:{method}")
        np.testing.assert_allclose(
            validation, [(r.epsilon_spent * dodge, 100 * r.validation_accuracy) for r in mine]
        )

        tuning = points(figure, f"tuning:{method}")
        at = [100 * (r.test_accuracy if r.test_accuracy is not None else r.validation_accuracy) for r in mine]
        np.testing.assert_allclose(
            tuning, [(r.epsilon_including_tuning * dodge, y) for r, y in zip(mine, at, strict=True)]
        )
        assert len(series(figure, f"tuning-span:{method}")) == len(mine)

    np.testing.assert_allclose(points(figure, "reruns:a")[:, 1], [68, 70])
    assert not series(figure, "reruns:b")
    legend_texts = [text.get_text() for legend in figure.legends for text in legend.get_texts()]
    assert legend_texts[:2] == ["a", "b"]
    assert {"search trial (validation)", "selected: validation", "ε including tuning"} <= set(legend_texts)
    assert [to_hex(h.get_color()) for h in figure.legends[0].legend_handles] == [colours["a"], colours["b"]]


def test_a_released_model_is_drawn_at_its_total_epsilon_and_its_tuning_trial_at_its_own() -> None:
    """A pipeline's row (ε including the tuning: its plan) joins its released models' final-test accuracy
    at their totals, with the tuning trial that chose each at the ε it spent, and no tuning arrow."""
    rows = [
        row("a", 1.0, 0.25, 0.80, (0.84,), epsilon_including_tuning=1.0, tuning_bound="plan"),
        row("a", 3.0, 0.54, 0.83, (0.88,), epsilon_including_tuning=3.0, tuning_bound="plan"),
    ]
    trials = [search("a", 1.0, 0.25, 0.80, True), search("a", 3.0, 0.54, 0.83, True)]
    figure = tradeoff_figure(rows, trials, CONTEXT)
    (line,) = series(figure, "released:a")
    released = np.column_stack([line.get_xdata(), line.get_ydata()]).astype(float)
    dodge = released[0][0] / 1.0
    np.testing.assert_allclose(released, [(1.0 * dodge, 84.0), (3.0 * dodge, 88.0)])
    np.testing.assert_allclose(points(figure, "validation:a"), [(0.25 * dodge, 80.0), (0.54 * dodge, 83.0)])
    assert not series(figure, "tuning:a") and not series(figure, "selected:a")
    legend_texts = [text.get_text() for legend in figure.legends for text in legend.get_texts()]
    assert any(text.startswith("released") for text in legend_texts)
    assert "search trial (validation);\na tuning trial at its ε_t" in legend_texts  # the phases it shows
    assert "a released model at its total ε" in figure.axes[0].get_xlabel()
    assert "releasing" not in figure.axes[0].get_title()
    releases = "releasing every model of totals 1, 3: ε ≤ 3.7, δ ≤ 1e-05"
    titled = tradeoff_figure(rows, trials, replace(CONTEXT, releases=releases)).axes[0].get_title()
    assert releases in titled.replace("\n", " ") and titled.index("10–40 epochs") < titled.index("releasing")
    first, second = "total 1: 8 × ε_t 0.0806 (ε 0.25), then ε_B 0.955", "total 3: 8 × ε_t 0.245 (ε 0.75)"
    titled = tradeoff_figure(rows, trials, replace(CONTEXT, phases=(first, second))).axes[0].get_title()
    assert first in titled.replace("\n", " ") and titled.endswith(f"\n{second}")  # each total from a new line


def test_one_target_draws_a_strip_plot_by_method() -> None:
    rows = [
        row(
            "dpsgd",
            1.0,
            0.994,
            0.70,
            (0.68, 0.69, 0.70),
            epsilon_including_tuning=2.31,
            tuning_bound="repeat-and-select",
        ),
        row("dp-pmlf", 1.0, 0.991, 0.73, (0.72, 0.72)),
    ]
    trials = [
        search("dpsgd", 1.0, 0.994, 0.70, selected=True),
        search("dpsgd", 1.0, 0.990, 0.61),
        search("dpsgd", 1.0, 0.992, 0.55),
        search("dp-pmlf", 1.0, 0.991, 0.73, selected=True),
        search("dp-pmlf", 1.0, 0.985, 0.64),
        search("doppler", 1.0, 0.97, 0.50),  # a method whose selection is missing still has its trials drawn
    ]
    figure = tradeoff_figure(rows, trials, CONTEXT)
    (ax,) = figure.axes
    methods = ["doppler", "dp-pmlf", "dpsgd"]
    colours = method_colours(methods)
    assert ax.get_xscale() == "linear"
    assert "ε target 1" in ax.get_title() and "cnn5" in ax.get_title()
    labels = [tick.get_text() for tick in ax.get_xticklabels()]
    assert [label.split("\n")[0] for label in labels] == methods
    assert "ε spent 0.994" in labels[2] and "ε incl. tuning 2.31 (R&S)" in labels[2]
    assert "ε spent 0.991" in labels[1] and "tuning" not in labels[1]
    assert [to_hex(tick.get_color()) for tick in ax.get_xticklabels()] == [colours[m] for m in methods]

    for slot, method in enumerate(methods):
        faint = points(figure, f"trials:{method}")
        scored = [t for t in trials if t.method == method]
        np.testing.assert_allclose(
            sorted(faint[:, 1]), sorted(100 * (t.validation_accuracy or 0) for t in scored)
        )
        assert np.all(np.abs(faint[:, 0] - slot) < 0.12 + JITTER + 1e-9)
    (selected,) = series(figure, "selected:dpsgd")
    assert selected.get_ydata()[0] == pytest.approx(69.0) and abs(float(selected.get_xdata()[0]) - 2) < 0.5
    (bars,) = series(figure, "selected-sd:dpsgd")
    np.testing.assert_allclose(bars.get_segments()[0][:, 1], [68.0, 70.0])
    (validation,) = points(figure, "validation:dpsgd")
    assert any(np.allclose(validation, p) for p in points(figure, "trials:dpsgd"))  # ringed where it lies
    assert not series(figure, "selected:doppler") and not series(figure, "tuning:dpsgd")


@pytest.mark.slow
def test_plot_tradeoffs_writes_a_300_dpi_png_and_a_pdf(tmp_path: Path) -> None:
    rows, trials = sweep_of_two_targets()
    png, pdf = plot_tradeoffs(rows, tmp_path / "pareto.png", trials, CONTEXT)
    assert (png, pdf) == (tmp_path / "pareto.png", tmp_path / "pareto.pdf")
    with Image.open(png) as image:
        assert [round(d) for d in image.info["dpi"]] == [300, 300]
        assert image.size == (7 * 300, round(4.2 * 300))
    assert pdf.read_bytes().startswith(b"%PDF")
    assert plot_tradeoffs(rows, tmp_path / "bare.png")[0].exists()  # without trials or context
    with pytest.raises(ValueError, match="svg"):
        save_figure(tradeoff_figure(rows, trials, CONTEXT), tmp_path / "plot.svg")
    with pytest.raises(ValueError, match="no selected configurations"):
        tradeoff_figure([], [], CONTEXT)
