"""Where text comes from: search and read protocols and their implementations, and the kind
of source each one is (`SourceKind`, its parts `Origin`s: engine/sources/kinds.py)."""

from engine.sources.kinds import Origin, SourceKind
from engine.sources.protocols import Fetcher, FetchError, Search, SearchError, SearchHit

__all__ = ["FetchError", "Fetcher", "Origin", "Search", "SearchError", "SearchHit", "SourceKind"]
