"""Brave Search API, web results (`GET /res/v1/web/search`, key in X-Subscription-Token)."""

from __future__ import annotations

import httpx

from engine.sources.protocols import SearchHit
from engine.sources.web.search.hits import RawResult, entries_at, ranked_hits
from engine.sources.web.search.json_api import DEFAULT_TIMEOUT, ApiCall, call_json_api

BRAVE_API_URL = "https://api.search.brave.com"
MAX_COUNT = 20  # the API refuses a larger `count`


class BraveSearch:
    name = "brave"

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = BRAVE_API_URL,
        timeout: float = DEFAULT_TIMEOUT,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self._api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._client = client

    def __repr__(self) -> str:
        return f"BraveSearch(base_url={self.base_url!r})"  # never the key

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        if limit < 1:
            return []
        call = ApiCall(
            "GET",
            f"{self.base_url}/res/v1/web/search",
            params={"q": query, "count": str(min(limit, MAX_COUNT))},
            headers={"Accept": "application/json", "X-Subscription-Token": self._api_key},
        )
        payload = await call_json_api(call, client=self._client, seconds=self.timeout)
        return brave_hits(payload, limit)


def brave_hits(payload: object, limit: int) -> list[SearchHit]:
    """Hits from `web.results[{url, title, description}]`; no `web` means nothing matched."""
    entries = entries_at(payload, "web", "results", optional=True)
    return ranked_hits(
        (RawResult(e.get("url"), e.get("title"), e.get("description")) for e in entries),
        BraveSearch.name,
        limit,
    )
