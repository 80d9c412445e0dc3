"""Issue 24, points 7 and 8, in the four set-ups (HTTP or Socket Mode; embedded, or Redis and
a worker): the excerpt modal shows the cited page as real Slack accepts it (a file shared in
the report's thread) or says why not; the report's Files button uploads its files again in
the thread; past the report's retention it gets one line saying so."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.conversation import export as export_module
from bot.slack.blockkit import value
from bot.slack.blocks import EXPORT
from engine import utc_now
from tests.support.slack_pages import (
    CLAIMS,
    delivered,
    excerpt_button,
    pdf_report,
    write_pdf_library,
)
from tests.support.slack_stub import Call

CHANNEL, USER, REPORT, THREAD = "C5", "U1", "rp", "900.1"


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return write_pdf_library(tmp_path / "library")


def view_text(call: Call) -> str:
    view = call.params["view"]
    return json.dumps(json.loads(view) if isinstance(view, str) else view, ensure_ascii=False)


def image_files(call: Call) -> list[Any]:
    view = call.params["view"]
    blocks = (json.loads(view) if isinstance(view, str) else view)["blocks"]
    return [b["slack_file"] for b in blocks if b["type"] == "image"]


async def test_the_excerpt_modal_shows_the_page_shared_in_the_thread_or_says_why_not(
    surface: Any,
) -> None:
    s = await surface()
    await delivered(s.rt, await pdf_report(s.rt), REPORT, CHANNEL, USER)
    s.slack.revoke("files:write")
    await s.action(USER, CHANNEL, *excerpt_button(REPORT, CLAIMS["pdf"]))
    [said] = await s.slack.wait_for(lambda: s.slack.calls_to("views.update"), what="why not")
    assert image_files(said) == []
    assert "Não consegui mostrar a página aqui" in view_text(said)
    assert "`files:write`" in view_text(said)

    s.slack.granted.add("files:write")  # reinstalled with the scope
    await s.action(USER, CHANNEL, *excerpt_button(REPORT, CLAIMS["pdf"]))
    shown = await s.slack.wait_for(lambda: s.slack.calls_to("views.update")[1:], what="page")
    [shared] = s.slack.calls_to("files.completeUploadExternal")
    assert (shared.params["channel_id"], shared.params["thread_ts"]) == (CHANNEL, THREAD)
    file_id = s.slack.calls_to("upload")[0].params["file_id"]
    assert image_files(shown[0]) == [{"id": file_id}]
    assert s.slack.files.files[file_id].shared


async def test_the_files_button_uploads_the_files_again_until_the_report_expires(
    surface: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = await surface()
    await delivered(s.rt, await pdf_report(s.rt), REPORT, CHANNEL, USER)
    await s.action("U2", CHANNEL, EXPORT, value(r=REPORT, v=1))
    [again] = await s.slack.wait_for(
        lambda: s.slack.calls_to("files.completeUploadExternal"), what="the files", within=60
    )
    assert (again.params["channel_id"], again.params["thread_ts"]) == (CHANNEL, THREAD)
    [message] = [m for m in s.slack.threads[(CHANNEL, THREAD)] if m.get("files")]
    assert "fonte-report-v1.pdf" in {f["name"] for f in message["files"]}

    later = utc_now() + timedelta(seconds=s.rt.settings.retention_seconds, minutes=1)
    monkeypatch.setattr(export_module, "clock", lambda: later)
    await s.action("U2", CHANNEL, EXPORT, value(r=REPORT, v=1))
    [line] = await s.slack.wait_for(lambda: s.slack.calls_to("chat.postEphemeral"), what="line")
    assert line.params["user"] == "U2"
    assert line.params["text"] == (
        "Este relatório expirou: os relatórios ficam guardados por 30 dias."
    )
    assert len(s.slack.calls_to("files.completeUploadExternal")) == 1
