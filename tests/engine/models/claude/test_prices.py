import pytest

from engine.contracts import Usage
from engine.models.claude.prices import (
    DEFAULT_PRICES,
    PriceTable,
    UnknownModel,
    canonical_model,
    default_price_table,
    parse_price_overrides,
)

TABLE = default_price_table()


def test_cost_applies_each_rate_to_its_tokens() -> None:
    usage = Usage(
        model_calls=1,
        input_tokens=1_000_000,
        output_tokens=100_000,
        cache_write_tokens=200_000,
        cache_read_tokens=2_000_000,
        web_searches=3,
    )
    # Sonnet 4.6: $3 in, $15 out, $3.75 cache write, $0.30 cache read; $10 per 1000 searches.
    assert TABLE.cost_usd("claude-sonnet-4-6", usage) == pytest.approx(
        3.0 + 1.5 + 0.75 + 0.60 + 0.03
    )


def test_long_prompts_are_billed_at_the_long_rate_on_every_token() -> None:
    short = Usage(input_tokens=90_000, output_tokens=1_000)
    long = Usage(input_tokens=90_000, cache_read_tokens=20_000, output_tokens=1_000)
    assert TABLE.cost_usd("claude-haiku-5-5", short) == pytest.approx(0.009 + 0.0005)
    assert TABLE.cost_usd("claude-haiku-5-5", long) == pytest.approx(0.045 + 0.001 + 0.0025)


def test_worst_case_prices_prompt_at_cache_write_and_all_output() -> None:
    price = TABLE.price("claude-sonnet-5-5")
    assert price.worst_case_usd(10_000, 2_000) == pytest.approx(
        10_000 * 2.5 / 1e6 + 2_000 * 10 / 1e6
    )


def test_a_server_search_turn_is_priced_as_all_its_sampling_passes() -> None:
    price = TABLE.price("claude-sonnet-5-5")
    worst = price.worst_case_usd(10_000, 2_000, web_searches=2, result_tokens_per_search=5_000)
    # Three passes read the 10k prompt; the first search's results are read by two passes,
    # the second's by one; the two passes after the first re-read up to the 2k of output.
    prompt = 3 * 10_000 + 5_000 * (2 + 1) + 2 * 2_000
    assert worst == pytest.approx(prompt * 2.5 / 1e6 + 2_000 * 10 / 1e6 + 0.02)


def test_passes_that_together_pass_the_long_prompt_line_are_reserved_at_the_long_rate() -> None:
    price = TABLE.price("claude-haiku-5-5")  # every token at the long rate above 100k
    worst = price.worst_case_usd(40_000, 1_000, web_searches=2, result_tokens_per_search=1_000)
    prompt = 3 * 40_000 + 1_000 * 3 + 2 * 1_000
    assert worst == pytest.approx(prompt * 0.625 / 1e6 + 1_000 * 2.5 / 1e6 + 0.02)


@pytest.mark.parametrize(
    ("alias", "model"),
    [
        ("claude-haiku-4-5-20251001", "claude-haiku-4-5"),
        ("claude-opus-4-5-20251101", "claude-opus-4-5"),
        ("claude-opus-4-5-latest", "claude-opus-4-5"),
    ],
)
def test_dated_and_latest_aliases_find_their_model(alias: str, model: str) -> None:
    assert canonical_model(alias) == model
    assert TABLE.price(alias) is DEFAULT_PRICES[model]


def test_the_table_covers_current_models() -> None:
    for model in (
        "claude-opus-4-5",
        "claude-opus-4-8",
        "claude-sonnet-4-6",
        "claude-haiku-4-5",
        "claude-sonnet-5-5",
        "claude-haiku-5-5",
    ):
        assert TABLE.price(model).rates.output > TABLE.price(model).rates.input


def test_unknown_model_says_how_to_fix_it() -> None:
    with pytest.raises(UnknownModel, match=r"FONTE_PRICES.*claude-haiku-4-5"):
        TABLE.price("claude-imaginary-9")


def test_overrides_change_known_models_and_add_new_ones() -> None:
    overrides = parse_price_overrides(
        '{"claude-sonnet-4-6": {"output": 20},'
        ' "claude-new-1": {"input": 2, "output": 8, "web_search_per_1000": 5}}'
    )
    table = TABLE.with_overrides(overrides)
    sonnet = table.price("claude-sonnet-4-6-20260217")
    assert (sonnet.rates.input, sonnet.rates.output) == (3.0, 20.0)
    new = table.price("claude-new-1")
    assert (new.rates.cache_write, new.rates.cache_read) == pytest.approx((2.5, 0.2))
    assert new.web_search_per_1000 == 5
    assert TABLE.price("claude-sonnet-4-6").rates.output == 15.0  # the default is untouched


def test_override_of_long_prompt_rates() -> None:
    table = TABLE.with_overrides(
        parse_price_overrides('{"claude-haiku-5-5": {"long_prompt": {"above_tokens": 50000}}}')
    )
    price = table.price("claude-haiku-5-5")
    assert price.long_prompt_above == 50_000
    assert price.rates_for(60_000).input == 0.50


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"claude-x": {"input": -1, "output": 1}}', r"claude-x.*input"),
        ('{"claude-x": {"inptu": 1}}', r"claude-x.*inptu"),
    ],
)
def test_bad_overrides_are_refused_with_the_place(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_price_overrides(text)


def test_a_new_model_needs_input_and_output() -> None:
    with pytest.raises(ValueError, match="input and output"):
        PriceTable({}).with_overrides(parse_price_overrides('{"claude-x": {"input": 1}}'))
