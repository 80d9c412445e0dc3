import json
from collections.abc import Callable
from datetime import date

import pytest

from engine.contracts import Plan, Subquestion, Support
from engine.models.claude import ClaudeConfig, ClaudeModel, InvalidAnswer, claude_model_from_config
from engine.models.claude.prompts import CRITERIA_SYSTEM, JUDGE_SYSTEM
from tests.support.anthropic_server import (
    Body,
    Reply,
    ScriptedAnthropic,
    first_user_text,
    json_message,
    system_text,
)
from tests.support.claude_claims import CREDITS, MICRO, MINI
from tests.support.claude_turns import JUDGE_MODEL, MODEL, meter

PLAN = Plan(
    question="Limites e créditos?",
    sufficient_when=["Limite da microgeração", "Validade dos créditos"],
    subquestions=[
        Subquestion(id="s1", text="Limite da microgeração?"),
        Subquestion(id="s2", text="Validade dos créditos?"),
    ],
)


def labels_for(verdicts: dict[str, str]) -> Callable[[Body], Reply]:
    """Label the claims each request asks about, as the verdicts say."""

    def reply(body: Body) -> Reply:
        asked = [
            json.loads(line)["id"]
            for line in first_user_text(body).splitlines()
            if line.startswith("{")
        ]
        return json_message({"labels": [{"id": i, "support": verdicts[i]} for i in asked]})

    return reply


async def test_the_judge_labels_every_claim_in_batches_with_its_own_model(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel]
) -> None:
    model = make_model(judge_batch_size=2)
    anthropic.script(labels_for({"c1": "entails", "c2": "contradicts", "c3": "neutral"}))
    judged = await model.judge([MICRO, CREDITS, MINI], meter())
    assert judged is not None
    assert [(c.id, c.support) for c in judged] == [
        ("c1", Support.entails),
        ("c2", Support.contradicts),
        ("c3", Support.neutral),
    ]
    first, second = anthropic.requests
    assert system_text(first.body) == JUDGE_SYSTEM
    assert first.body["model"] == JUDGE_MODEL
    assert '"id": "c2"' in first_user_text(first.body)
    assert '"id": "c3"' not in first_user_text(first.body)
    assert '"id": "c3"' in first_user_text(second.body)


async def test_a_missing_label_is_repaired_then_fails(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    partial = json_message({"labels": [{"id": "c1", "support": "entails"}]})
    anthropic.script([partial, partial])
    with pytest.raises(InvalidAnswer, match=r"support judge: .*no label for c2"):
        await model.judge([MICRO, CREDITS], meter())
    assert "no label for c2" in anthropic.requests[1].body["messages"][2]["content"][0]["text"]


async def test_the_judge_can_be_turned_off(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel]
) -> None:
    assert await make_model(judge=False).judge([MICRO], meter()) is None
    assert anthropic.requests == []


async def test_unmet_criteria_are_members_of_the_plan(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    anthropic.script([json_message({"unmet": ["  validade dos CRÉDITOS "]})])
    assert await model.unmet_criteria(PLAN, [MICRO], meter()) == ["Validade dos créditos"]
    body = anthropic.requests[0].body
    assert system_text(body) == CRITERIA_SYSTEM
    assert body["model"] == MODEL
    assert "- Limite da microgeração" in first_user_text(body)


async def test_the_criteria_check_and_the_judge_are_told_today_s_date(
    anthropic: ScriptedAnthropic, config: ClaudeConfig
) -> None:
    """A criterion asking for "recent figures" is checked against the day it is asked on."""
    model = claude_model_from_config(config, today=lambda: date(2031, 5, 17))
    try:
        judged = json_message({"labels": [{"id": MICRO.id, "support": "entails"}]})
        anthropic.script([json_message({"unmet": []}), judged])
        await model.unmet_criteria(PLAN, [MICRO], meter())
        await model.judge([MICRO], meter())
    finally:
        await model.aclose()
    criteria, judge = (request.body for request in anthropic.requests)
    assert first_user_text(criteria).startswith("Today is 2031-05-17")
    assert first_user_text(judge).startswith("Today is 2031-05-17")


async def test_an_invented_criterion_is_refused(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    invented = json_message({"unmet": ["Preço médio da energia"]})
    anthropic.script([invented, invented])
    with pytest.raises(InvalidAnswer, match="not one of the criteria given"):
        await model.unmet_criteria(PLAN, [MICRO], meter())


async def test_with_nothing_verified_every_criterion_is_unmet_at_no_cost(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    assert await model.unmet_criteria(PLAN, [], meter()) == PLAN.sufficient_when
    assert anthropic.requests == []
