"""The library source: a local folder of documents, searched by BM25 over passages.

It is both a `Search` and a `Fetcher`. A hit on a PDF cites its page (`url#page=N`);
`fetch` returns the whole document that a URL names, with or without that fragment.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlparse

from engine.contracts import utc_now
from engine.snapshots import Snapshot, split_page
from engine.sources.library.cache import ParsedTextCache, default_cache_dir
from engine.sources.library.documents import (
    DocumentText,
    LibraryDocument,
    LibraryError,
    build_documents,
)
from engine.sources.library.files import read_library_files
from engine.sources.library.index_build import open_passage_index
from engine.sources.library.manifest import load_manifest
from engine.sources.library.parse import KIND_BY_SUFFIX
from engine.sources.library.passage_index import PassageIndex
from engine.sources.library.query import search_terms
from engine.sources.library.ranking import TitleField, rank_passages
from engine.sources.protocols import FetchError, SearchHit

SNIPPET_CHARS = 300


class Library:
    """A searchable, fetchable folder of PDF, HTML, Markdown and text files."""

    name = "library"

    def __init__(
        self,
        folder: Path,
        documents: list[DocumentText],
        index: PassageIndex,
        *,
        index_from_cache: bool = False,
    ) -> None:
        self.folder = folder
        self.index_from_cache = index_from_cache
        self._documents = documents
        self._index = index
        self._by_url = {doc.document.url: number for number, doc in enumerate(documents)}
        self._titles = TitleField([doc.document.title for doc in documents])

    @classmethod
    def open(
        cls,
        folder: Path,
        *,
        cache_dir: Path | None = None,
        on_warning: Callable[[str], None] | None = None,
        on_progress: Callable[[str], None] | None = None,
    ) -> Library:
        """Read and index `folder` (or load both from the cache); may take seconds.

        Unreadable files are skipped and reported through `on_warning`. Raises
        `LibraryError` when the folder is missing or holds no readable document.
        """
        warn = on_warning or _ignore
        progress = on_progress or _ignore
        folder = Path(folder).expanduser()
        if not folder.exists():
            raise LibraryError(f"library folder not found: {folder}")
        if not folder.is_dir():
            raise LibraryError(f"library path is not a folder: {folder}")
        folder = folder.resolve()
        cache_root = (cache_dir or default_cache_dir()) / "library"
        cache_errors: list[OSError] = []

        def on_cache_error(error: OSError) -> None:
            if not cache_errors:
                warn(f"library cache not writable ({error}); continuing without it")
            cache_errors.append(error)

        progress(f"reading {folder}")
        readable = read_library_files(
            folder,
            ParsedTextCache(cache_root / "parsed"),
            on_warning=warn,
            on_progress=progress,
            on_cache_error=on_cache_error,
        )
        if not readable:
            suffixes = ", ".join(sorted(KIND_BY_SUFFIX))
            raise LibraryError(f"no readable document in {folder} (looked for {suffixes})")
        documents = build_documents(readable, load_manifest(folder, warn), warn)
        index, from_cache = open_passage_index(
            cache_root / "index",
            folder,
            documents,
            on_progress=progress,
            on_cache_error=on_cache_error,
        )
        return cls(folder, documents, index, index_from_cache=from_cache)

    def documents(self) -> list[LibraryDocument]:
        return [doc.document for doc in self._documents]

    def passage_count(self) -> int:
        return len(self._index)

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        """The best passages for `query`, best first; [] for a query with no usable word."""
        terms = search_terms(query)
        if not terms.words or limit < 1:
            return []
        ranked = rank_passages(
            self._index.scores(terms.expanded),
            self._index.passage_documents(),
            self._titles.scores(terms.words),
            limit,
        )
        hits: list[SearchHit] = []
        for rank, scored in enumerate(ranked, 1):
            number, page, start, end = self._index.ref(scored.passage)
            document, texts = self._documents[number]
            passage = texts[page][start:end]
            hits.append(
                SearchHit(
                    url=document.page_url(page + 1),
                    title=document.title,
                    snippet=make_snippet(passage),
                    rank=rank,
                    provider=self.name,
                    passage=passage,
                    score=scored.score,
                )
            )
        return hits

    async def fetch(self, url: str) -> Snapshot:
        """The whole document `url` names; a `#page=N` fragment is accepted (and must be
        within the page count of a paged document)."""
        base, page = split_page(url.strip())
        number = self._by_url.get(base)
        if number is None:
            number = self._by_url.get(_canonical_file_url(base), -1)
        if number < 0:
            raise FetchError(f"not a document of the library at {self.folder}: {url}")
        document, texts = self._documents[number]
        pages = document.page_count
        if page is not None and pages is not None and not 1 <= page <= pages:
            raise FetchError(f"page {page} out of range: {document.title} has {pages} pages")
        title, content_type, now = document.title, document.content_type, utc_now()
        if document.page_count is not None:
            return Snapshot.from_pages(
                document.url, texts, title=title, content_type=content_type, fetched_at=now
            )
        return Snapshot(
            url=document.url, text=texts[0], title=title, content_type=content_type, fetched_at=now
        )


def make_snippet(passage: str, limit: int = SNIPPET_CHARS) -> str:
    """The start of `passage` on one line, cut at a word boundary near `limit` characters."""
    flat = " ".join(passage.split())
    if len(flat) <= limit:
        return flat
    cut = flat.rfind(" ", 0, limit)
    return flat[: cut if cut > limit // 2 else limit].rstrip() + "…"


def _canonical_file_url(url: str) -> str:
    """`file://` URLs written another way (unescaped, relative segments) in our spelling."""
    parsed = urlparse(url)
    if parsed.scheme != "file" or not parsed.path:
        return url
    return Path(unquote(parsed.path)).resolve().as_uri()


def _ignore(message: str) -> None:
    return None
