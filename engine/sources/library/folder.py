"""The library source: a local folder of documents, searched by BM25 over passages.

It is both a `Search` and a `Fetcher`. A hit on a PDF cites its page (`url#page=N`);
`fetch` returns the whole document that a URL names, with or without that fragment.
Opening brings the folder's index up to date (see `index`) and loads no document text:
a hit or a fetch reads the text of its own document, when it needs it (see `texts`).

With a shared store (`store`, or `FONTE_LIBRARY_STORE`) the index and the page texts are kept
in it under the folder's identity: a host with the folder refreshes them as it would its
own cache; a host without it opens the library from the store alone (`stored`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlparse

from engine.contracts import utc_now
from engine.documents.parse import KIND_BY_SUFFIX, DocumentKind
from engine.snapshots import Snapshot, split_page
from engine.sources.kinds import LIBRARY, SourceKind
from engine.sources.library.cache import ParsedTextCache, default_cache_dir
from engine.sources.library.deadline import Deadline
from engine.sources.library.document_texts import DocumentTexts
from engine.sources.library.documents import (
    Documents,
    LibraryDocument,
    LibraryError,
    ListedDocuments,
    library_documents,
)
from engine.sources.library.files import Note, worded
from engine.sources.library.index.catalog import CatalogColumns
from engine.sources.library.index.opening import OpenedIndex, open_index, open_saved
from engine.sources.library.index.passage_index import PassageIndex
from engine.sources.library.index.refresh import RefreshSummary
from engine.sources.library.manifest import Manifest, load_manifest
from engine.sources.library.query import search_terms
from engine.sources.library.ranking import (
    TitleField,
    rank_passages,
    title_tokens,
    titled_documents,
)
from engine.sources.library.stored import (
    checked_store_url,
    default_store_url,
    library_name,
    stored_documents,
)
from engine.sources.library.walking import FolderWalk
from engine.sources.library.watching import FolderWatch, watch_folder
from engine.sources.protocols import DocumentGone, FetchError, SearchHit
from engine.text.escapes import escaped
from engine.text.normalise import collapse_whitespace
from engine.words import ENGLISH, PORTUGUESE, Words

SNIPPET_CHARS = 300


class Library:
    """A searchable, fetchable folder of PDF, HTML, Markdown and text files."""

    name = "library"
    kind: SourceKind = LIBRARY
    """What it reads: a library, unless whoever opened it says otherwise (the files shared
    in a conversation are a library folder whose kind is `CONVERSATION`)."""

    def __init__(
        self,
        folder: Path,
        documents: Documents,
        index: PassageIndex,
        texts: DocumentTexts,
        *,
        index_from_cache: bool = False,
        summary: RefreshSummary | None = None,
        refused: list[tuple[str, str]] | None = None,
        titles: TitleField,
        watch: FolderWatch | None = None,
    ) -> None:
        self.folder = folder
        self.index_from_cache = index_from_cache
        self.summary = summary or RefreshSummary()
        """What opening changed in the index (files added, changed, removed, unreadable)."""
        self.refused = refused or []
        """What the scan would not take, with why: links leading outside, unreadable folders."""
        self.from_store = False
        """Opened from a shared store alone: the folder is not on this host."""
        self._documents = documents
        self._index = index
        self._texts = texts
        self._titles = titles
        """The documents' titles, as a field of their own (from the catalog's title tokens)."""
        self._watch = watch

    @classmethod
    def open(
        cls,
        folder: Path,
        *,
        cache_dir: Path | None = None,
        on_warning: Callable[[str], None] | None = None,
        on_progress: Callable[[str], None] | None = None,
        deadline: Deadline | None = None,
        store: str | None = None,
        scan_ahead: FolderWalk[DocumentKind] | None = None,
        watch: bool = False,
    ) -> Library:
        """Open `folder`, first bringing its index up to date: only new or changed files are
        read, so this takes seconds on a folder already indexed, longer on a new one.

        Unreadable files and folders are skipped and reported through `on_warning`, as
        `Note`s (several of one reason as one note, see `skipped_notes`). Raises
        `LibraryError` when the folder is missing or holds no readable document.

        Once `deadline` passes (the run's time cap) no more file is read: the library holds
        the files indexed by then, perhaps none, says so in a note (`unfinished_note`), and
        `summary.pending` names the rest, which the next opening reads.

        `store` (a `postgresql://` URL; by default `FONTE_LIBRARY_STORE`) keeps the index
        and the page texts for every host: when `folder` is not on this host, the library
        is opened from the store alone (`LibraryError` when it holds no index of it).

        `scan_ahead` is the folder's walk begun in a process of its own (`files.start_scan`,
        which a command starts before its imports): taken instead of walking it here.

        `watch`: the folder is watched from before its walk on (`watching`), so that a
        process keeping the library open asks `unchanged` before a research rather than
        walking the folder again.
        """
        warn = on_warning or _ignore
        progress = on_progress or _ignore
        folder = Path(folder).expanduser()
        store_url = checked_store_url(store, "--store") if store else default_store_url()
        if store_url is not None and not folder.exists():
            return cls._from_store(folder, store_url, warn, progress)
        if not folder.exists():
            raise LibraryError(f"library folder not found: {folder}")
        if not folder.is_dir():
            raise LibraryError(f"library path is not a folder: {folder}")
        folder = folder.resolve()
        cache_root = (cache_dir or default_cache_dir()) / "library"
        cache_errors: list[OSError] = []

        def on_cache_error(error: OSError) -> None:
            if not cache_errors:  # its reason only: the cache's path is the server's
                why = error.strerror or str(error)
                warn(worded(lambda words: words.cache_not_writable, error=why))
            cache_errors.append(error)

        progress(f"reading {folder}")
        watched = None
        if watch:  # before the walk, which it then sees whole (one begun earlier would not be)
            watched = watch_folder(folder)
            if scan_ahead is not None:
                scan_ahead.cancel()
                scan_ahead = None
        manifest = load_manifest(folder, warn)
        refused: list[tuple[str, str]] = []
        backend = None
        if store_url is not None:
            from engine.sources.library.index.postgres_store import PostgresStore

            backend = PostgresStore(store_url, library_name(folder), folder, cache_root / "parsed")
        opened = open_index(
            folder,
            cache_root / "index",
            cache_root / "parsed",
            _manifest_titles(folder, manifest),
            on_progress=progress,
            on_cache_error=on_cache_error,
            on_refused=lambda relative, reason: refused.append((relative, reason)),
            deadline=deadline,
            store=backend,
            scan_ahead=scan_ahead,
        )
        for note in skipped_notes(refused + opened.summary.unreadable):
            warn(note)
        indexed = opened.indexed()
        if opened.summary.unfinished:
            warn(unfinished_note(opened.summary, len(indexed.relative)))
        if not indexed.relative and not opened.summary.unfinished:
            suffixes = ", ".join(sorted(KIND_BY_SUFFIX))
            raise LibraryError(f"no readable document in {folder} (looked for {suffixes})")
        documents = library_documents(folder, indexed, manifest, warn)
        if backend is None:
            texts = DocumentTexts(ParsedTextCache(cache_root / "parsed"), opened.state.texts)
        else:  # the citation URLs too, for the hosts without the folder (or its manifest)
            urls = {r: doc.url for r, doc in zip(indexed.relative, documents, strict=True)}
            if urls != backend.load_urls():
                backend.save_urls(urls)
            snapshot = backend.snapshot_texts(opened.reader)
            texts = DocumentTexts(snapshot, opened.state.texts, every_kind=True)
        return cls(
            folder,
            documents,
            opened.passage_index(),
            texts,
            index_from_cache=opened.from_cache,
            summary=opened.summary,
            refused=refused,
            titles=TitleField.of_tokens(_title_tokens(indexed)),
            watch=watched,
        )

    @classmethod
    def _from_store(
        cls,
        folder: Path,
        store_url: str,
        warn: Callable[[str], None],
        progress: Callable[[str], None],
    ) -> Library:
        """The library of `folder` (not on this host) as the store at `store_url` holds it."""
        from engine.sources.library.index.postgres_connection import without_password
        from engine.sources.library.index.postgres_store import PostgresStore

        folder = Path(library_name(folder))
        backend = PostgresStore(store_url, str(folder))
        opened: OpenedIndex | None = open_saved(backend)
        if opened is None:
            raise LibraryError(
                f"library folder not found: {folder}, and the library store "
                f"{without_password(store_url)} holds no index of it "
                f"(fonte library index {folder} --store URL)"
            )
        progress(f"index loaded from the library store ({len(opened.state.catalog)} files)")
        for note in skipped_notes(opened.summary.unreadable):
            warn(note)
        documents = ListedDocuments(
            stored_documents(folder, opened.documents(), backend.load_urls())
        )
        texts = DocumentTexts(backend.snapshot_texts(opened.reader), every_kind=True)
        library = cls(
            folder,
            documents,
            opened.passage_index(),
            texts,
            index_from_cache=True,
            summary=opened.summary,
            titles=TitleField.of_tokens(_title_tokens(opened.indexed())),
        )
        library.from_store = True
        return library

    def unchanged(self) -> bool:
        """Whether the folder is known to be as it was opened (`open(watch=True)`): False
        once its watch saw anything change, and when it has no watch (not asked for, or
        the system could not keep one), so that a process keeping the library opens it
        again before a research. A library opened from a store alone has no folder here:
        it is as its store's catalog was when opened."""
        if self.from_store:
            return True
        return self._watch is not None and not self._watch.changed()

    def close(self) -> None:
        """Stop watching the folder (the library is still read as opened)."""
        if self._watch is not None:
            self._watch.close()
            self._watch = None

    def documents(self) -> list[LibraryDocument]:
        """Every document (each made now: `document_count` and `owns` make none)."""
        return list(self._documents)

    def shelf(self) -> Documents:
        """The documents, each made when first asked for (what a planner looks over)."""
        return self._documents

    def document_count(self) -> int:
        return len(self._documents)

    def owns(self, url: str) -> bool:
        """Whether `url` cites a document of the library (`#page=N` accepted, a `file://`
        URL in any spelling)."""
        return self._number_of(split_page(url.strip())[0]) >= 0

    def _number_of(self, base: str) -> int:
        """The number of the document `base` (a URL without page) cites; -1 for none."""
        number = self._documents.number_of(base)
        if number < 0:
            number = self._documents.number_of(canonical_file_url(base))
        return number

    def passage_count(self) -> int:
        return len(self._index)

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        """The best passages for `query`, best first; [] for a query with no usable word."""
        terms = search_terms(query)
        if not terms.words or limit < 1:
            return []
        titles = self._titles.scores(terms.words, terms.short_names)
        matches = self._index.matches(terms.expanded, titled_documents(titles), limit)
        ranked = rank_passages(matches.scores, matches.documents, titles, limit)
        hits: list[SearchHit] = []
        for rank, scored in enumerate(ranked, 1):
            number, page, start, end = matches.refs[scored.passage]
            document = self._documents[number]
            passage = self._texts.texts(document)[page][start:end]
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

    def pdf_path(self, url: str) -> Path | None:
        """The file of the library's PDF that `url` cites (`#page=N` accepted, a `file://`
        URL in any spelling); None for a URL of no PDF of the library."""
        number = self._number_of(split_page(url.strip())[0])
        document = self._documents[number] if number >= 0 else None
        return document.path if document is not None and document.kind is DocumentKind.pdf else None

    def original(self, url: str) -> Path | None:
        """The file of any document of the library that `url` cites (`Originals`)."""
        number = self._number_of(split_page(url.strip())[0])
        return self._documents[number].path if number >= 0 else None

    async def fetch(self, url: str) -> Snapshot:
        """The whole document `url` names; a `#page=N` fragment is accepted (and must be
        within the page count of a paged document)."""
        base, page = split_page(url.strip())
        number = self._number_of(base)
        if number < 0:
            raise DocumentGone(f"not a document of the library at {self.folder}: {url}")
        document = self._documents[number]
        texts = self._texts.texts(document)
        pages = document.page_count
        if page is not None and pages is not None and not 1 <= page <= pages:
            raise FetchError(f"page {page} out of range: {document.title} has {pages} pages")
        title, content_type, now = document.title, document.content_type, utc_now()
        if document.page_count is not None:
            ocr = frozenset(index + 1 for index in self._texts.ocr_pages(document))
            return Snapshot.from_pages(
                document.url,
                texts,
                title=title,
                content_type=content_type,
                fetched_at=now,
                ocr_pages=ocr,
            )
        return Snapshot(
            url=document.url, text=texts[0], title=title, content_type=content_type, fetched_at=now
        )


