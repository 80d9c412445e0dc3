"""What a research reads, as a type: the kind of a source and of a combination of sources.

A source says what it is (`Search.kind`); nobody guesses it from a display name. One part,
an `Origin`, is also where a cited document came from (`Report.origins`). A `SourceKind` is
the set of parts a research reads — a team library, the web, the files shared in a Slack
conversation, Slack's own search, or any combination — and answers the questions the rest
of the engine asks of it: what the prompts call the sources, which tools a subagent gets,
which reads cost OCR steps (`indexed`: a library's scans are read once, when it is
indexed), and what a report's sources are labelled.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Origin(StrEnum):
    """One part a research reads, and where a cited document came from."""

    library = "library"
    """A team's or a channel's library: a folder of documents, indexed ahead."""
    conversation = "conversation"
    """The files shared in a Slack conversation, kept and indexed as a small library."""
    web = "web"
    """The open web: a search provider and the guarded fetcher, read when asked."""
    slack = "slack"
    """Slack's own search over the workspace's messages."""

    @property
    def indexed(self) -> bool:
        """Documents read (OCR included) when they were indexed, once for every report:
        reading one again is a read, not the work of reading its scans."""
        return self in (Origin.library, Origin.conversation)


ORDER = tuple(Origin)
"""The parts in the one order every wording and label lists them."""


@dataclass(frozen=True)
class SourceKind:
    """The parts a research reads. Compare kinds, never their names."""

    parts: frozenset[Origin]

    @classmethod
    def of(cls, *parts: Origin) -> SourceKind:
        """The kind reading `parts`; ValueError for none (a research reads something)."""
        return cls.union(SourceKind(frozenset({part})) for part in parts)

    @classmethod
    def union(cls, kinds: Iterable[SourceKind]) -> SourceKind:
        """The kind reading every part of `kinds` (a combination's); ValueError for none."""
        parts = frozenset(part for kind in kinds for part in kind.parts)
        if not parts:
            raise ValueError("a source kind reads at least one part")
        return cls(parts)

    def __or__(self, other: SourceKind) -> SourceKind:
        return SourceKind(self.parts | other.parts)

    def __str__(self) -> str:
        return "+".join(self.ordered())

    def ordered(self) -> tuple[Origin, ...]:
        return tuple(part for part in ORDER if part in self.parts)

    @property
    def reads_library(self) -> bool:
        return Origin.library in self.parts

    @property
    def reads_conversation(self) -> bool:
        """The files shared in the conversation the research was asked in."""
        return Origin.conversation in self.parts

    @property
    def reads_web(self) -> bool:
        return Origin.web in self.parts

    @property
    def reads_slack(self) -> bool:
        return Origin.slack in self.parts

    @property
    def reads_documents(self) -> bool:
        """Some part holds documents as files (a library, shared files): pages to cite
        by number, figures to look at."""
        return any(part.indexed for part in self.parts)

    @property
    def indexed(self) -> bool:
        """Every part was read when indexed (no web, no live search): reads cost no OCR."""
        return all(part.indexed for part in self.parts)

    @property
    def web_only(self) -> bool:
        """The web and nothing else: a search provider's own search may stand in for ours."""
        return self.parts == {Origin.web}

    @property
    def sole(self) -> Origin | None:
        """The one part of a kind that has one; None for a combination."""
        return next(iter(self.parts)) if len(self.parts) == 1 else None


LIBRARY = SourceKind.of(Origin.library)
CONVERSATION = SourceKind.of(Origin.conversation)
WEB = SourceKind.of(Origin.web)
SLACK = SourceKind.of(Origin.slack)


__all__ = [
    "CONVERSATION",
    "LIBRARY",
    "ORDER",
    "SLACK",
    "WEB",
    "Origin",
    "SourceKind",
]
