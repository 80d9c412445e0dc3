"""Sources per conversation (bot/sources/channels.py, bot/sources/catalog.py): a channel's
own library, a private channel's never used elsewhere, DMs on the team library, the files
shared in a conversation found there and nowhere else, every library opened once."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings, load_settings
from bot.files.store import Conversation, ConversationFiles
from bot.sources.catalog import SourceCatalog, conversations_root, is_slack_file
from bot.sources.channels import parse_channel_libraries
from bot.sources.factories import configured_library_problem
from engine import BadInput
from engine.sources import Origin, SourceKind
from engine.sources.library import Library

ALPHA = "# Alpha\n\nThe alpha turbine produces 42 megawatts at the northern site.\n"
PERMALINK = "https://team.slack.com/files/U1/F0AAA/turbines.md"


@dataclass(frozen=True)
class Where:
    channel: str
    thread_ts: str
    is_dm: bool = False


def folder_with(root: Path, name: str, text: str = ALPHA) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / f"{name}.md").write_text(text, encoding="utf-8")
    return folder


def test_the_mapping_is_read_from_pairs_json_and_toml(tmp_path: Path) -> None:
    a, b = folder_with(tmp_path, "a"), folder_with(tmp_path, "b")
    pairs = parse_channel_libraries(f"C1={a}, C2={b}")
    assert {c: e.folder for c, e in pairs.mapped.items()} == {"C1": a, "C2": b}
    as_json = tmp_path / "channels.json"
    as_json.write_text(json.dumps({"C1": "a", "C3": {"folder": str(b), "private": True}}))
    mapped = parse_channel_libraries(str(as_json)).mapped
    assert mapped["C1"].folder == a  # relative to the file's own folder
    assert mapped["C3"].private
    assert not mapped["C1"].private
    as_toml = tmp_path / "channels.toml"
    as_toml.write_text(f'C1 = "{a}"\n[G7]\nfolder = "{b}"\n', encoding="utf-8")
    mapped = parse_channel_libraries(str(as_toml)).mapped
    assert mapped["G7"].private  # a G… channel is private whatever the file says
    assert parse_channel_libraries(None).mapped == {}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("C1={missing}", "channel C1: no such folder"),
        ("C1={a},C1={b}", "channel C1 is mapped twice"),
        ("C1={a},C2", "'C2' is not CHANNEL=/folder"),
        ("D1={a}", "'D1' is not a channel id"),
        ("G1={a},C2={a}", "private channel G1's library and cannot also serve C2"),
        ("G1={a},C2={inside}", "private channel G1's library and cannot also serve C2"),
        ("C2={a},C9={a}", None),  # two public channels may share a library
        ("{json_missing}", "channels.json"),
    ],
)
def test_bad_mappings_are_refused_in_one_line(
    tmp_path: Path, value: str, expected: str | None
) -> None:
    a, b = folder_with(tmp_path, "a"), folder_with(tmp_path, "b")
    (a / "inside").mkdir()
    spec = value.format(
        a=a,
        b=b,
        missing=tmp_path / "missing",
        inside=a / "inside",
        json_missing=tmp_path / "channels.json",
    )
    if expected is None:
        assert set(parse_channel_libraries(spec).mapped) == {"C2", "C9"}
        return
    with pytest.raises(BadInput, match=expected) as raised:
        parse_channel_libraries(spec)
    assert "\n" not in str(raised.value)


def test_with_a_shared_store_a_worker_maps_folders_it_does_not_have(tmp_path: Path) -> None:
    """The libraries are in the store (FONTE_LIBRARY_STORE): a mapped folder missing on this
    host is the name its library is read under; a private one still overlaps nothing."""
    sales, legal = tmp_path / "sales", tmp_path / "legal"
    mapped = parse_channel_libraries(f"C1={sales},G2={legal}", stored=True).mapped
    assert (mapped["C1"].folder, mapped["G2"].folder) == (sales, legal)
    with pytest.raises(BadInput, match="private channel G2's library and cannot also serve C3"):
        parse_channel_libraries(f"G2={legal},C3={legal / 'inside'}", stored=True)


def test_a_private_library_may_not_be_or_hold_the_team_library(tmp_path: Path) -> None:
    team = folder_with(tmp_path, "team")
    with pytest.raises(BadInput, match="overlaps FONTE_LIBRARY"):
        parse_channel_libraries(f"C5={team}", private_channels=frozenset({"C5"}), team=team)
    with pytest.raises(BadInput, match="overlaps FONTE_LIBRARY"):
        parse_channel_libraries(f"C5={tmp_path}", private_channels=frozenset({"C5"}), team=team)
    public = parse_channel_libraries(f"C5={team}", team=team)  # not private: allowed
    assert public.library_for("C5", False, team) == team


def test_a_dm_reads_the_team_library_whatever_its_id(tmp_path: Path) -> None:
    own, team = folder_with(tmp_path, "own"), folder_with(tmp_path, "team")
    mapped = parse_channel_libraries(f"C1={own}")
    assert mapped.library_for("C1", False, team) == own
    assert mapped.library_for("C2", False, team) == team
    assert mapped.library_for("C1", True, team) == team


def test_the_settings_read_the_mapping_and_the_private_channels(tmp_path: Path) -> None:
    env = {
        "SLACK_BOT_TOKEN": "xoxb-1",
        "SLACK_APP_TOKEN": "xapp-1",
        "FONTE_SOURCE": "library+web",
        "FONTE_LIBRARY": str(tmp_path),
        "FONTE_CHANNEL_LIBRARIES": "C1=/data/a",
        "FONTE_PRIVATE_CHANNELS": "C1, C2",
    }
    settings = load_settings(env)
    assert settings.channel_libraries == "C1=/data/a"
    assert settings.private_channels == frozenset({"C1", "C2"})
    with pytest.raises(BadInput, match="FONTE_LIBRARY is not set"):
        load_settings({k: v for k, v in env.items() if k != "FONTE_LIBRARY"})


async def test_a_runtime_with_a_bad_mapping_does_not_start(
    make_settings: Any, runtimes: Any, tmp_path: Path
) -> None:
    settings = make_settings(redis=False, channel_libraries=f"C1={tmp_path / 'gone'}")
    with pytest.raises(BadInput, match="FONTE_CHANNEL_LIBRARIES: channel C1: no such folder"):
        await runtimes(settings)


def catalog_for(settings: Settings, **fields: Any) -> SourceCatalog:
    return SourceCatalog.from_settings(replace(settings, **fields))


def libraries_opened(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folders `Library.open` opens from now on, in order (each opened as it would be)."""
    opened: list[Path] = []
    real_open = Library.open

    def counting(folder: Path, **kwargs: Any) -> Library:
        opened.append(Path(folder))
        return real_open(folder, **kwargs)

    monkeypatch.setattr(Library, "open", counting)
    return opened