SKIPPED_NAMED = 3
"""Skipped files of one reason named one note each, up to this many; more make one note."""


class SkippedNote(Note):
    """A note about files or folders left out (`skipped_notes`)."""


def skipped_notes(skipped: list[tuple[str, str]]) -> list[Note]:
    """One note per skipped file or folder, or, past `SKIPPED_NAMED` of one reason, one note
    for them all ("50,000 files skipped (empty file): a.md, b.md, c.md, …"): a folder of
    empty files must not put 50,000 notes in every report."""
    by_reason: dict[str, list[str]] = {}
    for relative, reason in skipped:
        by_reason.setdefault(reason, []).append(escaped(relative))
    notes: list[Note] = []
    for reason, names in by_reason.items():
        if len(names) <= SKIPPED_NAMED:
            notes += [_skipped(reason, name=name) for name in names]
            continue
        shown = ", ".join(names[:SKIPPED_NAMED]) + ", …"
        notes.append(_skipped(reason, count=len(names), names=shown))
    return notes


class UnfinishedNote(Note):
    """The note of an index build the time cap stopped (`unfinished_note`)."""


def unfinished_note(summary: RefreshSummary, indexed: int) -> UnfinishedNote:
    """What a report says when the time cap stopped its library's index build: how many
    files are `indexed`, how many (and how many megabytes) are left for the next run."""
    return UnfinishedNote(
        _unfinished_text(ENGLISH, summary, indexed), _unfinished_text(PORTUGUESE, summary, indexed)
    )


