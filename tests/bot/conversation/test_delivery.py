"""Delivery always ends: every failure Slack can answer leaves the report in a final state,
tells the user in one line, and keeps the report deepenable; nothing is posted twice; and
every message fits Slack's limits, checked by the strict stand-in."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import docx
import pptx
import pytest
from docx.opc.constants import RELATIONSHIP_TYPE as RT

from bot.conversation.delivery import PAGE_EVENT, deliver_report, page_marker
from bot.flows import handle_step
from bot.redis.state import ReportState
from bot.runtime import Runtime
from bot.slack.blockkit import MAX_BLOCKS, Message, text_size
from bot.slack.report_blocks import report_messages
from bot.slack.texts import PT
from bot.steps import Start
from engine.contracts import Limits, Plan, Report, Subquestion
from tests.support.slack_pages import pdf_report, write_pdf_library
from tests.support.slack_runs import (
    CHANNEL,
    USER,
    deepened,
    finished_report,
    planned_report,
    settle,
    state_of,
)
from tests.support.slack_samples import report
from tests.support.slack_stub import SlackStub

THREAD = "77.1"


async def delivering(rt: Runtime, sample: Report, report_id: str = "r1") -> ReportState:
    """A report saved and ready to deliver, as run_report leaves it."""
    state = ReportState(
        report_id=report_id,
        channel=CHANNEL,
        thread_ts=THREAD,
        requester=USER,
        question=sample.question,
        language=sample.language,
        limits=Limits(),
        plan=Plan(question="Q", subquestions=[Subquestion(id="s1", text="Q")]),
        status="delivering",
        reported=1,
    )
    assert await rt.states.create(state)
    await rt.states.save_report(report_id, 1, sample)
    return state


def notices(slack: SlackStub) -> list[str]:
    """Plain one-line messages the bot posted (not report pages)."""
    return [
        str(c.params.get("text", ""))
        for c in slack.calls_to("chat.postMessage")
        if not c.blocks() and str(c.params.get("text", "")).startswith(":warning:")
    ]


async def test_messages_then_both_files_land_in_the_thread(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sample = report(60)
    await delivering(rt, sample)
    await deliver_report(rt, "r1", 1, sample)
    state = await rt.states.get("r1")
    assert state is not None
    messages = slack.calls_to("chat.postMessage")
    assert len(messages) >= 2
    assert len(state.posted) == len(messages)
    assert all(m.params["channel"] == CHANNEL and m.params["thread_ts"] == THREAD for m in messages)
    urls = slack.calls_to("files.getUploadURLExternal")
    assert sorted(c.params["filename"] for c in urls) == [
        "fonte-report-v1.docx",
        "fonte-report-v1.html",
        "fonte-report-v1.md",
        "fonte-report-v1.pdf",
        "fonte-report-v1.pptx",
    ]
    complete = slack.calls_to("files.completeUploadExternal")[0].params
    assert (complete["channel_id"], complete["thread_ts"]) == (CHANNEL, THREAD)
    contents = list(slack.uploads.values())
    assert any(b"<html" in c for c in contents)
    assert any(c.startswith(b"# Relat") for c in contents)
    assert (state.status, state.delivered, state.files_posted) == ("delivered", 1, True)
    assert not notices(slack)


async def test_the_html_file_shows_the_cited_pdf_pages_the_markdown_does_not(
    make_settings: Any, runtimes: Any, slack: SlackStub, tmp_path: Path
) -> None:
    pdfs = write_pdf_library(tmp_path / "pdfs")
    rt = await runtimes(make_settings(redis=False, library=pdfs))
    sample = await pdf_report(rt)
    await delivering(rt, sample)
    await deliver_report(rt, "r1", 1, sample)

    [html] = [c for c in slack.uploads.values() if b"<html" in c]
    [markdown] = [c for c in slack.uploads.values() if c.startswith(b"# ")]
    assert html.count(b"data:image/png;base64,") == 1, "the PDF claim's page, no other"
    assert b"data:image/png" not in markdown
    state = await rt.states.get("r1")
    assert state is not None
    assert (state.status, state.files_posted) == ("delivered", True)


async def test_the_word_and_powerpoint_files_land_beside_the_html(
    make_settings: Any, runtimes: Any, slack: SlackStub, tmp_path: Path
) -> None:
    pdfs = write_pdf_library(tmp_path / "pdfs")
    rt = await runtimes(make_settings(redis=False, library=pdfs))
    sample = await pdf_report(rt)
    await delivering(rt, sample)
    await deliver_report(rt, "r1", 1, sample)

    names = [c.params["filename"] for c in slack.calls_to("files.getUploadURLExternal")]
    assert {"fonte-report-v1.docx", "fonte-report-v1.pptx"} <= set(names)
    word = docx.Document(io.BytesIO(office_file(slack, "word/document.xml")))
    deck = pptx.Presentation(io.BytesIO(office_file(slack, "ppt/presentation.xml")))
    [cited] = [c for c in sample.claims if c.id in sample.cited_claim_ids()][:1]
    excerpt = " ".join(cited.excerpt.split())[:40]
    footnotes = word.part.part_related_by(RT.FOOTNOTES).blob.decode("utf-8")
    assert excerpt in " ".join(footnotes.split()), "a footnote holds the cited excerpt"
    assert len(word.inline_shapes) >= 1, "the cited PDF page's crop is in the Word file"
    notes = [s.notes_slide.notes_text_frame.text for s in deck.slides if s.has_notes_slide]
    assert any(excerpt in " ".join(n.split()) for n in notes), "the deck's notes hold it"
    state = await state_of(rt, "r1")
    assert (state.status, state.files_posted) == ("delivered", True)


def office_file(slack: SlackStub, part: str) -> bytes:
    """The one uploaded file that is an Office package holding `part`."""
    [content] = [
        c
        for c in slack.uploads.values()
        if c.startswith(b"PK") and part in zipfile.ZipFile(io.BytesIO(c)).namelist()
    ]
    return content


async def test_a_hundred_claims_fit_slacks_limits_in_every_message(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sample = long_excerpts(report(100))
    await delivering(rt, sample)
    await deliver_report(rt, "r1", 1, sample)
    sent = slack.calls_to("chat.postMessage", ok_only=False)
    assert sent
    assert all(c.ok for c in sent), [c.error for c in sent if not c.ok]
    sizes = [(len(c.blocks()), text_size(c.blocks())) for c in sent]
    largest_blocks = max(b for b, _ in sizes)
    largest_text = max(t for _, t in sizes)
    print(
        f"100 claims: {len(sent)} messages; largest {largest_blocks} blocks, "
        f"{largest_text} characters of block text (budget {rt.settings.text_budget}, "
        f"stand-in ceiling {slack.text_ceiling})"
    )
    assert largest_blocks <= MAX_BLOCKS
    assert largest_text <= rt.settings.text_budget
    every_excerpt = " ".join(c.text_of_blocks() for c in sent)
    assert every_excerpt.count('"action_id": "fonte_excerpt"') == 100  # one press away
    assert (await rt.states.get("r1")).status == "delivered"  # type: ignore[union-attr]


def long_excerpts(sample: Report) -> Report:
    """Claims as real pages give them: long titles, excerpts of a paragraph."""
    words = "a potência instalada de geração distribuída solar cresceu no período " * 8
    claims = [
        c.model_copy(
            update={
                "title": f"{c.title}: relatório anual da associação do setor elétrico, 2024",
                "excerpt": f"{c.excerpt} {words}",
            }
        )
        for c in sample.claims
    ]
    return sample.model_copy(update={"claims": claims})


async def test_a_smaller_text_budget_gives_more_smaller_messages(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False, text_budget=4000))
    sample = report(40)
    await delivering(rt, sample)
    await deliver_report(rt, "r1", 1, sample)
    sent = slack.calls_to("chat.postMessage")
    assert len(sent) > len(report_messages(sample, "r1", 1))  # the default budget
    assert all(text_size(c.blocks()) <= 4000 for c in sent)


async def test_a_run_delivered_again_posts_nothing_twice(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sample = report(100)
    await delivering(rt, sample)
    first_page = await rt.slack.post(CHANNEL, _first_page(rt, sample), THREAD)
    # A crash after the first page was posted and recorded: the replay goes on from page 2.
    await rt.states.update("r1", lambda s: s.model_copy(update={"posted": [first_page]}))
    slack.calls.clear()
    await deliver_report(rt, "r1", 1, sample)
    await deliver_report(rt, "r1", 1, sample)  # and once more, after it ended
    pages = slack.calls_to("chat.postMessage")
    state = await rt.states.get("r1")
    assert state is not None
    assert len(state.posted) == len(pages) + 1
    assert "(continuação 2/" in pages[0].all_text()
    assert len(slack.calls_to("files.completeUploadExternal")) == 1


def _first_page(rt: Runtime, sample: Report) -> Message:
    return report_messages(sample, "r1", 1, text_budget=rt.settings.text_budget)[0]


async def test_missing_scope_on_upload_keeps_the_message_and_says_so(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    slack.revoke("files:write")
    state = await finished_report(rt, "800.1")
    assert state.status == "delivered"
    assert state.delivery_error == "missing_scope"
    assert slack.calls_to("chat.postMessage")  # the report itself is there
    (line,) = notices(slack)
    assert "arquivos" in line
    assert "`files:write`" in line
    again = await deepened(rt, state, "quando expiram os créditos de energia elétrica?")
    assert (again.version, again.delivered, again.status) == (2, 2, "delivered")


async def test_msg_blocks_too_long_ends_delivery_failed_with_the_files(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    slack.text_ceiling = 500  # a workspace stricter than any message the bot sends
    state = await finished_report(rt, "801.1")
    assert (state.status, state.delivery_error) == ("delivery_failed", "msg_blocks_too_long")
    assert slack.calls_to("files.completeUploadExternal"), "the files carry the full report"
    (line,) = notices(slack)
    assert line == PT.delivery_partial.format(reason=PT.error_too_long)
    refused = [c for c in slack.calls_to("chat.postMessage", ok_only=False) if not c.ok]
    assert len(refused) == 1, "a permanent error is not retried"
    slack.text_ceiling = 12_000
    again = await deepened(rt, state, "quando expiram os créditos de energia elétrica?")
    assert (again.version, again.status) == (2, "delivered")


async def test_rate_limits_are_retried_after_retry_after(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sample = report(5)
    await delivering(rt, sample)
    slack.fail_next("chat.postMessage", times=1, status=429, retry_after=1)
    await deliver_report(rt, "r1", 1, sample)
    tries = slack.calls_to("chat.postMessage", ok_only=False)
    assert [c.status for c in tries] == [429, 200]
    assert tries[1].at - tries[0].at >= 1.0, "retried before Retry-After"
    state = await rt.states.get("r1")
    assert state is not None
    assert (state.status, state.delivery_error) == ("delivered", None)
    assert not notices(slack)


async def test_server_errors_are_retried_and_then_end_delivery_failed(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sample = report(5)
    await delivering(rt, sample)
    slack.fail_next("chat.postMessage", times=1, status=500, retry_after=0)
    await deliver_report(rt, "r1", 1, sample)
    assert [c.status for c in slack.calls_to("chat.postMessage", ok_only=False)] == [500, 200]
    assert (await rt.states.get("r1")).status == "delivered"  # type: ignore[union-attr]

    state = await finished_report_with(rt, slack, "802.1", times=4)
    assert (state.status, state.delivery_error) == ("delivery_failed", "fatal_error")
    (line,) = notices(slack)
    assert line == PT.delivery_failed.format(reason=PT.error_unavailable)
    again = await deepened(rt, state, "quando expiram os créditos de energia elétrica?")
    assert (again.version, again.status) == (2, "delivered")


async def finished_report_with(
    rt: Runtime, slack: SlackStub, thread: str, times: int
) -> ReportState:
    """A report whose pages meet `times` 500s in a row (every retry spent)."""
    report_id = await planned_report(rt, thread)
    slack.calls.clear()
    slack.fail_next(
        "chat.postMessage", times=times, status=500, retry_after=0, matching=is_report_page
    )
    await handle_step(rt, Start(report_id=report_id, user=USER, channel=CHANNEL))
    await settle(rt)
    return await state_of(rt, report_id)


def is_report_page(params: dict[str, Any]) -> bool:
    return "fonte_excerpt" in str(params.get("blocks", ""))


async def test_not_in_channel_tells_the_requester_in_their_dm(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sample = report(5)
    await delivering(rt, sample)
    slack.channels_without_bot.add(CHANNEL)
    await deliver_report(rt, "r1", 1, sample)
    state = await rt.states.get("r1")
    assert state is not None
    assert (state.status, state.delivery_error) == ("delivery_failed", "not_in_channel")
    assert not slack.calls_to("files.getUploadURLExternal", ok_only=False)
    told = [c for c in slack.calls_to("chat.postMessage") if c.params["channel"] == USER]
    assert len(told) == 1
    assert "/invite @Fonte" in told[0].params["text"]
    assert state.deepenable


async def test_a_bot_removed_from_the_channel_mid_run_still_ends_and_tells_the_requester(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    report_id = await planned_report(rt, "803.1")
    slack.channels_without_bot.add(CHANNEL)  # removed after the plan was posted
    await handle_step(rt, Start(report_id=report_id, user=USER, channel=CHANNEL))
    await settle(rt)
    state = await state_of(rt, report_id)
    assert (state.status, state.delivery_error, state.reported) == (
        "delivery_failed",
        "not_in_channel",
        1,
    )
    told = [c for c in slack.calls_to("chat.postMessage") if c.params["channel"] == USER]
    assert len(told) == 1
    assert "/invite @Fonte" in told[0].params["text"]
    slack.channels_without_bot.clear()  # invited back
    again = await deepened(rt, state, "quando expiram os créditos de energia elétrica?")
    assert (again.version, again.status) == (2, "delivered")


async def test_a_page_posted_just_before_a_crash_is_found_not_posted_again(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sample = long_excerpts(report(100))
    await delivering(rt, sample)
    # The first attempt posted page 0 and recorded it, marked page 1 as going out, posted
    # it... and died before recording its ts.
    pages = report_messages(sample, "r1", 1, text_budget=rt.settings.text_budget)
    for n in (0, 1):
        marker = {"event_type": PAGE_EVENT, "event_payload": page_marker("r1", 1, n)}
        ts = await rt.slack.post(CHANNEL, replace(pages[n], metadata=marker), THREAD)
        if n == 0:
            await rt.states.update("r1", lambda s, ts=ts: s.model_copy(update={"posted": [ts]}))
    await rt.states.update("r1", lambda s: s.model_copy(update={"posting": 1}))
    await deliver_report(rt, "r1", 1, sample)  # the job, run again
    posted = slack.calls_to("chat.postMessage")
    numbers = [c.params["metadata"]["event_payload"]["page"] for c in posted]
    assert numbers == list(range(len(pages))), "a page was posted twice or not at all"
    state = await state_of(rt, "r1")
    assert (state.status, len(state.posted), state.posting) == ("delivered", len(pages), None)
    assert slack.calls_to("conversations.replies")[0].params["include_all_metadata"] in (
        "1",
        "true",
        "True",
    )


async def test_a_page_marked_but_never_posted_is_posted_once(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sample = report(5)
    await delivering(rt, sample)
    await rt.slack.post(CHANNEL, Message("the progress message"), THREAD)  # the thread exists
    await rt.states.update("r1", lambda s: s.model_copy(update={"posting": 0}))
    await deliver_report(rt, "r1", 1, sample)
    pages = [c for c in slack.calls_to("chat.postMessage") if c.params.get("metadata")]
    assert len(pages) == 1
    assert (await state_of(rt, "r1")).status == "delivered"


async def test_files_uploaded_just_before_a_crash_are_not_uploaded_again(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sample = report(5)
    await delivering(rt, sample)
    await deliver_report(rt, "r1", 1, sample)
    # As if the attempt had died after the upload, before recording it: run it again.
    await rt.states.update(
        "r1",
        lambda s: s.model_copy(
            update={"status": "delivering", "files_posted": False, "files_posting": True}
        ),
    )
    await deliver_report(rt, "r1", 1, sample)
    assert len(slack.calls_to("files.completeUploadExternal")) == 1
    state = await state_of(rt, "r1")
    assert (state.status, state.files_posted) == ("delivered", True)
    assert len(slack.calls_to("chat.postMessage")) == len(state.posted)


def broken_markdown(report: Report) -> str:
    raise ValueError("markdown renderer failed")


async def test_a_file_that_cannot_be_rendered_ends_delivery_failed_with_the_other_file(
    make_settings: Any, runtimes: Any, slack: SlackStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Wherever the Markdown is rendered from: the engine's renderers or the Slack helpers.
    monkeypatch.setattr("engine.render.files.render_markdown", broken_markdown)
    monkeypatch.setattr("bot.slack.delivery.render_markdown", broken_markdown)
    rt = await runtimes(make_settings(redis=False))
    sample = report(5)
    await delivering(rt, sample)

    await deliver_report(rt, "r1", 1, sample)

    state = await state_of(rt, "r1")
    assert (state.status, state.delivered, state.delivery_error) == (
        "delivery_failed",
        1,
        "file_not_made",
    )
    assert slack.calls_to("chat.postMessage"), "the report's messages are there"
    names = [c.params["filename"] for c in slack.calls_to("files.getUploadURLExternal")]
    assert names == [
        "fonte-report-v1.html",
        "fonte-report-v1.pdf",
        "fonte-report-v1.docx",
        "fonte-report-v1.pptx",
    ], "the files that could be made are attached"
    [html] = [c for c in slack.uploads.values() if b"<html" in c]
    assert b"fonte-report-v1.md n\xc3\xa3o p\xc3\xb4de ser gerado" in html  # its notes say so
    (line,) = notices(slack)
    assert line.startswith(":warning: Não consegui gerar fonte-report-v1.md")
    assert "aprofunde" in line
    assert state.deepenable


async def test_page_crops_that_raise_leave_the_html_without_them_and_deliver(
    make_settings: Any,
    runtimes: Any,
    slack: SlackStub,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pdfs = write_pdf_library(tmp_path / "pdfs")
    rt = await runtimes(make_settings(redis=False, library=pdfs))
    sample = await pdf_report(rt)
    await delivering(rt, sample)

    def broken(self: object, report: Report) -> dict[str, bytes]:
        raise ValueError("crop failed")

    monkeypatch.setattr("engine.sources.library.page_evidence.LibraryPageEvidence.crops", broken)
    await deliver_report(rt, "r1", 1, sample)

    state = await state_of(rt, "r1")
    assert (state.status, state.files_posted) == ("delivered", True)
    [html] = [c for c in slack.uploads.values() if b"<html" in c]
    assert b"data:image/png" not in html
    assert "Os recortes das páginas citadas não puderam ser gerados".encode() in html
    assert len(slack.uploads) == 5
