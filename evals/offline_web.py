"""A small web on loopback for tests and offline evals: Wikipedia-like pages of a corpus and a
SearXNG-compatible search endpoint over them.

    python -m evals.offline_web [--corpus ../shared/corpus/hotpotqa] [--port 8080]
                                [--bind 127.0.0.2] [--latency 0.5]

Each HotpotQA passage is served as an HTML page at /wiki/<Title_with_underscores> (Wikipedia's
path), inside navigation and footer boilerplate an extractor has to drop. `GET /search?q=…&
format=json` answers like SearXNG (`results[{url, title, content}]`, BM25 ranking), so
`SEARXNG_URL=http://127.0.0.2:PORT` points the engine's SearXNG provider at it.

DNS is not touched: results and reports of offline runs cite the loopback URL, and evals map
a `/wiki/<Title>` path (loopback or en.wikipedia.org) back to its title with `title_from_url`.
The default bind address 127.0.0.2 lets the fetcher's allowlist open this server without
opening 127.0.0.1.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from urllib.parse import parse_qs, quote, unquote, urlsplit

import bm25s

from engine.text.tokens import tokenize

DEFAULT_BIND = "127.0.0.2"
DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "hotpotqa"
WIKIPEDIA = "https://en.wikipedia.org"
RESULTS_PER_PAGE = 10
SNIPPET_CHARS = 240
POLL_SECONDS = 0.02  # how soon a shutdown is noticed (socketserver's default is 0.5 s)
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
    cleaned = [" ".join(s.split()) for s in sentences if s.strip()]
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


def snippet(text: str, query_tokens: Sequence[str], chars: int = SNIPPET_CHARS) -> str:
    """From the sentence sharing most words with the query (the first, on ties), on for up
    to `chars` characters, cut at a word."""
    sentences = _SENTENCE_END.split(" ".join(text.split()))
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


@dataclass(frozen=True)
class LoggedRequest:
    method: str
    target: str  # path and query, as requested
    status: int
    started: float  # time.monotonic() when the request arrived


class OfflineWeb:
    """Serves `pages` and `/search` on `bind`:`port` (0: any free port) from a background
    thread, while used as a context manager. `latency` seconds are slept before every answer
    (settable while running); `requests` logs what was asked. Search results link to
    `result_base` (default: this server's own base URL)."""

    def __init__(
        self,
        pages: Iterable[Page] = (),
        *,
        bind: str = DEFAULT_BIND,
        port: int = 0,
        latency: float = 0.0,
        result_base: str | None = None,
    ) -> None:
        self.bind = bind
        self.latency = latency
        self._pages: dict[str, Page] = {}
        self._index: PageIndex | None = None
        self._log: list[LoggedRequest] = []
        self._lock = threading.Lock()
        self._server = _Server((bind, port), self)
        self.port: int = self._server.server_address[1]
        self.base_url = f"http://{bind}:{self.port}"
        self.result_base = (result_base or self.base_url).rstrip("/")
        self._thread: threading.Thread | None = None
        for page in pages:
            self.add(page)

    # -- content

    def add(self, page: Page) -> None:
        with self._lock:
            self._pages[unquote(page.path)] = page
            self._index = None

    def page_at(self, path: str) -> Page | None:
        with self._lock:
            return self._pages.get(unquote(urlsplit(path).path))

    def search(self, query: str, pageno: int = 1) -> dict[str, object]:
        return searxng_answer(self._current_index(), query, pageno, self.result_base)

    def _current_index(self) -> PageIndex:
        with self._lock:
            if self._index is None:
                self._index = PageIndex(self._pages.values())
            return self._index

    def local_url(self, title: str) -> str:
        return self.base_url + wiki_path(title)

    def public_url(self, title: str) -> str:
        """The Wikipedia URL of an article served here (reports cite `local_url`)."""
        return wikipedia_url(title)

    @property
    def requests(self) -> list[LoggedRequest]:
        with self._lock:
            return list(self._log)

    # -- lifecycle

    def serve_until_interrupted(self) -> None:
        """Serve from the calling thread until Ctrl-C, then close."""
        self._current_index()
        try:
            self._server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            self.close()

    def start(self) -> OfflineWeb:
        self._current_index()  # built now, so the first search's latency is not indexing time
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(POLL_SECONDS,), name="offline-web", daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
            self._thread = None
        self._server.server_close()

    def __enter__(self) -> OfflineWeb:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- one request (runs in a server thread)

    def answer(self, request: _Handler, *, with_body: bool) -> None:
        started = time.monotonic()
        if self.latency > 0:
            time.sleep(self.latency)
        status, content_type, body = self._route(request.path)
        try:
            request.send_response(status)
            request.send_header("Content-Type", content_type)
            request.send_header("Content-Length", str(len(body)))
            request.end_headers()
            if with_body:
                request.wfile.write(body)
        except OSError:  # the client stopped waiting (its timeout is shorter than `latency`)
            pass
        with self._lock:
            self._log.append(LoggedRequest(request.command, request.path, status, started))

    def _route(self, target: str) -> tuple[int, str, bytes]:
        parts = urlsplit(target)
        if parts.path == "/search":
            return self._search_route(parse_qs(parts.query))
        page = self.page_at(parts.path)
        if page is None:
            return 404, TEXT_TYPE, f"no page at {parts.path}\n".encode()
        return 200, page.content_type, page.body

    def _search_route(self, params: dict[str, list[str]]) -> tuple[int, str, bytes]:
        query = params.get("q", [""])[0].strip()
        pageno = params.get("pageno", ["1"])[0]
        if params.get("format", [""])[0] != "json":
            return 400, TEXT_TYPE, b"only format=json is served here\n"
        if not query or not pageno.isdigit() or int(pageno) < 1:
            return 400, TEXT_TYPE, b"q must be non-empty and pageno a positive integer\n"
        body = json.dumps(self.search(query, int(pageno)), ensure_ascii=False).encode("utf-8")
        return 200, JSON_TYPE, body


class _Server(ThreadingHTTPServer):
    def __init__(self, address: tuple[str, int], web: OfflineWeb) -> None:
        self.web = web
        super().__init__(address, _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "OfflineWeb/1"

    def do_GET(self) -> None:
        self.server.web.answer(self, with_body=True)

    def do_HEAD(self) -> None:
        self.server.web.answer(self, with_body=False)

    def log_message(self, format: str, *args: object) -> None:
        """Silent: `OfflineWeb.requests` is the log."""


# -- command line -----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.offline_web", description="Serve a corpus as an offline web."
    )
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="HotpotQA folder")
    parser.add_argument("--bind", default=DEFAULT_BIND, help=f"address ({DEFAULT_BIND})")
    parser.add_argument("--port", type=int, default=8080, help="port (8080; 0 = any free)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added per request")
    args = parser.parse_args(argv)
    try:
        pages = load_hotpotqa(args.corpus)
    except (OSError, ValueError) as error:
        print(f"error: cannot read {args.corpus / 'corpus.json'}: {error}", file=sys.stderr)
        return 2
    web = OfflineWeb(pages, bind=args.bind, port=args.port, latency=args.latency)
    print(f"serving {len(pages)} pages at {web.base_url} (Ctrl-C to stop); export:")
    print(f"export FONTE_SEARCH=searxng SEARXNG_URL={web.base_url}")
    print(f"export FONTE_FETCH_ALLOWLIST={args.bind}", flush=True)
    web.serve_until_interrupted()
    return 0


if __name__ == "__main__":
    sys.exit(main())
