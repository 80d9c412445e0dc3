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
from bot.steps import EditPlan, Start
from engine.contracts import (
    FiguresTable,
    Report,
    Section,
    TableCell,
    TableRow,
)
from engine.text import collapse_whitespace
from tests.support.slack_pages import pdf_report, write_pdf_library
from tests.support.slack_runs import (
    CHANNEL,
    USER,
    deepened,
    finished_report,
    planned_report,
    saved_report,
    settle,
    state_of,
)
from tests.support.slack_samples import YEARS, figures_table, report
from tests.support.slack_stub import SlackStub

THREAD = "77.1"


async def delivering(rt: Runtime, sample: Report, report_id: str = "r1") -> ReportState:
    """A report saved and ready to deliver, as run_report leaves it."""
    return await saved_report(
        rt, sample, report_id, channel=CHANNEL, user=USER, thread=THREAD, status="delivering"
    )


async def saved_and_delivered(rt: Runtime, sample: Report) -> None:
    """A report saved ready to deliver, then delivered once (the delivery job's first run)."""
    await delivering(rt, sample)
    await deliver_report(rt, "r1", 1, sample)


def notices(slack: SlackStub) -> list[str]:
    """Plain one-line messages the bot posted (not report pages)."""
    return [
        str(c.params.get("text", ""))
        for c in slack.calls_to("chat.postMessage")
        if not c.blocks() and str(c.params.get("text", "")).startswith(":warning:")
    ]


async def test_one_report_message_then_the_files_message_land_in_the_thread(
    rt: Runtime, slack: SlackStub
) -> None:
    sample = report(60)
    await saved_and_delivered(rt, sample)
    state = await rt.states.get("r1")
    assert state is not None
    messages = slack.calls_to("chat.postMessage")
    assert len(messages) == 1, "one report message, not pages"
    assert len(state.posted) == 1
    thread = slack.threads[(CHANNEL, THREAD)]
    assert [bool(m.get("files")) for m in thread] == [False, True], "the report, the files"
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


@pytest.fixture
async def pdf_delivering(
    make_settings: Any, runtimes: Any, tmp_path: Path
) -> tuple[Runtime, Report]:
    """A runtime on a library of PDFs and its report, marked delivering, not yet delivered."""
    pdfs = write_pdf_library(tmp_path / "pdfs")
    rt = await runtimes(make_settings(redis=False, library=pdfs))
    sample = await pdf_report(rt)
    await delivering(rt, sample)
    return rt, sample


async def test_the_html_file_shows_the_cited_pdf_pages_the_markdown_does_not(
    pdf_delivering: tuple[Runtime, Report], slack: SlackStub
) -> None:
    rt, sample = pdf_delivering
    await deliver_report(rt, "r1", 1, sample)

    [html] = [c for c in slack.uploads.values() if b"<html" in c]
    [markdown] = [c for c in slack.uploads.values() if c.startswith(b"# ")]
    assert html.count(b"data:image/png;base64,") == 1, "the PDF claim's page, no other"
    assert b"data:image/png" not in markdown
    state = await rt.states.get("r1")
    assert state is not None
    assert (state.status, state.files_posted) == ("delivered", True)


async def test_the_word_and_powerpoint_files_land_beside_the_html(
    pdf_delivering: tuple[Runtime, Report], slack: SlackStub
) -> None:
    rt, sample = pdf_delivering
    await deliver_report(rt, "r1", 1, sample)

    names = [c.params["filename"] for c in slack.calls_to("files.getUploadURLExternal")]
    assert {"fonte-report-v1.docx", "fonte-report-v1.pptx"} <= set(names)
    word = docx.Document(io.BytesIO(office_file(slack, "word/document.xml")))
    deck = pptx.Presentation(io.BytesIO(office_file(slack, "ppt/presentation.xml")))
    [cited] = [c for c in sample.claims if c.id in sample.cited_claim_ids()][:1]
    excerpt = collapse_whitespace(cited.excerpt)[:40]
    footnotes = word.part.part_related_by(RT.FOOTNOTES).blob.decode("utf-8")
    assert excerpt in collapse_whitespace(footnotes), "a footnote holds the cited excerpt"
    assert len(word.inline_shapes) >= 1, "the cited PDF page's crop is in the Word file"
    notes = [s.notes_slide.notes_text_frame.text for s in deck.slides if s.has_notes_slide]
    assert any(excerpt in collapse_whitespace(n) for n in notes), "the deck's notes hold it"
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


