"""The verifier stamps each claim with its source's date and standing from what was read."""

import asyncio
from datetime import UTC, datetime

from engine.contracts import Claim, ClaimStatus
from engine.snapshots import InMemorySnapshotStore, Snapshot
from engine.sources.standing import DEFAULT_RULES, StandingRules
from engine.verify.service import ClaimVerifier
from tests.support.pages_source import PagesSource

TEXT = "A ANEEL registrou 30 GW de geração distribuída no país em março de 2024."


def posted(snapshot: Snapshot, **fields: object) -> Claim:
    return Claim(
        id="c1",
        statement="A geração distribuída chegou a 30 GW.",
        url=snapshot.url,
        excerpt="registrou 30 GW de geração distribuída no país",
        accessed_at=datetime(2025, 1, 2, tzinfo=UTC),
        source_sha256=snapshot.sha256,
        subagent="s1",
        subquestion="q1",
        **fields,  # type: ignore[arg-type]
    )


def verified(snapshot: Snapshot, claim: Claim, rules: StandingRules = DEFAULT_RULES) -> Claim:
    store = InMemorySnapshotStore()
    asyncio.run(store.put(snapshot))
    return asyncio.run(ClaimVerifier(store, PagesSource(), rules).verify(claim))


def test_a_verified_claim_carries_its_sources_date_and_standing() -> None:
    page = Snapshot(url="https://www.gov.br/aneel/gd", text=TEXT, published="2024-04-10")
    checked = verified(page, posted(page))
    assert checked.status is ClaimStatus.verified
    assert (checked.published, checked.standing) == ("2024-04-10", "primary")


def test_what_a_poster_says_of_its_source_is_replaced_by_what_was_read() -> None:
    blog = Snapshot(url="https://solar.blogspot.com/gd", text=TEXT)
    checked = verified(blog, posted(blog, published="2030-01-01", standing="primary"))
    assert (checked.published, checked.standing) == ("2024-03", "other")  # its text's date


def test_the_deployments_rules_decide() -> None:
    blog = Snapshot(url="https://solar.blogspot.com/gd", text=TEXT)
    ours = StandingRules(domains=(("solar.blogspot.com", "secondary"),), documents=())
    assert verified(blog, posted(blog), ours.before(DEFAULT_RULES)).standing == "secondary"
