"""results.md: totals and per-case figures, the architectures side by side."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from evals.metrics import Row
from evals.pricing import SimulatedPricing
from evals.shares import percent, template_shares
from evals.totals import Totals, simulated_usd_mean, totals

ARCH_ORDER = ("final", "v1")


def results_markdown(
    rows: Sequence[Row],
    *,
    suite: str,
    model: str,
    latency: str | None = None,
    pricing: SimulatedPricing | None = None,
) -> str:
    archs = [a for a in ARCH_ORDER if any(r.arch == a for r in rows)]
    archs += sorted({r.arch for r in rows} - set(archs))
    cases = list(dict.fromkeys(r.case_id for r in rows))
    lines = [f"# Eval: {suite} — {' vs '.join(archs) or 'no runs'}", ""]
    lines += [f"Model: {model} · {len(cases)} cases · {latency_caption(latency)}", ""]
    if pricing is not None:
        lines += [f"Costs marked simulated: {pricing.describe()}.", ""]
    groups = list(dict.fromkeys(r.group for r in rows))
    lines += _totals_table("Totals", rows, archs, pricing)
    if len(groups) > 1:
        for group in groups:
            own = [r for r in rows if r.group == group]
            lines += _totals_table(f"Totals: {group} cases", own, archs, pricing)
    lines += _shares_table(rows, pricing)
    lines += _cases_table(rows, archs, cases)
    lines += _misses(rows)
    return "\n".join(lines).rstrip() + "\n"


def latency_caption(latency: str | None) -> str:
    if latency is None:
        return "no simulated latency: times are the engine's own work, without model time"
    return f"times include {latency}, the same for every architecture"


def _totals_table(
    title: str, rows: Sequence[Row], archs: list[str], pricing: SimulatedPricing | None = None
) -> list[str]:
    sums = [totals(rows, arch) for arch in archs]
    lines = [f"## {title}", "", "| | " + " | ".join(archs) + " |"]
    lines.append("|---|" + "---|" * len(archs))
    for label, cell in _TOTAL_LINES:
        lines.append(f"| {label} | " + " | ".join(cell(t) for t in sums) + " |")
    if pricing is not None:
        cells = " | ".join(f"${simulated_usd_mean(t, pricing):.4f}" for t in sums)
        lines.append(f"| simulated cost per report, mean ({pricing.model}) | {cells} |")
    return [*lines, ""]


def _shares_table(rows: Sequence[Row], pricing: SimulatedPricing | None) -> list[str]:
    """Cost as a share of the price each template's report sells for (US$)."""
    shares = template_shares(rows, pricing)
    if not shares:
        return []
    simulated = pricing is not None
    header = "| template | arch | reports | price | cost per report, mean | share of the price |"
    lines = [
        "## Cost as a share of the price, per template",
        "",
        header + (" simulated cost, mean | simulated share of the price |" if simulated else ""),
    ]
    lines.append("|---" * (8 if simulated else 6) + "|")
    for each in shares:
        cells = [
            _escape(each.template),
            each.arch,
            str(each.reports),
            f"${each.price_usd:,.2f}",
            f"${each.usd_mean:.4f}",
            percent(each.share),
        ]
        if each.simulated_usd_mean is not None:
            cells += [f"${each.simulated_usd_mean:.4f}", percent(each.simulated_share)]
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


def _ratio(part: int, whole: int) -> str:
    if not whole:
        return "–"
    return f"{part}/{whole} ({part / whole:.0%})"


def _seen(t: Totals) -> str:
    return f"{t.seen_rendered} ({t.seen_rejected})"


def _mean(total: float, count: int) -> float:
    return total / count if count else 0.0


