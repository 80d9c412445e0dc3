"""What Claude costs: one price table, USD per million tokens, and the arithmetic on it.

List prices as of 2026-11-30 (Anthropic's pricing page, 5-minute cache writes). Prices change:
override or extend the table with `FONTE_PRICES` (see docs/claude.md). Pure code: no I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.contracts import Usage
from engine.errors import BadInput

PRICES_AS_OF = "2026-11-30"
WEB_SEARCH_USD_PER_1000 = 10.0
_MILLION = 1_000_000


class UnknownModel(BadInput):
    """A model the price table does not know: its cost could not be capped."""


@dataclass(frozen=True)
class TokenRates:
    """USD per million tokens."""

    input: float
    output: float
    cache_write: float
    cache_read: float


@dataclass(frozen=True)
class ModelPrice:
    """The price of one model. Some models bill every token of a request at `long_prompt`
    rates when its prompt (input + cache writes + cache reads) exceeds `long_prompt_above`."""

    rates: TokenRates
    web_search_per_1000: float = WEB_SEARCH_USD_PER_1000
    long_prompt_above: int | None = None
    long_prompt: TokenRates | None = None

    def rates_for(self, prompt_tokens: int) -> TokenRates:
        if (
            self.long_prompt is not None
            and self.long_prompt_above is not None
            and prompt_tokens > self.long_prompt_above
        ):
            return self.long_prompt
        return self.rates

    def cost_usd(self, usage: Usage) -> float:
        """The price of one call's usage."""
        prompt = usage.input_tokens + usage.cache_write_tokens + usage.cache_read_tokens
        rates = self.rates_for(prompt)
        tokens = (
            usage.input_tokens * rates.input
            + usage.output_tokens * rates.output
            + usage.cache_write_tokens * rates.cache_write
            + usage.cache_read_tokens * rates.cache_read
        )
        return tokens / _MILLION + usage.web_searches * self.web_search_per_1000 / 1000

    def worst_case_usd(
        self,
        prompt_tokens: int,
        max_tokens: int,
        web_searches: int = 0,
        *,
        result_tokens_per_search: int = 0,
    ) -> float:
        """The most one call can cost: every prompt token at the dearer of input and cache
        write, the whole `max_tokens` of output, every allowed server-side search.

        With server-side search the call is up to `web_searches` + 1 sampling passes, and
        each pass bills as input the prompt, the results of the searches before it and the
        output written so far (https://platform.claude.com/docs/en/agents-and-tools/tool-use/
        web-search-tool, usage and pricing: results are input tokens in every search
        iteration of the turn). The whole output stays within `max_tokens`."""
        passes = web_searches + 1
        results = result_tokens_per_search * web_searches * passes // 2
        prompt = passes * prompt_tokens + results + web_searches * max_tokens
        rates = self.rates_for(prompt)
        tokens = prompt * max(rates.input, rates.cache_write) + max_tokens * rates.output
        return tokens / _MILLION + web_searches * self.web_search_per_1000 / 1000


def _flat(input_: float, output: float, cache_write: float, cache_read: float) -> ModelPrice:
    return ModelPrice(TokenRates(input_, output, cache_write, cache_read))


_OPUS_4_5 = _flat(5.0, 25.0, 6.25, 0.50)
_SONNET_4 = _flat(3.0, 15.0, 3.75, 0.30)

# The models still served (engine/models/claude/catalog.py holds the lifecycle): a retired
# model is refused at start with its replacement named, never priced.
DEFAULT_PRICES: Mapping[str, ModelPrice] = {
    "claude-opus-4-5": _OPUS_4_5,
    "claude-opus-4-6": _OPUS_4_5,
    "claude-opus-4-7": _OPUS_4_5,
    "claude-opus-4-8": _OPUS_4_5,
    "claude-opus-5": _OPUS_4_5,
    "claude-opus-5-5": _flat(4.0, 20.0, 5.0, 0.20),
    "claude-sonnet-4-6": _SONNET_4,
    "claude-sonnet-5": _flat(2.0, 10.0, 2.50, 0.20),
    "claude-sonnet-5-5": _flat(2.0, 10.0, 2.50, 0.10),
    "claude-haiku-4-5": _flat(1.0, 5.0, 1.25, 0.10),
    "claude-haiku-5-5": ModelPrice(
        TokenRates(0.10, 0.50, 0.125, 0.01),
        long_prompt_above=100_000,
        long_prompt=TokenRates(0.50, 2.50, 0.625, 0.05),
    ),
    # Fable: $10 / $50 (https://platform.claude.com/docs/en/models/fable-5/overview); 5.1
    # keeps input and output and cuts cache reads to a quarter of Fable 5's $1.00.
    "claude-fable-5": _flat(10.0, 50.0, 12.50, 1.00),
    "claude-fable-5-1": _flat(10.0, 50.0, 12.50, 0.25),
}

