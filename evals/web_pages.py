"""The pages of the offline web (evals/offline_web.py): Wikipedia-like articles of a corpus
and other test pages, and the BM25 index its SearXNG-compatible search answers from.

Each HotpotQA passage becomes an HTML page at /wiki/<Title_with_underscores> (Wikipedia's
path), inside navigation and footer boilerplate an extractor has to drop; `title_from_url`
maps a `/wiki/<Title>` path (loopback or en.wikipedia.org) back to its title.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import bm25s

from engine.text import collapse_whitespace, tokenize

WIKIPEDIA = "https://en.wikipedia.org"
RESULTS_PER_PAGE = 10
_SNIPPET_CHARS = 240
HTML_TYPE = "text/html; charset=utf-8"
TEXT_TYPE = "text/plain; charset=utf-8"
JSON_TYPE = "application/json"
PDF_TYPE = "application/pdf"

# MediaWiki leaves these unescaped in article paths ("AC/DC", "Lilu_(mythology)").
_WIKI_PATH_SAFE = ";:@$!*(),/~"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


# -- pages ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """What the server answers at `path`; `text` is what search indexes ("" = unsearchable)."""

    path: str
    body: bytes
    content_type: str
    title: str = ""
    text: str = ""


def wiki_path(title: str) -> str:
    """`Lilu (mythology)` -> `/wiki/Lilu_(mythology)`, spelled as Wikipedia spells it."""
    return "/wiki/" + quote(title.replace(" ", "_"), safe=_WIKI_PATH_SAFE)


def wikipedia_url(title: str) -> str:
    return WIKIPEDIA + wiki_path(title)


def title_from_url(url: str) -> str | None:
    """The article title of a `/wiki/<Title>` URL or path, from here or from Wikipedia."""
    path = urlsplit(url).path
    if not path.startswith("/wiki/") or len(path) == len("/wiki/"):
        return None
    return unquote(path.removeprefix("/wiki/")).replace("_", " ")


def wiki_page(title: str, sentences: Sequence[str]) -> Page:
    cleaned = [collapse_whitespace(s) for s in sentences if s.strip()]
    body = render_article(title, cleaned).encode("utf-8")
    return Page(wiki_path(title), body, HTML_TYPE, title, " ".join(cleaned))


def html_page(path: str, markup: str, *, title: str = "", text: str = "") -> Page:
    """HTML as given; searchable by the `text` given (the server parses neither HTML nor PDF)."""
    return Page(path, markup.encode("utf-8"), HTML_TYPE, title, text)


def text_page(path: str, text: str, *, title: str = "") -> Page:
    return Page(path, text.encode("utf-8"), TEXT_TYPE, title, text)


def pdf_page(path: str, data: bytes, *, title: str = "", text: str = "") -> Page:
    return Page(path, data, PDF_TYPE, title, text)


def load_hotpotqa(folder: Path) -> list[Page]:
    """The passages of `folder/corpus.json` (`{title: [sentences]}`) as wiki pages."""
    corpus: dict[str, list[str]] = json.loads((folder / "corpus.json").read_text("utf-8"))
    return [wiki_page(title, sentences) for title, sentences in corpus.items()]


def render_article(title: str, sentences: Sequence[str]) -> str:
    """A Wikipedia-like article: one <p> per sentence, between menus, a sidebar and a footer."""
    name = html.escape(title)
    paragraphs = "\n".join(f"<p>{html.escape(s)}</p>" for s in sentences)
    return f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{name}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body {{ font-family: sans-serif; }} nav li {{ display: inline; margin-right: 1em; }}</style>
</head>
<body>
<header id="site-header"><a href="/wiki/Main_Page">Offline Wiki</a>
<nav aria-label="Main menu"><ul>
<li><a href="/wiki/Main_Page">Main page</a></li>
<li><a href="/wiki/Special:Random">Random article</a></li>
<li><a href="/wiki/Help:Contents">Help</a></li>
<li><a href="/wiki/Special:RecentChanges">Recent changes</a></li>
</ul></nav>
<form action="/search" role="search"><input name="q" placeholder="Search Offline Wiki">
<input type="hidden" name="format" value="json"><button>Search</button></form>
</header>
<main id="content"><article>
<h1 id="firstHeading">{name}</h1>
<div id="siteSub">From Offline Wiki, a loopback copy of Wikipedia passages</div>
<div class="mw-parser-output">
{paragraphs}
</div>
</article></main>
<aside class="sidebar"><h2>Tools</h2><ul>
<li><a href="#">What links here</a></li><li><a href="#">Related changes</a></li>
<li><a href="#">Cite this page</a></li></ul></aside>
<footer id="footer">
<p>This page holds a passage of Wikipedia from the HotpotQA corpus, served offline.
Text is available under the Creative Commons Attribution-ShareAlike License 4.0.</p>
<ul><li><a href="#">Privacy policy</a></li><li><a href="#">About</a></li>
<li><a href="#">Disclaimers</a></li></ul>
</footer>
</body>
</html>
"""