async def test_a_hundred_claims_fit_one_message_and_every_excerpt_is_in_the_files(
    rt: Runtime, slack: SlackStub
) -> None:
    sample = long_excerpts(report(100))
    await saved_and_delivered(rt, sample)
    sent = slack.calls_to("chat.postMessage", ok_only=False)
    assert len(sent) == 1
    assert all(c.ok for c in sent), [c.error for c in sent if not c.ok]
    blocks = sent[0].blocks()
    print(
        f"100 claims: 1 message of {len(blocks)} blocks, {text_size(blocks)} characters of "
        f"block text (budget {rt.settings.text_budget}, stand-in ceiling {slack.text_ceiling})"
    )
    assert len(blocks) <= MAX_BLOCKS
    assert text_size(blocks) <= rt.settings.text_budget
    assert PT.see_attached in sent[0].text_of_blocks(), "the message says the rest is attached"
    [markdown] = [c for c in slack.uploads.values() if c.startswith(b"# ")]
    for cited in sample.claims:  # nothing lost: every excerpt is in the attached report
        assert collapse_whitespace(cited.excerpt)[:60].encode() in b" ".join(markdown.split())
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


async def test_a_smaller_text_budget_gives_a_smaller_message(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False, text_budget=4000))
    sample = long_excerpts(report(40))
    await saved_and_delivered(rt, sample)
    [sent] = slack.calls_to("chat.postMessage")
    [default] = report_messages(sample, "r1", 1)
    assert text_size(sent.blocks()) <= 4000 < text_size(default.blocks)


async def test_a_run_delivered_again_posts_nothing_twice(rt: Runtime, slack: SlackStub) -> None:
    sample = report(100)
    await delivering(rt, sample)
    first_page = await rt.slack.post(CHANNEL, _first_page(rt, sample), THREAD)
    # A crash after the report message was posted and recorded: the replay posts the files.
    await rt.states.update("r1", lambda s: s.model_copy(update={"posted": [first_page]}))
    slack.calls.clear()
    await deliver_report(rt, "r1", 1, sample)
    await deliver_report(rt, "r1", 1, sample)  # and once more, after it ended
    state = await rt.states.get("r1")
    assert state is not None
    assert slack.calls_to("chat.postMessage") == [], "the report message was not posted again"
    assert state.posted == [first_page]
    assert len(slack.calls_to("files.completeUploadExternal")) == 1


def _first_page(rt: Runtime, sample: Report) -> Message:
    return report_messages(sample, "r1", 1, text_budget=rt.settings.text_budget)[0]


async def test_missing_scope_on_upload_keeps_the_message_and_says_so(
    rt: Runtime, slack: SlackStub
) -> None:
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
    rt: Runtime, slack: SlackStub
) -> None:
    slack.text_ceiling = 500  # a workspace stricter than any message the bot sends
    state = await finished_report(rt, "801.1")
    assert (state.status, state.delivery_error) == ("delivery_failed", "msg_blocks_too_long")
    assert slack.calls_to("files.completeUploadExternal"), "the files carry the full report"
    (line,) = notices(slack)
    assert line == PT.delivery_partial.format(reason=PT.error_too_long)
    refused = [c for c in slack.calls_to("chat.postMessage", ok_only=False) if not c.ok]
    assert len(refused) == 2, "not retried: the full message, then the short one, once each"
    assert text_size(refused[1].blocks()) < text_size(refused[0].blocks())
    slack.text_ceiling = 12_000
    again = await deepened(rt, state, "quando expiram os créditos de energia elétrica?")
    assert (again.version, again.status) == (2, "delivered")


