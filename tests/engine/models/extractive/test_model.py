import asyncio
from datetime import UTC, datetime

from engine.budget import InMemoryBudget, Meter
from engine.contracts import Claim, ClaimStatus, Limits, claim_id_for
from engine.models.extractive import ExtractiveModel
from engine.models.extractive.planner import extractive_plan
from engine.planning.briefs import make_brief

QUESTION = (
    "How did Best Buy's revenue and operating income change between fiscal 2019 and fiscal 2023?"
)


def _claim(subquestion: str, statement: str) -> Claim:
    url = f"file:///bestbuy.pdf#page={len(statement)}"
    return Claim(
        id=claim_id_for(url, statement),
        statement=statement,
        url=url,
        excerpt=statement,
        accessed_at=datetime(2024, 5, 1, tzinfo=UTC),
        source_sha256="0" * 64,
        subagent=subquestion,
        subquestion=subquestion,
        status=ClaimStatus.verified,
    )


def _unmet(claims: list[Claim]) -> list[str]:
    plan = extractive_plan(make_brief(QUESTION))
    meter = Meter(InMemoryBudget(Limits()))
    return asyncio.run(ExtractiveModel().unmet_criteria(plan, claims, meter))


def test_a_side_of_a_comparison_is_met_only_by_a_claim_of_its_year() -> None:
    fy2019 = _claim("s1", "Revenue — February 2, 2019: $42,879; February 3, 2018: $42,151")
    other_years = _claim("s2", "Revenue — January 29, 2022: $51,761; January 30, 2021: $47,262")
    fy2023 = _claim("s2", "Revenue — January 28, 2023: $46,298; January 29, 2022: $51,761")

    assert _unmet([fy2019, fy2023]) == []
    (gap,) = _unmet([fy2019, other_years])
    assert "fiscal 2023" in gap
    assert len(_unmet([])) == 2
