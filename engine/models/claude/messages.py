"""One subagent's messages, kept as the API requires them. Pure code.

Assistant turns go back exactly as they came, thinking blocks and their signatures included
(https://platform.claude.com/docs/en/build-with-claude/extended-thinking#preserving-thinking-
blocks): the conversation only ever appends. Two message breakpoints move with it — the turn
the previous call marked and the newest turn — as `caching.py` explains.
"""

from __future__ import annotations

from collections.abc import Sequence

from anthropic.types import Message, MessageParam, TextBlockParam, ToolResultBlockParam
from anthropic.types.tool_result_block_param import Content


class SubagentMessages:
    def __init__(self, prompt: str) -> None:
        first: TextBlockParam = {"type": "text", "text": prompt}
        self.messages: list[MessageParam] = [{"role": "user", "content": [first]}]
        self.documents: list[str] = []
        """The url of each document block sent, in order: a citation's document_index."""
        self._marked: int | None = None

    def cache_points(self) -> tuple[int, ...]:
        """Breakpoints of the next call: the previous call's newest user turn and this one's."""
        newest = len(self.messages) - 1
        points = (newest,) if self._marked is None else (self._marked, newest)
        self._marked = newest
        return points

    def add_reply(self, message: Message) -> None:
        self.messages.append(message.to_param())

    def add_results(self, results: Sequence[ToolResultBlockParam], note: str = "") -> None:
        """The tool results of the last reply, in the order of its tool_use blocks, and
        nothing else: text after tool results teaches Claude to end its turn empty
        (https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons, "Empty
        responses with end_turn"), so a `note` goes inside the last result's content."""
        content = [result.copy() for result in results]
        if note and content:
            last = content[-1]
            held = last.get("content", [])
            blocks: list[Content] = (
                [{"type": "text", "text": held}] if isinstance(held, str) else list(held)
            )
            blocks.append({"type": "text", "text": note})
            last["content"] = blocks
        self.messages.append({"role": "user", "content": content})

    def add_prompt(self, text: str) -> None:
        """A user turn of text after Claude's last reply (one that used no tool)."""
        prompt: TextBlockParam = {"type": "text", "text": text}
        self.messages.append({"role": "user", "content": [prompt]})
