"""Why a Claude step produced nothing usable. Each message is one line, fit for a report note.

The orchestrator catches these per subagent (the subagent stops, its claims stay) and around
plan and write (it falls back to a single-question plan or a verbatim report).
"""

from __future__ import annotations

from engine.errors import ModelError


class ClaudeFailure(ModelError):
    """A model step that ended without a usable answer."""


class ClaudeRefused(ClaudeFailure):
    """Claude declined to answer (stop_reason "refusal")."""


class ClaudeTruncated(ClaudeFailure):
    """The answer hit max_tokens (or the context window) before it was complete."""


class ClaudeAPIError(ClaudeFailure):
    """The API refused the request for a reason retrying cannot fix (400, 401, 403 …)."""


class ClaudeAccountStopped(ClaudeAPIError):
    """The account cannot be used for now, so every later call would fail the same way: a
    402 billing_error (credits used up, payment details), a 401 authentication_error (a
    malformed, revoked or expired key), a 403 permission_error, or a spend limit below. None
    is retried; the run stops with a partial report and one line
    (https://platform.claude.com/docs/en/api/errors)."""


class ClaudeSpendLimit(ClaudeAccountStopped):
    """A spend limit: the 429 whose `error.details.error_code` is
    enforced_spend_limit_reached (the usage tier's monthly cap, no retry-after:
    https://platform.claude.com/docs/en/api/rate-limits), or the 400 whose message begins
    "You have reached your specified" (a limit the organisation or workspace set). Retrying
    fails until access resumes (https://platform.claude.com/docs/en/api/errors)."""


class ServerSearchDisabled(ClaudeAPIError):
    """400 because the organisation has not enabled Anthropic's server-side web search
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool)."""


class ClaudeUnavailable(ClaudeFailure):
    """Rate limits, overload or the network outlasted the retries or the time budget."""

    def __init__(self, message: str, *, maybe_billed: bool = False) -> None:
        super().__init__(message)
        self.maybe_billed = maybe_billed
        """True when the request may have been processed (a timeout): its cost is unknown."""


class InvalidAnswer(ClaudeFailure):
    """Claude's JSON did not validate, even after one repair with the validation error."""
