"""The Web API boundary: transient answers are retried as Slack asks (Retry-After), permanent
ones are not, and a failure reads into the error code and scope Slack named. Modals open and
update, and show files the bot uploaded privately, within the rules the stand-in keeps."""

from __future__ import annotations

from typing import Any

import pytest
from slack_sdk.errors import SlackApiError

from bot.slack.api import SlackFailure, SlackWebApi, Upload, build_web_client
from bot.slack.blockkit import Message
from tests.support.clock import FakeClock
from tests.support.slack_stub import SlackStub


def api(slack: SlackStub) -> SlackWebApi:
    return SlackWebApi(build_web_client("xoxb-test", slack.api_url))


@pytest.mark.parametrize("status", [500, 502, 503, 504])
async def test_server_errors_are_retried_after_their_retry_after(
    status: int, slack: SlackStub
) -> None:
    slack.fail_next("chat.postMessage", status=status, retry_after=1)
    await api(slack).post("C1", Message("hi"))
    tries = slack.calls_to("chat.postMessage", ok_only=False)
    assert [c.status for c in tries] == [status, 200]
    assert tries[1].at - tries[0].at >= 1.0


@pytest.mark.parametrize("error", ["missing_scope", "not_in_channel", "msg_blocks_too_long"])
async def test_permanent_errors_are_not_retried(error: str, slack: SlackStub) -> None:
    slack.fail_next("chat.postMessage", status=200, error=error)
    with pytest.raises(SlackApiError) as raised:
        await api(slack).post("C1", Message("hi"))
    assert len(slack.calls_to("chat.postMessage", ok_only=False)) == 1
    assert SlackFailure.of(raised.value) == SlackFailure(error)


async def test_rate_limits_past_every_retry_are_a_transient_failure(slack: SlackStub) -> None:
    slack.fail_next("chat.update", times=6, status=429, retry_after=0)
    with pytest.raises(SlackApiError) as raised:
        await api(slack).update("C1", "1.1", Message("hi"))
    assert len(slack.calls_to("chat.update", ok_only=False)) == 6  # the first and 5 retries
    assert SlackFailure.of(raised.value) == SlackFailure("ratelimited", transient=True)


# -- modals and the files they show ----------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def modal(*blocks: dict[str, Any], title: str = "Trecho [1]") -> dict[str, Any]:
    text = {"type": "section", "text": {"type": "mrkdwn", "text": "O trecho."}}
    return {"type": "modal", "title": plain(title), "blocks": [text, *blocks]}


def plain(text: str) -> dict[str, str]:
    return {"type": "plain_text", "text": text}


def picture(slack_file: dict[str, str]) -> dict[str, Any]:
    return {"type": "image", "slack_file": slack_file, "alt_text": "A página 2."}


def refusal(raised: pytest.ExceptionInfo[SlackApiError]) -> tuple[str, list[str]]:
    data = raised.value.response.data
    assert isinstance(data, dict)
    return str(data["error"]), list(data.get("response_metadata", {}).get("messages", []))


async def test_a_private_upload_is_refused_in_a_modal_and_a_shared_one_is_shown(
    slack: SlackStub,
) -> None:
    """Real workspaces refuse an image block naming a file shared nowhere, even the bot's
    own (slackapi/bolt-python#1251, python-slack-sdk#1797); one shared in the thread shows."""
    slack_api = api(slack)
    opened = await slack_api.open_view("trig-1", modal())
    assert opened.id
    assert opened.hash
    private = await slack_api.upload_private(Upload("page.png", PNG, "Página 2"), "A página 2")
    with pytest.raises(SlackApiError) as raised:
        await slack_api.update_view(opened.id, modal(picture({"id": private})), opened.hash)
    error, messages = refusal(raised)
    assert error == "invalid_arguments"
    assert any("invalid slack file" in m for m in messages), messages

    file_id = await slack_api.upload_in_thread(
        "C1", "1.1", Upload("page.png", PNG, "Página 2"), "A página 2", ""
    )

    completed = slack.calls_to("files.completeUploadExternal")[-1]
    assert completed.params["channel_id"] == "C1"
    assert slack.uploads[file_id] == PNG
    updated = await slack_api.update_view(opened.id, modal(picture({"id": file_id})), opened.hash)
    assert updated.id == opened.id
    assert updated.hash != opened.hash, "every update gives the view a new hash"
    assert slack.views.views[opened.id]["blocks"][-1]["slack_file"] == {"id": file_id}


async def test_a_file_named_by_its_private_url_is_shown_too(slack: SlackStub) -> None:
    slack_api = api(slack)
    opened = await slack_api.open_view("trig-1", modal())
    file_id = await slack_api.upload_in_thread(
        "C1", "1.1", Upload("page.png", PNG, "Página 2"), "A página 2", ""
    )
    url = slack.files.files[file_id].url_private

    await slack_api.update_view(opened.id, modal(picture({"url": url})), opened.hash)


