"""The dispatcher hands a document to the seer of its kind; text formats need none, and a
kind without a seer (HTML until a browser plugs in) is not seen."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.documents.parse import DocumentKind
from engine.verify.seen import SeenDispatcher, Sight, document_kind


class Answer:
    def __init__(self, method: str) -> None:
        self.method = method

    async def sight(self, document: Path, page: int | None, excerpt: str) -> Sight:
        return Sight(True, "", self.method)


def test_each_kind_goes_to_its_seer_and_text_needs_none(tmp_path: Path) -> None:
    dispatcher = SeenDispatcher(
        {DocumentKind.pdf: Answer("pdf-ocr"), DocumentKind.docx: Answer("office")}
    )
    for name, method, seen in [
        ("a.pdf", "pdf-ocr", True),
        ("a.docx", "office", True),
        ("a.md", "text", True),
        ("a.txt", "text", True),
        ("a.html", "", False),
        ("a.bin", "", False),
    ]:
        path = tmp_path / name
        path.write_bytes(b"x")
        sight = asyncio.run(dispatcher.sight(path, None, "excerpt"))
        assert (sight.method, sight.seen) == (method, seen), name
        assert seen or sight.reason.startswith("not checked as a reader sees it")
    html = asyncio.run(dispatcher.sight(tmp_path / "a.html", None, "excerpt"))
    assert html.reason == "not checked as a reader sees it: no browser"


def test_a_kind_is_told_by_name_then_by_first_bytes(tmp_path: Path) -> None:
    unnamed = tmp_path / "kept"
    unnamed.write_bytes(b"%PDF-1.7\n...")
    assert document_kind(unnamed) is DocumentKind.pdf
    unnamed.write_bytes(b"<!DOCTYPE html><html>")
    assert document_kind(unnamed) is DocumentKind.html
    assert document_kind(tmp_path / "missing") is None


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
