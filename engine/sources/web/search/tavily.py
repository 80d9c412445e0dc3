"""Tavily search API (`POST /search`, key as an Authorization Bearer token)."""

from __future__ import annotations

from engine.sources.kinds import WEB
from engine.sources.protocols import SearchHit
from engine.sources.web.search.hits import RawResult, entries_at, ranked_hits
from engine.sources.web.search.json_api import ApiCall, KeyedJsonApi

TAVILY_API_URL = "https://api.tavily.com"
MAX_RESULTS = 20  # the API's ceiling for `max_results`


class TavilySearch(KeyedJsonApi):
    name = "tavily"
    kind = WEB
    default_base_url = TAVILY_API_URL

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
        payload = await self._call(call)
        return tavily_hits(payload, limit)


def tavily_hits(payload: object, limit: int) -> list[SearchHit]:
    """Hits from `results[{url, title, content}]`, in Tavily's order (best first)."""
    entries = entries_at(payload, "results")
    return ranked_hits(
        (RawResult(e.get("url"), e.get("title"), e.get("content")) for e in entries),
        TavilySearch.name,
        limit,
    )
