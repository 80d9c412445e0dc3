"""The whole path with real parts: signed HTTP requests into Bolt, Redis, arq workers, the
offline model on a library the test writes, and the Slack stub recording every call."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.conversation.delivery import PAGE_EVENT
from bot.flows import brief_of
from bot.redis.state import FINAL_STATUSES
from bot.slack.blocks import ANSWER, CANCEL, DEEPEN, EXCERPT, START
from bot.slack.texts import PT
from bot.sources import open_library_sources
from engine.models.extractive import ExtractiveModel
from engine.orchestrator import Orchestrator
from tests.support.bot_env import (
    LIMITS_QUESTION,
    AskingModel,
    SlowSources,
    mention,
    running_workers,
    thread_message,
    wait_state,
)
from tests.support.hidden_pdfs import hiding_pdf
from tests.support.slack_stub import Call, SlackStub

CHANNEL, USER = "C100", "U1"


def posted_with(slack: SlackStub, marker: str) -> list[Call]:
    return [c for c in slack.calls_to("chat.postMessage") if marker in c.text_of_blocks()]


def button_value(call: Call, action_prefix: str) -> str:
    for block in call.blocks():
        for element in [*block.get("elements", []), block.get("accessory") or {}]:
            if str(element.get("action_id", "")).startswith(action_prefix):
                return str(element["value"])
    raise AssertionError(f"no {action_prefix} button")


def button_action(call: Call, action_prefix: str) -> tuple[str, str]:
    for block in call.blocks():
        for element in [*block.get("elements", []), block.get("accessory") or {}]:
            if str(element.get("action_id", "")).startswith(action_prefix):
                return str(element["action_id"]), str(element["value"])
    raise AssertionError(f"no {action_prefix} button")


async def test_mention_clarify_plan_start_progress_report(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(), model=AskingModel())
    sender = await bolt_http(rt)
    async with running_workers(rt):
        response = await sender.event(mention(CHANNEL, USER, LIMITS_QUESTION, "500.1"))
        assert response.status_code == 200
        questions = await slack.wait_for(lambda: posted_with(slack, ANSWER), what="questions")
        assert questions[0].params["thread_ts"] == "500.1"
        assert "Qual país?" in questions[0].text_of_blocks()
        action_id, value = button_action(questions[0], ANSWER)
        assert (await sender.action(USER, CHANNEL, action_id, value)).status_code == 200

        plans = await slack.wait_for(lambda: posted_with(slack, START), what="plan")
        plan_text = plans[0].text_of_blocks()
        assert "Subperguntas" in plan_text
        assert "Suficiente quando" in plan_text
        assert "Brasil" in plan_text  # the answer reached the planner
        await sender.action(USER, CHANNEL, START, button_value(plans[0], START))

        uploads = await slack.wait_for(
            lambda: slack.calls_to("files.completeUploadExternal"), what="files", within=30
        )
        report_id = await rt.states.by_thread(CHANNEL, "500.1")
        state = await wait_state(rt, report_id, lambda s: s.status == "delivered")
    reports = posted_with(slack, EXCERPT)
    assert reports, "no report message with excerpt buttons"
    report_text = reports[0].text_of_blocks()
    assert "75 kW" in report_text
    assert all(c.params.get("thread_ts") == "500.1" for c in slack.calls_to("chat.postMessage"))
    assert uploads[0].params["channel_id"] == CHANNEL
    assert uploads[0].params["thread_ts"] == "500.1"
    assert len(slack.uploads) == 5  # HTML, Markdown, PDF, Word and PowerPoint
    assert any(b"75 kW" in content for content in slack.uploads.values())
    assert sum(content.startswith(b"PK") for content in slack.uploads.values()) == 2
    assert sum(content.startswith(b"%PDF") for content in slack.uploads.values()) == 1
    # The progress was streamed into the thread as a plan card, stopped on its final state.
    (progress,) = slack.streams.in_thread(CHANNEL, "500.1")
    assert progress.ended_by == "stop"
    assert "concluída" in (progress.plan_title or "")

    assert state.delivered == 1
    report = await rt.states.load_report(report_id, 1)
    assert report is not None
    assert report.verified_claims()

    await sender.action("U2", CHANNEL, EXCERPT, button_value(reports[0], EXCERPT))
    opened = await slack.wait_for(lambda: slack.calls_to("views.open"), what="excerpt modal")
    view = opened[0].params["view"]
    view = json.loads(view) if isinstance(view, str) else view
    assert "75 kW" in json.dumps(view, ensure_ascii=False)


async def report_in_thread(
    rt: Any, sender: Any, slack: SlackStub, question: str, thread: str, user: str = USER
) -> str:
    """Mention -> plan -> Start; returns the report id (the run goes on)."""
    await sender.event(mention(CHANNEL, user, question, thread))
    plans = await slack.wait_for(
        lambda: [c for c in posted_with(slack, START) if c.params.get("thread_ts") == thread],
        what="plan",
    )
    await sender.action(user, CHANNEL, START, button_value(plans[0], START))
    report_id = await rt.states.by_thread(CHANNEL, thread)
    assert report_id is not None
    return report_id


async def deepen_in_thread(sender: Any, thread: str, gap: str, ts: str) -> None:
    """`aprofunde: <gap>` posted by the requester in the report's thread."""
    await sender.event(thread_message(CHANNEL, USER, f"aprofunde: {gap}", ts, thread))


