"""Fallback credit as https://platform.claude.com/docs/en/build-with-claude/fallback-credit
describes it, for the scripted server.

- A request sent with the beta header (`fallback-credit-2026-07-01`; the earlier
  `fallback-credit-2026-06-01` and `server-side-fallback-2026-07-01` grant the same fields)
  that is refused carries `stop_details.fallback_credit_token` (opaque) and
  `fallback_has_prefill_claim` (false here: the refusal came before any output, so the retry
  re-sends the body unchanged). Without the header the fields are not there.
- The retry echoes the token in `fallback_credit_token`: a bare string, or
  `{"token", "mode"}` (the object form needs the 2026-07-01 header). It must be the same
  request body, the model aside; a token this server never minted is a 400 in both modes
  (a malformed token). A body that differs is a 400 in `strict` (the default) and, in
  `best_effort`, is served at the normal price with `usage.fallback_credit.status`
  `not_applied` / `body_mismatch` (the SDK's `BetaFallbackCreditNotApplied`).
- Redeemed, the retry's cache-creation tokens for the prefix that was warm on the refused
  model are billed at the cache-read rate (the API reference of `fallback_credit_token`);
  `usage.fallback_credit.status` says `redeemed`. Prompt caches are per model, so the
  retry's usage still counts that prefix as cache creation.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from typing import Any

from tests.support.anthropic_replies import ApiError

Body = dict[str, Any]

BETAS = frozenset(
    {"fallback-credit-2026-07-01", "fallback-credit-2026-06-01", "server-side-fallback-2026-07-01"}
)
OBJECT_FORM_BETA = "fallback-credit-2026-07-01"
_serial = itertools.count(1)


def _betas(headers: dict[str, str]) -> set[str]:
    return {beta.strip() for beta in headers.get("anthropic-beta", "").split(",") if beta.strip()}


def _shape(body: Body) -> Body:
    """What must match between the refused request and its retry."""
    return {k: v for k, v in body.items() if k not in ("model", "fallback_credit_token")}


@dataclass(frozen=True)
class Redemption:
    """What a retry carrying a token gets: an error, or the usage note to add."""

    error: ApiError | None = None
    status: Body | None = None


class FallbackCredits:
    def __init__(self) -> None:
        self._minted: dict[str, tuple[Body, str]] = {}
        """Each token minted: the refused request's body (model aside) and its model."""
        self._lock = threading.Lock()
        self.unavailable = False
        """Redemption is `temporarily_unavailable` (one of the documented not-applied
        reasons): a strict retry is a 400, a best-effort one is served at the normal price."""

    def on_refusal(self, body: Body, headers: dict[str, str], reply: Body) -> Body:
        """The refusal's reply, with a credit token when the request opted in."""
        if reply.get("stop_reason") != "refusal" or not (_betas(headers) & BETAS):
            return reply
        token = f"fct_{next(_serial):06d}"
        with self._lock:
            self._minted[token] = (_shape(body), str(body.get("model")))
        details = {"type": "refusal", "category": None, "explanation": None}
        details |= dict(reply.get("stop_details") or {})
        details |= {"fallback_credit_token": token, "fallback_has_prefill_claim": False}
        return {**reply, "stop_details": details}

    def redeem(self, body: Body, headers: dict[str, str]) -> Redemption | None:
        """None for a request without a token; else the error or the usage note."""
        given = body.get("fallback_credit_token")
        if given is None:
            return None
        mode = "strict"
        if isinstance(given, dict):
            if OBJECT_FORM_BETA not in _betas(headers):
                return Redemption(
                    ApiError(
                        400,
                        "invalid_request_error",
                        "fallback_credit_token: the object form needs fallback-credit-2026-07-01",
                    )
                )
            mode = str(given.get("mode", "strict"))
            given = given.get("token")
        with self._lock:
            minted = self._minted.get(str(given))
        if minted is None:
            return Redemption(
                ApiError(400, "invalid_request_error", "malformed fallback_credit_token")
            )
        reason = None
        refused_body, refused_model = minted
        if refused_body != _shape(body):
            reason = "body_mismatch"
        elif refused_model == body.get("model"):
            reason = "invalid_target_model"
        elif self.unavailable:
            reason = "temporarily_unavailable"
        if reason is not None:
            if mode != "best_effort":
                return Redemption(
                    ApiError(400, "invalid_request_error", f"fallback_credit_token: {reason}")
                )
            return Redemption(status={"type": "not_applied", "reason": reason})
        return Redemption(status={"type": "redeemed"})
