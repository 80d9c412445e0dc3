from engine.verify.digest import digest_problem, published_digest, sealed
from engine.verify.draft import CheckedDraft, check_draft, check_sections
from engine.verify.excerpts import Verdict, verify_excerpt, verify_on_page
from engine.verify.recheck import recheck_report
from engine.verify.refetch import LiveRead, refetch_claims
from engine.verify.result import CheckResult, ClaimCheck, Outcome
from engine.verify.service import ClaimVerifier, Seeing
from engine.verify.support import sentence_pairs, unsupported_sentences

__all__ = [
    "CheckResult",
    "CheckedDraft",
    "ClaimCheck",
    "ClaimVerifier",
    "LiveRead",
    "Outcome",
    "Seeing",
    "Verdict",
    "check_draft",
    "check_sections",
    "digest_problem",
    "published_digest",
    "recheck_report",
    "refetch_claims",
    "sealed",
    "sentence_pairs",
    "unsupported_sentences",
    "verify_excerpt",
    "verify_on_page",
]
