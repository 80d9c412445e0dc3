from __future__ import annotations

import pytest

from engine.contracts import Claim, ClaimStatus, Plan, Report, Subquestion
from engine.snapshots import Snapshot
from engine.sources.protocols import FetchError
from engine.sources.web.fetcher import WebFetcher
from engine.verify.digest import UNSEALED, sealed
from engine.verify.refetch import judge, refetch_claims
from engine.verify.result import CheckResult, Outcome
from tests.support.page_server import Handler, PageServer, page
from tests.support.pdfs import pdf_bytes

EXCERPT = "A capacidade instalada chegou a 26 GW em 2023"
OTHER = "Os sistemas residenciais lideraram o crescimento do setor"


def html(*paragraphs: str) -> str:
    return (
        "<html><body><article>"
        + "".join(f"<p>{p}.</p>" for p in paragraphs)
        + "</article></body></html>"
    )


def claim_on(
    snapshot: Snapshot, excerpt: str, statement: str, claim_id: str, url: str = ""
) -> Claim:
    return Claim(
        id=claim_id,
        statement=statement,
        url=url or snapshot.url,
        excerpt=excerpt,
        accessed_at=snapshot.fetched_at,
        source_sha256=snapshot.sha256,
        subagent="a1",
        subquestion="s1",
        status=ClaimStatus.verified,
    )


def report_of(*claims: Claim) -> Report:
    plan = Plan(question="Mercado?", subquestions=[Subquestion(id="s1", text="Tamanho?")])
    return sealed(Report(question="Mercado?", plan=plan, claims=list(claims)))


async def read_then_refetched(
    server: PageServer, fetcher: WebFetcher, later: Handler | None = None
) -> tuple[Claim, CheckResult]:
    """A claim read on /gd while it serves EXCERPT and OTHER, and its report refetched once /gd
    serves `later` (the same page when None)."""
    server.routes["/gd"] = page(html(EXCERPT, OTHER))
    snapshot = await fetcher.fetch(server.url("/gd"))
    claim = claim_on(snapshot, EXCERPT, "A capacidade chegou a 26 GW em 2023.", "c1")
    if later is not None:
        server.routes["/gd"] = later
    return claim, await refetch_claims(report_of(claim), fetcher.fetch)


async def test_an_unchanged_page_holds(page_server: PageServer, web_fetcher: WebFetcher) -> None:
    _, result = await read_then_refetched(page_server, web_fetcher)
    assert [c.outcome for c in result.claims] == [Outcome.holds]
    assert result.ok
    assert result.lines()[-1] == (
        "all published claims still hold: 1/1 claims hold on the live pages "
        "(0 on a changed page, 0 failed, 0 unreachable)"
    )


@pytest.mark.parametrize(
    ("later", "outcome", "reason", "line", "verdict"),
    [
        pytest.param(
            ("Atualizado em junho", EXCERPT),
            Outcome.changed,
            "excerpt still there",
            "changed",
            "all published claims still hold: 1/1 claims hold",
            id="keeps-the-excerpt-holds-but-says-it-changed",
        ),
        pytest.param(
            ("A capacidade instalada chegou a 31 GW em 2024", OTHER),
            Outcome.fails,
            "excerpt not found in the source text",
            "FAIL   ",
            "refetch FAILED: 0/1 claims hold",
            id="without-the-excerpt-fails",
        ),
    ],
)
async def test_a_changed_page_says_it_changed_and_whether_the_excerpt_is_still_there(
    later: tuple[str, ...],
    outcome: Outcome,
    reason: str,
    line: str,
    verdict: str,
    page_server: PageServer,
    web_fetcher: WebFetcher,
) -> None:
    claim, result = await read_then_refetched(page_server, web_fetcher, page(html(*later)))
    (checked,) = result.claims
    assert checked.outcome is outcome
    assert checked.fresh is not None
    assert checked.fresh.sha256 != claim.source_sha256
    assert checked.reason.startswith("page changed since accessed on ")
    assert checked.reason.endswith(reason)
    assert result.ok is (outcome is Outcome.changed)
    assert result.lines()[0].startswith(f"{line} c1 {claim.url} — page changed since")
    assert result.lines()[-1].startswith(verdict)


