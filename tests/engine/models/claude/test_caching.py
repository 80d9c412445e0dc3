"""Cache breakpoints: at most 4, placed so that each call reads what the previous one wrote
even when a turn adds more than the 20 blocks the API looks back over."""

import copy
from typing import Any

from engine.models.claude import ClaudeModel
from engine.models.claude.caching import (
    count_breakpoints,
    minimum_cacheable_tokens,
    with_breakpoints,
)
from tests.support.anthropic_cache import PromptCache
from tests.support.anthropic_server import ScriptedAnthropic, message, thinking, tool_use
from tests.support.claude_turns import DONE, toolbox, turns
from tests.support.pages_source import PagesSource


def test_minimums_follow_the_model_and_unknown_models_get_the_largest() -> None:
    assert minimum_cacheable_tokens("claude-sonnet-5-5") == 512
    assert minimum_cacheable_tokens("claude-haiku-4-5-20251001") == 4096
    assert minimum_cacheable_tokens("claude-sonnet-4-5") == 1024
    assert minimum_cacheable_tokens("claude-next-9") == 4096


def test_only_user_turns_are_marked_and_the_messages_are_not_changed() -> None:
    messages: list[Any] = [
        {"role": "user", "content": "oi"},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "", "signature": "s"}]},
        {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
    ]
    before = copy.deepcopy(messages)
    wire = with_breakpoints(messages, (0, 1, 2))
    assert messages == before
    assert wire[0]["content"] == [
        {"type": "text", "text": "oi", "cache_control": {"type": "ephemeral"}}
    ]
    assert wire[1] == messages[1]  # a thinking block never carries a breakpoint
    assert "cache_control" not in wire[2]["content"][0]
    assert count_breakpoints(wire) == 2


def _turn(calls: int, first: int) -> list[Any]:
    uses = [
        {"type": "tool_use", "id": f"t{first + n}", "name": "x", "input": {}} for n in range(calls)
    ]
    results = [
        {"type": "tool_result", "tool_use_id": use["id"], "content": "r" * 400} for use in uses
    ]
    return [{"role": "assistant", "content": uses}, {"role": "user", "content": results}]


def test_a_single_moving_breakpoint_misses_after_a_wide_turn_and_ours_does_not() -> None:
    first: list[Any] = [{"role": "user", "content": [{"type": "text", "text": "q " * 2000}]}]
    wide = first + _turn(12, 0)  # 24 blocks added in one turn

    def cost(points_first: tuple[int, ...], points_wide: tuple[int, ...]) -> int:
        cache = PromptCache(2.5, 20, 512)
        cache.measure({"messages": with_breakpoints(first, points_first)}, 3000)
        return cache.measure({"messages": with_breakpoints(wide, points_wide)}, 6000).cache_read

    assert cost((0,), (2,)) == 0  # the newest block only: nothing within 20 blocks
    assert cost((0,), (0, 2)) > 0  # the previous call's block too: an exact hit


async def test_a_wide_turn_still_reads_the_cache_through_the_real_client(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.usage_mode = "measured"
    searches = [tool_use("web_search", {"query": f"busca {n}"}) for n in range(12)]
    anthropic.script(turns(message(thinking(), *searches, stop_reason="tool_use"), DONE))
    tools = toolbox(source, max_steps=20)
    await model.research(tools.assignment, tools)
    first, second = (r.reply for r in anthropic.requests)
    assert isinstance(first, dict)
    assert isinstance(second, dict)
    written = first["usage"]["cache_creation_input_tokens"]
    assert written > 0
    # All the first call wrote is read back, though the turn between added 25 blocks.
    assert second["usage"]["cache_read_input_tokens"] == written
    assert all(count_breakpoints(r.body) <= 4 for r in anthropic.requests)
