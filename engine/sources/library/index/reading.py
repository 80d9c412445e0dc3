"""Reading one library file for the index: its text (for PDFs and HTML from the parsed-text
cache, else parsed and cached), then its passages and their term counts.

Runs in pool workers, so its input and output are plain picklable values; term ids are
local to the file (`FileOutcome.tokens` indexes into `FileOutcome.vocabulary`) and the
indexing process maps them onto the library's vocabulary.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.sources.library.cache import ParsedTextCache
from engine.sources.library.index.segment import DocumentTokens
from engine.sources.library.parse import DocumentKind, ParsedFile, parse_file_or_reason
from engine.sources.library.passages import split_passages
from engine.sources.library.running_lines import running_lines, without_running_lines
from engine.text.tokens import tokenize

_MAX_COUNT = np.iinfo(np.uint16).max

CACHED_KINDS = frozenset({DocumentKind.pdf, DocumentKind.html})
"""Kinds whose parsed text is cached: parsing them costs far more than reading the cache.
Markdown and text files are their own text: caching them would only add a write (and an
fsync) per file, which at 10,000 files costs more than the whole tokenizing."""


@dataclass(frozen=True)
class FileTask:
    path: str
    relative: str
    kind: DocumentKind
    sha256: str
    manifest_title: str
    cache_dir: str
    """The parsed-text cache (when it cannot be written, the texts come back instead)."""


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


def read_for_index(task: FileTask) -> FileOutcome:
    cache_error = ""
    cache = ParsedTextCache(Path(task.cache_dir))
    cached = cache.get(task.sha256, task.kind) if task.kind in CACHED_KINDS else None
    parsed = cached if cached is not None else parse_file_or_reason(task.path)
    if cached is None and task.kind in CACHED_KINDS:
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
    kept = parsed.texts if cache_error else None
    return FileOutcome(
        task,
        own_title=parsed.title,
        title=title,
        page_count=len(parsed.texts) if parsed.is_paged else None,
        tokens=tokens,
        vocabulary=vocabulary,
        texts=kept,
        cache_error=cache_error,
    )


def tokenize_document(parsed: ParsedFile, title: str) -> tuple[DocumentTokens, tuple[str, ...]]:
    """Every passage with words, indexed with the title's tokens in front (titles rank too)
    and without the document's running headers and footers (`running_lines`)."""
    title_tokens = tokenize(title)
    running = running_lines(parsed.texts) if parsed.is_paged else frozenset[str]()
    spans: list[tuple[int, int, int]] = []
    lengths: list[int] = []
    postings_per_passage: list[int] = []
    keys: list[str] = []  # per posting: its token
    counts: list[int] = []  # per posting: the token's count in the passage
    for page, text in enumerate(parsed.texts):
        for span in split_passages(text):
            tokens = tokenize(without_running_lines(text[span.start : span.end], running))
            if not tokens:
                continue
            spans.append((page, span.start, span.end))
            lengths.append(len(title_tokens) + len(tokens))
            counted = Counter(title_tokens)
            counted.update(tokens)
            postings_per_passage.append(len(counted))
            keys.extend(counted)
            counts.extend(counted.values())
    # Local term ids in order of first use; the loops over postings run in C (map, repeat).
    vocabulary = tuple(dict.fromkeys(keys))
    ids = {token: number for number, token in enumerate(vocabulary)}
    document = DocumentTokens(
        spans=np.array(spans, dtype=np.int32).reshape(-1, 3),
        lengths=np.array(lengths, dtype=np.int32),
        passages=np.repeat(np.arange(len(spans), dtype=np.int32), postings_per_passage),
        terms=np.fromiter(map(ids.__getitem__, keys), dtype=np.int64, count=len(keys)),
        counts=np.minimum(np.array(counts, dtype=np.int64), _MAX_COUNT).astype(np.uint16),
    )
    return document, vocabulary
