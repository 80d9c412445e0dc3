"""Which model and which source the bot researches with, chosen by configuration.

Built in: `FONTE_SOURCE=library` (with `FONTE_LIBRARY`), `web` (the search chain and the
guarded fetcher, configured as for `fonte ask --web`), or both together, `library+web` (also
written `library,web`); `FONTE_MODEL=offline`, `claude` (the models of docs/claude.md) or a
Claude model id. Any other value is `module:function`, a factory taking the Settings.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import cast

from bot.config import Settings
from engine import BadInput, ExtractiveModel, Model, Snapshot
from engine.assembly import (
    SourcePart,
    Sources,
    combined_sources,
    library_owns,
    library_problem,
    library_sources,
    open_web_sources,
    source_part,
)
from engine.models.claude import ClaudeConfig, claude_model_from_config
from engine.sources import FetchError, Origin, SearchError, SearchHit, SourceKind
from engine.sources.library import (
    Library,
    LibraryError,
    default_store_url,
    stored_library_problem,
)

SourceFactory = Callable[[Settings], Sources]
"""Opens the sources once per process; the runtime closes them (`Sources.aclose`) at exit."""
ModelFactory = Callable[[Settings], Model]


class SourceUnavailable(BadInput):
    """The source is not there yet (FONTE_LIBRARY missing or empty): the bot runs anyway
    and answers each research request with the line that says what to set."""


def open_library_sources(settings: Settings) -> Sources:
    """Open (and index, on first use) the library folder: seconds, so callers run it in a
    thread and keep the result for the life of the process. Raises `SourceUnavailable`
    when the folder is missing or holds no readable document."""
    if settings.library is None:
        raise SourceUnavailable("FONTE_LIBRARY is not set: point it at a folder of documents")
    try:
        library = Library.open(settings.library, cache_dir=settings.cache_dir)
    except LibraryError as error:
        raise SourceUnavailable(f"FONTE_LIBRARY: {error}") from None
    return library_sources(library, [])


class _Unavailable:
    """Search and fetcher of a source that is not there: each call fails with why. Its kind
    is the kind that is missing (a library: the only source that can be missing)."""

    name = "unavailable"

    def __init__(self, problem: str) -> None:
        self.problem = problem
        self.kind = SourceKind.of(Origin.library)

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        raise SearchError(self.problem)

    async def fetch(self, url: str) -> Snapshot:
        raise FetchError(self.problem)


def unavailable_sources(problem: str) -> Sources:
    """What a process researches with while its source is unavailable: nothing, `problem`
    noted (requests are answered with the line to set before any research starts)."""
    nothing = _Unavailable(problem)
    return Sources(nothing, nothing, (), [problem])


BUILT_IN_SOURCES = (Origin.library, Origin.web)
"""The parts FONTE_SOURCE may name, by their `Origin`'s value."""


def source_parts(spec: str) -> tuple[Origin, ...] | None:
    """The built-in sources `spec` names, in its order (`library+web`, `web,library`,
    `library`); None for a `module:function` factory. Raises BadInput for an unknown name
    or one named twice."""
    if ":" in spec:
        return None
    names = tuple(name.strip() for name in spec.replace(",", "+").split("+"))
    unknown = [name for name in names if name not in BUILT_IN_SOURCES]
    if unknown or not names:
        shown = unknown[0] if unknown else spec
        raise BadInput(
            f"FONTE_SOURCE={spec!r}: {shown!r} is no source; use library, web, library+web "
            "or module:function"
        )
    if len(set(names)) != len(names):
        raise BadInput(f"FONTE_SOURCE={spec!r} names a source twice")
    return tuple(Origin(name) for name in names)


def configured_library_problem(settings: Settings) -> str | None:
    """Why the configured library cannot be researched (one line), or None: a quick look,
    no indexing — the folder exists and holds a file of a supported type. None for a
    source without the library."""
    if Origin.library not in (_parts_or_none(settings.source) or ()):
        return None
    folder = settings.library
    if folder is None:
        return "FONTE_LIBRARY is not set: point it at a folder of documents"
    store = default_store_url()
    if store is not None and not folder.exists():  # a worker without the folder: the store
        problem = stored_library_problem(store, folder)
    else:
        problem = library_problem(folder)
    return None if problem is None else f"FONTE_LIBRARY={problem}"


def open_web(settings: Settings) -> Sources:
    """The configured search chain and a guarded fetcher whose reads are kept on disk, as
    `fonte ask --web` builds them."""
    try:
        return open_web_sources(settings.cache_dir, os.environ)
    except SearchError as error:
        raise BadInput(str(error)) from None


def open_combined(settings: Settings) -> Sources:
    """The team library and the web together, in FONTE_SOURCE's order (`library+web`):
    one search merging both fairly, each URL read by the source it belongs to."""
    opened = [
        open_library_sources(settings) if part is Origin.library else open_web(settings)
        for part in source_parts(settings.source) or ()
    ]
    combined = combined_sources([as_part(sources) for sources in opened])
    combined.closers = [close for sources in opened for close in sources.closers]
    return combined


def as_part(sources: Sources) -> SourcePart:
    """`sources` as a part of a combination, its origin what they say they read: a library
    (or a conversation's files) owns its documents' URLs; any other is an open part,
    reading what no other part holds (the web, a factory's own sources)."""
    kind = sources.kind
    if isinstance(sources.searcher, Library):
        return source_part(sources, kind.sole or Origin.library, library_owns(sources.searcher))
    # A factory's own combination is one open part: the web's, when it reads the web.
    origin = kind.sole or (Origin.web if kind.reads_web else kind.ordered()[0])
    return source_part(sources, origin)


def _parts_or_none(spec: str) -> tuple[Origin, ...] | None:
    try:
        return source_parts(spec)
    except BadInput:
        return None


def offline_model(settings: Settings) -> Model:
    return ExtractiveModel()


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
    parts = source_parts(spec)
    if parts is None:
        return cast(SourceFactory, _imported(spec, "FONTE_SOURCE"))
    if parts == (Origin.library,):
        return open_library_sources
    if parts == (Origin.web,):
        return open_web
    return open_combined


def is_built_in(factory: SourceFactory) -> bool:
    """Whether `factory` is one of the built-in sources (which the runtime opens per
    conversation, see bot.sources.catalog) rather than an imported or injected one."""
    return factory in (open_library_sources, open_web, open_combined)


def model_factory(spec: str) -> ModelFactory:
    if spec == "offline":
        return offline_model
    if spec.startswith("claude"):
        return claude_model
    return cast(ModelFactory, _imported(spec, "FONTE_MODEL"))
