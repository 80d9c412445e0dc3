from engine.models.claude.ask import ask_json, complete_text
from engine.models.claude.client import ClaudeClient, ClaudeReply, Payer, usage_of
from engine.models.claude.config import (
    DEFAULT_JUDGE_MODEL,
    DEFAULT_MODEL,
    ClaudeConfig,
)
from engine.models.claude.errors import (
    ClaudeAccountStopped,
    ClaudeAPIError,
    ClaudeFailure,
    ClaudeRefused,
    ClaudeSpendLimit,
    ClaudeTruncated,
    ClaudeUnavailable,
    InvalidAnswer,
    ServerSearchDisabled,
)
from engine.models.claude.model import ClaudeModel, claude_model_from_config
from engine.models.claude.prices import (
    DEFAULT_PRICES,
    PRICES_AS_OF,
    ModelPrice,
    PriceTable,
    TokenRates,
    UnknownModel,
    default_price_table,
)
from engine.models.claude.request import ClaudeRequest
from engine.settings import wants_claude

__all__ = [
    "DEFAULT_JUDGE_MODEL",
    "DEFAULT_MODEL",
    "DEFAULT_PRICES",
    "PRICES_AS_OF",
    "ClaudeAPIError",
    "ClaudeAccountStopped",
    "ClaudeClient",
    "ClaudeConfig",
    "ClaudeFailure",
    "ClaudeModel",
    "ClaudeRefused",
    "ClaudeReply",
    "ClaudeRequest",
    "ClaudeSpendLimit",
    "ClaudeTruncated",
    "ClaudeUnavailable",
    "InvalidAnswer",
    "ModelPrice",
    "Payer",
    "PriceTable",
    "ServerSearchDisabled",
    "TokenRates",
    "UnknownModel",
    "ask_json",
    "claude_model_from_config",
    "complete_text",
    "default_price_table",
    "usage_of",
    "wants_claude",
]
