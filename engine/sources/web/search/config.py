"""Which search providers to use, in which order, read from the environment.

FONTE_SEARCH     comma list of providers in the order to try them: searxng, brave, tavily,
                 ddgs (alias duckduckgo), anthropic. Default: searxng if SEARXNG_URL is set,
                 brave if BRAVE_API_KEY is, tavily if TAVILY_API_KEY is, then ddgs (keyless).
SEARXNG_URL      base URL of a SearXNG instance with the json format enabled
BRAVE_API_KEY    Brave Search API subscription token
TAVILY_API_KEY   Tavily API key

"anthropic" is Claude's server-side web search: the Claude model runs it itself, so it maps to
no Search object here; it only sets `SearchSettings.anthropic_web_search` for the model.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.settings import BadInput
from engine.sources.protocols import Search
from engine.sources.web.search.brave import BraveSearch
from engine.sources.web.search.chain import FallbackSearch, NoteSink
from engine.sources.web.search.duckduckgo import DuckDuckGoSearch
from engine.sources.web.search.json_api import DEFAULT_TIMEOUT
from engine.sources.web.search.searxng import SearxngSearch
from engine.sources.web.search.tavily import TavilySearch

ANTHROPIC = "anthropic"
PROVIDER_NAMES = ("searxng", "brave", "tavily", "ddgs", ANTHROPIC)
_ALIASES = {"duckduckgo": "ddgs"}
REQUIRED_VARIABLE = {"searxng": "SEARXNG_URL", "brave": "BRAVE_API_KEY", "tavily": "TAVILY_API_KEY"}


@dataclass(frozen=True)
class SearchSettings:
    providers: tuple[str, ...]  # the Search providers to try, in order (never "anthropic")
    anthropic_web_search: bool = False  # the Claude model should use its server-side search
    searxng_url: str = ""
    brave_api_key: str = field(default="", repr=False)
    tavily_api_key: str = field(default="", repr=False)


def search_settings(env: Mapping[str, str]) -> SearchSettings:
    """Parse and check the search variables of `env` (pure: reads nothing else)."""
    values = {name: env.get(name, "").strip() for name in REQUIRED_VARIABLE.values()}
    requested = env.get("FONTE_SEARCH", "").strip()
    order = _parse_order(requested) if requested else _default_order(values)
    for provider in order:
        variable = REQUIRED_VARIABLE.get(provider)
        if variable is not None and not values[variable]:
            raise BadInput(f"FONTE_SEARCH names {provider} but {variable} is not set")
    searxng_url = values["SEARXNG_URL"]
    if "searxng" in order and not searxng_url.startswith(("http://", "https://")):
        raise BadInput(f"SEARXNG_URL must be an http(s) URL, got {searxng_url!r}")
    return SearchSettings(
        providers=tuple(p for p in order if p != ANTHROPIC),
        anthropic_web_search=ANTHROPIC in order,
        searxng_url=searxng_url,
        brave_api_key=values["BRAVE_API_KEY"],
        tavily_api_key=values["TAVILY_API_KEY"],
    )


def _parse_order(requested: str) -> tuple[str, ...]:
    order: list[str] = []
    for raw in requested.split(","):
        name = raw.strip().lower()
        name = _ALIASES.get(name, name)
        if not name:
            continue
        if name not in PROVIDER_NAMES:
            known = ", ".join(PROVIDER_NAMES)
            raise BadInput(f"FONTE_SEARCH: unknown provider {raw.strip()!r}; use {known}")
        if name not in order:
            order.append(name)
    if not order:
        raise BadInput("FONTE_SEARCH is set but names no provider")
    return tuple(order)


def _default_order(values: Mapping[str, str]) -> tuple[str, ...]:
    keyed = tuple(p for p, variable in REQUIRED_VARIABLE.items() if values[variable])
    return (*keyed, "ddgs")


def build_search(
    settings: SearchSettings, *, on_note: NoteSink | None = None, timeout: float = DEFAULT_TIMEOUT
) -> FallbackSearch:
    providers: list[Search] = []
    for name in settings.providers:
        if name == "searxng":
            providers.append(SearxngSearch(settings.searxng_url, timeout=timeout))
        elif name == "brave":
            providers.append(BraveSearch(settings.brave_api_key, timeout=timeout))
        elif name == "tavily":
            providers.append(TavilySearch(settings.tavily_api_key, timeout=timeout))
        elif name == "ddgs":
            providers.append(DuckDuckGoSearch(timeout=timeout))
    return FallbackSearch(providers, on_note=on_note)


def search_from_env(
    env: Mapping[str, str] | None = None,
    *,
    on_note: NoteSink | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> FallbackSearch:
    """The configured providers as one Search that falls back in order (see module doc).
    Raises BadInput, in one line, when a named provider lacks its variable."""
    settings = search_settings(os.environ if env is None else env)
    return build_search(settings, on_note=on_note, timeout=timeout)
