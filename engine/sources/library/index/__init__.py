"""The library's search index: segments of postings on disk, refreshed file by file.

`open_index` brings a folder's index up to date (only new, changed and removed files are
read) and opens it; `PassageIndex` scores passages by BM25 across its segments.
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
