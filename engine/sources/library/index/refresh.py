"""Building the passage index of a set of documents, or loading it from the cache.

The cache key covers every (relative path, file sha256, title) and the tokenizer, parser
and passage-splitting versions, so any change to the folder or to those rules rebuilds.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from engine.sources.library.documents import DocumentText, LibraryError
from engine.sources.library.parse import PARSER_VERSION
from engine.sources.library.passage_index import BM25_PARAMETERS, PassageIndex, PassageRef
from engine.sources.library.passages import MAX_PASSAGE_CHARS, MIN_PASSAGE_CHARS, split_passages
from engine.text.tokens import TOKENIZER_VERSION, tokenize

INDEX_FORMAT_VERSION = 2
_ABANDONED_STAGING_SECONDS = 3600


def index_key(documents: list[DocumentText], folder: Path) -> str:
    """Names the index of exactly these documents under these rules."""
    versions = [
        INDEX_FORMAT_VERSION,
        TOKENIZER_VERSION,
        PARSER_VERSION,
        MIN_PASSAGE_CHARS,
        MAX_PASSAGE_CHARS,
        sorted(BM25_PARAMETERS.items()),
    ]
    files = [
        [doc.document.path.relative_to(folder).as_posix(), doc.document.sha256, doc.document.title]
        for doc in documents
    ]
    payload = json.dumps({"versions": versions, "files": files}, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def build_passage_index(
    documents: list[DocumentText], on_progress: Callable[[str], None]
) -> PassageIndex:
    """Every passage, indexed with its document's title tokens in front (titles rank too)."""
    refs: list[PassageRef] = []
    corpus_tokens: list[list[str]] = []
    for number, (document, texts) in enumerate(documents):
        title_tokens = tokenize(document.title)
        for page, text in enumerate(texts):
            for span in split_passages(text):
                tokens = tokenize(text[span.start : span.end])
                if tokens:
                    refs.append(PassageRef(number, page, span.start, span.end))
                    corpus_tokens.append(title_tokens + tokens)
        on_progress(f"indexing {number + 1}/{len(documents)} documents")
    if not refs:
        raise LibraryError("no searchable text in the library (no words in any document)")
    return PassageIndex.build(refs, corpus_tokens)


def open_passage_index(
    cache_root: Path,
    folder: Path,
    documents: list[DocumentText],
    *,
    on_progress: Callable[[str], None],
    on_cache_error: Callable[[OSError], None],
) -> tuple[PassageIndex, bool]:
    """The cached index of these documents if it is sound, else a new one (then cached).

    Indexes live in `cache_root/<folder key>/<index key>`; saving one removes the older
    indexes of the same folder. Returns the index and whether it came from the cache.
    """
    folder_dir = cache_root / hashlib.sha256(str(folder).encode()).hexdigest()[:16]
    directory = folder_dir / index_key(documents, folder)
    cached = PassageIndex.load(directory)
    if cached is not None and _refs_fit(cached, documents):
        on_progress(f"index loaded from cache ({len(cached)} passages)")
        return cached, True
    index = build_passage_index(documents, on_progress)
    try:
        index.save(directory)
    except OSError as error:
        on_cache_error(error)
    else:
        _remove_stale_indexes(folder_dir, keep=directory)
    return index, False


def _remove_stale_indexes(folder_dir: Path, keep: Path) -> None:
    """Older indexes of the folder, and staging folders a killed run left (after an hour)."""
    abandoned_before = time.time() - _ABANDONED_STAGING_SECONDS
    for entry in folder_dir.iterdir():
        if entry == keep:
            continue
        try:
            modified = entry.stat().st_mtime
        except OSError:
            continue
        # A hidden entry is another run's staging folder: only an old one is abandoned.
        if entry.name.startswith(".") and modified > abandoned_before:
            continue
        shutil.rmtree(entry, ignore_errors=True)


def _refs_fit(index: PassageIndex, documents: list[DocumentText]) -> bool:
    for document, page, start, end in index.refs():
        if not 0 <= document < len(documents):
            return False
        texts = documents[document].texts
        if not (0 <= page < len(texts) and 0 <= start < end <= len(texts[page])):
            return False
    return True
