from __future__ import annotations

import pytest

from engine.contracts import ClaimStatus, Conflict, Figure, Report, Sentence, Usage
from engine.writing.calculator import Calculator
from evals.cases import Case, RequiredItem
from evals.metrics import (
    cites,
    gap_declared,
    has_terms,
    measure,
)
from evals.totals import totals
from tests.support.eval_builders import claim, report, row

LAW = "https://example.gov/l14300"
FILING = "https://acme.test/10k.pdf"
MICRO = "XI - microgeração distribuída: potência instalada menor ou igual a **75 kW** (setenta e cinco quilowatts)"


def _case(*items: RequiredItem, gaps: tuple[str, ...] = ()) -> Case:
    return Case(id="c", question="Q?", required=items, expected_gaps=gaps)


def _law_item(*terms: str) -> RequiredItem:
    return RequiredItem(topic="limite", urls=frozenset({LAW}), terms=terms)


def test_a_required_item_is_found_in_a_rechecked_published_claim() -> None:
    c = claim(LAW, MICRO)

    metrics = measure(report([c]), _case(_law_item("75 kW")), passing={c.id})

    assert (metrics.required_found, metrics.required_total) == (1, 1)
    assert metrics.missing_required == ()


def test_a_required_item_may_be_in_the_context_quoted_with_the_excerpt() -> None:
    item = claim(LAW, "I - existentes na data de publicação desta Lei;").model_copy(
        update={"context": "Art. 26. Não se aplicam até 31 de dezembro de 2045 às unidades:"}
    )

    metrics = measure(report([item]), _case(_law_item("31 de dezembro de 2045")), {item.id})

    assert metrics.required_found == 1


def test_a_required_item_is_not_found_without_its_terms_or_document() -> None:
    wrong_terms = claim(LAW, "Art. 26. Os créditos expiram em 60 (sessenta) meses.")
    wrong_document = claim("https://other.gov/lei", MICRO)
    claims = [wrong_terms, wrong_document]

    metrics = measure(report(claims), _case(_law_item("75 kW")), {c.id for c in claims})

    assert metrics.required_found == 0
    assert metrics.missing_required == ("limite",)


def test_a_claim_failing_the_recheck_finds_nothing_whatever_its_status() -> None:
    verified_in_run = claim(LAW, MICRO, status=ClaimStatus.verified)

    metrics = measure(report([verified_in_run]), _case(_law_item("75 kW")), passing=set())

    assert metrics.required_found == 0
    assert (metrics.verified_claims, metrics.published_claims) == (0, 1)


def test_a_v1_pending_claim_counts_only_when_the_recheck_passes_it() -> None:
    pending = claim(LAW, MICRO, status=ClaimStatus.pending)
    failing = claim(
        LAW, "a sentence the v1 writer attributed to the wrong source", status=ClaimStatus.pending
    )
    v1 = report([pending, failing], architecture="v1")

    metrics = measure(v1, _case(_law_item("75 kW")), passing={pending.id})

    assert (metrics.verified_claims, metrics.published_claims) == (1, 2)
    assert metrics.required_found == 1


def test_unpublished_board_claims_count_on_the_board_only() -> None:
    published = claim(LAW, "Art. 26. Os créditos expiram em 60 (sessenta) meses.")
    left_out = claim(LAW, MICRO)
    r = report([published, left_out], [(published.statement, [published.id])])

    metrics = measure(r, _case(_law_item("75 kW")), {published.id, left_out.id})

    assert metrics.published_claims == 1
    assert (metrics.required_found, metrics.required_on_board) == (0, 1)


def test_pages_count_within_the_slack() -> None:
    item = RequiredItem(topic="capex", urls=frozenset({FILING}), page=60, page_slack=1)

    assert cites(item, f"{FILING}#page=60")
    assert cites(item, f"{FILING}#page=59")
    assert cites(item, f"{FILING}#page=61")
    assert not cites(item, f"{FILING}#page=62")
    assert not cites(item, FILING)  # no page cited: not the gold page
    assert not cites(item, "https://acme.test/other.pdf#page=60")


def test_wiki_pages_match_by_path_on_any_host() -> None:
    item = RequiredItem(topic="Lilu (mythology)", path="/wiki/Lilu_(mythology)")
    accent = RequiredItem(topic="Alû", path="/wiki/Alû")

    assert cites(item, "http://127.0.0.2:8080/wiki/Lilu_(mythology)")
    assert cites(item, "https://en.wikipedia.org/wiki/Lilu_%28mythology%29")
    assert cites(accent, "http://127.0.0.2:8080/wiki/Al%C3%BB")
    assert not cites(item, "http://127.0.0.2:8080/wiki/Lilu")


