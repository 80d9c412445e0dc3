"""The library source: a local folder of documents, searchable (BM25) and fetchable offline."""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
