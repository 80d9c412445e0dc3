"""Subagents and the tools they may use."""
