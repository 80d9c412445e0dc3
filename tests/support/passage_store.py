"""A small library's passages in an in-memory tantivy store, for the index's tests."""

from __future__ import annotations

from dataclasses import dataclass

from engine.documents.parse import DocumentKind, ParsedFile
from engine.sources.library.index.backend import PassageTokens
from engine.sources.library.index.catalog import CatalogColumns, CatalogEntry
from engine.sources.library.index.passage_index import PassageIndex
from engine.sources.library.index.reading import tokenize_document
from engine.sources.library.index.refresh import new_key
from engine.sources.library.index.tantivy_store import TantivyStore


@dataclass
class StoredLibrary:
    store: TantivyStore
    entries: list[CatalogEntry]
    passages: list[list[PassageTokens]]
    """Each document's passages, in document order."""

    def index(self, documents: list[int] | None = None) -> PassageIndex:
        """The index of these documents (all by default) over what the store holds."""
        chosen = range(len(self.entries)) if documents is None else documents
        return PassageIndex(
            self.store.reader(), CatalogColumns.of([self.entries[n] for n in chosen])
        )


def stored_library(
    documents: list[tuple[str, ...]], titles: list[str] | None = None
) -> StoredLibrary:
    """Each document (its page texts) cut into passages and stored under a fresh key."""
    store = TantivyStore(None)
    entries: list[CatalogEntry] = []
    passages: list[list[PassageTokens]] = []
    with store.writing() as writer:
        for number, texts in enumerate(documents):
            title = titles[number] if titles else ""
            tokens = list(tokenize_document(ParsedFile(DocumentKind.pdf, texts), title))
            key = new_key()
            writer.add(key, tokens)
            length = sum(len(p.tokens.split(" ")) for p in tokens)
            relative = f"d{number:04d}.pdf"
            entries.append(
                CatalogEntry(
                    relative,
                    DocumentKind.pdf,
                    1,
                    1,
                    "0" * 64,
                    "",
                    "",
                    title,
                    len(texts),
                    key,
                    len(tokens),
                    length,
                )
            )
            passages.append(tokens)
        writer.commit()
    return StoredLibrary(store, entries, passages)
