"""The Slack half of delivery: messages posted in order until Slack refuses one, refusals
read into a line the user can act on, a user told wherever the bot can still reach them, and
the report as a canvas when Slack takes one."""

from __future__ import annotations

from bot.slack.api import SlackFailure, SlackWebApi, build_web_client
from bot.slack.blockkit import Message, section
from bot.slack.delivery import post_pages, reason_text, report_files, share_canvas, tell
from bot.slack.texts import EN, PT
from engine.render import render_markdown
from tests.support.slack_samples import report
from tests.support.slack_stub import SlackStub


def api(slack: SlackStub) -> SlackWebApi:
    return SlackWebApi(build_web_client("xoxb-test", slack.api_url))


async def test_pages_stop_at_the_first_refusal_and_report_it(slack: SlackStub) -> None:
    posted: list[str] = []

    async def record(ts: str) -> None:
        posted.append(ts)

    pages = [Message(f"p{n}", [section(f"page {n}")]) for n in range(3)]
    slack.fail_next("chat.postMessage", status=200, error="msg_blocks_too_long")
    failure = await post_pages(api(slack), "C1", "1.1", pages, record)
    assert failure == SlackFailure("msg_blocks_too_long")
    assert posted == []
    failure = await post_pages(api(slack), "C1", "1.1", pages, record)
    assert failure is None
    assert len(posted) == 3


async def test_missing_scope_names_the_scope_slack_says_is_needed(slack: SlackStub) -> None:
    slack.revoke("chat:write")
    failure = await post_pages(api(slack), "C1", "1.1", [Message("x")], lambda ts: _noop())
    assert failure is not None
    assert (failure.error, failure.needed, failure.transient) == (
        "missing_scope",
        "chat:write",
        False,
    )
    assert "`chat:write`" in reason_text(PT, failure)
    assert "`chat:write`" in reason_text(EN, failure)


async def _noop() -> None:
    return None


def test_reasons_in_both_languages() -> None:
    for error, pt_words, en_words in (
        ("not_in_channel", "/invite", "/invite"),
        ("msg_blocks_too_long", "longa", "too long"),
        ("ratelimited", "limitou", "rate-limited"),
        ("weird_error", "`weird_error`", "`weird_error`"),
    ):
        assert pt_words in reason_text(PT, SlackFailure(error))
        assert en_words in reason_text(EN, SlackFailure(error))
    assert reason_text(EN, SlackFailure("http_503", transient=True)) == EN.error_unavailable


async def test_a_user_is_told_in_their_dm_where_the_channel_refuses(slack: SlackStub) -> None:
    slack.channels_without_bot.add("C1")
    await tell(api(slack), "C1", "1.1", "U7", "hello")
    refused = [c for c in slack.calls if not c.ok]
    assert [c.method for c in refused] == ["chat.postMessage", "chat.postEphemeral"]
    (told,) = slack.calls_to("chat.postMessage")
    assert (told.params["channel"], told.params["text"]) == ("U7", "hello")


def test_the_html_file_shows_the_page_crops_it_is_given() -> None:
    sample = report(2)
    cited = sample.cited_claim_ids()[0]
    crop = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16

    html, markdown = report_files(sample, 1, {cited: crop})
    plain_html, _ = report_files(sample, 1)

    assert html.content.count(b"data:image/png;base64,") == 1
    assert b"data:image/png" not in plain_html.content
    assert b"data:image/png" not in markdown.content


async def test_a_canvas_holds_the_report_as_markdown_tabbed_in_its_channel(
    slack: SlackStub,
) -> None:
    sample = report(3)
    canvas_id = await share_canvas(api(slack), "C1", sample)
    assert canvas_id is not None
    canvas = slack.canvases.canvases[canvas_id]
    assert (canvas.title, canvas.channel_id) == ("Relatório: mercado", "C1")
    assert canvas.markdown == render_markdown(sample)
    [call] = slack.calls_to("canvases.create")
    assert call.params["document_content"]["type"] == "markdown"  # sent as JSON


async def test_a_canvas_slack_refuses_is_none_never_an_error(slack: SlackStub) -> None:
    slack.revoke("canvases:write")
    assert await share_canvas(api(slack), "C1", report(1)) is None
    [refused] = slack.calls_to("canvases.create", ok_only=False)
    assert refused.error == "missing_scope"
    slack.granted.add("canvases:write")
    slack.canvases.free_team = True  # a free workspace: tabbed in a channel, or refused
    assert await share_canvas(api(slack), "", report(1)) is None
    assert await share_canvas(api(slack), "C1", report(1)) is not None
    slack.canvases.disabled = True
    assert await share_canvas(api(slack), "C1", report(1)) is None
    errors = [c.error for c in slack.calls_to("canvases.create", ok_only=False)]
    assert errors == [
        "missing_scope",
        "canvas_creation_failed",
        None,
        "canvas_disabled_user_team",
    ]


async def test_a_failed_canvas_creation_makes_none(slack: SlackStub) -> None:
    """canvas_creation_failed (docs.slack.dev/reference/methods/canvases.create): no canvas."""
    slack.fail_next("canvases.create", status=200, error="canvas_creation_failed")
    assert await share_canvas(api(slack), "C1", report(1)) is None
