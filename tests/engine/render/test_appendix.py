"""The appendix's spend rows state the run's cost as a share of the report's price."""

from __future__ import annotations

from engine.contracts import Limits, Plan, Report, Spend, Subquestion
from engine.render.appendix import appendix
from engine.render.markdown import render_markdown


def report(language: str, price: float | None) -> Report:
    return Report(
        question="Q?",
        language=language,  # type: ignore[arg-type]
        plan=Plan(question="Q?", subquestions=[Subquestion(id="s1", text="Q?")]),
        spend=Spend(steps=12, seconds=30.0, usd=0.35),
        limits=Limits(steps=150, seconds=1500.0, usd=5.0, price_usd=price),
    )


def test_the_cost_share_of_the_price_follows_the_cost_row_in_both_languages() -> None:
    portuguese = appendix(report("pt", 250.0)).rows
    english = appendix(report("en", 250.0)).rows

    assert portuguese[2:4] == [
        ("Custo", "US$ 0,3500 de US$ 5,0000"),
        ("Custo sobre o preço do relatório", "0,14% de US$ 250,00"),
    ]
    assert english[2:4] == [
        ("Cost", "US$ 0.3500 of US$ 5.0000"),
        ("Cost as a share of the report's price", "0.14% of US$ 250.00"),
    ]
    assert "- Cost as a share of the report's price: 0.14% of US$ 250.00\n" in (
        render_markdown(report("en", 250.0))
    )


def test_a_report_without_a_price_has_no_share_row() -> None:
    for price in (None, 0.0):
        labels = [label for label, _ in appendix(report("en", price)).rows]
        assert "Cost as a share of the report's price" not in labels
        assert "Cost" in labels
