from engine.sources.web.search.brave import BraveSearch
from engine.sources.web.search.chain import FallbackSearch
from engine.sources.web.search.config import (
    PROVIDER_NAMES,
    SearchSettings,
    build_search,
    search_from_env,
    search_settings,
)
from engine.sources.web.search.duckduckgo import DuckDuckGoSearch
from engine.sources.web.search.searxng import SearxngSearch
from engine.sources.web.search.tavily import TavilySearch

__all__ = [
    "PROVIDER_NAMES",
    "BraveSearch",
    "DuckDuckGoSearch",
    "FallbackSearch",
    "SearchSettings",
    "SearxngSearch",
    "TavilySearch",
    "build_search",
    "search_from_env",
    "search_settings",
]
