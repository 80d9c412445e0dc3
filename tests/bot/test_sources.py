"""Model and source come from configuration: built-in names or module:function."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.config import Settings
from bot.sources import (
    is_built_in,
    model_factory,
    open_combined,
    open_library_sources,
    source_factory,
    source_parts,
)
from engine.assembly import Sources
from engine.models.claude import ClaudeModel
from engine.models.extractive import ExtractiveModel
from engine.settings import BadInput
from engine.sources.web import CachingFetcher
from engine.sources.web.search import FallbackSearch


def custom_sources(settings: Settings) -> Sources:
    return open_library_sources(settings)


def test_built_in_and_imported_factories(make_settings: Any) -> None:
    settings = make_settings(redis=False)
    sources = source_factory("library")(settings)
    assert sources.labels[0].startswith("library:")
    assert isinstance(model_factory("offline")(settings), ExtractiveModel)
    imported = source_factory("tests.bot.test_sources:custom_sources")(settings)
    assert imported.labels == sources.labels


def test_bad_specs_and_missing_library_are_config_errors(make_settings: Any, tmp_path: Any) -> None:
    with pytest.raises(BadInput, match="module:function"):
        source_factory("gopher")
    with pytest.raises(BadInput, match="cannot be loaded"):
        model_factory("nowhere.at_all:Model")
    settings: Settings = make_settings(redis=False)
    with pytest.raises(BadInput, match="FONTE_LIBRARY"):
        open_library_sources(replace(settings, library=tmp_path / "missing"))


async def test_web_source_is_the_configured_chain_and_a_caching_fetcher(
    make_settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FONTE_SEARCH", "searxng,ddgs")
    monkeypatch.setenv("SEARXNG_URL", "http://127.0.0.2:9")
    sources = source_factory("web")(make_settings(redis=False))
    assert isinstance(sources.searcher, FallbackSearch)
    assert isinstance(sources.fetcher, CachingFetcher)
    assert sources.labels == ("web:searxng,ddgs",)
    live = sources.fetcher.fetcher  # type: ignore[attr-defined]
    await sources.aclose()
    assert live._client.is_closed  # closing the sources closes the fetcher they opened
    monkeypatch.setenv("FONTE_SEARCH", "brave")
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    with pytest.raises(BadInput, match="BRAVE_API_KEY"):
        source_factory("web")(make_settings(redis=False))


async def test_claude_is_chosen_by_name_and_needs_its_key(
    make_settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = replace(make_settings(redis=False), model="claude")
    monkeypatch.setenv("FONTE_MODEL", "claude")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(BadInput, match="ANTHROPIC_API_KEY"):
        model_factory("claude")(settings)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    model = model_factory("claude")(settings)
    assert isinstance(model, ClaudeModel)
    await model.aclose()


def test_the_source_names_one_or_several_built_in_sources() -> None:
    assert source_parts("library") == ("library",)
    assert source_parts("library+web") == ("library", "web")
    assert source_parts("web, library") == ("web", "library")
    assert source_parts("tests.bot.test_sources:custom_sources") is None
    with pytest.raises(BadInput, match="names a source twice"):
        source_parts("web+web")
    with pytest.raises(BadInput, match="'gopher' is no source"):
        source_parts("library+gopher")
    assert source_factory("library,web") is open_combined
    assert is_built_in(source_factory("web"))
    assert not is_built_in(custom_sources)


async def test_library_and_web_open_as_one_source(
    make_settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FONTE_SEARCH", "searxng")
    monkeypatch.setenv("SEARXNG_URL", "http://127.0.0.2:9")  # nothing answers: the web fails
    settings = replace(make_settings(redis=False), source="library+web")
    sources = source_factory(settings.source)(settings)
    assert [label.split(":")[0] for label in sources.labels] == ["library", "web"]
    hits = await sources.searcher.search("microgeração potência instalada", 5)
    assert hits  # the library answers while the web cannot
    assert any("searxng" in note for note in sources.notes)
    assert sources.origin_of is not None
    assert sources.origin_of(hits[0].url) == "library"
    assert sources.origin_of("https://news.example/solar") == "web"
    assert len(sources.closers) == 1  # the web fetcher's: the library holds no connection
    await sources.aclose()
    assert sources.closers == []
