"""What the v1 researcher hands downstream: one prose summary and a numbered source list.

This is the v1 design's context boundary, and its flaw: the summary's sentences carry no
provenance, so every later role can only guess which numbered source a sentence came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

V1_RESEARCHER = "v1-researcher"
"""The one agent behind every v1 claim, as its `subagent`."""


@dataclass(frozen=True)
class SourceEntry:
    """One source the researcher consulted, as later roles see it: never its page text."""

    number: int
    url: str
    title: str
    snippet: str


@dataclass(frozen=True)
class ResearchNotes:
    summary: str
    sources: list[SourceEntry] = field(default_factory=list)


def source_list_text(sources: list[SourceEntry]) -> str:
    """The numbered list as a role prompt shows it."""
    return "\n".join(f"[{s.number}] {s.title} — {s.url} — {s.snippet}" for s in sources)


def notes_text(notes: ResearchNotes) -> str:
    return f"{notes.summary}\n\n{source_list_text(notes.sources)}"
