"""The offline web's pages: Wikipedia paths and titles, article markup, the BM25 page index
and its snippets, and reading the HotpotQA corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.text.tokens import tokenize
from evals.web_pages import (
    Page,
    PageIndex,
    load_hotpotqa,
    snippet,
    title_from_url,
    wiki_page,
    wiki_path,
    wikipedia_url,
)

CORPUS = {
    "Lilu (mythology)": [
        "A lilu or lilû is a masculine Akkadian word for a spirit, related to Alû, demon.",
        " In Akkadian literature lilu occurs.",
    ],
    "AC/DC": ["AC/DC are an Australian rock band formed in Sydney in 1973."],
}


@pytest.mark.parametrize(
    ("title", "path"),
    [
        ("Lilu (mythology)", "/wiki/Lilu_(mythology)"),
        ("Arthur? Arthur!", "/wiki/Arthur%3F_Arthur!"),
        ("AC/DC", "/wiki/AC/DC"),
        ("Guess Who's Coming", "/wiki/Guess_Who%27s_Coming"),
        ("Alû", "/wiki/Al%C3%BB"),
    ],
)
def test_wiki_paths_are_spelled_as_wikipedia_and_map_back_to_titles(title: str, path: str) -> None:
    assert wiki_path(title) == path
    assert wikipedia_url(title) == "https://en.wikipedia.org" + path
    assert title_from_url("https://en.wikipedia.org" + path) == title
    assert title_from_url(f"http://127.0.0.2:8080{path}?x=1") == title


def test_urls_outside_wiki_have_no_title() -> None:
    assert title_from_url("http://127.0.0.2:8080/docs/report.pdf") is None
    assert title_from_url("https://en.wikipedia.org/wiki/") is None


def test_titles_are_escaped_in_html() -> None:
    page = wiki_page("Tom & <Jerry>", ["Cat & mouse."])
    assert b'<h1 id="firstHeading">Tom &amp; &lt;Jerry&gt;</h1>' in page.body
    assert b"<p>Cat &amp; mouse.</p>" in page.body


def test_page_index_ranks_by_bm25_and_leaves_unmatched_and_unsearchable_pages_out() -> None:
    pages = [
        Page("/b", b"", "text/plain", "B", "wind wind turbines"),
        Page("/a", b"", "text/plain", "A", "wind turbines"),
        Page("/c", b"", "text/plain", "C", "solar panels"),
        Page("/pdf", b"%PDF", "application/pdf"),
    ]
    index = PageIndex(pages)
    assert [m.page.path for m in index.search("wind")] == ["/b", "/a"]
    assert [m.page.path for m in index.search("wind", limit=1, offset=1)] == ["/a"]
    assert index.search("geothermal") == []
    assert PageIndex([]).search("wind") == []


def test_snippet_starts_at_the_best_sentence_and_is_cut_at_a_word() -> None:
    text = "Intro sentence here. The demon Gallu lives below. " + "More words follow. " * 30
    cut = snippet(text, tokenize("Gallu demon"), chars=60)
    assert cut.startswith("The demon Gallu lives below.")
    assert cut.endswith("…")
    assert len(cut) <= 61
    assert snippet("Short text.", ["absent"]) == "Short text."


def test_load_hotpotqa_reads_corpus_json(tmp_path: Path) -> None:
    (tmp_path / "corpus.json").write_text(json.dumps(CORPUS), encoding="utf-8")
    pages = load_hotpotqa(tmp_path)
    assert [p.path for p in pages] == [wiki_path(t) for t in CORPUS]
    assert pages[0].text == " ".join(s.strip() for s in CORPUS["Lilu (mythology)"])
