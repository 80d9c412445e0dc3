import json

import pytest

from engine.contracts import Plan, Subquestion
from engine.models.claude import ClaudeModel, InvalidAnswer
from engine.models.claude.prompts import WRITER_SYSTEM
from engine.models.claude.writer import UNCITED
from engine.planning.briefs import make_brief
from engine.writing.verbatim import title_for
from tests.support.anthropic_server import (
    ScriptedAnthropic,
    blocks,
    first_user_text,
    json_message,
    message,
    system_text,
    text,
)
from tests.support.claude_claims import CREDITS, MICRO
from tests.support.claude_turns import meter

QUESTION = "Quais os limites da microgeração e a validade dos créditos?"
PLAN = Plan(
    question=QUESTION,
    sufficient_when=["limite da microgeração", "validade dos créditos"],
    subquestions=[
        Subquestion(id="s1", text="Qual o limite da microgeração?", title="Limites"),
        Subquestion(id="s2", text="Quanto tempo valem os créditos?", title="Créditos"),
    ],
)
DRAFT = {
    "title": "Microgeração e créditos",
    "sections": [
        {
            "title": "Limites",
            "sentences": [{"text": "A microgeração vai até 75 kW.", "claim_ids": ["c1", "c1"]}],
        },
        {
            "title": "Créditos",
            "sentences": [
                {"text": "Os créditos valem 60 meses.", "claim_ids": ["c2"]},
                {"text": "O setor cresce rapidamente.", "claim_ids": []},
            ],
        },
    ],
}


async def test_the_writer_sees_claims_only_and_returns_cited_sentences(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    anthropic.script([json_message(DRAFT)])
    draft = await model.write(make_brief(QUESTION), PLAN, [MICRO, CREDITS], meter())
    assert draft.title == "Microgeração e créditos"
    assert [s.title for s in draft.sections] == ["Limites", "Créditos"]
    limits, credits = draft.sections
    assert limits.sentences[0].claim_ids == ["c1"]
    assert credits.sentences[0].claim_ids == ["c2"]
    # An uncited sentence reaches the post-check, which drops it and records why.
    assert credits.sentences[1].claim_ids == [UNCITED]

    body = anthropic.requests[0].body
    assert system_text(body) == WRITER_SYSTEM
    assert body["model"] == model.config.model
    assert body["max_tokens"] == model.config.writer_max_tokens
    prompt = first_user_text(body)
    lines = [json.loads(line) for line in prompt.splitlines() if line.startswith('{"id"')]
    assert lines[0] == {
        "id": "c1",
        "subquestion": "s1",
        "statement": MICRO.statement,
        "excerpt": MICRO.excerpt,
        "source": "Fonte c1",
        "date": "2026-11-02",
    }
    assert "- s2 (Créditos): Quanto tempo valem os créditos?" in prompt
    assert "Brazilian Portuguese" in prompt
    assert all(b["type"] == "text" for b in blocks(body))


async def test_no_verified_claims_means_no_call(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    draft = await model.write(make_brief(QUESTION), PLAN, [], meter())
    assert draft.sections == []
    assert draft.title == title_for(make_brief(QUESTION))
    assert anthropic.requests == []


async def test_invalid_drafts_get_one_repair(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    no_sections = {"title": "Relatório", "sections": []}
    anthropic.script([json_message(no_sections), json_message(DRAFT)])
    draft = await model.write(make_brief(QUESTION), PLAN, [MICRO, CREDITS], meter())
    assert len(draft.sections) == 2
    repair = anthropic.requests[1].body["messages"][2]["content"][0]["text"]
    assert "sections: List should have at least 1 item" in repair

    anthropic.script([json_message(no_sections), message(text('{"title": 3}'))])
    with pytest.raises(InvalidAnswer, match=r"writer: .*title: Input should be a valid string"):
        await model.write(make_brief(QUESTION), PLAN, [MICRO], meter())


def test_the_writer_reservation_is_one_worst_case_call(model: ClaudeModel) -> None:
    config = model.config
    price = config.prices.price(config.model)
    assert model.write_cost_estimate_usd == pytest.approx(
        price.worst_case_usd(config.writer_prompt_tokens, config.writer_max_tokens)
    )
    assert model.write_cost_estimate_usd == pytest.approx(30_000 * 2.5 / 1e6 + 24_000 * 10 / 1e6)
