"""What the CLI tests share: a small law and a question it answers, and a loopback web that
`fonte ask --web` searches and reads."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack

import pytest

from evals.offline_web import OfflineWeb
from evals.web_pages import Page
from tests.support.cli_pages import ServeWeb


@pytest.fixture
def serve_web(monkeypatch: pytest.MonkeyPatch) -> Iterator[ServeWeb]:
    """Serves pages on loopback (search and pages, as SearXNG and the web) and points the
    CLI's search and fetcher at them for the test."""
    with ExitStack() as stack:

        def serve(pages: Sequence[Page]) -> OfflineWeb:
            server = stack.enter_context(OfflineWeb(list(pages)))
            monkeypatch.setenv("FONTE_SEARCH", "searxng")
            monkeypatch.setenv("SEARXNG_URL", server.base_url)
            monkeypatch.setenv("FONTE_FETCH_ALLOWLIST", "127.0.0.2/32")
            monkeypatch.setenv("FONTE_FETCH_DELAY", "0")
            return server

        yield serve
