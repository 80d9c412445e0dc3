"""Which model and which source the bot researches with, chosen by configuration.

Built in: `FONTE_SOURCE=library` (with `FONTE_LIBRARY`) or `web` (the search chain and the
guarded fetcher, configured as for `fonte ask --web`); `FONTE_MODEL=offline`, `claude` (the
models of docs/claude.md) or a Claude model id. Any other value is `module:function`, a
factory taking the Settings.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import cast

from bot.config import Settings
from engine import BadInput, Model, OfflineModel
from engine.assembly import Sources, library_sources, open_web_sources
from engine.models.claude import ClaudeConfig, claude_model_from_config
from engine.sources import SearchError
from engine.sources.library import Library, LibraryError

SourceFactory = Callable[[Settings], Sources]
"""Opens the sources once per process; the runtime closes them (`Sources.aclose`) at exit."""
ModelFactory = Callable[[Settings], Model]


def open_library(settings: Settings) -> Sources:
    """Open (and index, on first use) the library folder: seconds, so callers run it in a
    thread and keep the result for the life of the process."""
    if settings.library is None:
        raise BadInput("FONTE_LIBRARY is not set: point it at a folder of documents")
    try:
        library = Library.open(settings.library, cache_dir=settings.cache_dir)
    except LibraryError as error:
        raise BadInput(f"FONTE_LIBRARY: {error}") from None
    return library_sources(library, [])


def open_web(settings: Settings) -> Sources:
    """The configured search chain and a guarded fetcher whose reads are kept on disk, as
    `fonte ask --web` builds them."""
    try:
        return open_web_sources(settings.cache_dir, os.environ)
    except SearchError as error:
        raise BadInput(str(error)) from None


def offline_model(settings: Settings) -> Model:
    return OfflineModel()


def claude_model(settings: Settings) -> Model:
    env = dict(os.environ)
    chosen: str | None = settings.model
    if chosen == "claude":  # "claude" picks Claude; the default models of docs/claude.md run
        env.pop("FONTE_MODEL", None)
        chosen = None
    return claude_model_from_config(ClaudeConfig.from_env(env, model=chosen))


def _imported(spec: str, variable: str) -> object:
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise BadInput(f"{variable}={spec!r}: use a built-in name or module:function")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise BadInput(f"{variable}={spec!r} cannot be loaded: {error}") from None


def source_factory(spec: str) -> SourceFactory:
    if spec == "library":
        return open_library
    if spec == "web":
        return open_web
    return cast(SourceFactory, _imported(spec, "FONTE_SOURCE"))


def model_factory(spec: str) -> ModelFactory:
    if spec == "offline":
        return offline_model
    if spec.startswith("claude"):
        return claude_model
    return cast(ModelFactory, _imported(spec, "FONTE_MODEL"))
