from __future__ import annotations

import pytest

from engine.sources.protocols import SearchError, SearchHit
from engine.sources.web.search.hits import RawResult, entries_at, plain_text, ranked_hits


def test_ranked_hits_skip_unusable_urls_and_repeats_and_rank_from_one() -> None:
    results = [
        RawResult(None, "no url"),
        RawResult("javascript:alert(1)", "script"),
        RawResult(" https://a.example/1 ", "First", "one"),
        RawResult("ftp://a.example/file", "ftp"),
        RawResult("https://a.example/1", "First again"),
        RawResult("http://b.example/2", "", 42),
        RawResult("https://c.example/3", "Third"),
    ]
    assert ranked_hits(results, "p", 2) == [
        SearchHit("https://a.example/1", "First", "one", 1, "p"),
        SearchHit("http://b.example/2", "http://b.example/2", "", 2, "p"),
    ]


def test_plain_text_drops_markup_and_entities() -> None:
    assert plain_text("  <strong>Solar</strong> &amp; wind\n power ") == "Solar & wind power"
    assert plain_text(None) == ""


def test_entries_at_walks_objects_and_keeps_only_objects() -> None:
    assert entries_at({"web": {"results": [{"url": "u"}, "junk"]}}, "web", "results") == [
        {"url": "u"}
    ]
    assert entries_at({"type": "search"}, "web", "results", optional=True) == []


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([], "malformed response: top level is not an object"),
        ({"web": []}, "malformed response: web is not an object"),
        ({"web": {"results": None}}, "malformed response: web.results is not a list"),
        ({"web": {}}, "malformed response: no web.results"),
        ({}, "malformed response: no web"),
    ],
)
def test_entries_at_rejects_other_shapes(payload: object, message: str) -> None:
    with pytest.raises(SearchError) as failure:
        entries_at(payload, "web", "results")
    assert str(failure.value) == message
