"""The Web API boundary: transient answers are retried as Slack asks (Retry-After), permanent
ones are not, and a failure reads into the error code and scope Slack named."""

from __future__ import annotations

import pytest
from slack_sdk.errors import SlackApiError

from bot.slack.api import SlackFailure, SlackWebApi, build_web_client
from bot.slack.blockkit import Message
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
