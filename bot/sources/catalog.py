"""The sources of one conversation's research, from the sources a process opened once.

A research in a channel reads that channel's library (FONTE_CHANNEL_LIBRARIES) or the team
library, the web when FONTE_SOURCE names it, and the files shared in its thread on top; a
DM reads the team library (never a channel's), the web, and its own shared files. Each
library is opened (indexed) in a thread and kept, watched (`Library.open(watch=True)`): a
research finds it as kept while its folder is unchanged, and opened again (only the files
that changed read) once anything in the folder changed, with no walk of the folder before
each research. A conversation's folder is opened again only when its index changed (a file
was shared since). The same conversation gives the same sources in the bot and in every worker:
all of it follows from the settings and the report's channel, thread and DM flag, and the
shared files live under the shared cache dir.

With a source factory of its own (`module:function`, or one a test injects) the process
researches that factory's sources, with the conversation's shared files on top.

With FONTE_SLACK_SEARCH on, a research whose requester consented also reads Slack's own
search, as them (bot.sources.slack_search): one more part, made for that research alone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from bot.config import Settings
from bot.files import Conversation, conversation_files, conversation_of
from bot.sources.channels import ChannelLibraries, parse_channel_libraries
from bot.sources.factories import SourceUnavailable, as_part, open_web, source_parts
from bot.sources.slack_search import SlackSearchParts, is_workspace_permalink, on_slack
from engine import Report
from engine.assembly import (
    LIBRARY_LABEL,
    WEB_LABEL,
    SourcePart,
    Sources,
    combined_sources,
    library_sources,
    with_origins,
)
from engine.render import PageEvidence
from engine.sources import Origin, SourceKind
from engine.sources.library import Library, LibraryError, default_store_url

log = logging.getLogger(__name__)


class InConversation(Protocol):
    """Where a research was asked: a report's state (bot.redis.state.ReportState) or
    anything else with its channel, thread root and DM flag."""

    @property
    def channel(self) -> str: ...
    @property
    def thread_ts(self) -> str: ...
    @property
    def is_dm(self) -> bool: ...


@runtime_checkable
class AskedFor(InConversation, Protocol):
    """A research as its state says (bot.redis.state.ReportState): where it was asked (and
    is delivered), who asked, the action token of their message, its language, and why
    Slack search already failed for it (None while it has not): what its Slack search part
    needs (bot.sources.slack_search)."""

    report_id: str
    requester: str
    action_token: str | None
    language: str
    slack_search_note: str | None


class ConversationFolders(Protocol):
    """The folder of a conversation's shared files (bot.files.store.ConversationFiles)."""

    def folder(self, conversation: Conversation) -> Path | None: ...


def conversations_root(settings: Settings) -> Path:
    """Where the shared files of every conversation are kept (bot.files' store, under the
    cache dir, which the bot and its workers share)."""
    return conversation_files(settings).root


def origins_marked(report: Report, sources: Sources) -> Report:
    """`report` with the origin of each cited document recorded when `sources` combined
    several (team library, web, shared files), for the report to say which is which."""
    return report if sources.origin_of is None else with_origins(report, sources.origin_of)


def is_slack_file(url: str) -> bool:
    """A file's address on Slack (a permalink, a `url_private`): never read from the web,
    whose fetcher has no token and must not learn the address of a private file."""
    parts = on_slack(url)
    if parts is None:
        return False
    return (parts.hostname or "").lower().startswith("files.") or parts.path.startswith("/files")


def is_workspace_address(url: str) -> bool:
    """A file's or a message's address in a Slack workspace: never read from the web."""
    return is_slack_file(url) or is_workspace_permalink(url)


@dataclass(frozen=True)
class _Kept:
    """A library a process keeps open, and its sources."""

    library: Library
    sources: Sources


