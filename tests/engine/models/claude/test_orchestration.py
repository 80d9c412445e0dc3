"""Claude through the real Orchestrator, board, budget and verifier, against the scripted
server and an in-memory source: what reaches the report, what is dropped, what it costs."""

import json
import random
import threading
import time
from collections.abc import Callable

import pytest

from engine.contracts import ClaimStatus, Limits, Support
from engine.events import Event, SpendUpdated, SubagentFinished
from engine.models.claude import ClaudeModel
from tests.support.anthropic_server import (
    ApiError,
    Body,
    Reply,
    ScriptedAnthropic,
    blocks,
    first_user_text,
    json_message,
    message,
    spend_limited,
    text,
    thinking,
    tool_use,
)
from tests.support.capped_runs import random_pages, random_plan, run_under_a_random_cap
from tests.support.claude_script import (
    EXPIRY,
    EXPIRY_STATEMENT,
    FABRICATED,
    HEAVY_TOKENS,
    LAW,
    MICRO,
    NOT_QUOTED,
    PLAN,
    PLANNER_TOKENS,
    QUESTION,
    billed,
    run,
    subquestion_of,
    turn,
    whole_report,
)
from tests.support.claude_turns import by_role, role_of
from tests.support.pages_source import LAW_TEXT, PagesSource


async def test_a_report_keeps_only_what_was_verified_and_costs_what_the_usage_says(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(whole_report())
    report = await run(model, source)

    by_excerpt = {c.excerpt: c for c in report.claims}
    assert by_excerpt[MICRO].status is ClaimStatus.verified
    assert by_excerpt[EXPIRY].status is ClaimStatus.verified  # recorded after thinking
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
    assert total.model_calls == 1 + 4 + 3 + 2 + 1 + 1  # plan, s1, s2, criteria ×2, judge, writer


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
    assert report.notes[0].startswith(
        "não foi possível planejar a pesquisa (planner: the answer was still invalid"
    )
    assert (
        "o subagente s1 falhou: ClaudeRefused: subagent s1: Claude declined to answer"
        in report.notes
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
    assert any(note.startswith("orçamento atingido: custo") for note in report.notes)
    stopped = [e for e in events if isinstance(e, SubagentFinished) and e.stopped_by_budget]
    assert len(stopped) == 4
    assert most >= 2  # the subagents really ran at the same time
    usd, total = billed(anthropic)
    assert report.spend.usd == pytest.approx(usd)
    assert total.model_calls >= 6  # the subagents got turns before the money ran out
    assert not any(isinstance(r.reply, ApiError) for r in anthropic.requests)


async def test_a_spend_limit_ends_the_run_with_a_partial_report_and_one_line(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    one = {"sufficient_when": ["prazo dos créditos"], "subquestions": [PLAN["subquestions"][1]]}

    def research(body: Body) -> Reply:
        if turn(body) == 0:
            return message(tool_use("fetch_page", {"url": LAW}), stop_reason="tool_use")
        if turn(body) == 1:
            claim = {"statement": EXPIRY_STATEMENT, "url": LAW, "excerpt": EXPIRY}
            return message(tool_use("record_claim", claim), stop_reason="tool_use")
        return spend_limited()

    anthropic.script(by_role(planner=json_message(one), subagent=research))
    report = await run(model, source)

    limited = [r for r in anthropic.requests if isinstance(r.reply, ApiError)]
    assert len(limited) == 1
    assert anthropic.requests[-1] is limited[0]  # nothing was sent after it, no retry
    assert report.partial
    assert report.notes == [
        "orçamento atingido: interrupção (Anthropic spend limit reached (429 "
        "enforced_spend_limit_reached): the organisation's monthly cap; no retry, research "
        "stopped)"
    ]
    assert [c.excerpt for c in report.verified_claims()] == [EXPIRY]  # kept, quoted verbatim
    assert report.gaps != []


async def test_a_spend_limit_at_planning_is_one_line_too(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(by_role(planner=spend_limited()))
    report = await run(model, source)
    assert len(anthropic.requests) == 1
    assert report.partial
    assert len(report.notes) == 1
    assert report.notes[0].startswith("orçamento atingido: interrupção (Anthropic spend limit")


async def test_the_planner_sizes_each_subagent(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    sized = {
        "sufficient_when": PLAN["sufficient_when"],
        "subquestions": [
            {**PLAN["subquestions"][0], "steps": 4},
            {**PLAN["subquestions"][1], "steps": 16},
        ],
    }
    anthropic.script(by_role(planner=json_message(sized), subagent=message(text("Nada."))))
    await run(model, source)
    briefs: dict[str, str] = {}
    for request in anthropic.requests:  # the first subagents, not the gap ones after them
        if role_of(request.body) == "subagent":
            briefs.setdefault(subquestion_of(request.body), first_user_text(request.body))
    assert "You have 4 steps in all" in briefs["s1"]
    assert "You have 16 steps in all" in briefs["s2"]
    # Each brief names its sibling so the two stay out of each other's way.
    assert "s2: Até quando valem os créditos de energia?" in briefs["s1"]
    assert "s1: Qual o limite de potência da microgeração?" in briefs["s2"]


def _random_researcher(rng: random.Random, urls: list[str]) -> Callable[[Body], Reply]:
    lock = threading.Lock()

    def reply(body: Body) -> Reply:
        with lock:
            choice = rng.random()
            picked = rng.sample(urls, rng.randint(1, 3))
        if choice < 0.15:
            return message(text("Terminei."))
        if choice < 0.4:
            searches = [tool_use("web_search", {"query": f"busca {n}"}) for n in range(len(picked))]
            return message(*searches, stop_reason="tool_use")
        reads = [tool_use("fetch_page", {"url": url}) for url in picked]
        return message(thinking(), *reads, stop_reason="tool_use")

    return reply


@pytest.mark.parametrize("seed", range(20))
async def test_eight_parallel_subagents_at_the_top_of_their_token_range_stay_under_the_cap(
    anthropic: ScriptedAnthropic,
    make_model: Callable[..., ClaudeModel],
    source: PagesSource,
    seed: int,
    largest_ratio: list[float],
) -> None:
    rng = random.Random(seed)
    anthropic.usage_mode = "top"  # every prompt token a cache write, the whole max_tokens out
    urls = random_pages(source, rng, most_repeats=4000)
    model = make_model()
    anthropic.script(
        by_role(
            planner=json_message(random_plan(rng, 8, steps=(3, 12))),
            subagent=_random_researcher(rng, urls),
            criteria=json_message({"unmet": []}),
        )
    )
    await run_under_a_random_cap(model, source, anthropic, rng, largest_ratio)
