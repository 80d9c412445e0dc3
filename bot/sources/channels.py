"""Which library a channel researches: the team library (FONTE_LIBRARY), or a folder of its
own mapped by FONTE_CHANNEL_LIBRARIES.

Two ways to write the mapping: the path of a JSON or TOML file,

    {"C0123ABCD": "/data/sales", "C0456EFGH": {"folder": "/data/legal", "private": true}}

(TOML: `C0123ABCD = "/data/sales"` and a `[C0456EFGH]` table with `folder` and `private`),
or the pairs themselves, `C0123ABCD=/data/sales,C0456EFGH=/data/legal`. A channel is private
when its id starts with G (Slack's older private channels), when the file says so, or when
FONTE_PRIVATE_CHANNELS lists it.

A private channel's library must never be read from anywhere else, so the mapping is refused
at start when its folder is mapped to another channel too, or is, contains or lies inside
another mapped folder or the team library (a library reads its subfolders). A mapped folder
that is missing is refused as well (unless the libraries are kept in a shared store,
`FONTE_LIBRARY_STORE`: a worker then reads them with no copy of the folders, each under its
folder's own name): each problem is one line naming the channel. DMs never
use a channel's library (see `library_for`).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from engine import BadInput

VARIABLE = "FONTE_CHANNEL_LIBRARIES"


@dataclass(frozen=True)
class ChannelLibrary:
    channel: str
    folder: Path
    private: bool = False


@dataclass(frozen=True)
class ChannelLibraries:
    """The channels that research a library of their own; every other one (and every DM)
    researches the team library."""

    mapped: Mapping[str, ChannelLibrary]

    def library_for(self, channel: str, is_dm: bool, team: Path | None) -> Path | None:
        """The folder `channel` researches: its own, else the team library (`team`); a
        DM always the team library, whatever its channel id maps to."""
        if is_dm:
            return team
        own = self.mapped.get(channel)
        return own.folder if own is not None else team

    def folders(self) -> list[Path]:
        return list(dict.fromkeys(entry.folder for entry in self.mapped.values()))


NO_CHANNEL_LIBRARIES = ChannelLibraries({})


def parse_channel_libraries(
    value: str | None,
    *,
    private_channels: frozenset[str] = frozenset(),
    team: Path | None = None,
    base: Path | None = None,
    stored: bool = False,
) -> ChannelLibraries:
    """The mapping FONTE_CHANNEL_LIBRARIES gives (a file's path or `C1=/a,C2=/b`),
    checked: raises BadInput, one line, for a bad entry, a missing folder or a private
    channel's folder used anywhere else. `base` resolves relative paths (the file's own
    folder for a file; the working directory otherwise)."""
    if value is None or not value.strip():
        return NO_CHANNEL_LIBRARIES
    if "=" in value:
        raw: dict[str, object] = dict(_pairs(value))
        where = base or Path.cwd()
    else:
        path = Path(value.strip()).expanduser()
        raw = _read_file(path)
        where = path.parent
    entries = [
        _entry(channel, spec, where, private_channels, stored) for channel, spec in raw.items()
    ]
    _check(entries, team)
    return ChannelLibraries({entry.channel: entry for entry in entries})


def _pairs(value: str) -> list[tuple[str, str]]:
    pairs = []
    for item in value.split(","):
        if not item.strip():
            continue
        channel, equals, folder = item.partition("=")
        if not equals or not channel.strip() or not folder.strip():
            raise BadInput(f"{VARIABLE}: {item.strip()!r} is not CHANNEL=/folder")
        pairs.append((channel.strip(), folder.strip()))
    seen = [channel for channel, _ in pairs]
    doubled = sorted({channel for channel in seen if seen.count(channel) > 1})
    if doubled:
        raise BadInput(f"{VARIABLE}: channel {doubled[0]} is mapped twice")
    return pairs


def _read_file(path: Path) -> dict[str, object]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BadInput(f"{VARIABLE}={path}: {error.strerror or error}") from None
    try:
        loaded: object = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as error:
        kind = "TOML" if path.suffix == ".toml" else "JSON"
        raise BadInput(f"{VARIABLE}={path}: not valid {kind}: {error}") from None
    if not isinstance(loaded, dict):
        raise BadInput(f"{VARIABLE}={path}: expected an object of channel ids to folders")
    return {str(key): spec for key, spec in loaded.items()}


def _entry(
    channel: str, spec: object, base: Path, private_channels: frozenset[str], stored: bool
) -> ChannelLibrary:
    if not channel.isalnum() or not channel.isupper() or channel[0] not in "CG":
        raise BadInput(f"{VARIABLE}: {channel!r} is not a channel id (C… or G…)")
    private = channel.startswith("G") or channel in private_channels
    if isinstance(spec, str):
        folder = spec
    elif isinstance(spec, dict) and isinstance(spec.get("folder"), str):
        folder = spec["folder"]
        if not isinstance(spec.get("private", False), bool):
            raise BadInput(f"{VARIABLE}: channel {channel}: private is true or false")
        private = private or bool(spec.get("private", False))
    else:
        raise BadInput(f"{VARIABLE}: channel {channel}: give a folder, or {{folder, private}}")
    path = Path(folder).expanduser()
    path = (path if path.is_absolute() else base / path).resolve()
    if not stored and not path.is_dir():
        raise BadInput(f"{VARIABLE}: channel {channel}: no such folder {path}")
    return ChannelLibrary(channel, path, private)


def _check(entries: list[ChannelLibrary], team: Path | None) -> None:
    """A private channel's folder is nobody else's: not another channel's, not the team
    library's, not inside or around either."""
    team_folder = team.expanduser().resolve() if team is not None else None
    for entry in entries:
        if not entry.private:
            continue
        for other in entries:
            if other is not entry and _overlap(entry.folder, other.folder):
                raise BadInput(
                    f"{VARIABLE}: {entry.folder} is the private channel {entry.channel}'s "
                    f"library and cannot also serve {other.channel}"
                )
        if team_folder is not None and _overlap(entry.folder, team_folder):
            raise BadInput(
                f"{VARIABLE}: {entry.folder} is the private channel {entry.channel}'s "
                "library and overlaps FONTE_LIBRARY, which every other channel reads"
            )


def _overlap(one: Path, other: Path) -> bool:
    return one == other or one.is_relative_to(other) or other.is_relative_to(one)


__all__ = [
    "NO_CHANNEL_LIBRARIES",
    "VARIABLE",
    "ChannelLibraries",
    "ChannelLibrary",
    "parse_channel_libraries",
]