async def urls(catalog: SourceCatalog, where: Where | None, query: str) -> list[str]:
    sources = await catalog.sources_for(where)
    return [hit.url for hit in await sources.searcher.search(query, 10)]


async def test_a_mapped_channel_reads_its_library_and_others_the_teams(
    make_settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = folder_with(tmp_path, "alpha")
    opened = libraries_opened(monkeypatch)
    catalog = catalog_for(make_settings(redis=False), channel_libraries=f"C1={own}")
    assert any("alpha" in url for url in await urls(catalog, Where("C1", "1.1"), "alpha turbine"))
    assert not any(
        "alpha" in url for url in await urls(catalog, Where("C2", "2.1"), "alpha turbine")
    )
    assert not any("alpha" in url for url in await urls(catalog, Where("C1", "3.1", True), "alpha"))
    team = await urls(catalog, Where("C2", "2.1"), "microgeração potência")
    assert any("lei-14300" in url for url in team)
    await urls(catalog, Where("C1", "4.1"), "alpha turbine")  # the same library, kept
    assert sorted(opened) == sorted([own.resolve(), make_settings().library.resolve()])


async def test_a_kept_library_is_opened_again_only_once_its_folder_changed(
    make_settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = folder_with(tmp_path, "alpha")
    opened = libraries_opened(monkeypatch)
    catalog = catalog_for(make_settings(redis=False), channel_libraries=f"C1={own}")
    here = Where("C1", "1.1")
    assert not any("beta" in url for url in await urls(catalog, here, "beta reactor"))
    await urls(catalog, here, "alpha turbine")
    assert opened == [own.resolve()]  # unchanged: kept, its folder not walked again
    beta = "# Beta\n\nThe beta reactor holds 7 cores.\n"
    (own / "beta.md").write_text(beta, encoding="utf-8")
    assert any("beta" in url for url in await urls(catalog, here, "beta reactor"))
    assert opened == [own.resolve()] * 2  # the added file seen by the very next research
    await urls(catalog, here, "beta reactor")
    assert opened == [own.resolve()] * 2


async def test_without_a_watch_a_kept_library_is_opened_again_for_each_research(
    make_settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FONTE_LIBRARY_WATCH", "0")  # as on a system inotify is missing from
    own = folder_with(tmp_path, "alpha")
    catalog = catalog_for(make_settings(redis=False), channel_libraries=f"C1={own}")
    here = Where("C1", "1.1")
    assert not any("beta" in url for url in await urls(catalog, here, "beta reactor"))
    (own / "beta.md").write_text("# Beta\n\nThe beta reactor holds 7 cores.\n", "utf-8")
    assert any("beta" in url for url in await urls(catalog, here, "beta reactor"))


async def test_shared_files_are_found_in_their_conversation_only(
    make_settings: Any, tmp_path: Path
) -> None:
    settings = make_settings(redis=False)
    store = ConversationFiles(conversations_root(settings))
    store.add(Conversation("D1"), "turbines.md", ALPHA.encode(), PERMALINK, "Turbines")
    catalog = SourceCatalog.from_settings(settings)
    dm = Where("D1", "9.1", True)
    sources = await catalog.sources_for(dm)
    # The team library and the DM's files, as the research is told: documents, no web.
    assert sources.kind == SourceKind.of(Origin.library, Origin.conversation)
    hits = await sources.searcher.search("alpha turbine megawatts", 10)
    assert hits[0].url == PERMALINK
    assert sources.origin_of is not None
    assert sources.origin_of(PERMALINK) == Origin.conversation
    team_hits = await sources.searcher.search("microgeração potência instalada", 10)
    assert {sources.origin_of(hit.url) for hit in team_hits} == {Origin.library}
    assert "42 megawatts" in (await sources.fetcher.fetch(PERMALINK)).text
    # Another thread of the same DM: the same conversation. A channel, another DM: not.
    assert PERMALINK in await urls(catalog, Where("D1", "10.1", True), "alpha turbine")
    assert PERMALINK not in await urls(catalog, Where("C1", "9.1"), "alpha turbine")
    assert PERMALINK not in await urls(catalog, Where("D2", "9.1", True), "alpha turbine")
    channel = await catalog.sources_for(Where("C1", "9.1"))
    with pytest.raises(Exception, match="not a document"):
        await channel.fetcher.fetch(PERMALINK)
    # A file shared later in the DM is found at the next research.
    later = "https://team.slack.com/files/U1/F0BBB/blades.md"
    blades = "# Blades\n\nEach blade of the beta rotor is 61 metres long.\n"
    store.add(Conversation("D1"), "blades.md", blades.encode(), later, "Blades")
    assert later in await urls(catalog, dm, "beta rotor blade metres")


async def test_page_evidence_follows_the_sources_a_report_recorded(make_settings: Any) -> None:
    settings = make_settings(redis=False)
    store = ConversationFiles(conversations_root(settings))
    store.add(Conversation("D1"), "turbines.md", ALPHA.encode(), PERMALINK, "Turbines")
    catalog = SourceCatalog.from_settings(settings)
    researched = await catalog.sources_for(Where("D1", "9.1", True))
    recorded = await catalog.recorded(list(researched.labels))
    assert recorded.origin_of is not None
    assert recorded.origin_of(PERMALINK) == Origin.conversation
    # Labels naming a folder the process does not know open nothing of it.
    unknown = await catalog.recorded(["library:/etc"])
    assert unknown.labels == (await catalog.sources_for(None)).labels


def test_slack_file_addresses_are_recognised() -> None:
    assert is_slack_file(PERMALINK)
    assert is_slack_file("https://files.slack.com/files-pri/T1-F1/deck.pdf")
    assert not is_slack_file("https://slack.com/help/articles/files")
    assert not is_slack_file("https://example.org/files/report.pdf")
    assert not is_slack_file("https://evil-slack.com/files/x")


def test_a_library_folder_absent_on_a_worker_is_no_problem_with_a_shared_store(
    make_settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings(redis=False, library=tmp_path / "absent", source="library")
    problem = configured_library_problem(settings)
    assert problem is not None
    assert problem.startswith(f"FONTE_LIBRARY={tmp_path / 'absent'}: no such folder")
    unreachable = "postgresql://fonte:s3cret@127.0.0.1:1/fonte"
    monkeypatch.setenv("FONTE_LIBRARY_STORE", unreachable)
    problem = configured_library_problem(settings)
    assert problem is not None
    assert "library store postgresql://fonte:***@127.0.0.1:1/fonte cannot be reached" in problem


def test_a_worker_without_the_folder_checks_the_store_holds_its_library(
    make_settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, postgres_url: str
) -> None:
    folder = folder_with(tmp_path, "team")
    monkeypatch.setenv("FONTE_LIBRARY_STORE", postgres_url)
    settings = make_settings(redis=False, library=tmp_path / "team", source="library")
    Library.open(folder, cache_dir=tmp_path / "cache")  # indexed into the store
    renamed = folder.rename(tmp_path / "elsewhere")
    assert configured_library_problem(settings) is None
    renamed.rename(folder)
    other = make_settings(redis=False, library=tmp_path / "never-indexed", source="library")
    problem = configured_library_problem(other)
    assert problem is not None
    assert problem.endswith("holds no index of it")
