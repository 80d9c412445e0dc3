"""Cost as a share of the price, per template: in the rows, results.md and results.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.models.claude.prices import ModelPrice, TokenRates
from evals.cases import CaseError, load_folder_cases
from evals.pricing import SimulatedPricing
from evals.runner import RunOptions, run_suite, write_outputs
from evals.shares import template_shares
from evals.suites import load_suite
from evals.tables import results_markdown
from tests.support.eval_builders import row

PRICING = SimulatedPricing("claude-test", ModelPrice(TokenRates(2.0, 10.0, 2.5, 0.2)))


def test_each_template_s_mean_cost_is_shown_as_a_share_of_its_price() -> None:
    rows = [
        row("final", "a", template="mercado", price_usd=250.0, usd=0.5, input_tokens=1_000_000),
        row("final", "b", template="mercado", price_usd=250.0, usd=1.5, input_tokens=0),
        row("final", "c", usd=0.25, price_usd=100.0, input_tokens=0, output_tokens=0),
        row("v1", "c", usd=9.0, price_usd=100.0, error="RuntimeError: boom"),
    ]

    shares = template_shares(rows, PRICING)

    assert [(s.template, s.arch, s.reports) for s in shares] == [
        ("mercado", "final", 2),
        ("default", "final", 1),
    ]
    market, default = shares
    assert (market.usd_mean, market.share) == (1.0, 0.004)
    # 1M input tokens at $2 and 100 output tokens at $10 per million, over two reports.
    assert market.simulated_usd_mean == pytest.approx(1.001)
    assert default.share == 0.0025
    text = results_markdown(rows, suite="s", model="offline", pricing=PRICING)
    assert "## Cost as a share of the price, per template" in text
    assert "| mercado | final | 2 | $250.00 | $1.0000 | 0.400% | $1.0010 | 0.400% |" in text
    assert "| default | final | 1 | $100.00 | $0.2500 | 0.250% | $0.0000 | 0.000% |" in text
    assert "simulated share" not in results_markdown(rows, suite="s", model="offline")


def test_a_case_may_name_its_template(tmp_path: Path) -> None:
    line = {"id": "x", "pergunta": "Q?", "obrigatorias": [], "modelo": "legal"}
    (tmp_path / "cases.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert [case.template for case in load_folder_cases(tmp_path)] == ["regulacao"]

    line["modelo"] = "horóscopo"
    (tmp_path / "cases.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(CaseError, match=r"cases\.jsonl:1: unknown template 'horóscopo'"):
        load_folder_cases(tmp_path)


async def test_a_suite_runs_each_case_on_its_template_s_price(
    suite_folder: Path, tmp_path: Path
) -> None:
    cases_file = suite_folder / "cases.jsonl"
    lines = [json.loads(line) for line in cases_file.read_text(encoding="utf-8").splitlines()]
    lines[0]["modelo"] = "regulacao"
    cases_file.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    suite = load_suite(str(suite_folder), cache_dir=tmp_path / "cache")
    options = RunOptions(archs=("final",), pricing=PRICING)

    rows = await run_suite(suite, options, progress=lambda _: None, reports_dir=tmp_path / "r")
    outputs = write_outputs(rows, tmp_path / "out", suite="s", model="offline", options=options)

    assert [(r.template, r.price_usd) for r in rows] == [("regulacao", 150.0), ("default", 100.0)]
    report = json.loads((tmp_path / "r" / "limites.final.json").read_text(encoding="utf-8"))
    assert report["limits"] == {"steps": 90, "seconds": 900.0, "usd": 3.0, "price_usd": 150.0}
    document = json.loads(outputs.results_json.read_text(encoding="utf-8"))
    assert [(s["template"], s["price_usd"]) for s in document["cost_share_of_price"]] == [
        ("regulacao", 150.0),
        ("default", 100.0),
    ]
    assert all(s["simulated_share"] > 0 for s in document["cost_share_of_price"])
    assert "| regulacao | final | 1 | $150.00 |" in outputs.results_md.read_text(encoding="utf-8")
