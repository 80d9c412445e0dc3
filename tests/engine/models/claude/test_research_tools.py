import json

import pytest

from engine.models.claude.research_tools import (
    document_result,
    page_text,
    search_results_json,
    sources_phrase,
    tool_definitions,
)
from engine.models.claude.untrusted import DOCUMENT_NOTE
from engine.snapshots import Snapshot
from engine.sources.kinds import CONVERSATION, LIBRARY, WEB, Origin, SourceKind
from engine.sources.protocols import SearchHit

PDF = Snapshot.from_pages("file:///r.pdf", ["first page", "second page"], title="Report")


def test_library_hits_carry_their_passage_web_hits_a_snippet() -> None:
    hits = [
        SearchHit("file:///r.pdf#page=2", "Report", "snip", 1, "library", passage="x" * 2000),
        SearchHit("https://a.example/", "A", "y" * 500, 2, "searxng"),
    ]
    rows = json.loads(search_results_json(hits))
    assert rows[0] == {
        "url": "file:///r.pdf#page=2",
        "title": "Report",
        "snippet": "snip",
        "passage": "x" * 1200,
    }
    assert rows[1] == {"url": "https://a.example/", "title": "A", "snippet": "y" * 300}
    assert search_results_json([]).startswith("No results.")


def test_a_page_of_a_paged_document_or_the_whole_text_cut_with_a_note() -> None:
    assert page_text(PDF, "file:///r.pdf#page=2").text == "second page"
    whole = page_text(PDF, "file:///r.pdf", max_chars=15)
    assert whole.text == "first page\n\nsec"
    assert whole.note == (
        "Only the first 15 of 23 characters are shown. "
        "The document has 2 pages; read file:///r.pdf#page=N for one page."
    )
    with pytest.raises(ValueError, match="page 3 is out of range: the document has 2 pages"):
        page_text(PDF, "file:///r.pdf#page=3")


def test_a_document_result_is_citable() -> None:
    result = document_result(
        "toolu_1", "file:///r.pdf#page=1", "Report", page_text(PDF, "file:///r.pdf#page=1")
    )
    assert result["content"] == [
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "first page"},
            "title": "Report",
            "context": f"url: file:///r.pdf#page=1. {DOCUMENT_NOTE}",
            "citations": {"enabled": True},
        }
    ]


def test_every_tool_takes_strings_and_none_is_a_breakpoint_of_its_own() -> None:
    # The system prompt's breakpoint covers tools + system (tools come first in the prefix).
    tools = tool_definitions(WEB)
    assert [t.get("cache_control") for t in tools] == [None, None, None]
    schema = json.loads(json.dumps(tools[2]))["input_schema"]
    assert schema["required"] == ["statement", "url", "excerpt"]
    assert {p["type"] for p in schema["properties"].values()} == {"string"}


def _described(kind: SourceKind) -> tuple[list[str], str]:
    tools = json.loads(json.dumps(tool_definitions(kind)))
    return [t["name"] for t in tools], " ".join(t.get("description", "") for t in tools)


def test_a_library_and_shared_files_get_the_documents_tools_worded_for_both() -> None:
    names, said = _described(LIBRARY | CONVERSATION)
    assert names == [
        "search_library",
        "read_document",
        "record_claim",
        "view_figure",
        "record_figure_reading",
    ]
    assert "the user's document library and the files shared in this conversation" in said
    assert "no web" in said
    assert "Search the web" not in said
    assert "snippet" not in said


def test_a_library_with_the_web_keeps_the_documents_tools_and_names_the_web() -> None:
    names, said = _described(LIBRARY | WEB)
    assert names[:2] == ["search_library", "read_document"]
    assert "view_figure" in names  # the library's PDFs still have figures to look at
    assert "the user's document library and the web" in said
    assert "no web" not in said
    assert "a snippet for a web page" in said


def test_the_web_alone_gets_the_web_tools_and_may_take_the_server_search() -> None:
    names, said = _described(WEB)
    assert names == ["web_search", "fetch_page", "record_claim"]
    assert "Search the web." in said
    server = tool_definitions(WEB, server_searches=3)
    assert server[0].get("type") == "web_search_20250305"


def test_every_part_has_its_wording_listed_in_one_order() -> None:
    assert sources_phrase(LIBRARY) == "the user's document library (local documents; no web)"
    assert sources_phrase(WEB) == "the web"
    everything = SourceKind.of(*reversed(list(Origin)))
    assert sources_phrase(everything) == (
        "the user's document library, the files shared in this conversation, the web and "
        "Slack messages found by Slack's search"
    )
