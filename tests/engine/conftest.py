"""Fixtures for the engine tests: `source`, an in-memory library of a law and a filing
(tests/support/pages_source.py holds the source and its pages)."""

from __future__ import annotations

import pytest

from tests.support.pages_source import (
    FILING_PAGES,
    LAW_TEXT,
    PagesSource,
)


@pytest.fixture
def source() -> PagesSource:
    pages = PagesSource()
    pages.add("https://example.org/lei-14300", LAW_TEXT, title="Lei 14.300")
    pages.add("https://example.org/acme-2018.pdf", "", title="ACME 2018 10K", pages=FILING_PAGES)
    return pages
