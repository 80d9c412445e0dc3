"""Which seer reads a document back as a reader sees it: one per kind of document.

A dispatcher is itself a `Seer`. It takes its seers as a mapping, kind -> seer, so the
seer of a kind plugs in where the dispatcher is built (`default_seers`). Text formats
(Markdown, plain text) are what they show: what a reader sees is the text itself, so they
are seen without a seer. A kind that has no seer fails closed: the claim is rejected,
"not checked as a reader sees it", never published unchecked.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from engine.documents.parse import KIND_BY_SUFFIX, DocumentKind
from engine.verify.seen.protocol import Seer, Sight

SHOWN_AS_TEXT = frozenset({DocumentKind.text, DocumentKind.markdown})
"""Kinds whose reader sees the text itself: no rendering can show another."""

_MISSING_SEER = {DocumentKind.html: "no browser"}


def document_kind(document: Path) -> DocumentKind | None:
    """The kind of a document by its name, else by its first bytes; None when unknown."""
    kind = KIND_BY_SUFFIX.get(document.suffix.lower())
    if kind is not None:
        return kind
    try:
        with document.open("rb") as handle:
            head = handle.read(512)
    except OSError:
        return None
    if head.startswith(b"%PDF-"):
        return DocumentKind.pdf
    if b"<html" in head.lower() or b"<!doctype html" in head.lower():
        return DocumentKind.html
    return None


def not_checked(why: str, method: str = "") -> Sight:
    return Sight(seen=False, reason=f"not checked as a reader sees it: {why}", method=method)


class SeenDispatcher:
    """A `Seer` that hands each document to the seer of its kind."""

    def __init__(self, seers: Mapping[DocumentKind, Seer]) -> None:
        self._seers = dict(seers)

    def seer_for(self, kind: DocumentKind) -> Seer | None:
        return self._seers.get(kind)

    async def sight(self, document: Path, page: int | None, excerpt: str) -> Sight:
        kind = document_kind(document)
        if kind is None:
            return not_checked(f"unknown kind of document {document.name}")
        if kind in SHOWN_AS_TEXT:
            return Sight(seen=True, reason="", method="text")
        seer = self._seers.get(kind)
        if seer is None:
            return not_checked(_MISSING_SEER.get(kind, f"no renderer for {kind.value}"))
        return await seer.sight(document, page, excerpt)
