"""v1's wrong citations come from its structure: once the researcher's sentences are pooled
into one summary, the writer can only guess a sentence's source from the source list."""

from engine.contracts import ClaimStatus, Report
from engine.models.extractive import ExtractiveModel
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.snapshots import split_page
from engine.v1 import OfflineV1Roles, V1Pipeline
from engine.verify.excerpts import verify_on_page
from tests.support.pages_source import PagesSource

TARIFFS = "https://example.org/bahia-tariffs"
AUCTIONS = "https://example.org/wind-auctions"
QUESTION = "How did residential solar tariffs in Bahia change in 2023?"
# A fact of the auctions page, worded like the tariffs page's title and opening.
MIXED = "Installers said residential solar tariffs in Bahia doubled their sales in 2023."


def mixed_sources() -> PagesSource:
    pages = PagesSource()
    pages.add(
        TARIFFS,
        "Residential solar tariffs in Bahia rose 12% in 2023 after the new distribution rules.",
        title="Residential solar tariffs in Bahia, 2023",
    )
    pages.add(
        AUCTIONS,
        # The opening (the search snippet) is about wind; the solar sentence comes later.
        "Wind power auctions in Ceará drew record bids from developers this year. "
        "Onshore wind farms in the Northeast now supply a large share of the grid, and "
        "developers expect transmission lines to limit new projects until 2027.\n" + MIXED,
        title="Wind power auctions",
    )
    return pages


def checked(report: Report, pages: PagesSource) -> list[ClaimStatus]:
    """Every claim of the report verified against the snapshot of the source it cites."""
    return [
        verify_on_page(claim, pages.documents[split_page(claim.url)[0]]).status
        for claim in report.claims
    ]


async def test_v1_cites_a_sentence_of_one_page_to_another_and_the_verifier_rejects_it() -> None:
    pages = mixed_sources()
    report = await V1Pipeline(OfflineV1Roles(), pages, pages).run(make_brief(QUESTION))
    claims = {c.statement: c for c in report.claims}
    assert MIXED in claims, "the researcher should have summarised the auctions page's sentence"
    wrong = claims[MIXED]
    assert wrong.url == TARIFFS  # guessed from the tariffs page's title and snippet
    assert wrong.id in report.cited_claim_ids()
    on_cited_page = verify_on_page(wrong, pages.documents[TARIFFS])
    assert on_cited_page.status is ClaimStatus.rejected
    assert on_cited_page.reason == "excerpt not found in the source text"
    # The sentence is real: cited to the page it came from, it verifies.
    on_own_page = verify_on_page(
        wrong.model_copy(update={"url": AUCTIONS}), pages.documents[AUCTIONS]
    )
    assert on_own_page.status is ClaimStatus.verified
    statuses = checked(report, pages)
    assert statuses.count(ClaimStatus.rejected) >= 1
    assert statuses.count(ClaimStatus.verified) >= 1


async def test_the_final_architecture_on_the_same_sources_cites_the_right_page() -> None:
    pages = mixed_sources()
    report = await Orchestrator(ExtractiveModel(), pages, pages).run(make_brief(QUESTION))
    cited = [report.claim(cid) for cid in report.cited_claim_ids()]
    assert cited
    assert all(c.status is ClaimStatus.verified for c in cited)
    assert set(checked(report, pages)) == {ClaimStatus.verified}
    by_statement = {c.statement: c.url for c in cited}
    assert by_statement[MIXED] == AUCTIONS