@pytest.mark.parametrize(
    "named",
    [
        {"id": "F404404404"},  # never uploaded
        {"url": "https://files.slack.com/files-pri/T1-F404/page.png"},
    ],
)
async def test_the_stand_in_refuses_a_file_that_does_not_exist(
    named: dict[str, str], slack: SlackStub
) -> None:
    slack_api = api(slack)
    opened = await slack_api.open_view("trig-1", modal())

    with pytest.raises(SlackApiError) as raised:
        await slack_api.update_view(opened.id, modal(picture(named)), opened.hash)

    error, messages = refusal(raised)
    assert error == "invalid_arguments"
    assert messages == ["[ERROR] invalid slack file [json-pointer:/view/blocks/1/slack_file]"]
    assert slack.views.views[opened.id]["blocks"] == modal()["blocks"], "the view is unchanged"
    with pytest.raises(SlackApiError) as in_message:
        await slack_api.post("C1", Message("p", [picture(named)]))
    assert refusal(in_message)[0] == "invalid_blocks"


async def test_the_stand_in_refuses_files_a_block_may_not_show(slack: SlackStub) -> None:
    slack_api = api(slack)
    opened = await slack_api.open_view("trig-1", modal())
    text_file = await slack_api.upload_private(Upload("notes.txt", b"plain text", "t"), "t")
    other_app = SlackWebApi(build_web_client("xoxb-another-app", slack.api_url))
    not_ours = await other_app.upload_private(Upload("page.png", PNG, "p"), "p")
    slack.fail_next("files.completeUploadExternal", status=200, error="internal_error")
    with pytest.raises(SlackApiError):  # the bytes went up, the upload never completed
        await slack_api.upload_private(Upload("page.png", PNG, "p"), "p")
    [incomplete] = [f.id for f in slack.files.files.values() if f.completed_at is None]

    for file_id in (text_file, not_ours, incomplete):
        with pytest.raises(SlackApiError) as raised:
            await slack_api.update_view(opened.id, modal(picture({"id": file_id})), opened.hash)
        assert refusal(raised)[0] == "invalid_arguments", file_id


async def test_a_just_uploaded_file_is_refused_until_slack_processed_it(
    slack: SlackStub,
) -> None:
    clock = slack.files.clock = FakeClock()
    slack.files.ready_after = 0.3
    slack_api = api(slack)
    opened = await slack_api.open_view("trig-1", modal())
    file_id = await slack_api.upload_in_thread(
        "C1", "1.1", Upload("page.png", PNG, "Página 2"), "A página 2", ""
    )

    with pytest.raises(SlackApiError):
        await slack_api.update_view(opened.id, modal(picture({"id": file_id})), opened.hash)
    clock.advance(0.35)
    await slack_api.update_view(opened.id, modal(picture({"id": file_id})), opened.hash)


async def test_views_update_refuses_a_stale_hash_and_a_view_that_is_gone(
    slack: SlackStub,
) -> None:
    slack_api = api(slack)
    opened = await slack_api.open_view("trig-1", modal())
    await slack_api.update_view(opened.id, modal(title="Trecho [2]"), opened.hash)

    with pytest.raises(SlackApiError) as stale:
        await slack_api.update_view(opened.id, modal(title="Trecho [3]"), opened.hash)
    assert refusal(stale)[0] == "hash_conflict"
    slack.views.close(opened.id)
    with pytest.raises(SlackApiError) as gone:
        await slack_api.update_view(opened.id, modal(), "")
    assert refusal(gone)[0] == "not_found"


async def test_views_update_names_its_view_by_one_id(slack: SlackStub) -> None:
    client = build_web_client("xoxb-test", slack.api_url)
    view = modal()
    opened = await client.views_open(trigger_id="t", view={**view, "external_id": "ext-1"})

    with pytest.raises(SlackApiError) as both:
        await client.api_call(
            "views.update",
            json={"view": view, "view_id": opened["view"]["id"], "external_id": "ext-1"},
        )
    assert refusal(both)[0] == "invalid_arguments"
    by_external = await client.views_update(view=modal(title="Novo"), external_id="ext-1")
    assert by_external["view"]["id"] == opened["view"]["id"]
    assert by_external["view"]["external_id"] == "ext-1"


@pytest.mark.parametrize(
    "view",
    [
        modal(title="A title longer than twenty-four"),
        modal(*[{"type": "divider"}] * 100),
        modal({"type": "image", "slack_file": {"id": "F1", "url": "u"}, "alt_text": "a"}),
        modal({"type": "image", "slack_file": {"id": "F1"}}),
    ],
)
async def test_views_open_enforces_the_modal_limits(view: dict[str, Any], slack: SlackStub) -> None:
    with pytest.raises(SlackApiError) as raised:
        await api(slack).open_view("trig-1", view)
    assert refusal(raised)[0] == "invalid_arguments"
