"""Time-aware summaries: the state now leads with the newest figure and its period; change
over time states every dated figure in date order. Every draft passes the post-check."""

from engine.contracts import Claim, Draft, Plan, Subquestion
from engine.planning.briefs import make_brief
from engine.text.questions import asks_current, asks_over_time
from engine.verify.draft import check_draft
from engine.writing.verbatim import verbatim_draft
from tests.support.render_samples import build_claim


def row(claim_id: str, excerpt: str, years: str, url: str) -> Claim:
    return build_claim(
        claim_id,
        statement=excerpt,
        excerpt=excerpt,
        context=f"Years ended December 31, {years}",
        url=url,
        title=url.rsplit("/", 1)[-1],
        subquestion="s1",
    )


FILINGS = [
    row(
        "a23", "Total revenue 4,800 4,500", "2023 2022", "https://ex.org/acme_2023_10k.pdf#page=40"
    ),
    row(
        "a24", "Total revenue 5,100 4,800", "2024 2023", "https://ex.org/acme_2024_10k.pdf#page=41"
    ),
]


def draft(question: str, claims: list[Claim]) -> Draft:
    brief = make_brief(question)
    plan = Plan(question=question, subquestions=[Subquestion(id="s1", text=question)])
    written = verbatim_draft(brief, plan, claims)
    assert check_draft(written, claims, language=brief.language).dropped == []
    return written


def test_questions_about_now_and_about_change_are_told_apart() -> None:
    assert asks_current("How many people does Acme employ today?")
    assert asks_current("Qual é a capacidade instalada atualmente?")
    assert not asks_current("What is 3M's current ratio in FY2022?")  # "current" is a measure
    assert asks_over_time("Como evoluiu a geração distribuída desde 2019?")
    assert not asks_current("How has revenue evolved since 2019 until today?")
    assert not asks_over_time("What was Acme's revenue in 2023?")


def dated(claim_id: str, statement: str, published: str, excerpt: str = "") -> Claim:
    """A claim of subquestion s1 from a source published on `published` (its excerpt the
    statement itself unless given)."""
    return build_claim(
        claim_id,
        statement=statement,
        excerpt=excerpt or statement,
        subquestion="s1",
        published=published,
    )


def test_the_state_now_leads_with_the_newest_statement() -> None:
    older = dated("e22", "Acme employed 1,200 people at the end of 2022.", "2023-02-01")
    newer = dated("e24", "Acme employs 1,500 people as of December 2024.", "2025-01-10")
    summary = draft("How many people does Acme employ today?", [older, newer]).summary
    assert [s.claim_ids for s in summary][:2] == [["e24"], ["e22"]]


def test_a_statement_without_a_year_is_dated_by_its_source() -> None:
    older = dated(
        "o", "Acme has 1,200 employees.", "2022", "Acme has 1,200 employees on its payroll."
    )
    newer = dated(
        "n", "Acme has 1,500 employees.", "2024-06", "Acme has 1,500 employees on its payroll."
    )
    summary = draft("How many employees does Acme have today?", [older, newer]).summary
    assert summary[0].claim_ids == ["n"]


def test_the_state_now_leads_with_the_newest_figure_and_its_period() -> None:
    lead = draft("What is Acme's total revenue today?", FILINGS).summary[0]
    assert lead.text == "Total revenue: 5,100 in 2024, the newest figure."
    assert lead.claim_ids == ["a24"]


def test_change_over_time_states_every_dated_figure_in_date_order() -> None:
    written = draft("How has Acme's total revenue evolved over time?", FILINGS)
    assert [s.text for s in written.summary[:3]] == [
        "Total revenue was 4,500 in 2022.",
        "Total revenue was 4,800 in 2023.",
        "Total revenue was 5,100 in 2024.",
    ]
    assert written.tables  # the figures table shows the series


def test_in_portuguese_the_lead_says_newest_in_its_words() -> None:
    lead = draft("Qual é a receita total (total revenue) da Acme hoje?", FILINGS).summary[0]
    assert lead.text == "Total revenue: 5,100 em 2024, o dado mais recente."
