"""Which model and which source the bot researches with, chosen by configuration.

`FONTE_SOURCE=library` (with `FONTE_LIBRARY`) and `FONTE_MODEL=offline` are built in; any
other value is `module:function`, a factory taking the Settings (web search or Claude come
this way, without the bot knowing them).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from bot.config import ConfigError, Settings
from engine.models.offline import OfflineModel
from engine.models.protocol import Model
from engine.sources.library import Library, LibraryError
from engine.sources.protocols import Fetcher, Search


@dataclass(frozen=True)
class ResearchSources:
    searcher: Search
    fetcher: Fetcher
    labels: tuple[str, ...] = ()


SourceFactory = Callable[[Settings], ResearchSources]
ModelFactory = Callable[[Settings], Model]


def open_library(settings: Settings) -> ResearchSources:
    """Open (and index, on first use) the library folder: seconds, so callers run it in a
    thread and keep the result for the life of the process."""
    if settings.library is None:
        raise ConfigError("FONTE_LIBRARY is not set: point it at a folder of documents")
    try:
        library = Library.open(settings.library, cache_dir=settings.cache_dir)
    except LibraryError as error:
        raise ConfigError(f"FONTE_LIBRARY: {error}") from None
    return ResearchSources(library, library, (f"library:{library.folder}",))


def offline_model(settings: Settings) -> Model:
    return OfflineModel()


def _imported(spec: str, variable: str) -> object:
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ConfigError(f"{variable}={spec!r}: use a built-in name or module:function")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise ConfigError(f"{variable}={spec!r} cannot be loaded: {error}") from None


def source_factory(spec: str) -> SourceFactory:
    if spec == "library":
        return open_library
    return cast(SourceFactory, _imported(spec, "FONTE_SOURCE"))


def model_factory(spec: str) -> ModelFactory:
    if spec == "offline":
        return offline_model
    return cast(ModelFactory, _imported(spec, "FONTE_MODEL"))
