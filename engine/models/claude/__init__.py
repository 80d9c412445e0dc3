"""Claude as Fonte's model: planner, research subagents, writer and support judge.

    config = ClaudeConfig.from_env(os.environ)        # ANTHROPIC_API_KEY, FONTE_MODEL, …
    async with claude_model_from_config(config) as model:
        report = await Orchestrator(model, searcher, fetcher, limits=limits).run(brief)

See docs/claude.md for the environment variables, the price table and retries.
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
