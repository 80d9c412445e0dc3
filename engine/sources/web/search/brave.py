"""Brave Search API, web results (`GET /res/v1/web/search`, key in X-Subscription-Token)."""

from __future__ import annotations

from engine.sources.kinds import WEB
from engine.sources.protocols import SearchHit
from engine.sources.web.search.hits import RawResult, entries_at, ranked_hits
from engine.sources.web.search.json_api import ApiCall, KeyedJsonApi

BRAVE_API_URL = "https://api.search.brave.com"
MAX_COUNT = 20  # the API refuses a larger `count`


class BraveSearch(KeyedJsonApi):
    name = "brave"
    kind = WEB
    default_base_url = BRAVE_API_URL

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        if limit < 1:
            return []
        call = ApiCall(
            "GET",
            f"{self.base_url}/res/v1/web/search",
            params={"q": query, "count": str(min(limit, MAX_COUNT))},
            headers={"Accept": "application/json", "X-Subscription-Token": self._api_key},
        )
        payload = await self._call(call)
        return brave_hits(payload, limit)


def brave_hits(payload: object, limit: int) -> list[SearchHit]:
    """Hits from `web.results[{url, title, description}]`; no `web` means nothing matched."""
    entries = entries_at(payload, "web", "results", optional=True)
    return ranked_hits(
        (RawResult(e.get("url"), e.get("title"), e.get("description")) for e in entries),
        BraveSearch.name,
        limit,
    )
