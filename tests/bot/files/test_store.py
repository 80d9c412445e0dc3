"""The conversation-scoped store of shared files: one library folder per conversation, its
index citing each file's permalink, never readable from another conversation, and files
removed once older than the retention."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.files import Conversation, ConversationFiles, conversation_of
from engine.sources.library import Library
from tests.support.clock import FakeClock
from tests.support.pdfs import pdf_bytes

PERMALINK = "https://fonte-test.slack.com/files/U1/FU0001/relatorio.pdf"
DAY = 24 * 3600


def store(tmp_path: Path, clock: FakeClock | None = None, days: float = 30) -> ConversationFiles:
    return ConversationFiles(tmp_path / "shared", keep_days=days, clock=clock or FakeClock())


def test_a_conversation_is_a_channel_thread_or_a_whole_dm() -> None:
    assert conversation_of("C1", None, "1700.1", False) == Conversation("C1", "1700.1")
    assert conversation_of("C1", "1600.1", "1700.1", False) == Conversation("C1", "1600.1")
    # A DM is private as a whole: its top level and its threads share one folder.
    assert conversation_of("D1", None, "1700.1", True) == Conversation("D1", "")
    assert conversation_of("D1", "1600.1", "1700.1", True) == Conversation("D1", "")


@pytest.mark.parametrize(
    ("channel", "thread"), [("../C1", ""), ("C1", "../../etc"), ("c1", ""), ("C1", "1.2/3")]
)
def test_a_conversation_refuses_anything_but_slack_ids(channel: str, thread: str) -> None:
    with pytest.raises(ValueError, match="not a Slack conversation"):
        Conversation(channel, thread)


def test_files_are_kept_with_an_index_citing_their_permalinks(tmp_path: Path) -> None:
    files = store(tmp_path)
    dm = Conversation("D1")
    assert files.folder(dm) is None

    kept = files.add(dm, "Relatório 2024.pdf", b"%PDF-1.4 x", PERMALINK, "Relatório 2024")

    folder = files.folder(dm)
    assert folder is not None
    assert kept.path.parent == folder
    rows = [json.loads(line) for line in (folder / "index.jsonl").read_text().splitlines()]
    assert rows == [{"file": kept.file, "url": PERMALINK, "title": "Relatório 2024"}]
    assert (folder / kept.file).read_bytes() == b"%PDF-1.4 x"


def test_no_file_is_readable_from_another_conversation(tmp_path: Path) -> None:
    files = store(tmp_path)
    files.add(Conversation("C1", "1700.1"), "a.md", b"# A", PERMALINK, "A")

    assert files.folder(Conversation("C1", "1700.2")) is None  # another thread
    assert files.folder(Conversation("C2", "1700.1")) is None  # another channel
    assert files.folder(Conversation("C1", "")) is None
    assert files.files(Conversation("C1", "1700.1"))[0].title == "A"


def test_a_name_cannot_climb_out_of_the_folder_nor_replace_the_index(tmp_path: Path) -> None:
    files = store(tmp_path)
    dm = Conversation("D1")
    first = files.add(dm, "../../escape.md", b"# x", PERMALINK, "x")
    second = files.add(dm, "index.jsonl", b"{}", PERMALINK + "2", "y")

    assert first.path.parent == second.path.parent == files.folder(dm)
    assert second.file != "index.jsonl"
    assert not (tmp_path / "escape.md").exists()


def test_the_same_file_shared_again_replaces_it_and_another_of_its_name_is_kept_too(
    tmp_path: Path,
) -> None:
    files = store(tmp_path)
    dm = Conversation("D1")
    files.add(dm, "notes.md", b"# one", PERMALINK, "notes")
    files.add(dm, "notes.md", b"# two", PERMALINK, "notes")
    files.add(dm, "notes.md", b"# other", PERMALINK + "x", "notes")

    kept = files.files(dm)
    assert [k.url for k in kept] == [PERMALINK, PERMALINK + "x"]
    assert kept[0].path.read_bytes() == b"# two"
    assert kept[0].file != kept[1].file


def test_files_older_than_the_retention_are_removed_when_the_store_is_touched(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    files = store(tmp_path, clock, days=30)
    old, recent = Conversation("C1", "1.1"), Conversation("C1", "2.2")
    kept = files.add(old, "old.md", b"# old", PERMALINK, "old")
    clock.advance(20 * DAY)
    files.add(recent, "new.md", b"# new", PERMALINK + "n", "new")
    files.add(old, "newer.md", b"# newer", PERMALINK + "m", "newer")

    clock.advance(11 * DAY)  # old.md is 31 days old, the others 11

    assert [k.title for k in files.files(old)] == ["newer"]
    assert not kept.path.exists()
    clock.advance(20 * DAY)
    assert files.folder(recent) is None
    assert files.folder(old) is None
    assert list((tmp_path / "shared").iterdir()) == []


def test_a_library_opened_on_the_folder_cites_the_permalink_with_its_page(
    tmp_path: Path,
) -> None:
    files = store(tmp_path)
    dm = Conversation("D1")
    pdf = pdf_bytes(["Intro page.", "A receita da Acme foi de 42 milhoes em 2024."])
    files.add(dm, "acme.pdf", pdf, PERMALINK, "Acme 2024")
    folder = files.folder(dm)
    assert folder is not None

    library = Library.open(folder, cache_dir=tmp_path / "cache")

    [document] = library.documents()
    assert document.url == PERMALINK
    assert document.title == "Acme 2024"
    assert library.pdf_path(f"{PERMALINK}#page=2") == folder / "acme.pdf"


def test_the_version_changes_whenever_what_is_kept_changes(tmp_path: Path) -> None:
    clock = FakeClock()
    files = store(tmp_path, clock, days=1)
    dm = Conversation("D1")
    assert files.version(dm) is None
    files.add(dm, "a.md", b"# a", PERMALINK, "a")
    first = files.version(dm)
    assert files.version(dm) == first
    clock.advance(10)
    files.add(dm, "a.md", b"# a, again", PERMALINK, "a")
    assert files.version(dm) not in (None, first)
    clock.advance(2 * DAY)
    assert files.version(dm) is None
