"""Reading one library file for the index: its text (for PDFs and HTML from the parsed-text
cache, else parsed and cached), then its passages and their term counts.

Runs in pool workers, so its input and output are plain picklable values; term ids are
local to the file (`FileOutcome.tokens` indexes into `FileOutcome.vocabulary`) and the
indexing process maps them onto the library's vocabulary.

Memory is bounded by the file's size whatever it holds: a word longer than
`MAX_TOKEN_CHARS` (a base64 blob, a hash run together) is not indexed, nor are its parts;
postings are kept in typed arrays, not lists of strings; and a file that still does not fit
(`MemoryError`) is skipped with its reason while the rest of the library is indexed.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.documents.parse import OFFICE_KINDS, DocumentKind, ParsedFile, parse_file_or_reason
from engine.sources.library.cache import ParsedTextCache
from engine.sources.library.index.segment import DocumentTokens
from engine.sources.library.passages import split_passages
from engine.sources.library.running_lines import running_lines, without_running_lines
from engine.text.tokens import tokenize

_MAX_COUNT = np.iinfo(np.uint16).max
MAX_TOKEN_CHARS = 64
"""Longer words are not indexed: no query names them, and each would cost its length in the
vocabulary of every library it is in."""
_OVERLONG_WORD = re.compile(rf"[^\W_]{{{MAX_TOKEN_CHARS + 1},}}")
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
    tokens: DocumentTokens | None = None
    vocabulary: tuple[str, ...] = ()
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
    tokens, vocabulary = tokenize_document(parsed, title)
    if not len(tokens.lengths):
        return FileOutcome(task, reason="no words in file", cache_error=cache_error)
    # Markdown and text can be read from their file again: never held in memory instead.
    kept = parsed.texts if cache_error and task.kind in CACHED_KINDS else None
    return FileOutcome(
        task,
        own_title=parsed.title,
        title=title,
        page_count=len(parsed.texts) if parsed.is_paged else None,
        tokens=tokens,
        vocabulary=vocabulary,
        texts=kept,
        cache_error=cache_error,
        ocr_pages=len(parsed.ocr_pages),
    )


def tokenize_document(parsed: ParsedFile, title: str) -> tuple[DocumentTokens, tuple[str, ...]]:
    """Every passage with words, indexed with the title's tokens in front (titles rank too)
    and without the document's running headers and footers (`running_lines`)."""
    title_tokens = indexed_tokens(title)
    running = running_lines(parsed.texts) if parsed.is_paged else frozenset[str]()
    spans: list[tuple[int, int, int]] = []
    lengths: list[int] = []
    postings_per_passage: list[int] = []
    ids: dict[str, int] = {}  # local term ids, in order of first use
    terms = array("q")  # per posting: its term id
    counts = array("H")  # per posting: the term's count in the passage (capped)
    keys: list[str] = []  # per posting of the passages not yet numbered: its token
    numbers: list[int] = []
    for page, text in enumerate(parsed.texts):
        for span in split_passages(text):
            tokens = indexed_tokens(without_running_lines(text[span.start : span.end], running))
            if not tokens:
                continue
            spans.append((page, span.start, span.end))
            lengths.append(len(title_tokens) + len(tokens))
            counted = Counter(title_tokens)
            counted.update(tokens)
            postings_per_passage.append(len(counted))
            keys.extend(counted)
            numbers.extend(counted.values())
            if len(keys) >= _KEYS_PER_BATCH:
                _number(keys, numbers, ids, terms, counts)
    _number(keys, numbers, ids, terms, counts)
    document = DocumentTokens(
        spans=np.array(spans, dtype=np.int32).reshape(-1, 3),
        lengths=np.array(lengths, dtype=np.int32),
        passages=np.repeat(np.arange(len(spans), dtype=np.int32), postings_per_passage),
        terms=np.frombuffer(terms, dtype=np.int64) if terms else np.zeros(0, np.int64),
        counts=np.frombuffer(counts, dtype=np.uint16) if counts else np.zeros(0, np.uint16),
    )
    return document, tuple(ids)


_KEYS_PER_BATCH = 65_536


def _number(
    keys: list[str], numbers: list[int], ids: dict[str, int], terms: array[int], counts: array[int]
) -> None:
    """Move a batch of postings (`keys`, `numbers`) into the typed arrays, numbering new
    terms in order of first use; the loops over postings run in C (map, extend)."""
    for key in dict.fromkeys(keys):
        if key not in ids:
            ids[key] = len(ids)
    terms.extend(map(ids.__getitem__, keys))
    counts.frombytes(
        np.minimum(np.array(numbers, dtype=np.int64), _MAX_COUNT).astype(np.uint16).tobytes()
    )
    keys.clear()
    numbers.clear()


def indexed_tokens(text: str) -> list[str]:
    """`tokenize`, without words longer than `MAX_TOKEN_CHARS` or their parts: those are
    blanked before tokenizing (the tokenizer caches every word it sees)."""
    if max(map(len, text.split()), default=0) > MAX_TOKEN_CHARS:
        text = _OVERLONG_WORD.sub(" ", text)
        return [token for token in tokenize(text) if len(token) <= MAX_TOKEN_CHARS]
    return tokenize(text)
