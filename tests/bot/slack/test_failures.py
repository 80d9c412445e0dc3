"""What a failed Slack call tells the user: each documented error code of chat.postMessage
(https://docs.slack.dev/reference/methods/chat.postMessage, "Errors") and the rate-limit
answers (https://docs.slack.dev/apis/web-api/rate-limits) has its own line, in both
languages, and the transient ones say to try again."""

from __future__ import annotations

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.slack_response import SlackResponse

from bot.slack.api import Cause, SlackFailure
from bot.slack.delivery import reason_text
from bot.slack.texts import texts_for
from engine import Language

BY_CAUSE = {
    Cause.rate_limited: ("rate_limited", "ratelimited"),
    Cause.not_a_member: ("not_in_channel", "channel_not_found"),
    Cause.archived: ("is_archived",),
    Cause.restricted: ("restricted_action", "restricted_action_thread_only_channel"),
    Cause.too_long: ("msg_too_long",),
    Cause.auth: ("invalid_auth", "token_revoked"),
    Cause.unavailable: ("internal_error", "service_unavailable"),
    Cause.other: ("no_text",),  # documented, but no line of its own: the code is shown
}
DOCUMENTED = {error: cause for cause, errors in BY_CAUSE.items() for error in errors}


@pytest.mark.parametrize("error", sorted(DOCUMENTED))
@pytest.mark.parametrize("language", ["pt", "en"])
def test_each_documented_error_gets_its_own_line(error: str, language: Language) -> None:
    cause = DOCUMENTED[error]
    t = texts_for(language)
    failure = SlackFailure(error)
    line = reason_text(t, failure)
    expected = {
        Cause.rate_limited: t.error_rate_limited,
        Cause.not_a_member: t.error_not_in_channel,
        Cause.archived: t.error_archived,
        Cause.restricted: t.error_restricted,
        Cause.too_long: t.error_too_long,
        Cause.auth: t.error_auth,
        Cause.unavailable: t.error_unavailable,
        Cause.other: t.error_other.format(error=error),
    }[cause]
    assert failure.cause is cause
    assert line == expected


def test_an_archived_channel_is_not_told_to_invite_the_bot() -> None:
    t = texts_for("en")
    assert "/invite" not in reason_text(t, SlackFailure("is_archived"))


def test_rate_limited_and_server_errors_are_transient() -> None:
    def refused(error: str, status: int = 200) -> SlackFailure:
        response = SlackResponse(
            client=None,
            http_verb="POST",
            api_url="https://slack.com/api/chat.postMessage",
            req_args={},
            data={"ok": False, "error": error},
            headers={},
            status_code=status,
        )
        return SlackFailure.of(SlackApiError("refused", response))

    assert refused("rate_limited").transient
    assert refused("internal_error").transient
    assert refused("ratelimited", 429).transient
    assert not refused("not_in_channel").transient
