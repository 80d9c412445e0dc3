"""Builders of the library index's segments and passages for the index tests."""

from __future__ import annotations

import numpy as np

from engine.documents.parse import DocumentKind, ParsedFile
from engine.sources.library.index.reading import tokenize_document
from engine.sources.library.index.segment import DocumentTokens
from engine.sources.library.index.vocabulary import Vocabulary


def tokens_of(vocabulary: Vocabulary, texts: tuple[str, ...], title: str = "") -> DocumentTokens:
    """`texts` (one per page) cut into passages and tokenized, terms as `vocabulary` ids."""
    parsed = ParsedFile(DocumentKind.pdf, texts)
    tokens, local = tokenize_document(parsed, title)
    ids = np.array([vocabulary.id_of(token) for token in local], dtype=np.int64)
    return tokens._replace(terms=ids[tokens.terms])
