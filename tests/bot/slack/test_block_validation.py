"""Every message and modal the bot builds passes the stand-in's Block Kit validation, asked
the way Slack is asked: blocks.validate (https://docs.slack.dev/reference/methods/
blocks.validate), whose checks are the ones chat.postMessage, chat.update,
chat.postEphemeral and the views methods run on what they are sent."""

from __future__ import annotations

import json
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack.api import SlackWebApi, build_web_client
from bot.slack.blockkit import Message
from tests.support.slack_samples import every_message
from tests.support.slack_stub import SlackStub

MESSAGES = every_message()


def client(slack: SlackStub) -> AsyncWebClient:
    return build_web_client("xoxb-test", slack.api_url)


async def validate(slack: SlackStub, **payload: Any) -> dict[str, Any]:
    """blocks.validate, form-encoded, each argument JSON as the page asks; the answer's data
    whether ok or not."""
    form = {name: json.dumps(value, ensure_ascii=False) for name, value in payload.items()}
    try:
        response = await client(slack).api_call("blocks.validate", data=form)
    except SlackApiError as refused:
        return dict(refused.response.data)  # type: ignore[arg-type]
    return dict(response.data)  # type: ignore[arg-type]


def test_the_samples_cover_every_builder_and_both_languages() -> None:
    names = {name for name, _, _ in MESSAGES}
    assert len(names) == len(MESSAGES) == 36
    assert {"report (pt)", "report as tables (en)", "excerpt with its page (pt)"} <= names
    kinds = {block["type"] for _, kind, blocks in MESSAGES if kind == "message" for block in blocks}
    assert {"data_visualization", "data_table", "table", "markdown", "context_actions"} <= kinds


@pytest.mark.parametrize(("name", "kind", "payload"), MESSAGES, ids=[m[0] for m in MESSAGES])
async def test_every_message_the_bot_builds_passes_blocks_validate(
    slack: SlackStub, name: str, kind: str, payload: Any
) -> None:
    if kind == "message":
        answer = await validate(slack, message={"blocks": payload})
    else:
        answer = await validate(slack, view=payload)
    assert answer == {"ok": True}, (name, answer)


async def test_blocks_validate_answers_as_its_page_documents(slack: SlackStub) -> None:
    section = {"type": "section", "text": {"type": "plain_text", "text": "Hello world"}}
    assert await validate(slack, blocks=[section]) == {"ok": True}
    exactly = "must provide exactly one of `blocks`, `view`, or `message`"
    for arguments in ({}, {"blocks": [section], "message": {"blocks": [section]}}):
        assert await validate(slack, **arguments) == {
            "ok": False,
            "error": "invalid_arguments",
            "response_metadata": {"messages": [exactly]},
        }
    broken = await validate(slack, blocks=[{"type": "header", "text": {"text": "x" * 151}}])
    assert broken["error"] == "invalid_blocks"
    [error] = broken["errors"]
    assert (error["pointer"], error["code"]) == ("/0/text", "failed_constraint")
    view = {"type": "modal", "title": {"type": "plain_text", "text": "x" * 25}, "blocks": []}
    answer = await validate(slack, view=view)
    assert answer["error"] == "invalid_view"
    assert [e["pointer"] for e in answer["errors"]] == ["/title"]
    chart = {"type": "data_visualization", "title": "T", "chart": {"type": "pie", "segments": []}}
    assert (await validate(slack, message={"blocks": [chart]}))["error"] == "invalid_message"
    table = {
        "type": "data_table",
        "caption": "C",
        "rows": [[{"type": "raw_text", "text": "a"}]] * 2,
    }
    assert (
        await validate(
            slack, view={**view, "title": {"type": "plain_text", "text": "T"}, "blocks": [table]}
        )
    )["error"] == "invalid_view", "a data table is for messages (and Home tabs), not modals"
    assert await validate(slack, message={"blocks": [table]}) == {"ok": True}
    slack.refuse_block_types("data_table")
    refused = await validate(slack, message={"blocks": [table]})
    assert refused["errors"] == [
        {
            "code": "failed_constraint",
            "message": "unsupported type: data_table",
            "pointer": "/blocks/0/type",
        }
    ]


async def test_a_message_only_the_user_sees_is_held_to_the_same_limits(slack: SlackStub) -> None:
    api = SlackWebApi(client(slack))
    header = {"type": "header", "text": {"type": "plain_text", "text": "x" * 151}}
    with pytest.raises(SlackApiError, match="invalid_blocks"):
        await api.post_ephemeral("C1", "U1", "hello", blocks=[header])
    slack.refuse_block_types("data_visualization")
    report = next(blocks for name, _, blocks in MESSAGES if name == "report (pt)")
    chart = next(block for block in report if block["type"] == "data_visualization")
    with pytest.raises(SlackApiError, match="invalid_blocks"):
        await api.post("C1", Message("report", [chart]))
