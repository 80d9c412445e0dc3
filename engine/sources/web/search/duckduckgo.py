"""Keyless web search through the `ddgs` package (DuckDuckGo and the other engines it
aggregates). ddgs is synchronous, so each search runs in a worker thread under a timeout."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from engine.sources.kinds import WEB
from engine.sources.protocols import SearchError, SearchHit
from engine.sources.web.search.hits import RawResult, ranked_hits
from engine.sources.web.search.json_api import DEFAULT_TIMEOUT, clipped_reason


class TextSearcher(Protocol):
    """What we use of `ddgs.DDGS`; tests pass a fake with this method."""

    def text(
        self, query: str, *, max_results: int | None, backend: str, region: str
    ) -> list[dict[str, Any]]: ...


TextSearcherFactory = Callable[[float], TextSearcher]


def _ddgs_searcher(timeout: float) -> TextSearcher:
    try:
        from ddgs import DDGS
    except ImportError:
        raise SearchError("the ddgs package is not installed (pip install ddgs)") from None
    return DDGS(timeout=math.ceil(timeout))


class DuckDuckGoSearch:
    name = "ddgs"
    kind = WEB

    def __init__(
        self,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        backend: str = "auto",
        region: str = "us-en",
        searcher_factory: TextSearcherFactory = _ddgs_searcher,
    ) -> None:
        self.timeout = timeout
        self.backend = backend
        self.region = region
        self._searcher_factory = searcher_factory

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        if limit < 1:
            return []
        searcher = self._searcher_factory(self.timeout)

        def run() -> object:
            return searcher.text(query, max_results=limit, backend=self.backend, region=self.region)

        # On timeout the thread cannot be stopped; ddgs's own timeout (the same seconds)
        # ends it soon after.
        try:
            async with asyncio.timeout(self.timeout):
                results = await asyncio.to_thread(run)
        except TimeoutError:
            raise SearchError(f"timed out after {self.timeout:g} s") from None
        except Exception as error:
            if ddgs_found_nothing(error):
                return []
            raise SearchError(ddgs_failure_reason(error)) from None
        return ddgs_hits(results, limit)


def ddgs_hits(results: object, limit: int) -> list[SearchHit]:
    """Hits from ddgs text results `[{title, href, body}]`."""
    if not isinstance(results, list):
        raise SearchError("malformed response: ddgs did not return a list")
    return ranked_hits(
        (
            RawResult(r.get("href"), r.get("title"), r.get("body"))
            for r in results
            if isinstance(r, Mapping)
        ),
        DuckDuckGoSearch.name,
        limit,
    )


def ddgs_found_nothing(error: Exception) -> bool:
    """ddgs raises, rather than returning [], when every engine answered with no results;
    it uses this exact message only when no engine failed."""
    from ddgs.exceptions import DDGSException

    return type(error) is DDGSException and str(error) == "No results found."


def ddgs_failure_reason(error: Exception) -> str:
    """One line for an exception raised inside ddgs."""
    from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

    message = str(error) or type(error).__name__
    if isinstance(error, RatelimitException):
        return clipped_reason(f"rate limited: {message}")
    if isinstance(error, TimeoutException):
        return clipped_reason(f"timed out: {message}")
    if isinstance(error, DDGSException | SearchError):
        return clipped_reason(message)
    return clipped_reason(f"{type(error).__name__}: {message}")
