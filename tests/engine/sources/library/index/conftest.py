"""Helpers for the index tests: documents tokenized onto a shared vocabulary."""

from __future__ import annotations
