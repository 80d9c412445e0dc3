import json

import pytest

from engine.models.claude.research_tools import (
    document_result,
    page_text,
    search_results_json,
    tool_definitions,
)
from engine.models.claude.untrusted import DOCUMENT_NOTE
from engine.snapshots import Snapshot
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
    tools = tool_definitions(library=False)
    assert [t.get("cache_control") for t in tools] == [None, None, None]
    schema = json.loads(json.dumps(tools[2]))["input_schema"]
    assert schema["required"] == ["statement", "url", "excerpt"]
    assert {p["type"] for p in schema["properties"].values()} == {"string"}
