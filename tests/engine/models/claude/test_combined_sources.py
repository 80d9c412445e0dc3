"""A research over a team library plus the files shared in a conversation, with Claude on the
scripted Messages API: Claude is told it reads those documents (never "the web"), gets the
documents' tools, and a page its files' index read by OCR costs one read, as a library's
does (the OCR was paid when the files were indexed)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.assembly import combined_sources, library_owns, library_sources, source_part
from engine.contracts import ClaimStatus, Limits
from engine.documents import ocr
from engine.models.claude import ClaudeModel
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.sources.kinds import CONVERSATION, LIBRARY, Origin
from engine.sources.library import Library
from tests.support.anthropic_server import (
    Body,
    Reply,
    ScriptedAnthropic,
    first_user_text,
    json_message,
    message,
    text,
    tool_use,
)
from tests.support.claude_turns import by_role, claim_rows, entailing_judge
from tests.support.pages_source import LAW_TEXT
from tests.support.pdfs import pdf_bytes
from tests.support.scans import with_page_scanned

QUESTION = "Quanto a usina de Petrolina produziu em 2023?"
PAGES = [
    "Relatorio anual da usina solar de Petrolina\nA usina entrou em operacao em 2021.",
    "A usina produziu 1.204 MWh em 2023, segundo a ANEEL.\nThe plant employs 310 people.",
]
EXCERPT = "A usina produziu 1.204 MWh em 2023, segundo a ANEEL."
STATEMENT = "A usina de Petrolina produziu 1.204 MWh em 2023."
PLAN = {
    "sufficient_when": ["Fonte que informe a produção da usina em 2023"],
    "subquestions": [{"id": "s1", "title": "Produção", "text": QUESTION}],
}
WORDING = (
    "the user's document library and the files shared in this conversation "
    "(local documents; no web)"
)


@pytest.fixture
def shared_scan(tmp_path: Path) -> str:
    """The files of a conversation: one PDF whose second page is a scan (read by OCR)."""
    if not ocr.ocr_available():
        pytest.skip("tesseract with por or eng data is not installed (.ci/run installs it)")
    folder = tmp_path / "conversation"
    folder.mkdir()
    (folder / "usina.pdf").write_bytes(with_page_scanned(pdf_bytes(PAGES), 1, dpi=200))
    return f"{(folder / 'usina.pdf').resolve().as_uri()}#page=2"


def open_folder(folder: Path, cache: Path) -> Library:
    return Library.open(folder, cache_dir=cache)


def subagent(page: str) -> Callable[[Body], Reply]:
    script = [
        tool_use("search_library", {"query": "usina produziu 2023"}),
        tool_use("read_document", {"url": page}),
        tool_use("record_claim", {"statement": STATEMENT, "url": page, "excerpt": EXCERPT}),
    ]

    def reply(body: Body) -> Reply:
        turn = len(body["messages"]) // 2
        if turn < len(script):
            return message(script[turn], stop_reason="tool_use")
        return message(text("Produção de 2023 encontrada no relatório compartilhado."))

    return reply


def writer(body: Body) -> Reply:
    sentence = {"text": STATEMENT, "claim_ids": [claim_rows(body)[0]["id"]]}
    draft = {"title": "Usina", "sections": [{"title": "Produção", "sentences": [sentence]}]}
    return json_message(draft)


async def test_a_library_with_shared_files_is_worded_tooled_and_charged_as_documents(
    anthropic: ScriptedAnthropic,
    make_model: Callable[..., ClaudeModel],
    tmp_path: Path,
    shared_scan: str,
) -> None:
    team = tmp_path / "team"
    team.mkdir()
    (team / "lei-14300.md").write_text(LAW_TEXT, encoding="utf-8")
    shared = open_folder(tmp_path / "conversation", tmp_path / "cache")
    shared.kind = CONVERSATION
    library = open_folder(team, tmp_path / "cache")
    sources = combined_sources(
        [
            source_part(library_sources(shared, []), Origin.conversation, library_owns(shared)),
            source_part(library_sources(library, []), Origin.library, library_owns(library)),
        ]
    )
    assert sources.kind == LIBRARY | CONVERSATION
    anthropic.script(
        by_role(
            planner=json_message(PLAN),
            subagent=subagent(shared_scan),
            criteria=json_message({"unmet": []}),
            judge=entailing_judge(),
            writer=writer,
        )
    )
    model = make_model(server_web_search=True)  # never taken for documents
    orchestrator = Orchestrator(
        model, sources.searcher, sources.fetcher, limits=Limits(steps=40, usd=5)
    )
    report = await orchestrator.run(make_brief(QUESTION))

    (claim,) = report.claims
    assert claim.status is ClaimStatus.verified
    assert claim.read_by == "ocr"  # the page had no text layer: its index read it by OCR

    # Claude was told what it reads: the documents, never the web.
    prompts = [first_user_text(r.body) for r in anthropic.requests]
    assert all(WORDING in prompts[i] for i in (0, 1))  # the planner's, the subagent's
    assert not any("Sources: the web" in p for p in prompts)
    subagent_request = anthropic.requests[1]
    names = [tool["name"] for tool in subagent_request.body["tools"]]
    assert names[:3] == ["search_library", "read_document", "record_claim"]
    assert "web_search" not in names
    assert "fetch_page" not in names

    # Charged as library reads: a step per Claude call, one for the search and one for the
    # read of the scanned page, and nothing for its OCR (a web read would cost one more).
    assert report.spend.steps == len(anthropic.requests) + 2
