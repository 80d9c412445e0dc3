"""The files people shared in a conversation, kept as a library folder of that conversation
alone.

A conversation is a channel's thread, or a whole DM: `Conversation(channel, thread)`. Each
has its own folder under the store's root, holding the files and an `index.jsonl` in the
library's manifest format (`{"file", "url", "title"}`, see engine/sources/library/manifest)
whose `url` is the file's Slack permalink: a library opened on the folder cites the
permalink (`#page=N` on a PDF's pages) and `Library.pdf_path` maps it back to the file for
page crops. Nothing else is written in the root, so a folder's parent has no manifest of
its own to lend it (the library reads its parent's manifest too).

A file is never readable from another conversation: the folder is named by the
conversation alone, and `folder()` is the only way to it. Files older than `keep_days`
(FONTE_FILES_DAYS) are removed whenever the store is touched, with their index rows.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import math
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.config import Settings

ROOT_NAME = "shared-files"
INDEX = "index.jsonl"
SHARED_AT = ".shared_at.json"
"""When each file was kept (seconds from the store's clock): what retention reads. Its
suffix is no document's, so the library never reads it."""
LOCK = ".lock"

_CHANNEL = re.compile(r"^[A-Z0-9]{1,40}$")
_THREAD = re.compile(r"^(?:\d{1,20}\.\d{1,12})?$")
_UNSAFE = re.compile(r"[^\w.\- ]+")


@dataclass(frozen=True)
class Conversation:
    """Whose files are whose: a channel's thread (`thread` its root ts), or a DM as a
    whole (`thread` ""). Only Slack's own id and ts shapes are accepted, so the folder name
    built from them can never climb out of the store."""

    channel: str
    thread: str = ""

    def __post_init__(self) -> None:
        if not _CHANNEL.match(self.channel) or not _THREAD.match(self.thread):
            raise ValueError(f"not a Slack conversation: {self.channel!r} {self.thread!r}")

    @property
    def folder_name(self) -> str:
        return f"{self.channel}-{self.thread.replace('.', '_') or 'dm'}"


def conversation_of(channel: str, thread_ts: str | None, ts: str, is_dm: bool) -> Conversation:
    """The conversation a message belongs to. In a channel, its thread: the thread it was
    posted in, else the thread it starts (its own ts, where the bot answers). A DM (the
    user and the bot alone) is one conversation whatever its threads: a file shared at its
    top level serves a question asked in a thread, and nobody else can read it there."""
    if is_dm:
        return Conversation(channel, "")
    return Conversation(channel, str(thread_ts or ts))


def conversation_files(settings: Settings) -> ConversationFiles:
    """The store a process's settings name: `shared-files` in the cache dir (FONTE_CACHE_DIR,
    else ~/.cache/fonte, as the library's), kept FONTE_FILES_DAYS. The bot and its workers
    must share that folder: the bot may keep a file a worker's research reads."""
    configured = os.environ.get("FONTE_CACHE_DIR", "").strip()
    base = settings.cache_dir or (
        Path(configured).expanduser() if configured else Path.home() / ".cache" / "fonte"
    )
    return ConversationFiles(base / ROOT_NAME, keep_days=settings.files_days)


@dataclass(frozen=True)
class KeptFile:
    file: str
    """Its name in the conversation's folder."""
    url: str
    """The file's Slack permalink: what a report cites."""
    title: str
    path: Path


class ConversationFiles:
    """The shared files of every conversation, under `root` (a folder of the cache dir)."""

    def __init__(
        self, root: Path, *, keep_days: float = 30.0, clock: Callable[[], float] = time.time
    ) -> None:
        self.root = Path(root)
        self.keep_seconds = keep_days * 24 * 3600
        self.clock = clock

    def add(
        self, conversation: Conversation, name: str, content: bytes, permalink: str, title: str
    ) -> KeptFile:
        """Keep `content` as `name` in the conversation. The same permalink shared again
        replaces its file; another file of the same name gets a name of its own."""
        self.purge()
        folder = self.root / conversation.folder_name
        folder.mkdir(parents=True, exist_ok=True)
        with _locked(folder):
            folder.mkdir(parents=True, exist_ok=True)  # a purge may have removed it meanwhile
            rows = _rows(folder)
            same = next((row for row in rows if row["url"] == permalink), None)
            taken = {row["file"] for row in rows if row is not same} | {INDEX}
            file = same["file"] if same is not None else _free_name(safe_name(name), taken)
            _write(folder / file, content)
            rows = [row for row in rows if row is not same]
            rows.append({"file": file, "url": permalink, "title": title or name})
            _write(folder / INDEX, _index_text(rows))
            stamps = _stamps(folder)
            stamps[file] = self.clock()
            _write(folder / SHARED_AT, json.dumps(stamps).encode())
        return KeptFile(file, permalink, title or name, folder / file)

    def folder(self, conversation: Conversation) -> Path | None:
        """The conversation's folder, to open as a library; None when nothing shared there
        is kept."""
        self.purge()
        folder = self.root / conversation.folder_name
        return folder if _rows(folder) else None

    def version(self, conversation: Conversation) -> str | None:
        """What the conversation keeps, as a short digest that changes whenever a file is
        added, replaced or expires: a library opened on the folder is stale once it
        differs. None when nothing is kept."""
        folder = self.folder(conversation)
        if folder is None:
            return None
        digest = hashlib.sha256()
        for name in (INDEX, SHARED_AT):
            with contextlib.suppress(FileNotFoundError):
                digest.update((folder / name).read_bytes())
        return digest.hexdigest()[:16]

    def files(self, conversation: Conversation) -> list[KeptFile]:
        """What the conversation keeps, oldest first."""
        folder = self.folder(conversation)
        if folder is None:
            return []
        rows = _rows(folder)
        return [KeptFile(r["file"], r["url"], r["title"], folder / r["file"]) for r in rows]

    def purge(self) -> None:
        """Remove every file kept longer than `keep_days`, and folders left with none."""
        if not self.root.is_dir():
            return
        oldest = self.clock() - self.keep_seconds
        for folder in sorted(p for p in self.root.iterdir() if p.is_dir()):
            if not self._purge_folder(folder, oldest):
                shutil.rmtree(folder, ignore_errors=True)

    @staticmethod
    def _purge_folder(folder: Path, oldest: float) -> bool:
        """Drop the folder's files kept before `oldest` (and any without a time); whether
        any file is left."""
        with _locked(folder):
            stamps, rows = _stamps(folder), _rows(folder)
            kept = [row for row in rows if stamps.get(row["file"], -math.inf) >= oldest]
            if len(kept) == len(rows):
                return True  # nothing expired (or a folder being filled right now)
            for row in rows:
                if row not in kept:
                    with contextlib.suppress(FileNotFoundError):
                        (folder / row["file"]).unlink()
            if kept:
                _write(folder / INDEX, _index_text(kept))
                left = {row["file"]: stamps[row["file"]] for row in kept}
                _write(folder / SHARED_AT, json.dumps(left).encode())
            return bool(kept)


def safe_name(name: str) -> str:
    """`name` as a file name of the folder: its last path part, no control or path
    characters, a lowercase suffix (what the library reads a kind from), at most 120
    characters."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    stem, dot, suffix = base.rpartition(".")
    if not dot:
        stem, suffix = base, ""
    stem = _UNSAFE.sub("_", stem).strip(" .") or "file"
    suffix = _UNSAFE.sub("", suffix).lower()
    return f"{stem[:100]}.{suffix[:10]}" if suffix else stem[:100]


def _free_name(name: str, taken: set[str]) -> str:
    if name not in taken and not name.startswith("."):
        return name
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    stem = stem.lstrip(".") or "file"
    for number in range(2, 10_000):
        candidate = f"{stem}-{number}.{suffix}" if suffix else f"{stem}-{number}"
        if candidate not in taken:
            return candidate
    raise ValueError("too many files of one name")


def _rows(folder: Path) -> list[dict[str, str]]:
    """The folder's index rows whose file is there."""
    try:
        lines = (folder / INDEX).read_text(encoding="utf-8").splitlines()
    except (FileNotFoundError, NotADirectoryError):
        return []
    rows = []
    for line in lines:
        with contextlib.suppress(json.JSONDecodeError):
            row = json.loads(line)
            if isinstance(row, dict) and (folder / str(row.get("file", ""))).is_file():
                rows.append({key: str(row.get(key, "")) for key in ("file", "url", "title")})
    return rows


def _stamps(folder: Path) -> dict[str, float]:
    try:
        stamps = json.loads((folder / SHARED_AT).read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
    return {str(k): float(v) for k, v in stamps.items()} if isinstance(stamps, dict) else {}


def _index_text(rows: list[dict[str, str]]) -> bytes:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode()


def _write(path: Path, content: bytes) -> None:
    """Whole or not at all: a reader never sees half a file (written, synced, renamed)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".part-")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One writer of a folder at a time, across the bot and its workers."""
    try:
        stream = (folder / LOCK).open("a")
    except FileNotFoundError:  # removed by another process's purge
        yield
        return
    with stream:
        fcntl.flock(stream, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(stream, fcntl.LOCK_UN)
