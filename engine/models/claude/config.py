"""How Fonte talks to Claude: key, models per role, limits per call, prices.

Read from the environment once, at start-up, where a wrong setting fails with a clear message
instead of in the middle of a report. The API key is never printed (`repr` leaves it out).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from engine.models.claude.prices import (
    PriceTable,
    UnknownModel,
    default_price_table,
    parse_price_overrides,
)
from engine.settings import BadInput, env_flag

DEFAULT_MODEL = "claude-sonnet-5-5"
DEFAULT_JUDGE_MODEL = "claude-haiku-5-5"
ANTHROPIC_SEARCH_PROVIDER = "anthropic"


@dataclass(frozen=True)
class ClaudeConfig:
    api_key: str = field(repr=False)
    model: str = DEFAULT_MODEL
    """Plans, checks the criteria and writes: the orchestrator's model."""
    subagent_model: str = DEFAULT_MODEL
    judge_model: str = DEFAULT_JUDGE_MODEL
    judge: bool = True
    """Run the support judge; off, `judge` returns None and the report says so."""
    base_url: str | None = None
    server_web_search: bool = False
    """Subagents on the web search with Anthropic's server-side web_search tool ("anthropic"
    in FONTE_SEARCH, the same setting as `SearchSettings.anthropic_web_search`)."""
    web_search_max_uses: int = 3
    """Server-side searches allowed per subagent call (each one is priced)."""
    # Output caps per call. Thinking tokens count against them, so they leave room for it;
    # the budget reserves the whole cap and settles what was used.
    planner_max_tokens: int = 8192
    subagent_max_tokens: int = 8192
    writer_max_tokens: int = 16_000
    judge_max_tokens: int = 4096
    writer_prompt_tokens: int = 30_000
    """The writer's prompt size assumed when its call is reserved, before claims exist."""
    judge_batch_size: int = 12
    max_retries: int = 5
    request_timeout_seconds: float = 300.0
    prices: PriceTable = field(default_factory=default_price_table, repr=False)

    def __post_init__(self) -> None:
        if not self.api_key.strip():
            raise BadInput("the Anthropic API key is empty: set ANTHROPIC_API_KEY")
        for variable, model in (
            ("FONTE_MODEL", self.model),
            ("FONTE_SUBAGENT_MODEL", self.subagent_model),
            ("FONTE_JUDGE_MODEL", self.judge_model),
        ):
            try:
                self.prices.price(model)
            except UnknownModel as error:
                raise BadInput(f"{variable}: {error}") from None
        counts = {
            "web_search_max_uses": self.web_search_max_uses,
            "planner_max_tokens": self.planner_max_tokens,
            "subagent_max_tokens": self.subagent_max_tokens,
            "writer_max_tokens": self.writer_max_tokens,
            "judge_max_tokens": self.judge_max_tokens,
            "judge_batch_size": self.judge_batch_size,
        }
        for name, value in counts.items():
            if value < 1:
                raise BadInput(f"{name} must be at least 1, not {value}")
        if self.max_retries < 0 or self.request_timeout_seconds <= 0:
            raise BadInput("max_retries must be ≥ 0 and request_timeout_seconds > 0")

    @classmethod
    def from_env(cls, env: Mapping[str, str], *, model: str | None = None) -> ClaudeConfig:
        """The configuration the environment describes; `model` (a `--model` flag) wins over
        FONTE_MODEL and, unless FONTE_SUBAGENT_MODEL is set, also runs the subagents."""
        api_key = env.get("ANTHROPIC_API_KEY", "").strip()
        if not api_key:
            raise BadInput("ANTHROPIC_API_KEY is not set: Claude needs an API key")
        main_model = model or env.get("FONTE_MODEL") or DEFAULT_MODEL
        return cls(
            api_key=api_key,
            model=main_model,
            subagent_model=env.get("FONTE_SUBAGENT_MODEL") or main_model,
            judge_model=env.get("FONTE_JUDGE_MODEL") or DEFAULT_JUDGE_MODEL,
            judge=env_flag(env, "FONTE_JUDGE", default=True),
            base_url=env.get("ANTHROPIC_BASE_URL") or None,
            server_web_search=_names_anthropic_search(env.get("FONTE_SEARCH", "")),
            prices=_prices(env.get("FONTE_PRICES", "")),
        )


def wants_claude(env: Mapping[str, str], model: str | None = None) -> bool:
    """Whether a run should use Claude: `--model claude-…`, or no `--model` and a key set."""
    if model is not None:
        return model.startswith("claude")
    return bool(env.get("ANTHROPIC_API_KEY", "").strip())


def _names_anthropic_search(providers: str) -> bool:
    return ANTHROPIC_SEARCH_PROVIDER in (p.strip().lower() for p in providers.split(","))


def _prices(setting: str) -> PriceTable:
    """FONTE_PRICES: inline JSON, or the path of a JSON file."""
    setting = setting.strip()
    table = default_price_table()
    if not setting:
        return table
    if setting.startswith("{"):
        text = setting
    else:
        try:
            text = Path(setting).expanduser().read_text(encoding="utf-8")
        except OSError as error:
            raise BadInput(f"FONTE_PRICES: cannot read {setting}: {error}") from None
    try:
        return table.with_overrides(parse_price_overrides(text))
    except ValueError as error:
        raise BadInput(str(error)) from None