async def test_deepen_follow_up_posts_version_two_without_duplicate_claims(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings())
    sender = await bolt_http(rt)
    async with running_workers(rt):
        report_id = await report_in_thread(rt, sender, slack, LIMITS_QUESTION, "600.1")
        await wait_state(rt, report_id, lambda s: s.status == "delivered")
        first = await rt.states.load_report(report_id, 1)
        assert first is not None
        await deepen_in_thread(
            sender, "600.1", "quando expiram os créditos de energia elétrica?", ts="600.9"
        )
        state = await wait_state(rt, report_id, lambda s: s.delivered == 2)
    second = await rt.states.load_report(report_id, 2)
    assert second is not None
    assert state.version == 2
    assert [s.id for s in second.plan.subquestions][-1] == "d2"
    ids = [c.id for c in second.claims]
    assert len(ids) == len(set(ids)), "duplicate claims on the board"
    assert {c.id for c in first.claims} <= set(ids)
    assert any("60 (sessenta) meses" in c.excerpt for c in second.verified_claims())
    assert second.limits.steps == first.limits.steps + 20  # the top-up
    notices = [
        c for c in slack.calls_to("chat.postMessage") if "versão 2" in c.params.get("text", "")
    ]
    assert notices, "version 2 not announced"
    assert all(c.params.get("thread_ts") == "600.1" for c in slack.calls_to("chat.postMessage"))
    assert len(slack.calls_to("files.completeUploadExternal")) == 2


async def test_cancel_aborts_jobs_and_posts_the_partial_report(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub, library: Any
) -> None:
    slow = SlowSources(open_library_sources(make_settings()), delay=30.0)
    rt = await runtimes(make_settings(), open_sources=slow.opener())
    sender = await bolt_http(rt)
    async with running_workers(rt):
        report_id = await report_in_thread(
            rt, sender, slack, "Como está o mercado de energia solar residencial?", "700.1"
        )
        await asyncio.wait_for(slow.started.wait(), 10)
        state = await rt.states.get(report_id)
        assert state is not None
        assert state.status == "running"
        await sender.action(USER, CHANNEL, CANCEL, json.dumps({"r": report_id}))
        state = await wait_state(rt, report_id, lambda s: s.delivered == 1, within=15)
    assert state.status == "cancelled"
    report = await rt.states.load_report(report_id, 1)
    assert report is not None
    assert report.partial
    assert report.gaps
    messages = [
        c for c in slack.calls_to("chat.postMessage") if "Relatório parcial" in c.text_of_blocks()
    ]
    assert messages, "the partial report does not say so"
    assert DEEPEN in messages[0].text_of_blocks()
    # arq aborts the subagent jobs asynchronously: give the abort a moment on a busy machine,
    # but a job still stuck in its 30 s step after that was not aborted.
    for _ in range(100):
        if slow.in_flight == 0:
            break
        await asyncio.sleep(0.1)
    assert slow.in_flight == 0, "a subagent job kept running after the cancel"
    assert any("interrompida pelo usuário" in gap for gap in report.gaps)

    # The partial report deepens to version 2 on the workers, its budget no longer stopped.
    slow.delay = 0.0
    async with running_workers(rt):
        await deepen_in_thread(sender, "700.1", report.gaps[0], ts="700.9")
        state = await wait_state(rt, report_id, lambda s: s.delivered == 2, within=30)
    second = await rt.states.load_report(report_id, 2)
    assert second is not None
    assert (state.status, state.version) == ("delivered", 2)
    assert any(c.subquestion == "d2" for c in second.verified_claims())


