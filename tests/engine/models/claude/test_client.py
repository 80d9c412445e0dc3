"""The call boundary: reserve, send through the real SDK, retry, settle from `usage`."""

import asyncio
import random
import threading
import time
from collections.abc import Callable

import pytest

from engine.budget import Meter, StepRefused
from engine.contracts import Limits, Usage
from engine.models.claude import (
    ClaudeAPIError,
    ClaudeModel,
    ClaudeRefused,
    ClaudeTruncated,
    ClaudeUnavailable,
    complete_text,
    default_price_table,
)
from tests.support.anthropic_server import (
    ApiError,
    Reply,
    ScriptedAnthropic,
    authentication_error,
    billing_error,
    first_user_text,
    message,
    overloaded,
    permission_error,
    rate_limited,
    spend_limited,
    text,
    thinking,
    usage,
)
from tests.support.claude_turns import API_KEY, MODEL, meter

PRICES = default_price_table()


async def ask(model: ClaudeModel, limits: Limits | None = None) -> tuple[str, float, Usage]:
    payer = meter(limits)
    reply = await complete_text(
        model.client,
        payer,
        role="test",
        model=MODEL,
        system="You answer tests.",
        prompt="Say hello.",
        max_tokens=100,
    )
    spend = await payer.budget.spend()
    assert spend.usd == pytest.approx(reply.usd)
    return reply.text, spend.usd, spend.usage


