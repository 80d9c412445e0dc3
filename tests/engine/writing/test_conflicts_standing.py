"""Conflicts put the primary source first, then the newer by the sources' own dates."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.contracts import Claim, ClaimStatus, Standing
from engine.writing.conflicts import find_conflicts

STATEMENT = "A potência instalada de geração distribuída no Nordeste é de {} MW em 2024."


def claim(
    claim_id: str, megawatts: str, standing: Standing | None, published: str = "", day: int = 1
) -> Claim:
    text = STATEMENT.format(megawatts)
    return Claim(
        id=claim_id,
        statement=text,
        url=f"https://example.org/{claim_id}",
        excerpt=text,
        accessed_at=datetime(2025, 5, day, tzinfo=UTC),
        source_sha256="a" * 64,
        subagent="s1",
        subquestion="s1",
        status=ClaimStatus.verified,
        published=published,
        standing=standing,
    )


def test_the_regulator_comes_before_the_blog_read_later() -> None:
    blog = claim("blog", "5.100", "other", "2024-06-01", day=9)
    aneel = claim("aneel", "4.800", "primary", "2024-05-01", day=1)
    assert find_conflicts([blog, aneel])[0].claim_ids == ["aneel", "blog"]
    assert find_conflicts([aneel, blog])[0].claim_ids == ["aneel", "blog"]


def test_between_primary_sources_the_newer_date_comes_first() -> None:
    older = claim("older", "4.800", "primary", "2024-02-01", day=9)
    newer = claim("newer", "5.100", "primary", "2024-07-15", day=1)
    assert find_conflicts([older, newer])[0].claim_ids == ["newer", "older"]


def test_press_comes_before_a_forum_and_after_a_filing() -> None:
    press = claim("press", "4.800", "secondary", "2024-01-01")
    forum = claim("forum", "5.100", "other", "2024-09-01")
    filing = claim("filing", "4.900", "primary", "2023-12-31")
    order = {tuple(c.claim_ids) for c in find_conflicts([forum, press, filing])}
    assert order == {("press", "forum"), ("filing", "press"), ("filing", "forum")}


def test_claims_of_reports_before_standings_order_by_access_as_before() -> None:
    first = claim("first", "4.800", None, day=1)
    later = claim("later", "5.100", None, day=3)
    assert find_conflicts([first, later])[0].claim_ids == ["later", "first"]
