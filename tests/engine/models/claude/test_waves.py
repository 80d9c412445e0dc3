"""A plan whose second subquestion depends on the first, planned by Claude and run by the
real Orchestrator against the scripted server: two waves, the second brief carrying the
first wave's verified claims, every prompt dated by the orchestrator's clock."""

import json
from datetime import date

from engine.contracts import ClaimStatus
from engine.models.claude import ClaudeModel
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from tests.support.anthropic_server import ScriptedAnthropic, first_user_text
from tests.support.claude_script import (
    MICRO,
    PLAN,
    QUESTION,
    subquestion_of,
    whole_report,
)
from tests.support.claude_turns import role_of
from tests.support.pages_source import PagesSource

TODAY = date(2031, 5, 17)
DEPENDENT = {
    "sufficient_when": PLAN["sufficient_when"],
    "subquestions": [PLAN["subquestions"][0], {**PLAN["subquestions"][1], "depends_on": ["s1"]}],
}


async def test_a_dependent_plan_runs_in_two_waves_the_second_brief_carrying_verified_claims(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(whole_report(DEPENDENT))
    orchestrator = Orchestrator(model, source, source, today=lambda: TODAY)
    report = await orchestrator.run(make_brief(QUESTION))

    subagents = [r.body for r in anthropic.requests if role_of(r.body) == "subagent"]
    order = [subquestion_of(body) for body in subagents]
    last_s1 = max(i for i, s in enumerate(order) if s == "s1")
    first_s2 = order.index("s2")
    assert last_s1 < first_s2  # s2's first turn comes after s1 finished

    s1_brief, s2_brief = first_user_text(subagents[0]), first_user_text(subagents[first_s2])
    assert "verified findings of the subquestions it depends on" not in s1_brief
    assert "verified findings of the subquestions it depends on" in s2_brief
    rows = [json.loads(line) for line in s2_brief.splitlines() if line.startswith('{"id"')]
    verified = {c.id: c for c in report.claims if c.status is ClaimStatus.verified}
    assert [row["statement"] for row in rows] == ["A microgeração vai até 75 kW."]
    assert rows[0]["id"] in verified
    assert verified[rows[0]["id"]].excerpt == MICRO  # the fabricated excerpt was not passed on
    assert report.plan.subquestions[1].depends_on == ["s1"]

    planner = next(r.body for r in anthropic.requests if role_of(r.body) == "planner")
    for prompt in (first_user_text(planner), s1_brief, s2_brief):
        assert "Today is 2031-05-17" in prompt
        assert "Sources: the web." in prompt
