"""chart.png: time, cost and required-item recall per architecture.

Drawn on a bare `Figure` (the Agg canvas behind `savefig` for PNG), so no pyplot state and
no GUI backend is touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from evals.metrics import Row
from evals.pricing import SimulatedPricing
from evals.totals import Totals, simulated_usd_mean, totals

COLOURS = {"final": "#2b6cb0", "v1": "#c05621"}
OTHER_COLOUR = "#718096"


def write_chart(
    rows: Sequence[Row],
    path: Path,
    *,
    suite: str,
    model: str,
    latency: str | None = None,
    pricing: SimulatedPricing | None = None,
) -> None:
    archs = list(dict.fromkeys(sorted({r.arch for r in rows}, key=_arch_order)))
    sums = [totals(rows, arch) for arch in archs]
    figure = Figure(figsize=(11, 4), layout="constrained")
    panels = figure.subplots(1, 3)
    _bars(panels[0], archs, [t.seconds_mean for t in sums], "time per report (s, mean)", "{:.2f}")
    if pricing is None:
        costs, cost_title = [t.usd_mean for t in sums], "cost per report (USD, mean)"
    else:
        costs = [simulated_usd_mean(t, pricing) for t in sums]
        cost_title = f"simulated cost per report\n(USD, mean, {pricing.model} list prices)"
    _bars(panels[1], archs, costs, cost_title, "${:.4f}")
    recall = [100 * (t.recall or 0.0) for t in sums]
    _bars(panels[2], archs, recall, "required-item recall (%)", "{:.0f}%")
    panels[2].set_ylim(0, 105)
    figure.suptitle(chart_title(suite, archs, model, _cases(sums), latency))
    figure.savefig(path, format="png", dpi=100)


def chart_title(suite: str, archs: list[str], model: str, cases: str, latency: str | None) -> str:
    timing = f"times with {latency}" if latency else "no simulated latency"
    return f"{suite}: {' vs '.join(archs)} — model {model}, {cases}\n{timing}"


def _bars(axes: Axes, archs: list[str], values: list[float], title: str, label: str) -> None:
    colours = [COLOURS.get(arch, OTHER_COLOUR) for arch in archs]
    bars = axes.bar(archs, values, color=colours)
    axes.bar_label(bars, labels=[label.format(v) for v in values])
    axes.set_title(title)
    top = max(values, default=0.0)
    axes.set_ylim(0, top * 1.2 if top > 0 else 1.0)


def _arch_order(arch: str) -> tuple[int, str]:
    order = list(COLOURS)
    return (order.index(arch) if arch in order else len(order), arch)


def _cases(sums: list[Totals]) -> str:
    count = max((t.cases for t in sums), default=0)
    return f"{count} cases"