async def test_worker_killed_mid_run_and_replaced_loses_and_duplicates_nothing(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    # One subquestion, so one subagent: with no concurrent readers racing for the snapshot
    # cache, the run is deterministic and comparable step for step with a baseline.
    slow = SlowSources(open_library_sources(make_settings()), delay=0.6)
    rt = await runtimes(make_settings(), open_sources=slow.opener())
    sender = await bolt_http(rt)
    async with running_workers(rt, host="first"):
        await sender.command(USER, CHANNEL, LIMITS_QUESTION)
        plans = await slack.wait_for(lambda: posted_with(slack, START), what="plan")
        report_id = json.loads(button_value(plans[0], START))["r"]
        await sender.action(USER, CHANNEL, START, button_value(plans[0], START))
        await asyncio.wait_for(slow.started.wait(), 10)
    # The worker is gone mid-search; nothing was delivered.
    state = await rt.states.get(report_id)
    assert state is not None
    assert state.status == "running"
    assert state.delivered == 0
    searches_before = slow.searches
    async with running_workers(rt, host="second"):
        state = await wait_state(rt, report_id, lambda s: s.delivered == 1, within=30)
    assert slow.searches > searches_before, "the new worker did not pick the jobs up"
    report = await rt.states.load_report(report_id, 1)
    assert report is not None
    assert state.plan is not None

    library = open_library_sources(make_settings())
    baseline = await Orchestrator(ExtractiveModel(), library.searcher, library.fetcher).run(
        brief_of(state), plan=state.plan
    )
    ids = [c.id for c in report.claims]
    assert len(ids) == len(set(ids))
    assert {c.id for c in report.verified_claims()} == {c.id for c in baseline.verified_claims()}
    assert {c.id for c in report.claims} == {c.id for c in baseline.claims}
    assert report.spend.steps == baseline.spend.steps, "a replayed job was charged twice"
    assert len(slack.calls_to("files.completeUploadExternal")) == 1


async def test_failed_deliveries_end_in_a_state_tell_the_user_and_deepen_later_with_workers(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings())
    sender = await bolt_http(rt)
    slack.revoke("files:write")  # installed without the upload scope
    slack.fail_next(  # and Slack refuses the report message outright, and its short form
        "chat.postMessage",
        times=2,
        status=200,
        error="msg_blocks_too_long",
        matching=lambda params: PAGE_EVENT in str(params.get("metadata", "")),
    )
    async with running_workers(rt):
        report_id = await report_in_thread(rt, sender, slack, LIMITS_QUESTION, "650.1")
        state = await wait_state(rt, report_id, lambda s: s.delivered == 1)
        assert (state.status, state.delivery_error) == ("delivery_failed", "msg_blocks_too_long")

        def warnings() -> list[str]:
            return [
                c.params["text"]
                for c in slack.calls_to("chat.postMessage")
                if str(c.params.get("text", "")).startswith(":warning:")
            ]

        # The state is saved before the user is told: wait for the telling, then check it.
        lines = await slack.wait_for(warnings, what="the delivery warning")
        assert lines == [PT.delivery_failed.format(reason=PT.error_too_long)]
        await deepen_in_thread(
            sender, "650.1", "quando expiram os créditos de energia elétrica?", ts="650.9"
        )
        state = await wait_state(rt, report_id, lambda s: s.delivered == 2)
    assert (state.status, state.version, state.delivery_error) == ("delivered", 2, "missing_scope")
    lines = [
        c.params["text"]
        for c in slack.calls_to("chat.postMessage")
        if str(c.params.get("text", "")).startswith(":warning:")
    ]
    assert len(lines) == 2
    assert "`files:write`" in lines[1]
    pages = [
        c for c in slack.calls_to("chat.postMessage") if PAGE_EVENT in str(c.params.get("metadata"))
    ]
    assert pages, "version 2 was posted"
    assert all(c.params.get("thread_ts") == "650.1" for c in slack.calls_to("chat.postMessage"))


async def test_a_pdf_whose_text_lies_outside_its_crop_box_is_delivered_in_full(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub, library: Any
) -> None:
    """Such a PDF (normal in trimmed print files) once crashed the page crops after the
    research: no files, no closing line, every "aprofunde" answered "em andamento"."""
    shown = "Acme revenue was $5,000 million in fiscal 2023."
    hidden = "Acme revenue was $9,000 million in fiscal 2023."
    pdf = hiding_pdf("outside-crop-box", shown, hidden)
    (library / "acme_2023_annual_report.pdf").write_bytes(pdf)
    rt = await runtimes(make_settings())
    sender = await bolt_http(rt)
    async with running_workers(rt):
        report_id = await report_in_thread(
            rt, sender, slack, "What was Acme's revenue in fiscal 2023?", "700.1"
        )
        state = await wait_state(rt, report_id, lambda s: s.status in FINAL_STATUSES)
        await slack.wait_for(
            lambda: slack.calls_to("files.completeUploadExternal"), what="files", within=30
        )
    assert state.status == "delivered", state
    report = await rt.states.load_report(report_id, 1)
    assert report is not None
    excerpts = [c.excerpt for c in report.verified_claims()]
    assert any("5,000" in e for e in excerpts)
    assert not any("9,000" in e for e in excerpts)
    html = b"".join(slack.uploads.values())
    assert b"5,000" in html
