import json

import pytest

from engine.contracts import ClarifyingQuestion, Limits, Plan, Subquestion
from engine.models.claude import ClaudeModel, ClaudeTruncated, InvalidAnswer
from engine.models.claude.planner import fit_steps
from engine.models.claude.prompts import CLARIFIER_SYSTEM, PLANNER_SYSTEM
from engine.planning.briefs import make_brief
from tests.support.anthropic_server import (
    ScriptedAnthropic,
    first_user_text,
    json_message,
    message,
    system_text,
    text,
)
from tests.support.claude_turns import meter

SOLAR = "Como está o mercado de energia solar residencial no Nordeste?"
CRITERIA = [
    "Fonte que informe a potência instalada de geração distribuída solar no Nordeste",
    "Fonte que informe as regras de compensação de créditos da Lei 14.300",
]
SUBQUESTIONS = [
    {"id": "s1", "title": "Potência instalada", "text": "Qual a potência instalada solar?"},
    {"id": "s2", "title": "Regras", "text": "Quais as regras da Lei 14.300?"},
]
FREE_PLAN = {"sufficient_when": CRITERIA, "subquestions": SUBQUESTIONS}


async def test_an_ambiguous_brief_gets_questions_with_options(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    questions = [
        {"question": "Qual período?", "options": ["2023", "2024", "últimos 5 anos"]},
        {"question": "Qual segmento?", "options": ["residencial", "comercial"]},
    ]
    anthropic.script([json_message({"questions": questions})])
    asked = await model.clarify(make_brief(SOLAR), meter())
    assert asked == [ClarifyingQuestion.model_validate(q) for q in questions]
    body = anthropic.requests[0].body
    assert system_text(body) == CLARIFIER_SYSTEM
    assert SOLAR in first_user_text(body)
    assert "Brazilian Portuguese" in first_user_text(body)


async def test_a_clear_brief_gets_none_and_answers_end_the_asking(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    anthropic.script([json_message({"questions": []})])
    assert await model.clarify(make_brief(SOLAR), meter()) == []
    assert await model.clarify(make_brief(SOLAR, answers=("2024",)), meter()) == []
    assert len(anthropic.requests) == 1


async def test_more_than_three_questions_are_repaired(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    four = [{"question": f"Q{i}?", "options": ["a", "b"]} for i in range(4)]
    anthropic.script([json_message({"questions": four}), json_message({"questions": four[:3]})])
    assert len(await model.clarify(make_brief(SOLAR), meter())) == 3
    repair = anthropic.requests[1].body["messages"][-1]["content"][0]["text"]
    assert "questions: List should have at most 3 items" in repair


async def test_a_free_plan(anthropic: ScriptedAnthropic, model: ClaudeModel) -> None:
    anthropic.script([json_message(FREE_PLAN)])
    plan = await model.plan(make_brief(SOLAR, answers=("2024",)), meter())
    assert plan.question == SOLAR
    assert plan.template is None
    assert [s.id for s in plan.subquestions] == ["s1", "s2"]
    assert plan.sufficient_when == CRITERIA
    body = anthropic.requests[0].body
    assert system_text(body) == PLANNER_SYSTEM
    prompt = first_user_text(body)
    assert "- 2024" in prompt
    assert "Fixed sections" not in prompt


async def test_a_template_is_the_skeleton_and_keeps_its_titles(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    answer = {
        "sufficient_when": [f"critério {i}" for i in range(1, 5)],
        "subquestions": [
            {"id": f"s{i}", "title": f"título livre {i}", "text": f"Pergunta {i}?"}
            for i in range(1, 5)
        ],
    }
    anthropic.script([json_message(answer)])
    plan = await model.plan(make_brief(SOLAR, template="market"), meter())
    assert plan.template == "mercado"
    assert [s.title for s in plan.subquestions] == [
        "Tamanho e crescimento do mercado",
        "Principais empresas e concorrência",
        "Regulação e marco legal",
        "Tendências e riscos",
    ]
    prompt = first_user_text(anthropic.requests[0].body)
    assert "1. Tamanho e crescimento do mercado" in prompt
    assert "4. Tendências e riscos" in prompt


async def test_english_briefs_are_planned_in_english(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    anthropic.script([json_message(FREE_PLAN)])
    await model.plan(make_brief("What is the residential solar market size in Brazil?"), meter())
    assert "Write every text field in English." in first_user_text(anthropic.requests[0].body)


async def test_an_invalid_plan_gets_one_repair_with_the_error(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    duplicate = {**FREE_PLAN, "subquestions": [SUBQUESTIONS[0]] * 2}
    anthropic.script(
        [json_message(duplicate), message(text(f"```json\n{json.dumps(FREE_PLAN)}\n```"))]
    )
    payer = meter()
    plan = await model.plan(make_brief(SOLAR), payer)
    assert len(plan.subquestions) == 2
    repair = anthropic.requests[1].body["messages"]
    assert [m["role"] for m in repair] == ["user", "assistant", "user"]
    assert "subquestion ids must be unique" in repair[2]["content"][0]["text"]
    assert (await payer.budget.spend()).usage.model_calls == 2


async def test_a_plan_still_invalid_after_repair_fails_clearly(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    one_criterion = {**FREE_PLAN, "sufficient_when": CRITERIA[:1]}
    anthropic.script([json_message(one_criterion), message(text("Here is a plan: s1, s2."))])
    with pytest.raises(InvalidAnswer, match=r"planner: .*invalid after one repair.*no JSON object"):
        await model.plan(make_brief(SOLAR), meter())
    first_repair = anthropic.requests[1].body["messages"][2]["content"][0]["text"]
    assert "1 criteria for 2 subquestions" in first_repair


async def test_a_truncated_plan_gets_room_once_and_is_never_repaired(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    cut = message(text('{"sufficient_when": ["a'), stop_reason="max_tokens")
    anthropic.script([cut, cut])
    with pytest.raises(ClaudeTruncated, match="planner"):
        await model.plan(make_brief(SOLAR), meter())
    caps = [r.body["max_tokens"] for r in anthropic.requests]
    assert caps == [model.config.planner_max_tokens, 2 * model.config.planner_max_tokens]
    assert anthropic.requests[0].body["output_config"] == {"effort": "high"}


async def test_the_planner_sizes_subquestions_within_the_steps_left(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    sized = [{**SUBQUESTIONS[0], "steps": 5}, {**SUBQUESTIONS[1], "steps": 40}]
    anthropic.script([json_message({"sufficient_when": CRITERIA, "subquestions": sized})])
    plan = await model.plan(make_brief(SOLAR), meter(Limits(steps=21)))
    assert "The research has 18 steps for all its subquestions." in first_user_text(
        anthropic.requests[0].body
    )
    # 5 and 30 (the most one subagent gets) are scaled to fit the 18 steps left.
    assert [s.steps for s in plan.subquestions] == [3, 15]


def test_steps_are_kept_when_they_fit_and_missing_sizes_stay_missing() -> None:
    plan = Plan(
        question="q",
        subquestions=[
            Subquestion(id="s1", text="a", steps=6),
            Subquestion(id="s2", text="b"),
            Subquestion(id="s3", text="c", steps=1),
        ],
    )
    assert [s.steps for s in fit_steps(plan, 40).subquestions] == [6, None, 3]


async def test_a_subquestion_may_depend_on_an_earlier_one_only(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    forward = [{**SUBQUESTIONS[0], "depends_on": ["s2"]}, SUBQUESTIONS[1]]
    backward = [SUBQUESTIONS[0], {**SUBQUESTIONS[1], "depends_on": ["s1"]}]
    anthropic.script(
        [
            json_message({"sufficient_when": CRITERIA, "subquestions": forward}),
            json_message({"sufficient_when": CRITERIA, "subquestions": backward}),
        ]
    )
    plan = await model.plan(make_brief(SOLAR), meter())
    assert [s.depends_on for s in plan.subquestions] == [[], ["s1"]]
    repair = anthropic.requests[1].body["messages"][-1]["content"][0]["text"]
    assert "s1.depends_on names s2: only ids of subquestions listed before it" in repair


async def test_a_broad_brief_may_be_planned_as_ten_subquestions(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    ten = [{"id": f"s{i}", "title": f"T{i}", "text": f"Pergunta {i}?"} for i in range(1, 11)]
    criteria = [f"Fonte que responda à pergunta {i}" for i in range(1, 11)]
    anthropic.script([json_message({"sufficient_when": criteria, "subquestions": ten})])
    plan = await model.plan(make_brief(SOLAR), meter())
    assert len(plan.subquestions) == 10
