"""Claude through the real Orchestrator, board, budget and verifier, against the scripted
server and an in-memory source: what reaches the report, what is dropped, what it costs."""

import json
import re
import threading
import time
from collections.abc import Callable

import pytest

from engine.briefs import make_brief
from engine.contracts import ClaimStatus, Limits, Report, Support, Usage
from engine.events import Event, SpendUpdated, SubagentFinished
from engine.models.claude import ClaudeModel, default_price_table
from engine.orchestrator import Orchestrator
from tests.engine.conftest import LAW_TEXT, PagesSource
from tests.engine.models.claude.conftest import by_role
from tests.support.anthropic_server import (
    ApiError,
    Body,
    Reply,
    ScriptedAnthropic,
    blocks,
    char_citation,
    first_user_text,
    json_message,
    message,
    text,
    tool_use,
    usage,
)

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
NOT_QUOTED = "Para fins e efeitos desta Lei"  # page text no claim quotes

PLAN = {
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
    """s1 searches, reads, records a true and a fabricated excerpt; s2 reads and cites."""
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
        cited = text(
            "Os créditos de energia expiram em 60 meses.",
            [char_citation(EXPIRY, 0, LAW_TEXT.index(EXPIRY))],
        )
        script = [tool_turn(tool_use("fetch_page", {"url": LAW}))]
        script.append(message(cited, tokens=SUBAGENT_TOKENS))
    if turn(body) < len(script):
        return script[turn(body)]
    return message(text("Feito."), tokens=SUBAGENT_TOKENS)


def claim_ids_in(body: Body) -> dict[str, str]:
    """The writer's claims, id -> statement, read from its prompt."""
    rows = [json.loads(line) for line in first_user_text(body).splitlines() if line.startswith("{")]
    return {row["id"]: row["statement"] for row in rows}


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


def judge(body: Body) -> Reply:
    ids = [json.loads(line)["id"] for line in first_user_text(body).splitlines() if "{" in line]
    return json_message({"labels": [{"id": i, "support": "entails"} for i in ids]}, JUDGE_TOKENS)


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
    orchestrator = Orchestrator(model, source, source, **options)  # type: ignore[arg-type]
    return await orchestrator.run(make_brief(QUESTION))


async def test_a_report_keeps_only_what_was_verified_and_costs_what_the_usage_says(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(
        by_role(
            planner=json_message(PLAN, tokens=PLANNER_TOKENS),
            subagent=subagent,
            criteria=json_message({"unmet": []}, tokens=CRITERIA_TOKENS),
            judge=judge,
            writer=writer,
        )
    )
    report = await run(model, source)

    by_excerpt = {c.excerpt: c for c in report.claims}
    assert by_excerpt[MICRO].status is ClaimStatus.verified
    assert by_excerpt[EXPIRY].status is ClaimStatus.verified  # from Claude's cited text
    assert by_excerpt[FABRICATED].status is ClaimStatus.rejected
    assert "not found" in (by_excerpt[FABRICATED].reason or "")
    assert {c.support for c in report.verified_claims()} == {Support.entails}

    kept = [s.text for section in report.sections for s in section.sentences]
    assert kept == ["A microgeração vai até 75 kW.", "Os créditos valem 60 meses."]
    dropped = {d.text: d.reason for d in report.dropped_sentences}
    assert set(dropped) == {
        "O mercado cresce rapidamente.",
        "A minigeração vai até 5 MW.",
        "Na prática, valem 72 meses.",
    }
    assert "not verified: uncited" in dropped["O mercado cresce rapidamente."]
    assert "not verified: c000000000000" in dropped["A minigeração vai até 5 MW."]
    assert dropped["Na prática, valem 72 meses."] == "numbers in no cited excerpt: 72"
    assert report.title == "Microgeração e créditos de energia"
    assert report.model == model.config.model
    assert report.gaps == []
    assert not report.partial
    assert report.notes == []

    # The writer saw claims, never page text.
    writer_request = next(r for r in anthropic.requests if "Fonte's writer" in r.system)
    assert NOT_QUOTED in LAW_TEXT
    assert NOT_QUOTED not in json.dumps(writer_request.body, ensure_ascii=False)
    assert all(b["type"] == "text" for b in blocks(writer_request.body))

    usd, total = billed(anthropic)
    assert report.spend.usage == total
    assert report.spend.usd == pytest.approx(usd)
    assert total.model_calls == 1 + 4 + 2 + 2 + 1 + 1  # plan, s1, s2, criteria ×2, judge, writer


async def test_failures_become_notes_and_fallbacks(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(
        by_role(
            planner=message(text("Não sei planejar isso.")),
            subagent=message(text(""), stop_reason="refusal"),
            criteria=json_message({"unmet": []}),
        )
    )
    report = await run(model, source)
    assert [s.text for s in report.plan.subquestions] == [QUESTION]
    assert report.notes[0].startswith("planner failed (planner: the answer was still invalid")
    assert (
        "subagent s1 failed: ClaudeRefused: subagent s1: Claude declined to answer" in report.notes
    )
    assert report.sections == []


async def test_parallel_subagents_never_spend_past_the_money_limit(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel], source: PagesSource
) -> None:
    # A small writer reservation, so no idle headroom hides an overshoot.
    model = make_model(writer_prompt_tokens=1000, writer_max_tokens=500)
    in_flight, most = 0, 0
    lock = threading.Lock()

    def endless_search(body: Body) -> Reply:
        nonlocal in_flight, most
        with lock:
            in_flight += 1
            most = max(most, in_flight)
        time.sleep(0.02)  # long enough for the other subagents' calls to overlap
        with lock:
            in_flight -= 1
        query = {"query": f"busca {turn(body)}"}
        return message(tool_use("web_search", query), stop_reason="tool_use", tokens=HEAVY_TOKENS)

    four = {
        "sufficient_when": [f"critério {i}" for i in range(1, 5)],
        "subquestions": [
            {"id": f"s{i}", "title": f"T{i}", "text": f"Pergunta {i}?"} for i in range(1, 5)
        ],
    }
    anthropic.script(by_role(planner=json_message(four, PLANNER_TOKENS), subagent=endless_search))
    events: list[Event] = []
    limits = Limits(usd=0.80, steps=1000)
    report = await run(model, source, limits=limits, subagent_max_steps=500, events=events.append)

    committed = [e.spend.usd for e in events if isinstance(e, SpendUpdated)]
    assert max(committed) <= limits.usd  # reserved and settled, at every point of the run
    assert report.spend.usd <= limits.usd
    assert report.spend.usd > limits.usd * 0.7  # the money, not something else, ran out
    assert report.partial
    assert any(note.startswith("budget reached: usd") for note in report.notes)
    stopped = [e for e in events if isinstance(e, SubagentFinished) and e.stopped_by_budget]
    assert len(stopped) == 4
    assert most >= 2  # the subagents really ran at the same time
    usd, total = billed(anthropic)
    assert report.spend.usd == pytest.approx(usd)
    assert total.model_calls >= 6  # the subagents got turns before the money ran out
    assert not any(isinstance(r.reply, ApiError) for r in anthropic.requests)
