"""Claude against the scripted Anthropic server (tests/support/claude_fixtures.py holds the
fixtures: a started server, a config pointing at it, models that record their retry waits)."""

from tests.support.claude_fixtures import (  # noqa: F401 (fixtures)
    anthropic,
    config,
    largest_ratio,
    make_model,
    model,
    sleeps,
)