_TOTAL_LINES: list[tuple[str, Callable[[Totals], str]]] = [
    ("required-item recall", lambda t: _ratio(t.required_found, t.required_total)),
    ("answer accuracy (gold value stated)", lambda t: _ratio(t.answers_stated, t.answers_numeric)),
    ("required items on the board", lambda t: _ratio(t.required_on_board, t.required_total)),
    ("cases with every required item", lambda t: _ratio(t.cases_complete, t.cases)),
    ("verifier pass rate (re-checked)", lambda t: _ratio(t.verified_claims, t.published_claims)),
    ("numeric sentences without a verified source", lambda t: str(t.unsupported_numbers)),
    ("uncited sentences published", lambda t: str(t.uncited_sentences)),
    ("boilerplate quoted as findings", lambda t: str(t.boilerplate_claims)),
    ("expected gaps declared", lambda t: _ratio(t.gaps_declared, t.gaps_expected)),
    ("published sentences that are fragments", lambda t: str(t.fragments)),
    ("calculated figures", lambda t: str(t.calculated_figures)),
    ("conflicts declared", lambda t: str(t.conflicts_declared)),
    ("claims quoted with context", lambda t: _ratio(t.context_claims, t.published_claims)),
    ("claims read by OCR (holding)", lambda t: f"{t.ocr_claims} ({t.ocr_claims_verified})"),
    ("figure readings published", lambda t: str(t.figure_claims)),
    ("claims checked by rendering (rejected by it)", lambda t: _seen(t)),
    ("seen check time per claim", lambda t: f"{_mean(t.seen_seconds, t.seen_rendered):.2f} s"),
    ("cited sources: primary · secondary · other", lambda t: _standings(t)),
    ("partial reports", lambda t: _ratio(t.partial, t.cases)),
    ("time per report, mean (max)", lambda t: f"{t.seconds_mean:.2f} s ({t.seconds_max:.2f} s)"),
    ("cost per report, mean", lambda t: f"${t.usd_mean:.4f}"),
    ("model calls per report, mean", lambda t: f"{_mean(t.model_calls, t.cases):.1f}"),
    (
        "tokens per report, mean in / out",
        lambda t: f"{_mean(t.input_tokens, t.cases):,.0f} / {_mean(t.output_tokens, t.cases):,.0f}",
    ),
    ("failed runs", lambda t: str(t.errors)),
]


def _standings(counts: Row | Totals, sep: str = " · ") -> str:
    """Cited documents by standing; those without one are said only when there are any."""
    cells = sep.join(
        str(n) for n in (counts.primary_sources, counts.secondary_sources, counts.other_sources)
    )
    return cells + (f" ({counts.unrated_sources} unrated)" if counts.unrated_sources else "")


def _cases_table(rows: Sequence[Row], archs: list[str], cases: list[str]) -> list[str]:
    by_key = {(r.case_id, r.arch): r for r in rows}
    header = (
        "| case | required | claims holding | unsupported numbers | fragments | calculated "
        "| gaps | conflicts | with context | by OCR | sources p/s/o | time (s) | cost ($) |"
    )
    lines = ["## Per case", "", f"Each cell reads {' · '.join(archs)}.", "", header]
    lines.append("|---" * 13 + "|")
    for case_id in cases:
        own = [by_key.get((case_id, arch)) for arch in archs]
        cells = [_escape(case_id)]
        for cell in _CASE_CELLS:
            cells.append(" · ".join("–" if r is None else cell(r) for r in own))
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


def _case_ratio(part: int, whole: int) -> str:
    return f"{part}/{whole}" if whole else "–"


_CASE_CELLS: list[Callable[[Row], str]] = [
    lambda r: "failed" if r.error else _case_ratio(r.required_found, r.required_total),
    lambda r: _case_ratio(r.verified_claims, r.published_claims),
    lambda r: str(r.unsupported_numbers),
    lambda r: str(r.fragments),
    lambda r: str(r.calculated_figures),
    lambda r: _case_ratio(r.gaps_declared, r.gaps_expected),
    lambda r: str(r.conflicts_declared),
    lambda r: _case_ratio(r.context_claims, r.published_claims),
    lambda r: str(r.ocr_claims),
    lambda r: _standings(r, "/"),
    lambda r: f"{r.seconds:.2f}",
    lambda r: f"{r.usd:.4f}",
]


def _misses(rows: Sequence[Row]) -> list[str]:
    lines: list[str] = []
    for row in rows:
        what = [f"required: {'; '.join(row.missing_required)}"] if row.missing_required else []
        what += [f"gaps not declared: {'; '.join(row.missing_gaps)}"] if row.missing_gaps else []
        what += [f"failed: {row.error}"] if row.error else []
        if what:
            lines.append(f"- {_escape(row.case_id)} ({row.arch}) — {' — '.join(what)}")
    if not lines:
        return []
    return ["## Misses", "", *lines, ""]


def _escape(text: str) -> str:
    return text.replace("|", "\\|")