async def test_an_unreachable_page_is_reported_but_does_not_fail(
    page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    _, result = await read_then_refetched(page_server, web_fetcher, page("gone", status=404))
    assert [(c.outcome, c.reason) for c in result.claims] == [
        (Outcome.unreachable, "could not be read: HTTP 404 Not Found")
    ]
    assert result.ok
    assert result.count(Outcome.unreachable) == 1


async def test_each_page_is_read_once_and_rejected_claims_are_skipped(
    page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    page_server.routes["/gd"] = page(html(EXCERPT, OTHER))
    snapshot = await web_fetcher.fetch(page_server.url("/gd"))
    first = claim_on(snapshot, EXCERPT, "Chegou a 26 GW em 2023.", "c1")
    second = claim_on(snapshot, OTHER, "Residenciais lideraram.", "c2")
    rejected = claim_on(snapshot, OTHER, "Outro.", "c3").model_copy(
        update={"status": ClaimStatus.rejected, "url": page_server.url("/never")}
    )
    result = await refetch_claims(report_of(first, second, rejected), web_fetcher.fetch)
    assert [c.claim.id for c in result.claims] == ["c1", "c2"]
    assert page_server.paths().count("/gd") == 2
    assert "/never" not in page_server.paths()


async def test_a_pdf_claim_is_checked_on_its_cited_page(
    page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    page_server.routes["/r.pdf"] = page(
        pdf_bytes(["Overview of the market.", "Installed capacity reached 37 GW in 2023."]),
        "application/pdf",
    )
    snapshot = await web_fetcher.fetch(page_server.url("/r.pdf"))
    url = page_server.url("/r.pdf") + "#page=2"
    claim = claim_on(
        snapshot, "Installed capacity reached 37 GW in 2023", "37 GW in 2023.", "c1", url
    )
    wrong_page = claim.model_copy(update={"id": "c2", "url": page_server.url("/r.pdf") + "#page=1"})
    result = await refetch_claims(report_of(claim, wrong_page), web_fetcher.fetch)
    assert [c.outcome for c in result.claims] == [Outcome.holds, Outcome.fails]
    assert "not on cited page 1" in result.claims[1].reason


def test_judge_is_pure() -> None:
    snapshot = Snapshot(url="https://example.org/a", text=f"{EXCERPT}. {OTHER}.")
    claim = claim_on(snapshot, EXCERPT, "26 GW em 2023.", "c1")
    assert judge(claim, snapshot).outcome is Outcome.holds
    assert judge(claim, FetchError("timed out")).reason == "could not be read: timed out"
    numbers_gone = claim.model_copy(update={"statement": "27 GW em 2023."})
    assert judge(numbers_gone, snapshot).outcome is Outcome.fails


async def test_an_empty_report_is_ok() -> None:
    class NoFetcher:
        async def fetch(self, url: str) -> Snapshot:
            raise AssertionError("nothing to fetch")

    result = await refetch_claims(report_of(), NoFetcher().fetch)
    assert result.ok
    assert result.claims == ()


async def test_an_unsealed_report_fails_unless_allowed() -> None:
    async def no_read(url: str) -> Snapshot:
        raise AssertionError(f"nothing to fetch: {url}")

    unsealed = report_of().model_copy(update={"digest": None})
    refused = await refetch_claims(unsealed, no_read)
    assert not refused.ok
    assert refused.edited == UNSEALED
    allowed = await refetch_claims(unsealed, no_read, allow_unsealed=True)
    assert allowed.ok
    assert allowed.warnings == (UNSEALED,)
