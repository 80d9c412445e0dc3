"""Export again: a delivered report's files made anew from the saved report and uploaded in
its thread, for those who may act on it; past its retention, one line saying so and for how
long reports are kept. And the text that asks for it ("exportar", "export docx")."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.conversation import export as export_module
from bot.conversation.export import ExportRequest, export_request, export_step, retention_days
from bot.flows import handle_step
from bot.steps import Export
from engine import utc_now
from tests.support.slack_pages import delivered, pdf_report, write_pdf_library
from tests.support.slack_stub import SlackStub

CHANNEL, USER, REPORT, THREAD = "C5", "U1", "rp", "900.1"
ALL_FILES = {f"fonte-report-v1.{ext}" for ext in ("html", "md", "pdf", "docx", "pptx")}


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return write_pdf_library(tmp_path / "library")


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("exportar", ExportRequest(language="pt")),
        ("Export", ExportRequest(language="en")),
        ("<@UBOT> exportar pdf", ExportRequest("pdf", "pt")),
        ("export as docx", ExportRequest("docx", "en")),
        ("exportar em Word", ExportRequest("docx", "pt")),
        ("exporte o relatório em pptx", None),  # not the form the thread is told about
        ("exportar o relatório em pptx", ExportRequest("pptx", "pt")),
        ("export the report to markdown", ExportRequest("md", "en")),
        ("exportar html.", ExportRequest("html", "pt")),
        ("export md", ExportRequest("md", "en")),
        ("exportar xlsx", None),  # no such file
        ("exportar dados de vendas do Brasil", None),  # a question, not a request
        ("Como exportar energia solar?", None),
        ("exportação de soja", None),
        ("", None),
    ],
)
def test_the_text_that_asks_for_an_export(text: str, wanted: ExportRequest | None) -> None:
    assert export_request(text) == wanted


def test_a_typed_request_is_the_export_step_in_the_words_language() -> None:
    assert export_step("export pptx", "r1", "U2", "C5", "900.1") == Export(
        report_id="r1", user="U2", format="pptx", channel="C5", thread_ts="900.1", language="en"
    )
    assert export_step("exportar", "r1", "U2", "C5", None) == Export(
        report_id="r1", user="U2", channel="C5", language="pt"
    )
    assert export_step("qual o preço?", "r1", "U2", "C5", "900.1") is None


def test_retention_reads_in_days() -> None:
    assert retention_days(30 * 86_400) == "30"
    assert retention_days(365 * 86_400) == "365"
    assert retention_days(43_200) == "0.5"


def uploaded(slack: SlackStub) -> list[dict[str, Any]]:
    """What each files.completeUploadExternal shared in the report's thread."""
    return [message for message in slack.threads.get((CHANNEL, THREAD), []) if message.get("files")]


def whispered(slack: SlackStub, user: str = USER) -> list[str]:
    return [
        str(c.params["text"])
        for c in slack.calls_to("chat.postEphemeral")
        if c.params["user"] == user
    ]


async def ready(runtimes: Any, settings: Any, *, is_dm: bool = False) -> Any:
    rt = await runtimes(settings)
    await delivered(rt, await pdf_report(rt), REPORT, CHANNEL, USER)
    if is_dm:
        await rt.states.update(REPORT, lambda s: s.model_copy(update={"is_dm": True}))
    return rt


def step(**fields: Any) -> Export:
    return Export(
        **{"report_id": REPORT, "user": USER, "channel": CHANNEL, "thread_ts": THREAD, **fields}
    )


async def test_every_file_of_the_version_is_uploaded_again_in_the_thread(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await ready(runtimes, make_settings(redis=False))
    await handle_step(rt, step(user="U2", version=1))

    [message] = uploaded(slack)
    assert {f["name"] for f in message["files"]} == ALL_FILES
    assert "<@U2>" in message["text"]
    assert "versão 1" in message["text"]
    [completed] = slack.calls_to("files.completeUploadExternal")
    assert (completed.params["channel_id"], completed.params["thread_ts"]) == (CHANNEL, THREAD)
    assert whispered(slack, "U2") == []


async def test_one_format_uploads_that_file_alone(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await ready(runtimes, make_settings(redis=False))
    await handle_step(rt, step(format="docx"))  # no version: the latest delivered

    [message] = uploaded(slack)
    assert [f["name"] for f in message["files"]] == ["fonte-report-v1.docx"]


async def test_only_the_requester_exports_a_dm_report(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await ready(runtimes, make_settings(redis=False), is_dm=True)
    await handle_step(rt, step(user="U2"))

    assert uploaded(slack) == []
    assert whispered(slack, "U2") == ["Este relatório é privado: só quem o pediu pode abri-lo."]
    await handle_step(rt, step())
    assert len(uploaded(slack)) == 1


async def test_a_version_never_delivered_is_said(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await ready(runtimes, make_settings(redis=False))
    await handle_step(rt, step(version=2))

    assert uploaded(slack) == []
    assert whispered(slack) == ["Este relatório não tem a versão 2."]


async def test_a_report_past_its_retention_gets_the_expired_line(
    make_settings: Any, runtimes: Any, slack: SlackStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings(redis=False, retention_seconds=2 * 86_400)
    rt = await ready(runtimes, settings)
    later = utc_now() + timedelta(days=2, minutes=1)
    monkeypatch.setattr(export_module, "clock", lambda: later)
    await handle_step(rt, step())

    assert uploaded(slack) == []
    assert whispered(slack) == ["Este relatório expirou: os relatórios ficam guardados por 2 dias."]
    monkeypatch.setattr(export_module, "clock", lambda: later - timedelta(minutes=2))
    await handle_step(rt, step())
    assert len(uploaded(slack)) == 1, "within its retention it exports"


async def test_a_report_gone_from_redis_gets_the_expired_line_in_both_languages(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await ready(runtimes, make_settings())
    assert rt.redis is not None
    await rt.redis.delete(rt.keys.report(REPORT, 1))  # its saved version lapsed first
    await handle_step(rt, step())
    assert whispered(slack) == [
        "Este relatório expirou: os relatórios ficam guardados por 30 dias."
    ]

    await rt.redis.delete(rt.keys.state(REPORT))  # then its state: nothing says the language
    await handle_step(rt, step(language=None))
    assert whispered(slack)[-1] == (
        "Este relatório expirou: os relatórios ficam guardados por 30 dias.\n"
        "This report has expired: reports are kept for 30 days."
    )
    await handle_step(rt, step(language="en"))
    assert whispered(slack)[-1] == "This report has expired: reports are kept for 30 days."
    assert uploaded(slack) == []


async def test_a_refused_upload_is_said_in_one_line(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    slack.revoke("files:write")
    rt = await ready(runtimes, make_settings(redis=False))
    await handle_step(rt, step())

    [line] = whispered(slack)
    assert line.startswith(":warning: Não consegui anexar os arquivos (")
    assert "`files:write`" in line
