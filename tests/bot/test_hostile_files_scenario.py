"""A hostile colleague shares a zip-bomb DOCX (its XML inflates to a gigabyte) beside a
normal PDF in a DM, in the four set-ups (HTTP and Socket Mode, embedded and with Redis and a
worker): the reply names the bomb in one line, in the user's language, and keeps the PDF;
the report reads the PDF; the next question in that DM is answered too, the bomb never
read (issue 36, points 1 and 2)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.files import Conversation, conversation_files
from bot.slack.texts import texts_for
from engine import ClaimStatus
from tests.support.hostile_files import zip_bomb_docx
from tests.support.pdfs import pdf_bytes
from tests.support.slack_stub import SlackStub
from tests.support.slack_surface import Surface, researched

Open = Callable[..., Awaitable[Surface]]

PAGES = [
    "Relatorio tecnico do parque solar Beta. Sumario e apresentacao do projeto.",
    "A usina solar Beta do parque do sul gera 18 megawatts de potencia instalada "
    "desde a ampliacao concluida em 2023.",
]
DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


async def reply_to(slack: SlackStub, channel: str, ts: str) -> str:
    def found() -> str | None:
        for call in slack.calls_to("chat.postMessage"):
            if call.params.get("channel") == channel and call.params.get("thread_ts") == ts:
                return str(call.params["text"])
        return None

    return str(await slack.wait_for(found, what=f"the reply in {channel}/{ts}"))


async def test_a_zip_bomb_shared_in_a_dm_is_named_and_the_dm_goes_on(surface: Open) -> None:
    s = await surface()
    bomb = s.slack.files.share("U1", "bomba.docx", zip_bomb_docx(), DOCX_TYPE)
    shared = s.slack.share_file(
        "U1", "D9", "usina-beta.pdf", pdf_bytes(PAGES), "application/pdf", ts="9.0",
        text="seguem os arquivos do projeto",
    )  # fmt: skip
    shared["files"] = [bomb.answer(), *shared["files"]]
    await s.event(shared)
    reply = await reply_to(s.slack, "D9", "9.0")
    portuguese = texts_for("pt")
    assert f"• bomba.docx: {portuguese.file_over_limit}" in reply
    assert reply.count("bomba.docx") == 1
    assert "*usina-beta.pdf*" in reply
    store = conversation_files(s.rt.settings)
    assert [kept.file for kept in store.files(Conversation("D9"))] == ["usina-beta.pdf"]
    permalink = shared["files"][1]["permalink"]
    for ts, question in (
        ("9.1", "Quanto gera a usina solar Beta do parque do sul?"),
        ("9.2", "Quando foi concluida a ampliacao da usina solar Beta?"),
    ):
        report = await researched(s, "D9", ts, question, dm=True)
        verified = [
            claim
            for claim in map(report.claim, report.cited_claim_ids())
            if claim.status is ClaimStatus.verified
        ]
        assert any(claim.url.startswith(permalink) for claim in verified), verified
