"""The library's search index: passages in a search engine (tantivy), refreshed file by file.

`open_index` brings a folder's index up to date (only new, changed and removed files are
read) and opens it; `PassageIndex` scores the passages the store finds by BM25. What a
store must do is `backend`; `tantivy_store` is the one on this machine.
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
