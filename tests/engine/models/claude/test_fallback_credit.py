"""A refused request goes to the fallback model as the fallback-credit page says: the same
body, the model aside, with the refusal's credit token, so the prefix already cached on the
refused model is billed at the cache-read rate, not written again at the cache-write rate
(https://platform.claude.com/docs/en/build-with-claude/fallback-credit)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.budget import Meter
from engine.contracts import Usage
from engine.models.claude import (
    ClaudeConfig,
    ClaudeModel,
    ClaudeReply,
    ClaudeRequest,
    default_price_table,
)
from engine.models.claude.ask import user_turn
from engine.models.claude.config import EFFORT_ROLES
from engine.settings import BadInput
from tests.support.anthropic_server import Body, Reply, ScriptedAnthropic, message, text, usage
from tests.support.claude_turns import MODEL, meter

FALLBACK = "claude-opus-5-5"
FALLBACK_CREDIT_BETA = "fallback-credit-2026-07-01"  # the page's current header
PRICES = default_price_table()
# Long enough for the prompt cache (512 tokens on the 5.5 models) on system alone.
SYSTEM = "Você responde perguntas sobre leis e cita a página. " * 80


def refused_then_answered(body: Body) -> Reply:
    if body["model"] == MODEL and len(body["messages"]) > 1:
        return message(stop_reason="refusal", tokens=usage(100, 0))
    return message(text("resposta"), tokens=usage(100, 20))


def conversation() -> tuple[ClaudeRequest, ClaudeRequest]:
    first = ClaudeRequest(
        "subagent s1", MODEL, SYSTEM, [user_turn("pergunta")], 2000, effort="medium"
    )
    second = first.followed_by(
        {"role": "assistant", "content": [{"type": "text", "text": "resposta"}]},
        user_turn("e a outra lei?"),
    )
    return first, second


async def refused_then_retried(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> tuple[ClaudeReply, Meter]:
    """A first turn that caches the prefix on MODEL, then a second that MODEL refuses and
    the fallback answers; billed as the API would ("measured")."""
    anthropic.usage_mode = "measured"
    anthropic.script(refused_then_answered)
    first, second = conversation()
    payer = meter()
    await model.client.call_with_room(first, payer)  # writes the prefix on MODEL's cache
    return await model.client.call_with_room(second, payer), payer


async def test_the_retry_echoes_the_credit_token_on_the_same_body(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel]
) -> None:
    reply, _ = await refused_then_retried(anthropic, make_model(fallback_model=FALLBACK))
    assert reply.text == "resposta"
    refused, retry = anthropic.requests[1], anthropic.requests[2]
    assert (refused.body["model"], retry.body["model"]) == (MODEL, FALLBACK)
    assert FALLBACK_CREDIT_BETA in refused.headers["anthropic-beta"]
    assert FALLBACK_CREDIT_BETA in retry.headers["anthropic-beta"]
    assert isinstance(refused.reply, dict)
    token = refused.reply["stop_details"]["fallback_credit_token"]
    assert retry.body["fallback_credit_token"] == {"token": token, "mode": "best_effort"}
    same = {k: v for k, v in retry.body.items() if k not in ("model", "fallback_credit_token")}
    assert same == {k: v for k, v in refused.body.items() if k != "model"}
    assert isinstance(retry.reply, dict)
    assert retry.reply["usage"]["fallback_credit"] == {"status": {"type": "redeemed"}}


async def test_the_credited_prefix_is_paid_at_the_cache_read_rate_in_the_budget(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel]
) -> None:
    reply, payer = await refused_then_retried(anthropic, make_model(fallback_model=FALLBACK))
    refused, retry = anthropic.requests[1], anthropic.requests[2]
    assert isinstance(refused.reply, dict)
    assert isinstance(retry.reply, dict)
    warm = refused.reply["usage"]["cache_read_input_tokens"]
    written = retry.reply["usage"]["cache_creation_input_tokens"]
    assert warm > 500  # the prefix was cached on the refused model
    assert written >= warm  # caches are per model: the fallback writes it again
    credited = min(warm, written)
    rates = PRICES.price(FALLBACK).rates
    as_billed = retry.reply["usage"]
    expected = (
        as_billed["input_tokens"] * rates.input
        + as_billed["output_tokens"] * rates.output
        + (written - credited) * rates.cache_write
        + (as_billed["cache_read_input_tokens"] + credited) * rates.cache_read
    ) / 1e6
    assert reply.usd == pytest.approx(expected)
    assert reply.usage.cache_read_tokens == as_billed["cache_read_input_tokens"] + credited
    assert reply.usage.cache_write_tokens == written - credited
    spend = await payer.budget.spend()
    paid = [r.reply for r in anthropic.requests]
    priced = [
        PRICES.cost_usd(
            str(p["model"]),
            Usage(
                input_tokens=p["usage"]["input_tokens"],
                output_tokens=p["usage"]["output_tokens"],
                cache_write_tokens=p["usage"]["cache_creation_input_tokens"],
                cache_read_tokens=p["usage"]["cache_read_input_tokens"],
            ),
        )
        for p in paid[:2]
        if isinstance(p, dict)
    ]
    assert spend.usd == pytest.approx(sum(priced) + reply.usd)


async def test_a_credit_the_api_does_not_apply_is_paid_at_the_normal_price(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel]
) -> None:
    """best_effort: a token the API will not redeem still gets the answer, at full price."""
    anthropic.credits.unavailable = True
    reply, _ = await refused_then_retried(anthropic, make_model(fallback_model=FALLBACK))
    retry = anthropic.requests[2]
    assert isinstance(retry.reply, dict)
    status = retry.reply["usage"]["fallback_credit"]["status"]
    assert status == {"type": "not_applied", "reason": "temporarily_unavailable"}
    assert reply.usage.cache_write_tokens == retry.reply["usage"]["cache_creation_input_tokens"]


async def test_without_a_fallback_model_no_beta_is_asked_for(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    anthropic.script([message(text("ok"))])
    await model.client.call_with_room(conversation()[0], meter())
    assert "anthropic-beta" not in anthropic.requests[0].headers
    assert "fallback_credit_token" not in anthropic.requests[0].body


def test_a_fallback_that_takes_no_effort_is_refused_at_start() -> None:
    """The retry re-sends the refused body, effort included: a fallback that takes none
    would answer 400 to every retry."""
    with pytest.raises(BadInput, match=r"FONTE_FALLBACK_MODEL=claude-haiku-4-5 takes no effort"):
        ClaudeConfig(api_key="k", fallback_model="claude-haiku-4-5")
    ClaudeConfig(
        api_key="k",
        fallback_model="claude-haiku-4-5",
        **{f"{role}_effort": None for role in EFFORT_ROLES},  # type: ignore[arg-type]
    )