class SourceCatalog:
    """The libraries, the web and the conversation folders a process researches, each
    opened once, and the combination of them each conversation's research gets."""

    def __init__(
        self,
        settings: Settings,
        *,
        channels: ChannelLibraries,
        folders: ConversationFolders,
        custom: Callable[[], Awaitable[Sources]] | None = None,
        slack: SlackSearchParts | None = None,
    ) -> None:
        self.settings = settings
        self.slack = slack
        self.channels = channels
        self.folders = folders
        self.root = conversations_root(settings).resolve()
        self._custom = custom
        self._libraries: dict[Path, _Kept] = {}
        self._shared: dict[Path, tuple[tuple[int, int], Sources | None]] = {}
        self._web: Sources | None = None
        self._locks: dict[object, asyncio.Lock] = {}

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        custom: Callable[[], Awaitable[Sources]] | None = None,
        slack: SlackSearchParts | None = None,
    ) -> SourceCatalog:
        """Raises BadInput (one line) for a channel mapping that cannot be used."""
        channels = parse_channel_libraries(
            settings.channel_libraries,
            private_channels=settings.private_channels,
            team=settings.library,
            stored=default_store_url() is not None,
        )
        folders = conversation_files(settings)
        return cls(settings, channels=channels, folders=folders, custom=custom, slack=slack)

    async def sources_for(self, where: InConversation | None, *, fresh: bool = False) -> Sources:
        """The sources of a research asked `where` (None: no conversation, the process's
        own, for the health check and warm-up). `fresh`: its libraries are opened again
        first (their index reads only the files that changed), for a research that must see
        the files as they are now (a routine's run, bot.routines.run)."""
        parts: list[SourcePart] = []
        if where is not None:
            shared = await self._conversation(where)
            parts += [shared] if shared is not None else []
        base = await self._base(where, fresh)
        searched = await self._slack_search(where)
        if not parts and len(base) == 1 and searched is None:
            return base[0]  # one source: as it always was, no origins to tell apart
        parts += [as_part(sources) for sources in base]
        parts += [searched] if searched is not None else []
        return combined_sources(parts, keep_off_open=is_workspace_address)

    async def _slack_search(self, where: object) -> SourcePart | None:
        """Slack's search as a part of the research asked `where`, when it is on and its
        requester consented; None otherwise (and no call is ever made)."""
        if self.slack is None or not isinstance(where, AskedFor):
            return None
        return await self.slack.part_for(where)

    async def recorded(self, labels: list[str]) -> Sources:
        """The sources a report recorded it was researched with (`Report.sources`), for
        its page crops: its conversation's folder among them, whoever renders it."""
        if self._custom is not None:
            base = [await self._custom()]
        else:
            base = []
            for label in labels:
                if label.startswith(WEB_LABEL) and Origin.web in self._names():
                    base.append(await self._open_web())
                folder = _library_folder(label)
                if folder is not None and folder in self._known_folders():
                    base.append(await self._library(folder))
        shared = []
        for label in labels:
            folder = _library_folder(label)
            if folder is not None and folder.is_relative_to(self.root) and folder.is_dir():
                part = await self._shared_part(folder)
                shared += [part] if part is not None else []
        parts = [*shared, *(as_part(sources) for sources in base)]
        if not parts:  # a report that recorded none (written before labels): the team's
            return await self.sources_for(None)
        if len(parts) == 1 and not shared:
            return base[0]
        return combined_sources(parts, keep_off_open=is_workspace_address)

    async def evidence(self, labels: list[str]) -> PageEvidence | None:
        return (await self.recorded(labels)).evidence

    def _names(self) -> tuple[Origin, ...]:
        return source_parts(self.settings.source) or ()

    def _known_folders(self) -> set[Path]:
        return set(self.channels.folders()) | self._team()

    async def _base(self, where: InConversation | None, fresh: bool = False) -> list[Sources]:
        if self._custom is not None:
            return [await self._custom()]
        opened: list[Sources] = []
        for part in self._names():
            if part is Origin.web:
                opened.append(await self._open_web())
                continue
            channel, is_dm = ("", True) if where is None else (where.channel, where.is_dm)
            folder = self.channels.library_for(channel, is_dm, self.settings.library)
            if folder is None:
                raise SourceUnavailable(
                    "FONTE_LIBRARY is not set: point it at a folder of documents"
                )
            opened.append(await self._library(folder.expanduser().resolve(), fresh))
        return opened

    def _lock(self, key: object) -> asyncio.Lock:
        """One opening at a time of each source; others open meanwhile."""
        return self._locks.setdefault(key, asyncio.Lock())

    async def _library(self, folder: Path, fresh: bool = False) -> Sources:
        """The library of `folder`, opened again when its folder changed since (its watch
        says so, or it has none: the opening then walks the folder and reads only what
        changed), or when the research must see it `fresh`."""
        async with self._lock(folder):
            kept = self._libraries.get(folder)
            if fresh or kept is None or not kept.library.unchanged():
                opened = await asyncio.to_thread(self._open_library, folder)
                if kept is not None:
                    kept.library.close()  # researches still reading it go on: only its watch stops
                self._libraries[folder] = opened
            return self._libraries[folder].sources

    def _open_library(self, folder: Path) -> _Kept:
        warnings: list[str] = []
        try:
            library = Library.open(
                folder, cache_dir=self.settings.cache_dir, on_warning=warnings.append, watch=True
            )
        except LibraryError as error:
            variable = "FONTE_LIBRARY" if folder in self._team() else "FONTE_CHANNEL_LIBRARIES"
            raise SourceUnavailable(f"{variable}: {error}") from None
        return _Kept(library, library_sources(library, warnings))

    def _team(self) -> set[Path]:
        team = self.settings.library
        return {team.expanduser().resolve()} if team is not None else set()

    async def _open_web(self) -> Sources:
        async with self._lock("web"):
            if self._web is None:
                self._web = open_web(self.settings)
            return self._web

    async def _conversation(self, where: InConversation) -> SourcePart | None:
        """The files shared where the research was asked, as a part of its sources."""
        try:
            conversation = conversation_of(where.channel, where.thread_ts, "", where.is_dm)
        except ValueError:
            return None  # not a Slack conversation (a CLI run, a test's made-up ids)
        folder = await asyncio.to_thread(self.folders.folder, conversation)
        return None if folder is None else await self._shared_part(folder.resolve())

    async def _shared_part(self, folder: Path) -> SourcePart | None:
        """The folder's files as a part, None when none of them is readable (the research
        goes on with its other sources; the file's refusal was said when it was shared)."""
        stamp = _stamp(folder)
        async with self._lock(folder):
            cached = self._shared.get(folder)
            if cached is None or cached[0] != stamp:
                opened = await asyncio.to_thread(self._open_shared, folder)
                self._shared[folder] = cached = (stamp, opened)
        sources = cached[1]
        return None if sources is None else as_part(sources)

    def _open_shared(self, folder: Path) -> Sources | None:
        warnings: list[str] = []
        try:
            library = Library.open(
                folder, cache_dir=self.settings.cache_dir, on_warning=warnings.append
            )
        except LibraryError as error:
            log.warning("shared files of %s: %s", folder.name, error)
            return None
        # A library folder, and to the research the files shared in its conversation.
        library.kind = SourceKind.of(Origin.conversation)
        return library_sources(library, warnings)

    async def aclose(self) -> None:
        web, self._web = self._web, None
        if web is not None:
            await web.aclose()


def _library_folder(label: str) -> Path | None:
    if not label.startswith(LIBRARY_LABEL):
        return None
    return Path(label.removeprefix(LIBRARY_LABEL)).resolve()


def _stamp(folder: Path) -> tuple[int, int]:
    """What changes when a file is shared in the folder: its index's time and size."""
    try:
        status = (folder / "index.jsonl").stat()
    except OSError:
        return (0, 0)
    return (status.st_mtime_ns, status.st_size)


__all__ = [
    "AskedFor",
    "ConversationFolders",
    "InConversation",
    "SourceCatalog",
    "conversations_root",
    "is_slack_file",
    "is_workspace_address",
    "origins_marked",
]