async def test_rate_limits_are_retried_after_retry_after(rt: Runtime, slack: SlackStub) -> None:
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
    rt: Runtime, slack: SlackStub
) -> None:
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
    rt: Runtime, slack: SlackStub
) -> None:
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
    rt: Runtime, slack: SlackStub
) -> None:
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
    rt: Runtime, slack: SlackStub
) -> None:
    sample = long_excerpts(report(100))
    await delivering(rt, sample)
    # The first attempt marked the report message as going out, posted it... and died
    # before recording its ts.
    [page] = report_messages(sample, "r1", 1, text_budget=rt.settings.text_budget)
    marker = {"event_type": PAGE_EVENT, "event_payload": page_marker("r1", 1, 0)}
    ts = await rt.slack.post(CHANNEL, replace(page, metadata=marker), THREAD)
    await rt.states.update("r1", lambda s: s.model_copy(update={"posting": 0}))
    await deliver_report(rt, "r1", 1, sample)  # the job, run again
    posted = slack.calls_to("chat.postMessage")
    numbers = [c.params["metadata"]["event_payload"]["page"] for c in posted]
    assert numbers == [0], "the report message was posted twice or not at all"
    state = await state_of(rt, "r1")
    assert (state.status, state.posted, state.posting) == ("delivered", [ts], None)
    assert slack.calls_to("conversations.replies")[0].params["include_all_metadata"] in (
        "1",
        "true",
        "True",
    )


async def test_a_page_marked_but_never_posted_is_posted_once(rt: Runtime, slack: SlackStub) -> None:
    sample = report(5)
    await delivering(rt, sample)
    await rt.slack.post(CHANNEL, Message("the progress message"), THREAD)  # the thread exists
    await rt.states.update("r1", lambda s: s.model_copy(update={"posting": 0}))
    await deliver_report(rt, "r1", 1, sample)
    pages = [c for c in slack.calls_to("chat.postMessage") if c.params.get("metadata")]
    assert len(pages) == 1
    assert (await state_of(rt, "r1")).status == "delivered"


async def test_files_uploaded_just_before_a_crash_are_not_uploaded_again(
    rt: Runtime, slack: SlackStub
) -> None:
    sample = report(5)
    await saved_and_delivered(rt, sample)
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
    monkeypatch.setattr("engine.render.markdown.render_markdown", broken_markdown)
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
    pdf_delivering: tuple[Runtime, Report], slack: SlackStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt, sample = pdf_delivering

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


def thread_posts(slack: SlackStub, thread: str) -> list[str]:
    """What the bot posted in `thread`: messages, streams started, and files messages."""
    posts = [
        c.method
        for c in slack.calls
        if c.ok
        and c.method in ("chat.postMessage", "chat.startStream", "files.completeUploadExternal")
        and str(c.params.get("thread_ts")) == thread
    ]
    return posts


def eighteen_items(sample: Report) -> Report:
    """An 18-item brief's report: 18 sections, 18 gaps, a summary, two figures tables."""
    claims = sample.claims
    sentences = [s for part in sample.sections for s in part.sentences]
    sections = [Section(title=f"Item {n}", sentences=sentences[n::18]) for n in range(18)]
    table = FiguresTable(
        id="t1",
        title="Potência",
        unit="MW",
        columns=["2023"],
        rows=[
            TableRow(label=f"UF {n}", cells=[TableCell(text=f"{n}", claim_ids=[claims[n].id])])
            for n in range(40)
        ],
    )
    return sample.model_copy(
        update={
            "summary": sentences[:6],
            "sections": sections,
            "partial": True,
            "gaps": [f"Fonte verificada que responda: item {n}" for n in range(18)],
            "tables": [table, table.model_copy(update={"id": "t2"})],
        }
    )


