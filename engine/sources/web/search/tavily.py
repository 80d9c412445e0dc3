"""Tavily search API (`POST /search`, key as an Authorization Bearer token)."""

from __future__ import annotations

import httpx

from engine.sources.protocols import SearchHit
from engine.sources.web.search.hits import RawResult, entries_at, ranked_hits
from engine.sources.web.search.json_api import DEFAULT_TIMEOUT, ApiCall, call_json_api

TAVILY_API_URL = "https://api.tavily.com"
MAX_RESULTS = 20  # the API's ceiling for `max_results`


class TavilySearch:
    name = "tavily"

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = TAVILY_API_URL,
        timeout: float = DEFAULT_TIMEOUT,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self._api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._client = client

    def __repr__(self) -> str:
        return f"TavilySearch(base_url={self.base_url!r})"  # never the key

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        if limit < 1:
            return []
        call = ApiCall(
            "POST",
            f"{self.base_url}/search",
            headers={"Accept": "application/json", "Authorization": f"Bearer {self._api_key}"},
            json_body={
                "query": query,
                "max_results": min(limit, MAX_RESULTS),
                "search_depth": "basic",
                "include_answer": False,
            },
        )
        payload = await call_json_api(call, client=self._client, seconds=self.timeout)
        return tavily_hits(payload, limit)


def tavily_hits(payload: object, limit: int) -> list[SearchHit]:
    """Hits from `results[{url, title, content}]`, in Tavily's order (best first)."""
    entries = entries_at(payload, "results")
    return ranked_hits(
        (RawResult(e.get("url"), e.get("title"), e.get("content")) for e in entries),
        TavilySearch.name,
        limit,
    )
