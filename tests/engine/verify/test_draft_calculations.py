"""The number guard red-teamed: a number absent from the excerpts is published only as the
text of a calculation code recomputes from figures its verified claims print."""

from engine.contracts import (
    Calculation,
    Claim,
    ClaimStatus,
    Draft,
    FiguresTable,
    Section,
    Sentence,
    TableCell,
    TableRow,
)
from engine.verify.draft import CheckedDraft, check_draft, check_sections
from engine.writing.calculator import Calculator
from engine.writing.figures import gather_figures
from tests.support.render_samples import (
    R19,
    R23,
    figures_report,
)

CLAIMS = [R19, R23]


def revenue_change() -> Calculation:
    figures = {f.period: f for f in gather_figures(CLAIMS)}
    return Calculator("en").percent_change(figures["2019"], figures["2023"])


def checked(
    *sentences: Sentence,
    calculations: list[Calculation] | None = None,
    tables: list[FiguresTable] | None = None,
    claims: list[Claim] | None = None,
) -> CheckedDraft:
    draft = Draft(
        title="Best Buy",
        summary=list(sentences),
        calculations=[revenue_change()] if calculations is None else calculations,
        tables=tables or [],
    )
    return check_draft(draft, claims or CLAIMS)


def change_sentence(text: str) -> Sentence:
    return Sentence(text=text, claim_ids=["r19", "r23"], calculation_ids=["k1"])


def test_a_calculated_change_citing_its_calculation_and_claims_is_published() -> None:
    result = checked(change_sentence("Revenue grew from $ 42,879 to $ 46,298, +8.0% (calculated)."))
    assert [s.text for s in result.summary] == [
        "Revenue grew from $ 42,879 to $ 46,298, +8.0% (calculated)."
    ]
    assert [c.text for c in result.calculations] == ["+8.0%"]
    assert result.dropped == []


def test_a_number_the_calculation_does_not_give_is_dropped() -> None:
    result = checked(change_sentence("Revenue grew +9.0% between fiscal 2019 and 2023."))
    assert result.summary == []
    assert result.dropped[0].reason == "numbers in no cited excerpt or calculation: 9.0"


def test_a_number_neither_quoted_nor_calculated_is_dropped() -> None:
    result = checked(Sentence(text="Revenue grew 8% to $ 46,298.", claim_ids=["r19", "r23"]))
    assert result.summary == []
    assert result.dropped[0].reason == "numbers in no cited excerpt: 8"


def test_a_calculation_whose_stated_result_is_not_what_code_computes_is_dropped() -> None:
    wrong = revenue_change().model_copy(update={"value": 9.0, "text": "+9.0%"})
    result = checked(change_sentence("Revenue grew +9.0%."), calculations=[wrong])
    assert result.calculations == []
    assert result.summary == []
    assert "is not what code computes" in result.dropped[0].reason
    assert result.dropped[1].reason == "cites calculations that did not pass the check: k1"


def test_a_calculation_whose_input_is_not_in_its_claim_is_dropped() -> None:
    calculation = revenue_change()
    made_up = calculation.inputs[0].model_copy(update={"text": "$ 40,000", "value": 40000})
    forged = Calculator("en").percent_change(made_up, calculation.inputs[1])
    result = checked(change_sentence("Revenue grew +15.7%."), calculations=[forged])
    assert result.calculations == []
    assert result.dropped[0].reason == "the input '$ 40,000' is in none of its claims' quoted text"


def test_an_input_whose_value_is_not_what_its_text_states_is_dropped() -> None:
    calculation = revenue_change()
    inflated = calculation.inputs[0].model_copy(update={"value": 30000})
    forged = Calculator("en").percent_change(inflated, calculation.inputs[1])
    result = checked(calculations=[forged])
    assert result.calculations == []
    assert "is not what '$ 42,879' states" in result.dropped[0].reason


def test_an_input_with_a_scale_its_claim_does_not_print_is_dropped() -> None:
    calculation = revenue_change()
    billions = [
        f.model_copy(update={"unit": "$ billion", "value": f.value * 1e9})
        for f in calculation.inputs
    ]
    forged = Calculator("en").difference(*billions)
    result = checked(calculations=[forged])
    assert result.calculations == []
    assert "is not what its claims print" in result.dropped[0].reason