def test_terms_ignore_case_whitespace_and_emphasis() -> None:
    assert has_terms("menor ou igual a **75   kW** (setenta)", ["75 kw"])
    assert has_terms("pelo prazo de 1 (um)\nano", ["1 (um) ano", "PRAZO"])
    assert not has_terms("menor ou igual a 5 MW", ["5 MW", "3 MW"])


def test_a_number_no_rechecked_cited_excerpt_holds_is_unsupported() -> None:
    backed = claim(LAW, "Os créditos expiram em 60 (sessenta) meses após o faturamento.")
    unbacked = claim(LAW, "Os créditos de energia expiram após o prazo legal de faturamento.")
    sentences = [
        ("Os créditos expiram em 60 meses.", [backed.id]),
        ("Os créditos expiram em 36 meses.", [unbacked.id]),
        ("Os créditos expiram após o faturamento.", [unbacked.id]),
    ]

    metrics = measure(report([backed, unbacked], sentences), _case(), {backed.id, unbacked.id})

    assert metrics.unsupported_numbers == 1
    assert metrics.numeric_sentences == 2


def test_a_period_from_the_column_header_quoted_as_context_is_supported() -> None:
    row = claim(LAW, "Operating Profit 11,512 11,162").model_copy(update={"context": "2022 2021"})
    sentences = [
        ("Operating Profit — 2022: 11,512; 2021: 11,162", [row.id]),
        ("Operating Profit — 2020: 10,080", [row.id]),
    ]

    metrics = measure(report([row], sentences), _case(), {row.id})

    assert metrics.unsupported_numbers == 1  # 2020 and 10,080 are quoted nowhere


def test_the_provision_a_sentence_names_is_backed_by_the_one_the_verifier_read() -> None:
    c = claim(LAW, "Os créditos expiram em 60 (sessenta) meses após o faturamento.")
    c = c.model_copy(update={"provision": "Art. 13"})
    sentences = [
        ("Art. 13: Os créditos expiram em 60 (sessenta) meses após o faturamento.", [c.id]),
        ("Art. 14: Os créditos expiram em 60 (sessenta) meses após o faturamento.", [c.id]),
    ]

    metrics = measure(report([c], sentences), _case(), {c.id})

    assert metrics.unsupported_numbers == 1  # art. 14 is not where the page prints it


def test_a_number_backed_only_by_a_claim_failing_the_recheck_is_unsupported() -> None:
    c = claim(LAW, "Os créditos expiram em 60 (sessenta) meses após o faturamento.")

    metrics = measure(report([c], [("Valem 60 meses.", [c.id])]), _case(), passing=set())

    assert metrics.unsupported_numbers == 1


def test_v1_uncited_prose_is_published_and_counted() -> None:
    c = claim(LAW, MICRO)
    v1 = report([c], architecture="v1", dropped=["O mercado cresceu 40% em 2023.", "Sem número."])
    final = report([c], architecture="final", dropped=["O mercado cresceu 40% em 2023."])

    v1_metrics = measure(v1, _case(), {c.id})
    final_metrics = measure(final, _case(), {c.id})

    assert (v1_metrics.uncited_sentences, v1_metrics.unsupported_numbers) == (2, 1)
    # The final post-check kept its dropped sentence out of the report.
    assert (final_metrics.uncited_sentences, final_metrics.unsupported_numbers) == (0, 0)


@pytest.mark.parametrize(
    ("expected", "declared", "matched"),
    [
        (
            "tamanho de mercado no Nordeste",
            "Fonte verificada que responda: Tamanho e crescimento do mercado: energia no Nordeste",
            True,
        ),
        ("players do residencial", "Concorrentes: energia solar residencial", True),
        ("tamanho de mercado no Nordeste", "Regulação e marco legal: energia solar", False),
        ("de o a", "anything", False),
    ],
)
def test_gap_matching_by_half_the_terms(expected: str, declared: str, matched: bool) -> None:
    assert gap_declared(expected, [declared]) is matched


def test_gaps_and_spend_are_reported() -> None:
    r = report(
        [],
        [],
        gaps=["Tamanho do mercado no Nordeste"],
        usage=Usage(model_calls=3, input_tokens=900, output_tokens=80),
        usd=0.25,
        partial=True,
    )
    case = _case(gaps=("tamanho de mercado no Nordeste", "players do residencial"))

    metrics = measure(r, case, set())

    assert (metrics.gaps_declared, metrics.gaps_expected) == (1, 2)
    assert metrics.missing_gaps == ("players do residencial",)
    assert metrics.partial
    assert (metrics.usd, metrics.model_calls, metrics.input_tokens, metrics.output_tokens) == (
        0.25,
        3,
        900,
        80,
    )


