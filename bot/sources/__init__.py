"""Which model and which sources the bot researches with: the factories chosen by
configuration (`factories`), the libraries mapped to channels (`channels`), and the sources
of one conversation — its channel's library or the team's, the web, the files shared in it
— opened once per process and combined per research (`catalog`)."""

from bot.sources.factories import (
    BUILT_IN_SOURCES,
    ModelFactory,
    SourceFactory,
    SourceUnavailable,
    as_part,
    claude_model,
    configured_library_problem,
    is_built_in,
    model_factory,
    offline_model,
    open_combined,
    open_library_sources,
    open_web,
    source_factory,
    source_parts,
    unavailable_sources,
)

__all__ = [
    "BUILT_IN_SOURCES",
    "ModelFactory",
    "SourceFactory",
    "SourceUnavailable",
    "as_part",
    "claude_model",
    "configured_library_problem",
    "is_built_in",
    "model_factory",
    "offline_model",
    "open_combined",
    "open_library_sources",
    "open_web",
    "source_factory",
    "source_parts",
    "unavailable_sources",
]
