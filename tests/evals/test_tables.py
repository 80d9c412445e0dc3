from __future__ import annotations

from engine.models.claude.prices import ModelPrice, TokenRates
from evals.pricing import SimulatedPricing
from evals.tables import results_markdown
from tests.support.eval_builders import row


def _rows() -> list:
    return [
        row("final", "a", required_found=2, required_total=2, seconds=1.25),
        row("v1", "a", required_found=1, required_total=2, unsupported_numbers=3, seconds=4.5),
        row("final", "b|c", required_found=0, required_total=1, missing_required=("capex",)),
        row("v1", "b|c", error="RuntimeError: boom", missing_required=("capex",)),
    ]


def test_totals_put_the_architectures_side_by_side() -> None:
    text = results_markdown(_rows(), suite="br-laws", model="offline")

    assert text.startswith("# Eval: br-laws — final vs v1\n")
    assert "| | final | v1 |" in text
    assert "| required-item recall | 2/3 (67%) | 2/4 (50%) |" in text
    assert "| numeric sentences without a verified source | 0 | 3 |" in text
    assert "| failed runs | 0 | 1 |" in text
    assert "| published sentences that are fragments | 0 | 0 |" in text
    assert "| calculated figures | 0 | 0 |" in text
    assert "no simulated latency" in text


def test_per_case_cells_read_final_then_v1() -> None:
    text = results_markdown(_rows(), suite="s", model="offline")

    assert (
        "| a | 2/2 · 1/2 | 4/4 · 4/4 | 0 · 3 | 0 · 0 | 0 · 0 | 1/1 · 1/1 | 0 · 0 | 0/4 · 0/4 "
        "| 0 · 0 | 0/0/0 · 0/0/0 | 1.25 · 4.50 | 0.0000 · 0.0000 |" in text
    )
    assert "| b\\|c | 0/1 · failed |" in text  # a pipe in an id does not break the table


def test_misses_name_what_was_not_found() -> None:
    text = results_markdown(_rows(), suite="s", model="offline")

    assert "## Misses" in text
    assert "- b\\|c (final) — required: capex" in text
    assert "failed: RuntimeError: boom" in text


def test_simulated_latency_is_said_in_the_caption() -> None:
    rows = [row("final", simulated_latency=True)]

    text = results_markdown(rows, suite="s", model="offline", latency="simulated latency: 50 t/s")

    assert "times include simulated latency: 50 t/s" in text
    assert "| | final |" in text
    assert "v1" not in text.splitlines()[0]


def test_groups_get_their_own_totals() -> None:
    rows = [row("final", "q1", group="question"), row("final", "co", group="company")]

    text = results_markdown(rows, suite="financebench", model="offline")

    assert "## Totals: question cases" in text
    assert "## Totals: company cases" in text


def test_offline_costs_are_shown_simulated_at_list_prices_and_said_so() -> None:
    pricing = SimulatedPricing("claude-test", ModelPrice(TokenRates(2.0, 10.0, 2.5, 0.2)))
    rows = [
        row("final", "a", input_tokens=1_000_000, output_tokens=100_000),
        row("final", "b", input_tokens=3_000_000, output_tokens=100_000),
        row("v1", "a", input_tokens=500_000, output_tokens=0),
    ]

    text = results_markdown(rows, suite="s", model="offline", pricing=pricing)

    # final: 2M input ($4) and 100k output ($1) per report on average; v1: 500k input ($1).
    assert "| simulated cost per report, mean (claude-test) | $5.0000 | $1.0000 |" in text
    assert "Costs marked simulated: simulated cost: notional tokens at claude-test" in text
    assert "simulated cost" not in results_markdown(rows, suite="s", model="offline")