async def test_a_call_is_paid_from_its_usage_at_list_price(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    tokens = usage(1200, 80, cache_write=900, cache_read=3000)
    anthropic.script([message(text("hello"), tokens=tokens)])
    answer, usd, spent = await ask(model)
    assert answer == "hello"
    expected = Usage(
        model_calls=1,
        input_tokens=1200,
        output_tokens=80,
        cache_write_tokens=900,
        cache_read_tokens=3000,
    )
    assert spent == expected
    assert usd == pytest.approx((1200 * 2.0 + 80 * 10.0 + 900 * 2.5 + 3000 * 0.10) / 1e6)
    assert usd == pytest.approx(PRICES.cost_usd(MODEL, expected))
    sent = anthropic.requests[0]
    # The SDK sends the key as `x-api-key` or, in recent versions, as a bearer token.
    auth = sent.headers.get("x-api-key") or sent.headers.get("authorization", "")
    assert auth in (API_KEY, f"Bearer {API_KEY}")
    assert sent.body["model"] == MODEL
    assert sent.body["max_tokens"] == 100
    # A system prompt under the minimum cacheable length carries no breakpoint: it would
    # not be cached anyway.
    assert sent.body["system"] == [{"type": "text", "text": "You answer tests."}]
    assert "output_config" not in sent.body  # no effort given: the model's default


async def test_a_long_system_prompt_is_cached_and_effort_is_sent(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    anthropic.script([message(text("hello"))])
    system = "You answer tests. " * 200  # 3600 characters: over 512 tokens at any density
    await complete_text(
        model.client,
        meter(),
        role="test",
        model=MODEL,
        system=system,
        prompt="Say hello.",
        max_tokens=100,
        effort="low",
    )
    sent = anthropic.requests[0].body
    assert sent["system"] == [
        {"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}
    ]
    assert sent["output_config"] == {"effort": "low"}


async def test_a_model_without_effort_is_sent_none(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    anthropic.script([message(text("hello"))])
    await complete_text(
        model.client,
        meter(),
        role="test",
        model="claude-haiku-4-5",
        system="s",
        prompt="p",
        max_tokens=100,
        effort="low",
    )
    assert "output_config" not in anthropic.requests[0].body


async def test_429_is_retried_after_the_time_the_server_asked(
    anthropic: ScriptedAnthropic, model: ClaudeModel, sleeps: list[float]
) -> None:
    anthropic.script([rate_limited(retry_after="3"), message(text("hello"))])
    answer, usd, spent = await ask(model)
    assert answer == "hello"
    assert len(sleeps) == 1
    assert 3.0 <= sleeps[0] < 6.0  # at least what the server asked, plus a random share
    assert len(anthropic.requests) == 2
    assert spent.model_calls == 1  # the refused attempt is not billed
    assert usd == pytest.approx(PRICES.cost_usd(MODEL, spent))


async def test_the_wait_is_real_with_the_default_sleep(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel]
) -> None:
    from engine.models.claude import claude_model_from_config

    model = make_model()
    real = claude_model_from_config(model.config)  # asyncio.sleep between attempts
    try:
        anthropic.script([rate_limited(retry_after="0.4"), message(text("hello"))])
        started = time.monotonic()
        answer, _, _ = await ask(real)
    finally:
        await real.aclose()
    assert answer == "hello"
    first, second = anthropic.requests
    assert second.received_at - first.received_at >= 0.4
    assert time.monotonic() - started < 5


async def test_overloaded_529_is_retried_with_backoff(
    anthropic: ScriptedAnthropic, model: ClaudeModel, sleeps: list[float]
) -> None:
    anthropic.script([overloaded(), overloaded(), message(text("hello"))])
    answer, _, spent = await ask(model)
    assert answer == "hello"
    assert len(sleeps) == 2
    assert 0.0 <= sleeps[0] < 2.0  # full jitter: a random share of 2 s, then of 4 s
    assert 0.0 <= sleeps[1] < 4.0
    assert spent.model_calls == 1


async def test_an_overloaded_error_under_another_status_is_retried(
    anthropic: ScriptedAnthropic, model: ClaudeModel, sleeps: list[float]
) -> None:
    anthropic.script([ApiError(503, "overloaded_error", "Overloaded", "2"), message(text("hi"))])
    answer, _, _ = await ask(model)
    assert answer == "hi"
    assert len(sleeps) == 1
    assert 2.0 <= sleeps[0] < 4.0


async def test_no_wait_past_the_time_budget(
    anthropic: ScriptedAnthropic, model: ClaudeModel, sleeps: list[float]
) -> None:
    anthropic.script([rate_limited(retry_after="120")])
    with pytest.raises(ClaudeUnavailable, match=r"429 rate_limit_error.*would pass the .* left"):
        await ask(model, Limits(seconds=60))
    assert sleeps == []
    assert len(anthropic.requests) == 1


async def test_retries_end(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel], sleeps: list[float]
) -> None:
    model = make_model(max_retries=2)
    anthropic.script([rate_limited("1")] * 3)
    payer = meter()
    with pytest.raises(ClaudeUnavailable, match="gave up after 3 attempts"):
        await complete_text(
            model.client, payer, role="test", model=MODEL, system="s", prompt="p", max_tokens=10
        )
    assert len(sleeps) == 2
    assert all(1.0 <= wait < 5.0 for wait in sleeps)
    spend = await payer.budget.spend()
    assert spend.usd == 0.0  # the reservation is released: nothing was billed
    assert spend.steps == 1


async def test_a_bad_request_fails_at_once_without_the_key(
    anthropic: ScriptedAnthropic, model: ClaudeModel, sleeps: list[float]
) -> None:
    anthropic.script([ApiError(400, "invalid_request_error", "max_tokens: too large")])
    with pytest.raises(ClaudeAPIError, match="400 invalid_request_error: max_tokens") as info:
        await ask(model)
    assert API_KEY not in str(info.value)
    assert sleeps == []


@pytest.mark.parametrize(
    ("refusal", "line"),
    [
        (billing_error(), r"stopped: Anthropic billing error \(Claude API 402 billing_error: "),
        (authentication_error(), r"stopped: Anthropic API key refused \(Claude API 401 "),
        (permission_error(), r"stopped: Anthropic API key not allowed \(Claude API 403 "),
        (  # the error type decides under another status too (errors page: 4XX reuse types)
            ApiError(400, "billing_error", "credit balance too low"),
            "stopped: Anthropic billing error",
        ),
    ],
)
async def test_billing_and_permission_answers_stop_the_run_with_no_further_request(
    anthropic: ScriptedAnthropic,
    model: ClaudeModel,
    sleeps: list[float],
    refusal: ApiError,
    line: str,
) -> None:
    anthropic.script([refusal, message(text("never sent"))])
    payer = meter()
    with pytest.raises(StepRefused, match=line) as info:
        await complete_text(
            model.client, payer, role="test", model=MODEL, system="s", prompt="p", max_tokens=10
        )
    assert "\n" not in str(info.value)
    assert API_KEY not in str(info.value)
    assert sleeps == []
    stopped = await payer.budget.exhausted()
    assert stopped is not None
    assert stopped.limit == "stopped"
    assert (await payer.budget.spend()).usd == 0.0  # an error answer is not billed
    with pytest.raises(StepRefused, match="stopped"):  # later calls are never sent
        await ask(model)
    assert len(anthropic.requests) == 1


async def test_six_parallel_callers_told_to_wait_one_second_spread_over_a_second(
    anthropic: ScriptedAnthropic, model: ClaudeModel, sleeps: list[float]
) -> None:
    # Six subagents' calls meet the same 429 "retry-after: 1"; each then comes back.
    lock = threading.Lock()
    seen: set[str] = set()

    def limited_once(body: dict[str, object]) -> Reply:
        prompt = first_user_text(body)
        with lock:
            first = prompt not in seen
            seen.add(prompt)
        return rate_limited(retry_after="1") if first else message(text(f"ok {prompt}"))

    anthropic.script(limited_once)
    model.client.jitter = random.Random(23).random  # the random source, injected
    budget = meter().budget

    async def subagent(number: int) -> str:
        reply = await complete_text(
            model.client,
            Meter(budget),
            role=f"subagent s{number}",
            model=MODEL,
            system="s",
            prompt=f"p{number}",
            max_tokens=10,
        )
        return reply.text

    answers = await asyncio.gather(*(subagent(n) for n in range(6)))
    assert answers == [f"ok p{n}" for n in range(6)]
    assert len(sleeps) == 6
    assert min(sleeps) >= 1.0  # none before the time the server asked
    assert max(sleeps) - min(sleeps) >= 1.0  # and not back in lockstep


async def test_a_refusal_is_a_failure_and_still_paid(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    anthropic.script([message(text(""), stop_reason="refusal", tokens=usage(500, 5))])
    payer = meter()
    with pytest.raises(ClaudeRefused, match="test: Claude declined to answer"):
        await complete_text(
            model.client, payer, role="test", model=MODEL, system="s", prompt="p", max_tokens=10
        )
    spend = await payer.budget.spend()
    assert spend.usd == pytest.approx((500 * 2.0 + 5 * 10.0) / 1e6)


async def test_an_answer_cut_at_max_tokens_is_asked_again_once_with_room(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    anthropic.script(
        [message(thinking(), text('{"title": "cut'), stop_reason="max_tokens"), message(text("ok"))]
    )
    payer = meter()
    reply = await complete_text(
        model.client, payer, role="test", model=MODEL, system="s", prompt="p", max_tokens=100
    )
    assert reply.text == "ok"
    assert [r.body["max_tokens"] for r in anthropic.requests] == [100, 200]
    spent = await payer.budget.spend()
    assert spent.usage.model_calls == 2  # the cut-off answer was billed too


async def test_an_answer_cut_twice_is_a_failure(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    cut = message(text('{"title": "cut'), stop_reason="max_tokens")
    anthropic.script([cut, cut])
    with pytest.raises(ClaudeTruncated, match=r"cut off \(max_tokens\)"):
        await ask(model)
    assert len(anthropic.requests) == 2


async def test_a_usage_limit_the_organisation_set_stops_the_run_too(
    anthropic: ScriptedAnthropic, model: ClaudeModel, sleeps: list[float]
) -> None:
    message_text = "You have reached your specified API usage limits. Access resumes on 1 Dec."
    anthropic.script([ApiError(400, "invalid_request_error", message_text)])
    with pytest.raises(StepRefused, match="stopped: Anthropic usage limit reached"):
        await ask(model)
    with pytest.raises(StepRefused, match="stopped"):
        await ask(model)
    assert len(anthropic.requests) == 1
    assert sleeps == []


async def test_a_spend_limit_429_is_not_retried_and_stops_the_budget(
    anthropic: ScriptedAnthropic, model: ClaudeModel, sleeps: list[float]
) -> None:
    anthropic.script([spend_limited(), message(text("never sent"))])
    payer = meter()
    with pytest.raises(StepRefused, match=r"stopped: Anthropic spend limit reached.*no retry"):
        await complete_text(
            model.client, payer, role="test", model=MODEL, system="s", prompt="p", max_tokens=10
        )
    assert sleeps == []
    assert len(anthropic.requests) == 1
    stopped = await payer.budget.exhausted()
    assert stopped is not None
    assert stopped.limit == "stopped"
    assert "enforced_spend_limit_reached" in stopped.detail
    with pytest.raises(StepRefused, match="stopped"):  # later calls are never sent
        await ask(model)
    assert len(anthropic.requests) == 1


async def test_no_room_in_the_budget_means_no_request(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    with pytest.raises(StepRefused, match="usd"):
        await ask(model, Limits(usd=0.0001))
    assert anthropic.requests == []


async def test_a_server_search_turn_costs_no_more_than_its_reservation(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    from engine.models.claude import ClaudeRequest
    from tests.support.anthropic_server import server_search

    anthropic.usage_mode = "top"  # each pass's prompt a cache write, the whole max_tokens out
    found = [
        block
        for number in range(3)  # as many searches as the turn allows
        for block in server_search(f"q{number}", ["https://example.org/a"], result_tokens=9_500)
    ]
    anthropic.script([message(*found, text("done"))])
    tools = [{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}]
    request = ClaudeRequest(
        role="subagent s1",
        model=MODEL,
        system="s",
        messages=[{"role": "user", "content": "página " * 8_000}],
        max_tokens=2_000,
        tools=tools,  # type: ignore[arg-type]
        server_searches=3,
    )
    reserved = model.client.estimate_usd(request)
    reply = await model.client.call(request, meter())
    assert reply.usage.web_searches == 3
    assert reply.usd <= reserved  # four passes, each re-reading the prompt and the results
    assert reply.usd > reserved * 0.6  # and the bound is not loose by a wide margin
