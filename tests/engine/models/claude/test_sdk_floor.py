"""The anthropic floor in pyproject.toml holds what Fonte uses of the SDK: every name the
code imports from `anthropic`, and the calls Fonte makes through the real client against the
loopback stand-in (`messages.create` and `messages.stream` with Fonte's own parameters,
output_config, the fallback-credit header and body field; `Message.to_param`; a refusal's
`stop_details`). An SDK without one of them fails here (anthropic 1.4.0 has no
`Message.to_param`; 1.5.0 has them all)."""

from __future__ import annotations

import anthropic
import pytest
from anthropic.types import Message

from engine.models.claude.ask import user_turn
from engine.models.claude.request import ClaudeRequest, FallbackCredit
from tests.support.anthropic_server import ScriptedAnthropic, message, text
from tests.support.claude_turns import API_KEY, MODEL
from tests.support.sdk_imports import imported_from, missing_names


async def call_gaps(server: ScriptedAnthropic) -> list[str]:
    """What the installed SDK cannot do of the calls Fonte makes."""
    gaps: list[str] = []
    api = anthropic.AsyncAnthropic(
        api_key=API_KEY, base_url=server.base_url, max_retries=0, timeout=30.0
    )
    request = ClaudeRequest("t", MODEL, "s", [user_turn("oi")], 100, effort="low", asks_credit=True)
    try:
        answered = await api.messages.create(**request.api_params(), timeout=30.0)
        answered.to_param()
        refused = await api.messages.create(**request.api_params(), timeout=30.0)
        assert refused.stop_reason == "refusal"
        token = getattr(refused.stop_details, "fallback_credit_token", None)
        if not isinstance(token, str):
            gaps.append("a refusal's stop_details keeps no fallback_credit_token")
            token = "none"
        retry = request.fallen_back("claude-opus-5-5", FallbackCredit(token, MODEL, 0))
        await api.messages.create(**retry.api_params(), timeout=30.0)
        async with api.messages.stream(**request.api_params(), timeout=30.0) as stream:
            async for _ in stream:
                pass
            final = await stream.get_final_message()
        final.to_param()
    except (TypeError, AttributeError) as error:
        gaps.append(f"{type(error).__name__}: {error}")
    finally:
        await api.close()
    return gaps


def script() -> list[object]:
    return [
        message(text("a")),
        message(stop_reason="refusal"),
        message(text("b")),
        message(text("c")),
    ]


def test_every_name_fonte_imports_from_the_sdk_is_there() -> None:
    assert len(imported_from("anthropic")) >= 15  # the scan found Fonte's imports
    assert missing_names("anthropic") == []


async def test_the_calls_fonte_makes_go_through_the_installed_sdk() -> None:
    server = ScriptedAnthropic(script()).start()  # type: ignore[arg-type]
    try:
        assert await call_gaps(server) == []
        assert len(server.requests) == 4
        assert server.requests[0].body["output_config"] == {"effort": "low"}
        retry = server.requests[2]
        refused = server.requests[1].reply
        assert isinstance(refused, dict)
        token = refused["stop_details"]["fallback_credit_token"]
        assert retry.body["fallback_credit_token"] == {"token": token, "mode": "best_effort"}
        assert retry.headers["anthropic-beta"] == "fallback-credit-2026-07-01"
    finally:
        server.close()


async def test_an_sdk_without_to_param_fails_the_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """anthropic 1.4.0: the subagents' conversations could not be carried on."""
    monkeypatch.delattr(Message, "to_param")
    server = ScriptedAnthropic(script()).start()  # type: ignore[arg-type]
    try:
        gaps = await call_gaps(server)
    finally:
        server.close()
    assert len(gaps) == 1
    assert "to_param" in gaps[0]
