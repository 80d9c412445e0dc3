"""SearXNG, a self-hosted metasearch engine, through its JSON API (`/search?format=json`).

The instance must allow the json format (`search.formats` in its settings.yml).
"""

from __future__ import annotations

import httpx

from engine.sources.kinds import WEB
from engine.sources.protocols import SearchError, SearchHit
from engine.sources.web.search.hits import RawResult, entries_at, plain_text, ranked_hits
from engine.sources.web.search.json_api import (
    DEFAULT_TIMEOUT,
    ApiCall,
    call_json_api,
    clipped_reason,
)


class SearxngSearch:
    name = "searxng"
    kind = WEB

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._client = client

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        if limit < 1:
            return []
        call = ApiCall(
            "GET",
            f"{self.base_url}/search",
            params={"q": query, "format": "json", "pageno": "1"},
            headers={"Accept": "application/json"},
        )
        payload = await call_json_api(call, client=self._client, seconds=self.timeout)
        return searxng_hits(payload, limit)


def searxng_hits(payload: object, limit: int) -> list[SearchHit]:
    """Hits from a SearXNG answer: `results[{url, title, content}]`.

    SearXNG answers 200 with no results when every engine behind it failed (blocked, rate
    limited); that is a failure worth falling back from, so it is raised with the engines'
    reasons rather than returned as "nothing found"."""
    entries = entries_at(payload, "results")
    hits = ranked_hits(
        (RawResult(e.get("url"), e.get("title"), e.get("content")) for e in entries),
        SearxngSearch.name,
        limit,
    )
    if not hits and isinstance(payload, dict):
        unresponsive = _unresponsive_engines(payload.get("unresponsive_engines"))
        if unresponsive:
            raise SearchError(clipped_reason(f"no results; engines unresponsive: {unresponsive}"))
    return hits


def _unresponsive_engines(value: object) -> str:
    """SearXNG lists them as [engine, reason] pairs: "google (too many requests), …"."""
    if not isinstance(value, list):
        return ""
    described = []
    for item in value:
        if isinstance(item, list | tuple) and item:
            engine = plain_text(item[0])
            reason = plain_text(item[1]) if len(item) > 1 else ""
            described.append(f"{engine} ({reason})" if reason else engine)
    return ", ".join(described)
