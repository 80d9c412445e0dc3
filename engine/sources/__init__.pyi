from engine.sources.kinds import Origin, SourceKind
from engine.sources.protocols import Fetcher, FetchError, Search, SearchError, SearchHit

__all__ = ["FetchError", "Fetcher", "Origin", "Search", "SearchError", "SearchHit", "SourceKind"]
