"""The library's search index: segments of postings on disk, refreshed file by file.

`open_index` brings a folder's index up to date (only new, changed and removed files are
read) and opens it; `PassageIndex` scores passages by BM25 across its segments.
"""

from engine.sources.library.index.opening import OpenedIndex, open_index
from engine.sources.library.index.passage_index import PassageIndex, PassageRef
from engine.sources.library.index.refresh import RefreshSummary

__all__ = ["OpenedIndex", "PassageIndex", "PassageRef", "RefreshSummary", "open_index"]
