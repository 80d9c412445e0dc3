"""The source kind (engine/sources/kinds.py): the parts a research reads, what each
combination answers, and one order whatever order the parts were given in."""

from __future__ import annotations

import pytest

from engine.sources.kinds import CONVERSATION, LIBRARY, SLACK, WEB, Origin, SourceKind


def test_a_library_with_shared_files_reads_documents_only() -> None:
    kind = LIBRARY | CONVERSATION
    assert kind.reads_library
    assert kind.reads_conversation
    assert not kind.reads_web
    assert kind.reads_documents
    assert kind.indexed  # every read's OCR was paid when indexing
    assert not kind.web_only
    assert kind.sole is None
    assert str(kind) == "library+conversation"


def test_the_web_alone_and_with_a_library() -> None:
    assert WEB.web_only
    assert not WEB.reads_documents
    assert not WEB.indexed
    assert WEB.sole is Origin.web
    mixed = WEB | LIBRARY
    assert mixed.reads_web
    assert mixed.reads_documents  # pages and figures to look at
    assert not mixed.indexed  # the web's reads are not
    assert not mixed.web_only
    assert str(mixed) == "library+web"  # one order, whatever order they came in


def test_slack_search_is_a_part_read_live() -> None:
    assert SLACK.reads_slack
    assert not SLACK.reads_documents
    assert not SLACK.indexed
    assert not Origin.slack.indexed
    assert [part.indexed for part in Origin] == [True, True, False, False]


def test_kinds_compare_by_their_parts_and_are_never_empty() -> None:
    assert SourceKind.of(Origin.conversation, Origin.library) == LIBRARY | CONVERSATION
    assert SourceKind.union([LIBRARY, WEB, LIBRARY]) == SourceKind.of(Origin.web, Origin.library)
    assert LIBRARY | LIBRARY == LIBRARY
    with pytest.raises(ValueError, match="at least one part"):
        SourceKind.of()
