"""The cited page in the excerpt modal, through the bot (Bolt over HTTP) against the Slack
stand-in, on a library with a real PDF: the modal opens text-only at once, the crop of the
cited page follows (shared once in the report's thread, then shown by views.update), and
whatever keeps the page from showing is said in the modal in one line, never silently.

The stand-in refuses a privately uploaded file in image blocks, as real workspaces do
("invalid slack file": slackapi/bolt-python#1251, slackapi/python-slack-sdk#1658)."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError

from bot.config import Settings
from bot.conversation import excerpt_page
from bot.runtime import Runtime
from bot.slack.api import SlackWebApi, Upload, build_web_client
from bot.slack.blockkit import Message
from bot.sources import open_library_sources
from engine.assembly import Sources
from engine.contracts import Claim, Report
from engine.render import PageEvidence
from tests.support.bot_env import SignedSlack, running_workers
from tests.support.clock import FakeClock
from tests.support.slack_pages import (
    CLAIMS,
    PNG_SIGNATURE,
    delivered,
    excerpt_button,
    pdf_report,
    write_pdf_library,
)
from tests.support.slack_runs import settle
from tests.support.slack_stub import Call, SlackStub

CHANNEL, USER, REPORT = "C5", "U1", "rp"
THREAD = "900.1"  # the thread slack_pages.delivered puts the report in


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """The library of these tests: a PDF and a Markdown note (replaces the conftest's)."""
    return write_pdf_library(tmp_path / "library")


async def ready(
    runtimes: Any, settings: Settings, bolt_http: Any, **overrides: Any
) -> tuple[Runtime, SignedSlack]:
    rt = await runtimes(settings, **overrides)
    await delivered(rt, await pdf_report(rt), REPORT, CHANNEL, USER)
    return rt, await bolt_http(rt)


Ready = Callable[..., Awaitable[tuple[Runtime, SignedSlack]]]


@pytest.fixture
def ready_bot(make_settings: Any, runtimes: Any, bolt_http: Any) -> Ready:
    """`ready` without Redis, as most tests here start the bot: called (with the runtime's
    overrides) once the test has set the stand-in up."""

    async def start(**overrides: Any) -> tuple[Runtime, SignedSlack]:
        return await ready(runtimes, make_settings(redis=False), bolt_http, **overrides)

    return start


async def press(sender: SignedSlack, claim: str) -> None:
    response = await sender.action(USER, CHANNEL, *excerpt_button(REPORT, CLAIMS[claim]))
    assert response.status_code == 200


async def press_failing(
    rt: Runtime,
    sender: SignedSlack,
    slack: SlackStub,
    caplog: pytest.LogCaptureFixture,
    method: str,
    error: str,
) -> None:
    """The PDF claim pressed while Slack answers the next `method` call with `error`, until
    the bot has tried to update the modal and settled; its warnings go to `caplog`."""
    slack.fail_next(method, status=200, error=error)
    with caplog.at_level(logging.WARNING, logger="bot.conversation.excerpt_page"):
        await press(sender, "pdf")
        await slack.wait_for(lambda: slack.calls_to("views.update", ok_only=False), what="try")
        await settle(rt)


def view_of(call: Call) -> dict[str, Any]:
    view = call.params["view"]
    return json.loads(view) if isinstance(view, str) else dict(view)


def images(call: Call) -> list[dict[str, Any]]:
    return [block for block in view_of(call)["blocks"] if block["type"] == "image"]


def opened_ids(slack: SlackStub) -> list[str]:
    """The ids of the modals the stand-in opened, in order."""
    return list(slack.views.views)


def told(slack: SlackStub) -> list[Call]:
    """Anything the bot said to a user."""
    return [c for c in slack.calls if c.method in ("chat.postMessage", "chat.postEphemeral")]


def texts(call: Call) -> str:
    return json.dumps(view_of(call), ensure_ascii=False)


def shares(slack: SlackStub) -> list[Call]:
    """The completed uploads of the crop (every attempt)."""
    return slack.calls_to("files.completeUploadExternal", ok_only=False)


# -- what the stand-in accepts -----------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def picture(file_id: str) -> dict[str, Any]:
    return {"type": "image", "slack_file": {"id": file_id}, "alt_text": "A página 2."}


def a_modal(*blocks: dict[str, Any]) -> dict[str, Any]:
    text = {"type": "section", "text": {"type": "mrkdwn", "text": "O trecho."}}
    return {
        "type": "modal",
        "title": {"type": "plain_text", "text": "Trecho"},
        "blocks": [text, *blocks],
    }


async def test_the_stand_in_refuses_a_private_upload_and_shows_one_shared_in_a_thread(
    slack: SlackStub,
) -> None:
    api = SlackWebApi(build_web_client("xoxb-test", slack.api_url))
    opened = await api.open_view("trig-1", a_modal())
    private = await api.upload_private(Upload("page.png", PNG, "Página 2"), "A página 2")

    with pytest.raises(SlackApiError) as in_view:
        await api.update_view(opened.id, a_modal(picture(private)), opened.hash)
    assert in_view.value.response["error"] == "invalid_arguments"
    assert in_view.value.response["response_metadata"]["messages"] == [
        "[ERROR] invalid slack file [json-pointer:/view/blocks/1/slack_file]"
    ]
    with pytest.raises(SlackApiError) as in_message:  # even posted by the uploader itself
        await api.post("C1", Message("p", [picture(private)]))
    assert in_message.value.response["errors"] == [
        "invalid slack file [json-pointer:/blocks/0/slack_file]"
    ]

    shared = await api.upload_in_thread("C1", "1.1", Upload("p.png", PNG, "P"), "alt", "c")
    [completed] = slack.calls_to("files.completeUploadExternal")[-1:]
    assert (completed.params["channel_id"], completed.params["thread_ts"]) == ("C1", "1.1")
    await api.update_view(opened.id, a_modal(picture(shared)), opened.hash)
    await api.post("C1", Message("p", [picture(shared)]))


async def test_a_shared_file_is_still_refused_until_slack_processed_it(slack: SlackStub) -> None:
    clock = slack.files.clock = FakeClock()
    slack.files.ready_after = 0.3
    api = SlackWebApi(build_web_client("xoxb-test", slack.api_url))
    opened = await api.open_view("trig-1", a_modal())
    shared = await api.upload_in_thread("C1", "1.1", Upload("p.png", PNG, "P"), "alt", "c")

    with pytest.raises(SlackApiError):
        await api.update_view(opened.id, a_modal(picture(shared)), opened.hash)
    clock.advance(0.35)
    await api.update_view(opened.id, a_modal(picture(shared)), opened.hash)


# -- the bot -----------------------------------------------------------------------------------


async def test_the_modal_opens_text_only_then_shows_the_page_shared_once_in_the_thread(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    rt, sender = await ready(runtimes, make_settings(), bolt_http)  # Redis, arq workers
    async with running_workers(rt):
        await press(sender, "pdf")
        updates = await slack.wait_for(lambda: slack.calls_to("views.update"), what="page")

        [opened] = slack.calls_to("views.open")
        assert images(opened) == [], "the modal opens with the text alone"
        assert "100% (cem por cento)" in texts(opened)
        [uploaded] = slack.calls_to("upload")
        file_id = uploaded.params["file_id"]
        assert slack.uploads[file_id].startswith(PNG_SIGNATURE)
        [completed] = slack.calls_to("files.completeUploadExternal")
        assert completed.params["channel_id"] == CHANNEL, "shared where the report is"
        assert completed.params["thread_ts"] == THREAD
        assert "[1]" in completed.params["initial_comment"]
        assert "página 2" in completed.params["initial_comment"]
        assert [m.get("files", [{}])[0].get("id") for m in slack.threads[(CHANNEL, THREAD)]] == [
            file_id
        ]
        order = [slack.calls.index(c) for c in (opened, uploaded, completed, updates[0])]
        assert order == sorted(order)
        [update] = updates
        assert update.params["view_id"] == opened_ids(slack)[0]
        assert update.params["hash"], "the update names the hash it read"
        [image] = images(update)
        assert image["slack_file"] == {"id": file_id}
        assert "Página 2" in image["alt_text"]
        assert "100% (cem por cento)" in texts(update)
        assert "A página também está no fio do relatório." in texts(update)
        assert await rt.states.page_file(REPORT, 1, CLAIMS["pdf"]) == file_id
        assert rt.redis is not None
        assert await rt.redis.get(rt.keys.page_file(REPORT, 1, CLAIMS["pdf"])) == file_id.encode()

        await press(sender, "pdf")
        again = await slack.wait_for(
            lambda: slack.calls_to("views.update")[1:], what="the page, pressed again"
        )

    assert len(slack.calls_to("files.getUploadURLExternal", ok_only=False)) == 1, "posted once"
    assert again[0].params["view_id"] == opened_ids(slack)[1]
    assert images(again[0])[0]["slack_file"] == {"id": file_id}
    assert told(slack) == []


@pytest.mark.parametrize("redis", [False, True])
async def test_presses_at_the_same_time_share_the_page_once(
    redis: bool, make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    rt, sender = await ready(runtimes, make_settings(redis=redis), bolt_http)
    workers = running_workers(rt) if redis else contextlib.nullcontext()
    async with workers:
        for _ in range(3):
            await press(sender, "pdf")
        await slack.wait_for(lambda: len(slack.calls_to("views.update")) == 3, what="3 pages")

    assert len(slack.calls_to("files.getUploadURLExternal", ok_only=False)) == 1
    assert len({images(c)[0]["slack_file"]["id"] for c in slack.calls_to("views.update")}) == 1


async def test_claims_without_a_page_upload_nothing_and_leave_their_modal_alone(
    ready_bot: Ready, slack: SlackStub
) -> None:
    rt, sender = await ready_bot()
    for claim in ("note", "web", "rejected", "pdf"):
        await press(sender, claim)
    await slack.wait_for(lambda: slack.calls_to("views.update"), what="the PDF's page")
    await settle(rt)

    assert len(slack.calls_to("views.open")) == 4
    assert len(slack.calls_to("files.getUploadURLExternal", ok_only=False)) == 1
    [update] = slack.calls_to("views.update", ok_only=False)
    assert update.params["view_id"] == opened_ids(slack)[3], "only the PDF claim's modal"


async def test_a_refused_share_is_said_in_the_modal_in_one_line(
    ready_bot: Ready, slack: SlackStub, caplog: pytest.LogCaptureFixture
) -> None:
    rt, sender = await ready_bot()
    await press_failing(rt, sender, slack, caplog, "files.completeUploadExternal", "internal_error")

    [said] = slack.calls_to("views.update")
    assert images(said) == []
    # internal_error is "likely due to a transient issue on our end" (the method's "Errors"):
    # the line says to try again, not the bare code.
    line = "Não consegui mostrar a página aqui: o Slack está indisponível; tente de novo"
    assert line in texts(said)
    assert "100% (cem por cento)" in texts(said), "the excerpt stays"
    assert told(slack) == []
    assert "was not shared: internal_error" in caplog.text
    assert await rt.states.page_file(REPORT, 1, CLAIMS["pdf"]) is None
    await press(sender, "pdf")  # a failure is not remembered: the next press shares it
    shown = await slack.wait_for(lambda: slack.calls_to("views.update")[1:], what="again")
    assert images(shown[0])


async def test_a_missing_files_write_scope_is_named_in_the_modal(
    ready_bot: Ready, slack: SlackStub
) -> None:
    slack.revoke("files:write")
    _, sender = await ready_bot()
    await press(sender, "pdf")
    [said] = await slack.wait_for(lambda: slack.calls_to("views.update"), what="the line")

    assert images(said) == []
    assert "`files:write`" in texts(said)
    assert "Não consegui mostrar a página aqui" in texts(said)


async def test_a_page_in_an_english_report_is_explained_in_english(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    slack.revoke("files:write")
    rt = await runtimes(make_settings(redis=False))
    report = (await pdf_report(rt)).model_copy(update={"language": "en"})
    await delivered(rt, report, REPORT, CHANNEL, USER)
    sender = await bolt_http(rt)
    await press(sender, "pdf")
    [said] = await slack.wait_for(lambda: slack.calls_to("views.update"), what="the line")

    assert "I could not show the page here: the app lacks the `files:write`" in texts(said)


@pytest.mark.parametrize("error", ["hash_conflict", "not_found"])
async def test_a_modal_closed_or_changed_is_left_alone(
    error: str, ready_bot: Ready, slack: SlackStub, caplog: pytest.LogCaptureFixture
) -> None:
    rt, sender = await ready_bot()
    await press_failing(rt, sender, slack, caplog, "views.update", error)

    assert len(slack.calls_to("views.update", ok_only=False)) == 1, "not retried"
    assert told(slack) == []
    assert f"the page was not shown: {error}" in caplog.text
    assert (
        slack.views.views[opened_ids(slack)[0]]["blocks"]
        == view_of(slack.calls_to("views.open")[0])["blocks"]
    )


async def test_a_just_shared_page_is_shown_once_slack_has_processed_it(
    ready_bot: Ready, slack: SlackStub
) -> None:
    clock = slack.files.clock = FakeClock()
    slack.files.ready_after = 0.8
    _, sender = await ready_bot()
    await press(sender, "pdf")
    # Slack still processes the page (however long the bot took to get here) until its time
    # has come; the bot retries meanwhile (UPDATE_RETRY_DELAYS, 7.5 s in all).
    await slack.wait_for(lambda: slack.calls_to("views.update", ok_only=False), what="try")
    clock.advance(0.8)
    shown = await slack.wait_for(lambda: slack.calls_to("views.update"), what="page", within=10)

    tries = slack.calls_to("views.update", ok_only=False)
    assert [c.error for c in tries[:-1]] == ["invalid_arguments"] * (len(tries) - 1)
    assert len(tries) >= 2
    assert images(shown[0])[0]["slack_file"] == {
        "id": slack.calls_to("upload")[0].params["file_id"]
    }


async def test_a_page_slack_still_processes_after_the_wait_is_said_in_the_modal(
    ready_bot: Ready,
    slack: SlackStub,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(excerpt_page, "UPDATE_RETRY_DELAYS", (0.01, 0.01))
    slack.files.clock = FakeClock()
    slack.files.ready_after = 60.0  # never, within this test
    _, sender = await ready_bot()
    await press(sender, "pdf")
    [said] = await slack.wait_for(lambda: slack.calls_to("views.update"), what="the line")

    assert len(slack.calls_to("views.update", ok_only=False)) == 4  # 3 refused, then the line
    assert images(said) == []
    assert "o Slack ainda processava a imagem; ela está no fio do relatório" in texts(said)


async def test_a_remembered_file_slack_no_longer_shows_is_forgotten_and_said(
    ready_bot: Ready,
    slack: SlackStub,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(excerpt_page, "UPDATE_RETRY_DELAYS", (0.05,))
    rt, sender = await ready_bot()
    await rt.states.set_page_file(REPORT, 1, CLAIMS["pdf"], "F0000000404")  # deleted since
    await press(sender, "pdf")
    [said] = await slack.wait_for(lambda: slack.calls_to("views.update"), what="the line")
    await settle(rt)

    assert "abra o trecho de novo" in texts(said)
    assert slack.calls_to("upload") == []
    assert await rt.states.page_file(REPORT, 1, CLAIMS["pdf"]) is None
    await press(sender, "pdf")
    shown = await slack.wait_for(lambda: slack.calls_to("views.update")[1:], what="anew")
    assert images(shown[0])
    assert slack.calls_to("upload")


@dataclass
class ThreadsOfCrops:
    """Page evidence that notes the thread each crop is rendered on."""

    inner: PageEvidence
    threads: list[int] = field(default_factory=list)

    def with_boxes(self, report: Report) -> Report:
        return self.inner.with_boxes(report)

    def crops(self, report: Report) -> Mapping[str, bytes]:
        self.threads.append(threading.get_ident())
        return self.inner.crops(report)

    def crop_png(self, claim: Claim) -> bytes | None:
        self.threads.append(threading.get_ident())
        return self.inner.crop_png(claim)


async def test_pages_are_cropped_off_the_event_loop(ready_bot: Ready, slack: SlackStub) -> None:
    noted: list[ThreadsOfCrops] = []

    def sources(settings: Settings) -> Sources:
        opened = open_library_sources(settings)
        assert opened.evidence is not None
        noted.append(ThreadsOfCrops(opened.evidence))
        return replace(opened, evidence=noted[0])

    _, sender = await ready_bot(open_sources=sources)
    await press(sender, "pdf")
    await slack.wait_for(lambda: slack.calls_to("views.update"), what="page")

    assert noted[0].threads
    assert threading.get_ident() not in noted[0].threads