# Dated snapshots and aliases name the same model: "claude-haiku-4-5-20251001",
# "claude-3-5-haiku-latest", "claude-opus-4-0".
_ALIAS_SUFFIX = re.compile(r"(?:-\d{8}|-latest|-0)$")


def canonical_model(model: str) -> str:
    return _ALIAS_SUFFIX.sub("", model.strip())


class PriceTable:
    def __init__(self, prices: Mapping[str, ModelPrice]) -> None:
        self._prices = dict(prices)

    def models(self) -> list[str]:
        return sorted(self._prices)

    def price(self, model: str) -> ModelPrice:
        for name in (model, canonical_model(model)):
            if name in self._prices:
                return self._prices[name]
        raise UnknownModel(
            f"no price for model {model!r}: add it to FONTE_PRICES, or use one of "
            + ", ".join(self.models())
        )

    def cost_usd(self, model: str, usage: Usage) -> float:
        return self.price(model).cost_usd(usage)

    def with_overrides(self, overrides: Mapping[str, PriceOverride]) -> PriceTable:
        prices = dict(self._prices)
        for model, override in overrides.items():
            known = prices.get(model) or prices.get(canonical_model(model))
            prices[model] = override.applied_to(model, known)
        return PriceTable(prices)


def default_price_table() -> PriceTable:
    return PriceTable(DEFAULT_PRICES)


_RATE_FIELDS = ("input", "output", "cache_write", "cache_read")


class _Rates(BaseModel):
    model_config = ConfigDict(extra="forbid")

    input: float | None = Field(default=None, ge=0)
    output: float | None = Field(default=None, ge=0)
    cache_write: float | None = Field(default=None, ge=0)
    cache_read: float | None = Field(default=None, ge=0)

    def over(self, model: str, base: TokenRates | None) -> TokenRates:
        if base is None:
            if self.input is None or self.output is None:
                raise ValueError(f"{model}: a new model needs at least input and output prices")
            # Anthropic's usual multipliers: cache writes 1.25x input, cache reads 0.1x.
            base = TokenRates(self.input, self.output, self.input * 1.25, self.input * 0.1)
        changes = {name: getattr(self, name) for name in _RATE_FIELDS}
        return replace(base, **{k: v for k, v in changes.items() if v is not None})


class _LongPrompt(_Rates):
    above_tokens: int = Field(ge=1)


class PriceOverride(_Rates):
    """One entry of FONTE_PRICES: USD per million tokens, per 1000 web searches."""

    web_search_per_1000: float | None = Field(default=None, ge=0)
    long_prompt: _LongPrompt | None = None

    def applied_to(self, model: str, known: ModelPrice | None) -> ModelPrice:
        rates = self.over(model, known.rates if known else None)
        price = replace(known, rates=rates) if known else ModelPrice(rates)
        if self.web_search_per_1000 is not None:
            price = replace(price, web_search_per_1000=self.web_search_per_1000)
        if self.long_prompt is not None:
            long_rates = self.long_prompt.over(model, price.long_prompt or rates)
            price = replace(
                price, long_prompt=long_rates, long_prompt_above=self.long_prompt.above_tokens
            )
        return price


def parse_price_overrides(text: str) -> dict[str, PriceOverride]:
    """FONTE_PRICES as JSON: {"model": {"input": 3, "output": 15, ...}, ...}."""
    try:
        raw: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"FONTE_PRICES is not valid JSON: {error}") from None
    if not isinstance(raw, dict):
        raise ValueError("FONTE_PRICES must be a JSON object keyed by model name")
    overrides: dict[str, PriceOverride] = {}
    for model, entry in raw.items():
        try:
            overrides[str(model)] = PriceOverride.model_validate(entry)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "entry"
            raise ValueError(f"FONTE_PRICES[{model!r}].{where}: {first['msg']}") from None
    return overrides