async def test_an_eighteen_item_report_is_one_message_and_one_files_message(
    rt: Runtime, slack: SlackStub
) -> None:
    sample = eighteen_items(long_excerpts(report(150)))
    await saved_and_delivered(rt, sample)
    assert thread_posts(slack, THREAD) == ["chat.postMessage", "files.completeUploadExternal"]
    [sent] = slack.calls_to("chat.postMessage", ok_only=False)
    assert sent.ok
    assert text_size(sent.blocks()) <= rt.settings.text_budget
    kinds_sent = [b["type"] for b in sent.blocks()]
    assert "table" not in kinds_sent
    assert kinds_sent.count("data_table") >= 1, "the figures as Slack's sortable tables"
    assert kinds_sent.count("data_visualization") <= 2
    assert (await state_of(rt, "r1")).status == "delivered"


async def test_an_eighteen_subquestion_brief_posts_at_most_three_messages_from_start(
    rt: Runtime, slack: SlackStub
) -> None:
    report_id = await planned_report(rt, "820.1")
    items = [f"Qual é o limite de potência da microgeração no item {n}?" for n in range(1, 19)]
    state = await state_of(rt, report_id)
    await handle_step(
        rt, EditPlan(report_id=report_id, user=USER, subquestions=items, limits=state.limits)
    )
    await settle(rt)
    assert len((await state_of(rt, report_id)).plan.subquestions) == 18  # type: ignore[union-attr]
    slack.calls.clear()
    await handle_step(rt, Start(report_id=report_id, user=USER, channel=CHANNEL))
    await settle(rt)
    state = await state_of(rt, report_id)
    assert state.status == "delivered", state.delivery_error
    posts = thread_posts(slack, "820.1")
    print(f"18 subquestions, Start to delivered: {posts}")
    assert len(posts) <= 3, posts
    assert posts[-1] == "files.completeUploadExternal"


async def test_a_refused_message_is_followed_by_the_short_one_and_the_files(
    rt: Runtime, slack: SlackStub
) -> None:
    sample = eighteen_items(long_excerpts(report(150)))
    await delivering(rt, sample)
    slack.text_ceiling = 4_000  # stricter than the full message, not the short one
    await deliver_report(rt, "r1", 1, sample)
    tries = slack.calls_to("chat.postMessage", ok_only=False)
    assert [c.error for c in tries] == ["msg_blocks_too_long", None]
    assert tries[1].params["metadata"]["event_payload"] == page_marker("r1", 1, 0)
    assert PT.see_attached in tries[1].text_of_blocks()
    assert "fonte_rating" in tries[1].text_of_blocks()
    state = await state_of(rt, "r1")
    short = slack.threads[(CHANNEL, THREAD)][0]["ts"]
    assert (state.status, state.files_posted, state.posted) == ("delivered", True, [short])
    assert not notices(slack)


async def test_a_canvas_carries_the_full_report_when_enabled(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False, slack_canvas=True))
    sample = report(5)
    await saved_and_delivered(rt, sample)
    [canvas] = slack.canvases.canvases.values()
    assert (canvas.title, canvas.channel_id) == (sample.title, CHANNEL)
    assert canvas.markdown.startswith("# Relat")
    assert thread_posts(slack, THREAD) == ["chat.postMessage", "files.completeUploadExternal"]


