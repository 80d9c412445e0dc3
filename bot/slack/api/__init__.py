"""The bot's I/O boundary with Slack: the few Web API calls it makes, behind a protocol
(`protocol`), the client with its retries (`retry`) and the real one over slack_sdk's
AsyncWebClient (`web`, `SlackWebApi`). Transient answers are retried by the client's retry
handlers: 429 after its Retry-After (docs.slack.dev/apis/web-api/rate-limits),
5xx after its Retry-After when given, else with backoff, and connection errors. Permanent
errors (`ok: false` with `missing_scope`, `not_in_channel`, `msg_blocks_too_long`, ...) come
back on HTTP 200 and are never retried: they raise SlackApiError, which `SlackFailure` reads.
"""

from bot.slack.api.protocol import DELIVERY_ERRORS, OpenedView, SlackApi, SlackFailure, Upload
from bot.slack.api.retry import (
    DEFAULT_API_URL,
    MAX_RETRY_AFTER_SECONDS,
    RATE_LIMIT_RETRIES,
    SERVER_ERROR_RETRIES,
    ServerErrorRetryHandler,
    build_web_client,
    retry_after,
)
from bot.slack.api.web_api import SlackWebApi

__all__ = [
    "DEFAULT_API_URL",
    "DELIVERY_ERRORS",
    "MAX_RETRY_AFTER_SECONDS",
    "RATE_LIMIT_RETRIES",
    "SERVER_ERROR_RETRIES",
    "OpenedView",
    "ServerErrorRetryHandler",
    "SlackApi",
    "SlackFailure",
    "SlackWebApi",
    "Upload",
    "build_web_client",
    "retry_after",
]
