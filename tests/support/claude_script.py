"""A scripted Claude for whole-report tests: a plan, subagents that quote a law page, a
judge and a writer, each answering as the Messages API would. Shared by the orchestration
tests of the final architecture and of v1's Claude roles."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.contracts import Report, Usage
from engine.models.claude import ClaudeModel, default_price_table
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from tests.support.anthropic_server import (
    Body,
    Reply,
    ScriptedAnthropic,
    char_citation,
    cited_split,
    first_user_text,
    json_message,
    message,
    text,
    thinking,
    tool_use,
    usage,
)
from tests.support.claude_turns import by_role, claim_rows, entailing_judge
from tests.support.pages_source import LAW_TEXT, PagesSource

PRICES = default_price_table()
LAW = "https://example.org/lei-14300"
QUESTION = "Qual o limite da microgeração distribuída e até quando valem os créditos de energia?"
MICRO = (
    "microgeração distribuída: central geradora de energia elétrica, com potência instalada "
    "menor ou igual a 75 kW"
)
FABRICATED = "microgeração distribuída: central geradora com potência instalada de até 100 kW"
EXPIRY = (
    "Os créditos de energia elétrica expiram em 60 (sessenta) meses após a data do faturamento."
)
EXPIRY_STATEMENT = "Os créditos de energia expiram em 60 meses após o faturamento."
NOT_QUOTED = "Para fins e efeitos desta Lei"  # page text no claim quotes

PLAN: dict[str, Any] = {
    "sufficient_when": [
        "Fonte que informe o limite de potência da microgeração",
        "Fonte que informe o prazo de validade dos créditos",
    ],
    "subquestions": [
        {"id": "s1", "title": "Limite", "text": "Qual o limite de potência da microgeração?"},
        {"id": "s2", "title": "Créditos", "text": "Até quando valem os créditos de energia?"},
    ],
}

PLANNER_TOKENS = usage(900, 300, cache_write=700)
SUBAGENT_TOKENS = usage(2400, 150, cache_read=1800)
CRITERIA_TOKENS = usage(1500, 40)
JUDGE_TOKENS = usage(1200, 60)
WRITER_TOKENS = usage(3000, 800)
HEAVY_TOKENS = usage(20_000, 1_000, cache_read=30_000)


def subquestion_of(body: Body) -> str:
    found = re.search(r"Your subquestion \((s\d+)\)", first_user_text(body))
    assert found is not None
    return found.group(1)


def turn(body: Body) -> int:
    return len(body["messages"]) // 2


def tool_turn(*calls: Body) -> Reply:
    return message(*calls, stop_reason="tool_use", tokens=SUBAGENT_TOKENS)


def subagent(body: Body) -> Reply:
    """s1 searches, reads, records a true and a fabricated excerpt; s2 reads, writes its note
    as the API returns it (thinking between tool calls, a sentence split around its
    citation) and records the claim with record_claim."""
    if subquestion_of(body) == "s1":
        script = [
            tool_turn(tool_use("web_search", {"query": "limite microgeração"})),
            tool_turn(tool_use("fetch_page", {"url": LAW})),
            tool_turn(
                tool_use(
                    "record_claim",
                    {"statement": "A microgeração vai até 75 kW.", "url": LAW, "excerpt": MICRO},
                ),
                tool_use(
                    "record_claim",
                    {
                        "statement": "A microgeração vai até 100 kW.",
                        "url": LAW,
                        "excerpt": FABRICATED,
                    },
                ),
            ),
        ]
    else:
        citation = char_citation(EXPIRY, 0, LAW_TEXT.index(EXPIRY))
        script = [
            tool_turn(thinking(), tool_use("fetch_page", {"url": LAW})),
            tool_turn(
                thinking("Os créditos expiram em 60 meses; vou registrar."),
                *cited_split([("Os créditos ", None), ("expiram em 60 meses", citation)]),
                tool_use(
                    "record_claim",
                    {"statement": EXPIRY_STATEMENT, "url": LAW, "excerpt": EXPIRY},
                ),
            ),
        ]
    if turn(body) < len(script):
        return script[turn(body)]
    return message(text("Feito."), tokens=SUBAGENT_TOKENS)


def claim_ids_in(body: Body) -> dict[str, str]:
    """The writer's claims, id -> statement, read from its prompt."""
    return {row["id"]: row["statement"] for row in claim_rows(body)}


def writer(body: Body) -> Reply:
    ids = claim_ids_in(body)
    micro = next(i for i, s in ids.items() if "75 kW" in s)
    credits = next(i for i, s in ids.items() if "60 meses" in s)
    draft = {
        "title": "Microgeração e créditos de energia",
        "sections": [
            {
                "title": "Limite",
                "sentences": [
                    {"text": "A microgeração vai até 75 kW.", "claim_ids": [micro]},
                    {"text": "O mercado cresce rapidamente.", "claim_ids": []},
                    {"text": "A minigeração vai até 5 MW.", "claim_ids": ["c000000000000"]},
                ],
            },
            {
                "title": "Créditos",
                "sentences": [
                    {"text": "Os créditos valem 60 meses.", "claim_ids": [credits]},
                    {"text": "Na prática, valem 72 meses.", "claim_ids": [credits]},
                ],
            },
        ],
    }
    return json_message(draft, tokens=WRITER_TOKENS)


judge = entailing_judge(JUDGE_TOKENS)


def whole_report(plan: object = PLAN) -> Callable[[Body], Reply]:
    """The script of a whole report on `plan`: its subagents, no unmet criteria, the judge
    and the writer, each reply billed its role's tokens."""
    return by_role(
        planner=json_message(plan, tokens=PLANNER_TOKENS),
        subagent=subagent,
        criteria=json_message({"unmet": []}, tokens=CRITERIA_TOKENS),
        judge=judge,
        writer=writer,
    )


def usage_in(reply: Body) -> Usage:
    tokens = reply["usage"]
    return Usage(
        model_calls=1,
        input_tokens=tokens["input_tokens"],
        output_tokens=tokens["output_tokens"],
        cache_write_tokens=tokens["cache_creation_input_tokens"],
        cache_read_tokens=tokens["cache_read_input_tokens"],
        web_searches=tokens["server_tool_use"]["web_search_requests"],
    )


def billed(anthropic: ScriptedAnthropic) -> tuple[float, Usage]:
    """What the scripted answers cost at list price, and their usage summed."""
    usd, total = 0.0, Usage()
    for request in anthropic.requests:
        if isinstance(request.reply, dict):
            call = usage_in(request.reply)
            usd += PRICES.cost_usd(request.body["model"], call)
            total = total + call
    return usd, total


async def run(model: ClaudeModel, source: PagesSource, **options: object) -> Report:
    """The scripted question researched by `model` over `source`, through the orchestrator."""
    orchestrator = Orchestrator(model, source, source, **options)  # type: ignore[arg-type]
    return await orchestrator.run(make_brief(QUESTION))
