"""Reading one library file for the index: its text (for PDFs and HTML from the parsed-text
cache, else parsed and cached), then its passages and their tokens.

Runs in pool workers, so its input and output are plain picklable values: each passage's
place and its tokens as one space-joined string (`backend.PassageTokens`), what any store
indexes.

Memory is bounded by the file's size whatever it holds: a word longer than
`MAX_TOKEN_CHARS` (a base64 blob, a hash run together) is not indexed, nor are its parts;
and a file that still does not fit (`MemoryError`) is skipped with its reason while the
rest of the library is indexed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.documents.parse import OFFICE_KINDS, DocumentKind, ParsedFile, parse_file_or_reason
from engine.sources.library.cache import ParsedTextCache
from engine.sources.library.index.backend import PassageTokens
from engine.sources.library.passages import split_passages
from engine.sources.library.running_lines import running_lines, without_running_lines
from engine.text.tokens import index_words, tokens_of_words

MAX_TOKEN_CHARS = 64
"""Longer words are not indexed: no query names them, and each would cost its length in the
vocabulary of every library it is in."""
TOO_LARGE = "too large to index (out of memory)"

CACHED_KINDS = frozenset({DocumentKind.pdf, DocumentKind.html}) | OFFICE_KINDS
"""Kinds whose parsed text is cached (PDF, HTML, Office files): parsing them costs far more
than reading the cache.
Markdown and text files are their own text: caching them would only add a write (and an
fsync) per file, which at 10,000 files costs more than the whole tokenizing."""


def worth_caching(kind: DocumentKind, parsed: ParsedFile | str) -> bool:
    """PDF and HTML, and Markdown or text files so large they are read as pages: reading
    those takes seconds (5 s for 100 MB), their cached pages a fraction of one, and a search
    hit reads them again."""
    return kind in CACHED_KINDS or (isinstance(parsed, ParsedFile) and parsed.is_paged)


@dataclass(frozen=True)
class FileTask:
    path: str
    relative: str
    kind: DocumentKind
    sha256: str
    manifest_title: str
    cache_dir: str
    """The parsed-text cache (when it cannot be written, the texts come back instead)."""
    size: int = 0
    """The file's size in bytes: a large one is read in a worker process of its own."""


@dataclass(frozen=True)
class FileOutcome:
    task: FileTask
    reason: str = ""
    """Why the file is unreadable; "" when it was read."""
    cacheable: bool = True
    """False when the reason is this run's (a crashed worker), not the file's."""
    own_title: str = ""
    title: str = ""
    page_count: int | None = None
    passages: tuple[PassageTokens, ...] = ()
    """Its passages with words, in page and position order."""
    texts: tuple[str, ...] | None = None
    """The texts, when they could not be cached (the caller keeps them in memory)."""
    cache_error: str = ""
    ocr_pages: int = 0
    """How many of its pages OCR read (they are what makes a scanned PDF slow)."""


def read_for_index(task: FileTask) -> FileOutcome:
    """The file read and tokenized, or the reason it could not be (never raises for one
    file's content: a file too large for memory is skipped, `TOO_LARGE`)."""
    try:
        return _read_for_index(task)
    except MemoryError:  # what the failed attempt held is freed once the frame is gone
        return FileOutcome(task, reason=TOO_LARGE)


def _read_for_index(task: FileTask) -> FileOutcome:
    cache_error = ""
    cache = ParsedTextCache(Path(task.cache_dir))
    cached = cache.get(task.sha256, task.kind) if task.kind in CACHED_KINDS else None
    parsed = cached if cached is not None else parse_file_or_reason(task.path)
    if cached is None and worth_caching(task.kind, parsed):
        try:
            cache.put(task.sha256, task.kind, parsed)
        except OSError as error:
            cache_error = str(error)
    if isinstance(parsed, str):
        return FileOutcome(task, reason=parsed, cache_error=cache_error)
    title = task.manifest_title or parsed.title or Path(task.path).stem
    passages = tokenize_document(parsed, title)
    if not passages:
        return FileOutcome(task, reason="no words in file", cache_error=cache_error)
    # Markdown and text can be read from their file again: never held in memory instead.
    kept = parsed.texts if cache_error and task.kind in CACHED_KINDS else None
    return FileOutcome(
        task,
        own_title=parsed.title,
        title=title,
        page_count=len(parsed.texts) if parsed.is_paged else None,
        passages=passages,
        texts=kept,
        cache_error=cache_error,
        ocr_pages=len(parsed.ocr_pages),
    )


def tokenize_document(parsed: ParsedFile, title: str) -> tuple[PassageTokens, ...]:
    """Every passage with words, its tokens with the title's in front (titles rank too)
    and without the document's running headers and footers (`running_lines`)."""
    title_tokens = " ".join(indexed_tokens(title))
    running = running_lines(parsed.texts) if parsed.is_paged else frozenset[str]()
    passages: list[PassageTokens] = []
    for page, text in enumerate(parsed.texts):
        for span in split_passages(text):
            tokens = indexed_tokens(without_running_lines(text[span.start : span.end], running))
            if not tokens:
                continue
            joined = " ".join(tokens)
            if title_tokens:
                joined = f"{title_tokens} {joined}"
            passages.append(PassageTokens(page, span.start, span.end, joined))
    return tuple(passages)


def indexed_tokens(text: str) -> list[str]:
    """`tokenize`, without the words longer than `MAX_TOKEN_CHARS` (as the tokenizer splits
    them), which are dropped before their tokens are made: none of their parts is indexed,
    and the tokenizer, which keeps the tokens of every word it sees, never sees them. No
    token of a shorter word is longer than it."""
    words = index_words(text)
    if max(map(len, words), default=0) > MAX_TOKEN_CHARS:
        words = [word for word in words if len(word) <= MAX_TOKEN_CHARS]
    return tokens_of_words(words)