def test_conflicts_and_claims_quoted_with_context_are_counted() -> None:
    plain = claim("https://example.org/a", "A capacidade cresceu 40% em 2023 no Nordeste.")
    framed = claim(
        "https://example.org/b", "II - 100% (cem por cento) a partir de 2029."
    ).model_copy(update={"context": "deve considerar a incidência:"})
    r = report([plain, framed]).model_copy(
        update={"conflicts": [Conflict(claim_ids=[framed.id, plain.id], measure="m", unit="%")]}
    )
    metrics = measure(r, _case(), {plain.id, framed.id})
    assert (metrics.conflicts_declared, metrics.context_claims) == (1, 1)
    rows = [row("final", "a", conflicts_declared=1, context_claims=1), row("final", "b")]
    assert (totals(rows, "final").conflicts_declared, totals(rows, "final").context_claims) == (
        1,
        1,
    )


def test_totals_add_up_per_architecture() -> None:
    rows = [
        row("final", "a", required_found=2, required_total=2, seconds=1.0),
        row("final", "b", required_found=0, required_total=2, seconds=3.0, partial=True),
        row("v1", "a", verified_claims=1, published_claims=4, usd=0.5),
    ]

    final, v1 = totals(rows, "final"), totals(rows, "v1")

    assert (final.cases, final.required_found, final.required_total) == (2, 2, 4)
    assert final.recall == 0.5
    assert final.cases_complete == 1
    assert (final.seconds_mean, final.seconds_max, final.partial) == (2.0, 3.0, 1)
    assert v1.pass_rate == 0.25
    assert v1.usd_mean == 0.5
    assert totals(rows, "other").recall is None


def _revenue(year: str, value: float, printed: str, cid: str) -> Figure:
    return Figure(
        measure="Revenue", period=year, value=value, unit="$ million", text=printed, claim_ids=[cid]
    )


def _change_report(value_shift: float = 0.0) -> tuple[Report, set[str]]:
    old = claim(FILING, "Revenue — February 2, 2019: $42,879", page_text="p1")
    new = claim(FILING, "Revenue — January 28, 2023: $46,298", page_text="p2")
    calculation = Calculator("en").percent_change(
        _revenue("2019", 42879, "$42,879", old.id), _revenue("2023", 46298, "$46,298", new.id)
    )
    calculation = calculation.model_copy(update={"value": calculation.value + value_shift})
    said = Sentence(
        text=f"Revenue grew {calculation.text} from $42,879 to $46,298.",
        claim_ids=[old.id, new.id],
        calculation_ids=[calculation.id],
    )
    r = report([old, new]).model_copy(update={"summary": [said], "calculations": [calculation]})
    return r, {old.id, new.id}


def test_a_calculated_figure_is_supported_through_the_calculator_only() -> None:
    r, passing = _change_report()
    metrics = measure(r, _case(), passing)
    assert (metrics.unsupported_numbers, metrics.calculated_figures) == (0, 1)

    wrong, passing = _change_report(value_shift=1.0)  # not what its inputs compute
    assert measure(wrong, _case(), passing).unsupported_numbers == 1
    r, _ = _change_report()
    # Inputs failing the re-check back neither the calculation nor the rows' own sentences.
    assert measure(r, _case(), set()).unsupported_numbers == 3


def test_published_sentences_that_are_fragments_are_counted() -> None:
    c = claim(FILING, "Adjusted operating income was $1,250 million ($35 million net of")
    whole = claim(FILING, "Revenue was $43.6 billion in fiscal 2023.")
    row_claim = claim(FILING, "Revenue — 2023: $46,298; 2019: $42,879")
    r = report([c, whole, row_claim])
    metrics = measure(r, _case(), {c.id, whole.id, row_claim.id})
    assert metrics.fragments == 1
    summary = [Sentence(text="and revenue rose 5%.", claim_ids=[whole.id])]
    assert measure(r.model_copy(update={"summary": summary}), _case(), set()).fragments == 2
    rows = [row("final", "a", fragments=2, calculated_figures=1), row("final", "b", fragments=1)]
    assert (totals(rows, "final").fragments, totals(rows, "final").calculated_figures) == (3, 1)
