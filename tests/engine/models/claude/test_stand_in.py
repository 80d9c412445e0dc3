"""The scripted Messages API server the Claude tests run against refuses, as the API does,
requests that break a documented rule, and keeps them in `violations` so the test fails."""

from collections.abc import AsyncIterator
from typing import Any

import anthropic as sdk
import pytest

from tests.support.anthropic_server import (
    ScriptedAnthropic,
    message,
    overloaded,
    spend_limited,
    text,
    thinking,
    tool_use,
)
from tests.support.claude_turns import API_KEY, MODEL

Messages = list[dict[str, Any]]


@pytest.fixture
async def client(anthropic: ScriptedAnthropic) -> AsyncIterator[sdk.AsyncAnthropic]:
    api = sdk.AsyncAnthropic(api_key=API_KEY, base_url=anthropic.base_url, max_retries=0)
    yield api
    await api.close()


async def create(client: sdk.AsyncAnthropic, messages: Any, **extra: Any) -> Any:
    return await client.messages.create(model=MODEL, max_tokens=10, messages=messages, **extra)


def user(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def marked(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value, "cache_control": {"type": "ephemeral"}}


async def refused(
    anthropic: ScriptedAnthropic, client: sdk.AsyncAnthropic, messages: Messages, **extra: Any
) -> str:
    anthropic.script([message(text("never"))])
    with pytest.raises(sdk.BadRequestError) as info:
        await create(client, messages, **extra)
    found = anthropic.take_violations()
    assert len(found) == 1
    assert found[0] in str(info.value)
    return found[0]


async def test_more_than_four_breakpoints(
    anthropic: ScriptedAnthropic, client: sdk.AsyncAnthropic
) -> None:
    why = await refused(
        anthropic, client, [user(*(marked(f"part {n}") for n in range(4)))], system=[marked("s")]
    )
    assert why == "5 cache_control breakpoints; at most 4 allowed"


async def test_a_tool_use_without_its_result_in_the_next_turn(
    anthropic: ScriptedAnthropic, client: sdk.AsyncAnthropic
) -> None:
    turns: Messages = [
        user({"type": "text", "text": "busque"}),
        {"role": "assistant", "content": [tool_use("web_search", {"query": "x"}, "toolu_1")]},
        user({"type": "text", "text": "e então?"}),
    ]
    why = await refused(anthropic, client, turns)
    assert "tool_use ['toolu_1'] without a tool_result" in why


async def test_a_modified_thinking_block(
    anthropic: ScriptedAnthropic, client: sdk.AsyncAnthropic
) -> None:
    anthropic.script([message(thinking("Primeiro a lei."), text("Ok."))])
    reply = await create(client, [user({"type": "text", "text": "oi"})])
    sent_back: Any = reply.to_param()["content"]
    edited = [{**dict(sent_back[0]), "thinking": "Primeiro o decreto."}, *sent_back[1:]]
    turns: Messages = [
        user({"type": "text", "text": "oi"}),
        {"role": "assistant", "content": edited},
        user({"type": "text", "text": "continue"}),
    ]
    assert "thinking block was modified" in await refused(anthropic, client, turns)


async def test_a_document_title_over_the_limit(
    anthropic: ScriptedAnthropic, client: sdk.AsyncAnthropic
) -> None:
    document = {
        "type": "document",
        "source": {"type": "text", "media_type": "text/plain", "data": "texto"},
        "title": "t" * 501,
    }
    assert "title of 501 characters" in await refused(anthropic, client, [user(document)])


async def test_an_unknown_content_block_type(
    anthropic: ScriptedAnthropic, client: sdk.AsyncAnthropic
) -> None:
    why = await refused(anthropic, client, [user({"type": "note", "text": "x"})])
    assert why == "messages.0: unknown content block type 'note' for user"


async def test_errors_have_the_documented_shapes(
    anthropic: ScriptedAnthropic, client: sdk.AsyncAnthropic
) -> None:
    anthropic.script([spend_limited(), overloaded(retry_after="2")])
    turns = [user({"type": "text", "text": "oi"})]
    with pytest.raises(sdk.RateLimitError) as limited:
        await create(client, turns)
    assert "retry-after" not in limited.value.response.headers
    assert limited.value.body["error"]["details"] == {  # type: ignore[index]
        "error_code": "enforced_spend_limit_reached"
    }
    with pytest.raises(sdk.APIStatusError) as busy:
        await create(client, turns)
    assert busy.value.status_code == 529
    assert busy.value.response.headers["retry-after"] == "2"


# The SDK warns on each call to a model in its own list of deprecated ones.
@pytest.mark.filterwarnings("ignore:The model 'claude-opus-4-5' is deprecated:DeprecationWarning")
@pytest.mark.parametrize(
    ("model", "effort", "refusal"),
    [
        ("claude-haiku-4-5-20251001", "low", "does not support the effort parameter"),
        ("claude-opus-4-5", "max", "does not support effort level 'max'"),
        ("claude-sonnet-4-6", "xhigh", "Supported levels: high, low, max, medium"),
    ],
)
def test_an_effort_the_model_does_not_take_is_a_400(model: str, effort: str, refusal: str) -> None:
    server = ScriptedAnthropic([message(text("no"))]).start()
    client = sdk.Anthropic(api_key="k", base_url=server.base_url, max_retries=0)
    try:
        with pytest.raises(sdk.BadRequestError, match=refusal):
            client.messages.create(
                model=model,
                max_tokens=10,
                messages=[{"role": "user", "content": "oi"}],
                output_config={"effort": effort},  # type: ignore[typeddict-item]
            )
        assert server.take_violations()
    finally:
        client.close()
        server.close()