# -- search -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    page: Page
    score: float
    snippet: str


class PageIndex:
    """BM25 (bm25s) over the title and text of the searchable pages."""

    def __init__(self, pages: Iterable[Page]) -> None:
        self._pages = [page for page in pages if page.text or page.title]
        self._retriever = bm25s.BM25(k1=0.9, b=0.4)
        if self._pages:
            corpus = [tokenize(f"{page.title}\n{page.text}") for page in self._pages]
            self._retriever.index(corpus, show_progress=False)

    def search(self, query: str, limit: int = RESULTS_PER_PAGE, offset: int = 0) -> list[Match]:
        """Matching pages, best first (ties by path), from `offset`; unmatched pages left out."""
        tokens = list(dict.fromkeys(tokenize(query)))
        vocabulary: dict[str, int] = self._retriever.vocab_dict if self._pages else {}
        ids = [vocabulary[token] for token in tokens if token in vocabulary]
        if not ids:
            return []
        scores = self._retriever.get_scores_from_ids(ids).tolist()
        ranked = sorted(
            ((score, page) for score, page in zip(scores, self._pages, strict=True) if score > 0),
            key=lambda pair: (-pair[0], pair[1].path),
        )
        return [
            Match(page, score, snippet(page.text, tokens))
            for score, page in ranked[offset : offset + limit]
        ]


def snippet(text: str, query_tokens: Sequence[str], chars: int = _SNIPPET_CHARS) -> str:
    """From the sentence sharing most words with the query (the first, on ties), on for up
    to `chars` characters, cut at a word."""
    sentences = _SENTENCE_END.split(collapse_whitespace(text))
    wanted = set(query_tokens)
    overlaps = [len(wanted & set(tokenize(sentence))) for sentence in sentences]
    best = overlaps.index(max(overlaps)) if overlaps else 0
    flat = " ".join(sentences[best:])
    if len(flat) <= chars:
        return flat
    cut = flat.rfind(" ", 0, chars)
    return flat[: cut if cut > chars // 2 else chars].rstrip() + "…"


def searxng_answer(index: PageIndex, query: str, pageno: int, base_url: str) -> dict[str, object]:
    """The JSON SearXNG gives for `/search?q=…&format=json&pageno=…`."""
    offset = (pageno - 1) * RESULTS_PER_PAGE
    matches = index.search(query, RESULTS_PER_PAGE, offset)
    results = [
        {
            "url": base_url + m.page.path,
            "title": m.page.title or m.page.path,
            "content": m.snippet,
            "engine": "offline_web",
            "engines": ["offline_web"],
            "score": round(m.score, 4),
            "category": "general",
        }
        for m in matches
    ]
    return {
        "query": query,
        "number_of_results": len(results),
        "results": results,
        "answers": [],
        "corrections": [],
        "infoboxes": [],
        "suggestions": [],
        "unresponsive_engines": [],
    }


# -- the server -------------------------------------------------------------------------------