@pytest.mark.parametrize("refusal", ["missing_scope", "canvas_disabled_user_team"])
async def test_a_refused_canvas_falls_back_to_the_files_with_a_log_line(
    make_settings: Any,
    runtimes: Any,
    slack: SlackStub,
    caplog: pytest.LogCaptureFixture,
    refusal: str,
) -> None:
    rt = await runtimes(make_settings(redis=False, slack_canvas=True))
    if refusal == "missing_scope":
        slack.revoke("canvases:write")
    else:
        slack.canvases.disabled = True
    sample = report(5)
    await saved_and_delivered(rt, sample)
    [call] = slack.calls_to("canvases.create", ok_only=False)
    assert call.error == refusal
    assert not slack.canvases.canvases
    state = await state_of(rt, "r1")
    assert (state.status, state.files_posted, state.delivery_error) == ("delivered", True, None)
    assert not notices(slack), "silently: the files carry the report"
    assert any("no canvas" in r.getMessage() and refusal in r.getMessage() for r in caplog.records)


def with_figures(sample: Report) -> Report:
    """`sample` with a figures table of three years, as a chart and a data table show it."""
    states = ["Estado 0", "Estado 1"]
    table = figures_table("t1", "Geração", "GWh", YEARS, states, sample.claims)
    return sample.model_copy(update={"tables": [table]})


def kinds(call: Any) -> list[str]:
    return [str(block.get("type")) for block in call.blocks()]


async def test_a_workspace_refusing_charts_gets_the_table_version_and_is_not_asked_again(
    rt: Runtime, slack: SlackStub
) -> None:
    slack.refuse_block_types("data_visualization", "data_table")
    sample = with_figures(report(3))
    await saved_and_delivered(rt, sample)
    tries = slack.calls_to("chat.postMessage", ok_only=False)
    assert [c.error for c in tries] == ["invalid_blocks", None]
    assert {"data_visualization", "data_table"} <= set(kinds(tries[0]))
    assert "table" in kinds(tries[1])
    assert "data_table" not in kinds(tries[1])
    assert tries[1].params["metadata"]["event_payload"] == page_marker("r1", 1, 0)
    state = await state_of(rt, "r1")
    assert (state.status, state.delivery_error, state.files_posted) == ("delivered", None, True)
    assert not notices(slack)
    slack.calls.clear()
    await saved_report(
        rt, sample, "r2", channel=CHANNEL, user=USER, thread="78.1", status="delivering"
    )
    await deliver_report(rt, "r2", 1, sample)
    [second] = slack.calls_to("chat.postMessage", ok_only=False)
    assert second.ok
    assert "table" in kinds(second), "the workspace's refusal is remembered"


async def test_a_workspace_taking_charts_gets_them(rt: Runtime, slack: SlackStub) -> None:
    await saved_and_delivered(rt, with_figures(report(3)))
    [posted] = slack.calls_to("chat.postMessage", ok_only=False)
    assert posted.ok
    assert {"data_visualization", "data_table"} <= set(kinds(posted))


@pytest.mark.parametrize("error", ["invalid_blocks", "invalid_blocks_format"])
async def test_a_blocks_refusal_ends_in_the_short_message_never_an_error_line(
    rt: Runtime, slack: SlackStub, error: str
) -> None:
    sample = with_figures(report(3))
    await delivering(rt, sample)
    slack.fail_next("chat.postMessage", times=2, status=200, error=error, matching=is_report_page)
    await deliver_report(rt, "r1", 1, sample)
    tries = slack.calls_to("chat.postMessage", ok_only=False)
    assert [c.error for c in tries] == [error, error, None]
    assert "data_table" in kinds(tries[0])
    assert "table" in kinds(tries[1])
    assert "table" not in kinds(tries[2])
    assert PT.see_attached in tries[2].text_of_blocks()
    state = await state_of(rt, "r1")
    assert (state.status, state.files_posted) == ("delivered", True)
    assert not notices(slack), "no error line: the short message and the files went out"
    slack.calls.clear()
    await saved_report(
        rt, sample, "r2", channel=CHANNEL, user=USER, thread="78.1", status="delivering"
    )
    await deliver_report(rt, "r2", 1, sample)
    [again] = slack.calls_to("chat.postMessage", ok_only=False)
    assert "data_table" in kinds(again), "a refusal the table version shared proves nothing"
