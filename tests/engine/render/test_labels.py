from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import get_args

from engine.contracts import CalculationKind, Report
from engine.render.labels import accessed_text, format_utc, labels_for, page_label, spend_rows
from engine.words import words_for

PORTUGUESE = words_for("pt").report
ENGLISH = words_for("en").report


def test_labels_follow_the_language() -> None:
    assert labels_for("pt") is PORTUGUESE
    assert labels_for("en") is ENGLISH
    assert (PORTUGUESE.sources, ENGLISH.sources) == ("Fontes", "Sources")
    assert (PORTUGUESE.partial_report, ENGLISH.partial_report) == (
        "Relatório parcial",
        "Partial report",
    )
    assert PORTUGUESE.rejected_claims == "Afirmações rejeitadas pelo verificador"
    assert ENGLISH.rejected_claims == "Claims rejected by the verifier"


def test_every_label_is_translated() -> None:
    assert all(value for value in vars(PORTUGUESE).values())
    assert all(value for value in vars(ENGLISH).values())
    assert vars(PORTUGUESE).keys() == vars(ENGLISH).keys()


def test_every_kind_of_calculation_is_named_in_both_languages() -> None:
    kinds = set(get_args(CalculationKind))

    for labels in (PORTUGUESE, ENGLISH):
        assert set(labels.calculation_kinds) == kinds
        assert all(labels.calculation_kinds.values())
    assert PORTUGUESE.calculation_kinds["percent_change"] == "variação percentual"
    assert ENGLISH.calculation_kinds["cagr"] == "compound annual growth rate"


def test_the_report_parts_are_named_in_both_languages() -> None:
    assert (PORTUGUESE.summary, ENGLISH.summary) == ("Resumo", "Summary")
    assert (PORTUGUESE.appendix, ENGLISH.appendix) == (
        "Apêndice: como este relatório foi feito",
        "Appendix: how this report was made",
    )
    assert PORTUGUESE.calculation_marker.format(number=2) == "cálc. 2"
    assert ENGLISH.chart.format(title="Revenue") == "Chart: Revenue"


def test_dates_are_shown_as_iso_date_and_time_in_utc() -> None:
    sao_paulo = timezone(timedelta(hours=-3))

    assert format_utc(datetime(2025, 5, 1, 11, 3, 59, tzinfo=sao_paulo)) == "2025-05-01 14:03 UTC"
    assert (
        accessed_text(PORTUGUESE, datetime(2025, 1, 2, 3, 4)) == "Acessado em 2025-01-02 03:04 UTC"
    )


def test_page_text() -> None:
    assert page_label(PORTUGUESE, 60) == "página 60"
    assert page_label(ENGLISH, 60) == "page 60"


def test_spend_rows_in_portuguese_use_decimal_commas(portuguese_report: Report) -> None:
    rows = dict(spend_rows(portuguese_report))

    assert rows["Passos"] == "60 de 60"
    assert rows["Tempo"] == "412,5 s de 600,0 s"
    assert rows["Custo"] == "US$ 1,2346 de US$ 2,0000"
    assert rows["Modelo"] == "claude-sonnet"
    assert rows["Arquitetura"] == "final"
    assert rows["Criado em"] == "2025-05-01 14:20 UTC"


def test_spend_rows_in_english(english_report: Report) -> None:
    rows = dict(spend_rows(english_report))

    assert rows["Steps"] == "0 of 60"
    assert rows["Cost"] == "US$ 0.0000 of US$ 2.0000"
