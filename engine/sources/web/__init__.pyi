from engine.sources.web.address_policy import Allowlist
from engine.sources.web.body import ACCEPT_ENCODING, content_decoder, read_capped
from engine.sources.web.config import USER_AGENT, FetchConfig
from engine.sources.web.fetcher import WebFetcher
from engine.sources.web.kept_pdfs import InMemoryPdfStore, PdfStore
from engine.sources.web.page_evidence import WebPageEvidence
from engine.sources.web.snapshot_cache import (
    CachingFetcher,
    DiskSnapshotStore,
    default_snapshot_dir,
)

__all__ = [
    "ACCEPT_ENCODING",
    "USER_AGENT",
    "Allowlist",
    "CachingFetcher",
    "DiskSnapshotStore",
    "FetchConfig",
    "InMemoryPdfStore",
    "PdfStore",
    "WebFetcher",
    "WebPageEvidence",
    "content_decoder",
    "default_snapshot_dir",
    "read_capped",
]