def _unfinished_text(words: Words, summary: RefreshSummary, indexed: int) -> str:
    separator = words.report.thousands_separator

    def number(value: float) -> str:
        return f"{value:,.0f}".replace(",", separator)

    pending, megabytes = len(summary.pending), summary.pending_bytes / 1e6
    return words.library.index_unfinished.format(
        indexed=number(indexed),
        total=number(indexed + pending),
        pending=number(pending),
        megabytes=number(megabytes) if megabytes >= 1 else "< 1",
    )


def _skipped(reason: str, **fields: object) -> SkippedNote:
    """The note of one skipped file (`name`) or of `count` files (`names`), in both tables'
    wording, the reason and the count as each language writes them."""
    return SkippedNote(
        _skipped_text(ENGLISH, reason, **fields), _skipped_text(PORTUGUESE, reason, **fields)
    )


def _skipped_text(words: Words, reason: str, **fields: object) -> str:
    why = escaped(_reason_in(words, reason))
    count = fields.pop("count", None)
    if count is None:
        return words.library.skipped_file.format(reason=why, **fields)
    shown = f"{count:,}".replace(",", words.report.thousands_separator)
    return words.library.skipped_files.format(reason=why, count=shown, **fields)


def _reason_in(words: Words, reason: str) -> str:
    """`reason` (in English, as the library gives it) in the language of `words`."""
    library = words.library
    if reason in library.skip_reasons:
        return library.skip_reasons[reason]
    for prefix, translated in library.skip_reason_prefixes.items():
        if reason.startswith(prefix):
            return translated + reason.removeprefix(prefix)
    return reason


