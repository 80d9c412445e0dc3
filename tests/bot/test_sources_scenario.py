"""Sources per conversation, end to end in the four set-ups (HTTP and Socket Mode, embedded
and with Redis and a worker): the team library and the web in one report that says which
claim came from which; a channel mapped to a library of its own; and the acceptance case,
a PDF shared in a DM answering a question about it, citing the file's permalink and page,
and not found from a channel."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from bot.files import Conversation, conversation_files
from engine import ClaimStatus, Report
from engine.snapshots import split_page
from engine.sources import Origin
from evals.offline_web import OfflineWeb
from evals.web_pages import wiki_page
from tests.support.bot_env import LIMITS_QUESTION
from tests.support.pdfs import pdf_bytes
from tests.support.slack_surface import Surface, researched

Open = Callable[..., Awaitable[Surface]]

GRID = [
    "Microgeração distribuída com potência instalada de até 75 kW somava 3 milhões de "
    "unidades conectadas em 2024, segundo a agência reguladora.",
    "A minigeração distribuída tem potência instalada acima de 75 kW e limites de 5 MW.",
]
TURBINES = (
    "# Parque eólico do norte\n\nA turbina Alfa do parque eólico do norte produz 42 megawatts "
    "de potência, segundo o relatório técnico da equipe de engenharia.\n"
)
PDF_PAGES = [
    "Relatorio tecnico do parque solar Beta. Sumario e apresentacao do projeto.",
    "A usina solar Beta do parque do sul gera 18 megawatts de potencia instalada "
    "desde a ampliacao concluida em 2023.",
]
PDF_QUESTION = "Quanto gera a usina solar Beta do parque do sul?"


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch) -> Iterator[OfflineWeb]:
    """A loopback web (SearXNG search and its pages) the bot's web source reads."""
    with OfflineWeb([wiki_page("Microgeração no Brasil", GRID)]) as server:
        monkeypatch.setenv("FONTE_SEARCH", "searxng")
        monkeypatch.setenv("SEARXNG_URL", server.base_url)
        monkeypatch.setenv("FONTE_FETCH_ALLOWLIST", "127.0.0.2/32")
        monkeypatch.setenv("FONTE_FETCH_DELAY", "0")
        yield server


def cited(report: Report) -> list[str]:
    return [report.claim(claim_id).url for claim_id in report.cited_claim_ids()]


def uploaded_text(s: Surface) -> str:
    return "\n".join(content.decode("utf-8", "replace") for content in s.slack.uploads.values())


async def test_one_report_reads_the_team_library_and_the_web_and_says_which(
    surface: Open, web: OfflineWeb
) -> None:
    s = await surface(source="library+web")
    report = await researched(s, "C5", "5.1", LIMITS_QUESTION)
    origins = {report.origins.get(split_page(url)[0]) for url in cited(report)}
    assert origins == {Origin.library, Origin.web}
    for url in cited(report):
        from_web = url.startswith(web.base_url)
        assert report.origins[split_page(url)[0]] == (Origin.web if from_web else Origin.library)
    # The Markdown file lists each source with where it came from.
    lines = uploaded_text(s).splitlines()
    web_lines = [line for line in lines if line.startswith("**") and web.base_url in line]
    library_lines = [
        line for line in lines if line.startswith("**") and line.endswith("biblioteca da equipe")
    ]
    assert web_lines
    assert all(line.endswith(" web") for line in web_lines), web_lines
    assert library_lines
    # A library file is cited by its name: the server's path never reaches a reader.
    assert not any("file://" in line for line in lines), library_lines


async def test_a_channel_mapped_to_a_folder_researches_that_folder(
    surface: Open, tmp_path: Path
) -> None:
    own = tmp_path / "team-a"
    own.mkdir()
    (own / "parque-eolico.md").write_text(TURBINES, encoding="utf-8")
    s = await surface(channel_libraries=f"C1={own}")
    question = "Quanto produz a turbina Alfa do parque eólico do norte?"
    mapped = await researched(s, "C1", "1.1", question)
    assert any("parque-eolico" in url for url in cited(mapped))
    other = await researched(s, "C2", "2.1", question)
    assert not any("parque-eolico" in claim.url for claim in other.claims)


async def test_a_pdf_shared_in_a_dm_answers_there_and_nowhere_else(surface: Open) -> None:
    s = await surface()
    shared = s.slack.share_file(
        "U1", "D7", "usina-beta.pdf", pdf_bytes(PDF_PAGES), "application/pdf", ts="7.0"
    )
    await s.event(shared)
    permalink = shared["files"][0]["permalink"]
    store = conversation_files(s.rt.settings)
    await s.slack.wait_for(lambda: store.files(Conversation("D7")), what="the kept file")
    in_dm = await researched(s, "D7", "7.1", PDF_QUESTION, dm=True)
    verified = [
        in_dm.claim(claim_id)
        for claim_id in in_dm.cited_claim_ids()
        if in_dm.claim(claim_id).status is ClaimStatus.verified
    ]
    on_page = [claim for claim in verified if claim.url == f"{permalink}#page=2"]
    assert any("18 megawatts" in claim.excerpt for claim in on_page), verified
    files = uploaded_text(s)
    assert "compartilhado nesta conversa" in files  # the report says where it came from
    assert "data:image/png;base64," in files  # with the crop of the shared PDF's page
    from_channel = await researched(s, "C3", "3.1", PDF_QUESTION)
    assert not any(claim.url.startswith(permalink) for claim in from_channel.claims)
