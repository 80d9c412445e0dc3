"""The cited page in the excerpt modal, through the bot (Bolt over HTTP) against the Slack
stand-in, on a library with a real PDF: the modal opens text-only at once, the crop of the
cited page follows (uploaded once, privately, then shown by views.update), and nothing the
crop needs ever turns into an error for the user."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.conversation import excerpt_page
from bot.runtime import Runtime
from bot.sources import open_library
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


async def press(sender: SignedSlack, claim: str) -> None:
    response = await sender.action(USER, CHANNEL, *excerpt_button(REPORT, CLAIMS[claim]))
    assert response.status_code == 200


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


async def test_the_modal_opens_text_only_then_shows_the_page_uploaded_once(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    rt, sender = await ready(runtimes, make_settings(), bolt_http)  # Redis, arq workers
    async with running_workers(rt):
        await press(sender, "pdf")
        updates = await slack.wait_for(lambda: slack.calls_to("views.update"), what="page")

        [opened] = slack.calls_to("views.open")
        assert images(opened) == [], "the modal opens with the text alone"
        assert "100% (cem por cento)" in json.dumps(view_of(opened), ensure_ascii=False)
        [uploaded] = slack.calls_to("upload")
        file_id = uploaded.params["file_id"]
        assert slack.uploads[file_id].startswith(PNG_SIGNATURE)
        [completed] = slack.calls_to("files.completeUploadExternal")
        assert not completed.params.get("channel_id"), "the crop is shared nowhere"
        order = [slack.calls.index(c) for c in (opened, uploaded, completed, updates[0])]
        assert order == sorted(order)
        [update] = updates
        assert update.params["view_id"] == opened_ids(slack)[0]
        assert update.params["hash"], "the update names the hash it read"
        [image] = images(update)
        assert image["slack_file"] == {"id": file_id}
        assert "Página 2" in image["alt_text"]
        assert "100% (cem por cento)" in json.dumps(view_of(update), ensure_ascii=False)
        assert await rt.states.page_file(REPORT, 1, CLAIMS["pdf"]) == file_id
        assert rt.redis is not None
        assert await rt.redis.get(rt.keys.page_file(REPORT, 1, CLAIMS["pdf"])) == file_id.encode()

        await press(sender, "pdf")
        again = await slack.wait_for(
            lambda: slack.calls_to("views.update")[1:], what="the page, pressed again"
        )

    assert len(slack.calls_to("files.getUploadURLExternal", ok_only=False)) == 1
    assert again[0].params["view_id"] == opened_ids(slack)[1]
    assert images(again[0])[0]["slack_file"] == {"id": file_id}
    assert told(slack) == []


async def test_claims_without_a_page_upload_nothing_and_leave_their_modal_alone(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    rt, sender = await ready(runtimes, make_settings(redis=False), bolt_http)
    for claim in ("note", "web", "rejected", "pdf"):
        await press(sender, claim)
    await slack.wait_for(lambda: slack.calls_to("views.update"), what="the PDF's page")
    await settle(rt)

    assert len(slack.calls_to("views.open")) == 4
    assert len(slack.calls_to("files.getUploadURLExternal", ok_only=False)) == 1
    [update] = slack.calls_to("views.update", ok_only=False)
    assert update.params["view_id"] == opened_ids(slack)[3], "only the PDF claim's modal"


async def test_a_failed_upload_leaves_the_modal_as_it_opened(
    make_settings: Any,
    runtimes: Any,
    bolt_http: Any,
    slack: SlackStub,
    caplog: pytest.LogCaptureFixture,
) -> None:
    rt, sender = await ready(runtimes, make_settings(redis=False), bolt_http)
    slack.fail_next("files.completeUploadExternal", status=200, error="internal_error")
    with caplog.at_level(logging.WARNING, logger="bot.conversation.excerpt_page"):
        await press(sender, "pdf")
        await slack.wait_for(
            lambda: slack.calls_to("files.completeUploadExternal", ok_only=False), what="upload"
        )
        await settle(rt)

    assert slack.calls_to("views.open")
    assert slack.calls_to("views.update", ok_only=False) == []
    assert told(slack) == []
    assert "was not uploaded: internal_error" in caplog.text
    assert await rt.states.page_file(REPORT, 1, CLAIMS["pdf"]) is None
    await press(sender, "pdf")  # a failure is not remembered: the next press uploads
    await slack.wait_for(lambda: slack.calls_to("views.update"), what="page, pressed again")


@pytest.mark.parametrize("error", ["hash_conflict", "not_found"])
async def test_a_refused_update_leaves_the_modal_as_it_opened(
    error: str,
    make_settings: Any,
    runtimes: Any,
    bolt_http: Any,
    slack: SlackStub,
    caplog: pytest.LogCaptureFixture,
) -> None:
    rt, sender = await ready(runtimes, make_settings(redis=False), bolt_http)
    slack.fail_next("views.update", status=200, error=error)
    with caplog.at_level(logging.WARNING, logger="bot.conversation.excerpt_page"):
        await press(sender, "pdf")
        await slack.wait_for(lambda: slack.calls_to("views.update", ok_only=False), what="try")
        await settle(rt)

    assert len(slack.calls_to("views.update", ok_only=False)) == 1, "not retried"
    assert told(slack) == []
    assert f"the page was not shown: {error}" in caplog.text
    assert (
        slack.views.views[opened_ids(slack)[0]]["blocks"]
        == view_of(slack.calls_to("views.open")[0])["blocks"]
    )


async def test_a_just_uploaded_page_is_shown_once_slack_has_processed_it(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    clock = slack.files.clock = FakeClock()
    slack.files.ready_after = 0.8
    _, sender = await ready(runtimes, make_settings(redis=False), bolt_http)
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


async def test_a_remembered_file_slack_no_longer_shows_is_forgotten(
    make_settings: Any,
    runtimes: Any,
    bolt_http: Any,
    slack: SlackStub,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(excerpt_page, "UPDATE_RETRY_DELAYS", (0.05,))
    rt, sender = await ready(runtimes, make_settings(redis=False), bolt_http)
    await rt.states.set_page_file(REPORT, 1, CLAIMS["pdf"], "F0000000404")  # deleted since
    await press(sender, "pdf")
    await slack.wait_for(lambda: len(slack.calls_to("views.update", ok_only=False)) == 2)
    await settle(rt)

    assert slack.calls_to("views.update") == []
    assert await rt.states.page_file(REPORT, 1, CLAIMS["pdf"]) is None
    await press(sender, "pdf")
    await slack.wait_for(lambda: slack.calls_to("views.update"), what="page uploaded anew")
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


async def test_pages_are_cropped_off_the_event_loop(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    noted: list[ThreadsOfCrops] = []

    def sources(settings: Settings) -> Sources:
        opened = open_library(settings)
        assert opened.evidence is not None
        noted.append(ThreadsOfCrops(opened.evidence))
        return replace(opened, evidence=noted[0])

    _, sender = await ready(runtimes, make_settings(redis=False), bolt_http, open_sources=sources)
    await press(sender, "pdf")
    await slack.wait_for(lambda: slack.calls_to("views.update"), what="page")

    assert noted[0].threads
    assert threading.get_ident() not in noted[0].threads