def make_snippet(passage: str, limit: int = SNIPPET_CHARS) -> str:
    """The start of `passage` on one line, cut at a word boundary near `limit` characters."""
    flat = collapse_whitespace(passage)
    if len(flat) <= limit:
        return flat
    cut = flat.rfind(" ", 0, limit)
    return flat[: cut if cut > limit // 2 else limit].rstrip() + "…"


def canonical_file_url(url: str) -> str:
    """`file://` URLs written another way (unescaped, relative segments) in our spelling."""
    parsed = urlparse(url)
    if parsed.scheme != "file" or not parsed.path:
        return url
    return Path(unquote(parsed.path)).resolve().as_uri()


def _manifest_titles(folder: Path, manifest: Manifest) -> dict[str, str]:
    """The manifest's title of each file it names, by path relative to `folder`."""
    titles: dict[str, str] = {}
    for path, entry in manifest.entries_by_path().items():
        if entry.title.strip() and path.is_relative_to(folder):
            titles[path.relative_to(folder).as_posix()] = entry.title
    return titles


def _title_tokens(files: CatalogColumns) -> list[str]:
    """The title tokens the catalog keeps (tokenized here for a file without them)."""
    return [
        kept if kept or not title else " ".join(title_tokens(title))
        for kept, title in zip(files.title_tokens, files.title, strict=True)
    ]


def _ignore(message: str) -> None:
    return None
