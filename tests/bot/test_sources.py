"""Model and source come from configuration: built-in names or module:function."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.config import ConfigError, Settings
from bot.sources import ResearchSources, model_factory, open_library, source_factory
from engine.models.offline import OfflineModel


def custom_sources(settings: Settings) -> ResearchSources:
    return open_library(settings)


def test_built_in_and_imported_factories(make_settings: Any) -> None:
    settings = make_settings(redis=False)
    sources = source_factory("library")(settings)
    assert sources.labels[0].startswith("library:")
    assert isinstance(model_factory("offline")(settings), OfflineModel)
    imported = source_factory("tests.bot.test_sources:custom_sources")(settings)
    assert imported.labels == sources.labels


def test_bad_specs_and_missing_library_are_config_errors(make_settings: Any, tmp_path: Any) -> None:
    with pytest.raises(ConfigError, match="module:function"):
        source_factory("web")
    with pytest.raises(ConfigError, match="cannot be loaded"):
        model_factory("nowhere.at_all:Model")
    settings: Settings = make_settings(redis=False)
    with pytest.raises(ConfigError, match="FONTE_LIBRARY"):
        open_library(replace(settings, library=tmp_path / "missing"))