def test_a_calculation_citing_a_rejected_claim_is_dropped() -> None:
    rejected = R19.model_copy(update={"status": ClaimStatus.rejected})
    result = checked(change_sentence("Revenue grew +8.0%."), claims=[rejected, R23])
    assert result.calculations == []
    assert result.dropped[0].reason == "an input cites claims that are not verified: r19"
    assert result.dropped[1].reason == "cites claims that are not verified: r19"


def test_a_calculation_with_no_inputs_or_an_unknown_id_is_dropped() -> None:
    empty = Calculation.model_construct(**{**revenue_change().model_dump(), "inputs": []})
    result = checked(change_sentence("Revenue grew +8.0%."), calculations=[empty])
    assert result.dropped[0].reason == "a calculation with no inputs"
    invented = checked(change_sentence("Revenue grew +8.0%."), calculations=[])
    assert invented.dropped[0].reason == "cites calculations that did not pass the check: k1"


def test_a_sentence_must_cite_the_claims_of_the_calculation_it_states() -> None:
    sentence = Sentence(text="Revenue grew +8.0%.", claim_ids=["r23"], calculation_ids=["k1"])
    result = checked(sentence)
    assert result.dropped[0].reason == "states k1 without citing its claims: r19"


def test_incomparable_inputs_are_dropped() -> None:
    calculation = revenue_change()
    other = calculation.inputs[1].model_copy(update={"entity": "Circuit City"})
    forged = calculation.model_copy(update={"inputs": [calculation.inputs[0], other]})
    result = checked(calculations=[forged])
    assert result.dropped[0].reason.startswith("the figures are of different entities")


def table(*cells: TableCell | None) -> FiguresTable:
    return FiguresTable(
        id="t1",
        title="Revenue",
        columns=["February 2, 2019", "January 28, 2023", "Change"],
        rows=[TableRow(label="Revenue", cells=list(cells))],
    )


def test_a_table_cell_with_a_number_its_claims_do_not_print_is_dropped() -> None:
    cells = [
        TableCell(text="$ 42,879", claim_ids=["r19"]),
        TableCell(text="$ 46,999", claim_ids=["r23"]),
        TableCell(text="+8.0%", claim_ids=["r19", "r23"], calculation_id="k1"),
    ]
    result = checked(tables=[table(*cells)])
    (kept,) = result.tables
    assert kept.columns == ["February 2, 2019", "Change"]
    assert [c.text if c else None for c in kept.rows[0].cells] == ["$ 42,879", "+8.0%"]
    assert result.dropped[0].reason == "numbers in no cited excerpt: 46,999"


def test_a_table_left_with_one_cell_is_dropped() -> None:
    cells = [
        TableCell(text="$ 42,879", claim_ids=["r19"]),
        TableCell(text="$ 46,999", claim_ids=["r23"]),
        TableCell(text="+9.0%", claim_ids=["r19", "r23"], calculation_id="k1"),
    ]
    result = checked(tables=[table(*cells)])
    assert result.tables == []
    assert result.dropped[-1].reason == "fewer than two cells passed the check"


def test_a_column_label_with_a_year_no_claim_prints_drops_the_table() -> None:
    cells = [
        TableCell(text="$ 42,879", claim_ids=["r19"]),
        TableCell(text="$ 46,298", claim_ids=["r23"]),
        None,
    ]
    bad = table(*cells).model_copy(update={"columns": ["2019", "2024", "Change"]})
    result = checked(tables=[bad])
    assert result.tables == []
    assert "2024" in result.dropped[-1].reason


def test_the_sample_analyst_report_passes_whole() -> None:
    report = figures_report()
    draft = Draft.of_report(report)
    result = check_draft(draft, report.claims)
    assert result.dropped == []
    assert (result.summary, result.sections) == (report.summary, report.sections)
    assert (result.tables, result.calculations) == (report.tables, report.calculations)


def test_check_sections_accepts_the_calculations_it_is_given() -> None:
    sentence = change_sentence("Revenue grew +8.0% (calculated).")
    sections = [Section(title="Change", sentences=[sentence])]
    kept, dropped = check_sections(sections, CLAIMS, [revenue_change()])
    assert kept == sections
    assert dropped == []
    kept, dropped = check_sections(sections, CLAIMS)
    assert kept == []
    assert dropped[0].reason.startswith("cites calculations that did not pass")
