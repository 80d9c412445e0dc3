"""Delivery: report messages in the thread, then HTML and Markdown through files_upload_v2."""

from __future__ import annotations

from bot.slack.api import SlackWebApi, build_web_client
from bot.slack.delivery import deliver
from tests.support.slack_samples import report
from tests.support.slack_stub import SlackStub


async def test_report_messages_and_both_files_land_in_the_thread(slack: SlackStub) -> None:
    api = SlackWebApi(build_web_client("xoxb-test", slack.api_url))
    posted = await deliver(api, "C9", "77.1", report(60), "r1", 3)
    messages = slack.calls_to("chat.postMessage")
    assert len(posted) == len(messages) == 2
    assert all(m.params["channel"] == "C9" and m.params["thread_ts"] == "77.1" for m in messages)
    urls = slack.calls_to("files.getUploadURLExternal")
    assert sorted(c.params["filename"] for c in urls) == [
        "fonte-report-v3.html",
        "fonte-report-v3.md",
    ]
    assert len(slack.calls_to("upload")) == 2
    complete = slack.calls_to("files.completeUploadExternal")[0].params
    assert complete["channel_id"] == "C9"
    assert complete["thread_ts"] == "77.1"
    contents = list(slack.uploads.values())
    assert any(c.startswith(b"<!DOCTYPE html") or b"<html" in c for c in contents)
    assert any(c.startswith(b"# Relat") for c in contents)
