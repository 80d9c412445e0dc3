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
import json
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from urllib.parse import parse_qs, unquote, urlsplit

from evals.web_pages import (
    JSON_TYPE,
    TEXT_TYPE,
    Page,
    PageIndex,
    load_hotpotqa,
    searxng_answer,
    wiki_path,
    wikipedia_url,
)

DEFAULT_BIND = "127.0.0.2"
DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "hotpotqa"
SHUTDOWN_POLL_SECONDS = 0.02  # how soon a shutdown is noticed (socketserver's default is 0.5 s)


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

    def remove(self, path: str) -> None:
        """No page at `path` any more: it answers 404 and search no longer finds it."""
        with self._lock:
            del self._pages[unquote(path)]
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
            target=self._server.serve_forever,
            args=(SHUTDOWN_POLL_SECONDS,),
            name="offline-web",
            daemon=True,
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
        # Logged before it is answered: a client that has its answer finds it in the log.
        with self._lock:
            self._log.append(LoggedRequest(request.command, request.path, status, started))
        try:
            request.send_response(status)
            request.send_header("Content-Type", content_type)
            request.send_header("Content-Length", str(len(body)))
            request.end_headers()
            if with_body:
                request.wfile.write(body)
        except OSError:  # the client stopped waiting (its timeout is shorter than `latency`)
            pass

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
