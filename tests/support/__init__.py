"""Loopback servers standing in for the web, Slack and Anthropic in tests."""
