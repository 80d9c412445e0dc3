from __future__ import annotations

import pytest

from engine.settings import BadInput
from engine.sources.protocols import SearchError
from engine.sources.web.search import (
    BraveSearch,
    DuckDuckGoSearch,
    SearchSettings,
    SearxngSearch,
    TavilySearch,
    search_from_env,
    search_settings,
)

ALL_KEYS = {"SEARXNG_URL": "http://127.0.0.1:8888", "BRAVE_API_KEY": "bk", "TAVILY_API_KEY": "tk"}


@pytest.mark.parametrize(
    ("env", "order"),
    [
        ({}, ("ddgs",)),
        ({"BRAVE_API_KEY": "bk"}, ("brave", "ddgs")),
        (
            {"TAVILY_API_KEY": "tk", "SEARXNG_URL": "http://127.0.0.1:8888"},
            ("searxng", "tavily", "ddgs"),
        ),
        (ALL_KEYS, ("searxng", "brave", "tavily", "ddgs")),
        ({"BRAVE_API_KEY": "  ", "FONTE_SEARCH": " "}, ("ddgs",)),
    ],
)
def test_default_order_follows_the_variables_set(
    env: dict[str, str], order: tuple[str, ...]
) -> None:
    assert search_settings(env).providers == order


def test_fonte_search_sets_the_order_with_aliases_and_repeats_dropped() -> None:
    env = {**ALL_KEYS, "FONTE_SEARCH": " Tavily, duckduckgo ,searxng,ddgs,"}
    assert search_settings(env).providers == ("tavily", "ddgs", "searxng")


def test_anthropic_is_a_flag_for_the_model_not_a_provider() -> None:
    settings = search_settings({"FONTE_SEARCH": "anthropic,ddgs"})
    assert settings.providers == ("ddgs",)
    assert settings.anthropic_web_search
    assert not search_settings({}).anthropic_web_search


async def test_anthropic_alone_gives_a_chain_without_providers() -> None:
    search = search_from_env({"FONTE_SEARCH": "anthropic"})
    assert search.providers == ()
    with pytest.raises(SearchError, match="no search provider configured"):
        await search.search("solar")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"FONTE_SEARCH": "brave,ddgs"}, "FONTE_SEARCH names brave but BRAVE_API_KEY is not set"),
        ({"FONTE_SEARCH": "tavily"}, "FONTE_SEARCH names tavily but TAVILY_API_KEY is not set"),
        ({"FONTE_SEARCH": "searxng"}, "FONTE_SEARCH names searxng but SEARXNG_URL is not set"),
        (
            {"FONTE_SEARCH": "bing"},
            "FONTE_SEARCH: unknown provider 'bing'; use searxng, brave, tavily, ddgs, anthropic",
        ),
        ({"FONTE_SEARCH": ",,"}, "FONTE_SEARCH is set but names no provider"),
        (
            {"SEARXNG_URL": "localhost:8888"},
            "SEARXNG_URL must be an http(s) URL, got 'localhost:8888'",
        ),
    ],
)
def test_configuration_errors_are_one_line_and_name_the_variable(
    env: dict[str, str], message: str
) -> None:
    with pytest.raises(BadInput) as failure:
        search_settings(env)
    assert str(failure.value) == message


def test_settings_never_show_keys() -> None:
    shown = repr(search_settings(ALL_KEYS))
    assert "bk" not in shown.replace("brave", "")
    assert "'tk'" not in shown


def test_search_from_env_builds_the_providers_in_order() -> None:
    notes: list[str] = []
    search = search_from_env(
        {**ALL_KEYS, "SEARXNG_URL": "http://127.0.0.1:8888/"}, on_note=notes.append, timeout=4
    )
    kinds = [type(p) for p in search.providers]
    assert kinds == [SearxngSearch, BraveSearch, TavilySearch, DuckDuckGoSearch]
    searxng = search.providers[0]
    assert isinstance(searxng, SearxngSearch)
    assert searxng.base_url == "http://127.0.0.1:8888"
    assert searxng.timeout == 4
    assert search.name == "searxng,brave,tavily,ddgs"


def test_settings_are_a_plain_value() -> None:
    assert search_settings({}) == SearchSettings(providers=("ddgs",))
