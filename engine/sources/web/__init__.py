"""The web source: a guarded fetcher (httpx), robots.txt, politeness and a snapshot cache.

Search providers live in `engine.sources.web.search`.
"""

from engine.sources.web.address_policy import Allowlist
from engine.sources.web.config import USER_AGENT, FetchConfig
from engine.sources.web.fetcher import WebFetcher
from engine.sources.web.snapshot_cache import (
    CachingFetcher,
    DiskSnapshotStore,
    default_snapshot_dir,
)

__all__ = [
    "USER_AGENT",
    "Allowlist",
    "CachingFetcher",
    "DiskSnapshotStore",
    "FetchConfig",
    "WebFetcher",
    "default_snapshot_dir",
]
