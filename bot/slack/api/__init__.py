"""The bot's I/O boundary with Slack: the few Web API calls it makes, behind a protocol
(`protocol`), the client with its retries (`retry`) and the real one over slack_sdk's
AsyncWebClient (`web`, `SlackWebApi`), paced by Slack's rate limits before each call
(`tiers`: one window per method per workspace, in memory or in Redis). Transient answers
are retried by the client's retry handlers: 429 (and chat.postMessage's `rate_limited`)
after its Retry-After (docs.slack.dev/apis/web-api/rate-limits), 5xx after its Retry-After
when given, else with backoff, and connection errors. Permanent
errors (`ok: false` with `missing_scope`, `not_in_channel`, `msg_blocks_too_long`, ...) come
back on HTTP 200 and are never retried: they raise SlackApiError, which `SlackFailure` reads.
"""

from bot.slack.api.protocol import (
    CAUSES,
    DELIVERY_ERRORS,
    Cause,
    OpenedView,
    SlackApi,
    SlackFailure,
    Upload,
)
from bot.slack.api.retry import (
    DEFAULT_API_URL,
    MAX_RETRY_AFTER_SECONDS,
    RATE_LIMIT_RETRIES,
    SERVER_ERROR_RETRIES,
    PacedWebClient,
    RateLimitRetryHandler,
    ServerErrorRetryHandler,
    build_web_client,
    retry_after,
)
from bot.slack.api.tiers import (
    PACES,
    Coalesced,
    MemoryRateWindows,
    Pace,
    Pacer,
    RateWindows,
    progress_call,
)
from bot.slack.api.web_api import SlackWebApi

__all__ = [
    "CAUSES",
    "DEFAULT_API_URL",
    "DELIVERY_ERRORS",
    "MAX_RETRY_AFTER_SECONDS",
    "PACES",
    "RATE_LIMIT_RETRIES",
    "SERVER_ERROR_RETRIES",
    "Cause",
    "Coalesced",
    "MemoryRateWindows",
    "OpenedView",
    "Pace",
    "PacedWebClient",
    "Pacer",
    "RateLimitRetryHandler",
    "RateWindows",
    "ServerErrorRetryHandler",
    "SlackApi",
    "SlackFailure",
    "SlackWebApi",
    "Upload",
    "build_web_client",
    "progress_call",
    "retry_after",
]
