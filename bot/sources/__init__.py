"""Which model and which sources the bot researches with: the factories chosen by
configuration (`factories`), the libraries mapped to channels (`channels`), and the sources
of one conversation — its channel's library or the team's, the web, the files shared in it
— opened once per process and combined per research (`catalog`)."""

from bot.sources.factories import (
    BUILT_IN,
    ModelFactory,
    SourceFactory,
    SourceUnavailable,
    as_part,
    claude_model,
    is_built_in,
    library_problem,
    model_factory,
    offline_model,
    open_combined,
    open_library,
    open_web,
    source_factory,
    source_parts,
    unavailable_sources,
)

__all__ = [
    "BUILT_IN",
    "ModelFactory",
    "SourceFactory",
    "SourceUnavailable",
    "as_part",
    "claude_model",
    "is_built_in",
    "library_problem",
    "model_factory",
    "offline_model",
    "open_combined",
    "open_library",
    "open_web",
    "source_factory",
    "source_parts",
    "unavailable_sources",
]
