"""The web source: a guarded fetcher (httpx), robots.txt, politeness, a snapshot cache that
also keeps the PDFs fetched, and the page evidence (boxes, crops) drawn from them.

Search providers live in `engine.sources.web.search`. `read_capped` with `content_decoder`
reads any compressed HTTP body under a cap as it inflates (a Slack download too).
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
