"""Through the Slack stand-in with two real `fonte worker` processes, each under a memory
limit as a container's (3 GB for its process tree): a zip-bomb DOCX shared in a DM beside a
normal PDF gives one line naming it, the report reads the PDF, no worker dies, and the next
question in that DM is answered too (issue 36, acceptance)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.bench.processes import start_worker
from bot.files import SharedFile
from bot.flows import handle_step
from bot.slack.texts import texts_for
from bot.steps import Ask, ShareFiles, Start
from engine import ClaimStatus
from tests.support.bot_env import wait_planned, wait_state
from tests.support.hostile_files import zip_bomb_docx
from tests.support.memory_watch import GIGABYTE, Watchdog
from tests.support.pdfs import pdf_bytes
from tests.support.slack_stub import SlackStub
from tests.support.worker_processes import killed_at_the_end, worker_env

ROOT = Path(__file__).resolve().parents[2]
DM, USER = "D9", "U1"
PAGES = [
    "Relatorio tecnico do parque solar Beta. Sumario e apresentacao do projeto.",
    "A usina solar Beta do parque do sul gera 18 megawatts de potencia instalada "
    "desde a ampliacao concluida em 2023.",
]
QUESTIONS = {
    "9.1": "Quanto gera a usina solar Beta do parque do sul?",
    "9.2": "Quanto gera a usina solar Beta desde a ampliacao de 2023?",
}
DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.fixture
def workers(
    slack: SlackStub, library: Path, tmp_path: Path, redis_prefix: str
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Two `fonte worker` processes on the stand-in, sharing the test's cache (and so the
    conversation's files); killed at the end."""
    env = worker_env(slack.api_url, redis_prefix, library, tmp_path / "cache")
    with killed_at_the_end() as processes:
        processes += [start_worker(env, tmp_path / f"worker-{n}.log") for n in (1, 2)]
        yield processes


async def test_a_zip_bomb_in_a_dm_kills_no_worker_and_the_dm_goes_on(
    make_settings: Any,
    runtimes: Any,
    slack: SlackStub,
    workers: list[subprocess.Popen[bytes]],
) -> None:
    rt = await runtimes(make_settings())  # the bot's side: it only enqueues
    bomb = slack.files.share(USER, "bomba.docx", zip_bomb_docx(), DOCX_TYPE)
    pdf = slack.files.share(USER, "usina-beta.pdf", pdf_bytes(PAGES), "application/pdf")
    shared = [SharedFile.from_slack(stored.answer()) for stored in (bomb, pdf)]
    with Watchdog([worker.pid for worker in workers], 3 * GIGABYTE) as watchdog:
        await handle_step(
            rt,
            ShareFiles(
                origin="hostile", channel=DM, user=USER, thread_ts="9.0", ts="9.0",
                is_dm=True, files=shared, text="seguem os arquivos do projeto",
            ),
        )  # fmt: skip

        def replied() -> str | None:
            for call in slack.calls_to("chat.postMessage"):
                if call.params.get("channel") == DM and call.params.get("thread_ts") == "9.0":
                    return str(call.params["text"])
            return None

        reply = str(await slack.wait_for(replied, within=120, what="the reply to the share"))
        assert f"• bomba.docx: {texts_for('pt').file_over_limit}" in reply
        assert "*usina-beta.pdf*" in reply
        for ts, question in QUESTIONS.items():
            await handle_step(
                rt, Ask(origin=f"ask-{ts}", channel=DM, thread_ts=ts, user=USER, text=question,
                        is_dm=True)
            )  # fmt: skip
            report_id = await wait_planned(rt, DM, ts)
            await handle_step(rt, Start(report_id=report_id, user=USER))
            state = await wait_state(rt, report_id, lambda s: s.delivered == 1, within=180)
            report = await rt.states.load_report(report_id, state.reported)
            assert report is not None
            verified = [c for c in report.claims if c.status is ClaimStatus.verified]
            assert any(pdf.permalink in c.url for c in verified), verified
    assert watchdog.killed == [], f"a worker went past 3 GB ({watchdog.peak:,} bytes)"
    assert [worker.poll() for worker in workers] == [None, None], "no worker died"
