"""Fonte in Slack: the Bolt app, conversation flows, Block Kit builders, the arq executor and
workers, and the Redis-backed board, budget, snapshot cache and conversation state.

Entry points: `fonte bot` and `fonte worker` (bot.cli), docs/slack.md. The engine never
imports this package.
"""
