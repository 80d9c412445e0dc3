from engine.verify.seen.agreement import disagreement
from engine.verify.seen.browser import FolderResources, Resources
from engine.verify.seen.browser_seer import BrowserSeer
from engine.verify.seen.build import (
    SHARED_BROWSER,
    SHARED_LOG,
    OnFirstSight,
    default_seers,
    seen_check,
)
from engine.verify.seen.check import NOT_SEEN, RENDERED, SeenCheck, SeenLog, kind_of_page
from engine.verify.seen.dispatch import SHOWN_AS_TEXT, SeenDispatcher, document_kind, not_checked
from engine.verify.seen.office import OfficeSeer
from engine.verify.seen.pdf_seer import SHARED_CACHE, PdfSeer, SightCache
from engine.verify.seen.protocol import Seer, Sight

__all__ = [
    "NOT_SEEN",
    "RENDERED",
    "SHARED_BROWSER",
    "SHARED_CACHE",
    "SHARED_LOG",
    "SHOWN_AS_TEXT",
    "BrowserSeer",
    "FolderResources",
    "OfficeSeer",
    "OnFirstSight",
    "PdfSeer",
    "Resources",
    "SeenCheck",
    "SeenDispatcher",
    "SeenLog",
    "Seer",
    "Sight",
    "SightCache",
    "default_seers",
    "disagreement",
    "document_kind",
    "kind_of_page",
    "not_checked",
    "seen_check",
]
